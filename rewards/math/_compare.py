"""Step two: compare an extracted answer with the gold. Cheap paths in this process first
(`_fast.fast_compare`), then magnitude bounds (`_magnitude`: sizes that cannot be equal),
then structural limits, then a killable worker process for sympy. `compare` does one pair; `compare_batch` dedups, caches and spreads over all cores."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass, replace
from itertools import repeat
from typing import Any

from rewards.cache import ByteCache, byte_cache
from rewards.math._config import MathConfig, Verdict
from rewards.math._extract import (
    PLACE_NOUNS,
    Extraction,
    box_cut_by_tail,
    final_sentence_start,
    number_value,
    numbers_stated,
    one_math_reading,
    prepare_reference,
    said_of_expression,
    stated_answers,
)
from rewards.math._fast import fast_compare
from rewards.math._limits import structural_problem
from rewards.math._magnitude import magnitude_verdict, size_of
from rewards.math._normalize import (
    BESIDE_THE_BOX,
    ENDS_IN_A_SIGN,
    HEDGED,
    MAX_QUESTION_CHARS,
    OTHER_KIND,
    RESTATED,
    UNCERTAIN,
    affirms,
    as_intervals,
    asks_for_percent,
    carried_words,
    counted_magnitude,
    hedges,
    imaginary_unit_like_gold,
    inequality_as_interval,
    is_choice,
    joined_value,
    money_unasked,
    no_answer_in,
    normalize,
    parse_number,
    qualifiers,
    question_words,
    restates_question,
    sentence_key,
    text_carries_meaning,
)
from rewards.math._pool import shared_pool

__all__ = ["Reference", "VerdictCache", "compare", "compare_batch", "compare_local",
           "read_reference", "same_reference"]

_DEFAULT = MathConfig()
Job = tuple[str, str, bool]  # (answer or completion text, gold text, pred is a whole text)
MAX_REFERENCE_CHARS = 20_000
"""A longer gold is not an answer: it abstains before any pattern runs on it."""


class VerdictCache(ByteCache[tuple[str, str, bool, MathConfig], Verdict]):
    """Thread-safe LRU of symbolic verdicts keyed by (answer, gold, whole text?, config): at most `size`
    entries and `MAX_VERDICT_BYTES` (answers and golds are any length)."""

    def __init__(self, size: int) -> None:
        super().__init__(MAX_VERDICT_BYTES, max_entries=max(size, 0))


MAX_VERDICT_BYTES = 64 << 20


# A question answered by an ordinal: one that names a place in an order (`place`, `rank`, not
# `decimal place`), or asks which member of a series counted in order (`PLACE_NOUNS`: `Which
# floor ...?`, `What day of the month ...?`, `Which term of the sequence ...?`).
_PLACE_WORDS = re.compile(
    r"\b(?<!decimal )(?:place|position|rank|ranked|ranking|ordinal)\b|"
    rf"\b(?:which|what)\s+(?:{'|'.join(PLACE_NOUNS)})s?\b", re.IGNORECASE)


def asks_for_place(question: str | None) -> bool:
    """Whether a question asks for a place in an order (`In which place did Mia finish?`,
    `What is her rank?`, `Which floor does Mia live on?`), where an ordinal suffix glued to a
    box (`\\boxed{7}th`) writes the value as a place (`Extraction.ordinal`)."""
    return bool(question) and _PLACE_WORDS.search(question or "") is not None


@byte_cache(4 << 20)
def _gold_problem(gold_norm: str, config: MathConfig) -> str | None:
    """Why a normalized gold cannot be judged at all (`structural_problem`), read before any
    reply; None also for a gold beyond a syntactic limit whose exact value the size
    arithmetic knows (`2^{2^{2^{2}}}` is 65536: the cheap paths decide it, and a reply they
    cannot decide meets `structural_problem` after them). Cached: a prompt's G rollouts
    share their gold."""
    problem = structural_problem(gold_norm, config)
    if problem is None:
        return None
    size = size_of(gold_norm)
    return problem if size is None or size.exact is None else None


def compare_local(pred: str | Extraction | None, gold: object,
                  config: MathConfig = _DEFAULT, text: str | None = None,
                  question: str | None = None) -> Verdict | Job:
    """Everything decidable without sympy: a `Verdict`, or the job for a worker.

    `pred` is the extracted answer (`None`: none found); `text`, when given, is the completion
    it came from; `question`, the prompt, whose words (`question_words`) the answer may name
    beside its value as it may the gold's. Where the answer came from a rule math-verify has too (boxes, phrases, math
    environments, numbers) or nothing was found, the worker reads `text` as math-verify does,
    so an undecided pair is never decided worse than math-verify decides it."""
    reference = read_reference(gold, question)
    extraction = Extraction(pred, "given", native=False) if isinstance(pred, str) else pred
    if reference.text is None:
        return Verdict("bad_reference", reference.problem)
    if reference.whole:  # (`strict`: only a marked answer, as for any gold)
        marked = extraction is not None and extraction.source in ("phrase", "gsm8k")
        return _whole_verdict(extraction, reference.text,
                              text if marked or not config.strict else None, config)
    gold_text = reference.text
    carried = carried_words(gold_text)  # `9 (apples)`: the answer may drop what the gold does
    asked = question_words(question) if question else frozenset()
    gold_norm = normalize(gold_text, carried | asked)  # (`5 balloons`, `How many balloons`)
    if not gold_norm:
        return Verdict("bad_reference", "reference unparseable: nothing left after normalizing")
    gold_norm = _as_rendered(gold_norm)
    # the gold is judged before the reply: one beyond the limits abstains for every reply
    # (else a copy of it scored 1.0, a reply with no answer 0, and the rest abstained)
    problem = _gold_problem(gold_norm, config)
    if problem:
        return Verdict("bad_reference", f"reference beyond structural limits: {problem}")
    gold_union = as_intervals(gold_norm)
    gold_norm = gold_union or gold_norm
    tail = text[-config.tail_chars:] if text is not None and not config.strict else None
    gold_job = f"${gold_norm}$" if gold_union else _gold_payload(gold, gold_norm)
    if extraction is not None and extraction.source in ("number", "latex") and tail is not None:
        tail = _final_sentence(tail)  # no marked answer: only the last sentence commits one
    if extraction is None:
        # math-verify may still find one, where the completion commits to one: in its last
        # sentence, and only if it ends there (never in a text cut off mid-thought)
        tail = _final_sentence(tail) if tail is not None else None
        if tail is None or not tail.strip() or box_cut_by_tail(text or "", config.tail_chars) is not None:
            return Verdict("no_answer", "no final answer found")
        stated = said_of_expression(tail)  # `\frac{5}{6} is wrong.`: read as a box's clause
        if stated is not None:
            unsaid = _taken_back(Extraction(stated[0], "latex", said=stated[1]), carried,
                                 question_words(question) if question else frozenset())
            if unsaid is not None:
                return unsaid
        return tail, gold_job, True
    unsaid = _taken_back(extraction, carried, asked, asks_for_percent(question))
    # `**4 up quarks**` for "How many up quarks ...?": the question's nouns
    carried = carried | asked
    if unsaid is None:
        unsaid = _stated_after(extraction, question)
    if unsaid is not None:
        return unsaid
    if extraction.uncertain is not None and extraction.ordinal and asks_for_place(question):
        extraction = replace(extraction, uncertain=None)  # `\boxed{7}th` of `In which place`
    if extraction.uncertain is not None:  # `\boxed{7}th`: not the box alone, not read
        return Verdict("wrong", f"{BESIDE_THE_BOX} {extraction.uncertain}")  # (never judged)
    if extraction.words is not None and counted_magnitude(extraction.answer, extraction.words,
                                                         question):
        extraction = replace(extraction, words=None)  # `\boxed{12} dozen` of `How many dozen`
    if extraction.words is not None:
        extraction = _read_with_words(extraction, carried, gold_norm)
    pred_norm = imaginary_unit_like_gold(normalize(extraction.answer, carried), gold_norm)
    shown = _as_rendered(pred_norm)  # `{-}7` is -7, `{\le 7}` is `\le 7`: read by what they show
    if shown != pred_norm:
        pred_norm, extraction = shown, replace(extraction, source="given", native=False)
    union = as_intervals(pred_norm)
    if union is None and _half_open_or_closed(gold_norm):
        union = inequality_as_interval(pred_norm)  # `1.5 \le x < 2.5` against `[1.5, 2.5)`
    if union is not None:  # "x < 1 or x > 3": parsed as the union we write, not as math-verify
        pred_norm, extraction = union, replace(extraction, source="given", native=False)
    if extraction.choice is not None and is_choice(gold_norm) and not is_choice(pred_norm):
        pred_norm = extraction.choice  # "... so option (B) is right", against a choice gold
    if not pred_norm:
        return Verdict("no_answer", "no final answer found")
    if _ends_in_sign(pred_norm) and not _ends_in_sign(gold_norm):
        # `5+`, `5\text{+}` (5 or more): a sign set as text is still a sign, and math-verify
        # would read `$5+$` as 5
        return Verdict("wrong", f"{ENDS_IN_A_SIGN} {pred_norm[-20:]!r}")
    same = joined_value(pred_norm)  # (a gold written so, `0.56 = 56\%`, is read as before)
    if same is not None and joined_value(gold_norm) is None:  # `1000 \approx 1{,}000`: the number
        pred_norm, extraction = same, replace(extraction, source="given", native=False)
    restated = restates_question(pred_norm, question, gold_norm)  # `\sum_{k=1}^{100} k`
    hedged = hedges(pred_norm, gold_norm)  # `7 \lor 8` for 8: no value of its own
    if not (restated or hedged) and money_unasked(extraction.answer, carried):
        return Verdict("wrong", f"{OTHER_KIND} {pred_norm[:60]!r}")
    if extraction.settled:
        fast = fast_compare(*_percent_as_asked(pred_norm, gold_norm, question), config,
                            question=question)
        if fast is not None and (fast.correct or not (restated or hedged)):
            return fast
    if restated:
        return Verdict("wrong", f"{RESTATED} {pred_norm[:60]!r}")
    if hedged:
        return Verdict("wrong", f"{HEDGED} {pred_norm[:60]!r}")
    problem = structural_problem(gold_norm, config)  # (one the size arithmetic knows)
    if problem:
        return Verdict("bad_reference", f"reference beyond structural limits: {problem}")
    if extraction.settled:  # sizes that cannot be equal (`9^{9^{9^{9}}}` against 42)
        magnitude = magnitude_verdict(pred_norm, gold_norm, config.float_rel_tol)
        if magnitude is not None:
            return magnitude
    problem = structural_problem(pred_norm, config)
    if problem:
        return Verdict("timeout", f"structural limit: {problem}")
    # `1+2\mathrm{i}`: math-verify drops the i; `3+4j` read as i
    if text_carries_meaning(extraction.answer, carried) or "j" in pred_norm and pred_norm != normalize(
            extraction.answer, carried):
        return f"${pred_norm}$", gold_job, False
    if extraction.source == "boxed" and not extraction.parts:
        return f"\\boxed{{{extraction.answer}}}", gold_job, False  # math-verify reads one box so
    if extraction.native and tail is not None:
        return tail, gold_job, True
    return f"${pred_norm}$", gold_job, False


def _percent_as_asked(pred: str, gold: str, question: str | None) -> tuple[str, str]:
    """Where the question asks for a percent (`asks_for_percent`), a number's percent sign
    states the unit asked for (`12.5\\%` answers 12.5): dropped where one side alone has it."""
    if (pred.endswith("%") != gold.endswith("%") and asks_for_percent(question)
            and parse_number(pred) is not None and parse_number(gold) is not None):
        return pred.removesuffix("%").rstrip(), gold.removesuffix("%").rstrip()
    return pred, gold


def _taken_back(extraction: Extraction | None, carried: frozenset[str],
                asked: frozenset[str] = frozenset(), percent: bool = False) -> Verdict | None:
    """`no_answer` when the answer (a box or an unmarked number) is the subject of its clause
    and what the clause says of it (`Extraction.said`: `\\boxed{7} is not the answer.`, `7
    was my first guess.`) is not known to leave it the answer (`affirms`: `is the answer`,
    `is our final answer`, units, the gold's words, the question's (`asked`) where they name
    the value's kind): the reply took it back, so it committed to none (never the judge's).
    None when the answer stands."""
    if extraction is None or extraction.said is None or affirms(
            extraction.said, extraction.answer, carried, asked, percent):
        return None
    return Verdict("no_answer", f"the reply says of its answer {extraction.said[:60]!r}, "
                                f"which is not known to leave it the answer")


def _stated_after(extraction: Extraction, question: str | None) -> Verdict | None:
    """`no_answer` when a longer sentence after the box states a value no known harmless form
    explains (`Extraction.stated_after`) and the question does not state it either (`numbers_stated`:
    `We subtract the 3 eaten apples from the 10 we started with.` names the problem's own
    numbers; `On reflection the count of apples that remain is 8 in total.` another answer):
    the reply took its box back. A value told of the story's people (`Extraction.told_after`:
    `She ate 3.`) is held to the question's numbers too, where it states any (`Mia ate 8.`
    after a question of 10 and 3 apples takes the box back). None when every such value is
    the question's."""
    if not extraction.stated_after and not extraction.told_after:
        return None
    asked = numbers_stated(question[:MAX_QUESTION_CHARS]) if question else frozenset()
    # (a story told of the problem's people holds only where the question states a number)
    held = extraction.stated_after + (extraction.told_after if asked else ())
    value, sentence = next(((value, sentence) for value, sentence in held
                            if number_value(value) not in asked), (None, ""))
    if value is None:
        return None
    return Verdict("no_answer", f"the reply states {value} after its answer ({sentence[:60]!r}), "
                                f"a value neither its working nor the question states")


def _read_with_words(extraction: Extraction, carried: frozenset[str],
                     gold_norm: str) -> Extraction:
    """A number found unmarked in prose, read with the words of its clause by the one reading
    rule (`normalize`, `qualifiers`). The clause is a sentence around a value, read as the
    rule reads one: math-verify's rules read the value, and the words known to change a
    value count (`not 7`, `at least 7`, `minus 7`, `8, not 7`); a magnitude is read as the
    number it makes (`7 million`); a number that is the operand of a relation or command
    (`x \\neq 7`, `x < 7`, `\\approx 7`) is read with it. Then the clause is the answer, read
    as the same words in a box are (the pair is wrong or uncertain). Words the rule drops, and
    the words of a sentence that change no value (`12 distinct sequences`, `7 apples in
    total`), leave the number as it is."""
    words = extraction.words or ""
    beside = normalize(words, carried)
    value = normalize(extraction.answer, carried)
    if beside == value or not (qualifiers(beside, sentence=True) - qualifiers(gold_norm)
                               or parse_number(beside) is not None
                               or _operand(beside, value)):
        return extraction
    return replace(extraction, answer=words, parts=(), native=False, settled=True)


def _operand(clause: str, value: str) -> bool:
    """True when what stands right before the value in its clause makes it an operand: a
    LaTeX command (`\\neq`, `\\approx`, `\\sim`) or a sign that is not one known to state or
    separate a value (`_STATES_VALUE`: `=`, `:`, `,`, `;`, a currency sign, a bracket)."""
    at = clause.rfind(value)
    before = clause[:max(at, 0)].rstrip()
    if at < 0 or not before:
        return False
    if before[-1].isalpha():
        command = before.rsplit("\\", 1)
        return len(command) == 2 and command[1].isalpha()
    return before[-1] not in _STATES_VALUE


_STATES_VALUE = frozenset("=:,;$€£¥([{'\"")


def _final_sentence(text: str) -> str | None:
    start = final_sentence_start(text)
    return text[start:] if start is not None else None


def _half_open_or_closed(gold: str) -> bool:
    """An interval gold with a closed or infinite end (`[1.5, 2.5)`, `(-\\infty, 3]`): an
    inequality answers it as the interval it means (`allow_set_relation_comp`, as the worker
    compares them). An open `(a, b)` may be a point: the worker decides."""
    return (gold[:1] in "([" and gold[-1:] in ")]" and "," in gold
            and (gold[0] == "[" or gold[-1] == "]" or "\\infty" in gold))


@dataclass(frozen=True)
class Reference:
    """A gold as the verifier reads it (`read_reference`)."""

    text: str | None
    """The gold's answer text (`prepare_reference`), or the gold as written when it is read
    whole; None when it is unusable."""
    problem: str = ""
    """Why it is unusable (the `bad_reference` verdict's detail); empty when it is usable."""
    whole: bool = False
    """A gold read whole (a sentence around math, a worked solution, labelled parts): only
    the same text answers it (`sentence_key`); any other answer is uncertain."""


def read_reference(gold: object, question: str | None = None) -> Reference:
    """How a gold is read, decided once here: unusable (missing, too long, not a finite
    number, not an answer at all: `no_answer_in`, or no text left), an answer
    (`prepare_reference`), or a gold that states its answer in words around math and has no
    one value the rules can read (`$\\min$ at $x=7$`, `radius: 5, center: $(-1,-1,-1)$`,
    `Any $h$ will work.`, a worked solution), read whole: the answer that is its text scores
    1, any other is uncertain (`wrong`, the judge's where one is configured), never a part of
    it read as the answer. `question` (the sample's prompt as the reward reads it) is read
    with the gold where its text alone cannot tell (`no_answer_in`: a placeholder `N/A` the
    question does not offer, the prompt's own instruction mapped as the gold). A text gold
    is read once per question (a group's rollouts share them)."""
    if isinstance(gold, str):
        return _read_text_reference(gold, question or None)
    return _read_reference(gold)


def _read_reference(gold: object, question: str | None = None) -> Reference:
    if gold is None or (isinstance(gold, str) and not gold.strip()):
        return Reference(None, "reference missing")
    if isinstance(gold, str) and len(gold) > MAX_REFERENCE_CHARS:
        return Reference(None, f"reference unparseable: {len(gold)} chars > "
                               f"{MAX_REFERENCE_CHARS}")
    if isinstance(gold, float) and not math.isfinite(gold):
        return Reference(None, f"reference unparseable: {gold!r} is not a finite number")
    if isinstance(gold, str):
        why = no_answer_in(gold, question)
        if why is not None:
            return Reference(None, f"reference is not an answer: {why}")
    text = prepare_reference(gold)
    if text is None:
        if isinstance(gold, str) and _readable_whole(gold):
            return Reference(gold.strip(), whole=True)
        return Reference(None, f"reference unparseable: {type(gold).__name__} "
                               f"{str(gold)[:60]!r}")
    if text.strip().lower().lstrip("+-") in _NOT_A_NUMBER:
        return Reference(None, f"reference unparseable: {text!r} is not a finite number")
    why = no_answer_in(text, question)  # `\boxed{Let's think step by step.}`
    if why is not None:
        return Reference(None, f"reference is not an answer: {why}")
    return Reference(text)


_read_text_reference = byte_cache(8 << 20)(_read_reference)


def same_reference(first: object, second: object) -> bool:
    """Whether two golds of one row state the same answer, as the verifier reads a gold: both
    usable (`read_reference`: a worked solution's box, the answer after `####`), and each
    one's answer is right against the other by the rules decided without sympy
    (`compare_local`: `\\textbf{(113) }` and `113`, `025` and `25`). A pair those rules leave
    undecided, or either gold unusable or read whole and not the other's text, is not the same:
    the caller then asks which column is the gold rather than guess (`rewards.io`)."""
    a, b = read_reference(first), read_reference(second)
    if a.text is None or b.text is None:
        return False
    if a.text == b.text:
        return True
    there = compare_local(b.text, first)
    back = compare_local(a.text, second)
    return (isinstance(there, Verdict) and there.correct
            and isinstance(back, Verdict) and back.correct)


def _readable_whole(gold: str) -> bool:
    """A gold with something to read besides markup: a letter or digit outside LaTeX command
    names (not an empty `\\boxed{}`, a bare `####` or `$$`)."""
    return any(ch.isalnum() for ch in _COMMAND_NAME.sub("", sentence_key(gold)))


_COMMAND_NAME = re.compile(r"\\[A-Za-z]+")
# An answer that ends in an operator or relation sign (`5+`, `5 -`, `7 \\cdot`, `x =`, `5 \\geq`,
# `5 ≥`, `5 \\to`, `5 \\lor`, `5 \\mid`, `5\\,{\\geq}`, `(5+)`), before what renders nothing
# (`5+{}`, `5+\\relax`) and any closing delimiter (`(5+)`, `|5+|`, `{5+}`, `\\rvert`: one rule,
# `_CLOSER_AT_END`): no value of its own, `5 or more`. A sign in a script (`0^+`, `x_-`, `x^{+}`,
# `Fe^{2+}`) is a one-sided limit's or a name's mark; a group that holds a sign alone
# (`{\\geq}`, `\\mathrel{\\geq}`) is that sign. The signs are TeX's binary operators (the
# modulo commands `\\bmod`, `\\pmod`, `\\mod` among them), large operators, relations and
# arrows, plain and AMS, one table (`_SIGNS`: each command by name and what it sets); a symbol
# that stands for a value (`\\infty`, `∅`, `\\emptyset`) or closes one (`|x|`) is none.
_SIGNS = {
    # binary operators (plain TeX, AMS)
    "pm": "±", "mp": "∓", "times": "×", "div": "÷", "cdot": "⋅", "cdotp": "⋅", "centerdot": "·",
    "ast": "∗", "star": "⋆", "bullet": "∙", "oplus": "⊕", "ominus": "⊖", "otimes": "⊗",
    "oslash": "⊘", "odot": "⊙", "setminus": "∖", "smallsetminus": "∖", "cup": "∪", "cap": "∩",
    "Cup": "⋓", "Cap": "⋒", "sqcup": "⊔", "sqcap": "⊓", "uplus": "⊎", "vee": "∨", "wedge": "∧",
    "lor": "∨", "land": "∧", "curlyvee": "⋎", "curlywedge": "⋏", "veebar": "⊻",
    "barwedge": "⌅", "amalg": "⨿", "wr": "≀", "boxplus": "⊞", "boxminus": "⊟",
    "boxtimes": "⊠", "boxdot": "⊡", "dotplus": "∔", "divideontimes": "⋇", "ltimes": "⋉",
    "rtimes": "⋊", "intercal": "⊺", "triangleleft": "◁", "triangleright": "▷",
    "lhd": "⊲", "rhd": "⊳", "unlhd": "⊴", "unrhd": "⊵", "neg": "¬", "lnot": "¬",
    "bigtriangleup": "△", "bigtriangledown": "▽", "diamond": "⋄", "circledast": "⊛",
    "circledcirc": "⊚", "circleddash": "⊝", "leftthreetimes": "⋋", "rightthreetimes": "⋌",
    "doublebarwedge": "⩞", "bmod": "mod", "pmod": "mod", "mod": "mod", "pod": "mod",
    # large operators (an operand must follow)
    "sum": "∑", "prod": "∏", "coprod": "∐", "int": "∫", "iint": "∬", "iiint": "∭",
    "oint": "∮", "bigcup": "⋃", "bigcap": "⋂", "bigoplus": "⨁", "bigotimes": "⨂",
    "bigodot": "⨀", "biguplus": "⨄", "bigsqcup": "⨆", "bigvee": "⋁", "bigwedge": "⋀",
    # relations
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "leqq": "≦", "geqq": "≧", "leqslant": "⩽",
    "geqslant": "⩾", "lt": "<", "gt": ">", "ne": "≠", "neq": "≠", "equiv": "≡", "approx": "≈",
    "approxeq": "≊", "sim": "∼", "thicksim": "∼", "simeq": "≃", "backsim": "∽", "eqsim": "≂",
    "cong": "≅", "doteq": "≐", "doteqdot": "≑", "triangleq": "≜", "coloneqq": "≔",
    "eqqcolon": "≕", "propto": "∝", "varpropto": "∝", "ll": "≪", "gg": "≫", "lll": "⋘",
    "ggg": "⋙", "prec": "≺", "succ": "≻", "preceq": "⪯", "succeq": "⪰", "preccurlyeq": "≼",
    "succcurlyeq": "≽", "precsim": "≾", "succsim": "≿", "lesssim": "≲", "gtrsim": "≳",
    "lessapprox": "⪅", "gtrapprox": "⪆", "lessgtr": "≶", "gtrless": "≷", "lesseqgtr": "⋚",
    "gtreqless": "⋛", "lessdot": "⋖", "gtrdot": "⋗", "eqslantless": "⪕", "eqslantgtr": "⪖",
    "nless": "≮", "ngtr": "≯", "nleq": "≰", "ngeq": "≱", "nleqslant": "≰", "ngeqslant": "≱",
    "lneq": "⪇", "gneq": "⪈", "lneqq": "≨", "gneqq": "≩", "nsim": "≁", "ncong": "≇",
    "nprec": "⊀", "nsucc": "⊁", "subset": "⊂", "supset": "⊃", "subseteq": "⊆",
    "supseteq": "⊇", "subsetneq": "⊊", "supsetneq": "⊋", "nsubseteq": "⊈", "nsupseteq": "⊉",
    "sqsubset": "⊏", "sqsupset": "⊐", "sqsubseteq": "⊑", "sqsupseteq": "⊒", "in": "∈",
    "ni": "∋", "owns": "∋", "notin": "∉", "mid": "∣", "nmid": "∤", "parallel": "∥",
    "nparallel": "∦", "perp": "⊥", "asymp": "≍", "bowtie": "⋈", "models": "⊨", "vdash": "⊢",
    "dashv": "⊣", "vDash": "⊨", "Vdash": "⊩", "Vvdash": "⊪", "nvdash": "⊬", "nvDash": "⊭",
    "nVdash": "⊮", "nVDash": "⊯", "nsubset": "⊄", "nsupset": "⊅", "subsetneqq": "⫋",
    "supsetneqq": "⫌", "Subset": "⋐", "Supset": "⋑", "nleqq": "≦̸", "ngeqq": "≧̸",
    "lnsim": "⋦", "gnsim": "⋧", "lnapprox": "⪉", "gnapprox": "⪊", "precneqq": "⪵",
    "succneqq": "⪶", "npreceq": "⋠", "nsucceq": "⋡", "trianglelefteq": "⊴",
    "trianglerighteq": "⊵", "ntriangleleft": "⋪", "ntriangleright": "⋫", "between": "≬",
    "pitchfork": "⋔", "smile": "⌣", "frown": "⌢", "Join": "⨝", "circeq": "≗", "eqcirc": "≖",
    "bumpeq": "≏", "Bumpeq": "≎", "risingdotseq": "≓", "fallingdotseq": "≒",
    "shortmid": "∣", "shortparallel": "∥", "nshortmid": "∤", "nshortparallel": "∦",
    "therefore": "∴", "because": "∵", "coloneq": "≔", "eqcolon": "≕",
    "lesseqqgtr": "⪋", "gtreqqless": "⪌", "not": "̸", "nequiv": "≢",
    # arrows
    "to": "→", "gets": "←", "rightarrow": "→", "leftarrow": "←", "Rightarrow": "⇒",
    "Leftarrow": "⇐", "leftrightarrow": "↔", "Leftrightarrow": "⇔", "longrightarrow": "⟶",
    "Longrightarrow": "⟹", "longleftarrow": "⟵", "Longleftarrow": "⟸",
    "longleftrightarrow": "⟷", "Longleftrightarrow": "⟺", "implies": "⟹", "impliedby": "⟸",
    "iff": "⟺", "mapsto": "↦", "longmapsto": "⟼", "hookrightarrow": "↪", "hookleftarrow": "↩",
    "uparrow": "↑", "downarrow": "↓", "Uparrow": "⇑", "Downarrow": "⇓", "updownarrow": "↕",
    "Updownarrow": "⇕", "nearrow": "↗", "searrow": "↘", "swarrow": "↙", "nwarrow": "↖",
    "leadsto": "⇝", "rightharpoonup": "⇀", "rightharpoondown": "⇁", "leftharpoonup": "↼",
    "leftharpoondown": "↽", "rightleftharpoons": "⇌", "leftrightharpoons": "⇋",
    "rightrightarrows": "⇉", "leftleftarrows": "⇇", "twoheadrightarrow": "↠",
    "twoheadleftarrow": "↞", "rightarrowtail": "↣", "leftarrowtail": "↢", "nrightarrow": "↛",
    "nleftarrow": "↚", "nRightarrow": "⇏", "nLeftarrow": "⇍", "nleftrightarrow": "↮",
    "nLeftrightarrow": "⇎", "rightsquigarrow": "⇝", "leftrightsquigarrow": "↭",
    "dashrightarrow": "⇢", "dashleftarrow": "⇠", "Lleftarrow": "⇚", "Rrightarrow": "⇛",
    "looparrowright": "↬", "looparrowleft": "↫", "curvearrowright": "↷", "curvearrowleft": "↶",
    "circlearrowright": "↻", "circlearrowleft": "↺", "Lsh": "↰", "Rsh": "↱", "upuparrows": "⇈",
    "downdownarrows": "⇊", "multimap": "⊸", "restriction": "↾", "longleftrightarrows": "⇆",
    "leftrightarrows": "⇆", "rightleftarrows": "⇄", "xrightarrow": "→", "xleftarrow": "←",
}
_SIGN_COMMANDS = frozenset(_SIGNS)
_SIGN_CHARACTERS = frozenset("+-*/=<>") | frozenset(
    sign for sign in _SIGNS.values() if len(sign) == 1) | frozenset(
    "\u2212\u2215\u2044\u2010\u2011\u2012\u2013\u2014\ufe62\ufe63\uff0b\uff0d\uff1d"
    "\uff1c\uff1e\u2795\u2796\u2797\u2715\u2716")
"""Signs as characters: ASCII's, the table's, and look-alikes a model writes (the minus sign,
slashes, hyphens and dashes, full-width and emoji pluses, minuses and times)."""
_CLOSING = "".join(chr(code) for code in range(0x10000)
                   if unicodedata.category(chr(code)) == "Pe" and chr(code) != "}")
_CLOSER_AT_END = re.compile(
    r"(?:(?:\\(?:right|[Bb]igg?r?)(?![A-Za-z])[ \t\n]*)?"
    rf"(?:[{re.escape(_CLOSING)}|\u2016]|\\[}}|]"
    r"|\\(?:rbrace|rbrack|rangle|rceil|rfloor|rvert|rVert|vert|Vert)(?![A-Za-z]))"
    r"|\\right[ \t\n]*\.|\\end[ \t\n]*\{[A-Za-z*]{1,40}\})[ \t\n]*\Z")
"""A closing delimiter at the end: any bracket Unicode calls closing (category Pe: `)`, `]`,
`⌉`, `⟩`, `」`, full-width ones), a bar (`|`, `\\|`, `‖`, `\\rvert`), an escaped brace `\\}`,
TeX's closing commands, `\\right.`, an environment's `\\end{name}` (a name is no content:
`\\end{Vmatrix*}` ends in no `*`): what it closes ends where its content ends, so a sign right
before it (`(5+)`, `|5+|`, `[5 \\geq]`, `\\{5+\\}`) is one at the end. A group's own brace
closes one too (`{5+}`, `5 \\mathrel{\\geq}`: `_unwrapped_group`), unless the group is a
script's (`f(0^+)`, `x^{+}`, `Fe^{2+}`: a script's mark)."""
_RENDERS_NOTHING_AT_END = re.compile(
    r"(?:(?:[\^_][ \t\n]*)?\{\s*\}|\\(?:[,;:! ]|(?:relax|strut|allowbreak|quad|qquad|mbox|text)(?![A-Za-z]))"
    r"|\\(?:[hv]?phantom|[hv]space)\s*\*?\{[^{}]{0,40}\})\Z")
"""One thing at the end that renders nothing: an empty group or an empty script (`^{}`, `_{}`),
a space or a no-op command, a phantom (spaces, ties and invisible characters are stripped
apart)."""
_WINDOW = 100
"""How far before the end one thing at the end is looked for (`_RENDERS_NOTHING_AT_END`,
`_CLOSER_AT_END` are each shorter, less long runs of blanks): each step of `_ends_in_sign` reads
a bounded stretch, so the walk is linear in the answer, whatever renders nothing after a sign."""
_BLANK = " \t\n~\u200b\u200c\u200d\u2060\ufeff\xa0"
_LAST_COMMAND = re.compile(r"\\([A-Za-z]+)\Z")
_PLAIN_CLOSERS = frozenset(_CLOSING) | {"|", "\u2016"}
_BRACE = re.compile(r"\\.|[{}]", re.DOTALL)


def _brace_pairs(s: str) -> dict[int, int]:
    """Where each closing brace of a group in `s` opens (escaped braces `\\{ \\}` are no
    group's; a brace that closes nothing is left out): one pass."""
    opened: list[int] = []
    pairs: dict[int, int] = {}
    for brace in _BRACE.finditer(s):
        if brace.group() == "{":
            opened.append(brace.start())
        elif brace.group() == "}" and opened:
            pairs[brace.start()] = opened.pop()
    return pairs


def _ends_in_sign(s: str) -> bool:
    """Whether `s`, less what renders nothing at its end (`_RENDERS_NOTHING_AT_END`, a script's
    group that renders nothing: `(5+)^{}`, `(5+)_{\\,}`) and the closing delimiters around its
    end (`_CLOSER_AT_END`, a group's brace: `{5+}`, `5 \\mathrel{\\geq}`), ends in an
    operator or relation sign outside a script (`_SIGNS`).

    One walk from the end over the whole answer, no window cut first (a sign followed by 500
    empty groups or closers is still at the end): each step drops one thing and reads at most
    `_WINDOW` characters, and the groups are paired in one pass (`_brace_pairs`), so the walk
    is linear. A group's braces are read through (its content renders in its place); a
    script's group is a mark (`x^{+}`, `Fe^{2+}`: no sign at the end) unless it renders
    nothing."""
    pairs = _brace_pairs(s) if "}" in s else {}
    end = len(s)
    through: list[tuple[int, int]] = []  # (a group's `{` read through, where the walk resumes)
    scripts = 0  # script groups among them
    while True:  # (each pass shortens s[:end])
        while end and s[end - 1] in _BLANK:
            end -= 1
        if through and end - 1 == through[-1][0]:  # the group's content rendered nothing
            opened, resume = through.pop()
            scripts -= resume != opened
            end = resume
            continue
        if not scripts and end > 1 and s[end - 1] in _PLAIN_CLOSERS and not (
                s[end - 2] == "\\" or s[end - 2].isalpha()):
            end -= 1  # `)`, `]`, `|` alone (no `\\right`, `\\|`): no pattern needed
            continue
        window = max(end - _WINDOW, 0)
        if (nothing := _RENDERS_NOTHING_AT_END.search(s, window, end)) is not None:
            end = nothing.start()
        elif not scripts and (closer := _CLOSER_AT_END.search(s, window, end)) is not None:
            end = closer.start()  # `(5+)`, `|5+|`: a sign
        elif end and s[end - 1] == "}" and end - 1 in pairs:
            opened = before = pairs[end - 1]
            while before and s[before - 1] in _BLANK:
                before -= 1
            script = before > 0 and s[before - 1] in "^_"
            scripts += script
            through.append((opened, before - 1 if script else opened))
            end -= 1
        else:
            break
    if scripts or end and s[end - 1] == "}":
        return False  # `x^{+}`, `Fe^{2+}`: a script's mark (or a brace that closes no group)
    command = _LAST_COMMAND.search(s, max(end - 64, 0), end)
    if command is not None:
        sign, at = command.group(1) in _SIGN_COMMANDS, command.start()
    else:
        sign, at = end > 0 and s[end - 1] in _SIGN_CHARACTERS, end - 1
    while sign:  # what stands before the sign, less blanks and the braces read through
        while at and s[at - 1].isspace():
            at -= 1
        if not (through and at - 1 == through[-1][0]):
            break
        at = through.pop()[0]
    return sign and not (at > 0 and s[at - 1] in "^_{")


_STARRED_MATRIX = re.compile(
    r"\\begin[ \t\n]*\{((?:[pbBvV]|small)?matrix)\*\}(?:[ \t\n]*\[[ \t\n]*[lcr][ \t\n]*\])?"
    r"|\\end[ \t\n]*\{((?:[pbBvV]|small)?matrix)\*\}")
"""mathtools' starred matrix environments (`pmatrix*`, `bmatrix*`, ... with an optional column
alignment `[r]`): the plain environment's matrix, its entries aligned otherwise."""
_GROUP_TOKEN = re.compile(r"\\(?:[A-Za-z]+|.)|[^ \t\n]", re.DOTALL)
_GENERALIZED_FRACTIONS = frozenset({"over", "atop", "above", "choose", "brack", "brace",
                                    "overwithdelims", "atopwithdelims", "abovewithdelims"})
_MATH_SHIFTS = frozenset({"$", "\\(", "\\)"})
_NO_CONTENT = frozenset({"\\,", "\\;", "\\:", "\\!", "\\ ", "\\quad", "\\qquad", "~", "\\relax"})
_SCRIPT_AFTER = re.compile(r"[ \t\n]*[\^_'!]")


def _as_rendered(s: str) -> str:
    """`s` read as TeX renders it where that decides its value: a starred matrix as the plain one (`_STARRED_MATRIX`), and a group whose content opens with a sign as its content
    (`_groups_read`). The fast path and the parse then read what the answer shows."""
    if "matrix*" in s:
        s = _STARRED_MATRIX.sub(
            lambda m: f"\\begin{{{m.group(1)}}}" if m.group(1) else f"\\end{{{m.group(2)}}}", s)
    return _groups_read(s) if "{" in s else s


def _groups_read(s: str) -> str:
    """`s` with each free brace group whose content opens with a sign or relation (`_SIGNS`,
    after math shifts and spaces) read as its content: a group renders its content, so `{-}7`
    is -7, `{\\le 7}` is `\\le 7`, `x = {\\approx 7}` is `x = \\approx 7`, and a pass-through
    box read as its group (`\\hbox{$-$}7`, `{$-$} 7`) is `- 7`. A group stays a group where its
    braces mean something: a script's (`10^{-3}`), a command's argument (`\\frac{-1}{2}`,
    `\\sqrt[3]{-8}`, `\\text{-}`), a script's base (`{-2}^2` is 4, `-2^2` is -4) or a
    factorial's, and a group that holds a generalized fraction (`{-a \\over b}`). One pass
    over the tokens (nested groups are read inside out as they close)."""
    drop: list[tuple[int, int, str]] = []  # (start, end, what stands there instead)
    frames: list[list[Any]] = []  # [its `{`, free, opens with a sign (None: nothing yet), shifts, fraction]
    previous = ""
    for token_match in _GROUP_TOKEN.finditer(s):
        token = token_match.group()
        name = token[1:] if token[0] == "\\" and token[1:].isalpha() else ""
        if token == "{":
            argument = previous in ("^", "_", "}", "]") or bool(
                previous[1:].isalpha() and previous[0] == "\\" and previous[1:] not in _SIGN_COMMANDS
                and previous not in _NO_CONTENT)
            frames.append([token_match.start(), not argument, None, [], False])
        elif token == "}" and frames:
            opened, free, sign, shifts, fraction = frames.pop()
            read = free and sign is True and not fraction and _SCRIPT_AFTER.match(
                s, token_match.end()) is None
            if read:
                after = s[token_match.end():token_match.end() + 1]
                drop += [(opened, opened + 1, ""), *shifts,
                         (token_match.start(), token_match.end(), " " if after.isalpha() else "")]
            if frames and frames[-1][2] is None:
                frames[-1][2] = sign if read else False
        elif frames:
            frame = frames[-1]
            if token in _MATH_SHIFTS:
                frame[3].append((*token_match.span(), ""))
            elif name in _GENERALIZED_FRACTIONS:
                frame[4] = True
            elif frame[2] is None and token not in _NO_CONTENT:
                frame[2] = name in _SIGN_COMMANDS if name else token in _SIGN_CHARACTERS
        previous = token
    if not drop:
        return s
    pieces, at = [], 0
    for start, end, instead in sorted(drop):
        pieces += [s[at:start], instead]
        at = end
    return "".join(pieces) + s[at:]


def _whole_verdict(extraction: Extraction | None, gold: str, text: str | None,
                   config: MathConfig) -> Verdict:
    """A gold read whole against a completion: `ok` when what the completion states as its
    final answer (`stated_answers`) is the gold's text by the one reading rule
    (`sentence_key`); else uncertain (`wrong`, the judge's to decide where one is
    configured), or `no_answer` when it states none or its clause unsays it (`_taken_back`)."""
    unsaid = _taken_back(extraction, carried_words(gold))  # `\boxed{...} is wrong.`
    if unsaid is not None:
        return unsaid
    key = sentence_key(gold)
    if any(sentence_key(answer) == key for answer in stated_answers(extraction, text, config)):
        return Verdict("ok", "the gold's text, read whole")
    if extraction is None:
        return Verdict("no_answer", "no final answer found")
    return Verdict("wrong", f"{UNCERTAIN} the gold is read whole (a sentence around math) "
                            f"and the answer is not its text")


# How Python and pandas write a missing or overflowed number (a LaTeX `\infty` is an answer).
_NOT_A_NUMBER = frozenset({"nan", "inf"})


def _gold_payload(gold: object, gold_norm: str) -> str:
    """What the worker parses for the gold: its own text where it is math-verify's markup (a
    box, or math delimiters around it: `$21,16$ or $11$`), else the normalized answer in
    `$...$` (so a currency sign `\\$18` or a `#### n` line is not read as markup, and golds
    over several `$...$` that math-verify would read in part are read whole)."""
    if isinstance(gold, str) and "####" not in gold and not text_carries_meaning(gold):
        text = gold.strip()
        if "\\boxed" in text or "\\fbox" in text or text[:2] in ("\\(", "\\[") or (
                text.startswith("$") and text.endswith("$") and one_math_reading(text)):
            return gold
    return f"${gold_norm}$"


def compare(pred: str | None, gold: object, config: MathConfig = _DEFAULT, *,
            question: str | None = None) -> Verdict:
    """Compare one extracted answer (`None`: none found) with a gold answer (string or number,
    `\\boxed{}` allowed), the gold read with its `question` where given (`read_reference`).
    Symbolic work runs in a worker bounded by `config.timeout`."""
    local = compare_local(pred, gold, config, question=question)
    if isinstance(local, Verdict):
        return local
    return _run_job(local, config)


def compare_batch(pairs: Iterable[tuple[str | Extraction | None, object]],
                  config: MathConfig = _DEFAULT, cache: VerdictCache | None = None,
                  texts: Iterable[str | None] | None = None,
                  questions: Iterable[str | None] | None = None, *,
                  ready: Callable[[Sequence[int], Sequence[Verdict]], None] | None = None
                  ) -> list[Verdict]:
    """`compare` over many pairs (`texts`: the completions the answers came from,
    `questions`: their prompts, see `compare_local`): each distinct symbolic job is run once
    (and looked up in `cache`), the distinct jobs in parallel on all workers. `ready(indices,
    verdicts)`: told the verdicts of pairs as they are decided (those decided without sympy
    once all pairs are read, then those of each symbolic job as it finishes), each pair
    once, from the calling thread, before this returns; a verdict does not depend on when
    it is told.

    The pairs are read one at a time (`pairs` may be a generator that extracts each answer
    as it is reached), and a symbolic job goes to the worker pool as soon as its pair is
    read: it runs while the rest of the batch is read (on the server benchmark a 60-sample
    batch took 16-60 ms to read under load, and its jobs used to wait for all of it). Every
    job of the batch waits for a worker at once, in the order read (the pool serves a
    batch's callers in the order they asked, and batches take turns), never behind a slower job of its own batch on a fixed number
    of threads. The local verdicts are told together once the batch is read, not one by
    one: each tell wakes the server's event loop, which then fights the reading thread for
    the GIL in 5 ms turns (measured: the fast requests' p99 at 64 clients rose in 12 of 13
    A/B pairs)."""
    texts = texts if texts is not None else repeat(None)
    questions = questions if questions is not None else repeat(None)
    results: list[Verdict | Job] = []
    todo: dict[Job, Verdict | None] = {}  # a job's verdict, None while it runs
    waiting: dict[Job, list[int]] = {}  # a running job's pairs
    running: dict[Future[Verdict], Job] = {}
    executor: ThreadPoolExecutor | None = None
    owner = object()  # this batch's jobs take turns with other batches' for the workers
    try:
        for (pred, gold), text, question in zip(pairs, texts, questions):
            item = _decided_locally(pred, gold, config, text, question)
            results.append(item)
            if isinstance(item, Verdict):
                continue
            if item in waiting:  # its job is running: told with it
                waiting[item].append(len(results) - 1)
                continue
            known = todo.get(item)
            if known is None and cache is not None:
                known = cache.get((*item, config))
            if known is not None:
                todo[item] = known
                continue
            if executor is None:
                executor = ThreadPoolExecutor(_JOB_THREADS, thread_name_prefix="math-verify")
            todo[item], waiting[item] = None, [len(results) - 1]
            running[executor.submit(_run_and_keep, item, config, cache, owner)] = item
        if ready is not None:
            local = [i for i, item in enumerate(results)
                     if isinstance(item, Verdict) or todo[item] is not None]
            if local:
                ready(local, [_known(results[i], todo) for i in local])
        for future in as_completed(list(running)):
            job = running.pop(future)
            todo[job] = verdict = future.result()  # a WorkerError (infrastructure) raises
            if ready is not None:
                ready(waiting[job], [verdict] * len(waiting[job]))
    finally:
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
    return [_known(item, todo) for item in results]


_JOB_THREADS = 64
"""Most symbolic jobs of one batch waiting for a worker at once (a thread each, blocked in
the pool's queue); more wait in the executor's queue, in order."""


def _run_and_keep(job: Job, config: MathConfig, cache: VerdictCache | None,
                  owner: object = None) -> Verdict:
    """A job's verdict, kept in `cache` as soon as it is known (in the job's thread)."""
    verdict = _run_job(job, config, owner)
    if cache is not None:
        cache.put((*job, config), verdict)
    return verdict


def _known(item: Verdict | Job, todo: dict[Job, Verdict | None]) -> Verdict:
    """A pair's verdict: its own, or its job's (decided by now)."""
    if isinstance(item, Verdict):
        return item
    verdict = todo[item]
    assert verdict is not None, "a symbolic job left undecided"
    return verdict


def _decided_locally(pred: str | Extraction | None, gold: object, config: MathConfig,
                     text: str | None, question: str | None = None) -> Verdict | Job:
    """`compare_local`, where an arithmetic error on a model's or a gold's text (a `math.*`
    domain error, an overflow: a bug in a local step, to be fixed at its place) is a verdict
    for that pair, never an exception that fails the whole batch."""
    try:
        return compare_local(pred, gold, config, text, question)
    except (ArithmeticError, ValueError) as exc:
        return Verdict("wrong", f"local step failed: {type(exc).__name__}: {exc}"[:200])


def _run_job(job: Job, config: MathConfig, owner: object = None) -> Verdict:
    """A symbolic job's verdict from the shared pool (`owner`: its batch, which takes turns
    with other batches for the workers)."""
    pool = shared_pool(config.worker_count, start_timeout=config.worker_start_timeout)
    outcome = pool.run(job[0], job[1], rel_tol=config.float_rel_tol, timeout=config.timeout,
                       pred_raw=job[2], owner=owner)
    return Verdict(outcome.reason, outcome.detail)
