"""Step one: find the final answer in a completion. Pure string work, no sympy, linear time.

Rules, in the priority a model writes them (the last occurrence wins within a rule):

1. `<answer>...</answer>` tags, with or without attributes (every other answer the reply
   writes, a box or another tag, offered beside the last: `_beside_other_answers`);
2. `\\boxed{}` / `\\fbox{}`: the last one, joined with the boxes just before it when they are
   separated by a short gap or by "and" / "or" / "," / ";" (math-verify's rule, so
   `\\boxed{1} and \\boxed{-2}` is the set {1, -2});
3. GSM8K `#### n`;
4. "final answer" phrases: "The final answer is X", "the answer is X", "Answer: X", and the
   Chinese phrasings models use ("答案是 X", "最终答案：X", "答案为 X");
5. the last math environment: `$$...$$`, `\\[...\\]`, `\\(...\\)`, `$...$` (several joined by
   "and" / "or" / "," read as a set, as math-verify reads them);
6. a completion that is only an answer (`x^2+1`, `(1, 2]`): the whole text;
7. unless `strict`, the last number (anchored as math-verify anchors it: `AZYUK2A` holds none),
   kept with the words of its clause (`Extraction.words`: `not 7`, `7 million`), which the
   comparison reads by the one reading rule.

A later answer phrase overrides a box (the last committed answer wins), and a finished reply
that offers another value or unsays its answer after the answer's sentence hedges: that text
is part of the answer (`_with_what_follows`).

Every scan is a single pass or a regex without nested quantifiers, over the capped tail."""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from dataclasses import dataclass, replace
from fractions import Fraction
from numbers import Number
from typing import Literal

from rewards.math._config import MathConfig
from rewards.math._evaluate import evaluate, evaluate_exact
from rewards.math._normalize import (
    _MAGNITUDE_NAMES,
    _SUB_UNITS,
    APPROX_COMMANDS,
    APPROX_SIGN,
    APPROXIMATIONS,
    NUMBER_WORDS,
    changes_value,
    equals_as_printed,
    joined_after,
    magnitude_after,
    names_an_answer,
    normalize,
    numbers_in_words,
    parse_number,
    qualifiers,
    sentence_key,
    symbol_numbers,
)
from rewards.text import char_class

__all__ = ["Extraction", "extract_answer", "extract_boxed", "find_answer", "one_math_reading",
           "prepare_reference", "stated_answers"]

_DEFAULT = MathConfig()
Source = Literal["given", "tag", "boxed", "gsm8k", "phrase", "latex", "whole", "number",
                 "choice"]


@dataclass(frozen=True)
class Extraction:
    """The final answer found in a completion."""

    answer: str
    """The answer text (not normalized); several answers are joined by `, `."""
    source: Source
    """Which rule found it."""
    parts: tuple[str, ...] = ()
    """The separate answers when several were joined (boxes, math environments)."""
    native: bool = True
    """True when math-verify reads this rule itself, so the symbolic path parses the text as
    math-verify would; False for our own rules (tags, `####`, Chinese phrases, a bare answer),
    whose span the symbolic path parses instead."""
    choice: str | None = None
    """The last multiple-choice letter written in prose (`(B)`, "option B") when no marked
    answer was found: the comparison takes it when the gold is a choice."""
    settled: bool = True
    """False when the span alone may not be what math-verify reads from the text (a number
    next to an operator: `3+4`), so only the symbolic path may decide."""
    words: str | None = None
    """For a number found unmarked in prose (rule 7: a bare number, or one alone in a math
    environment, in the final sentence): the answer with the words of its clause beside it (`not 7`, `7 million`,
    `7 apples`, from the last word that states a value, `_STATES`, to the sentence's end).
    The comparison reads them as it reads the same words in a box (`_compare`): a word may be
    dropped only when the reading rule knows it does not change the value."""
    said: str | None = None
    """What the answer's clause goes on to say of it when the answer is its subject (a verb
    right after it, `_said_of`: `wrong` of `\\boxed{7} is wrong`, `the answer` of `7 is the
    answer`), for a box or an unmarked number; None when it is not. The comparison keeps the
    value as the answer only when those words are known to leave it so (`affirms`); else the
    reply took it back and committed to none (`no_answer`)."""
    stated_after: tuple[tuple[str, str], ...] = ()
    """Values other than the box's that a sentence after it longer than `_SHORT_REMARK` words
    states, each with its sentence (`Thinking about it once more, the number of apples should
    really be 8.`), that no known harmless form explains (`_unexplained_values`: not a number
    of the working before the box, not the box's value, not an operand of an equation equal to
    it, not a step's label, not a value rejected where it stands). The comparison excuses those
    the question states (the problem's own numbers: `We subtract the 3 eaten apples from the
    10 we started with.`); any other takes the box back (`no_answer`, as a short sentence's
    does)."""
    told_after: tuple[tuple[str, str], ...] = ()
    """Values that a known subject of the problem's story acts on in a sentence after the box
    (`_story_told`: `She ate 3.`, `Ella comió 3.`, `Tom ate 3 of 10.`), each with its sentence,
    that the working before the box does not state: the story told back, as the comparison
    excuses them where the question states them, or where it states no number at all (no story
    to hold them against: `How many apples?`); any other takes the box back (`Mia ate 8.`
    after a question of 10 and 3 apples), as `stated_after`'s do."""
    uncertain: str | None = None
    """What stands glued to a box's closing brace that may change its value and that neither
    the allow-list of marks (`_HARMLESS_GLUE`) nor the exact arithmetic reads (`\\boxed{7}th`,
    `\\boxed{7}{,}5`): the answer is not the box alone, and the rules cannot tell what it is,
    so the pair is uncertain (`wrong`, the judge's where one is configured)."""
    beside_box: bool = False
    """Whether the answer was read after a box the reply wrote before it (an answer phrase
    after the box, `\\boxed{7}. The answer is 8.`, in the tail or after a box before it): the
    rules read it as the last committed answer, but the reply wrote two answers, so it is
    never shown to a judge, which would be shown one of them alone (`BESIDE_THE_BOX`)."""
    ordinal: bool = False
    """Whether what is glued is only the English ordinal suffix of the box's whole number
    (`\\boxed{7}th`, `\\boxed{3}^{rd}`, `_ORDINAL_GLUE`): the value as a place, which the
    comparison reads as the box alone where the question asks for a place (`asks_for_place`)
    and as uncertain elsewhere."""


# An answer tag, spaced or not, with or without attributes (`<answer type="final">`: name and
# value pairs, none holding a digit; `<answer value="8">7</answer>` is read after the box as
# its attributes' values and its content, `_TAG_WITH_ATTRIBUTES`).
_ANSWER_TAG = re.compile(r"<\s*answer(?:\s++[A-Za-z_:][\w:.\-]*+\s*+=\s*+(?:\"[^\"<>\d]*+\"|'[^'<>\d]*+'|"
                         r"[^\s\"'<>/=`\d]++))*+\s*+>(.*?)<\s*/\s*answer\s*>", re.DOTALL | re.IGNORECASE)
_BOXED = re.compile(r"\\(?:boxed|fbox)\b\s*")
# "The answer is X", "final answer is: X", "Final Answer: X", "Answer: X", "答案是 X" ... The
# match ends at the phrase; the answer is read after it by `_answer_after`.
_ANSWER_PHRASE = re.compile(
    r"(?:final\s+answer|the\s+answer|answer)[\s*]*(?:is\b|:|=)|final\s+answer\*\*|"
    r"final\s+answer\s+(?:for|to|of)\s+[\w ().,-]{1,40}?[\s*]*(?::|=)|"
    r"(?:最终答案|答案)(?:\s*)(?:是|为|：|:)", re.IGNORECASE)
# What joins two answers (spaces aside): "," ";" "and" "or" ", and" ", or".
_JOINERS = frozenset({",", ";", "and", "or", ", and", ", or", ",and", ",or"})
_CHOICE_IN_PROSE = re.compile(
    r"(?<![\w(\\])\(([A-E])\)(?![\w)])|(?i:option|choice)\s{1,3}\(?([A-E])\b\)?")
_CHOICE_BEFORE_BOX = re.compile(r"(?<![\w(\\])\(([A-E])\)[\s:=$]{0,6}(?:\\[(\[])?[\s$]{0,3}$")
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|\n\s*\n")
_SEPARATOR_WORD = re.compile(r"\b(?:and|or)\b|,|;", re.IGNORECASE)
# A number as math-verify anchors it: after the start, a space, `=`, `(` or a currency sign.
_NUMBER = re.compile(
    r"(?:^|(?<=[\s=(\[$€£¥]))(-?(?:[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?|[1-9]\d{0,2}(?: \d{3})+(?!\d)"
    r"(?:\.\d+)?|\d+(?:[.,]\d+)?|\.\d+)"
    r"(?:/\d+)?)(?=$|[\s.,;:!?)\]$%€£¥a-zA-Z²³°])")
_TRAILING = " \t\n.;:,"
_LEADING = " \t\n;:,"  # not ".": `.5` is a number
_WHOLE_MAX = 120
# A "whole text" answer: math characters only, no prose words of two or more letters unless
# they are LaTeX commands (`\frac`, `\sqrt`, `\infty` ...).
_WHOLE_OK = re.compile(r"[\w\s\\{}()\[\]^_+\-*/=<>.,;:!|'&%°]+")
_WORD = re.compile(r"(?<![\\a-zA-Z])[a-zA-Z]{2,}")
_MATH_WORDS = frozenset({"sin", "cos", "tan", "cot", "sec", "csc", "log", "ln", "exp", "pi",
                         "mod", "gcd", "lcm", "max", "min", "inf", "infty", "sqrt", "lim",
                         "matrix", "pmatrix", "bmatrix", "vmatrix", "array", "cases", "and", "or"})


def extract_answer(text: str, config: MathConfig = _DEFAULT) -> str | None:
    """The final answer of `text` as a string (not normalized), or `None` if there is none."""
    found = find_answer(text, config)
    return found.answer if found else None


def find_answer(text: str, config: MathConfig = _DEFAULT) -> Extraction | None:
    """The final answer of `text` with the rule that found it, or `None`."""
    cut = box_cut_by_tail(text, config.tail_chars)
    if cut is not None:
        # a box opened before the tail and too long to read whole (`_BOX_MAX_CHARS`): its end
        # is no answer (`7 or 7 ... or 8`, a box nested in boxes opened before the tail); only
        # an answer marked after it is one
        found = _final_answer(text[cut:], config) if cut < len(text) else None
        return found if found is not None and found.source in _MARKED else None
    tail = text[-config.tail_chars:]
    found = _from_answer_tag(tail)
    if found is not None:
        return _beside_other_answers(tail, found, config)
    return _final_answer(text, config)


def _beside_other_answers(tail: str, found: Extraction, config: MathConfig) -> Extraction:
    """The last answer tag's answer (`found`) with every other answer the reply writes offered
    beside it (`_offered_beside`: an equal value leaves it the answer, another unsays it): a box
    after its thinking, before the tag (`\\boxed{7}. <answer>8</answer>`) or after it
    (`<answer>8</answer> ... \\boxed{7}`: the box, the last answer, is read with what follows it
    and the tag offered beside it), and every other answer tag, wherever it stands
    (`<answer>7</answer><answer>8</answer>`): an answer tag holding another value is a second
    answer before or after the box."""
    tags = list(_ANSWER_TAG.finditer(tail))
    last = tags[-1]
    after = tail[last.end():]
    box = _final_answer(after, config) if _boxes(after) else None
    if box is not None:
        found = _offered_beside(box, found.answer)
    else:
        box = _box_before_answer(tail, last.start())
        found = found if box is None else _offered_beside(box, found.answer)
    for tag in tags[:-1]:
        other = _tag_content(tag.group(1))
        if other is not None:
            found = _offered_beside(found, other.answer)
    return found


def _final_answer(text: str, config: MathConfig) -> Extraction | None:
    """`find_answer` past a second answer beside a box (an `<answer>` tag after it, read once
    by `find_answer`: never again on what precedes it)."""
    tail = text[-config.tail_chars:]
    found = _from_answer_tag(tail)
    if found is not None:
        return found
    if _ends_in_open_box(tail):
        return None  # cut off while writing its boxed answer (`\boxed{-10.`): none committed
    boxed = _box_group(tail)
    if boxed is not None:
        found, end = boxed
        # "\boxed{255} ... The final answer is $10,455$.", "\boxed{7} is what I first
        # thought, but the answer is 8.": the model's last committed answer wins, when it is
        # an answer ("\boxed{7}. Final answer: see above" keeps the box).
        # A phrase after a turn marker written after the box (`<|im_end|><|im_start|>user The
        # correct answer is 8`) is not taken as the answer; what follows the box reads it as
        # the model's text (`_reply_end_after`), which takes the box back.
        # A phrase the reply qualifies (`A common wrong answer is 8.`, `Some might think the
        # answer is 8.`, `If you forgot Mia, the answer is 8.`, `The answer is not 8.`) states
        # no answer of its own: the box stands, and what follows it is read with it.
        phrase = _last_phrase(tail, after=end)
        if phrase is not None and (not _has_math(phrase[0].answer) or
                                   _TURN_MARKER.search(tail, end, phrase[1]) is not None):
            phrase = None
        qualified = phrase is not None and _qualified_phrase(tail, end, phrase)
        if phrase is not None and not qualified:
            return replace(_with_what_follows(tail, phrase), beside_box=True)
        # "The answer is (B) $\boxed{12}$": the option's text boxed after its letter; the
        # comparison takes the letter when the gold is one
        box = max(tail.rfind("\\boxed", 0, end), tail.rfind("\\fbox", 0, end))
        letter = _CHOICE_BEFORE_BOX.search(tail, max(box - 40, 0), max(box, 0))
        found = _box_with_words(tail, found, end)  # `\boxed{7} is not the answer.`
        # a `####` line before the box marks an answer too (`#### 7\n\\boxed{8}`): offered beside
        # the box (an equal value leaves it, `#### 7 apples` then `\\boxed{7}`; another unsays it)
        for mark in list(_HASHES.finditer(tail, 0, max(box, 0)))[-_GSM8K_LINES_READ:]:
            end_of_line = tail.find("\n", mark.end(), max(box, 0))
            marked = tail[mark.end():end_of_line if end_of_line >= 0 else max(box, 0)].lstrip("#")
            if not _MARKS_A_VALUE.search(_TEX_COMMAND.sub("", marked)):
                continue  # (the line marks the box itself: `#### $\(\boxed{337}\)$`, `#### $$\[` then the box)
            other = _answer_after(marked)
            if other is not None and _value_differs(_gsm8k_value(other.answer, tail[:mark.start()]),
                                                    found.answer) is not False:
                found = _offered_beside(found, other.answer)
        if phrase is not None and qualified == "offered":
            # `Some might think the answer is 8.`, `Another answer is 8.`: a second answer
            # beside the box, said of it (another value unsays it)
            offered = phrase[0].answer if found.said is None else f"{found.said}; {phrase[0].answer}"
            found = replace(found, words=found.words or found.answer, said=offered)
        return replace(found, choice=letter.group(1)) if letter else found
    found = _from_gsm8k(tail)
    if found is not None:
        # what follows the `####` line is read as what follows a box (`#### 7\nOr 8.`,
        # `#### 7\nI'm not sure.`: a second answer, a hedge)
        # (where the line marks a number as GSM8K writes its golds, `#### 72`, `#### 72 apples`,
        # and nothing else: an answer in mathematics or words may go on over the next lines)
        # A number (`_LINE_NUMBER`: `#### 7%`, `#### 7/1`, `#### 7 (apples)`, `#### 7. Actually
        # 8.` on one line) has what follows it read; an answer in mathematics or words (its line
        # going on after it, or over lines: college_math's golds) is read whole, as
        # `_answer_after` read it.
        line_start = tail.rfind("####")
        line_end = tail.find("\n", line_start)
        line = tail[line_start:line_end if line_end >= 0 else len(tail)]
        at = line.find(found.answer.strip())
        answer_end = line_start + at + len(found.answer.strip())
        if at >= 0 and _LINE_NUMBER.match(found.answer.strip()) and not _WORD.search(line, 4, at) and (
                tail[answer_end:].strip()):  # (the number opens its line: `#### 7 ...`, `#### $7$`)
            found = _box_with_words(tail, found, answer_end)
        # an earlier `####` line is an answer marked too (`#### 7\n#### 8`): offered beside the
        # last (an equal value leaves it; another unsays it, as a second box does)
        for mark in list(_HASHES.finditer(tail, 0, line_start))[-_GSM8K_LINES_READ:]:
            end_of_line = tail.find("\n", mark.end(), line_start)
            other = _answer_after(tail[mark.end():end_of_line if end_of_line >= 0 else line_start].lstrip("#"))
            if other is not None and _value_differs(_gsm8k_value(other.answer, tail),
                                                    _gsm8k_value(found.answer, tail)) is not False:
                found = _offered_beside(found, other.answer)  # (`#### 7` then `#### 7 apples`: the same)
        return found
    last = _last_phrase(tail)
    if last is not None:
        # "The answer is 5. Wait, that's wrong. Let me redo ... we get" (cut off): the model
        # went on thinking past its answer and stopped mid-thought, so it committed to none.
        # A sign-off of a few words after it ("Done") is no more thought.
        if final_sentence_start(tail) is None:
            after = _sentence_start_before(tail, len(tail))
            if after > last[1] and len(tail[after:].split()) > _SIGN_OFF_WORDS:
                return None
        found = _with_what_follows(tail, last)
        # (a box before the tail: the phrase is a second answer beside it, `_box_before_tail`)
        return replace(found, beside_box=_box_before_tail(text, len(tail)) is not None)
    found = _from_whole_text(tail)
    if found is not None:
        return found
    found = _box_before_tail(text, len(tail))
    if found is not None:  # `\boxed{25}` then a page of token soup: the box is the answer
        return found
    # No marked answer: the completion commits to one only in its last sentence, and only if
    # it ends there (not cut off mid-thought: `\sqrt[3]{4} +`, "... the product of"); a
    # number found in passing earlier is not an answer. There: a bold span (`n = **5**`),
    # else the rightmost math environment or number, as math-verify takes them.
    start = final_sentence_start(tail)
    if start is None:
        return None
    bold = _last_bold(tail, start)
    if bold is not None:
        return bold
    environment = _from_math_environment(tail, start)
    number = None if config.strict else _last_number(tail, start)
    if number is not None and (environment is None or number[2] > environment[1]):
        found = _with_words(tail, start, *number)
    elif environment is not None:
        found = environment[0]
        if _NUMBER.fullmatch(found.answer):  # `not $7$`: a number in prose, as a bare one
            found = _with_words(tail, start, found, environment[2], environment[1])
    else:
        found = None
    letter = _last_choice(tail, start)
    if letter is None:
        return found
    choice = (letter.group(1) or letter.group(2)).upper()
    if found is None:  # `Option B is wrong.`: what its clause says of it, as of a box
        return Extraction(f"({choice})", "choice", native=False,
                          said=_said_of(_clause_after(tail, letter.end())))
    return replace(found, choice=choice)


def _box_before_answer(text: str, tag: int) -> Extraction | None:
    """The box a reply writes before its last answer tag (which starts at `tag`), after its
    thinking (`</think>`): the tag then offers a second answer beside it. None where no box
    stands there (a draft boxed inside the thinking is no answer of the reply's). The answer
    tags before it are blanked (`find_answer` offers each beside the answer itself)."""
    thought = text.lower().rfind("</think>", 0, max(tag, 0))
    before = _ANSWER_TAG.sub(lambda match: " " * len(match.group(0)), text[:tag])
    if tag < 0 or not _boxes(before[thought + 1:]):
        return None
    found = _final_answer(before, _DEFAULT)
    return found if found is not None and found.source == "boxed" and not found.parts else None


def _offered_beside(found: Extraction, offered: str) -> Extraction:
    """`found` with a second answer `offered` beside it, said of it (`affirms`: an equal value
    leaves it the answer, another unsays it), as `Another answer is 8.` is."""
    said = offered if found.said is None else f"{found.said}; {offered}"
    return replace(found, words=found.words or found.answer, said=said)


def extract_boxed(text: str) -> str | None:
    """Content of the last `\\boxed{...}` / `\\fbox{...}` (braces balanced), or of `\\boxed 5`."""
    boxes = _boxes(text)
    return boxes[-1][2] if boxes else None


def prepare_reference(reference: object) -> str | None:
    """The gold answer as a string: numbers formatted, `\\boxed{}` and `#### n` unwrapped,
    `$` stripped. `None` when there is nothing usable (the sample then abstains)."""
    if isinstance(reference, bool) or reference is None:
        return None
    if isinstance(reference, Number):
        if isinstance(reference, float) and reference.is_integer():
            return str(int(reference))
        return str(reference)
    if not isinstance(reference, str):
        return None
    return _reference_text(reference.strip())


def _reference_text(text: str, toggle: bool = True) -> str | None:
    """`prepare_reference` of a gold string (`toggle`: a `$` left inside the answer may be
    read as switching math and text, `_dollars_in_box`). A label at the end with nothing
    after it labels nothing (`$145$solution:`, a gold run into the next field's label): the
    gold is what comes before it, when that reads as an answer. Only a word that names a
    field (`_FIELD_LABELS`) is such a label: any other (`145$thousand:`) may change the value
    before it, so the text stays as written."""
    found = _reference_body(text, toggle)
    if found is None:
        label = _DANGLING_LABEL.search(text)
        if label is not None and text[:label.start()].strip() \
                and label.group(1).lower() in _FIELD_LABELS:
            found = _reference_body(text[:label.start()].rstrip(), toggle)
    return found


# A label with nothing after it: a word and a colon that end the text (searched with a bound,
# so linear).
_DANGLING_LABEL = re.compile(r"(?<![A-Za-z])([A-Za-z]{1,30})\s?:\s*$")
_FIELD_LABELS = frozenset("""
    solution solutions answer answers analysis explanation proof hint hints note notes remark
    comment comments reasoning rationale step steps problem question source reference
""".split())  # noqa: SIM905 (a word list reads better as words)
"""The names of the fields a dataset writes after a gold (Gaokao's `solution:`): an allow-list,
the words known to label the next field, never to qualify the value before them."""


def _reference_body(text: str, toggle: bool = True) -> str | None:
    if _BOXED.search(text):
        found = _from_boxes(text)
        return found.answer if found else None  # None: an empty \boxed{}
    if "####" in text:
        found = _from_gsm8k(text)
        return found.answer if found else None
    environment = _environments(text)
    if environment and _only_environments(text, environment):
        return _join_environments(text, environment) or None
    number = _NUMBER.fullmatch(text)
    if number is not None:  # as written: a gold's `14,16` is a pair, never a decimal comma
        return number.group(1).replace(" ", "")
    if len(text) > _WHOLE_MAX and _ANSWER_PHRASE.search(text):
        found = _from_answer_phrase(text)  # a worked solution: its stated final answer
        if found is not None:
            return found.answer
    if environment and _prose_around(text, environment) or not environment and _is_prose(text):
        # "The mode is $x=0$.", "Solution is: $[x=1, y=5, z=3]$": the value it states; a
        # worked sentence ("The hypotenuse has length $c \approx 4.089$.") states none
        stated = _stated_value(text, environment)
        if stated is not None or environment:
            return stated
    if environment:  # `1;$\frac{8}{9}$`, `20 $cm^{2}$`: the math in place, `;` as a comma
        return _inline_environments(text, environment) or None
    return _plain_text(text, toggle)



def _plain_text(text: str, toggle: bool = True) -> str | None:
    """A gold with no math environment, as written (`$` at its ends dropped)."""
    text = text.strip("$").strip()
    if toggle and "$" in text.replace("\\$", ""):  # `x_{0} \cos (\omega t)+$ $\dot{x}_{0}`
        return _dollars_in_box(text)
    return text or None


_VALUE_MARKER = re.compile(r"\b(?:is|are|equals|was|were)\b(?:\s{0,3}:)?|(?<=[A-Za-z])\s?:")


def _stated_value(text: str, environments: list[tuple[int, int, str]]) -> str | None:
    """The value a gold written as one sentence of prose states, after its one "is" /
    "are" / "equals" / ":" outside math (`The mode is $x=0$.`, `Solution is: $(1, 2)$`,
    `... the probability of ending up in location 1 is 0.367 .`, `P-value $=0.014$`), when
    what follows is only
    math, a number, and at most a unit; None when the sentence states none, or several
    (`radius: 1 , center: $(2,3,5)$` is two answers, never the last one alone)."""
    end = len(text.rstrip(" .\n"))
    start = _sentence_start_before(text, end)
    if start > 0 and text[:start].strip():
        return None  # a worked solution over several sentences: its value is not one read
    outside = list(text[:end])
    for env_start, env_end, _ in environments:  # markers inside math are not prose
        outside[env_start:min(env_end, end)] = "#" * max(min(env_end, end) - env_start, 0)
    markers = [(m.start(), m.end()) for m in _VALUE_MARKER.finditer("".join(outside), start)]
    last = environments[-1] if environments else None
    if not markers and last and last[2].startswith("=") and not text[last[1]:end].strip() \
            and not any(ch.isdigit() for ch in text[start:last[0]]):
        markers = [(last[0], last[0])]  # `P-value $=0.014$`: a label, then `= value`
        text = text[:last[0]] + "$" + last[2][1:] + "$"
        end = len(text)
    if len(markers) != 1 or any("=" in content or any(ch.isdigit() for ch in content)
                                for env_start, _, content in environments
                                if env_start < markers[0][0]):
        return None  # `$s(t)=...$, maximum speed is $2/\pi$`: more than the value after it
    rest = text[markers[0][1]:end].strip(" :\n")
    inner = _environments(rest)
    if not rest or (_prose_around(rest, inner) if inner else _prose(rest)):
        return None
    if not inner and not any(ch.isdigit() for ch in rest):
        return None  # "Yes, this is a subspace.": no value
    value = _reference_text(rest, toggle=False)
    return value if value and not _is_prose(value.split(" ", 1)[0]) else None


def one_math_reading(text: str) -> bool:
    """True when math-verify reads all the math of `text` as one answer: one environment, or
    several joined by "and" / "or" / "," (`$21,16$ or $11$`). Not a formula broken across two
    (`$56x^6+$ $60x^2+6$`) or one per line: it reads one part of those."""
    environments = _environments(text)
    return all(_joins(text[a[1]:b[0]]) for a, b in itertools.pairwise(environments))


def _join_environments(text: str, environments: list[tuple[int, int, str]]) -> str:
    """The contents of a gold's math environments as one answer: a formula broken across
    lines (`$56 x^{6}+$ $60 x^{2}+6$`: one ends or the next starts with an operator, only
    space between) is joined back; otherwise they are a list (`$5$;$10$` is `5, 10`)."""
    answer = environments[0][2]
    for previous, current in itertools.pairwise(environments):
        content = current[2]
        broken = not text[previous[1]:current[0]].strip() and (
            previous[2].rstrip()[-1:] in _CONTINUES or previous[2].rstrip().endswith(
                ("\\cdot", "\\times")) or content.lstrip()[:1] in "+=*/")
        answer += (" " if broken else ", ") + content
    return answer


_CONTINUES = tuple("+-=*/")


def _inline_environments(text: str, environments: list[tuple[int, int, str]]) -> str:
    """A gold mixing bare text and `$...$`: each environment replaced by its content, a `;`
    between parts read as the list comma (`1;$\\frac{8}{9}$` is `1, \\frac{8}{9}`)."""
    parts, previous = [], 0
    for start, end, content in environments:
        parts += [text[previous:start].replace(";", ", "), content]
        previous = end
    parts.append(text[previous:].replace(";", ", "))
    return " ".join(" ".join(parts).split()).strip(" .")
_RESIDUE_TOKEN = re.compile(r"[^\s,;.]+")
_UNIT_WORD = re.compile(r"[A-Za-z]{1,12}(?:/[A-Za-z]{1,12})?")  # `miles/s`, `beats/lifetime`
_PROSE_WORDS = frozenset({"at", "when", "where", "for", "if", "is", "are", "so", "the", "then",
                          "with", "which", "because", "since", "but", "of", "to", "in", "has",
                          "any", "otherwise", "works", "consider", "yes", "no", "local"})


def _prose_around(text: str, environments: list[tuple[int, int, str]]) -> bool:
    """True when the text outside a gold's math environments is more than joiners, numbers
    and a unit (`$5$ cm`): a sentence or a note, so the gold is not an answer and abstains."""
    outside = []
    previous = 0
    for start, end, _ in environments:
        outside.append(text[previous:start])
        previous = end
    outside.append(text[previous:])
    return _prose(" ".join(outside))


def _prose(outside: str) -> bool:
    """True when `outside` (text between or around math) is more than joiners, numbers and a
    unit of at most two words (`meters`, `or 6.2 centimeters`, `C`)."""
    words = 0
    for token in _RESIDUE_TOKEN.findall(outside):
        if token.lower() in ("and", "or") or token.lstrip("-").replace(".", "", 1).isdigit():
            continue
        if not _UNIT_WORD.fullmatch(token) or token.lower() in _PROSE_WORDS:
            return True
        words += 1
    return words > 2


# --- boxes --------------------------------------------------------------------------------

def _boxes(text: str) -> list[tuple[int, int, str]]:
    """Every `\\boxed`/`\\fbox` as (start, end, content), content stripped; empty ones left out."""
    found = []
    pairs: dict[int, int] | None = None
    for match in _BOXED.finditer(text):
        start = match.end()
        if start < len(text) and text[start] == "{":
            pairs = _brace_pairs(text) if pairs is None else pairs
            close = pairs.get(start)
            if close is None:  # unclosed (a truncated completion): the rest, as math-verify
                content, end = text[start + 1:].strip(), len(text)
            else:
                content, end = text[start + 1:close].strip(), close + 1
        else:  # \boxed 5: one token
            end = start
            while end < len(text) and not text[end].isspace() and text[end] not in "$}":
                end += 1
            content = text[start:end]
        if content:
            found.append((match.start(), end, _box_reading(content)))
    return found


def _box_reading(content: str) -> str:
    """A box's answer: its content, read as a gold when it is one as distributed (a `$` in
    it, `_dollars_in_box`; a sentence stating a value, `_stated_value`)."""
    if "$" in content:
        return _dollars_in_box(content)
    if "\\" not in content and _is_prose(content):
        return _stated_value(content, []) or content
    return content


def _dollars_in_box(content: str) -> str:
    """A box holds math, and a `$` in it switches to text and back: a gold boxed whole as
    distributed (`f(n)=n$, $g(n)=1`, `5$;$10`, `241,920,000$ cans`, `20 $cm^{2}$`) is read as
    that gold is read (`prepare_reference`), so it equals the gold; `\\$` is a dollar sign."""
    dollars = content.replace("\\$", "").count("$")
    if not dollars or "\\boxed" in content or "\\fbox" in content:
        return content  # (a box in a box is not a gold's layout: no reading, no recursion)
    # The box's math ends at its first `$`; an odd count left the text open at the end.
    if content.startswith("$"):  # no math before the first `$`: as written
        ways: tuple[str, ...] = (f"{content}$",) if dollars % 2 else (content,)
    else:
        ways = (f"${content}", f"{content}$") if dollars % 2 else (f"${content}$", content)
    for text in ways:
        read = _reference_text(text, toggle=False)
        if read and "$" not in read.replace("\\$", ""):
            return read
    return content


_MARKED = frozenset({"tag", "boxed", "gsm8k", "phrase"})


def box_cut_by_tail(text: str, tail_chars: int) -> int | None:
    """Where the outermost box that opens before the last `tail_chars` characters ends (past
    its closing brace; the text's end when it never closes), when it is still open where the
    tail starts and longer than `_BOX_MAX_CHARS`, so no rule reads it whole: its end, all the
    tail reads of it, is no answer. None when no such box stands there (within
    `BOX_SCAN_CHARS`). Linear: one pass over braces."""
    start = len(text) - tail_chars
    if start <= 0:
        return None
    begin = max(len(text) - BOX_SCAN_CHARS, 0)
    if "\\boxed" not in text[begin:start] and "\\fbox" not in text[begin:start]:
        return None
    pairs: dict[int, int] | None = None
    cut = None
    for match in _OPEN_BOX.finditer(text, begin, start):
        pairs = _brace_pairs(text[begin:]) if pairs is None else pairs
        close = pairs.get(match.end() - 1 - begin)
        end = len(text) if close is None else begin + close + 1
        if end > start and end - match.start() > _BOX_MAX_CHARS and (cut is None or end > cut):
            cut = end
    return cut


BOX_SCAN_CHARS = 100_000
"""How far back from the end a box is looked for when the tail holds no marked answer."""
_BOX_MAX_CHARS = 2_000


def _box_before_tail(text: str, tail_length: int) -> Extraction | None:
    """The last closed box that starts before the tail (within `BOX_SCAN_CHARS` of the end),
    found by `rfind` (linear) and read within `_BOX_MAX_CHARS`; None when there is none."""
    end = len(text) - tail_length
    if end <= 0:
        return None
    begin = max(len(text) - BOX_SCAN_CHARS, 0)
    start = max(text.rfind("\\boxed", begin, end), text.rfind("\\fbox", begin, end))
    if start < 0:
        return None
    piece = text[start:start + _BOX_MAX_CHARS]
    boxes = _boxes(piece)
    if not boxes or boxes[0][0] != 0 or boxes[0][1] >= len(piece) and not piece.endswith("}"):
        return None  # unclosed within the bound: not an answer
    # `\boxed{7} is not the answer.` then a page: its clause is read as the tail's box's
    return _box_with_words(text, Extraction(boxes[0][2], "boxed"), start + boxes[0][1])


_BRACE_OR_ESCAPE = re.compile(r"\\.|[{}]", re.DOTALL)


def _brace_pairs(text: str) -> dict[int, int]:
    """Index of each `{` -> index of the `}` that closes it, in one pass (`\\{` is escaped: a
    backslash takes the character after it, whatever it is). The regex steps from brace to
    brace: a loop over every character cost 0.4 ms of a server request (#39)."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for token in _BRACE_OR_ESCAPE.finditer(text):
        ch = token.group()
        if ch == "{":
            stack.append(token.start())
        elif ch == "}" and stack:
            pairs[stack.pop()] = token.start()
    return pairs


def _from_boxes(text: str) -> Extraction | None:
    found = _box_group(text)
    return found[0] if found else None


def _box_group(text: str) -> tuple[Extraction, int] | None:
    """The last box with the boxes joined to it, and where the last box ends."""
    boxes = _boxes(text)
    if not boxes:
        return None
    group = [boxes[-1]]
    for box in reversed(boxes[:-1]):
        if box[1] > group[-1][0]:
            break  # nested inside the next box
        # A short gap, or "and" / "or" / "," in a gap of one clause (math-verify's rule; a
        # sentence between them is a correction: "\boxed{3}. Wait, ... \boxed{4}").
        # Special-token text the model writes there is padding (data: it separates nothing),
        # as after a box (`_PADDING`): `\boxed{7}. <|im_end|><|im_start|>assistant \boxed{8}`
        # is `\boxed{7}. \boxed{8}`, two answers side by side.
        between = _TURN_MARKER.sub("", text[box[1]:group[-1][0]])
        joined = len(between) < 10 or (
            box[2] != group[-1][2] and len(between) < 70
            and _SEPARATOR_WORD.search(between) is not None
            and _SENTENCE_END.search(between) is None)
        if not joined:
            break
        group.append(box)
    parts: list[str] = []
    for _, _, content in reversed(group):
        if not parts or parts[-1] != content:
            parts.append(content)
    end = boxes[-1][1]
    if len(parts) == 1:
        return Extraction(parts[0], "boxed"), end
    return Extraction(", ".join(parts), "boxed", tuple(parts)), end


# --- tags, GSM8K, phrases -------------------------------------------------------------------

def _from_answer_tag(text: str) -> Extraction | None:
    matches = _ANSWER_TAG.findall(text)
    return _tag_content(matches[-1]) if matches else None


def _tag_content(content: str) -> Extraction | None:
    """The answer an answer tag holds (`content`), or None where it holds none."""
    content = content.strip()
    environment = _from_math_environment(content)
    inner = _from_boxes(content) or _from_answer_phrase(content) or (
        environment[0] if environment and _only_environments(content, _environments(content))
        else None)
    if inner is not None:
        return Extraction(inner.answer, "tag", inner.parts)
    cleaned = _clean(content)
    return Extraction(cleaned, "tag", native=False) if cleaned else None


_HASHES = re.compile(r"^[ \t]*####", re.MULTILINE)
_TEX_COMMAND = re.compile(r"\\[a-zA-Z]++")
_MARKS_A_VALUE = re.compile(r"[^\W_]")  # (a letter or digit of any script: what a `####` line can mark)
_GSM8K_LINES_READ = 8  # (the earlier `####` lines read beside the last: a bound, linear)
# A `####` line's answer as GSM8K writes it: a number, with up to three words of its unit.
_GSM8K_NUMBER = re.compile(r"[-+]?\d[\d,]*+(?:\.\d++)?(?:\s++[^\W\d_]++){0,3}")
# A `####` answer that is a number (`7`, `-7`, `7.0`, `7%`, `7/1`, `7 (apples)`), read with what
# follows it; an answer in mathematics or words (`$C$ is not invertible`, a matrix over lines,
# `Solution is:` then the values: real golds' own form) is the line and what goes on after it.
_LINE_NUMBER = re.compile(r"[-+]?\d[\d,]*+(?:\.\d++)?(?:\s*+(?:%|/\s*+\d++))?(?:\s++\(?[^\W\d_]++\)?){0,3}[^\w\\$\n]*+\Z")


def _from_gsm8k(text: str) -> Extraction | None:
    """The answer after the last `####` that opens a line (as GSM8K writes `#### 72`; hashes
    inside a line, `FIX######` in token soup, mark nothing), read as the answer after a
    phrase is (a math environment, several over lines, or the rest of the line)."""
    marks = [m.end() for m in _HASHES.finditer(text)] if "####" in text else []
    if not marks:
        return None
    start = marks[-1] - 4
    found = _answer_after(text[start + 4:start + 4 + _PHRASE_WINDOW].lstrip("#"))
    return replace(found, source="gsm8k", native=False) if found is not None else None


def _from_answer_phrase(text: str, after: int = 0) -> Extraction | None:
    """The answer after the last answer phrase (that starts at or after `after`)."""
    found = _last_phrase(text, after)
    return found[0] if found is not None else None


def _last_phrase(text: str, after: int = 0) -> tuple[Extraction, int, int] | None:
    """`_from_answer_phrase`'s answer and where its phrase starts and ends."""
    for match in reversed(list(_ANSWER_PHRASE.finditer(text, max(after, 0)))):
        found = _answer_after(text[match.end():match.end() + _PHRASE_WINDOW])
        if found is not None:
            # math-verify reads a math environment after an English phrase; plain text after
            # a phrase ("**Final Answer** y = 5x + 8") and Chinese phrases it does not.
            english = match.group(0)[:1].isascii()
            return replace(found, native=english and found.native), match.start(), match.end()
    return None


def _qualified_phrase(text: str, box_end: int, phrase: tuple[Extraction, int, int]) -> str | None:
    """Whether an answer phrase after a box (ending at `box_end`) is qualified rather than a
    plain statement of the reply's answer: its value opens with a negation (`The answer is not
    8.`), or a word before the phrase in its own sentence (from the box's end or its last
    clause mark, when the box stands in the same sentence) is not one of `_PLAIN_LEAD` (an
    allow-list of the words that conclude or correct: `So the final answer is`, `Wait,
    actually the answer is`, `... is what I first thought, but the answer is`). Then the
    phrase does not state the reply's answer: "rejected" when it names a value the reply
    rejects (a negation, or a word of `_REJECTING`: `A common wrong answer is 8.`, `A naive
    answer is 8.`), which leaves the box its answer; "offered" for any other qualification
    (`Some might think the answer is 8.`, `If you forgot Mia, the answer is 8.`, `Another
    answer is 8.`), a second answer beside the box. None for a plain statement."""
    found, start, _ = phrase
    first = _LETTERS.match(found.answer.lstrip(" $\\(*{"))
    if first is not None and first.group(0).lower() in _NEGATION_LEAD:
        return "rejected"
    begin = _sentence_start_before(text, start)
    if begin < box_end:  # the box's own sentence: the clause of the phrase
        begin = max(box_end, *(text.rfind(mark, box_end, start) + 1 for mark in ",;:"))
    line = text.rfind("\n", box_end, start) + 1
    if line > box_end and _LIST_ITEM.fullmatch(text, line, start):
        return "offered"  # `3. Answer: 8` in a recap after the box: an item of it, no new reply
    words = [word.lower() for word in _LETTERS.findall(text[begin:start])]
    if all(word in _PLAIN_LEAD for word in words):
        return None
    return "rejected" if any(word in _REJECTING for word in words) else "offered"


_LIST_ITEM = re.compile(r"[ \t]*+(?:\d{1,3}[.)]|[-*\u2022])[ \t]*+(?:\*\*)?[ \t]*+")
_REJECTING = frozenset("""
    wrong incorrect naive naïve mistaken false erroneous invalid tempting careless bad
""".split())  # noqa: SIM905 (a word list reads better as words)
"""Words before an answer phrase that name its value as one the reply rejects (`A common
wrong answer is 8.`): the box stays the answer (`_qualified_phrase`)."""


_PLAIN_LEAD = frozenset("""
    so thus therefore hence then and but or wait actually oh ah hmm hm well no sorry oops ok okay
    in conclusion summary short overall final finally my our the this that correct corrected
    correction true real right actual answer boxed text textbf mathbf bf is
    upon after on rechecking recalculating recomputing reconsidering reviewing checking double
    second thought closer further careful inspection reflection correcting
    所以 因此 故 综上 综上所述 最后 最终 即
""".split())  # noqa: SIM905 (a word list reads better as words)
"""The words that may stand before an answer phrase after a box in its own sentence (or its
clause, in the box's sentence) for the phrase to state the reply's answer: an allow-list of
openers that conclude or correct, a recomputation among them (`Upon rechecking, the answer
is`) (`_qualified_phrase`)."""
_NEGATION_LEAD = frozenset({"not", "never", "nicht", "pas", "no", "nein", "nie", "不是", "不"})
"""A first word of the value after an answer phrase that negates it (`The answer is not 8.`)."""


def _answer_sentence_end(text: str, phrase_end: int) -> int:
    """Where the sentence of the answer after a phrase ending at `phrase_end` ends (the
    answer may open on a later line: `**Final Answer**` then a blank line)."""
    begin = phrase_end + len(text[phrase_end:phrase_end + 200]) - len(
        text[phrase_end:phrase_end + 200].lstrip(" \t\n:*"))
    stop = _SENTENCE_END.search(text, begin + 1)
    return stop.start() + 1 if stop else len(text)


def _with_what_follows(text: str, phrase: tuple[Extraction, int, int]) -> Extraction:
    """The answer after a phrase, read with what a finished reply writes after its sentence
    when that offers another value or unsays it (`_unsaid`): then the answer is all the text
    after the phrase (`7. Or 8`, `7. Not`), which says something else than one value, as
    an answer and its hedge in one box do."""
    found, _, phrase_end = phrase
    if final_sentence_start(text) is None:
        return found  # cut off: the rule of a reply that stops mid-thought decides it
    after = _answer_sentence_end(text, phrase_end)
    rest = _unsaid(text, found.answer, after)
    if rest is None:
        return found
    whole = text[phrase_end:rest].strip(" \t\n:*").rstrip(_TRAILING)
    return replace(found, answer=whole, parts=(), native=False, settled=True) if whole else found


def _unsaid(text: str, answer: str, after: int) -> int | None:
    """Where the reply ends (end-of-turn text and sign-offs aside) when what it writes after
    its final answer (from `after`, the end of the answer's sentence) offers another value or
    unsays it: a number the answer does not hold (`The answer is 7. Or 8.`, `... But it
    could also be 8.`), or a word the reading rule knows to change a value (`qualifiers` of
    a sentence, where `or` and `no` are words; a number word: `... Not.`, `Or no $h$
    works.`); None when it does neither (a sign-off, units, prose that states no value)."""
    end = _end_of_reply(text)
    for _ in range(2):  # "... is X. I hope it is correct."
        start = _sentence_start_before(text, end - 1)
        if start < after or not _sign_off(text[start:end]):
            break
        end = start
    rest = text[after:min(end, after + _PHRASE_WINDOW)]
    if not rest.strip(" \t\n.!*$\\()[]{}"):
        return None
    held = set(_DIGITS.findall(answer))
    words = qualifiers(rest, sentence=True) - qualifiers(answer, sentence=True)
    if words or any(number not in held for number in _DIGITS.findall(rest)) or any(
            word.lower() in NUMBER_WORDS for word in _WORD.findall(rest)):
        return end
    return None


_DIGITS = re.compile(r"\d+")


def _answer_after(text: str) -> Extraction | None:
    """The answer that follows a phrase: a math environment that opens the rest of the line
    (with the ones joined to it), else the text up to the end of the sentence."""
    stripped = text.lstrip(" \t\n:*\"'")
    stripped = stripped.removeprefix('\\"')  # a quoted answer: \"$12$ and $13$\"
    offset = len(text) - len(stripped)
    opens = stripped.lstrip(" *").startswith(("$", "\\(", "\\["))
    if opens and "=" in stripped[:_WHOLE_MAX]:  # `$\mathrm{P}$-value $=0.527$`, as its gold
        head = stripped[:_first_sentence_end(stripped)]
        stated = _stated_value(head, _environments(head))
        if stated is not None:
            return Extraction(stated, "phrase", native=False)
    # Only a text that opens with math is scanned for it: a phrase with nothing after it
    # ("Answer:." x 600) costs its few characters, not the window each time.
    leading = [env for env in _environments(text) if env[0] >= offset] if opens else []
    if leading and text[offset:leading[0][0]].strip(" *") == "":
        block = _answer_block(text, leading)
        if block is not None:
            return block
        group = _joined(text, leading)
        parts = tuple(content for _, _, content in group)
        follows = _VALUE_AFTER_MATH.match(text, group[-1][1])
        if follows is not None and len(parts) == 1 and (
                changes_value(follows.group("word") or "")
                or follows.group("of") and parts[0].rstrip().endswith("%")):
            # `答案是 $5$ 万。` (50,000), `$3$ 分之一` (1/3), `$50\%$ of 10`: read with the value
            return Extraction(f"{parts[0]} {follows.group(0).strip().replace('$', '')}",
                              "phrase", native=False)
        stated = _stated_value(parts[0], []) if len(parts) == 1 and "\\" not in parts[0] and (
            _is_prose(parts[0])) else None
        if stated is not None:  # `$The steady state current is 2 amps.$`: a gold in `$`
            return Extraction(stated, "phrase", native=False)
        return Extraction(", ".join(parts), "phrase", parts if len(parts) > 1 else ())
    sentence = _first_sentence(stripped)
    if sentence and sentence.endswith("*") and "*" not in sentence.rstrip("*") and not (
            sentence.rstrip("*").endswith("^")):  # `**Answer: 7 apples**`: the phrase's emphasis closed
        sentence = _clean(sentence.rstrip("*"))
    stated = _stated_value(sentence, _environments(sentence)) if sentence else None
    if stated is not None:  # "Solution is: $(1, 2)$", read as that gold is read
        return Extraction(stated, "phrase", native=False)
    if sentence and " is " in sentence:  # "Final Answer: the volume of $V$ is 120"
        sentence = _clean(sentence.rsplit(" is ", 1)[1])
    if not sentence:
        return None
    inline = _environments(sentence) if "$" in sentence else []
    if inline and not _prose_around(sentence, inline):  # "1;$\frac{8}{9}$", as golds write
        sentence = _inline_environments(sentence, inline)
    elif "$" in sentence.replace("\\$", ""):  # `x_{0} \cos (\omega t)+$ $\dot{x}_{0}`
        sentence = _dollars_in_box(sentence)
    # A bare expression after the phrase ("**Final Answer** y = 5x + 8") is ours to parse:
    # math-verify has no rule for it. Prose around a number ("Jane started 3 hours ago") is
    # math-verify's to read, by its "answer ... number" rule.
    return Extraction(sentence, "phrase", native=_is_prose(sentence))


_PHRASE_WINDOW = 2_000
"""How much text after an answer phrase (or `####`) is read for its answer."""
# What may follow the math of an answer phrase and change its value: a word of a script with
# no spaces between words (`$5$ 万`, `$5$万`), which `magnitude_after` does not read (English
# magnitudes are read with `_answer_block`), or `of` and a number after a percent.
_VALUE_AFTER_MATH = re.compile(r"(?<![ \t])[ \t]*(?:(?P<word>[^\x00-\x7f\W\d_]+)|(?P<of>of[ \t]+\$?-?\d[\d.,]*\$?))")


def _answer_block(text: str, leading: list[tuple[int, int, str]]) -> Extraction | None:
    """An answer laid out as a gold lays it out, read as `prepare_reference` reads that gold:
    math environments over several lines (`$y_1=...$` newline `$y_2=...$`), a formula broken
    across two (`$56x^6+$ $60x^2+6$`), a unit around them (`$45/98$ meters, $30/49$
    seconds`, `$x/4+$ C`). None when the answer is the first environment and those joined to
    it by "and" / "or" / "," (math-verify reads those itself: `_joined`). One pass over at
    most `_PHRASE_WINDOW` characters."""
    group, end = [leading[0]], leading[0][1]
    for env in leading[1:]:
        between = text[end:env[0]]
        blank = not between.strip() and between.count("\n") <= 1  # not across a paragraph
        if not (blank or _joins(between) or (
                len(between) <= 40 and "\n" not in between and not _prose(between)
                and _SENTENCE_END.search(between) is None)):
            break
        group.append(env)
        end = env[1]
    rest = _first_sentence(text[end:]) if text[end:end + 1] in (" ", "\t") else None
    if rest and (_prose(rest) or "$" in rest):
        rest = None
    if not rest and group == _joined(text, leading):
        return None
    block = text[group[0][0]:end] + (" " + rest if rest else "")
    environments = _environments(block)
    if not environments or _prose_around(block, environments):
        return None
    if _only_environments(block, environments):
        answer = _join_environments(block, environments)
    else:
        answer = _inline_environments(block, environments)
    return Extraction(answer, "phrase", native=False) if answer else None


def _first_sentence(text: str) -> str | None:
    """Up to a period that ends a sentence (not a decimal point), or the line end."""
    return _clean(text[:_first_sentence_end(text)])


def _first_sentence_end(text: str) -> int:
    end = len(text)
    for i, ch in enumerate(text):
        if ch == "\n" or ch in "。；":
            end = i
            break
        decimal_point = i < len(text) - 1 and text[i + 1].isdigit() and (
            i == 0 or not text[i - 1].isalpha())  # 2.5, .5, -.5; not "end.5"
        if ch == "." and not decimal_point and (
                i + 1 == len(text) or text[i + 1].isspace() or not text[i - 1:i].isdigit()):
            end = i
            break
    return end


# --- math environments ---------------------------------------------------------------------

_OPENERS = (("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$"))


def _environments(text: str) -> list[tuple[int, int, str]]:
    """Math environments as (start, end, stripped content), left to right, one pass. Inline
    `$...$` and `\\(...\\)` stay on one line; a `$` right after a digit is a currency sign."""
    found = []
    i, n = 0, len(text)
    # The next closer of each kind and the next line break at or after a position, found
    # once and reused until passed: `\(` repeated without a closer is one pass, not n finds.
    after: dict[str, int] = {}

    def next_at(mark: str, at: int) -> int:
        known = after.get(mark)
        if known is None or (known != -1 and known < at):
            known = after[mark] = text.find(mark, at)
        return known

    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and text[i + 1] in "[(":
            close = "\\]" if text[i + 1] == "[" else "\\)"
            end = next_at(close, i + 2)
            if end < 0 or (close == "\\)" and -1 < next_at("\n", i + 2) < end):
                i += 2
                continue
            found.append((i, end + 2, text[i + 2:end].strip()))
            i = end + 2
            continue
        if ch == "\\":
            i += 2  # an escaped character: \$ is a dollar sign
            continue
        if ch == "$":
            display = text.startswith("$$", i)
            width = 2 if display else 1
            closing = _closing_dollar(text, i + width, display)
            if closing is None:
                i += width
                continue
            content = text[i + width:closing].strip()
            if content:
                found.append((i, closing + width, content))
            i = closing + width
            continue
        i += 1
    return found


def _closing_dollar(text: str, start: int, display: bool) -> int | None:
    """Where the `$` (or `$$`) that closes an environment opened before `start` is. An inline
    one ends on its line, except inside `\\begin{...}` ... `\\end{...}` (a matrix or cases
    laid out over lines, as golds and models write them)."""
    i, n, depth = start, len(text), 0
    while i < n:
        ch = text[i]
        if ch == "\\":
            if text.startswith("begin{", i + 1):
                depth += 1
            elif text.startswith("end{", i + 1):
                depth -= 1
            i += 2
            continue
        if ch == "$":
            if display:
                return i if text.startswith("$$", i) else None
            return i
        if ch == "\n" and not display and depth <= 0:
            return None
        i += 1
    return None


def _joined(text: str, environments: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The first environment and those that follow it joined by "and" / "or" / "," (at most
    six, as math-verify reads them)."""
    group = [environments[0]]
    for env in environments[1:6]:
        between = text[group[-1][1]:env[0]]
        if not _joins(between):
            break
        group.append(env)
    return group


def _from_math_environment(text: str, start: int = 0
                            ) -> tuple[Extraction, int, int] | None:
    """The last math environment that opens at or after `start` (with those joined to it
    before it), where it ends and where the first of them starts."""
    environments = [env for env in _environments(text) if env[0] >= start and _has_math(env[2])]
    if not environments:
        return None
    group = [environments[-1]]
    for env in reversed(environments[:-1]):
        between = text[env[1]:group[-1][0]]
        if len(group) >= 6 or not _joins(between):
            break
        group.append(env)
    parts = tuple(content.rstrip(_TRAILING) for _, _, content in reversed(group))
    end = environments[-1][1]
    if len(parts) == 1:
        return Extraction(parts[0], "latex"), end, group[0][0]
    return Extraction(", ".join(parts), "latex", parts), end, group[-1][0]


def _joins(between: str) -> bool:
    """True when the text between two answers joins them: "and", "or", a comma (short only,
    so the pattern never runs on long text)."""
    return len(between) <= 24 and " ".join(between.lower().split()) in _JOINERS


def _is_prose(text: str) -> bool:
    """True when `text` holds a word of two or more letters that is not mathematics."""
    return any(word.lower() not in _MATH_WORDS for word in _WORD.findall(text))


def _has_math(content: str) -> bool:
    return any(ch.isdigit() or ch in "\\^_=<>+-*/()[]{}|" for ch in content) or len(
        content.strip()) <= 3


def _only_environments(text: str, environments: list[tuple[int, int, str]]) -> bool:
    """True when `text` is nothing but these environments, joined by and / or / commas."""
    if text[:environments[0][0]].strip() or text[environments[-1][1]:].strip(" .\n"):
        return False
    return all(_joins(text[a[1]:b[0]]) or not text[a[1]:b[0]].strip()
               for a, b in itertools.pairwise(environments))


def _from_whole_text(text: str) -> Extraction | None:
    """A completion that is nothing but an answer: `x^2+1`, `(1, 2]`, `\\frac{1}{2}`, `1 000`."""
    stripped = text.strip()
    if not stripped or len(stripped) > _WHOLE_MAX or "\n" in stripped:
        return None
    number = _NUMBER.fullmatch(stripped.rstrip("."))
    if number is not None:
        return _number_extraction(stripped, number, "whole")
    if any(mark in stripped for mark in ("\\(", "\\[", "\\boxed", "\\fbox")) or not _WHOLE_OK.fullmatch(
            stripped) or _is_prose(stripped):
        return None
    if not any(ch.isdigit() or ch in "\\^" for ch in stripped) and len(stripped) > 3:
        return None
    cleaned = _clean(stripped)
    return Extraction(cleaned, "whole", native=False) if cleaned else None


# --- a committed answer ------------------------------------------------------------------------

_SHORT_CHARS = 1_000
"""A completion this short that ends mid-sentence was written so ("It costs $18.90 in
total"); a longer one (a chain of thought) was cut off by its token budget."""
_SIGN_OFF_WORDS = 3
"""Words after an answer that are a sign-off ("Done", "Hope this helps"), not more thought."""
_OPEN_BOX = re.compile(r"\\(?:boxed|fbox)\s*\{")
_CLOSED_ENDINGS = ("$", "\\]", "\\)", "**", "```")
_DANGLING = tuple("+-*/=^(,[{\\&")


def _ends_in_open_box(text: str) -> bool:
    """True when the last `\\boxed{` / `\\fbox{` never closes: the text stops inside it."""
    match = None
    for match in _OPEN_BOX.finditer(text):
        pass
    # the `{` follows a letter or a space, never a backslash, so it is a brace in any scan,
    # and the `}` that closes it depends on the text after it only
    return match is not None and _brace_pairs(text[match.end() - 1:]).get(0) is None


def final_sentence_start(text: str) -> int | None:
    """Where the last sentence of a completion that ends there starts, or None when it stops
    mid-thought: inside a box, on an operator (`\\sqrt[3]{4} +`), on an ellipsis, or on
    neither a closing mark (a period, "!", a closed math environment or bold span, a code
    fence) nor a number (`... #### 9`), unless its last line is only an answer
    (`x = \\frac{1}{2}`): mid-word or mid-sentence, in a chain of thought longer than
    `_SHORT_CHARS` (a short reply may end without a period). A question is not an end. A
    sentence ends at ". " / "! " / "? ", a "。" or a blank line; a decimal point does not."""
    end = _end_of_reply(text)
    if end == 0 or _ends_in_open_box(text):
        return None
    closed = text[:end]
    if not closed.endswith(_CLOSED_ENDINGS):
        closed = closed.rstrip(")\"'”’")  # `(see above).`, a closing quote
        if not closed or closed.endswith(("...", "…", "?", "？", *_DANGLING)):
            return None
    if len(closed) > _SHORT_CHARS and not (
            closed[-1] in ".!。" or closed[-1].isdigit() or closed.endswith(_CLOSED_ENDINGS)):
        line = text[text.rfind("\n", 0, end) + 1:end]
        if _from_whole_text(line) is None:
            return None
    start = _sentence_start_before(text, len(closed) - 1)
    for _ in range(2):  # "... there are 12 sequences. I hope it is correct."
        if start == 0 or not _sign_off(text[start:end]):
            break
        start = _sentence_start_before(text, start - 1)
    return start


# Sentences known to add nothing after an answer (Minerva's prompt ends every answer with the
# first); anything else after the answer's sentence may be more thought or a retraction.
_SIGN_OFFS = frozenset({"i hope it is correct", "i hope this is correct", "i hope it helps",
                        "i hope this helps", "hope this helps", "hope it helps", "done", "qed",
                        "∎", "□", "this is the final answer", "that is the final answer",
                        "this is the answer", "that is the answer", "that's the answer",
                        "that's the final answer", "that is it", "that's it", "that is all",
                        "that's all", "this is it", "it is done", "that is done"})


def stated_answers(found: Extraction | None, text: str | None,
                   config: MathConfig = _DEFAULT) -> list[str]:
    """What a completion states as its final answer, as texts, for a gold read whole by
    identity (a sentence around math, `_compare`), in the priority of `find_answer`: a tag's
    or box's content (`found`) only; after an answer phrase or `####`, also the text after
    the last one to the end of the reply; with no marked answer, the reply itself and its
    final sentence, when it ends (`final_sentence_start`) and starts within the last
    `tail_chars` (a sentence cut by the tail is not one). The reply ends before end-of-turn
    text and sign-offs ("I hope it is correct."). `text`: the completion, or None."""
    stated = [found.answer] if found is not None else []
    if text is None or found is not None and found.source in ("tag", "boxed", "given"):
        return stated
    complete = len(text) <= config.tail_chars
    text = text[-config.tail_chars:]
    end = _end_of_reply(text)
    for _ in range(2):  # "... is X. I hope it is correct."
        start = _sentence_start_before(text, end - 1)
        if start == 0 or not _sign_off(text[start:end]):
            break
        end = start
    body = text[:end]
    if found is not None and found.source in ("phrase", "gsm8k"):
        marks = _HASHES if found.source == "gsm8k" else _ANSWER_PHRASE
        mark = None
        for mark in marks.finditer(body):
            pass
        if mark is not None:
            stated.append(body[mark.end():].lstrip(" \t\n:*#"))
        return stated
    if complete:
        stated.append(body)
    last = final_sentence_start(text)
    if last is not None and last < end and (last > 0 or complete):
        stated.append(text[last:end])
    return stated


def _sign_off(sentence: str) -> bool:
    return " ".join(sentence.lower().split()).strip(" .!*") in _SIGN_OFFS


# Special-token text in any known family's spelling, one table by family, so a marker is data
# by construction (`_PADDING` reads each as padding, after a box and between boxes
# (`_box_group`); `_end_of_reply` drops those that end the text): ChatML, Llama-3, Phi, Cohere
# and gpt-oss `<|im_end|>` (DeepSeek's full-width `<｜end▁of▁sentence｜>`, bars `｜` U+FF5C, word
# space `▁` U+2581, and its look-alike spellings), a Llama-3 header with its role
# (`<|start_header_id|>assistant<|end_header_id|>`; the spaces around the role taken whole: a
# long run of them is read once, not once per split), Llama-2 and Mistral `</s>`, `[INST]`,
# and Gemma `<end_of_turn>`, `<start_of_turn>model`, `<eos>`.
_TURN_ROLES = r"(?:user|assistant|model|system|ipython|tool)"
_SPECIAL_TOKEN_FAMILIES = {
    "llama-3 header": (rf"<[|\uff5c][A-Za-z_\u2581]{{1,30}}[|\uff5c]>[ \t]*+{_TURN_ROLES}?[ \t]*+"
                       r"<[|\uff5c]end[_\u2581]header[_\u2581]id[|\uff5c]>"),
    "chatml, llama-3, phi, cohere, gpt-oss, deepseek": r"<[|\uff5c][A-Za-z_\u2581]{1,30}[|\uff5c]>",
    "gemma": r"<(?:start|end)_of_turn>|</?(?:bos|eos|pad)>",
    "llama-2, mistral": r"</?s>|\[/?INST\]",
}
# (a role written after a marker is the marker's, as chat templates write it:
# `<|im_start|>assistant\n`, `<start_of_turn>model\n`, `<|im_start|>assistant$\boxed{8}$`;
# one a word follows on its line is text: `<|im_start|>user is ...`)
_SPECIAL_TOKEN = (rf"(?:{'|'.join(_SPECIAL_TOKEN_FAMILIES.values())})"
                  rf"(?:[ \t]*+\n?[ \t]*+{_TURN_ROLES}(?=[ \t]*+(?:\n|$|[^\s\w]|\d)))?")
_TURN_MARKER = re.compile(_SPECIAL_TOKEN)
_END_OF_TURN = re.compile(rf"(?:{_SPECIAL_TOKEN})\s*{_TURN_ROLES}?\s*")
_TOKEN_OPENERS = ("<|", "<\uff5c", "</s>", "<end_of_turn>", "<start_of_turn>", "<eos>", "<pad>")
"""How end-of-turn text opens (`_end_of_reply` looks back for these)."""


def _end_of_reply(text: str) -> int:
    """Where the reply ends: before trailing space and end-of-turn text (`<|im_start|>user`,
    `<|endoftext|>`, `</s>`) that a chat template leaves after a finished turn."""
    end = len(text.rstrip())
    for _ in range(4):  # a few stacked markers at most
        start = max(text.rfind(opener, max(end - 60, 0), end) for opener in _TOKEN_OPENERS)
        if start < 0 or not _END_OF_TURN.fullmatch(text, start, end):
            break
        end = len(text[:start].rstrip())
    return end


def _sentence_start_before(text: str, end: int) -> int:
    """Where the sentence holding position `end` starts (one backward pass)."""
    i = min(end, len(text)) - 1
    while i >= 0:
        ch = text[i]
        factorial = ch == "!" and i > 0 and (text[i - 1].isdigit() or text[i - 1] in ")}")
        if ch == "。" or ch in ".!?" and text[i + 1:i + 2].isspace() and not factorial:
            return i + 1
        if ch == "\n":
            j = i - 1
            while j >= 0 and text[j] in " \t\r":
                j -= 1
            if j >= 0 and text[j] == "\n":  # a blank line
                return i + 1
        i -= 1
    return 0


_BOLD = re.compile(r"\*\*([^*\n]{1,200})\*\*")


def _last_bold(text: str, start: int) -> Extraction | None:
    """The last bold span at or after `start` that holds math and is not a label
    (`n = **5**`, `**4 up quarks**`; not `**Step 3:**`)."""
    match = None
    for candidate in _BOLD.finditer(text, start):
        content = candidate.group(1).strip()
        if content and not content.endswith(":") and any(ch.isdigit() for ch in content):
            match = candidate
    if match is None:
        return None
    answer = _clean(match.group(1))
    return Extraction(answer, "phrase", native=False) if answer else None


# --- numbers ---------------------------------------------------------------------------------

def _last_choice(text: str, start: int) -> re.Match[str] | None:
    """The last `(B)` or "option B" / "choice B" in prose at or after `start` (the letter:
    group 1 or 2), or None."""
    match = None
    for match in _CHOICE_IN_PROSE.finditer(text, start):
        pass
    return match


def _last_number(text: str, start: int = 0) -> tuple[Extraction, int, int] | None:
    """The last anchored number at or after `start`, where it starts and where it ends; a
    root's index (`\\sqrt[3]{4}` holds no 3) is markup, not a number."""
    match = None
    for candidate in _NUMBER.finditer(text, start):
        if not text.startswith("]{", candidate.end(1)):
            match = candidate
    if match is None:
        return None
    return _number_extraction(text, match, "number"), match.start(1), match.end(1)


# What states a value, after which the value's own clause starts: `=` (not `<=`, `>=`, `!=`),
# `:`, a copula or a verb that states an amount, `'s`, "so" / "thus" / "hence" /
# "therefore" (`3 apples, then 5 more, so 8 apples`); or a connective that opens the
# sentence (`_OPENING`: `So,`, `Therefore,`). An allow-list: any other word before the value is read
# beside it (`not 7`, `at least 7`, `minus 7`).
_VERBS = (r"is|are|was|were|be|been|being|equals|equal\s+to|makes?|made|gets?|got|gives?|gave|"
          r"has|have|had|yields?|becomes?|became|totals?|costs?|needs?|takes?|took|earns?|"
          r"earned|pays?|paid|sells?|sold|buys?|bought|spends?|spent|uses?|used|leaves?|left|"
          r"remains?|remained")
_STATES = re.compile(
    rf"(?<![<>!=\\])=(?!=)|:|(?<![\w\\])(?:{_VERBS}|so|thus|hence|therefore)(?![\w\\])|"
    r"['’]s\b", re.IGNORECASE)
# A verb right after a value makes the value the subject of what its clause goes on to say
# (`\boxed{7} is wrong`, `7 was my first guess`, `\boxed{7} isn't right`): the verbs that
# state a value (`_VERBS`), the auxiliaries and the linking verbs, negated or not.
_SAID_OF = re.compile(
    rf"(?:(?P<cannot>cannot|can['’]t|won['’]t)|(?:{_VERBS}|(?P<aux>do|does|did|can|could|"
    r"will|would|shall|should|may|might|must|seems?|seemed|appears?|appeared|looks?|looked))"
    r"(?P<not>n['’]?t)?)(?![\w\\])", re.IGNORECASE)
_DETACHED_NOT = re.compile(r"(?<![^\W\d_])n['’]t(?![^\W\d_])", re.IGNORECASE)  # `is n't`
_OPENING = re.compile(r"(?:so|thus|therefore|hence|then|finally|overall|altogether|"
                      r"in\s+total|in\s+all)(?![\w\\]),?", re.IGNORECASE)
_WORDS_MAX = 200
"""The most characters of a clause read beside an unmarked answer (a longer one is a sentence
whose value math-verify's rules read; its words are still read, up to this bound)."""


def _with_words(text: str, start: int, found: Extraction, begin: int, end: int) -> Extraction:
    """`found` (an answer at `begin:end` of the final sentence that starts at `start`) with
    the words of its clause beside it (`Extraction.words`): from the last `_STATES` before it
    to the end of its sentence, math delimiters dropped."""
    first = start + len(text[start:begin]) - len(text[start:begin].lstrip())
    opening = _OPENING.match(text, first, begin)
    clause_start = opening.end() if opening else start
    for state in _STATES.finditer(text, max(start, begin - _WORDS_MAX), begin):
        clause_start = state.end()
    after = _clause_after(text, end)
    words = _DELIMITERS.sub(" ", text[clause_start:begin]) + found.answer + after
    words = " ".join(words.split()).strip(_TRAILING)
    if not words or words == found.answer:
        return found
    return replace(found, words=words, said=_said_of(after))


def _box_with_words(text: str, found: Extraction, end: int) -> Extraction:
    """A box (`found`, ending at `end`) that is the subject of its clause (`_said_of`:
    `\\boxed{7} is not the answer.`) with the words of that clause beside it, as a bare
    number's (`Extraction.words`, `Extraction.said`); any other box as it is. The words
    before a box are never read (the box marks its value), nor the words after it when no
    verb follows it: units, counted nouns and what they go on to say (`$\\boxed{18}$ dollars
    every day`, `\\boxed{5} hours more than James`) describe the value, they do not unsay it;
    a magnitude word right after the box is read with it (`magnitude_after`). What stands
    glued to the box's brace is read with its value unless it is a mark known to leave it
    (`_glued_to_box`; a styling command with what it holds, `\\text{!}`; a thousands group or
    a CJK magnitude continues the box's number, `_number_across_the_brace`), and a value in
    brackets right after the box is the box stated again (`_bracketed_value`; a `\\tag{...}`
    that is no label is such a bracket). An equation number after the box
    (`_EQUATION_NUMBER`: `\\qquad (1)`) is a label, not read."""
    continued = _number_across_the_brace(text, end, found.answer)
    if continued is not None:  # `\\boxed{7}\\,000`, `\\boxed{7}万`: the number the box begins
        found = replace(found, answer=continued[0], parts=(), native=False)
        text = text[:end] + text[continued[1]:]
    number = _EQUATION_NUMBER.match(text, end)
    if number is not None:  # `\\boxed{7} \\qquad (1)`: the box's equation number
        text = text[:end] + " " + text[number.end():]
    tag = _TAG.match(text, end)
    if tag is not None and not _LABEL.fullmatch(tag.group(1)):
        # `\\tag{8 \\text{ or } 9}`: a tag that is no label is set in brackets as a display sets it
        text = f"{text[:end]} ({tag.group(1)}){text[tag.end():]}"
    styled = _STYLED.match(text, end)
    if styled is not None:  # `\\boxed{7}\\text{!}`, `\\text{ thousand}`: read what the command holds
        text = text[:end] + styled.group(1) + text[styled.end():]
    degree = _DEGREE_SPELLING.match(text, end)
    if degree is not None:  # `\\boxed{30}^o`: the degree sign (`o` is no Spanish `or` here)
        text = text[:end] + "\u00b0" + text[degree.end():]
    after = _clause_after(text, end, found.answer)
    glued = _glued_to_box(text, end, found.answer)  # `\\boxed{7}!`, `\\boxed{7}²`, `\\boxed{7}½`
    if glued is not None and glued[1]:
        ordinal = _own_ordinal(text, end, found.answer)
        suffix = _ORDINAL_GLUE.match(text, end) if ordinal else None
        if suffix is not None:  # `\\boxed{2}nd or 3rd`: what follows the place, read as after a box
            rest = _box_with_words(text[:end] + text[suffix.end():], found, end)
            if rest.said is not None or rest.uncertain is not None:
                return rest
        return replace(found, uncertain=f"{glued[0]!r} is glued to the box and not read",
                       ordinal=ordinal)
    said = _said_of(after)
    if said is None:
        said = _said_after_a_mark(after, _after_box(text, end, sentences=1)[0], found.answer)  # `\\boxed{7}, wrong.`, `\\boxed{7} — это не ответ`
    for value in (glued[0] if glued else None, _bracketed_value(text, end, found.answer)):
        if value is not None:  # `\\boxed{7}!` is 5040, `\\boxed{7} (8)`: said of the box
            said = value if said is None else f"{said}; {value}"
    joined = _joined_alternative(text, end, found.answer)  # `\boxed{7} or 8.`, `\boxed{7} is it. Or 8.`
    if joined is not None:
        said = joined if said is None else f"{said}; {joined}"
    again = _restated(text, end, found.answer)  # `\boxed{7}. No, it is 8.`, `It is 15/2.`
    if again is not None:
        said = again if said is None else f"{said}; {again}"
    if said is None:  # `\boxed{7}. Also 8.`, `\boxed{7}. Scratch that.`: not known to leave it
        unread = _unread_after_box(text, end, found.answer)
        if unread is not None and unread[1] is False:
            return replace(found, uncertain=f"{unread[0]!r} follows the box and is not read")
        if unread is not None and not isinstance(unread[1], bool):  # the question may excuse them
            found = replace(found, stated_after=tuple((value, said) for value, said, told in unread[1] if not told),
                            told_after=tuple((value, said) for value, said, told in unread[1] if told))
            unread = None
        said = unread[0] if unread is not None else None
    if said is None:
        # `\boxed{7} thousand dollars`: a magnitude word is read with the value, not as a
        # unit (the comparison reads `7 thousand` as 7000, `_read_with_words`)
        magnitude = magnitude_after(found.answer, after)
        return found if magnitude is None else replace(found, words=magnitude)
    # a number in words said of the box reads as its digits (`or one half`: `affirms` read it)
    words = " ".join((found.answer + numbers_in_words(after)).split()).strip(_TRAILING)
    return replace(found, words=words, said=said)


# An equation number after a box: a small whole number in brackets (`(1)`, `\\text{(12)}`) set
# apart by a LaTeX spacing command (`\\quad`, `\\qquad`, `\\hfill`, `\\tag`), as a display
# numbers its lines; read as a label, not a value. One space alone sets nothing apart
# (`\\boxed{7} (8)` states another value: `_bracketed_value`).
_EQUATION_NUMBER = re.compile(
    r"(?:[ \t]|\\[,;: ]){0,8}(?:\\(?:q?quad|hfill|tag\*?)(?![A-Za-z])(?:[ \t]|\\[,;: ]){0,8}){1,4}"
    r"(?:\(\s*\d{1,3}\s*\)|\\text\{\s*\(\s*\d{1,3}\s*\)\s*\})(?![\w^_{(\[]|[.,]\d)")


def _number_across_the_brace(text: str, end: int, answer: str) -> tuple[str, int] | None:
    """The number a box's whole number `answer` begins and the text glued to its brace at `end`
    goes on to write, and where that ends: groups of three digits after a LaTeX thousands
    separator (`\\boxed{7}\\,000`, `\\boxed{12}~345`: 7000, 12345) or a magnitude of a script
    written without spaces (`_UNSPACED_MAGNITUDES`: `\\boxed{7}万` is 70000, `\\boxed{7}만`
    too); the reply wrote that number, so it is the answer. None for anything else."""
    if not _DIGITS.fullmatch(answer) or len(answer) > 15:
        return None
    groups = _THOUSANDS_GROUPS.match(text, end)
    if groups is not None:
        return answer + "".join(_DIGITS.findall(groups.group(0))), groups.end()
    magnitude = _UNSPACED_MAGNITUDE.match(text, end)
    if magnitude is not None:
        return str(int(answer) * _UNSPACED_MAGNITUDES[magnitude.group(1)]), magnitude.end()
    return None


# Groups of three digits glued to a box after a LaTeX thousands separator, to a number's end.
_THOUSANDS_GROUPS = re.compile(r"(?<!\d)(?:(?:\\[,;:]|~|\{,\})\d{3})+(?![\d}]|[.,]\d)")
# The magnitudes that multiply a number written before them in Chinese, Japanese and Korean.
_UNSPACED_MAGNITUDES = {"十": 10, "百": 100, "千": 1000, "万": 10**4, "萬": 10**4, "亿": 10**8,
                        "億": 10**8, "십": 10, "백": 100, "천": 1000, "만": 10**4, "억": 10**8}
# One of them glued to a box, not followed by another number word (`7千5百` is not read).
_UNSPACED_MAGNITUDE = re.compile(
    rf"({'|'.join(_UNSPACED_MAGNITUDES)})(?!{'|'.join(_UNSPACED_MAGNITUDES)}|[\d零〇一二两三四五六七八九])")


# A display's tag after a box (`\\tag{1}`, `\\tag*{8 \\text{ or } 9}`), and what makes one a label
# (one token: `1`, `7.5`, `8a`, `*`), not read; any other tag is read as a bracket after the
# box (`_bracketed_value`: `\\tag{7 \\text{ or } 8}` offers two values).
_TAG = re.compile(r"(?<![ \t])[ \t]*\\tag\*?\s*\{((?:[^{}]|\{[^{}]{0,30}\}){0,60})\}")
_LABEL = re.compile(r"(?<!\s)\s*(?:[^\s{}\\]{1,12}|\\(?:ast|star|dagger|ddagger))\s*")


# The degree sign as keyboards and LaTeX spell it besides `°` and `^\\circ`: a raised `o`
# (`^o`, `^{\\text{o}}`), after an empty group or a thin space too (`{}^o`).
_DEGREE_SPELLING = re.compile(r"(?:\{\}|\\,)?\^\s*(?:o|\{\s*(?:o|\\(?:text|mathrm)\{o\})\s*\})(?![A-Za-z])")
# An English ordinal suffix glued to a whole number (`7th`, `1^{st}`, `3^{\\text{rd}}`): the
# value as a place, when the suffix is the number's own (`_ordinal_suffix`) and nothing but
# the name of what it counts follows it in its clause (`_ORDINAL_END`).
_ORDINAL_GLUE = re.compile(r"(?:\^\s*\{?\s*(?:\\(?:text|mathrm)\{)?)?(st|nd|rd|th)\}?\s*\}?(?![A-Za-z^!]|\s*\d)")
# The members of a series counted in order, which an ordinal names (`7th place`, `3rd floor`,
# `the 2nd term`): a question that asks which of them (`asks_for_place`) is answered by one.
PLACE_NOUNS = ("place", "position", "rank", "floor", "storey", "story", "level", "day", "week",
               "month", "century", "term", "row", "column", "seat", "grade", "round", "stage",
               "step", "turn", "lap", "inning", "page", "chapter", "line", "generation", "edition",
               "attempt")
# What may end an ordinal's clause (an allow-list): its end (sentence punctuation, a closing
# bracket or delimiter, a line break, the reply's end), after at most the name of what it
# counts (`7th place.`). Anything else may count the place otherwise (`2nd-to-last`, `2nd
# last`, `2nd from the end`): the ordinal is not the value as a place alone.
_ORDINAL_END = re.compile(
    rf"(?<![ \t])[ \t]*(?:(?:{'|'.join(PLACE_NOUNS)})s?(?![\w-])[ \t]*)?(?:[.,;:!?)\]}}$*]|\\[)\]]|\n|$)")


def _sentence_bang(text: str, end: int, after: str, passed: str) -> bool:
    """Whether a `!` after the closing prose delimiters `passed` glued to a box that ends at
    `end` is the sentence's, not a factorial: they close a span opened right before the box
    (`$\\boxed{7}$!`, `**\\boxed{7}**!`), or a math span the box ends (`x = \\boxed{7}$!`)
    and no math opens again after the `!` (`\\boxed{7}$!$` writes `7!`)."""
    if not after[len(passed):].startswith("!") or not _PROSE_CLOSE.fullmatch(passed):
        return False
    if text[:text.rfind("\\boxed", 0, end)].rstrip()[-1:] in tuple("$*>\"("):
        return True
    return passed in ("$", "$$", "\\)") and not after[len(passed) + 1:].startswith(("$", "\\("))


def _own_ordinal(text: str, end: int, answer: str) -> bool:
    """Whether what is glued to a box that ends at `end` is the English ordinal suffix of its
    whole number (`7th`, `1^{st}`; not `7st`) and its clause ends there, or after the name of
    what it counts (`_ORDINAL_END`: `7th place.`; not `2nd-to-last`, `2nd from the end`)."""
    glued = _INVISIBLE.sub("", text[end:end + 2 * _GLUE_MAX])
    ordinal = _ORDINAL_GLUE.match(glued)
    return ordinal is not None and ordinal.group(1) == _ordinal_suffix(answer) and (
        _ORDINAL_END.match(glued, ordinal.end()) is not None)


def _ordinal_suffix(answer: str) -> str | None:
    """The English ordinal suffix of a whole number written in digits (`st` of 21, `th` of
    11); None for anything else."""
    if not answer.isdigit() or len(answer) > 9:
        return None
    n = int(answer)
    if n % 100 in (11, 12, 13):
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _glued_to_box(text: str, end: int, answer: str) -> tuple[str, bool] | None:
    """What a reply writes glued to the closing brace of a box that ends at `end`, when it is
    no mark known to leave the box's value (`_HARMLESS_GLUE`: a space, a closing delimiter or
    bracket, spacing, sentence punctuation before no digit, markdown, a tag, quotes, a
    percent or degree sign, a dash that joins what follows) nor a unit (`\\boxed{5}cm`,
    `normalize`): the box and it written as one value (`7!`, `7^{2}` of `7²`, `7.5` of `7½`,
    `7.5` of `7.5`), and whether the arithmetic cannot read it. None when it leaves the box's
    value (nothing glued, a harmless mark, `\\boxed{7}.0`); (value, False) when the value it
    writes is another (`\\boxed{7}!` is 5040: said of the box, which `affirms` refuses);
    (text, True) when neither arithmetic reads it (`\\boxed{7}th`: uncertain). A `!` after a
    box that is no number is the sentence's (`\\boxed{\\text{Yes}}!`)."""
    start = end + len(text[end:]) - len(text[end:].lstrip(_INVISIBLE_CHARS))  # (any run of them)
    after = _INVISIBLE.sub("", text[start:start + 2 * _GLUE_MAX])
    group = _SPACED_GROUP.match(after)
    passed = group or _PASSED_GLUE.match(after)
    if passed is not None:
        following = after[passed.end():passed.end() + 1]
        if following.strip() and not following.isalpha() and not (  # `$\\boxed{18}$th`: prose
                _sentence_bang(text, end, after, passed.group(0))):
            after = after[passed.end():]  # `\\boxed{7}\\,000`, `(\\boxed{7})^2`: read past the marks
    compound = _GLUED_COMPOUND.match(after)
    if compound is not None:  # `\\boxed{3}-fold` leaves the value, `\\boxed{7}-ish` does not
        return (compound.group(0), True) if _compound_changes(compound.group(1), answer) else None
    if _HARMLESS_GLUE.match(after):
        return None
    run = _GLUED_RUN.match(after)
    if run is None:  # `{ !}`, `{{8}}`, `?8`: glued, not harmless, and no run the arithmetic reads
        if not after.strip("{}"):
            return None  # `{{}}`: empty groups only (within the window)
        return after[:_GLUE_MAX].split(maxsplit=1)[0], True
    if "/" in run.group(0) and all(  # `\\boxed{60}km/h`: a compound unit, each part a unit
            part.isalpha() and normalize(f"{answer} {part}") == normalize(answer)
            for part in run.group(0).split("/")):
        return None
    if any(unicodedata.category(char) == "Sc" for char in run.group(0)):
        # `\\boxed{7}¢`, `\\boxed{7}€m`: a currency sign is harmless glue alone and a whole unit
        # (`_HARMLESS_GLUE`); a sub-unit or one a magnitude follows scales the value
        return run.group(0), True
    value = _as_latex(symbol_numbers(answer + run.group(0)))  # `7²` as `7^{2}`, `7½` as `7.5`
    if normalize(answer) in (normalize(value), normalize(f"{answer} {run.group(0)}")):
        return None  # a unit (`\\boxed{5}cm`, `\\boxed{5}\\text{ cm}`)
    differs = _value_differs(value, answer)
    if differs is None and run.group(0).strip("!") == "" and evaluate(answer) is None:
        return None  # `\\boxed{\\text{Yes}}!`: no number, so no factorial
    if differs is False:
        return None
    return value, differs is None


_GLUE_MAX = 40


def _compound_changes(words: str, answer: str) -> bool:
    """Whether a hyphen compound glued to a value (`words` after the hyphen: `fold`,
    `year-old`) may change it: unless each word is a unit or a counted noun (`normalize` drops
    it: `7-day`, `7-digit`) or makes a compound known to leave the value (`_COMPOUND_WORDS`),
    it may approximate (`-ish`, `-odd`, `-plus`), scale (`-thousand`, `-dozen`, `-tenths`,
    `-percent`) or operate (`-squared`)."""
    return not all(word.lower() in _COMPOUND_WORDS or normalize(f"{answer} {word}") == normalize(answer)
                   for word in re.split(r"[-\u2010]", words))


def _glue_symbols() -> str:
    """The marks and symbols outside ASCII known to leave a value as it is when glued to it
    (its marks are `_HARMLESS_GLUE`'s own), from the Unicode database by name, an allow-list:
    closing brackets and quotation marks (`Pe`, `Pf`, `Pi`: `»`, `」`, `】`; a superscript or
    subscript one writes mathematics: `⁾`), the marks that end or pause a sentence in any script
    (`_SENTENCE_MARK`: `…`, `।`, `؟`; not one doubled or mixed with another, `‽`, `⁇`, `⁉`),
    footnote and end marks (`†`, `※`, `■`, `∎`), marks of approval (`✓`, `✅`, `👍`, `🎉`,
    `😊`: `_APPROVING_SYMBOL`), degree signs (`℃`), and the signs of whole currency units
    (`_CURRENCY_UNIT`: `€`, `₽`; not a sub-unit, `¢`, `₥`, which scales the value). None has a
    numeric value (`unicodedata.numeric`: `㊀`)."""
    codes = []
    for code in itertools.chain(range(0x80, 0x10000), range(0x1F000, 0x1FB00)):
        char = chr(code)
        name = unicodedata.name(char, "")
        if unicodedata.numeric(char, None) is not None or not name:
            continue
        category = unicodedata.category(char)
        if category in ("Pe", "Pf", "Pi") and not _WRITES_MATH.search(name) or (
                category == "Po" and _SENTENCE_MARK.fullmatch(name)) or (
                category in ("So", "Sm") and _APPROVING_SYMBOL.fullmatch(name)):
            codes.append(code)
    return char_class(sorted(codes))


def _currency_units() -> str:
    """The signs of whole currency units (`_CURRENCY_UNIT`, by Unicode name: `€`, `£`, `₽`,
    `฿`), which may stand glued to a value before no letter or digit (`\\boxed{7}€`); a sign
    of a sub-unit (`¢`, `₥`) or a magnitude after the sign (`€M`, `£bn`) changes the value."""
    codes = [code for code in range(0x80, 0x10000)
             if unicodedata.category(chr(code)) == "Sc" and
             _CURRENCY_UNIT.fullmatch(unicodedata.name(chr(code), ""))]
    return char_class(codes)


_WRITES_MATH = re.compile(r"SUPERSCRIPT|SUBSCRIPT|MATHEMATICAL")
_SENTENCE_MARK = re.compile(
    r"(?:(?!DOUBLE |EXCLAMATION |REVERSED |TURNED )[A-Z]+ ){0,3}(?:FULL STOP|COMMA|COLON|SEMICOLON|"
    r"QUESTION MARK|HORIZONTAL ELLIPSIS|DANDA|DOUBLE DANDA|QUOTATION MARK|APOSTROPHE|DAGGER|"
    r"DOUBLE DAGGER|REFERENCE MARK|SECTION SIGN|PILCROW SIGN)")
_APPROVING_SYMBOL = re.compile(
    r"(?:HEAVY |WHITE HEAVY )?CHECK MARK|BALLOT BOX WITH CHECK|CHECK MARK BUTTON|END OF PROOF|"
    r"(?:BLACK|WHITE)(?: SMALL| MEDIUM| MEDIUM SMALL| LARGE)? SQUARE|"
    r"PARTY POPPER|CONFETTI BALL|SPARKLES|GLOWING STAR|(?:WHITE|BLACK) (?:MEDIUM )?STAR|"
    r"THUMBS UP SIGN|CLAPPING HANDS SIGN|TROPHY|OK HAND SIGN|"
    r"(?:WHITE |SLIGHTLY )?SMILING FACE|SMILING FACE WITH SMILING EYES|GRINNING FACE|"
    r"GRINNING FACE WITH SMILING EYES|SMILING FACE WITH OPEN MOUTH(?: AND SMILING EYES)?|"
    r"SMILING FACE WITH SUNGLASSES|DEGREE (?:CELSIUS|FAHRENHEIT)")
_CURRENCY_UNIT = re.compile(
    r"(?:FULLWIDTH |SMALL )?(?:DOLLAR|POUND|YEN|EURO|RUPEE|INDIAN RUPEE|RUBLE|WON|LIRA|TURKISH LIRA|"
    r"NAIRA|PESO|NEW SHEQEL|DONG|FRANC|CEDI|HRYVNIA|TENGE|KIP|TUGRIK|MANAT|LARI|GUARANI|COLON|"
    r"PESETA|DRACHMA|AUSTRAL|AFGHANI|BITCOIN|SPESMILO|SOM|SAUDI RIYAL|RIAL) SIGN|"
    r"THAI CURRENCY SYMBOL BAHT|KHMER CURRENCY SYMBOL RIEL|BENGALI RUPEE SIGN|GUJARATI RUPEE SIGN|"
    r"TAMIL RUPEE SIGN|EURO-CURRENCY SIGN")
_GLUE_SYMBOLS = _glue_symbols()
_CURRENCY_UNITS = _currency_units()
# The words of scripts written without spaces that may stand glued to a value without
# changing it (an allow-list, by the word's start; the prose readers read the clause they
# open): a copula or a negation of one (`是答案`, `不是`, `です`, `입니다`, `이다`), a particle
# (`は`, `の`, `은`, `를`), a counter or classifier (`个苹果`, `個`, `개`, `명`, `人`), a whole
# currency unit (`元`, `円`, `원`, `บาท`) and a few measure words. A numeral, a magnitude (`万`,
# `만`, `억`), a fraction or tenth (`分之一`, `成`, `割`), an approximation (`多`, `余`, `左右`)
# or any other word is not on it: read with the value (uncertain where no arithmetic reads it).
_UNSPACED_GLUE_WORDS = tuple("""
    是 為 为 即 就 应 應 不 并 並 非 也 绝 絕 其 显 顯 可 答 个 個 名 人 只 本 张 張 条 條 位 次 种 種
    块 塊 件 辆 輛 头 頭 棵 支 枝 把 台 场 場 岁 歲 天 年 月 日 周 週 小时 小時 元 圆 圓 页 頁 道 题 題
    组 組 对 對 米 公里 公斤 克 升 度 号 號 层 層 排 行 列 班 颗 顆 张 本 杯 瓶 盒 箱 包 双 雙 朵 匹
    です でし だ ね よ は が の を に と も ま 枚 回 円 歳 通り つ 番 時間 秒
    입니 입 이 은 는 가 을 를 의 에 로 으 와 과 도 개 명 원 번 살 세 예요 이에요 일 년 달
    บาท
""".split())  # noqa: SIM905 (a word list reads better as words)
_UNSPACED_GLUE = re.compile("|".join(sorted(map(re.escape, set(_UNSPACED_GLUE_WORDS)), key=len,
                                            reverse=True)))
# What may stand glued to a box's closing brace without changing its value (an allow-list):
# the reply's end or a space (`~` too), a closing math delimiter (`\\right)` too), a line
# break, a closing or opening bracket (what a bracket holds is read apart: `_bracketed_value`,
# `_said_after_a_mark`), a tag, `&`, `|`, quotes before no digit (`\\boxed{7}'8"` is read),
# markdown emphasis (a star before no digit), an underscore before no subscript, sentence
# punctuation before no digit (`.5`, `,000` write a number; `!` is a factorial), full-width
# punctuation and brackets (`（个）`), a dash before no digit, command or point (a joining
# mark, `_JOINING_MARK`; a hyphen before a word is a compound, `_compound_changes`), a percent
# or degree sign (the box's own unit), the marks and symbols of `_glue_symbols`, a whole
# currency unit before no letter or digit, a word of a script written without spaces on
# `_UNSPACED_GLUE_WORDS`, and a LaTeX spacing, closing, label or end-of-proof command (a
# styling one is read with what it holds: `_box_with_words`).
_HARMLESS_GLUE = re.compile(
    r"$|\s|~|\$|\\[)\]]|\\\\|[)\]}(\[<>&|]|['\"`\u2018\u2019\u201c\u201d](?!\d)|"
    r"[\uff08\uff09\u3010\u3011\u300c-\u300f](?!\d)|"
    rf"\*(?![\d(])|_(?![\w{{\\])|{_UNSPACED_GLUE.pattern}|{_GLUE_SYMBOLS}(?!\d)|"
    rf"{_CURRENCY_UNITS}(?![^\W_])|"
    r"[.,;:?](?!\d)|[\u3001\u3002\uff01\uff0c\uff1a\uff1b\uff1f]|"
    r"[\u2011-\u2015](?![\d\\.])|[-\u2010\u2212](?![\w\\.])|"
    r"\\?[%\uff05\u066a\ufe6a]|(?:[\u00b0\u00ba\u00aa]|(?:\{\}|\\,)?\^\s*(?:\\circ|o(?![A-Za-z])|\*|"
    r"\\d?dagger|\{\s*(?:\\circ|o|\*|\\d?dagger|\\(?:text|mathrm)\{o\})\s*\}))(?!\s*\d)|"
    r"\\(?:[,;:! ]|q?quad|[hv]space|hfill|enspace|"
    r"end|newline|nonumber|notag|tag|label|qed|blacksquare|square|checkmark|Box|"
    r"footnote|d?dagger|degree|hline|cr|right|[bB]igg?r)(?![A-Za-z])")
# Marks that leave the value as it is but not what is glued after them, which is read as if
# glued to the box (`\\boxed{7}\\,000` is 7000, `(\\boxed{7})^2` 49, `\\boxed{7}**!**` 5040):
# spacing commands, closing braces and brackets of any script (`」`, `】`), a closing math
# delimiter, markdown stars, emphasis tags and closing tags, quotes (`'` too: `\\boxed{7}'8"`
# writes feet and inches; `\\boxed{7}'s` leaves the value), `&`, a `\\label{...}`.
_PASSED_GLUE = re.compile(r"(?:\\[,;:!]|~|\\hspace\{[^{}\s]{0,10}\}|\\right[)\]]|\\[bB]igg?r[)\]]|[)\]}]|"
                          r"\$|\\\)|\*|</?(?:b|i|em|strong|sup|u)>|</[a-z]{1,10}>|[\"&'`]|"
                          r"\\label\{[^{}]{0,30}\}|"
                          r"[\u2019\u201d\u00bb\u203a\u3009\u300b\u300d\u300f\u3011\u3015\u3017\uff09\uff3d]){1,12}")
# Spacing commands (a thin space, `~`) and the spaces after them, before a digit: a group of
# the number the box began (`\\boxed{7}\\, 000`), read as glued.
_SPACED_GROUP = re.compile(r"(?<![~}])(?<!\\[,;:!])(?:\\[,;:!]|~|\\hspace\{[^{}\s]{0,10}\})+[ \t]+(?=\d)")
# A hyphen glued to a word after a value: a compound (`3-fold`, `7-gon`, `7-year-old`), its
# words read by `_compound_changes`.
_GLUED_COMPOUND = re.compile(r"(?<![^\W\d_])[-\u2010]((?:[^\W\d_]+)(?:[-\u2010][^\W\d_]+)*)")
# Words that make a compound with a number and leave it the value (an allow-list; a unit or
# a counted noun, `7-day`, `7-digit`, is `normalize`'s): a factor, a polygon, a shape's
# sides, a dimension, an age.
_COMPOUND_WORDS = frozenset("""
    fold gon gonal sided faced edged angled dimensional old membered headed legged
""".split())  # noqa: SIM905 (a word list reads better as words)
# A closing prose delimiter: when it closes one opened right before the box, a `!` after it
# is the sentence's (`$\\boxed{7}$!`, `**\\boxed{7}**!`), not a factorial.
_PROSE_CLOSE = re.compile(r"(?:\$|\\\)|\*|</[a-z]{1,10}>|\"){1,12}")
# The text glued to a box that is read with its value: up to a space, a `$` or sentence
# punctuation before no digit; a brace group whole (`^{2}`).
_GLUED_RUN = re.compile(r"(?:\{[^{}\s]{0,30}\}|[.,](?=\d)|[^\s$.,;:?{}()\[\]])+")


def _bracketed_value(text: str, end: int, answer: str) -> str | None:
    """A value in brackets right after a box that ends at `end` (`\\boxed{7} (8)`,
    `\\boxed{7} (7¼)`): the box stated again, read as after `It is` (`_restated_value`: the
    same number, or it with the words the rest of the box's clause says, leaves the box the
    answer; `_restated_expression`: `(14/2)` explains it). None when the bracket opens with no
    value (`(rounded)`, `(or 8)`: the other readers') or holds an explanation (`(2 hours)`,
    `(3 x 4)`)."""
    opened = _BRACKET_AFTER_BOX.match(text, end, end + 3 * _GLUE_MAX)
    if opened is None:
        return None  # (no bracket next: the tail is not read again)
    closed = _BRACKET_CLOSERS[opened.group("open")].match(text, opened.end(), opened.end() + 2 * _GLUE_MAX)
    if closed is None:
        return None
    content = symbol_numbers(_STYLED.sub(r"\1", closed.group(1))).strip()
    content = content[1:].strip() if content.startswith("=") else content  # `(= 8)`
    if not _OPENS_WITH_VALUE.match(content):
        return None  # `(rounded)`, `(or 8)`, `(\\frac{15}{2})`: the other readers'
    counted = _COUNTED_VALUE.fullmatch(content)
    if counted is not None and normalize(content) == normalize(counted.group("value")):
        # `(8 cm)`, `(8 apples)`: a value in the box's own terms (or the box names none) is the
        # box stated again; in other terms it explains it (`\\boxed{120} minutes (2 hours)`)
        unit = _WORD_IN_COMMAND.sub("", opened.group("unit") or "").strip().lower()
        if unit and unit.rstrip("s") != counted.group("words").lower().rstrip("s"):
            return None
        value = counted.group("value")
        return None if _value_differs(value, answer) is False else value
    region, _ = _after_box(text, end, sentences=1)
    bracket = _VALUE_IN_BRACKETS.match(region)
    if bracket is None:  # `(+8)`, `(.8)`, `\\{8\\}`, `\\(8\\)`: a bracket of another spelling
        if _approximates(content, answer):
            return None
        value = _restated_value(content, _after_box(text, closed.end(), sentences=1)[0])
        return _other_than_box(value, content, answer)
    content = bracket.group(1)
    if _approximates(content, answer):
        return None  # `\\boxed{\\sqrt{2}} (1.414)`: the box rounded to the printed places
    return _other_than_box(_restated_value(content, region[bracket.end():]), content, answer)


def _other_than_box(value: str | None, content: str, answer: str) -> str | None:
    """What a bracket after the box (`content`, restated as `value`) says of it: nothing when
    it states the box's own value again (`\\boxed{7} \\(7\\)` reads as `\\boxed{7} $7$`),
    else the value, or the expression it restates (`_restated_expression`)."""
    if value is None:
        return _restated_expression(content, answer)
    return None if _value_differs(value, answer) is False else value


def _approximates(content: str, answer: str) -> bool:
    """Whether a bracket's `content` is a decimal that is the box's `answer` rounded to the
    places it prints (`1.414` of `\\sqrt{2}`, `3.14` of `\\pi`: `equals_as_printed`, as
    `_other_value` reads a number in an aside)."""
    decimal = _DECIMAL.fullmatch(content.strip())
    boxed = evaluate(answer)
    if decimal is None or boxed is None or boxed[1]:
        return False
    number = parse_number(decimal.group(0))
    return number is not None and equals_as_printed(number, boxed[0])


_DECIMAL = re.compile(r"-?\d{1,15}\.\d{1,15}")
# A bracket right after a box, in any spelling (`(`, `[`, `（`, `\\(`, `\\{`, `{(`, after `\\left`
# or `\\bigl`), past closing delimiters, markup and a word of the box's own clause (`\\boxed{7}
# cm (8 cm)`: `unit`); what it holds is read to its closer (`_BRACKET_CLOSERS`).
_BRACKET_AFTER_BOX = re.compile(
    r"(?:[ \t$*_\]]|\\[)\]]){0,8}"
    r"(?:(?P<unit>(?:\\(?:text|mathrm|mbox)\{\s*)?[^\W\d_]{1,20}\}?)(?:[ \t$]|\\[,;: ])+)?"
    r"(?:\\left|\\[bB]igg?l?)?(?P<open>[(\[\uff08]|\\\(|\\\{|\{\()")
_BRACKET_CLOSERS = {opener: re.compile(rf"([^()\[\]\n]{{1,60}}?)\s*(?:\\right|\\[bB]igg?r?)?{closer}")
                    for opener, closer in (("(", r"[)\uff09]"), ("\uff08", r"[)\uff09]"), ("[", r"\]"),
                                           ("\\(", r"\\\)"), ("\\{", r"\\\}"), ("{(", r"\)\}"))}
# What opens a value in a bracket: a number, signed or not, or a point (`(.8)`).
_OPENS_WITH_VALUE = re.compile(r"(?<![-+\s])[-+]?\s*\.?\d")
# A value and the words of what it counts or measures (`8 cm`, `8 apples`, `2 hours`).
_COUNTED_VALUE = re.compile(r"(?<![\d,])(?P<value>-?\d[\d,]*(?:\.\d+)?)\s*(?P<words>[^\W\d_]+(?:\s+[^\W\d_]+){0,2})")
_WORD_IN_COMMAND = re.compile(r"\\[A-Za-z]+\{|\}")
_VALUE_IN_BRACKETS = re.compile(r"(?<!\s)\s{0,3}[(\[]\s*(-?\d[^()\[\]]{0,60}?)\s*[)\]]")


def said_of_expression(sentence: str) -> tuple[str, str] | None:
    """An unmarked final sentence that opens with mathematics and goes on with a verb
    (`\\frac{5}{6} is wrong.`, `x = 3 is not the answer`): the expression and what the
    sentence says of it (`_said_of`), read by the rule a box's clause is read by; None when
    the sentence does not open with an expression followed by a verb (prose before the verb,
    no verb: math-verify's rules read the sentence)."""
    text = _DELIMITERS.sub(" ", sentence[:_WORDS_MAX * 2])
    for verb in re.finditer(r"(?<=\s)[^\W\d_]", text):
        expression = text[:verb.start()].strip()
        if not expression or _is_prose(expression):
            return None
        stop = _SENTENCE_END.search(text, verb.start())
        said = _said_of(" " + text[verb.start():stop.start() if stop else len(text)])
        return (expression, said) if said is not None else None
    return None


# `or` in the languages replies are written in (`oder`, `ou`, `o`, `или`; Chinese `或`, `或者`
# with no space around it)
_OR_WORD = r"(?:(?:or|oder|ou|o|или|либо)(?![^\W\d_]|['’])|或者|或)"
_OR_NEXT = re.compile(rf"(?<![\W_])(?:[^\w\n]|_)*(?:\n(?:[^\w\n]|_)*)?{_OR_WORD}",
                      re.IGNORECASE)
# `or` joined to a value (`or 8`, `or maybe 8`, `or is it 8`): an alternative offered.
_OR_VALUE = re.compile(rf"(?:(?<![^\W\d_])|(?=或)){_OR_WORD}[^\w\n]*(?:[^\W\d_]+\s+){{0,2}}"
                       r"(?=-?\d)", re.IGNORECASE)


def _joined_alternative(text: str, end: int, answer: str = "") -> str | None:
    """What a reply offers beside a box that ends at `end`, when `or` joins another value to
    it in the box's own clause or opening the next sentence, nothing numeric between
    (`\\boxed{7} or 8`, `\\boxed{7}, or maybe 8`, `\\boxed{7} apples, or 8 apples`,
    `\\boxed{7} (or 8)`, `\\boxed{7}. Or 8.`): `or 8`, which leaves the box the answer only
    when it holds nothing else (`affirms`: `(or 7 apples)`, `or 25%` of `\\frac{1}{4}`); None
    when no `or` joins a value to it (`for 3 or 4 friends` joins it to 3). A value a
    same-value join (`i.e.`) gives in mathematics is read as after `It is` against the box's
    `answer` (`_restated_expression`: `\\boxed{7}, i.e. 15/2`)."""
    region, _ = _after_box(text, end, sentences=2)
    same = _SAME_VALUE_JOIN.search(region)  # `\\boxed{7}, i.e. 8`, `, namely 8`
    if same is not None and not _DIGITS.search(region, 0, same.start()) and \
            _SENTENCE_END.search(region, 0, same.start()) is None:
        restated = _restated_value(region[same.end():], _clause_after(text, end, answer))
        if restated is None:  # `\boxed{7}, i.e. 15/2`: as after `It is` (`_restated`)
            restated = _restated_expression(region[same.end():], answer)
        if restated is None:  # `\boxed{7}, i.e. 7 \pm 1`: a hedge in mathematics
            restated = _hedged_expression(region[same.end():], answer)
        if restated is not None:
            return restated
    joined = _OR_NEXT.match(region)  # `or` right after the box: whatever it joins
    at = joined.end() - 2 if joined else 0
    if joined is None:
        joined = _OR_VALUE.search(region)
        if joined is None or _DIGITS.search(region, 0, joined.start()):
            return None
        offered = region[joined.end():]
        value = _RESTATED_VALUE.match(offered)
        rest = _SENTENCE_END.split(offered[value.end():] if value else "", maxsplit=1)[0]
        beside = {word.lower() for word in _WORD.findall(region[:joined.start()])}
        if not all(word.lower() in beside or names_an_answer(word)
                   for word in _WORD.findall(rest)):
            return None  # `\\boxed{10} cm, or 100 mm`: the box in another unit
        at = joined.start()
    clause = _SENTENCE_END.split(region[at:], maxsplit=1)[0]
    return " ".join(clause.split()).strip(_TRAILING + ")]}")


# Words that join a value to the same value written another way (`\\boxed{7}, i.e. 7 apples`,
# `, namely 7`, `in other words, 7`, `equivalently 7.0`): the value they join is the box's
# stated again (`_restated_value`), which leaves it the answer only when equal (`affirms`).
_SAME_VALUE_JOIN = re.compile(r"(?<![\w\\])(?:i\.\s?e\.|namely|in\s+other\s+words|"
                              r"equivalently)(?![\w\\])[\s,:]*", re.IGNORECASE)


def _restated_value(clause: str, box_clause: str) -> str | None:
    """The value that opens `clause` (the rest of a reply after a restating word: `8` of
    `8 apples. Done`), its number words read as digits (`numbers_in_words`), when nothing
    follows it in its sentence but the words of the box's own clause (`box_clause`) and
    answer words: the answer stated again, for `affirms` to read. None for anything else (a
    value in another unit, `2 hours` of `\\boxed{120} minutes`; a product or a sum, `3 + 4`):
    that explains the box."""
    clause = numbers_in_words(_RESTATED_SENTENCE_END.split(clause, maxsplit=1)[0])
    value = _RESTATED_VALUE.match(clause)
    if value is None or _FACTORIAL_AFTER.match(clause, value.end()):
        return None  # `5!`, `(5)!`: a factorial, mathematics (`_restated_expression`)
    rest = _DENIED_VALUE.sub(" ", clause[value.end():])  # `8, not 7`: 7 is not said of it
    offered = "".join(found.group(0) for found in _OFFERED_VALUE.finditer(rest))
    rest = _OFFERED_VALUE.sub(" ", rest)  # `7 or 8`: 8 is said of it too
    beside = {word.lower() for word in _WORD.findall(box_clause)}
    words = [word for word in _WORD.findall(rest) if word.lower() not in _CONTRASTING]
    if _ONLY_WORDS.fullmatch(rest) and all(
            word.lower() in beside or names_an_answer(word) for word in words):
        said = " ".join([value.group(0), *words]) + offered
        return " ".join(said.split()).strip(_TRAILING + ")]}")
    return None


# What may follow a restated value without making it an explanation: another value denied
# (`8, not 7`, `8 instead of 7`, `8 (not 7)`), another offered beside it (`7 or 8`, `7 and
# 8`: read as said of the box), and words known to mark a correction (`8 instead`, `8 actually`).
# (each value of a denied list is denied: `not 8 or 6`, `neither 8 nor 6`, `not 8, nor 6`; a
# percent is no value denied, `not 100% sure` is a hedge)
_DENIED_NUMBER = r"-?\d[\d,]*+(?:\.\d++)?+(?![\d.%])"
_DENIED_VALUE = re.compile(r"(?<![\s,(])[\s,]*(?:\(\s*)?(?:not|neither|instead\s+of|rather\s+than)\s+"
                           rf"{_DENIED_NUMBER}(?:(?:\s++(?:or|nor)|\s*+,\s*+nor)\s++{_DENIED_NUMBER})*+(?:\s*\))?",
                           re.IGNORECASE)
_OFFERED_VALUE = re.compile(r"(?<![\s,(])[\s,(]*(?:(?:or|and|to)(?:\s+(?:maybe|perhaps|possibly|probably))?|"
                            r"maybe|perhaps|possibly|probably)\s+-?\d[\d,]*(?:\.\d+)?(?:\s?%)?(?![\d.])",
                            re.IGNORECASE)
_CONTRASTING = frozenset("""
    instead actually though really indeed obviously definitely certainly clearly surely for sure
    after all of course
""".split())  # noqa: SIM905 (`8, obviously`, `8 for sure`, `8 after all`: the value as it is said)
_FACTORIAL_AFTER = re.compile(r"\)?(?<!\s)\s*!")


def _after_box(text: str, end: int, sentences: int | None, *, breaks: bool = False) -> tuple[str, bool]:
    """What a reply writes after a value that ends at `end`: its own sentence's rest and up to
    `sentences - 1` more, within `_WORDS_MAX` visible characters and the model's own text
    (`_reply_end_after`), read as a reader reads it (`sentence_key`): math delimiters, what
    pads text without being read (`_PADDING`: format characters, spacing commands, markdown
    emphasis of any length, HTML-like tags) and the style commands around a word
    (`\\textbf{or}`) dropped from the whole rest of the text (the tail, `tail_chars`) before
    the window is cut, so no run of padding can push what follows out of it;
    and whether that is all the model wrote (not cut by the window or the sentence count).
    `sentences=None`: the whole rest, no window (`_unread_after_box` counts its own).
    `breaks`: what a reader sees as the end of a sentence though `sentence_key` drops it is
    kept as one (`_HIDDEN_BREAK`: a paragraph break, a LaTeX line break, an ideographic space,
    a line that starts a markdown block or a capital, a full stop with no space before a
    capital), and a run of one mark is read as three (`_MARK_RUN`: `......`, a rule `-----`)."""
    # the tail's rest: padding is dropped first; `7½`, `7²` read as numbers (`symbol_numbers`)
    raw = symbol_numbers(text[end:_reply_end_after(text, end)])
    raw = _INVISIBLE.sub("", _TAG_WITH_ATTRIBUTES.sub(_attribute_values, raw))
    if breaks:  # (a full-width stop ends its sentence: `。8` is no decimal `.8`)
        raw = _FULL_WIDTH_STOP.sub(r"\g<0> ", raw)
        raw = _ENUMERATOR.sub(f" {_BREAK} ", raw)  # (`1. Mia had 10 apples.`: the item, no value 1)
        raw = _HIDDEN_BREAK.sub(f" {_BREAK} ", _MARK_RUN.sub(r"\1\1\1", raw))
        # (a closing tag ends what it held: `<think>maybe 8</think> 8` is `maybe 8`, then `8`)
        raw = _CLOSING_TAG.sub(f" {_BREAK} ", raw)
    if "*" in raw:
        raw = _SPACED_OPERATOR.sub(r"\1", raw)  # `7 ** 0`: `7**0`, a power
    visible = _SPACES.sub(" ", _PADDING.sub(" ", _DELIMITERS.sub(" ", raw)))
    if sentences is None:
        return sentence_key(_STYLED.sub(r" \1 ", visible)), True
    stop = 0
    for _ in range(sentences):
        found = _SENTENCE_END.search(visible, stop, _WORDS_MAX)
        if found is None:
            stop = _WORDS_MAX
            break
        stop = found.end()
    region = visible[:min(stop, _WORDS_MAX)]
    return sentence_key(_STYLED.sub(r" \1 ", region)), not visible[len(region):].strip()


# What pads text without being read: invisible format characters inside words (zero-width,
# joiners, soft hyphen; the bidi controls are `sentence_key`'s, which reads them as a reader
# sees the text), LaTeX spacing, markdown emphasis, HTML-like tags (`<b>`, `<think>`) and
# special-token tags (`<|im_end|>`, `[INST]`: data the model wrote, which ends nothing). Stars between two digits are an
# operator (`7*8`, `2**3`), not emphasis.
_FULL_WIDTH_STOP = re.compile(r"[。！？](?=\S)")
_INVISIBLE = re.compile(r"[\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff]")
_INVISIBLE_CHARS = "\u00ad\u180e\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff"
_PADDING = re.compile(r"\\(?:[,;:! ]|q?quad|[hv]space\*?\{[^{}]{0,20}\})|(?<![\d*])\*+|(?<!\*)\*+(?![\d*])|_+|"
                      rf"{_SPECIAL_TOKEN}|</?[A-Za-z][A-Za-z0-9_\-]{{0,30}}\s*/?>")
_SPACES = re.compile(r"[ \t]+")
# An HTML-like tag with attributes (`<answer type="final">`, `<final_answer value='8'>`): read
# as the values of its attributes (`_attribute_values`), which may hold a value; the tag's name
# pads as a bare tag's does.
_TAG_WITH_ATTRIBUTES = re.compile(r"<[A-Za-z][A-Za-z0-9_\-]{0,30}((?:\s++[A-Za-z_:][\w:.\-]*+\s*+=\s*+"
                                  r"(?:\"[^\"<>]*+\"|'[^'<>]*+'|[^\s\"'<>/=`]++))++)\s*+/?>")
_ATTRIBUTE_VALUE = re.compile(r"=\s*+(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'>/]+))")


def _attribute_values(tag: re.Match[str]) -> str:
    """The values of a tag's attributes, spaced, for the tag (`<answer type="final">`: ` final `)."""
    values = [next(part for part in found.groups() if part is not None) for found in _ATTRIBUTE_VALUE.finditer(tag.group(1))]
    return f" {' '.join(values)} "


_CLOSING_TAG = re.compile(r"</[A-Za-z][A-Za-z0-9_\-]{0,30}\s*>(?=\s*\S)")
# Where a reader sees a sentence end that `sentence_key` does not keep (`_after_box`'s
# `breaks`, written `_BREAK`): a paragraph break, a LaTeX line break, an ideographic space, a
# new line that opens a markdown block (`|`, `#`, `>`, a rule) or a capital, a full stop
# glued to a capital (`\\boxed{7}.Also 8.`); and a run of one mark, read as three. A list
# item's line stays in its sentence (`\\boxed{7}:\n- first\n- second`).
_BREAK = "\u00b6"
_HIDDEN_BREAK = re.compile(r"\n[ \t]*(?:\n\s*+(?![-+*\u2022][ \t]|\d{1,3}[.)][ \t])|(?=[|#>A-Z\u0400-\u042f]|[-*_=]{3}))|"
                           r"\\\\(?:\[[^\]\n]{0,10}\])?|\u3000|(?<=[^\s.])\.(?=[A-Z\u0400-\u042f])")
_MARK_RUN = re.compile(r"([^\w\s\\{}])\1{3,}")
# The enumerator of a numbered list's item at a line's start (`\n1. `, `\n2) `): a label that
# opens a sentence, no value (`_after_box`'s `breaks`).
_ENUMERATOR = re.compile(r"\n[ \t]*+\d{1,3}[.)][ \t]++")
# Stars between two numbers, spaced or not (`7 ** 0`, `7 * 8`): an operator, not emphasis.
_SPACED_OPERATOR = re.compile(r"(?<=\d)[ \t]*(\*{1,2})[ \t]*(?=-?\d)")


# Commands that style a word without changing it (an allow-list): `\textbf{or}` is `or`.
_STYLED = re.compile(r"\\(?:text(?:bf|it|sf|tt|rm|up|normal)?|mbox|emph|underline|math(?:rm|bf|it|sf|"
                     r"tt)|boldsymbol|bm)\s*\{([^{}\\]{0,40})\}")


# A clause that states the answer again (`it is 8`, `the answer should be 8`, `that is
# \boxed{8}`): a subject that names the answer or points at it, a copula, then the value.
_COPULA = (r"(?:is|was|equals|is\s+equal\s+to|becomes|(?:should|must|would|will|could|might|"
           r"may|has\s+to|had\s+to)\s+be)")
# Adverbs known to leave the value after them the one stated (`It is now 8`, `It is, in fact,
# 8`, `It is really just 8`): any `-ly` word and these, at most two, commas around them.
_RESTATING_ADVERB = (r"(?:[^\W\d_]+ly|instead|in\s+fact|now|rather|just|indeed|still|even|"
                     r"then)")
_RESTATES = re.compile(
    r"(?<![\w\\])(?:(?:it|that|this)(?:['’]s(?![\w\\])|['’](?:ll|d)\s+be|\s+" + _COPULA + r")|"
    r"(?:(?<=,)|(?<=,\s))which\s+" + _COPULA + r"|"
    r"(?:(?<=[.!?;])|(?<=[.!?;]\s))its(?=\s+-?\d)|there\s+(?:is|are)|"
    r"the\s+(?:(?:final|correct|right|real|actual|true)\s+(?:answer|result|solution|value|number|"
    r"total)(?:\s+of\s+[^\W\d_]+)?|answer|result|solution|value|number|total)\s+" + _COPULA + r")"
    rf"(?:(?:\s*,?\s*{_RESTATING_ADVERB}){{0,2}}"
    r"(?:\s+(?:[(:=+,]\s*)?|\s*[(:=+,]\s*)(?=[-\d$\\])|(?=-\d))",
    re.IGNORECASE)
# A sentence that opens with a word known to correct or conclude (`So 8.`, `No, 8.`, `Sorry,
# 8.`, `Correction: 8.`, `Make that 8.`, `I mean 8.`), then a value: the answer stated again.
_RESTATING_OPENER = re.compile(
    r"(?:^|(?<=[.!?;]))\s*(?:(?:so|thus|hence|therefore|no|sorry|oops|actually|correction|"
    r"wait|rather|instead|make\s+that|i\s+mean|i\s+get|i\s+got|we\s+get|we\s+got|oh|ah|"
    r"hmm*|um+|uh+|well|hold\s+on|on\s+second\s+thought|let\s+me\s+re[a-z]{2,12}|"
    r"re(?:computing|calculating|checking))"
    r"(?![\w\\])[\s,:]*)+(?=-?\d)", re.IGNORECASE)
# A sentence that opens with a word that hedges (`Maybe 8.`, `Perhaps 8.`, `It could also be
# 8.`, `Vielleicht 8.`, `也许是8。`), then a value: a value offered beside the box, read as
# stated again (another value unsays the box).
_HEDGING_OPENER = re.compile(
    r"(?:^|(?<=[.!?;。]))\s*(?:maybe|perhaps|possibly|(?:it\s+)?(?:could|might|may)\s+(?:also\s+)?be|"
    r"vielleicht|peut[-‐ ]être|quizás|quizas|tal\s+vez|forse|может\s+быть|"
    r"也许是|也许|或许是|或许|可能是)(?![^\W\d_])[\s,:]*(?=-?\d)", re.IGNORECASE)


def _restated(text: str, end: int, answer: str = "") -> str | None:
    """The value a reply states as its answer again after a box that ends at `end`, in the
    rest of the box's sentence or the next one (`\\boxed{7}, but wait, it is 8.`,
    `\\boxed{7}. No, it is 8.`, `\\boxed{7}. Wait. It's 8.`: `_after_box`, three sentences): what the
    comparison reads as said of the box (`affirms`: the same value, or a number equal to it,
    `0.5` of `\\frac{1}{2}`, leaves it the answer; another unsays it). Only a number with
    nothing after it but the words the box's own clause says beside it (`\\boxed{7} apples.
    No, it is 8 apples.`) and answer words is the answer stated again: a value in another unit
    (`\\boxed{120} minutes. That is 2 hours.`), a product or a grouping (`It is 4 x 5`, `4
    groups of 5`) or a value the clause relates to another (`That is 8 more than yesterday`)
    explains the box. None when no clause states one."""
    region, whole = _after_box(text, end, sentences=3)
    box_clause = _clause_after(text, end, answer)
    for restated in sorted([*_RESTATES.finditer(region), *_RESTATING_OPENER.finditer(region),
                            *_HEDGING_OPENER.finditer(region),
                            *_VALUE_FIRST.finditer(region), *_RESTATES_ELSEWHERE.finditer(region)],
                           key=lambda found: found.start()):
        if _PART_BEFORE.search(region, max(0, restated.start() - 20), restated.start()):
            continue  # `Half of that is 6.`: a part of the box (`_unread_after_box`: `_part_of_the_box`)
        clause = region[restated.end():]
        value = _restated_value(clause, box_clause)
        if value is None:  # (with the bracket `_RESTATES` took: `It is (5)!.`)
            opening = "(" if region[:restated.end()].rstrip().endswith("(") else ""
            value = _restated_expression(opening + clause, answer)
        if value is None:  # `It is 14/2, or 8.`, `It is $7 \pm 1$.`: a hedge in mathematics
            value = _hedged_expression(clause, answer)
        if value is None and restated.re is _VALUE_FIRST:  # `8 is the answer.`
            value = _RESTATED_VALUE.match(clause).group(0).strip()  # type: ignore[union-attr]
        number = _ASIDE_NUMBER.fullmatch(value) if value is not None else None
        if number is not None and not _other_value(value or "", number, answer):
            continue  # `\\boxed{\\pi}. It is approximately 3.14.`: its value, to the places given
        if value is not None:
            return value
    if whole:  # the reply's end closes a sentence (`sentence_key` drops its last mark)
        region += "."
    for judged in _JUDGED.finditer(region):  # `\\boxed{7}. Wait, that is wrong.`
        said = " ".join(judged.group("said").split()).strip(_TRAILING)
        if _sign_off(judged.group(0)) or not judged.group("not") and _describes(said, answer):
            continue  # `That's it.`, `That is all.`; `It is odd.`, `That is reasonable.`
        if judged.group("not") and not _judges_the_answer(judged.group(0)):
            continue  # `This is not a coincidence.`, `It is not negative.`: a remark
        if _CONDITIONED.search(region, 0, judged.start()):
            continue  # `Let me know if this is unclear.`: under a condition it asserts nothing (read
            # after the box by `_harmless_remark`, where `If this is wrong.` is no remark)
        return f"not {said}" if judged.group("not") else said
    return _judged_sentence(region)


# Words a short judgement (`_JUDGED`) may say of a value without judging it a wrong answer:
# the aside words (its kind, how it was reached: `It is odd.`, `This is a prime.`, `It is a
# whole number.`) and words that approve it (`That is reasonable.`); `positive` only of a
# value that is (an allow-list: any other predicate is read by `affirms`).
_APPROVING = frozenset("reasonable plausible consistent sensible valid".split())  # noqa: SIM905


def _describes(said: str, answer: str) -> bool:
    words = [word.lower() for word in _LETTERS.findall(said)]
    return bool(words) and all(
        word in _ASIDE_WORDS or word in _APPROVING or word in _REMARK_WORDS
        or word == "positive" and not answer.lstrip().startswith("-") for word in words)


# `_RESTATES` in the other languages a box's clause is read in: a pronoun or `the answer` and
# the copula, or `answer` as a label, then the value (`Nein, es ist 8.`, `La réponse est 8.`,
# `Antwort: 8.`, `答案是8`).
_RESTATES_ELSEWHERE = re.compile(
    r"(?<![\w\\])(?:(?:es|das|dies)\s+ist|c['’]est|(?:la\s+)?réponse\s+est|(?:die\s+)?antwort\s+ist|"
    r"(?:la\s+)?respuesta\s+es|(?:la\s+)?risposta\s+è|(?:a\s+)?resposta\s+é|это|ответ\s+—|"
    r"(?:antwort|réponse|respuesta|risposta|resposta|ответ)\s*:)\s*(?=-?\d)|答案(?:是|为)\s*(?=-?\d)",
    re.IGNORECASE)
# A sentence that opens with a value and calls it the answer (`8 is the answer.`, `8 is my
# final answer.`) or offers another beside it (`**7** or **8**.`, the bold dropped).
_VALUE_FIRST = re.compile(
    r"(?:^|(?<=[.!?;]))\s*(?=-?\d[\d,]*(?:\.\d+)?\s*(?:(?:is|was)\s+(?:the|my|our)\s+"
    r"(?:(?:final|correct|right|real|actual|true)\s+)?(?:answer|result|solution)(?![\w\\])|"
    r"or\s+-?\d))", re.IGNORECASE)
# Signs of mathematics that offer more than one value (`\pm`, `\lor`, a set) and `or` before
# another value: a restatement that holds one hedges the box, unless the box holds it too.
_ALTERNATIVE_SIGN = re.compile(r"\\(?:pm|mp|lor|vee)(?![A-Za-z])|[±∓∨]|\\\{|"
                               r"(?<![\w\\])or\s+(?:-?\d|so(?![\w\\]))", re.IGNORECASE)


def _hedged_expression(clause: str, answer: str) -> str | None:
    """The rest of a restating sentence (`clause`) when it offers another value beside the
    box's `answer` in mathematics or with `or` (`_ALTERNATIVE_SIGN`: `14/2, or 8`, `7 \\pm
    1`, `\\{7, 8\\}`), for `affirms`, which never keeps such a clause; None for any other."""
    clause = _RESTATED_SENTENCE_END.split(clause, maxsplit=1)[0].strip(_TRAILING)
    found = _ALTERNATIVE_SIGN.search(clause[:_WORDS_MAX])
    if found is None or found.group(0).lower() in answer.lower():
        return None
    values = _stated_values(_as_latex(clause), answer)
    if values and all(_value_differs(value, answer) is False for value in values):
        return None  # `\\boxed{7}, i.e. 14/2 or 21/3`: every value offered is the box's
    return " ".join(clause.split())


# A sentence after the box's that judges it: a verbless predicate of at most three words
# (`Wrong.`, `Not sure.`, `Nope.`), or a short sentence with a subject (`That`, `This`, `It`,
# `I`, `the answer`) that holds a judging word (`_JUDGING_WORDS`: `This seems wrong.`, `I made
# an error.`, `That is not quite the right answer.`). No digit: a value is `_restated`'s.
_SUBJECT_JUDGEMENT = re.compile(
    r"(?:(?:but|and|so|oh|ah|hmm+|well|wait|actually|however|hold\s+on)[\s,]+){0,3}"
    r"(?:that|this|it|i|my\s+answer|the\s+answer|the\s+result)(?:['’‘ʼ`][a-z]{1,2})?\s"
    r"[^\W\d_]+(?:[\s,'’‘ʼ`-]+[^\W\d_]+){0,9}", re.IGNORECASE)


def _judged_sentence(region: str) -> str | None:
    """What one of the two sentences after the box's own says of it when it judges it (a
    judging word, `_judging_words`, and no digit: a value is `_restated`'s) and is short: at
    most `_SHORT_JUDGEMENT` words (`\\boxed{7}. Wrong.`, `Not sure.`, `Das ist falsch.`), or
    a judgement with a subject (`_SUBJECT_JUDGEMENT`: `This seems wrong.`, `I made an
    error.`). None for any other sentence (`Verified.`, `Thanks for reading.`, an
    explanation)."""
    for sentence in _ANY_SENTENCE_END.split(region)[1:3]:
        sentence = " ".join(_DETACHED_NOT.sub("not", _UNREAD_SYMBOLS.sub(" ", sentence)).split())
        sentence = _TAG_QUESTION.sub("", sentence.strip(" *_"))  # `Easy, isn't it?`: a remark
        words = _LETTERS.findall(sentence)
        if not words or _DIGITS.search(sentence) or _sign_off(sentence) or not _judging_words(
                sentence) or not _judges_the_answer(sentence):
            continue
        if len(words) <= _SHORT_JUDGEMENT or _SUBJECT_JUDGEMENT.fullmatch(sentence):
            return sentence
    return None


_LINE_AFTER_BOX = re.compile(r"[ \t$*_]{0,8}+(?:\r\n?|[\n\v\f\x85\u2028\u2029])")


def _unread_after_box(text: str, end: int,
                      answer: str) -> tuple[str, bool | tuple[tuple[str, str, bool], ...]] | None:
    """What a reply writes after a box that ends at `end` (its own clause and the next
    sentences, `_after_box`) that no reader known to leave the box's `answer` as said accounts
    for, read by allow-lists in any language (the judging and restating readers run first):

    - a value side by side with the box or an operation on it one space apart (`\\boxed{7}
      8`, `\\boxed{7}\\quad 8`, `\\boxed{7} + 1`, `\\boxed{7} \\times 10^3`): the box and it
      as one value;
    - in a next sentence of at most `_SHORT_REMARK` words that no restating reader opens
      (`_READ_FORMS`: `It is ...`, `So ...` are `_restated`'s; a longer sentence, or one cut
      by the window, is an explanation), a value that is not the box's (`_other_value`: an
      equal value or an operand is the box's), in any words (`Also 8.`, `Edit: 8.`, `Nein, 8.`, `8 works too.`,
      `Bence 8.`), unless the sentence is an explanation of a known form (`_EXPLAINING`:
      `Note that ...`, `Alternatively, we can ...`, `Since ...`) or rejects the value (a
      negation or a rejecting word, `_REJECTS`, past an opening interjection: `Not 8.`, `Mia
      can't have 8.`, `We rejected 8 earlier.`; not `No, 8.`);
    - such a sentence with no value whose words are not all on the allow-list of sign-offs, affirmations and remarks (`_harmless_remark`:
      `Done.`, `Hope this helps!`, `No remainder.`); `Scratch that.`, `IDK.`, `Jk.`, `/s`,
      `Yanlış.`, `Sai.` are not;
    - a symbol that is not a known approving or closing mark (`_HARMLESS_MARKS`: `\\boxed{7}
      ❌`, `. 🤔`);
    - in a longer sentence, whatever its length, a value that no known harmless form explains
      (`_unexplained_values`) and the working before the box does not state (`He ate 3 and has
      8 left.`, `On reflection the count of apples that remain is 8 in total.`).

    (the text, True) for a value said beside the box (the comparison reads it as said of the
    box, `affirms`, which refuses another value); (the text, False) for what is not read (the
    pair is uncertain); (the text, the longer sentences' values with their sentences) for
    values the comparison checks against the question's (`Extraction.stated_after`); None when
    all is known to leave the box."""
    region, _ = _after_box(text, end, sentences=None, breaks=True)
    region = _RAISED_DEGREE.sub("\u00b0", _APPROX_SIGN.sub(APPROX_SIGN, region))  # (`^\\circ`: `°` before commands go)
    # `Total -> 8`, `Total \\Rightarrow 8`: `Total → 8` (an arrow drawn as a pictograph, `➔`, is
    # a symbol, read as symbols are below)
    region = _ARROW.sub(lambda arrow: arrow.group(0) if len(arrow.group(0)) == 1 and _symbol(arrow.group(0))
                        else "\u2192", region)
    region = _DEFINED_AS.sub("=", region)  # `Total := 8`, `Total == 8`: `Total = 8`
    region = _CONTINUED_SENTENCE.sub(" ", _LATEX_WORD.sub(" ", region))
    parts = _read_sentences(region)
    first = parts[0][0]
    approximately = first.lstrip().startswith(APPROX_SIGN)  # `\\boxed{7} ≈ 8`, `\\approx 8`: another value
    beside = _SIDE_BY_SIDE.match(first.lstrip(" " + APPROX_SIGN))
    if beside is not None and "=" not in first:  # (not an equation: `\\boxed{7} - 3 = 4`)
        written = " ".join(beside.group(0).split())
        value = beside.group("value") or beside.group("bracketed") or _as_latex(answer + written)
        if not (approximately and _approximates(value, answer)) and _value_differs(value, answer) is not False:
            return written, True  # (`\\boxed{\\sqrt{2}} \\approx 1.414`: the box to the places printed)
    if joined_after(answer, first) is not None:
        return " ".join(first.split()), True  # `\\boxed{7} = 8`, `⋚ 8`, `± 1`: another value joined
    contrast = _CONTRAST_CLAUSE.search(_THOUSANDS_COMMA.sub("", first))
    if contrast is not None and any(_other_value(contrast.group(0), number, answer) for number in
                                    _SENTENCE_NUMBER.finditer(contrast.group(0))):
        return " ".join(contrast.group(0).split()), True  # `\\boxed{7}, but 8 is also valid`
    if _CAPITAL_OPENING.match(first) or (first.strip() and _LINE_AFTER_BOX.match(text, end) and (
            unicodedata.category(first.lstrip()[:1]) == "Ps")):
        # `\\boxed{7} Also 8.`: a sentence the box ended, read for values; so is a bracket that
        # opens the line after the box or the `####` line (`#### 7\n(8)`: no clause of the box, a
        # bracket of its own; a line that opens with a mark is the box's clause, read by the
        # allow-list: `\\boxed{7}\n- wrong turns were avoided`)
        parts[0] = ("", "")
        parts.insert(1, (first, _BREAK))
    marked = _MARKED_CLAUSE.match(first)
    if marked is not None and _DIGITS.search(first) and _tells_the_story(first[marked.end():], answer):
        ending = parts[0][1]  # `\\boxed{7} — she ate 3 of 10.`: the story told back, read for values
        parts[0] = ("", "")
        parts.insert(1, (first[marked.end():], ending))
    if len(parts[0][0]) > _WORDS_MAX and _DIGITS.search(_numerals_read(parts[0][0])):
        # the box's own clause past what the readers of its clause read (`_WORDS_MAX`), holding
        # a number: read for values as a sentence of its own (`\\boxed{7}, and very ... very
        # well it could be 8.`: padding pushes no value out of the clause either)
        ending = parts[0][1]
        parts[0] = ("", "")
        parts.insert(1, (first, ending))
    read = _sentences_read(parts, text, end)
    stated: list[tuple[str, str, bool]] = []
    worked: frozenset[Fraction] | None = None
    mark = next((char for sentence, _ in [(parts[0][0], "")] + read for char in sentence
                 if _symbol(char) and char not in _HARMLESS_MARKS and not _names_counted(char, text, end)), None)
    if mark is not None:  # `\\boxed{7} ❌`, `\\boxed{7}. 🤔`
        return mark, False
    for at, (sentence, ending) in enumerate(read):
        if ending == _CUT:  # a sentence too long to read whole: any value but the box's is not known harmless
            if any(_value_differs(number, answer) is not False
                   for number in dict.fromkeys(found.group(0) for found in _SENTENCE_NUMBER.finditer(sentence))):
                return sentence[:_WORDS_MAX], False
            continue
        steps = sentence.split("\u2192")  # (every arrow is read as `→` here)
        if len(steps) > 1 and _arrow_to_the_box(steps, answer):
            if worked is None:
                worked = numbers_stated(text[:end])
            if all(number_value(number.group(0)) in worked for step in steps[:-1]
                   for number in _SENTENCE_NUMBER.finditer(step)):
                said = _said_after_step(steps[-1], ending, text[:end], worked, answer)
                if said is not None:  # `10 → 7 (maybe)`, `10 → 7, I guess.`, `3 → 7?`: said of the box
                    return said, "?" not in said  # (a question of it: uncertain)
                continue  # `10 → 7.`, `Start 10 ⟶ end 7.`: from the working's value to the box's, a step
        marked = _GSM8K_MARK.match(sentence)
        if marked is not None:  # `#### 7`: the answer marked again, the box's value or another
            if _value_differs(_gsm8k_value(sentence[marked.end():], text[:end]), answer) is False:
                continue
            return sentence, True
        if ending != "|" and _DIGITS.search(sentence) and (
                joined_after(answer, sentence) is not None or _SLASH_OPENING.match(sentence)):
            return sentence, True  # `\\boxed{7}. = 8`, `! = 8`, `. / 8`: a sign opening a sentence joins another value
        if ending == "|":  # a table of the working holds the box's value, or it is not read
            if not any(cell.strip() and _value_differs(cell.strip(), answer) is False
                       for cell in sentence.split("|") if _DIGITS.fullmatch(cell.strip())):
                return sentence, False
            continue
        lone = _LABELLED_VALUE.fullmatch(sentence.strip(" .()"))
        if lone is not None and _value_differs(lone.group("value"), answer) is True:
            if worked is None:
                worked = numbers_stated(text[:end])
            if _names_a_result(lone.group("label")) or number_value(lone.group("value")) not in worked:
                return sentence, True  # `Total = 8`, `x = 8`, `The number of apples she has left = 8`
            continue  # `Start = 10.`, `Total eaten = 3.`: a label of the working's own value
        aside = _said_of_restatement(sentence + (ending if ending in ("?", "？") else ""), answer)
        if aside is not None:  # `It is 7 (not sure).`, `7, maybe.`, `Correction: 7 -> 8.`, `So 7 becomes 8.`
            return aside, "?" not in aside  # (`It is 7 (?)`: a question of it, uncertain)
        if any(form.match(sentence) for form in _READ_FORMS) and not _story_action(sentence) and not (
                _states_another_result(sentence, answer)) and not _leaves_another_value(sentence, answer) and not (
                _negates_a_judgement(sentence)):
            # a sentence that opens a line (`_restated` reads sentences by their marks, and no
            # mark ends the line before it: `#### 7\nActually 8.`) or follows a `####` line (past
            # `_restated`'s three sentences: `\boxed{7}.\n\n#### 7. Actually 8.`) is read alone here
            previous = read[at - 1] if at else parts[0]
            if previous[1] == _BREAK or _GSM8K_MARK.match(previous[0]):
                again = _restated(f". {sentence}.", 0, answer)
                if again is not None:
                    return again, True
            continue  # read by `_restated` (not `So one takes 8.`, read `So 1 takes 8`: own work;
            # not `So 4 + 4 = 8 apples remain.`, `So 8 are left.`: another result; not one that
            # negates a judgement of error, which affirms what it says, read below: `It is not a
            # mistake to say 8.`, `It is 8, not a mistake.`)
        if _remark_length(sentence) > _SHORT_REMARK:  # an explanation, unless it states a new value
            # (a box in a base, `204_5`: its working writes numerals with subscripts, `13_5`,
            # which the text as read here has lost, `13 5`; their values are not read)
            # (a next sentence that opens with `But`, or that tells the story after a what-if,
            # goes on with this one: `If she had eaten 2, she would have 8. But she ate 3.` and
            # `... 8. She ate 3.` reject the what-if as `; but she ate 3` and `; she ate 3` do)
            following = read[at + 1][0] if at + 1 < len(read) else ""
            joined = f"{sentence}; {following}" if _TURN_OPENING.match(following) or (
                _CONDITION.match(sentence) and ";" not in sentence and _story_action(following)) else sentence
            joined += "?" if ending in ("?", "？") else ""  # (`...; but she ate 3?`: asked, not told)
            values = _unexplained_values(joined, answer) if _DIGITS.search(sentence) and not (
                _BASE_NUMERAL.search(answer)) else []
            if values and worked is None:  # (read once, only for such a sentence: linear)
                worked = numbers_stated(text[:end])
            stated.extend((value, sentence, told) for value, told in values if number_value(value) not in (worked or ()))
            continue
        if _DIGITS.search(sentence):
            for clause in sentence.split(";"):
                if _explains(clause, answer):
                    continue  # `Check: 3 + 7 = 10.`, `Since she ate 3.`, `She ate 3.`, `(10 − 3 = 7)`
                if _story_action(clause) and not _states_another_result(clause, answer) and not (
                        _leaves_another_value(clause, answer)):
                    # `She ate 3.`, `So you ate 3.`, `Let's take 8.`: the story told back, whose
                    # values are the story's where the working or the question states them
                    if worked is None:
                        worked = numbers_stated(text[:end])
                    told = _story_told(clause)
                    stated.extend((number.group(0), sentence, told) for number in _SENTENCE_NUMBER.finditer(clause)
                                  if _other_value(clause, number, answer) and number_value(number.group(0)) not in worked
                                  and not _LABELLED.search(clause, 0, number.start()))
                    continue
                if _states_another_result(clause, answer) and not _rejects(clause, answer):
                    return sentence, True  # `(3 + 4 = 8)`, `Check: 10 - 3 = 8.`: its result is another value
                if _recap_label(clause) and sum(1 for line, _ in read if _recap_label(line)) > 1:
                    # `Start: 10 apples`, `Apples left: 7` (a recap's labelled items, two or more; not
                    # `Also: 8` alone): the story's values only where the working or the question states them
                    if worked is None:
                        worked = numbers_stated(text[:end])
                    stated.extend((number.group(0), sentence, False) for number in _SENTENCE_NUMBER.finditer(clause)
                                  if _other_value(clause, number, answer) and number_value(number.group(0)) not in worked
                                  and not _LABELLED.search(clause, 0, number.start()))
                    continue
                numbers = itertools.chain(_SENTENCE_NUMBER.finditer(clause), _LISTED_NUMBER.finditer(clause))
                if any(_other_value(clause, number, answer) for number in numbers
                       if not _LABELLED.search(clause, 0, number.start())) and not _rejects(clause, answer):
                    return sentence, True  # `Also 8.`, `Nein, 8.`, `8 works too.`, `Mia ate none; 8.`
        elif ending in ("?", "？") and at < len(read) - 1 and (_ANSWERED.match(read[at + 1][0]) or _EXPLAINING.match(
                read[at + 1][0])) and not any(
                word.lower() in _AFFIRMING for word in _LETTERS.findall(sentence)):
            continue  # `Is there another way? Yes: ...`, `Why? Because ...`: the next sentence answers it
        elif (ending != _BREAK or _judging_words(sentence)) and not _harmless_remark(sentence, ending):
            return sentence, False  # `Scratch that.`, `IDK.`, `/s`, `Not done.`, `Is that right?`
    return (" ".join(dict.fromkeys(sentence for _, sentence, _ in stated)), tuple(stated)) if stated else None


def _arrow_to_the_box(steps: list[str], answer: str) -> bool:
    """Whether a sentence cut at its arrows (`steps`) leads to the box's value: its last step
    holds numbers, each the box's value, and an earlier step holds a number (`10 → 7` of a box
    of 7; not `7 → 8`, `Total → 8`)."""
    last = [number.group(0) for number in _SENTENCE_NUMBER.finditer(steps[-1])]
    return bool(last) and all(_value_differs(number, answer) is False for number in last) and any(
        _SENTENCE_NUMBER.search(step) for step in steps[:-1])


# What closes an arrow's last step after its value: a bracket, or words and marks.
_STEP_BRACKET = re.compile(r"\s*+\(([^()]{0,200})\)\s*+")


def _said_after_step(step: str, ending: str, working: str, worked: frozenset[Fraction], answer: str) -> str | None:
    """What an arrow's last step (`_arrow_to_the_box`) says after the box's value, when that is
    not on the allow-list of what closes a step (None then): nothing, marks known harmless
    (`!`, `✓`), words the working counts or that close an amount (`10 → 7 apples left`),
    remark words (`(done)`), or a bracket that tells the step with the working's own values
    and judges nothing (`(after eating 3)`). Anything else (`(maybe)`, `, I guess`, `or so`,
    `is wrong`, `%`, a question, `ending` `?`) is said of the box, for the comparison to read."""
    last = list(_SENTENCE_NUMBER.finditer(step))[-1]
    rest = step[last.end():]
    said = " ".join((rest + (ending if ending in ("?", "？") else "")).split())
    if ending in ("?", "？") or "?" in rest:
        return said or "?"
    bracket = _STEP_BRACKET.match(rest)
    if bracket is not None:
        content = bracket.group(1)
        if _DIGITS.search(content):
            if _judging_words(content) or any(number_value(number.group(0)) not in worked
                                               for number in _SENTENCE_NUMBER.finditer(content)):
                return said
        elif (aside := _unknown_bracket(rest, answer)) is not None:
            return aside  # (`(hopefully)`, `(if correct)`: as after a restated value, read by `affirms`)
        rest = rest[bracket.end():]
    counted = {noun.lower() for noun in _COUNTED_NOUN.findall(working)}
    for piece in _CLOSINGS.sub(" ", rest).split():
        word = piece.strip(".!,;:*_")
        if word and not (word.lower() in counted or word.lower() in _REMARK_WORDS or _LEAVES.fullmatch(word) or all(
                char in _HARMLESS_MARKS or char in ".!" for char in word)):
            return said
    return None


def _said_of_restatement(sentence: str, answer: str) -> str | None:
    """What a sentence after the box that states the box's value again says of it, read by the
    rule that reads what follows the box itself (`_said_of`: a verb, `So 7 becomes 8.`, `7 is
    now 8`; `_said_after_a_mark`: a mark and an aside, `It is 7 (not sure).`, `7, maybe.`,
    `Correction: 7 -> 8.`): the sentence opens with the value, past a restating opener
    (`_READ_FORMS`, `_RESTATING_OPENER`: `It is`, `So`, `Correction:`). Only what judges the
    value (`_judges`: a hedge, a negation, a question, another value) is returned, for the
    comparison to read (`affirms`); None for a sentence of another form, another value first
    (`So 8 becomes 7.`: the box's value is where it leads) or an aside that judges nothing
    (`It is 7 (apples).`). `_restated` reads a sentence first; where it finds nothing there,
    the sentence is read here, never passed unread."""
    starts = [0]  # `I think it's 7`: an opener after up to three words too
    while len(starts) < 4 and (word := _LEAD_WORD.match(sentence, starts[-1])) is not None:
        starts.append(word.end())
    opener = next((found for at in starts for form in (*_READ_FORMS, _RESTATING_OPENER)
                   if (found := form.match(sentence, at))), None)
    rest = sentence[opener.end():] if opener is not None else sentence
    value = _LEADING_NUMBER.match(rest)
    if value is None or _value_differs(value.group("number"), answer) is not False:
        return None
    unit = _UNIT_BEFORE_BRACKET.match(rest, value.end())  # `It is 7 apples (not sure).`: the bracket is read
    after = _DENIED_VALUE.sub(" ", rest[unit.end() if unit and not _judging_words(unit.group(0)) else value.end():])
    # (a verb right after the value, `7 becomes 8`; not words that go on naming it, `0.25 of
    # the total, or ...`: an explanation)
    said = _said_of(after) if _SAID_OF.match(after.lstrip()) else None
    if said is None:
        said = _said_after_a_mark(after, after, answer) or _unknown_bracket(after, answer) or (
            _another_value_after(after, answer)) or _approximated(after, answer)
    if said is None or _DENIED.fullmatch(said) or _true_comparison(said, answer):
        return None  # (`not-7` as read: denied, not said; `(over 6)` of 7: true of it, said of 6)
    return said


def _approximated(after: str, answer: str) -> str | None:
    """The words after a restated whole number that approximate it (`_APPROXIMATE_WORDS`: `It
    is 7 (roughly).`, `7, approx.`): a hedge of a count; None for a rounded decimal or none."""
    words = {word.lower() for word in _LETTERS.findall(after)}
    return " ".join(after.split()).strip(_TRAILING + "()") if _DIGITS.fullmatch(answer) and (
        _APPROXIMATE_WORDS.intersection(words)) else None


def _another_value_after(after: str, answer: str) -> str | None:
    """What follows a restated value when it holds another value (`So 7 turns into 8.`,
    `Correction: 7 replaced by 8.`, `7 -> 8 apples`) that no reader found said of it: a value
    other than the box's (`_other_value`: not an operand, `7 = 10 - 3`) is not thereby harmless,
    whatever verb or mark joins it; the comparison reads it (`affirms`). A story told back
    (`_tells_the_story`) keeps its values (`_unread_after_box` reads them)."""
    rest = " ".join(after.split()).strip(_TRAILING + ")]")
    head = _CLAUSE_MARKS.split(rest, maxsplit=1)[0]  # (the value's own clause: `..., arranged in 4 rows` explains)
    first = next((number for number in _SENTENCE_NUMBER.finditer(head) if _other_value(head, number, answer)), None)
    if first is None or len(_LETTERS.findall(head, 0, first.start())) > _CORRECTION_WORDS or (
            "\\" in head[:first.start()]):
        return None  # (`7 \\cdot 1`: an operation, no value)
    return None if _tells_the_story(rest, answer) else rest


_CORRECTION_WORDS = 3  # (the most words between a restated value and the value it turns into)


# A comparison of the value with another (`over 6`, `more than 6`, `one more than 6`, `2 less
# than 9`), read whole: `_true_comparison`.
_COMPARISON = re.compile(r"\s*+(?:(?P<by>\d++(?:\.\d++)?)\s++)?(?:(?P<more>more|greater|larger|bigger|higher|over|"
                         r"above)|(?P<less>less|fewer|smaller|lower|under|below))(?:\s++than)?\s++"
                         r"(?P<other>-?\d++(?:\.\d++)?)\s*+[)\].]*+", re.IGNORECASE)


def _true_comparison(said: str, answer: str) -> bool:
    """Whether an aside is only a comparison of the box's value with another that holds of it
    (`(over 6)`, `(one more than 6)` of 7: 7 is said, 6 is what it is compared with); a false
    one (`(over 8)`, `(two more than 6)`) says another value, as any other aside does."""
    comparison = _COMPARISON.fullmatch(numbers_in_words(said))
    box = number_value(answer) if _PROSE_NUMBER.fullmatch(answer) else None
    if box is not None and said.strip(" ().").lower() in ("positive", "negative"):  # `(positive)` of 7, not of -7
        return (said.strip(" ().").lower() == "negative") == answer.startswith("-") and box != 0
    if comparison is None or box is None or answer.startswith("-"):
        return False
    other = Fraction(comparison.group("other"))
    by = Fraction(comparison.group("by")) if comparison.group("by") else None
    if comparison.group("more"):
        return box == other + by if by is not None else box > other
    return box == other - by if by is not None else box < other


# Words of a bracket after a value known to leave it as said: an aside's (`_ASIDE_WORDS`), an
# affirmation's (`_AFFIRMING`), and the pronouns and copula of `(I'm sure)`, `(yes, it is)` (listed here);
# not a sign-off's (`(hopefully)`, `(good luck)`) nor a condition's (`(if I'm right)`).
_BRACKET_WORDS = frozenset("am is it this that yes".split())  # noqa: SIM905 (with the two lists)
# A bracket right after a restated value, its words (no number, which the readers of values read).
_WORDS_IN_BRACKET = re.compile(r"\s*+\(([^()\d]{1,200})\)")


def _unknown_bracket(after: str, answer: str) -> str | None:
    """The words of a bracket right after a restated value (`It is 7 (if I'm right).`) unless
    each is on an allow-list of words known to leave the value as said (`_BRACKET_WORDS`:
    `(exactly)`, `(rounded)`, `(final answer)`, `(checked)`, `(I'm sure)`, `(done)`) or
    is the value in another numeral form (`(sieben)`, `(VII)`, `(七)`): what the readers
    of hedges and verbs (`_said_after_a_mark`) found nothing in is not thereby harmless, and the
    comparison reads it by its own allow-list (`affirms`). None for no such bracket."""
    bracket = _WORDS_IN_BRACKET.match(after)
    if bracket is None:
        return None
    words = [part for word in _REMARK_WORD.findall(bracket.group(1))
             for part in word.lower().replace("’", "'").replace("'m", " am").split()]
    if all(word in _BRACKET_WORDS or word in _ASIDE_WORDS or word in _AFFIRMING or _value_differs(_numerals_read(word), answer) is False for word in words):
        return None
    return " ".join(bracket.group(1).split())


_LEADING_NUMBER = re.compile(r"\s*+\+?(?P<number>-?\d++(?:\.\d++)?)(?![\d.])")  # (`+7` is 7)
# Up to three words before a restating opener (`I think it's 7`), and up to two words of a unit
# between a restated value and a bracket (`It is 7 apples (not sure).`).
_LEAD_WORD = re.compile(r"[^\W\d_]++(?:['’][^\W\d_]++)?\s++")
_UNIT_BEFORE_BRACKET = re.compile(r"(?:\s++[^\W\d_]++){1,2}(?=\s*+\()")
_DENIED = re.compile(r"(?i:not|instead\s+of|rather\s+than)\s*-?\d+(?:\.\d+)?")

# (a run of marks is read as three: `### 7`; read with .match; possessive, and no start inside
# a run of spaces, so a search is linear too)
_GSM8K_MARK = re.compile(r"(?<!\s)\s*+#{3,}+\s*+(?=[-+]?\d)")
# What may follow the value after `####`: a unit of up to three words, bare or in brackets
# (`#### 7 apples`, `#### 7 (apples)`).
_GSM8K_UNIT = re.compile(r"(?:(?<=\d)|(?<=\s)(?<!\s\s))\s*+\(?\s*+(?P<words>[^\W\d_]++(?:\s++[^\W\d_]++){0,2})\s*+\)?$")
# A number and the word right after it (`10 apples`): the thing the working counts.
_COUNTED_NOUN = re.compile(r"(?<![\w.])\d++(?:\.\d++)?[ \t]*+([^\W\d_]++)")


def _gsm8k_value(marked: str, working: str) -> str:
    """The value a `####` line after the box marks, read as GSM8K's own golds are written
    (`#### 72`): a sign `+` is the number's (`#### +7` is 7), and a unit after it is dropped
    where each of its words names what the working counts (a word right after one of its
    numbers, `_COUNTED_NOUN`: `10 apples`, so `#### 7 apples`, `#### 7 (apples)`) or closes
    the amount (`_CLOSINGS`: `#### 7 apples left`) and none changes the value
    (`changes_value`: `7 thousand`, `7 or`, `7 more`). What is left is compared with the box
    (`7 dozen`, `7 maybe`, `7 or 8`, `-7` stay: another value, or none)."""
    value = marked.strip(_TRAILING)
    unit = _GSM8K_UNIT.search(value)
    if unit is not None:
        counted = {noun.lower() for noun in _COUNTED_NOUN.findall(working)}
        words = _CLOSINGS.sub(" ", unit.group("words")).split()  # (`7 apples left`)
        if all(_gsm8k_unit(word, working) and (word.lower() in counted or f"{word.lower()}s" in counted
                                               or word.lower().removesuffix("s") in counted)
               for word in words):
            value = value[:unit.start()].rstrip()
    return value[1:].lstrip() if value.startswith("+") else value


# Words never a unit after a `####` value, whatever the working counts: a hedge (`ish`), a
# percent's other spellings, and a leading abbreviation of a magnitude's name (`doz` of
# `dozen`, `hund`, `bill`: three letters or more, `_MAGNITUDE_NAMES`).
_NO_UNIT = frozenset("ish pct pcts percents".split())  # noqa: SIM905
_MAGNITUDE_PREFIXES = frozenset(name[:size] for name in _MAGNITUDE_NAMES for size in range(3, len(name)))
# One-letter units read after a `####` value, as written (an allow-list: SI's metre, gram,
# second, litre and the hour; no magnitude, `k`, `M`, `B`, and no variable, `x`, `n`).
_LETTER_UNITS = frozenset("m g s l L h".split())  # noqa: SIM905
# A number of the working and the marks beside it (`_money_part_counted`): an operator or a
# bracket before it, the word or the mark after it.
_WORKING_NUMBER = re.compile(r"(?P<before>[-+*/=({\[\u2212\u00d7\u00f7]?)[ \t]*+(?<![\w.])\d++(?:\.\d++)?+(?![\w.]\d)"
                             r"[ \t]*+(?P<after>[^\W\d_]++|[-+*/=)}\]\u2212\u00d7\u00f7])?")


def _gsm8k_unit(word: str, working: str) -> bool:
    """Whether a word after a `####` value may be a unit (`_gsm8k_value`): of two letters or
    more, or one of `_LETTER_UNITS` as written (another letter is a variable or a magnitude:
    `7 x`, `7 M`), changing no value (`changes_value`, `_MAGNITUDE_PREFIXES`: `7 doz`),
    judging nothing (`_judging_words`: `7 maybe`, `7 wrong`), no approximation (`7 about`) and
    not `_NO_UNIT`'s; a hundredth of money (`cents`, `pence`, `sen`: `_SUB_UNITS`, the one
    reading of them) only where the working counts in it alone (`_money_part_counted`)."""
    lower = word.lower()
    if len(word) == 1 and word not in _LETTER_UNITS:
        return False
    if lower in _SUB_UNITS and not _money_part_counted(lower, working):
        return False
    return not changes_value(lower) and not _judging_words(lower) and (
        lower not in APPROXIMATIONS and lower not in _NO_UNIT and lower not in _MAGNITUDE_PREFIXES)


def _money_part_counted(part: str, working: str) -> bool:
    """Whether a working counts in one hundredth of money alone (`She had 10 cents and spent 3
    cents, so 10 - 3 = 7 cents.`; `A dollar is 100 cents.` too), so that `#### 7 cents` is in
    its unit: no currency sign (Unicode's Sc: `£`, `¥`; `$` beside a number, `10$`, or `\\$`) and every number of the working
    either followed by a word of that same hundredth (`_SUB_UNITS`) or a term of arithmetic
    (an operator or bracket right beside it: `10 - 3 = 7`). Any other number fails it closed:
    `10 bucks`, `USD 10 and`, `Rs 10,`, `10 yen` name the whole currency, so `#### 7 cents`
    there is a value in cents, another value than the box's 7."""
    if len(working) > _MONEY_WORKING_MAX or _DOLLAR_SIGN.search(working) or any(
            ch != "$" and unicodedata.category(ch) == "Sc" for ch in working):
        return False
    family = _SUB_UNITS[part][2]
    for number in _WORKING_NUMBER.finditer(working):
        after = number.group("after")
        if after is not None and after.lower() in _SUB_UNITS and _SUB_UNITS[after.lower()][2] == family:
            continue
        if number.group("before") or (after is not None and not after[0].isalpha()):
            continue
        return False
    return True


# (`$` is a currency sign beside a number or escaped, `$10`, `10 $`, `\\$`; else TeX's math)
_DOLLAR_SIGN = re.compile(r"\\\$|\$[ \t]*+\d|(?<=\d)[ \t]*+\$")
_MONEY_WORKING_MAX = 20_000  # (a longer working is not read for it: a money part stays a value)


def _read_sentences(region: str) -> list[tuple[str, str]]:
    """The sentences of `region` (`_READ_SENTENCE_END`), each with the mark that ends it
    (`?`, `.`; `_BREAK` for a line no mark ends; "" for the last), and the rows of a markdown table (`| Start | 10 |`) as one
    sentence ending in `|`."""
    parts: list[tuple[str, str]] = []
    start = 0
    for found in _READ_SENTENCE_END.finditer(region):
        parts.append((region[start:found.start()], found.group(0).strip()))
        start = found.end()
    # a last line with no mark after a break is a line (a title, a label), as one before a break
    parts.append((region[start:], _BREAK if parts and parts[-1][1] == _BREAK else ""))
    merged: list[tuple[str, str]] = []
    rows: list[str] = []
    for sentence, ending in parts:
        if sentence.strip().startswith("|"):
            rows.append(sentence.strip())
            continue
        if rows:
            merged.append((" ".join(rows), "|"))
            rows = []
        merged.append((sentence, ending))
    if rows:
        merged.append((" ".join(rows), "|"))
    return merged


def _sentences_read(parts: list[tuple[str, str]], text: str, end: int) -> list[tuple[str, str]]:
    """The sentences after the box's own clause (`parts[0]`) that `_unread_after_box` reads,
    each as a reader reads it (numbers in words as digits, a detached `n't` as `not`): the
    next `_SENTENCES_READ` within `_WORDS_MAX` characters with the box's clause, not counting
    what is known to leave the box and adds nothing (`_passes`: a sign-off, a remark on the
    allow-list, markup with no words): three `Done.` push no fourth sentence out, nor does a
    run of them past the window. A sentence the window cuts is not read (an explanation)."""
    read: list[tuple[str, str]] = []
    used = len(parts[0][0])
    for raw, ending in parts[1:]:
        # (`sentence_key` drops the space after a comma: `3,eight` is read as `3, eight`)
        spaced = _COMMA_BEFORE_WORD.sub(", ", _THOUSANDS_COMMA.sub("", raw))
        sentence = " ".join(numbers_in_words(_DETACHED_NOT.sub("not", spaced)).split())
        sentence = sentence.strip(" *_") if ending != "|" else sentence
        if _passes(sentence, ending, text, end):
            continue
        used += len(raw) + 1
        if len(read) == _SENTENCES_READ:
            break
        if used > _WORDS_MAX:
            # a sentence the window cuts that holds a numeral (a digit of any script or a
            # character of a number, `_NUMERAL_CHAR`: `8`, `⁸`, `Ⅷ`; not a number in words, as
            # an explanation tells its story: `Each of the three friends took one apple ...`) is
            # read whole within `_LONG_SENTENCE` (`If she had eaten 2 apples, and had she been
            # ..., she would have 8 apples.`: padding pushes no value out); past that bound it is
            # no text read (`_CUT`), whatever it opens with: a value other than the box's in it,
            # in any numeral form the reader counts (`_numerals_read`: words and Roman numerals
            # too), leaves the pair uncertain, never a pass (a length limit never decides for
            # the reply: `Total = ` x 3,000 then `8`, `Alternatively, it could very ... very well
            # be 8.`, `... be ⁸.`, `... be VIII.`, `... be eight.`)
            if len(raw) <= _LONG_SENTENCE and (_DIGITS.search(raw) or _NUMERAL_CHAR.search(raw)):
                read.append((_NUMERAL_CHAR.sub(_numerals_as_digits, sentence), ending))
            elif len(raw) <= _LONG_SENTENCE and (frame := _OTHER_VALUE_FRAME.search(sentence)) and _DIGITS.search(
                    numerals := _numerals_read(sentence[frame.start():])):
                # a number in words or Roman capitals that a word offering another value
                # governs (`Alternatively it could very ... well be eight.`): read as a numeral
                # is (the story told in words, with no such word before its numbers, is not)
                read.append((sentence[:frame.start()] + numerals, ending))
            elif len(raw) > _LONG_SENTENCE and _DIGITS.search(numerals := _numerals_read(sentence)):
                read.append((numerals, _CUT))
            break
        read.append((sentence, ending))
    return read


_LONG_SENTENCE = 2_000
# Words that offer a value other than the one stated (an alternative, a doubt, a possibility, a
# correction): a number in words after one, in a sentence the window cuts, is read
# (`_sentences_read`), as a numeral there is.
_OTHER_VALUE_FRAME = re.compile(r"(?<![^\W\d_])(?i:alternative(?:ly)?|alternately|otherwise|instead|or|else|"
                                r"maybe|perhaps|possibly|probably|might|could|may|would|actually|rather|"
                                r"correction|really)(?![^\W\d_])")
_CUT = "\u2026"  # (the ending of a sentence `_sentences_read` read only in part)


def _numerals_read(text: str) -> str:
    """`text` with every numeral the reader counts written in digits: number words
    (`numbers_in_words`: `eight`), a character Unicode gives a numeric value other than a
    decimal digit (`_NUMERAL_CHAR`, from the character data: superscript and subscript digits
    `⁸` `₈`, circled `⑧`, Roman numeral characters `Ⅷ`, fractions `½`, not after a letter,
    `m²`; a decimal digit of any script, `٨`, `８`, `𝟖`, is one already), and a Roman numeral
    in capitals of two letters or more (`_ROMAN`: `VIII`, `XII`; not `I` or `X` alone, a
    pronoun or a variable). The one
    reading of "holds a number" for what is read past the window (`_sentences_read`,
    `_unread_after_box`'s own clause). Linear."""
    text = _OTHER_NUMBER_WORD.sub(lambda word: str(_OTHER_NUMBERS[word.group(0).lower()]), numbers_in_words(text))
    if not text.isascii():
        text = _CJK_NUMERAL.sub(_cjk_value, _NUMERAL_CHAR.sub(_numerals_as_digits, text))
    text = _LOWER_ROMAN.sub(_lower_roman_value, text)
    return _ROMAN.sub(_roman_value, text) if _ROMAN_LETTERS.search(text) else text


def _numerals_as_digits(run: re.Match[str]) -> str:
    return "".join(map(_numeric_value, run.group(0)))


def _numeric_value(char: str) -> str:
    value = Fraction(unicodedata.numeric(char)).limit_denominator(1_000)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _roman_value(numeral: re.Match[str], letters: str = "") -> str:
    """The value of a Roman numeral, in digits; a run of two capitals after a determiner or a
    preposition (`_BEFORE_ABBREVIATION`: `the CD`, `in DC`, `a CV`) is an abbreviation, left as
    it is (`VIII`, `XIII`, `be XI`, `Chapter XI` are numerals)."""
    letters = letters or numeral.group(0)
    if len(letters) == 2 and _BEFORE_ABBREVIATION.search(numeral.string, max(0, numeral.start() - 12),
                                                          numeral.start()) and (
            letters in _ROMAN_ABBREVIATIONS or _NAMED_AFTER.match(numeral.string, numeral.end())):
        return numeral.group(0)
    value, previous = 0, 0
    for letter in reversed(letters):
        digit = _ROMAN_DIGITS[letter]
        value, previous = (value - digit, previous) if digit < previous else (value + digit, digit)
    return str(value)


def _numeral_chars() -> str:
    """The characters of Unicode's number categories that are no decimal digit (`No`, `Nl`:
    `⁸`, `₈`, `⑧`, `Ⅷ`, `½`), of the first two planes, as a character class."""
    return char_class([code for code in range(0x80, 0x20000)
                       if unicodedata.category(chr(code)) in ("No", "Nl")])


# (not after a letter: `m²`, `x₁` are a unit's power and a variable's index)
_NUMERAL_CHAR = re.compile(r"(?<![^\W\d_])" + _numeral_chars() + "+")
_ROMAN_DIGITS = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
# A determiner or a preposition right before a word (`the CD`, `in DC`): what follows names a
# thing, so a run of two Roman capitals there is an abbreviation, not a numeral.
_BEFORE_ABBREVIATION = re.compile(r"(?<![^\W\d_])(?i:a|an|the|this|that|my|your|his|her|its|our|their|"
                                  r"in|at|of|from|to|by|on|for|with)\s+$")
# (an abbreviation names the thing the next word is: `the CD player`, `the VI editor`; `the XL.`,
# `equal to XI.` end on the numeral, a value)
_NAMED_AFTER = re.compile(r"[ \t]++[^\W\d_]")
# Abbreviations spelled with two Roman capitals, named after a determiner or a preposition
# whatever follows (an allow-list: `the CD`, `in DC`, `a CV`, `the MD`, `the CM`, `in MM`).
_ROMAN_ABBREVIATIONS = frozenset("CD DC CV MD MC CM MM CC CL MI DI DL LC".split())  # noqa: SIM905
# A word of lower-case Roman letters `i v x l` (a capital first: `Viii`), read by
# `_lower_roman_value` where it is a numeral written the one canonical way (`ix`, `xv`, `xx`,
# `xlii`, `Xii`), unless it is on the allow-list of words and marks spelled so
# (`_ROMAN_SPELLED_WORDS`: `ill`, `vi`, `xi`, `li`, `iv`, `xl`, the placeholder `xxx`);
# `c`, `d`, `m` are not read in lower case (`mix`, `dim`, `civil`, `cd`, `mm`).
_LOWER_ROMAN = re.compile(r"(?<![^\W\d_])[ivxlIVXL][ivxl]++(?![^\W\d_])")
_ROMAN_SPELLED_WORDS = frozenset("ill vi xi li iv il xl xxx lil liv".split())  # noqa: SIM905


def _lower_roman_value(numeral: re.Match[str]) -> str:
    letters = numeral.group(0).upper()
    if len(letters) > 9 or numeral.group(0).lower() in _ROMAN_SPELLED_WORDS:
        return numeral.group(0)
    value = _roman_value(numeral, letters)
    return value if _canonical_roman(int(value)) == letters else numeral.group(0)


def _canonical_roman(value: int) -> str:
    """`value` (below 4,000) as a Roman numeral in its one canonical spelling (`XLII`)."""
    spelled = ""
    for size, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
                          (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        count, value = divmod(value, size)
        spelled += letters * count
    return spelled
# A CJK numeral (`八`, `十二`, `三百`, `两千`): a run of the ideographs Unicode gives a numeric value
# that numerals are written with (digits, `十` `百` `千` `万` `亿`, `零` `〇` `两`).
# The formal (financial) numerals count too (`壹` 1, `捌` 8, `拾` 10, `廿` 20).
_CJK_DIGITS = {**{char: value for value, char in enumerate("零一二三四五六七八九")}, "〇": 0, "两": 2,
               **{char: value for value, char in enumerate("零壹贰叁肆伍陆柒捌玖")},
               **{char: value for value, char in enumerate("零壹貳參肆伍陸柒捌玖")}}
_CJK_UNITS = {"十": 10, "百": 100, "千": 1000, "拾": 10, "佰": 100, "仟": 1000, "廿": 20, "卅": 30, "卌": 40}
_CJK_NUMERAL = re.compile("[" + "".join([*_CJK_DIGITS, *_CJK_UNITS, "万", "萬", "亿", "億"]) + "]+")
# Words written with numeral ideographs that name no number (an allow-list: `一定` certainly,
# `一样` the same, `十分` very, `大陆` continent, `收拾` tidy): a numeral run that one of them
# holds is left as words (`_cjk_value`); any other run is a value.
_CJK_NUMERAL_WORDS = frozenset("""
    一定 一样 一樣 十分 一些 一直 一般 一起 一切 一下 一致 唯一 统一 統一 一旦 一共 第一 一再 一边 一邊
    一同 一向 一律 一味 一番 一概 一心 一贯 一貫 一面 一方面 万分 萬分 大陆 大陸 陆地 陸地 收拾 拾起
    队伍 隊伍 落伍 入伍 一模一样 三角 四边 四周 五彩
""".split())  # noqa: SIM905 (a word list reads better as words)


# The largest CJK numeral value read exactly (`亿亿` is 10**16): a run past it (`一亿` x 600,
# whose int would outgrow `str()`'s 4,300 digits and cost quadratic time) is read as this bound
# plus one, a value still (never the box's, never unread), in constant size.
_CJK_VALUE_MAX = 10**30


def _cjk_value(numeral: re.Match[str]) -> str:
    """The value of a CJK numeral in digits (`十二` 12, `三百零五` 305, `两万` 20000); one past
    `_CJK_VALUE_MAX` for a larger one; a run inside a word of `_CJK_NUMERAL_WORDS` (`一定`) as
    it is."""
    text, start, end = numeral.string, numeral.start(), numeral.end()
    if any(text[max(0, at):at + size] in _CJK_NUMERAL_WORDS for size in (2, 3, 4)
           for at in range(start - size + 1, end) if at + size > start):
        return numeral.group(0)
    total, section, digit = 0, 0, 0
    for char in numeral.group(0):
        if total > _CJK_VALUE_MAX:
            return str(_CJK_VALUE_MAX + 1)
        if char in _CJK_DIGITS:
            digit = _CJK_DIGITS[char]
        elif char in _CJK_UNITS:
            section += (digit or 1) * _CJK_UNITS[char]
            digit = 0
        elif char in "万萬":  # a larger section
            total += (section + digit) * 10_000
            section, digit = 0, 0
        else:  # 亿
            total = (total + section + digit) * 100_000_000
            section, digit = 0, 0
    return str(total + section + digit)
_ROMAN_LETTERS = re.compile(r"[IVXLCDM]{2}")
_ROMAN = re.compile(r"(?<![^\W\d_])(?=[IVXLCDM]{2})M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"
                    r"(?![^\W\d_])")


_COMMA_BEFORE_WORD = re.compile(r",(?=[^\W\d_])")
# A line of a recap that labels its value (`Start: 10 apples`, `Apples left: 7`): at most four
# words, then a colon, then the value first.
# (the lookbehinds start no match inside a run of spaces or letters: `match` at a line's
# start is the same, and a search stays linear)
_LABEL_LINE = re.compile(r"(?<!\s)\s*+(?<![^\W\d_])[^\W\d_]++(?:\s++[^\W\d_]++){0,3}\s*+:\s*+(?=-?\d)")
# Labels that offer their value rather than name a quantity of the story (`Also: 3`, `Or: 10`,
# `Answer: 8`, `Edit: 8`): never a recap's item.
_OFFERING_LABELS = frozenset("""
    also or alternatively alternative another maybe perhaps possibly answer answers final result
    solution edit correction corrected update updated actually instead otherwise else option choice
""".split())  # noqa: SIM905 (a word list reads better as words)


_STEP_ITEM = re.compile(r"\s*+(?i:step|schritt|paso|étape|etapa|шаг)\s*+\d{1,2}\s*+[:.)]\s*+(?=[^\W_])")


def _recap_label(line: str) -> bool:
    """Whether `line` is a recap's labelled item: a label of a few words that offers nothing
    (`_OFFERING_LABELS`), a colon, then the value (`Start: 10 apples`, `Apples left: 7`)."""
    label = _LABEL_LINE.match(line) or _STEP_ITEM.match(line)  # (`Step 1: 10 apples`)
    return label is not None and not any(
        word.lower() in _OFFERING_LABELS for word in _LETTERS.findall(label.group(0)))
# A sentence after the box that opens with a slash then a value (`\\boxed{7}. / 8`): nothing
# before it in its sentence for the slash to divide, so it offers the box over another value.
_SLASH_OPENING = re.compile(r"\s*+/\s*+[-+\u2212]?\.?\d")
# A raised degree (`^\\circ`, `^{\\circ}`), read as the sign `°` (`_normalize.joined_after`'s mark).
_RAISED_DEGREE = re.compile(r"\^\s*+(?:\\circ(?![A-Za-z])|\{\s*+\\circ\s*+\})")
# A definition or a comparison of equals (`:=`, `=:`, `==`, `≔`, `≕`, `≡`): read as `=`.
_DEFINED_AS = re.compile(r":=|=:|={2,}|[≔≕≡]")


def _arrow_signs() -> str:
    """Every arrow Unicode draws, from the character data (a character named an ARROW or a
    HARPOON of the Arrows blocks, Dingbats, the Supplemental Arrows and Miscellaneous Symbols
    and Arrows: `→`, `⇒`, `⟶`, `⟹`, `↦`, `⇀`, `➔`, `⤏`), as a character class."""
    blocks = ((0x2190, 0x2200), (0x2794, 0x27C0), (0x27F0, 0x2800), (0x2900, 0x2980), (0x2B00, 0x2C00))
    return char_class([code for low, high in blocks for code in range(low, high)
                       if any(word in unicodedata.name(chr(code), "") for word in ("ARROW", "HARPOON"))])


def _dash_signs() -> str:
    """Every dash and minus Unicode draws, from the character data (category Pd: `-`, `‐`, `–`,
    `—`, `﹣`, `－`; a character named a MINUS SIGN that is no other operation: `−`, `➖`), as
    the inside of a character class: the shaft of an ASCII arrow in any of its look-alikes."""
    codes = [code for code in range(0x21, 0x10000) if unicodedata.category(chr(code)) == "Pd" or (
        unicodedata.name(chr(code), "").endswith("MINUS SIGN") and not re.search(
            r"PLUS|WITH", unicodedata.name(chr(code))))]
    return char_class(codes)[1:-1]


# An arrow in every spelling (one set): ASCII (`->`, `-->`, `=>`, `==>`, `~>`, `|->`, `->>`,
# with any dash or minus for its shaft, `−>`, `–>`: `_dash_signs`), LaTeX
# (every `...arrow` command, `\\to`, `\\implies`, `\\iff`, `\\mapsto`, `\\leadsto`, `\\gets`) and
# Unicode's arrows (`_arrow_signs`). After the box an arrow is read as `→` is: it leads to
# what follows it (`Total -> 8` offers 8, as `Total → 8` does). Not ASCII `<-`: the text as
# read (`sentence_key`) drops the spaces around signs, so `x <- 8` is `x < -8`, a bound.
_ARROW = re.compile(r"\\(?:[A-Za-z]*(?:arrow|Arrow)|to|gets|implies|impliedby|iff|mapsto|longmapsto|"
                    r"xmapsto|leadsto)(?![A-Za-z])|\|?[=~" + _dash_signs() + "]{1,3}>{1,2}|" + _arrow_signs())
_SENTENCES_READ = 3
"""How many sentences after the box's own `_unread_after_box` reads, past those that pass
(`_passes`); what follows them is the working or more thought (`_restated` reads a retraction)."""


def _passes(sentence: str, ending: str, text: str, end: int) -> bool:
    """Whether a sentence after the box is known to leave it and add nothing: empty or markup
    (`---`, `###`), a sign-off (`_sign_off`), or with no digit and only approving marks a
    remark whose words are all on the allow-list (`_harmless_remark`) or a short line no
    sentence mark ends (`**Explanation**`, a heading: a title of what follows)."""
    if not sentence or _sign_off(sentence):
        return True
    if _DIGITS.search(sentence) or ending == "|" or not all(
            not _symbol(char) or char in _HARMLESS_MARKS or _names_counted(char, text, end) for char in sentence):
        return False
    if ending == _BREAK:  # a short line: a title, a label (a long one is read as an explanation),
        # which judges nothing (`\\boxed{7}\\nMaybe.`, `#### 7\\nI'm not sure.`: a hedge, read)
        return _remark_length(sentence) <= _SHORT_REMARK and not _judging_words(sentence)
    return _harmless_remark(sentence, ending)


# What opens the answer to a question the reply asks itself after the box (`Is there another
# way? Yes: ...`, `Why? Because ...`).
_ANSWERED = re.compile(r"(?:yes|no|ja|nein|oui|non|sí|si|sim|não|да|нет|是|不)(?![^\W\d_])", re.IGNORECASE)
# `\\approx` (`_normalize.APPROX_COMMANDS`), read as `≈` (the one sign of its spellings) before
# LaTeX commands are dropped.
_APPROX_SIGN = re.compile(rf"\\(?:{'|'.join(APPROX_COMMANDS)})(?![A-Za-z])")
# A clause the box's sentence goes on to after a dash or a comma (`\\boxed{7} — she ate 3 of
# 10.`, read as `-she ate 3 of 10`; not `\\boxed{7} - 3 = 4`), read as a sentence only where it
# holds a value and tells the story (`_tells_the_story`).
_MARKED_CLAUSE = re.compile(r"(?<!\s)\s*+(?:[-\u2010-\u2015\u2212]++|&[mn]dash;|[,;])\s*+(?=[^\W\d_])")
# A clause after the box that opens with a capital (`\\boxed{7} Also 8.`): the box ended its
# sentence, though nothing marks it.
_CAPITAL_OPENING = re.compile(r"(?<![\s.])[\s.]*+[A-Z\u0400-\u042f][^\W\d_]")
# A number listed after another (`Not 7, 8.`, read as `7,8`; a thousands group is gone).
_LISTED_NUMBER = re.compile(r"(?<=\d,)\d+(?:\.\d+)?(?![\d,A-Za-z])")
# What numbers a step, a case or a line of the working (`Step 3 confirms it.`): a label.
_LABELLED = re.compile(r"(?<![^\W\d_])(?i:step|case|line|part|row|stage|method|equation|eq|example|figure|"
                       r"schritt|paso|étape|etapa|шаг)\s*$")
# An equation that checks the box: an operation on one side, the box's value on the other.
_CHECK_OPERATION = re.compile(r"[-+*/^×÷·−]|\\(?:times|cdot|div|frac)(?![A-Za-z])")
# Verbs of what a word problem's people do to its quantities (`She ate 3.`, `He gave away
# 3.`, `Ella comió 3.`, `Sie aß 3.`, `Elle a mangé 3.`, `Она съела 3.`): their values are
# operands of the working, not answers (an allow-list).
_ACTING = frozenset("""
    ate eats eat gave gives give took takes take sold sells sell lost loses lose spent spends spend
    bought buys buy removed removes picked picks received receives dropped drops shared shares
    ran runs walked walks paid pays broke breaks threw throws
    comió comieron come comen dio dieron regaló vendió vendieron compró compraron gastó perdió tomó
    aß aßen isst gab gaben gibt nahm nahmen kaufte kauften verkaufte verlor
    mangé mange mangea donné donne donna vendu vend acheté pris perdu
    съела съел съели ест дала дал отдала отдал продала продал купила купил потеряла потерял взяла взял
    comeu deu vendeu comprou perdeu mangiò mangiato diede dato venduto comprato
""".split())  # noqa: SIM905 (a word list reads better as words)
# Past forms that tell what the story's people had at its start (`Mia had 10 apples.`, `Tom
# started with 10.`): the story told back, as `_ACTING`'s verbs tell it (not `has`: `Mia has 8.`
# says what is so now, a result).
# (the present tense a recap also tells the story in: `Mia starts with 10 apples.`)
_STARTING = frozenset("had owned held started began starts begins".split())  # noqa: SIM905
# The forms of `_ACTING` with no person (`take`, `eat`): after a name or a hedge they are an
# instruction (`Just take 8.`, `Maybe take 8.`), not what one of the story's people did.
_BARE_ACTING = frozenset("""
    eat give take sell lose spend buy remove pick receive drop share run walk pay break throw
""".split())  # noqa: SIM905 (a word list reads better as words)
# The subjects known to make a sentence the problem's story told back (an allow-list): the
# third person, in the languages replies are written in (`She ate 3.`, `Ella comió 3.`), a
# determiner with its noun (`Her friend took 3.`), or a name (`_NAME`). Any other subject
# (`I`, `we`, `Let's`, `one`, `y'all`) or none (`Maybe take 8.`) makes it the reply's own work,
# whose values explain nothing unless the question or the working states them.
_STORY_PRONOUNS = frozenset("""
    she he they it ella él ellos ellas er sie es elle il ils elles она он они оно ela ele eles elas
    lei lui loro
""".split())  # noqa: SIM905 (a word list reads better as words)
_STORY_DETERMINERS = frozenset("the her his their its each every both".split())  # noqa: SIM905
# Words that open a story sentence before its subject (`So she ate 3.`, `Then Tom took 2.`) and
# auxiliaries between its subject and its verb (`Elle a mangé 3.`).
_STORY_OPENERS = frozenset("""
    so then and but thus therefore hence now later first next after since because as when once while finally
    y luego entonces pero und dann aber et puis donc mais и потом затем но
""".split())  # noqa: SIM905 (a word list reads better as words)
_AUXILIARIES = frozenset("a ha hat has have had avait ont".split())  # noqa: SIM905
# A name: one capital and small letters of the Latin alphabet (`Tom`, `Mia`), no look-alike
# of another script (`Wе`).
_NAME = re.compile(r"[A-Z][a-z]+")
_NOT_NAMES = frozenset("""
    i me my we us our you your ye thou thee one ones y'all yall ya u let let's lets myself ourselves
    yourself yourselves someone somebody anyone anybody everyone everybody nobody
""".split())  # noqa: SIM905 (a word list reads better as words)
"""Capitalized words of the first and second person, and the indefinite ones, that are no
name (`So We took 8.`, `Let's take 8.`, `One takes 8.`): a closed class of pronouns."""


def _story_subject(words: list[str], raw: list[str], verb: str) -> bool:
    """Whether the words before a story verb (`verb`, of `_ACTING` or `_HOLDING`; `raw`, the
    same words as written) are a known subject of the problem's story (`_STORY_PRONOUNS`, a
    determiner with its noun, a name, joined by `and`), past an opener (`_STORY_OPENERS`) and
    before an auxiliary (`_AUXILIARIES`). A name takes no bare verb (`Just take 8.`), and a
    hedge is no name (`Probably ate 8.`)."""
    at = 0
    while at < len(words) and words[at] in _STORY_OPENERS:
        at += 1
    end = len(words)
    while end > at + 1 and words[end - 1] in _AUXILIARIES:
        end -= 1
    # the words right before the verb, or those that open the clause when the verb is joined to
    # an earlier one (`She started with 10 and ate 3.`)
    if _known_subject(words[at:end], raw[at:end], verb):
        return True
    return end - at > 1 and words[end - 1] in _JOINING_VERBS and any(
        _known_subject(words[at:stop], raw[at:stop], verb) for stop in range(at + 1, min(at + 4, end))
        if words[stop] not in _JOINING_VERBS)


# What joins a verb to an earlier one of the same subject (`She started with 10 and ate 3.`).
_JOINING_VERBS = frozenset("and then y und et и".split())  # noqa: SIM905


def _known_subject(subject: list[str], raw: list[str], verb: str) -> bool:
    """Whether words are a known subject of the story (`_story_subject`)."""
    if not subject or len(subject) > 5:
        return False
    for group, written in zip(" ".join(subject).split(" and "), " ".join(raw).split(" and "), strict=False):
        names = group.split()
        if len(names) == 1 and names[0] in _STORY_PRONOUNS:
            continue
        if len(names) in (2, 3) and names[0] in _STORY_DETERMINERS and not _NOT_NAMES.intersection(names):
            continue
        if (len(names) == 1 and _NAME.fullmatch(written.strip()) and names[0] not in _NOT_NAMES
                and names[0] not in _JUDGING_WORDS and verb not in _BARE_ACTING):
            continue
        return False
    return True


def _explains(sentence: str, answer: str) -> bool:
    """Whether a short sentence with a value after the box is an explanation, so its values
    are operands and cases: it opens as an explanation (`_EXPLAINING`) and says something
    past the opener (an operation, or a word before its value: `Since she ate 3.`, `Check: 3
    + 7 = 10.`; not `Because 8.`, `Here, 8.`, `Because 8 works.`), or it is an equation that
    checks the box (`(10 − 3 = 7)`), or a part or multiple of the box told in words, which holds
    (`_part_of_the_box`: `Half of that is 6.` after a box of 12). An equation whose stated result is another value than the
    box's (`(3 + 4 = 8)`, `Check: 10 - 3 = 8.`) is no check. (A story sentence, `She ate 3.`,
    is the story's where the question states its values: `_story_action`.)"""
    opener = _EXPLAINING.match(sentence)
    if _states_another_result(sentence, answer) or _leaves_another_value(sentence, answer):
        return False
    if _part_of_the_box(sentence, answer):
        return True  # `Half of that is 6.` after a box of 12: the box is its operand
    if opener is not None:
        said = sentence[opener.end():]
        if _LETTERS.search(_DIGITS.split(said, maxsplit=1)[0]) or _CHECK_OPERATION.search(said):
            return True
    sides = sentence.strip(" ()[]*_").split("=")
    results = [_RESULT_SIDE.fullmatch(side) for side in sides if not _CHECK_OPERATION.search(side)]
    return len(sides) == 2 and any(_CHECK_OPERATION.search(side) for side in sides) and any(
        result is not None and _value_differs(result.group("value"), answer) is False for result in results)


def _part_of_the_box(sentence: str, answer: str) -> bool:
    """Whether a sentence tells a part or a multiple of the box, by a word of the box (`that`,
    `it`, `this`, `the answer`, `the total`), as a value that holds (`_PART_OF_BOX`: `Half of
    that is 6.`, `Twice that is 24.` after a box of 12; not `Half of that is 5.`): an operation
    on the box, checked as an equation is (`_explains`)."""
    found = _PART_OF_BOX.fullmatch(sentence.strip(" .!"))
    box = number_value(answer)
    stated = number_value(found.group("value")) if found is not None else None
    return found is not None and box is not None and stated is not None and (
        stated == _PARTS[" ".join(found.group("part").lower().split())] * box)


# A part or multiple word right before a restating form (`Half of| that is 6`), as the
# sentence is read (number words as digits: `three times` is `3 times`).
_PART_BEFORE = re.compile(r"(?<![^\W\d_])(?i:half|twice|double|triple|times)\s+(?i:of\s+)?$")
_PARTS = {"half": Fraction(1, 2), "twice": Fraction(2), "double": Fraction(2), "triple": Fraction(3),
          "3 times": Fraction(3)}
_PART_OF_BOX = re.compile(
    r"(?i:(?:and|so|thus|then)\s+)?(?P<part>(?i:half|twice|double|triple|3\s+times))(?:\s+(?i:of))?\s+(?i:that|this|it|the\s+(?:answer|total|result))\s+"
    r"(?i:is|was|would\s+be|equals|makes|gives|=)\s+(?P<value>\d+(?:\.\d+)?)(?:\s+[^\W\d_]+){0,2}")


def _story_action(sentence: str) -> bool:
    """Whether a subject of any person, or none after an opening word, does to a value what a
    problem's people do or had at its start (`_ACTING`, `_STARTING`: `She ate 3.`, `Mia had 10.`, `So we ate 8.`, `Let's take 8.`, `Maybe take
    8.`): its values are the story's only where the question or the working states them."""
    words = [word.lower() for word in _LETTERS.findall(sentence)]
    return any(at > 0 and (word in _ACTING or word in _STARTING) for at, word in enumerate(words))


def _story_told(sentence: str) -> bool:
    """Whether a known subject of the problem's story (`_story_subject`: `She`, `Tom and Mia`,
    `Her friend`, `Ella`) does to a value what its people do (`_ACTING`), right before the
    verb in the sentence's last clause before it (`She ate 3.`, `So Tom took 2.`, `Elle a mangé
    3.`): the story told back, whatever its values."""
    for verb in _WORD_AT.finditer(sentence):
        word = verb.group(0).lower()
        if word not in _ACTING and word not in _STARTING:
            continue
        clause = _CLAUSE_BREAK.split(sentence[:verb.start()])[-1]
        raw = _LETTERS.findall(clause)
        return bool(raw) and _story_subject([w.lower() for w in raw], raw, word)
    return False


_WORD_AT = re.compile(r"[^\W\d_]+")
_CLAUSE_BREAK = re.compile(r"[,;:()\[\]—–!?]")


# Words that state what a story's action leaves (`leaving 8`, `8 remain`, `has 8 left`).
_LEAVES = re.compile(r"(?<![A-Za-z])(?:leaving|leaves|left|remain|remains|remaining|remained|kept|keeps|keeping|"
                     r"leftover|left-over|stayed|stays|rest|still)(?![A-Za-z])", re.IGNORECASE)


def _leaves_another_value(sentence: str, answer: str) -> bool:
    """Whether a part of a story sentence (between commas or `and`) says what is left, and
    every number of that part is another value than the box's (`They sold 3, leaving 8.`, `He
    ate 3 and has 8 left.` after a box of 7; not `She ate 3, leaving 7.`)."""
    for part in re.split(r",|;|(?<![A-Za-z])and(?![A-Za-z])", sentence):
        numbers = re.findall(r"\d+(?:\.\d+)?", part)
        if _LEAVES.search(part) and numbers and all(
                _value_differs(number, answer) is True for number in numbers):
            return True
    return False


def _states_another_result(text: str, answer: str) -> bool:
    """Whether `text` is an equation of an operation whose result, a side with no operation
    and no word, is a number other than the box's `answer` and no operand is the box's value
    (`3 + 4 = 8`, `2 \\times 3.5 = 8` after a box of 7, `Check: 10 - 3 = 8`; not `Check: 3 + 7 =
    10`): a statement of another value, not a check of the box."""
    opener = _EXPLAINING.match(text)
    body = text[opener.end() if opener is not None else 0:]
    sides = body.strip(" ()[]*_$").split("=")
    operations = [side for side in sides if _CHECK_OPERATION.search(side)]
    results = [_RESULT_SIDE.fullmatch(side) for side in sides if not _CHECK_OPERATION.search(side)]
    # (a chain's result too, after a label: `Total = 10 - 2 = 8`, `Left = 10 - 2 = 8`)
    if not (len(sides) >= 2 and bool(operations) and any(
            result is not None and _value_differs(result.group("value"), answer) is True for result in results)):
        return False
    equation = _EQUATION.search(body.replace("−", "-"))
    if equation is None or "=" not in equation.group(0) or not _holds(equation.group(0)):
        return True
    before = text[:len(text) - len(body) + equation.start()]
    if _tells_the_result(before, body[equation.start() + equation.group(0).rindex("="):], answer):
        return True  # `Total: 7 + 1 = 8 apples.`, `Step 2: 10 - 2 = 8 left.`: the result offered
    if any(_value_differs(operand, answer) is False  # `Check: 3 + 7 = 10.`: the box is an operand
           for side in operations for operand in re.findall(r"\d+(?:\.\d+)?", side)):
        return False
    # a true step of the working, told as one (`Since 5 × 2 = 10.`, `Step 1: 5 × 2 = 10.`,
    # `Bob has 2 + 3 = 5.`): its result is an intermediate value, not another answer
    return not _tells_a_step(before)


def _tells_the_result(before: str, after: str, answer: str) -> bool:
    """Whether the words around a true equation after the box tell its result as what the
    problem asks, so it is no step nor check of the box: what is left (`_leaves_another_value`
    of what follows its `=`: `10 - 2 = 8 apples left`, `= 8 remain`, `= 8, so 8 apples are
    left`, where that is another value than the box's), or the total, by a label before it that
    no check opens (`_TOTAL`: `Total: 7 + 1 = 8 apples.`; not `As a check, 3 + 7 = 10 apples in
    total.`)."""
    return _leaves_another_value(after, answer) or (
        _TOTAL.search(before) is not None and _CHECKING.search(before) is None)


_TOTAL = re.compile(r"(?<![^\W\d_])(?i:total|altogether|in\s+all)(?![^\W\d_])")


# The result side of an equation after the box: a number, with the words of what it counts
# (`8 apples`) and a closing mark (`8 ✓`, `8,`).
_RESULT_SIDE = re.compile(r"\s*+\$?\s*+(?P<value>-?\d++(?:\.\d++)?)\s*+\$?(?:\s*+[^\W\d_]++(?:\s++[^\W\d_]++){0,2})?"
                          r"[\s.,;!)\]✓✔✅]*+")


def _holds(equation: str) -> bool:
    """Whether an equation of prose arithmetic (`_EQUATION`: `5 × 2 = 10`) is true: every side
    has one exact value, the same (`7 − 0 = 8`, `3 + 4 = 8` are false)."""
    sides = [_as_latex(side.strip(" ()")) for side in equation.split("=")]
    return len(sides) >= 2 and all(_value_differs(side, sides[0]) is False for side in sides[1:])


def _tells_a_step(before: str) -> bool:
    """Whether the words before an equation after the box tell it as a step of the working
    (an allow-list): an explanation's opener that is no check of the answer (`Since`, `Note
    that`, `Because`; not `Check:`), a step's label or an ordinal (`Step 1:`, `First,`), or a
    subject doing or having what a problem's people do (`She bought`, `Bob has`, `_ACTING`,
    `_HOLDING`). `Check: 1 × 8 = 8.`, `Explanation: 3 + 5 = 8.`, `So the answer is 3 + 5 = 8`
    and a bare `(4 + 4 = 8)` offer its result as the answer; so does one after other words
    (`Since the answer is 3 + 5 = 8.`)."""
    head = before.strip(" ()*_")
    opener = _EXPLAINING.match(head)
    if opener is not None and _CHECKING.match(opener.group(0).lstrip("(")):
        return False
    told = opener is not None
    head = head[opener.end():] if opener is not None else head
    label = _STEP_LABEL.match(head.strip(" ()*_"))
    if label is not None:
        told, head = True, head.strip(" ()*_")[label.end():]
    raw = _LETTERS.findall(head)
    if not raw:
        return told
    return len(raw) > 1 and (raw[-1].lower() in _ACTING or raw[-1].lower() in _HOLDING) and _story_subject(
        [word.lower() for word in raw[:-1]], raw[:-1], raw[-1].lower())


# An explanation's opener that checks the answer (`Check:`, `Verification:`, `To verify`):
# an equation it opens with another result offers that result.
_CHECKING = re.compile(r"(?i:check|verif|to\s+(?:check|verify|confirm))")
# A step's label or an ordinal before an equation of the working (`Step 1:`, `First,`).
_STEP_LABEL = re.compile(r"(?i:(?:step|schritt|paso|étape|etapa|шаг)\s*\d{1,2}\s*[:.)]?|(?:first(?:ly)?|"
                         r"second(?:ly)?|third(?:ly)?|next|then)(?![^\W\d_])\s*,?)")
# Verbs of what a problem's people have (`Bob has 2 + 3 = 5.`), beside `_ACTING`.
_HOLDING = frozenset("has have had owns owned needs needed holds hold held contains".split())  # noqa: SIM905


def _unexplained_values(sentence: str, answer: str) -> list[tuple[str, bool]]:
    """The values other than the box's `answer` that a sentence after it longer than
    `_SHORT_REMARK` words states and no known harmless form explains: not the box's value (to
    its printed precision), not an operand (`3 + 4`), not a step's label (`Step 3`), not one
    rejected where it stands (`_rejected_near`: `8 cannot be the answer, since ...`), and not a number
    of an equation one side of which is the box's value (`This is because 3 + 4 = 7, the 3
    apples eaten plus the 4 left.`: its 3 and 4 are the check's, wherever the sentence names
    them), nor in a clause where the problem's people act on it (`_story_action`: `She
    started with 10 and ate 3, so 7 remain.`) unless it says another value is left
    (`_leaves_another_value`: `She ate 3, so 8 remain.`). A true equation is a step where the
    words before it tell one (`_tells_a_step`) or the sentence concludes the box's value
    (`_concludes_the_box`), unless they tell its result as what is left or the total
    (`_tells_the_result`). The result of an equation that equals no value of the box is stated (`Counting
    again, 3 + 5 = 8 apples remain.`). The working's and the question's numbers are excused
    by the callers, who hold them (`numbers_stated`)."""
    checked: set[Fraction | None] = set()
    results: list[str] = []
    concluded = _concludes_the_box(sentence, answer)
    for equation in _EQUATION.finditer(sentence):
        if "=" not in equation.group(0):
            continue
        sides = [side.strip(" ()") for side in equation.group(0).replace("−", "-").split("=")]
        before = _STEP_CLAUSES.split(sentence[:equation.start()])[-1]
        result = sentence[equation.start() + equation.group(0).rindex("="):]
        if any(_value_differs(side, answer) is False for side in sides) or (
                _holds(equation.group(0)) and (_tells_a_step(before) or concluded)  # (`Since 5 × 2 = 10, ...`)
                and not _tells_the_result(before, result, answer)):  # (not `Then 10 - 2 = 8 are left.`)
            checked.update(number_value(number) for number in _PROSE_NUMBER.findall(equation.group(0)))
        elif not _rejected_span(sentence, equation.start(), equation.end(), answer):
            # its results (a side with no operation) are stated values, unless the equation is
            # rejected where it stands (`Avoid the mistake of adding: 10 + 3 = 13.`)
            results.extend(side for side in sides if _PROSE_NUMBER.fullmatch(side))
    values: list[tuple[str, bool]] = []
    for clause in _clauses(sentence):
        if _later_event(clause):
            continue  # `Tomorrow she will buy 8 more.`: the story goes on past the question's time
        bounds = [0, *(mark.end() for mark in _STORY_CLAUSES.finditer(clause)), len(clause) + 1]
        acted = [(start, stop) for start, stop in itertools.pairwise(bounds)
                 if _story_told(clause[start:stop]) and not _leaves_another_value(clause[start:stop], answer)]
        derived = _derived_values(clause, answer)
        numbers = [number for number in itertools.chain(_SENTENCE_NUMBER.finditer(clause),
                                                        _LISTED_NUMBER.finditer(clause))
                   if not _LABELLED.search(clause, 0, number.start()) and _other_value(clause, number, answer)
                   and number_value(number.group(0)) not in checked and number.start() not in derived]
        # (a value rejected once is rejected where the clause names it again: `It can't be 8
        # because 8 apples would exceed the basket.`)
        rejected = {number_value(number.group(0)) for number in numbers if _rejected_near(clause, number, answer)}
        values.extend((number.group(0), any(start <= number.start() < stop for start, stop in acted))
                      for number in numbers if number_value(number.group(0)) not in rejected)
        values.extend((result, False) for result in results if result in clause and _value_differs(result, answer) is True)
    return list(dict.fromkeys(values))


# Where a longer sentence after the box splits into clauses read apart: a semicolon, but not
# one before a contrast that goes on with the clause before it (`..., she would have 8; but she
# ate 3.`: the what-if and its rejection, one clause, as after a comma).
_CLAUSE_SPLIT = re.compile(r";(?!\s*+(?i:but|yet|whereas)(?![^\W\d_]))")


def _clauses(sentence: str) -> list[str]:
    """A longer sentence's clauses (`_CLAUSE_SPLIT`), but a what-if (`_CONDITION`) and the
    statement of fact after its semicolon (`_story_action`: `If she had eaten 2, she would have
    8; she ate 3.`) are one clause, read together as after `; but` (`_REJECTED_CONDITION`)."""
    clauses: list[str] = []
    for clause in _CLAUSE_SPLIT.split(sentence):
        if clauses and ";" not in clauses[-1] and _CONDITION.match(clauses[-1]) and _story_action(clause):
            clauses[-1] = f"{clauses[-1]};{clause}"
        else:
            clauses.append(clause)
    return clauses


# A later time that opens a clause (`Tomorrow`, `Next week`, `Later`): what the story's people
# will do then is an event after the question's time.
_LATER_TIME = re.compile(r"\s*+(?i:tomorrow|later|afterwards?|next\s++(?:day|week|month|year|time))(?![^\W\d_])")


def _later_event(clause: str) -> bool:
    """Whether a clause tells an event after the question's time, known harmless (an
    allow-list): a later time opens it, then `will` and a verb of what the story's people do
    (`_ACTING`: `Tomorrow she will buy 8 more.`), in one clause (no clause mark past the time,
    no word that concludes), no word that offers a result (`_RESULT_WORDS`: not `Tomorrow she
    will have 8 left.`) and no negation; its one value the act's, within two words of its verb,
    followed by at most three words that go on to no other act or value (not `Tomorrow she will
    buy 1 more to have 8.`, `... and have 8.`, `... → 8.`, `... = 8.`: a later result)."""
    if _LATER_TIME.match(clause) is None or _RESULT_WORDS.search(clause) or _CLAUSE_BREAK.search(
            clause, _LATER_TIME.match(clause).end() + 1) or _CONCLUDING.search(clause):  # type: ignore[union-attr]
        return False  # (one clause only: not `Tomorrow she will eat 8, so 8.`)
    numbers = _PROSE_NUMBER.findall(clause)
    if len(numbers) != 1 or _LATER_SIGN.search(clause):
        return False  # (one value, the act's: not `..., buy 1 more to have 8`, `buy 1 more = 8`)
    tokens = [token.lower() for token in _READ_TOKEN.findall(clause)]
    value = next(at for at, token in enumerate(tokens) if token[0].isdigit())
    acted = any(token == "will" and tokens[at + 1:at + 2] and tokens[at + 1] in _ACTING and at + 1 < value <= at + 4
                for at, token in enumerate(tokens))
    after = tokens[value + 1:]  # (what the act's value counts: `more`, `apples`; no verb, no more)
    return acted and len(after) <= 3 and not any(word in _ACTING or word in _HOLDING or word in _GOES_ON for word in after) and not (
        any(word in _NEGATION_WORDS for word in tokens))


# A sign in a later event's clause (`= 8`, `→ 8`, `+ 1`): it makes a value of the act's.
_LATER_SIGN = re.compile(r"[-+=*/^×÷·−<>≈]|\\[A-Za-z]|" + _ARROW.pattern)
# Words that go on past a later act's value to another (`and`, `to`, `then`, `making`).
_GOES_ON = frozenset("and to then so making makes giving gives for until".split())  # noqa: SIM905


def _derived_values(clause: str, answer: str) -> set[int]:
    """Where the values of a longer clause after the box start that the clause derives in
    words, as a true step derives its result, and offers as no result (no word of the answer,
    a total or what is left between the commas around it: `_RESULT_WORDS`):

    - a part or multiple of a value, told as one and true (`_PART_OF_VALUE`: `half of the 10
      apples would be 5`; `half of that is 6`, where `that` is the clause's last value before
      it, or the box: the 12 of `4 \\times 3 = 12 dollars`);
    - under a condition the reply sets (`_CONDITION`: `If he paid with a 20-dollar bill, he
      would get 8 dollars back.` after a box of 12), a value of its consequence that one
      operation makes of the box and a value of the condition (20 - 12 = 8), and that value of
      the condition, assumed: a what-if of the answer, not another answer.

    A value told again elsewhere in the clause is read there (`Half of that is 12, so he spends
    12.`: the second 12)."""
    box = number_value(answer)
    derived: set[int] = set()
    for part in _PART_OF_VALUE.finditer(clause):
        operand = part.group("operand")
        if operand[0].isdigit():
            base = number_value(operand)
        else:  # `that`, `it`: the clause's last value before it, else the box
            before = _PROSE_NUMBER.findall(clause, 0, part.start())
            base = number_value(before[-1]) if before else box
        factor = _PARTS.get(" ".join(part.group("part").lower().split()))
        if factor is None:  # `3 times`
            factor = number_value(part.group("part").split()[0])
        value = number_value(part.group("value"))
        if base is not None and factor is not None and value is not None and value == factor * base:
            derived.add(part.start("value"))
    condition = _CONDITION.match(clause)
    # (a value the story denies, `but she ate 3 (not 2)`, `..., not 2`, `rather than 2`, is no
    # value it tells: blanked, to the same length, before the story is read)
    denied = list(_DENIED_VALUE.finditer(clause)) if condition is not None else []
    told = _DENIED_VALUE.sub(lambda found: " " * len(found.group(0)), clause) if denied else clause
    rejected = _REJECTED_CONDITION.search(told, condition.end()) if condition is not None else None
    if condition is not None and rejected is not None and _story_rejects(clause[:condition.end()], rejected.group("story")):
        # `If she had eaten 2, she would have 8, but she ate 3.`: the story told after `but`
        # rejects the condition, so its values and its consequence's are a what-if, and so are
        # those it denies (the story's own are read as a story's); a story told with a hedge
        # or a negation rejects nothing (`but perhaps she ate 3`, `but I'm not sure she ate 3`)
        derived.update(number.start() for number in _SENTENCE_NUMBER.finditer(clause, 0, rejected.start()))
        derived.update(number.start() for found in denied if found.start() >= rejected.start()
                       for number in _SENTENCE_NUMBER.finditer(clause, found.start(), found.end()))
    elif condition is not None and box is not None:
        for given in _PROSE_NUMBER.finditer(clause, 0, condition.end()):
            value = number_value(given.group(0))
            made = {value + box, abs(value - box), value * box, *([box / value] if value else []),
                    *([value / box] if box else [])} if value is not None else set()
            consequences = [number.start() for number in _SENTENCE_NUMBER.finditer(clause, condition.end())
                            if number_value(number.group(0)) in made
                            and not _acted_before(clause, condition.end(), number.start())]
            if consequences:  # (the condition's value, assumed, and what it makes of the box)
                derived.update([given.start(), *consequences])
    return {at for at in derived if not _offered_as_result(clause, at)}


# Adverbs a plain story may tell its action with (`but she actually ate 3`).
_PLAIN_ADVERBS = frozenset("actually really indeed only just in fact".split())  # noqa: SIM905


def _story_rejects(condition: str, story: str) -> bool:
    """Whether the story told after a what-if's `but` rejects its condition (`condition`): told
    plainly (`_plain_story`), with an act of the story (`_story_action`) of other values than the
    condition's (`_told_otherwise`) and judging nothing (`_judging_words`: `but perhaps she ate
    3`); or opened by the condition denied (`_NEGATED_CONDITION`: `but she did not`, `but she
    never did`, `but no`, `but that is not the case`), alone or before such a story (`but she
    did not: she ate 3`). A negation in any other place (`but I'm not sure she ate 3`) rejects
    nothing."""
    denied = _NEGATED_CONDITION.match(story)
    if denied is not None:
        story = story[denied.end():]
        if not story.strip(" \t.!"):
            return True
    return _story_action(story) and _told_otherwise(condition, story) and not _judging_words(story) and (
        _plain_story(story))


# A what-if's condition denied at the opening of the story after its `but` (an allow-list:
# `no`, a pronoun and an auxiliary negated, `never`, `that is not the case`), then the end, or a
# mark before the story that follows (`_story_rejects`).
_NEGATED_CONDITION = re.compile(
    r"\s*+(?i:no|nope|(?:she|he|they|it|i|we|you|that|this)(?:\s++(?:did|does|do|was|were|is|are|had|has|have)"
    r"(?:\s++not|n[\'\u2019]t)|[\'\u2019]s\s++not|\s++never(?:\s++did)?)(?:\s++(?:the\s++case|happen|so|true))?)"
    r"[ \t]*+(?:[:,.!\u2013\u2014]\s*+|$)")


def _plain_story(story: str) -> bool:
    """Whether the story told after a what-if's `but` is told plainly, by an allow-list: no
    question (`but she ate 3?`), and before its first value only a story's subject (a pronoun,
    a name, a determiner and its noun), openers, auxiliaries, its verb and plain adverbs
    (`_PLAIN_ADVERBS`); any other word (`but she supposedly ate 3`) leaves it unknown, so it
    rejects nothing."""
    if _QUESTION.search(story):
        return False
    value = _DIGITS.search(story)
    words = _LETTERS.findall(story[:value.start()] if value else story)
    for at, word in enumerate(words):
        lower = word.lower()
        if not (lower in _STORY_PRONOUNS or lower in _STORY_OPENERS or lower in _AUXILIARIES or lower in _ACTING
                or lower in _STARTING or lower in _PLAIN_ADVERBS or lower in _STORY_DETERMINERS
                or (_NAME.fullmatch(word) and lower not in _NOT_NAMES)
                or at and words[at - 1].lower() in _STORY_DETERMINERS):
            return False
    return True


def _told_otherwise(condition: str, story: str) -> bool:
    """Whether the story told after a what-if's `but` (`story`) tells other values than its
    condition's (`condition`), known by reading them: each has a value, and every value the
    story tells differs from every value of the condition, an expression read as the value it
    makes (`but she ate 1 + 1` tells the condition's 2 again, `but she ate exactly that many`
    tells no value: neither rejects `If she had eaten 2, ...`)."""
    told, given = _values_told(story), _values_told(condition)
    return bool(told) and bool(given) and all(
        _value_differs(value, other) is True for value in told for other in given)


def _values_told(text: str) -> list[str]:
    """The values `text` tells: each chain of arithmetic (`_EQUATION`: `1 + 1`, `4 - 2`) as
    one, and each number outside them, as LaTeX (`_as_latex`) for `_value_differs`."""
    values: list[str] = []
    spans: list[tuple[int, int]] = []
    for chain in _EQUATION.finditer(text):
        values.extend(_as_latex(side) for side in chain.group(0).replace("−", "-").split("="))
        spans.append(chain.span())
    values.extend(number.group(0) for number in _PROSE_NUMBER.finditer(text)
                  if not any(start <= number.start() < stop for start, stop in spans))
    return values


def _acted_before(clause: str, start: int, at: int) -> bool:
    """Whether the consequence of a what-if (from `start` to its value at `at`) tells a verb
    of the story's people (`_ACTING`, `_BARE_ACTING`: `he would pay 8 dollars`, the act a question asks
    of them): the value is the story's result under the condition, offered as another answer,
    not a value the condition makes of the box (`he would get 8 dollars back`)."""
    return any(word.lower() in _ACTING or word.lower() in _BARE_ACTING for word in _LETTERS.findall(clause, start, at))


def _offered_as_result(clause: str, at: int) -> bool:
    """Whether the words around a value at `at` of a clause offer it as the result: between
    the commas around it, and in a relative clause or an apposition right after it (`, which
    is what he spends`, `, the total`), a word of the answer, a total or what is left
    (`_RESULT_WORDS`), or there a verb of the story's people (`_ACTING`, `_HOLDING`)."""
    start = clause.rfind(",", 0, at) + 1
    stop = clause.find(",", at)
    if stop < 0:
        return _RESULT_WORDS.search(clause, start) is not None
    if _RESULT_WORDS.search(clause, start, stop):
        return True
    following = clause.find(",", stop + 1)
    apposition = clause[stop + 1:following if following >= 0 else len(clause)]
    if _APPOSITION.match(apposition) is None:
        return False
    words = {word.lower() for word in _LETTERS.findall(apposition)}
    return _RESULT_WORDS.search(apposition) is not None or bool(words & (_ACTING | _HOLDING))


# What opens a relative clause or an apposition said of the value before its comma (`, which
# is what he spends`, `, the total`, `, i.e. the answer`).
_APPOSITION = re.compile(r"(?<!\s)\s*+(?i:which|that|what|the|i\.?e\.?|namely)(?![^\W\d_])")


# A part or multiple of a value told in words, and what it is (`half of the 10 apples would be
# 5`, `twice that is 24`, `3 times 4 gives 12`), as the clause is read (number words as digits).
_PART_OF_VALUE = re.compile(
    r"(?<![^\W\d_])(?P<part>(?i:half|twice|double|triple|\d{1,3}\s++times))\s++(?i:of\s++)?(?i:the\s++)?"
    r"(?P<operand>\d++(?:\.\d++)?|(?i:that|this|it)(?![^\W\d_]))(?:\s++[^\W\d_]++){0,2}?\s++"
    r"(?i:is|was|would\s++be|will\s++be|equals|makes|gives|=)\s++(?P<value>\d++(?:\.\d++)?)(?![\d.])")
# A condition the reply sets at a sentence's start, to its comma (`If he paid with a 20-dollar
# bill,`, `Suppose she had 12,`).
# An inversion opens one too (`Had she eaten 2,`), and a comma may be left out before the
# consequence's modal (`If she had eaten 2 she would have 8`).
_CONDITION = re.compile(r"(?<!\s)\s*+(?i:if|suppose|supposing|assuming|had)(?![^\W\d_])[^,;]{1,120}?"
                        r"(?:,|(?=\s++[^\W\d_]++(?:\s++(?i:would|could|might|will)|['’]d)(?![^\W\d_])))")
# A clause after a what-if's consequence that tells the story otherwise (`, but she ate 3`,
# `; but she ate 3`, or a statement of fact after a semicolon with no contrast word, `; she ate
# 3`, or in the next sentence, `. She ate 3.`): the reply rejects the condition.
# (after a comma, a semicolon, a colon, a dash or in brackets; the story may go on past a comma:
# `; but she ate 3, so she has 7.`)
_TURN_OPENING = re.compile(r"\s*+(?i:but|yet|whereas)\s")
_REJECTED_CONDITION = re.compile(r"(?:(?:[,;:(]|(?<=\s)[-\u2013\u2014]++)\s*+(?i:but|yet|whereas)\s++|;\s*+)"
                                 r"(?P<story>[^;()]{1,120}?)\)?$")
# Words that offer a value as the result (the answer, a total, what is left): a value derived
# beside them is no aside (`_derived_values`).
_RESULT_WORDS = re.compile(r"(?<![^\W\d_])(?i:answer|result|solution|total|altogether|in\s+all|left|remain\w*|"
                           r"leaving|leftover)(?![^\W\d_])")


def _concludes_the_box(sentence: str, answer: str) -> bool:
    """Whether a longer sentence ends in a clause that concludes the box's value: opened by a
    word of consequence (`_CONCLUDING`), its last value the box's (`Two pens cost 2 × 3 = 6
    dollars, so four cost 12.` after a box of 12; not `..., so 8 remain.`): its true equations
    are the working that leads to the box (`_unexplained_values`), as a step's are."""
    last = _STORY_CLAUSES.split(sentence)[-1]
    numbers = _PROSE_NUMBER.findall(last)
    return _CONCLUDING.match(last) is not None and bool(numbers) and _value_differs(numbers[-1], answer) is False


_CONCLUDING = re.compile(r"(?<!\s)\s*+(?i:so|thus|hence|therefore|which\s++(?:gives|makes))(?![^\W\d_])")


def _rejected_near(clause: str, number: re.Match[str], answer: str) -> bool:
    """Whether a value in a longer sentence is rejected where it stands: `_rejects` read in
    the `_NEAR` words on either side of it (`The other candidate, 8, fails the check.`, `We
    rejected 8 earlier because ...`), not a negation anywhere in the sentence (`There is no
    doubt that the total number of apples is 8.` states 8)."""
    return _rejected_span(clause, number.start(), number.end(), answer)


def _rejected_span(clause: str, start: int, end: int, answer: str) -> bool:
    """`_rejected_near` of what stands from `start` to `end` (a number, an equation: `Avoid the
    mistake of adding: 10 + 3 = 13.`): `_rejects` read in the `_NEAR` words on either side,
    with a negation before a rejecting word among them (`It is not a mistake to say 8`:
    `_unnegated`), or a rejecting word (`_REJECTS`, `_REJECTING`; no bare negation: `I have no
    doubt the total is 8` rejects nothing) that no negation negates in the words a colon before
    it closes or the subject of its clause's first copula, at most `_NEAR` words before it and
    no clause mark or contrast between (`Avoid the common mistake of adding them: ...`, `A
    common mistake is to answer 13 instead of 7.`; not `Not a mistake: 8`, `The mistake is that
    she really has 8 apples now.`)."""
    tokens = _READ_TOKEN.findall(clause, 0, start)
    at = max(len(tokens) - _NEAR, 0)
    after = _READ_TOKEN.findall(clause, end)[:_NEAR]
    if any(token.lower() in _REJECTS or token.lower() in _REJECTING for token in tokens[at:]):
        while at > 0 and len(tokens) - at < 2 * _NEAR and tokens[at - 1].lower() in _NEGATION_FILLER:
            at -= 1
        words = [token.lower() for token in tokens]
        # (the negation before the window, or one whose `of` phrase the window opens with:
        # `None of it is wrong: 8`)
        negation = next((found for found in (_negation_ending(words, at - 1), _negation_ending(words, at))
                         if found is not None), None)
        at = min(at, negation) if negation is not None else at
    if any(token.lower() in _ERROR_WORDS for token in after):
        # a negating pronoun that opens the clause of a judgement after the value negates it
        # (`None of us thinks 8 is wrong.`; within `_NEAR` x 3 words: bounded, linear)
        pronoun = next((i for i in range(at - 1, max(at - 3 * _NEAR, 0) - 1, -1)
                        if _CLITIC.sub("", tokens[i].lower()) in _NEGATING_PRONOUNS), None)
        at = pronoun if pronoun is not None else at
    if _rejects(" ".join([*tokens[at:], clause[start:end], *after]), answer):
        return True
    # the words before a colon or the clause's first copula name what follows a mistake
    # (a negation is read over the whole clause before the value: `None of it is wrong: 8`
    # negates the judgement the copula's subject would otherwise make)
    copula = _COPULA_WORD.search(clause, 0, start)
    heads = [clause.rfind(":", 0, start), copula.start() if copula is not None else -1]
    kept = _unnegated([word.lower() for word in _LETTERS.findall(_GLUED_NOT.sub(" not", clause[:start]))])
    return any(head >= 0 and not _DIGITS.search(clause, 0, head) and not _CLAUSE_TURN.search(clause, head + 1, start)
               and len(_READ_TOKEN.findall(clause, head + 1, start)) <= _NEAR and any(
        word in _REJECTS or word in _REJECTING
        for word in kept[:len(_LETTERS.findall(_GLUED_NOT.sub(" not", clause[:head])))])
               for head in heads)


# What turns a clause between a head and its value (`A common mistake is to add them, but 8
# are left.`: the mistake names no 8): a clause mark or a contrast word.
_CLAUSE_TURN = re.compile(r"[,;]|(?<![^\W\d_])(?i:but|though|although|however|yet|instead|rather|actually)(?![^\W\d_])")
# The first copula of a clause: what stands before it is its subject (`A common mistake is ...`).
_COPULA_WORD = re.compile(r"(?<![^\W\d_])(?i:is|was|are|were|would\s++be|will\s++be)(?![^\W\d_])")


_NEAR = 3
# A chain of arithmetic in prose, an equation where it holds `=` (`3 + 4 = 7`, `10 - 3 = 7`, `(2 \\times 3) = 6`).
_EQUATION = re.compile(r"(?<![\d.(])\(*+\s*+-?\d++(?:\.\d++)?\s*+\)*+(?>\s*+(?:[-+*/^×÷·−=]|"
                       r"\\(?:times|cdot|div)(?![A-Za-z]))\s*+\(*+\s*+-?\d++(?:\.\d++)?\s*+\)*+)++")
# A numeral written in a base, with its subscript (`204_5`, `8_{10}`, `1011_{2}`).
_BASE_NUMERAL = re.compile(r"(?<![\w.])\d+\s*_\s*(?:\d+|\{\s*\d+\s*\})")
_STORY_CLAUSES = re.compile(r"[;,](?!\d)")
_STEP_CLAUSES = re.compile(r"[;,.](?!\d)")
_PROSE_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def number_value(number: str) -> Fraction | None:
    """A number as written in prose (`8`, `-3`, `2.50`), as its size, for telling whether the
    working or the question states it (`numbers_stated`); None for what is no number."""
    try:
        return abs(Fraction(number))
    except (ValueError, ZeroDivisionError):
        return None


def numbers_stated(text: str) -> frozenset[Fraction]:
    """The numbers `text` states (in digits or words, `ten` as 10; a thousands comma read;
    signs dropped), as `number_value` reads them: the working before a box, or a question,
    whose numbers a longer sentence after the box may name (`_unexplained_values`). Linear."""
    found = _PROSE_NUMBER.findall(_THOUSANDS_COMMA.sub("", numbers_in_words(text)))
    return frozenset(value for value in map(number_value, found) if value is not None)


_READ_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?|\d+(?:\.\d+)?")


def _remark_length(sentence: str) -> int:
    """How many words a sentence after the box has, as `_SHORT_REMARK` counts them: its
    distinct words and its distinct numbers; dashes, emoticons and a word or number said again
    are no words (`Also — — — 8.`, `Also, 8, 8, 8, 8.`, `Thanks, thanks, thanks, 8.` are
    two): padding makes no sentence long enough to go unread."""
    tokens = _READ_TOKEN.findall(sentence)
    return len({token.lower() for token in tokens if not token[0].isdigit()}) + len(
        {token for token in tokens if token[0].isdigit()})


def _names_counted(char: str, text: str, end: int) -> bool:
    """Whether a symbol after the box names what the box counts, a word of the first three
    after it (`$\\boxed{7}$ apples. 🍎`: the Unicode name `RED APPLE` holds `apple`): the
    thing counted, not a remark."""
    name = unicodedata.name(char, "").lower().split()
    if not name:
        return False
    words = {word.lower() for word in _LETTERS.findall(text, end, min(len(text), end + _WORDS_MAX))[:3]}
    nouns = words | {word[:-1] for word in words if word.endswith("s")} | {
        word[:-2] for word in words if word.endswith("es")}
    return any(len(part) > 2 and part in nouns for part in name)


def _symbol(char: str) -> bool:
    """Whether `char` is a symbol a reader reads as saying something (Unicode So: emoji,
    pictographs, dingbats; the interrobang and the doubled question marks), not a letter, a
    digit, sentence punctuation or a mathematical sign."""
    return unicodedata.category(char) == "So" or char in "‽⁇⁈⁉"


def _rejects(sentence: str, answer: str) -> bool:
    """Whether a sentence with a value other than the box's rejects it: a negation or a word
    known to reject a value (`_REJECTS`) stands in it past an opening interjection (`No, 8.`
    and `Nein, 8.` correct the box to 8; `Not 8.`, `Mia can't have 8.`, `We rejected 8.`,
    `The other candidate, 8, fails the check.` reject 8), and no word that contrasts a second
    value with it (`Not 7 but 8.`, `_CONTRASTS`). A negation of the box's own value rejects
    the box, not the other value (`Not 7, 8.`)."""
    body = _INTERJECTION.sub("", _GLUED_NOT.sub(" not", sentence), count=1)
    tokens = _READ_TOKEN.findall(body)
    words = [word.lower() for at, word in enumerate(tokens) if not word[0].isdigit() and not (
        tokens[at + 1:at + 2] and tokens[at + 1][0].isdigit() and _value_differs(tokens[at + 1], answer) is False)]
    # (a contrast word contrasts a value only where another value than the box's follows it:
    # `A common mistake is 13 (adding instead of subtracting).` contrasts two operations, `13
    # instead of 7` names 13 the mistake beside the box's value)
    contrasted = any(token.lower() in _CONTRASTS and any(
        later[0].isdigit() and _value_differs(later, answer) is not False for later in tokens[at + 1:])
                     for at, token in enumerate(tokens))
    return any(word in _REJECTS or word in _REJECTING or word in _NEGATION_WORDS
               for word in _unnegated(words)) and not contrasted


def _negates_a_judgement(sentence: str) -> bool:
    """Whether a sentence negates a judgement of error (`_unnegated`: `not a mistake`, `no
    error`, `not wrong`)."""
    words = [word.lower() for word in _LETTERS.findall(_GLUED_NOT.sub(" not", sentence))]
    return _unnegated(words) != words


# Words that judge a value an error (a noun or an adjective): a negation before one cancels it
# (`not a mistake`, `not wrong`); a verb that rejects stays a rejection when negated as an
# imperative (`Don't confuse this with 8.`).
_ERROR_WORDS = frozenset("""
    mistake mistakes error errors wrong incorrect false invalid mistaken erroneous
""".split())  # noqa: SIM905 (a word list reads better as words)


# Pronouns that negate a judgement after them as `not` does (`Nothing wrong with 8.`, `none
# of it is wrong`, `nichts falsch`); not negations elsewhere (`Nothing but 8.` rejects nothing).
# A negating pronoun or determiner negates the judgement of its clause wherever it stands
# before it (`Nobody would say 8 is wrong.`, `Neither is wrong: 8.`, `Ningún error en 8.`), and
# with a clitic too (`nothing's wrong`).
_NEGATING_PRONOUNS = frozenset("""
    nothing none nobody neither nichts rien nada niente nulla ничего никто keiner keine kein
    ningún ninguno ninguna aucun aucune nessun nessuno nessuna nenhum nenhuma
""".split())  # noqa: SIM905 (a word list reads better as words)
_CLITIC = re.compile(r"['’][^\W\d_]+$")


def _unnegated(words: list[str]) -> list[str]:
    """`words` without a word that judges a value an error (`_ERROR_WORDS`) that a negation
    negates and that negation (past articles and copulas, `_NEGATION_FILLER`; a negating
    pronoun, `_NEGATING_PRONOUNS`, also past `of` and the word it governs): `Not a mistake: 8`,
    `It is not a mistake to say 8`, `not wrong`, `Nothing wrong with 8`, `None of it is wrong:
    8` reject nothing, they affirm."""
    kept = list(words)
    pronoun: int | None = None  # the last negating pronoun so far (any distance before: linear)
    for at, word in enumerate(words):
        if word in _ERROR_WORDS:
            before = next((i for i in range(at - 1, -1, -1) if words[i] not in _NEGATION_FILLER), -1)
            negation = _negation_ending(words, before)
            if negation is None and pronoun is not None:
                negation = before = pronoun  # `Nobody would say 8 is wrong.`
            if negation is not None:
                kept[negation] = kept[before] = kept[at] = ""
        elif _CLITIC.sub("", word) in _NEGATING_PRONOUNS:
            pronoun = at
    return kept


def _negation_ending(words: list[str], at: int) -> int | None:
    """Where a negation that ends at `words[at]` starts: the word itself where it negates
    (`_NEGATION_WORDS`, `_NEGATING_PRONOUNS`, a glued `isn't`), or a negating pronoun two words
    before it that governs it by `of` (`none of it`, `nothing of this`); None for no negation."""
    if at < 0:
        return None
    if words[at] in _NEGATION_WORDS or _CLITIC.sub("", words[at]) in _NEGATING_PRONOUNS or _GLUED_NOT.search(words[at]):
        return at  # (`nothing's wrong`: the pronoun with its clitic)
    return at - 2 if at >= 2 and words[at - 1] == "of" and words[at - 2] in _NEGATING_PRONOUNS else None


def _harmless_remark(sentence: str, ending: str = "") -> bool:
    """Whether every word of a short sentence after the box is on the allow-list of what is
    known to leave the box as said: sign-offs, affirmations and courtesy (`_REMARK_WORDS`, in
    the languages replies are written in: `Done.`, `Hope this helps!`, `Ich hoffe, das
    hilft.`, `希望对你有帮助。`), and in a sentence that holds a negation (which the judging
    readers found negates no judgement: `_judges_the_answer`) the words of a remark it negates
    (`_NEGATED_REMARK_WORDS`: `No remainder.`, `Not a trick question.`, `Il n'y a pas d'autre
    solution.`). A negation of an affirming word (`_AFFIRMING`: `Not done.`, `Nothing is
    right.`) and a question that asks one (`Is that right?`, `Is that the final answer?`, by its
    `ending` mark) doubt the box: not harmless. A doubt of clarity after a condition is an
    offer to explain, not a doubt (`_CONDITIONED_REMARK_WORDS`: `Let me know if this is
    unclear.`; `This is unclear.` doubts the box)."""
    words = [part for word in _REMARK_WORD.findall(_GLUED_NOT.sub(" not", sentence))
             for part in _courtesy_words(word.lower().replace("’", "'"))]
    if ending in ("?", "？") and any(word in _AFFIRMING for word in words):
        return False
    following: str | None = None  # the next word that is no filler (read backwards: linear)
    for word in reversed(words):
        if (word in _NEGATION_WORDS or word in _NEGATING_REMARK) and following in _AFFIRMING:
            return False
        if word not in _NEGATION_FILLER:
            following = word
    negated = any(word in _NEGATION_WORDS or word in _NEGATING_REMARK for word in words)
    condition = next((at for at, word in enumerate(words) if word in _CONDITIONS), len(words))
    return all(word in _REMARK_WORDS or word in _NEGATION_WORDS or word in _NEGATING_REMARK
               or negated and word in _NEGATED_REMARK_WORDS
               or at > condition and word in _CONDITIONED_REMARK_WORDS for at, word in enumerate(words))


def _courtesy_words(word: str) -> list[str]:
    """A word of a remark as `_REMARK_WORDS` lists it: a run of Chinese or Japanese, written
    with no spaces, cut into the listed words it is made of, longest first (`希望对您有帮助`:
    `希望 对 您 有 帮助`), so a sign-off is read by its words, not as a whole listed phrase; a
    run that is not made only of listed words stays whole (not harmless). Linear: each cut
    tries at most `_CJK_WORD_MAX` lengths."""
    if word in _REMARK_WORDS or not _CJK_RUN.search(word):
        return [word]
    parts: list[str] = []
    at = 0
    while at < len(word):
        size = next((size for size in range(min(_CJK_WORD_MAX, len(word) - at), 0, -1)
                     if word[at:at + size] in _REMARK_WORDS), 0)
        if not size:
            return [word]
        parts.append(word[at:at + size])
        at += size
    return parts


_CJK_WORD_MAX = 12
_AFFIRMING = frozenset("""
    done solved complete completed finished verified checked confirmed correct right true final
    answer solution result proof proven proved sure certain valid clear
    richtig fertig correcto correcta correct correcte correto certo giusto верно правильно
""".split())  # noqa: SIM905 (a word list reads better as words)
"""Remark words that affirm the box (`Done.`, `Correct.`): negated or asked (`Not done.`, `Is
that right?`), they doubt it (`_harmless_remark`)."""


_SHORT_REMARK = 5
"""The most words of a sentence after the box's that `_unread_after_box` reads as a remark; a
longer one is an explanation (`Let me know if you have questions.`), read only for values no
known harmless form explains (`_unexplained_values`: `Each of the 3 boxes holds 4.` where the
question states 3 and 4)."""
# A sentence that opens with a pronoun and a copula (`It is 5!.`, `That is 2 hours.`, `That
# is about 97.2%.`, `It is odd.`): the form `_restated` and `_JUDGED` read, a restatement or an
# explanation of the box; `_unread_after_box` leaves it to them.
_READ_FORMS = (re.compile(r"(?:it|that|this|there)(?:['’]s|\s+(?:is|was|are|were))(?![^\W\d_])",
                         re.IGNORECASE), _RESTATES, _RESTATING_OPENER, _HEDGING_OPENER, _VALUE_FIRST,
               _RESTATES_ELSEWHERE)
_CLAUSE_MARKS = re.compile(r"[,;:]")
_REMARK_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
# A value, or an operation, one space or spacing command after the box in its own clause (not
# a compound: `\\boxed{4} 30-minute episodes`).
_SIDE_BY_SIDE = re.compile(r"(?:& ?)?(?P<value>-?\d+(?:[.,]\d+)*)(?![\d\-\u2010])|\((?P<bracketed>-?\d[^()]{60,400})\)|(?:[-+*/^×÷·]|"
                           r"\\(?:times|cdot|div|pm|mp)(?![A-Za-z])) ?(?:-?\d|\(|\{-?\d|\\(?:frac|dfrac|sqrt)"
                           r"(?![A-Za-z]))[^.;,]{0,40}")
_HARMLESS_MARKS = frozenset("✓✔✅☑👍😊🙂😀😃😄😁🎉✨★☆□■▪◻◼☐⬛°℃℉"
                            "👏🙌👌💯🚀🥳🎊🏆🌟⭐💪😎🤩")
"""Symbols after a box known to approve or close it (ticks, approving or celebrating faces and
hands, applause, trophies, stars, rockets), or to be its unit (an allow-list)."""
# A clause of the box's sentence that contrasts another value with it (`, but 8 works too`).
_CONTRAST_CLAUSE = re.compile(r"[,;]\s*(?:but|though|although|however|yet|aber|mais|pero|ma|mas|но)"
                              r"(?![^\W\d_]).*", re.IGNORECASE)
_SENTENCE_NUMBER = re.compile(r"(?:(?<![\d).,])-|(?<![\dA-Za-z.\-])(?<!\d,))\d+(?:\.\d+)?(?![\dA-Za-z])")
_THOUSANDS_COMMA = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
# The end of a sentence in a text as `_after_box` reads it (`sentence_key` drops the space
# before a mark: `./s`), and a Chinese one.
_READ_SENTENCE_END = re.compile(r"\u00b6|(?:[.?]|(?<![\d)}!])!+)(?:\s|$|(?=[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]|[^\w\s.!?]))|\n\s*\n|"
                                "[。！？\u0589\u1362\u0964\u0965\u06d4]")
# LaTeX commands and environments, which `_after_box` leaves as written: not words of a
# sentence (`\\end{align*}`, `\\blacksquare`).
_LATEX_WORD = re.compile(r"\\(?:begin|end)\s*\{[^{}]{0,20}\}|"
                         r"\\(?!(?:times|cdot|div|pm|mp|frac|dfrac|sqrt)(?![A-Za-z]))[A-Za-z]+")
# A full stop after an abbreviation of a title or a reference, or before a word in lower
# case, does not end the sentence (`Mrs. Jameson's bamboo`, `vs. the WidgetMaster 9000`).
_CONTINUED_SENTENCE = re.compile(r"(?<![^\W\d_])(?:(?i:mrs?|ms|dr|prof|st|jr|sr|vs|mt|no|fig|eq|"
                                 r"approx|etc|i\.e|e\.g|cf))\.(?=\s)|(?<=[^\W\d_])\.(?=\s+[a-z])")
# Openers of an explanation after the box, as real replies write them (`Note that ...`,
# `Alternatively, we can use the fact that ...`, `Since ...`, `Here, ...`): its values are
# operands and cases, not another answer.
_EXPLAINING = re.compile(
    r"\(?(?:(?:note|notice|observe|recall)\s+that|(?:(?:alternatively|also|similarly),?\s)?"
    r"(?:we|one|you)\s+(?:can|could|may|might|have|had)\s+(?:also\s+)?(?:use|used|express|"
    r"write|check|verify|see|note|compute|solve|confirm)|since|because|if|here|this\s+is\s+because|"
    r"to\s+(?:check|verify|confirm)|check(?:ing)?\s*:|verification\s*:|"
    r"da|weil|denn|porque|pues|ya\s+que|puisque|parce\s+que|car|perché|poiché|так\s+как|потому\s+что|"
    r"поскольку|çünkü|karena|因为|由于)(?![^\W\d_])", re.IGNORECASE)
# An interjection that opens a sentence (`No,`, `Nein,`, `Non,`, `Нет,`): it corrects, it does
# not negate what follows.
_INTERJECTION = re.compile(r"^[\s(]*[^\W\d_]+\s*[,:;!]", re.IGNORECASE)
_REJECTS = frozenset("""
    cannot none nothing neither rejected reject rejects excluded exclude excludes ruled fails
    fail failed impossible confuse careful avoid mistake mistakes error
""".split())  # noqa: SIM905 (a word list reads better as words)
_CONTRASTS = frozenset("""
    but instead rather actually aber sondern mais pero sino ma mas но а
""".split())  # noqa: SIM905 (a word list reads better as words)
_NEGATING_REMARK = frozenset("none nothing cannot".split())  # noqa: SIM905
_REMARK_WORDS = frozenset("""
    done qed q e d hope hopefully this that it its it's that's there's helps help helped helpful
    verified checked confirmed correct right true yes yep indeed good great luck thanks thank
    you cheers happy glad to is was the a an answer final solution result complete completed
    finished end all i am we are our my me let know if have has any questions question easy
    for reading makes sense matches check checks see above below agrees
    simple neat nice voilà voila there only unique enjoy solved proof proven proved and so as
    required expected desired anything else
    ich hoffe das hilft ist richtig espero que ayude isso ajude j'espère espère cela aide
    надеюсь это поможет umarım yardımcı olur semoga membantu mam nadzieję że to pomoże
    ik hoop dat dit helpt spero che questo aiuti natumaini hii inasaidia
    希望对你有帮助 お役に立てれば幸いです 도움이 되었기를 바랍니다 没有其他解 答案正确
    with your studies study feel free ask asking awesome excellent perfect cool wonderful
    fantastic amazing brilliant best wishes learning practicing keep day fun need further
    assistance welcome you're hear from
    te sirva sirve haya sido útil de ayuda ayudado buena suerte saludos viel erfolg dir ihnen
    geholfen hat habe gutes gelingen bonne chance vous t'aide aidé a été utile boa sorte ter
    ajudado buona fortuna ti sia stato помогло удачи успехов 以上です 以上
    esto explanation clarifies clarify things studying clear 希望这对你有帮助 希望能帮到你
    clears cleared up understand understanding answers answered crystal haberte ayudarte
    希望 对 对你 对您 你 您 有 帮助 这 这个 这些 解答 解释 能 帮到 如有疑问 请 随时 提问
    祝 学习 愉快 进步 谢谢 欢迎 继续 不客气 再见 好的 就是 这样
""".split())  # noqa: SIM905 (a word list reads better as words)
"""Words of a short sentence after the box known to leave it the answer (an allow-list:
`_harmless_remark`)."""
# A condition word right before a judgement's subject (`... if this is unclear.`).
_CONDITIONED = re.compile(r"(?<![^\W\d_])(?i:if|si|wenn|falls|если)\s+$")
_CONDITIONS = frozenset("if si wenn falls если".split())  # noqa: SIM905
_CONDITIONED_REMARK_WORDS = frozenset("""
    unclear confusing confused unsure anything something parts part steps step explained
""".split())  # noqa: SIM905 (a word list reads better as words)
"""Words of a remark a condition makes of the reply (`Let me know if this is unclear.`, `Feel
free to ask if any step is confusing.`): an offer to explain, harmless only after a condition
word (`_CONDITIONS`, `_harmless_remark`); `This is unclear.` alone doubts the box."""
_NEGATED_REMARK_WORDS = frozenset("""
    doubt doubts about mistake mistakes error errors typo coincidence remainder rounding calculator
    units unit trick problem issue issues more less other another negative hard too difficult
    needed need necessary matter matters order value values works work satisfies conditions
    condition simplified further be can there there's decimals fractions
    does do did is are was
    es gibt keine andere anderen lösung zahl passt zufall kein ist
    il n y n'y a pas d d'autre autre hay otra solución há outra solução
    другого решения
""".split())  # noqa: SIM905 (a word list reads better as words)
"""Words of a remark a negation makes of the box (`No remainder.`, `Not a trick question.`):
harmless only beside a negation (`_harmless_remark`); `Mistake.` alone is not a remark."""


_SHORT_JUDGEMENT = 4
# A tag question that closes a remark (`Easy, isn't it?`, `Neat, doesn't it?`): it asks for
# agreement, it negates nothing.
_TAG_QUESTION = re.compile(r"(?<![,\s])[,\s]+[^\W\d_]+n['’]t\s+(?:it|this|that|they|you|we|he|she)\s*\??$",
                           re.IGNORECASE)
# and a Chinese one (`。`, read as `.` by `sentence_key`, with no space after it)
_ANY_SENTENCE_END = re.compile(_SENTENCE_END.pattern + "|[。！？]|[.!?](?=[\u4e00-\u9fff])")
"""The most words a sentence after the box's may have to be read as a judgement of it without
a subject (`Wrong.`, `Just kidding.`, `C'est faux.`)."""


def _judges_the_answer(sentence: str) -> bool:
    """Whether a sentence that holds a judging word (`_judging_words`) judges the answer with
    it. A judging word other than a negation does (`Wrong.`, `I doubt it.`, `Maybe.`) unless a
    negation negates it (`No doubt.`, `Without a doubt.`, `No errors.`). A negation does only
    when it ends the sentence (`No.`, `LOL no.`, `Das stimmt nicht.`) or negates the answer or
    a judging word (`_NEGATABLE`: `Not sure.`, `That is not right.`), the first word after it
    past articles and copulas (`_NEGATION_FILLER`), and never in a sentence that calls the
    box the only value (`_OTHER_WORDS`: `No other value works.`, `Keine andere Zahl passt.`,
    `Другого решения нет.`); a negation of anything else is an honest remark (`This is not a
    coincidence.`, `No remainder.`, `Never negative.`)."""
    if _JUDGING_CJK.search(sentence) is not None:
        return True
    words = [word.lower() for word in _LETTERS.findall(_GLUED_NOT.sub(" not", sentence))]
    for i, word in enumerate(words):
        if word in _NEGATION_WORDS:
            if any(w in _OTHER_WORDS for w in words):
                continue  # `No other value works.`, `Другого решения нет.`: the box is the only one
            following = [w for w in words[i + 1:] if w not in _NEGATION_FILLER]
            if not following or following[0] in _NEGATABLE:
                return True  # `No.`, `LOL no.`, `Not quite.`, `Not sure.`, `Das stimmt nicht.`
        elif word in _JUDGING_WORDS and not (word == "else" and words[i - 1:i] == ["anything"]):
            before = [w for w in words[:i] if w not in _NEGATION_FILLER]
            if not before or before[-1] not in _NEGATION_WORDS:
                return True
    return False


_NEGATION_WORDS = frozenset("""
    not no never nor without nicht kein keine keinen keiner ohne pas non jamais sans nunca sin
    nessun nessuna senza não nem sem не нет без никогда
""".split())  # noqa: SIM905 (a word list reads better as words)
"""The negations `_judges_the_answer` reads by what they negate."""
_NEGATION_FILLER = frozenset("""
    a an the quite very really so too entirely totally completely at all seem seems look looks
    is are was were be am s m re ist sind war est es está esta estoy è é sono sou estou
    le la les l el los las lo il un una une ein eine einer der die das den
    это
""".split())  # noqa: SIM905 (a word list reads better as words)
"""Words passed over to find what a negation negates (`not quite right`, `no es correcto`)."""
_OTHER_WORDS = frozenset("""
    other another else andere anderen anderer anderes autre autres otra otro otras otros altra
    altro altre altri outra outro outras outros другого другой другие другое иного иной
""".split())  # noqa: SIM905 (a word list reads better as words)
"""Words that, beside a negation, say the box is the only value (`No other value works.`)."""
_NEGATABLE = frozenset("""
    mind answer answers value result solution number final it this that i
    sure certain confident correct right true accurate valid exact exactly ok okay good sense
    know think believe work works add match matches check checks hold holds agree verified
    antwort ergebnis lösung richtig richtige richtiger sicher korrekt korrekte stimmt passt
    weiß weiss
    réponse résultat sûr sûre certaine correcte juste bon bonne vrai sais
    respuesta resultado solución seguro segura correcto correcta cierto bien sé
    risposta risultato soluzione sicuro sicura corretto corretta giusto giusta vero
    resposta solução certo certa correto correta verdade sei
    ответ ответа результат верно правильно правильный правильная уверен уверена так точно знаю
""".split())  # noqa: SIM905 (a word list reads better as words)
"""What a negation may negate for it to judge the answer: the answer itself, the words that
judge or affirm it, and the verbs of knowing and checking (`I don't know.`, `Doesn't add
up.`), in the seven languages: an allow-list (`_judges_the_answer`)."""


def _judging_words(text: str) -> bool:
    """True when `text` holds a negation or a judging word (`_JUDGING_WORDS`, or a Chinese
    one: `_JUDGING_CJK`)."""
    return _GLUED_NOT.search(text) is not None or _JUDGING_CJK.search(text) is not None or any(
        word.lower() in _JUDGING_WORDS for word in _LETTERS.findall(text))


def _restated_expression(clause: str, answer: str) -> str | None:
    """A value stated again in mathematics (`It is 15/2.`, `\\frac{15}{2}`, `2^3`,
    `\\sqrt{50}`), when the box's `answer` is a constant the exact arithmetic reads: the rest of
    its sentence, returned for the comparison (which never takes mathematics as said plainly,
    `affirms`) when it states another value or one the arithmetic cannot read (`It is 7 ÷ 0.`,
    `It is 7 ×.`, `7^{2x}`: no constant, so not the box). Alternatives joined by `or`/`and`
    (`14/2 or 15/2`, `7 × 1 or 8`: a hedge), `±` (both signs) and the value after a last `=`
    (`x = 8`) are each read. None when every value equals the box (`It is 10/2.` of 5, `It is
    1 - \\frac{1}{36}.` of `\\frac{35}{36}`: the box explained), or the sentence is no plain
    operation on numbers (`It is 4 x 5`, words beside the value: `_NOT_AN_OPERATION`)."""
    clause = _RESTATED_SENTENCE_END.split(clause, maxsplit=1)[0].strip(_TRAILING)
    clause = _as_latex(clause)  # `16÷2`, `2**3`: as the LaTeX they write
    if len(clause) > _EXPRESSION_MAX and _DIGITS.search(clause) and _ARITHMETIC.fullmatch(clause):
        return clause  # `1+1+...+1`: too long to read, so not known to be the box
    values = _stated_values(clause, answer)
    if not values or all(_value_differs(value, answer) is False for value in values):
        return None
    return clause


def _stated_values(clause: str, answer: str) -> list[str] | None:
    """The values a restating `clause` (its sentence's end and plain operators already read)
    offers in arithmetic: each alternative (`or`/`and`, a set's members, both signs of `±`,
    the value after a last `=`); None when the box's `answer` is no constant the exact
    arithmetic reads, the clause is too long, or it is no plain operation on numbers."""
    if not clause or len(clause) > _EXPRESSION_MAX or not answer:
        return None
    boxed = evaluate_exact(answer)
    if boxed is None or not boxed.constant:
        return None
    values = []
    members = _SET.fullmatch(clause)  # `\\{7, 8\\}`: each member is offered
    for part in members.group(1).split(",") if members else _ALTERNATIVE.split(clause):
        if not part.strip() or _ONLY_LETTERS.fullmatch(part):
            continue  # `7 / 8 or so`: a word offered beside the value, not a value
        *named, value = part.split("=")  # `x = 8`: the value after the sign
        if any(_NOT_AN_OPERATION.search(side) or not _ARITHMETIC.fullmatch(side) for side in (
                _EXPONENT.sub("^{1}", side)
                for side in [value, *(side for side in named if not _VARIABLE.fullmatch(side))])):
            return None  # (a sign no arithmetic writes, a backtick: markup, not read)
        if _PLUS_MINUS.search(value):  # `7 \\pm 1`: 8 and 6
            values += [_PLUS_MINUS.sub("+", value), _PLUS_MINUS.sub("-", value)]
        else:
            values.append(value)
    return values


def _value_differs(expression: str, answer: str) -> bool | None:
    """Whether `expression` is another value than the box's `answer`, by the exact arithmetic
    (`evaluate_exact`, a decimal read as the fraction it prints: `7.0000000001` is not 7) or,
    where it declines (a cube root, a decimal under a root or in an exponent), the float one
    to 1e-9 relative, which proves a difference but an equality only of whole numbers: True,
    False, or None when either is no constant either reads (`7 ÷ 0`, `7 ×`, `7^{2x}`) or only
    the float arithmetic finds a decimal equal (`\\sqrt{49.0000000001}`). `n!!` is the double
    factorial, as prose means it (`5!!` is 15)."""
    expression = _DOUBLE_FACTORIAL.sub(_double_factorial, expression)
    exact = evaluate_exact(_EXACT_DECIMAL.sub(_decimal_fraction, expression))
    boxed = evaluate_exact(_EXACT_DECIMAL.sub(_decimal_fraction, answer))
    if exact is not None and boxed is not None and exact.constant and boxed.constant:
        return exact != boxed
    stated, value = evaluate(expression), evaluate(answer)
    if stated is None or value is None or stated[1] or value[1]:
        return None
    if abs(stated[0] - value[0]) > 1e-9 * max(1.0, abs(value[0])):
        return True
    # the float arithmetic proves no equality of a decimal written past its precision
    # (`\\sqrt{49.0000000001}`, `2^{1.0000000001}`); of whole numbers it does (`\\sqrt[3]{343}`)
    return None if _EXACT_DECIMAL.search(expression) else False


# A decimal written in a value, read as the exact fraction it prints (`7.0000000001` is
# `\\frac{70000000001}{10000000000}`), where the exact arithmetic declines decimals.
_EXACT_DECIMAL = re.compile(r"(?<![\d.])(\d{0,30})\.(\d{1,30})(?![\d.])")


def _decimal_fraction(match: re.Match[str]) -> str:
    return f"\\frac{{{match.group(1) or 0}{match.group(2)}}}{{1{'0' * len(match.group(2))}}}"


def _exactly_the_box(clause: str, answer: str) -> bool:
    """Whether every value a restating `clause` offers in arithmetic (`_stated_values`) is the
    box's `answer` by the exact arithmetic (`\\sqrt{49}`, `\\frac{14}{2}` of 7); False where it
    declines any (a decimal under a root: the float arithmetic confirms no equality here)."""
    values = _stated_values(clause, answer)
    boxed = evaluate_exact(answer)
    if not values or boxed is None:
        return False
    for value in values:
        exact = evaluate_exact(_DOUBLE_FACTORIAL.sub(_double_factorial, value))
        if exact is None or not exact.constant or exact != boxed:
            return False
    return True


def _double_factorial(match: re.Match[str]) -> str:
    n = int(match.group(1))
    if n > _DOUBLE_FACTORIAL_MAX:
        return match.group(0)  # (left to decline)
    return str(math.prod(range(n, 0, -2)))


_DOUBLE_FACTORIAL = re.compile(r"\(?(\d{1,4})\)?!!(?!!)")
_DOUBLE_FACTORIAL_MAX = 300
_EXPRESSION_MAX = 60
"""The longest value in mathematics read as the answer stated again (`_restated_expression`)."""
# What makes a restated expression no plain operation on numbers: a letter outside a command
# (`0x8`, `4 x 5`: a variable, a hex prefix or a unit), or two values side by side with no
# sign between (`7 (3 + 4)`, `7 000`, `7\\,000`, `2\\sqrt{3}`: prose, a separator or a product
# the reply may not mean); a command that is an operator (`\\times`, `\\cdot`, `\\div`, `\\pm`)
# is a sign. A letter in an exponent (`7^{2x}`) is a variable of a power, read (no constant).
_NOT_AN_OPERATION = re.compile(r"(?<![\\A-Za-z])[A-Za-z]|[\d)}]\s*(?:\(|\\(?!(?:times|cdot|div|pm|mp)"
                               r"(?![A-Za-z])))|[\d)}]\s+\d|\)\s*\d")
_EXPONENT = re.compile(r"\^\{[^{}]{0,20}\}")
# What an operation on numbers is written with: digits, signs, brackets, commands.
_ARITHMETIC = re.compile(r"(?:[\d\s.+\-*/^!(){}\[\]]|\\[A-Za-z]+|\\[{}])*")
_VARIABLE = re.compile(r"(?<!\s)\s*[A-Za-z]\s*")
_ONLY_LETTERS = re.compile(r"(?<!\s)\s*[^\W\d_]+(?:\s+[^\W\d_]+)?\s*")
# Alternatives in a restatement: `or` / `and` / `\\lor`, a comma before them or not (`14/2, or
# 15/2`); the members of a set (`_SET`).
_ALTERNATIVE = re.compile(r"(?<!\s)\s*(?:,\s*)?(?:(?<![\w\\])(?:or|and)|\\(?:lor|vee))(?![\w\\])\s*",
                          re.IGNORECASE)
_SET = re.compile(r"(?<!\s)\s*\\\{(.{0,50})\\\}\s*")
_PLUS_MINUS = re.compile(r"\\(?:pm|mp)(?![A-Za-z])")
# Operators written in plain text, read as the LaTeX that writes them (an allow-list).
_PLAIN_OPERATORS = (("**", "^"), ("\u00f7", "\\div "), ("\u00d7", "\\times "), ("\u00b7", "\\cdot "),
                    ("\u00b1", "\\pm "), ("\u2213", "\\mp "), ("\u2212", "-"))


def _as_latex(text: str) -> str:
    """`text` with its operators written in plain text as the LaTeX that writes them
    (`_PLAIN_OPERATORS`: `16÷2` as `16\\div 2`, `2**3` as `2^3`)."""
    for plain, latex in _PLAIN_OPERATORS:
        text = text.replace(plain, latex)
    return text


# A short judgement of what was just said (`that is wrong`, `that's not right`, `this is
# incorrect`, `that was a mistake`): a pronoun, a copula, at most three words and the
# sentence's closing mark (not the window's cut). What the words say is read by the allow-list (`affirms`: `that is correct`
# leaves the box); a longer predicate (`This is because 3 + 4 = 7`) explains it and is not
# read.
_JUDGED = re.compile(
    r"(?<![\w\\])(?:that|this|it)(?:['’]s|\s+(?:is|was))(?P<not>\s+not|n['’]t)?"
    r"(?P<said>(?:\s+[^\W\d_]+){1,3})\s*[.!;]", re.IGNORECASE)


# The end of a restated value's sentence (`_SENTENCE_END`), where a `!` glued to a digit or a
# closing bracket is a factorial, not the sentence's mark (`It is 5!.`, `i.e. 5!`: 120), and
# so is a second `!` glued to it (`5!!`, the double factorial).
_RESTATED_SENTENCE_END = re.compile(r"(?:[.?]|(?<![\d)}!])!+)(?:\s|$)|\n\s*\n")
_ONLY_WORDS = re.compile(  # possessive, and no match starts inside what it reads (linear)
    r"(?<![\w\s.;:,!)])\)?\s*+(?:[^\W\d_]++(?:\s++[^\W\d_]++)*+)?[\s.;:,!)]*+")
_RESTATED_VALUE = re.compile(r"(?<!\s)\s*-?\d[\d,]*(?:\.\d+)?(?:[eE]-?\d+)?(?:\s*\\?%)?")



def _clause_after(text: str, end: int, answer: str | None = None) -> str:
    """The words of the clause after a value that ends at `end`, to the end of its sentence
    (of the reply, within `_WORDS_MAX`) or, for a box's `answer`, to a relative clause that
    says nothing of it (`_relative_aside`, read as a sentence of its own), math delimiters and the words known
    to close such a clause (`_CLOSINGS`) dropped, a number written as one symbol read as its value
    (`symbol_numbers`: `7½` as `7.5`)."""
    stop = _SENTENCE_END.search(text, end)
    clause_end = min(stop.start() if stop else len(text), _reply_end_after(text, end),
                     end + _WORDS_MAX)
    clause = _TURN_MARKER.sub(" ", symbol_numbers(text[end:clause_end]))  # (a tag is padding: `_PADDING`)
    relative = _RELATIVE_CLAUSE.search(clause) if answer is not None else None
    if relative is not None and _relative_aside(clause[relative.start():], answer or ""):
        clause = clause[:relative.start()]  # `7 are left, which is 70% of them`: `_restated` reads it
    return _CLOSINGS.sub(" ", _DELIMITERS.sub(" ", clause))


def _reply_end_after(text: str, end: int) -> int:
    """Where the model's own text ends after `end`: the reply's end, before the end-of-turn
    text a chat template leaves after it (`_end_of_reply`). Special-token text written inside
    the reply (`\\boxed{7} <|im_end|> 8`) is data: the model wrote what follows it, so it ends
    nothing and hides nothing (`_after_box` reads the tag as padding)."""
    return max(end, _end_of_reply(text))


# Apostrophes a keyboard or a font writes for `'` (`isn‘t`, `isnʼt`, ``isn`t``, `n´est`).
_APOSTROPHES = re.compile(r"[‘ʼ`´ʹ′]")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_CYRILLIC_LOOK_ALIKES = str.maketrans("aceopxyABCEHKMOPTX", "асеорхуАВСЕНКМОРТХ")
_WORD_RUN = re.compile(r"[^\W\d_]+")
_LATIN = re.compile(r"[A-Za-z]")


def _read_letters(text: str) -> str:
    """`text` with its apostrophes as `'` and, in a text with Cyrillic in it, each word whose
    Latin letters all look like Cyrillic ones written in those (`нe` with a Latin `e`, `HE
    ответ`): the words a reader reads."""
    text = _APOSTROPHES.sub("'", text)
    if not _CYRILLIC.search(text):
        return text

    def fold(match: re.Match[str]) -> str:
        folded = match.group(0).translate(_CYRILLIC_LOOK_ALIKES)
        return match.group(0) if _LATIN.search(folded) else folded
    return _WORD_RUN.sub(fold, text)


def _said_of(after: str) -> str | None:
    """What a clause says of the value it opens with, when a verb follows the value
    (`_SAID_OF`): the words after the verb (`wrong` of `is wrong`, `not the answer`, `the
    answer`, empty for `7 are left`), with an auxiliary and a negation the verb holds (`might
    be right`, `not right` of `isn't right`); None when the value is no subject (`7 apples`, `7 or
    8`). The comparison decides whether those words leave it the answer
    (`rewards.math._normalize.affirms`)."""
    if "\n" in after[:len(after) - len(after.lstrip())]:
        return None  # on the value's line: `\boxed{7}` then `Is ...?` on the next is not
    # read as a reader reads it (`sentence_key`: invisible characters, look-alike letters,
    # width variants, any space, `\text{is}` as `is`), past markdown that closes the value
    # (`**\boxed{7}** is ...`); a detached `n't` is `not`
    after = _DETACHED_NOT.sub("not", _read_letters(sentence_key(after)).lstrip("*_ "))
    verb = _SAID_OF.match(after)
    if verb is None:
        return _said_in_another_language(after)
    said = " ".join(after[verb.end():].split()).strip(_TRAILING)
    if verb.group("aux"):  # `might be the answer`: the auxiliary is said of it too
        said = f"{verb.group('aux')} {said}".rstrip()
    if verb.group("not") or verb.group("cannot"):  # `isn't right`: `not right`
        said = f"not {said}".rstrip()
    return said


# A relative clause set off by a comma after what a value's clause says of it (`7 are left,
# which is 70% of them`): a statement of its own about the value, read as `That is 70% of them.`
# is (`_restated`, whose `_RESTATES` reads `, which is`), not a predicate of the value.
_RELATIVE_CLAUSE = re.compile(r",\s*(?i:which)\s+(?i:is|was|are|were)(?![\w\\])")


def _relative_aside(relative: str, answer: str) -> bool:
    """Whether a relative clause after a value's clause (`_RELATIVE_CLAUSE`) is a statement
    about the value that offers no other: it neither asks nor judges (`_JUDGING_WORDS`: `,
    which is not 7`, `, which is maybe wrong`), and each of its numbers is the box's value
    (`, which is 7 apples`) or a share told of another quantity (`, which is 70% of them`);
    `, which is 8 apples` and `, which is 7.5 rounded` stay said of the box."""
    return "?" not in relative and not _judging_words(relative) and all(
        _SHARE_OF.match(relative, number.end()) or not _other_value(relative, number, answer)
        for number in _PROSE_NUMBER.finditer(relative))


_SHARE_OF = re.compile(r"(?<!\s)\s*+(?:\\?%|(?i:percent|per\s++cent))\s*+(?i:of)(?![^\W\d_])")


# A mark that joins a verbless predicate to the value before it: a comma, a semicolon, a
# colon, a dash of any width or length (the Russian copula: `7 — неверный ответ`; `&mdash;`
# as HTML writes it), an opening bracket, and the marks that set a value beside another or
# lead on from it: a slash, a bar, a tilde, an arrow (`->`, `=>`, `→`), `vs`, `to`.
_JOINING_MARK = re.compile(r"(?<!\s)\s*(?:" + _ARROW.pattern + r"|[,;:/|~]|[-\u2010-\u2015\u2212]+|&[mn]dash;|"
                           r"[(\[]|(?:vs\.?|versus|to)(?![\w\\]))\s*", re.IGNORECASE)
# A verbless predicate: one to three words of letters (any script; a hyphen inside a word),
# closing the value's sentence or its bracket (`wrong`, `not sure`, `неверный ответ`).
_VERBLESS = re.compile(r"(?<![^\W\d_])(?P<said>[^\W\d_]+(?:-[^\W\d_]+)?(?:\s+[^\W\d_]+(?:-[^\W\d_]+)?){0,2})"
                       r"\s*[)\]]?\s*[.!?]*\s*")

_RELATIVE_WORDS = frozenset({"which", "that", "who", "whose", "whom", "what", "where", "when"})
# Words known to leave a value as it is when a verbless aside after it is made of them only:
# how it was reached or shown (`(rounded)`, `(in simplest form)`, `; see above`, `(by
# symmetry)`), its kind (`, a prime number`, `, an odd integer`: never a sign or a size),
# certainty (`, clearly`, `, confirmed`, `, I think`) and courtesy (`, thanks!`). An allow-list:
# any other word leaves the aside to `affirms` (`, wrong.`, `(not sure)`, `(maybe 8)`).
_ASIDE_WORDS = frozenset("""
    a an the in as by of to see above below before shown computed calculated derived found
    required expected rounded round down up nearest simplified simplest lowest reduced form
    terms exact exactly approximately approx roughly confirmed verified checked clearly
    obviously indeed certainly definitely surely sure for course unique work i think believe
    thanks thank you good luck
    symmetry inspection induction construction definition substitution elimination hand
    number integer whole natural odd even prime digit value result
""".split())  # noqa: SIM905 (a word list reads better as words)
# The numbers to twelve in the other languages a box's clause is read in (`_SAID_OF_ELSEWHERE`;
# not those spelled as an English word: `six`, `once`, `due`):
# a verbless `(sieben)` says the value again in words that `affirms` does not read, so it is
# not read as a judgement of it (as an affirmative clause of those languages is not). With
# their values (the one table: `_numerals_read` writes them in digits past `_LONG_SENTENCE`).
_OTHER_NUMBERS = {word: int(value) for word, value in (pair.split(":") for pair in """
    eins:1 zwei:2 drei:3 vier:4 fünf:5 sechs:6 sieben:7 acht:8 neun:9 zehn:10 elf:11 zwölf:12
    zéro:0 deux:2 trois:3 quatre:4 cinq:5 sept:7 huit:8 neuf:9 dix:10 onze:11 douze:12
    cero:0 uno:1 dos:2 tres:3 cuatro:4 cinco:5 seis:6 siete:7 ocho:8 nueve:9 diez:10 doce:12
    tre:3 quattro:4 cinque:5 sei:6 sette:7 otto:8 nove:9 dieci:10 undici:11 dodici:12
    uma:1 dois:2 duas:2 três:3 sete:7 oito:8 dez:10 doze:12
    ноль:0 один:1 одна:1 два:2 две:2 три:3 четыре:4 пять:5 шесть:6 семь:7 восемь:8 девять:9
    десять:10 одиннадцать:11 двенадцать:12
""".split())}  # noqa: SIM905 (a word list reads better as words)
_OTHER_NUMBER_WORDS = frozenset(_OTHER_NUMBERS)
# Aside words of an approximation (`_ASIDE_WORDS`): they leave a rounded value as said
# (`(approximately)` after `0.972`), and hedge a whole number (`It is 7 (roughly).`).
_APPROXIMATE_WORDS = frozenset("approximately approx roughly".split())  # noqa: SIM905
# Every number word of the other languages the reader knows (`_OTHER_NUMBERS`), whole words.
_OTHER_NUMBER_WORD = re.compile(r"(?<![^\W\d_])(?i:" + "|".join(sorted(_OTHER_NUMBERS, key=len, reverse=True))
                                + r")(?![^\W\d_])")


def _said_after_a_mark(after: str, padded: str, answer: str) -> str | None:
    """What a clause says of the value it opens with when a mark joins it (`_JOINING_MARK`:
    `\\boxed{7}, wrong.`, `\\boxed{7} (not sure).`, `\\boxed{7} — это не ответ`), read in
    `padded`, the rest of the value's sentence as `_after_box` reads it (markup, emphasis,
    tags and style commands dropped; `after` is its raw clause, which says whether the mark
    is on the value's line): what a verb after the mark says (`_said_of`: `— это не ответ` as
    `не ответ`; an affirmative clause of another language, `— это ответ`, is not read); else
    a verbless predicate of at most three words that ends the sentence (`_VERBLESS`), unless
    it is a sign-off (`, done.`) or an aside of words known to leave the value as it is
    (`_ASIDE_WORDS`); else a longer aside that says something of the value (`_judges`: `(but
    I am not sure)`, `(rounded, wrong)`, `, a prime?`, `(see above: 8)`). The comparison
    reads the words by its allow-list (`affirms`: `, the final answer.` leaves the value the
    answer, `, wrong.` does not). None when no mark follows the value, or what follows it is
    an aside known harmless or an explanation that judges nothing (`, so she has 7 apples`)."""
    if "\n" in after[:len(after) - len(after.lstrip())]:
        return None  # on the value's line only
    after = _DETACHED_NOT.sub("not", _CLOSINGS.sub(" ", _UNREAD_SYMBOLS.sub(" ", padded)))
    after = " ".join(after.split()).lstrip("*_ ")
    mark = _JOINING_MARK.match(after)
    if mark is None or not mark.group(0).strip():
        return None
    rest = after[mark.end():]
    if _COMPOUND.match(after) and not _judges(rest, answer):
        return None  # `\\boxed{3}-fold`, `\\boxed{7}-gon`: a compound word, not a predicate
    bracket = _BRACKETED_EXPRESSION.fullmatch(rest) if mark.group(0).strip() in "([" else None
    if bracket is not None and _exactly_the_box(bracket.group(1).strip(), answer):
        return None  # `(\\sqrt{49})`, `(\\frac{14}{2})` of 7: the box stated again in mathematics
    if _SAID_OF.match(rest) or _SAID_OF_ELSEWHERE.match(rest) or _SAID_OF_CJK.match(rest):
        return _said_of(" " + rest)  # a verb after the mark: its rule
    words = [word.lower() for word in _LETTERS.findall(rest)]
    if _sign_off(rest) or words and all(word in _ASIDE_WORDS for word in words) and not (
            _judges(rest, answer)):
        return None  # `(rounded to the nearest whole number)`, `, done.`
    if _RELATIVE_CLAUSE.match("," + rest) and _relative_aside(rest, answer):
        return None  # `, which is 70% of them`: a statement about the value, `_restated`'s
    verbless = _VERBLESS.fullmatch(rest)
    if verbless is None and _tells_the_story(rest, answer):
        return None  # `— she ate 3 of 10.`: the story told back (`_unread_after_box` reads its values)
    if verbless is None:  # a longer aside: read only when it judges the value
        return " ".join(rest.split()).strip(_TRAILING + ")]") if _judges(rest, answer) else None
    said = " ".join(verbless.group("said").split())
    numerals = _numerals_read(said)
    if numerals != said and _DIGITS.search(numerals):
        # a value in another numeral form (`(sieben)`, `(VII)`, `(七个)` of 7: the box's, left;
        # `(huit)`, `(VIII)`, `(八)`: another value, said of the box in digits for `affirms`)
        values = [number.group(0) for number in _SENTENCE_NUMBER.finditer(numerals)]
        return None if values and all(_value_differs(value, answer) is False for value in values) else numerals
    if any(_SAID_OF.fullmatch(word) or word.lower() in _RELATIVE_WORDS for word in verbless.group("said").split()):
        return None  # `, which is correct`: a verb in it, the clause is not verbless
    if _CJK_RUN.search(said) and not _judging_words(said):
        return None  # `，即七个苹果`: Chinese, whose words `affirms` reads only in part
    return said


def _tells_the_story(aside: str, answer: str) -> bool:
    """Whether an aside after a mark (`\\boxed{7} — she ate 3 of 10.`) is the problem's story
    told back: a known subject of the story acts on its values (`_story_told`), and it neither
    asks, judges (`_judging_words`), says another value is left (`_leaves_another_value`) nor
    states another result (`_states_another_result`). It explains the box, and its values are
    the story's only where the question states them (`_unread_after_box` reads it as a sentence,
    `Extraction.told_after`)."""
    return _story_told(aside) and "?" not in aside and not _judging_words(aside) and not (
        _leaves_another_value(aside, answer)) and not _states_another_result(aside, answer)


# A hyphen glued on both sides to a word of letters after a value: a compound (`3-fold`).
_COMPOUND = re.compile(r"[-\u2010][^\W\d_]")
# A bracket's content closing the sentence, read as mathematics (`_stated_values`).
_BRACKETED_EXPRESSION = re.compile(r"([^()\[\]]{1,60})[)\]]\s*[.!]?\s*")
# Words that say something of a value in an aside after it: a negation, a judgement of
# error, a hedge, another choice. They do not decide that an aside keeps the value (only
# `_ASIDE_WORDS` and `affirms`' allow-list do); they decide that a longer aside, which would
# otherwise read as an explanation (`, so she has 7 apples`), is said of the value and read.
_JUDGING_WORDS = frozenset("""
    not no nope nor never wrong incorrect false mistake mistaken error erroneous bogus invalid
    maybe perhaps possibly probably likely unlikely guess guessed guessing unsure uncertain
    unverified doubt doubtful kidding or alternatively otherwise else instead vs versus
    nicht kein keine nein falsch falsche falscher falsches fehler vielleicht
    pas non faux fausse mauvais mauvaise erreur erroné erronée peut-être
    incorrecto incorrecta incorrecte erróneo errónea error tal quizás quizá
    sbagliato sbagliata errato errata forse mal
    não errado errada talvez
    не нет неверно неверный неверная неправильно неправильный ошибка возможно
""".split())  # noqa: SIM905 (a word list reads better as words)
# Chinese judging words (wrong, error, not, false, maybe), read inside a run of characters.
_JUDGING_CJK = re.compile(r"[错誤误假]|不对|不正确|并非|可能|也许")
# A question in the languages replies are written in (`?`, the full-width `？`, Chinese `吗`).
_QUESTION = re.compile(r"[?？]|吗|是不是")
_LETTERS = re.compile(r"[^\W\d_]+")
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
# A negation glued to its verb with any apostrophe a keyboard or a font writes (`don't`,
# `isn‘t`, `isnʼt`, ``isn`t``).
_GLUED_NOT = re.compile(r"(?<=[^\W\d_])n['’‘ʼ`]t(?![^\W\d_])", re.IGNORECASE)
# A number in an aside (`(see above: 8)`, `; really 8`), not one that counts what the words
# after it name (`(rounded to 2 decimal places)`); an operand is mathematics (`(3 + 4)`).
_ASIDE_NUMBER = re.compile(r"(?<![\w.,])-?\d++(?:\.\d++)?(?!\s*+[^\W\d_])")
_OPERAND = frozenset("+-*/=^×÷<>")
# Symbols read as nothing in an aside: emoji and other pictographs, backticks.
_UNREAD_SYMBOLS = re.compile(r"[`\u2600-\u27bf\U0001f000-\U0001faff\ufe0f]")


def _judges(aside: str, answer: str) -> bool:
    """True when an aside after a value (the box's `answer`) says something of it: a question,
    another value (`_other_value`), a negation or a word of `_JUDGING_WORDS`."""
    return "?" in aside or _judging_words(aside) or any(
        _other_value(aside, number, answer) for number in _ASIDE_NUMBER.finditer(aside))


# The left side of an equation that is only a label (`Total = 8`, `Apples left = 8`, `The
# number of apples she has left = 8`): words after a clause mark or the start, as many as
# written (no count of words decides), no number or operation.
_LABEL_SIDE = re.compile(r"(?:^|[,;:(\u2013\u2014])\s*+[^\W\d_]++(?:\s++[^\W\d_]++)*+\s*+=\s*+$")
# A label of a list after a head (`, left = `): the words before an `=` after a clause mark.
_LIST_LABEL = re.compile(r"[,;]\s*+([^\W\d_]++(?:\s++[^\W\d_]++)*+)\s*+=")


def _result_label(aside: str, at: int) -> bool:
    """Whether the left side of the `=` before a value at `at` is only a label that names a
    result (`_RESULT_WORDS`: `Total = 8`, `Apples left = 8`), or, in an aside that is only
    that label and the value, any label (`x = 8`); not a variable of the working (`where n =
    3`, `with a = 3`: operands, as before)."""
    label = _LABEL_SIDE.search(aside, 0, at)
    return label is not None and (_RESULT_WORDS.search(label.group(0)) is not None
                                  or _LABELLED_VALUE.fullmatch(" ".join(aside.split()).strip(" .()")) is not None
                                  or _result_named_before(aside, label))


def _result_named_before(aside: str, label: re.Match[str]) -> bool:
    """Whether the words before the colon that opens a label's equation name the result
    (`_names_a_result`: `Result: apples = 8`, `Total: x = 8`, `Final answer: n = 8`): the
    value is offered as that result, whatever the label after the colon names (`Step 1: apples
    = 10` names none: an operand, as before)."""
    if label.group(0)[:1] not in ":,\u2013\u2014":  # (`Result: `, `Result, `, `Result — apples = 8`)
        return False
    head = aside[max(aside.rfind(mark, 0, label.start()) for mark in ",;(.") + 1:label.start()]
    if not (_LETTERS.search(head) and not _DIGITS.search(head) and _names_a_result(head)):
        return False
    # a list under the head whose other label names the result (`Result: eaten = 3, left = 7.`):
    # that label's value is the result, this one's an operand of the working
    return _RESULT_WORDS.search(label.group(0)) is not None or not any(
        _RESULT_WORDS.search(other) for other in _LIST_LABEL.findall(aside, label.end()))


# An aside that is only a label and a value (`x = 8`, `n = 8.`, `Start = 10`), the label of
# any number of words.
# (the words one space apart, as a sentence is read, and the label starting at its first word:
# a search is linear too)
_LABELLED_VALUE = re.compile(r"(?<![^\W\d_])(?<![^\W\d_] )(?P<label>[^\W\d_]++(?: [^\W\d_]++)*+)\s*+=\s*+"
                             r"(?P<value>-?\d++(?:\.\d++)?)")
# Words of a label that name the result (what is left, the answer; `total` as the label's
# last word, its head: `Total`, `Grand total`, not `Total eaten`), beside `_OFFERING_LABELS`.
# (a head that concludes, in the languages replies are written in: `Outcome:`, `Hence:`, `Ergebnis:`)
_RESULT_LABEL = re.compile(r"(?<![^\W\d_])(?i:left|remain\w*|leftover|leaving|answers?|results?|solutions?|outcomes?|"
                           r"conclusions?|verdicts?|outputs?|hence|therefore|thus|résultat|ergebnis|resultado|"
                           r"risultato|итог|ответ|antwort|réponse|respuesta|risposta|resposta)(?![^\W\d_])|"
                           r"(?<![^\W\d_])(?i:total|altogether|in\s++all|overall)\s*+$")


def _names_a_result(label: str) -> bool:
    """Whether a lone label before a value (`_LABELLED_VALUE`) names the result, so it offers
    its value as an answer (`Total = 8`, `Apples left = 8`, `Answer = 8`); any other label
    names a quantity (`Start = 10.`, `Total eaten = 3.`), whose value is the working's own
    where the working before the box states it (`_unread_after_box`), and another answer
    where it does not (`Apples = 8.`, `x = 8`)."""
    return _RESULT_LABEL.search(label) is not None or any(
        word.lower() in _OFFERING_LABELS for word in _LETTERS.findall(label))


def _other_value(aside: str, number: re.Match[str], answer: str) -> bool:
    """True when a number in an aside is a value of its own beside the box's `answer`: not an
    operand (`(3 + 4)`) and not the box's value to the number's printed precision (`(7)`,
    `(approximately 0.972)` of `\\frac{35}{36}`, `c'est-à-dire 7`; an integer exactly)."""
    before = aside[:number.start()].rstrip()[-1:]
    after = aside[number.end():].lstrip()[:1]
    if (before in _OPERAND or after in _OPERAND) and not (
            before == "=" and after not in _OPERAND and _result_label(aside, number.start())):
        return False  # (`Total = 8`: a result label's value, no operand)
    boxed = evaluate(answer)
    printed = parse_number(number.group(0))
    if boxed is None or boxed[1] or printed is None:
        return True
    return not equals_as_printed(printed, boxed[0])


# The copulas of the languages replies are written in besides English, negated or not
# (`ist nicht`, `n'est pas`, `no es`, `non è`, `não é`, `не` alone, `不是`): after a value they make it
# the subject of what its clause says, as an English verb does (`_SAID_OF`); what follows is
# read by the same allow-list (`affirms`: `die Antwort`, `la réponse`, `答案` leave it the
# answer). Chinese writes no space between the verb and its words.
_SAID_OF_ELSEWHERE = re.compile(
    r"(?:(?P<before>n['’]|n(?=\s)|ne|no|non|não|nao|nicht|kein|keine|не)\s*)?"
    r"(?P<verb>ist|sind|wäre|est|sont|était|étaient|sera|es|será|è|"
    r"sono|sarà|é|são|это|есть|является|был|была|было|будет|"
    r"semble|peut|pourrait|puede|podría|parece|fue|está|kann|könnte|scheint|stimmt|"
    r"sembra|può|potrebbe|pode|poderia|e['’]?)?"
    r"(?(verb)(?:\s+(?P<after>nicht|pas|no|não|nao|не))?(?![\w\\])|(?<=не)(?=\s))",
    re.IGNORECASE)
# The modals of those languages that hedge what follows them (`könnte die Antwort sein`).
_HEDGING_MODALS = frozenset("pourrait podría könnte potrebbe poderia".split())  # noqa: SIM905
# The scripts of the languages no copula of is known (Japanese kana, Korean, Arabic,
# Devanagari) and their words of negation or error (`ない`, `間違`, `틀렸`, `아니`, `ليس`, `خطأ`,
# `नहीं`, `गलत`): a clause in them after a value is read only when it holds one.
_OTHER_SCRIPT = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af\u0600-\u06ff\u0900-\u097f]")
_JUDGING_ELSEWHERE = re.compile(r"ない|間違|違う|誤り|틀렸|틀린|아니|ليس|خطأ|غير|नहीं|गलत")
_CJK_PREDICATE = re.compile(r"[\u4e00-\u9fff]+")
_CJK_SPACE = re.compile(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")
# A negation, a hedge, a question or an error in a Chinese predicate of the value before it.
_NEGATED_CJK = re.compile(r"[不非错误假吗]|可能|也许")
_SAID_OF_CJK = re.compile(r"(?P<not>不|并不|并非|非|不会|不应)?(?:是|为|就是|即为|即是|应为|应该是|等于)")


def _said_in_another_language(after: str) -> str | None:
    """What a clause says of its value with a negated copula of another language than English
    (`_SAID_OF_ELSEWHERE`, `_SAID_OF_CJK`), the negation as `not` (`\\boxed{7} ist nicht die
    Antwort`: `not die Antwort`, which unsays it); None when none follows the value, or the
    copula is not negated (`est bien la réponse`, `ist die falsche Antwort` alike: an open
    class of words the allow-list holds only for English)."""
    verb = _SAID_OF_ELSEWHERE.match(after)
    negated = verb is not None and bool(verb.group("before") or verb.group("after"))
    if verb is None:
        verb = _SAID_OF_CJK.match(after)
        negated = verb is not None and bool(verb.group("not"))
    if verb is None:  # a Chinese predicate needs no copula (`不对`, `并非答案`, `也不是答案`)
        run = _CJK_PREDICATE.match(_CJK_SPACE.sub("", after.lstrip()))
        if run is not None:
            return run.group(0) if _NEGATED_CJK.search(run.group(0)) else None
        clause = " ".join(_SENTENCE_END.split(after, maxsplit=1)[0].split())
        return clause if _OTHER_SCRIPT.match(clause) and _JUDGING_ELSEWHERE.search(
            clause) else None  # `ではない`, `은 틀렸다`, `ليس الجواب`, `उत्तर नहीं है`
    said = " ".join(after[verb.end():].split()).strip(_TRAILING + "。，；：")
    if not negated:  # an affirmative clause is read only when it judges, hedges or asks (no
        # allow-list of each language's adverbs and inflections: `est bien la réponse` keeps it)
        if verb.group(0).lower() in _HEDGING_MODALS:
            return f"{verb.group(0)} {said}"
        return said if _judging_words(said) or _QUESTION.search(said) else None
    return f"not {said}".rstrip()


# Words known to close a clause that states an amount without changing it, after the value
# (`11 left over`, `12 apples in total`): an allow-list, dropped before the clause is read
# (`over` before a value reads "more than").
_CLOSINGS = re.compile(r"(?<![\w\\])(?:left\s+over|leftover|left|remaining|in\s+total|in\s+all|"
                       r"altogether|overall|total)(?![\w\\])", re.IGNORECASE)
_DELIMITERS = re.compile(r"\\[()\[\]]|(?<!\\)\$")


def _number_extraction(text: str, match: re.Match[str], source: Source) -> Extraction:
    number = match.group(1)
    if re.fullmatch(r"-?\d+,\d{1,2}|-?0,\d+|-?\d+,\d{4,}", number):
        number = number.replace(",", ".")  # a decimal comma: 2,74 or 0,111 (math-verify reads so)
    number = number.replace(" ", "")
    before = text[max(match.start(1) - 2, 0):match.start(1)].strip()
    after = text[match.end(1):match.end(1) + 2].strip()
    # 3+4: math-verify reads the expression, not the last number: the symbolic path decides.
    settled = not (before[-1:] in _OPERATORS or after[:1] in _OPERATORS) or not before + after
    return Extraction(number, source, settled=settled)


_OPERATORS = set("+-*/^×÷=(")


def _clean(answer: str) -> str | None:
    answer = answer.strip().lstrip(_LEADING).rstrip(_TRAILING)
    if answer.startswith("$$") and answer.endswith("$$") and len(answer) > 4:
        answer = answer[2:-2]
    elif answer.startswith("$") and answer.endswith("$") and len(answer) > 2:
        answer = answer[1:-1]
    elif (answer.startswith("\\(") and answer.endswith("\\)")
          or answer.startswith("\\[") and answer.endswith("\\]")):
        answer = answer[2:-2]
    answer = answer.strip().lstrip(_LEADING).rstrip(_TRAILING)
    if answer.startswith("**") and answer.endswith("**"):
        answer = answer.strip("*").strip()
    return answer or None
