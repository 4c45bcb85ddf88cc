"""Red team round 3 on the one reading rule for model text (`rewards.text.read_text`,
`is_blank`, the tables `_make_tables` derives from Unicode data, merged from h-a7) and the
instruction-following checkers that use it (`rewards/ifeval/`).

What: two directions. (a) Replies that BUY a constraint through a new table entry: look-alike
full stops a reader of the text around them does not see as one, sentence ends the rule does
not read, letter forms next to the joiners an emoji sequence keeps, small capitals and raised
capitals read or kept as lower case. (b) FALSE LOSS: honest multilingual, scientific and emoji
text read differently from Google's IFEval as lm-eval ships it (benchmarks/_ifeval_reference.py,
the spec of the ifeval family; IFBench's `format:emoji` is its own check on the raw code
points); plus the cost of `read_text` and `is_blank_read` on 1 MB replies of the new special
characters, and the same verdicts through every entry point (library, `verdicts`,
`rewards score`, the HTTP server).

How: each case writes the text with the characters under test and compares the verdict with
the same text written plainly, with what the reference gives on it, or with what a reader
counts. Attacks that held are plain tests; holes are `xfail(strict=True)` whose reason names
the function at the root and the class of docs/ATTACK-CLASSES.md ("Invisible and look-alike
text", "Meaning dropped by normalization", "Degenerate length", "Formats dropped on one path").
The reference comparisons are skipped where lm-eval is not installed."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from rewards import Sample
from rewards.ifeval import IFEvalReward, parse_constraints, verdicts
from rewards.ifeval._ifbench_format import format_emoji
from rewards.ifeval._text import count_words
from rewards.text import _tables, is_blank, is_blank_read, read_text

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))


def _value(ids: list[str], kwargs: list[dict[str, object]], text: str) -> float | None:
    reference = {"instruction_id_list": ids, "kwargs": kwargs}
    return IFEvalReward().score([Sample("p", text, reference)])[0].value


def _sentences(count: int, relation: str, text: str) -> float | None:
    return _value(["length_constraints:number_sentences"],
                  [{"num_sentences": count, "relation": relation}], text)


@pytest.fixture(scope="module")
def lm_eval():  # type: ignore[no-untyped-def]
    import logging

    from _ifeval_reference import (  # type: ignore[import-not-found]
        load_lm_eval,
        missing_reason,
    )

    logging.disable(logging.CRITICAL)
    reference = load_lm_eval()
    if reference is None:
        pytest.skip(missing_reason())
    return reference


# ==== (a) buying a constraint =====================================================================

# ---- letter forms next to the joiners an emoji sequence keeps -------------------------------------

@pytest.mark.parametrize("letter", ["\u24df", "\u24c5", "\U0001f13f"])
@pytest.mark.parametrize("joiner", ["\u200d", "\ufe0f", "\ufe0e", "\U000e0041"])
def test_a_letter_form_and_a_joiner_do_not_hide_a_forbidden_word(letter: str,
                                                                joiner: str) -> None:
    # fixed (h-a8): rewards.text._removed judges the symbol before a joiner as it is read
    text = f"my {letter}{joiner}assword is x"
    assert read_text(read_text(text)) == read_text(text)
    assert _value(["keywords:forbidden_words"], [{"forbidden_words": ["password"]}], text) == 0.0


def test_reading_is_idempotent_over_the_tables_characters() -> None:
    # h-a8: read_text(read_text(x)) == read_text(x) for every character the tables read,
    # style or keep, alone, doubled, between letters and before each joiner, variation
    # selector or tag an emoji sequence keeps
    tables = _tables()
    codes = sorted({*tables.read_as, *tables.styled_as, *tables.kept})
    assert len(codes) > 1000  # the scan finds them
    joiners = ["", "\u200d", "\ufe0e", "\ufe0f", "\U000e0041", "\ufe0f\u200d", "\u200b\ufe0f"]
    unstable = []
    for code in codes:
        ch = chr(code)
        for joiner in joiners:
            for text in (f"{ch}{joiner}a", f"a {ch}{ch}{joiner} b", f"x{ch}{joiner}"):
                once = read_text(text)
                if read_text(once) != once:
                    unstable.append(text)
    assert unstable == []


def test_a_letter_form_alone_and_an_emoji_sequence_hold() -> None:
    for text in ["my \u24dfassword is x", "my \U0001f13fassword is x"]:
        assert _value(["keywords:forbidden_words"], [{"forbidden_words": ["password"]}],
                      text) == 0.0
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert read_text(f"a {family} b") == f"a {family} b"  # the joiner after a real emoji stays


# ---- full stops of other scripts, drawn unlike `.`, after Latin words -----------------------------

# U+166E CANADIAN SYLLABICS FULL STOP (drawn as an x), U+2E3C STENOGRAPHIC FULL STOP (a small
# cross), U+A4FF LISU PUNCTUATION FULL STOP (drawn as =)
_UNLIKE_A_FULL_STOP = ["\u166e", "\u2e3c", "\ua4ff"]


@pytest.mark.parametrize("mark", _UNLIKE_A_FULL_STOP)
def test_a_full_stop_drawn_as_another_sign_buys_no_end_phrase_or_sentence(mark: str) -> None:
    # fixed (h-a8): only full stops drawn as one read as '.' (rewards.text._FULL_STOPS)
    end = _value(["startend:end_checker"],
                 [{"end_phrase": "Let me know if you have additional questions."}],
                 f"Fine. Let me know if you have additional questions{mark}")
    assert (end, _sentences(3, "at least", f"Hi{mark} there{mark} friend{mark}")) == (0.0, 0.0)


def test_plain_full_stops_end_the_phrase_and_count_sentences() -> None:
    assert _value(["startend:end_checker"],
                  [{"end_phrase": "Let me know if you have additional questions."}],
                  "Fine. Let me know if you have additional questions.") == 1.0
    assert _sentences(3, "at least", "Hi. There. Friend.") == 1.0
    assert _sentences(3, "at least", "Hi there friend") == 0.0


def test_a_full_stop_of_its_own_script_ends_a_sentence() -> None:
    # held: Chinese and Arabic replies with their full stops, as their readers count them
    assert _sentences(2, "less than", "\u4f60\u597d\u3002 \u518d\u89c1\u3002") == 0.0
    assert _sentences(2, "less than",
                      "\u0645\u0631\u062d\u0628\u0627\u06d4 \u0634\u0643\u0631\u0627\u06d4") == 0.0


# ---- sentence ends the rule does not read --------------------------------------------------------

def test_an_interrobang_ends_a_sentence() -> None:
    # fixed (h-a8): rewards.text._read_as reads the punctuation named INTERROBANG as '?!'
    assert _sentences(2, "less than", "Wow\u203d Great\u203d Done\u203d") == 0.0
    assert read_text("Wow\u2e18 no") == "Wow\u2e18 no"  # the inverted one opens, stays


@pytest.mark.xfail(strict=True, reason=(
    "open (Invisible and look-alike text): U+2757 HEAVY EXCLAMATION MARK SYMBOL and U+2753 "
    "BLACK QUESTION MARK ORNAMENT (So) are emoji: rewards.text reads them as themselves, so "
    "split_sentences sees no end and three sentences pass 'fewer than 2 sentences' (the "
    "lm-eval reference credits them too: raw code points); reading them as '!' or '?' would "
    "cost format:emoji its honest replies ending in them, so the splitter, not the reader, "
    "would have to count them (h-a8 left it)"))
@pytest.mark.parametrize("end", ["\u2757", "\u2753"])
def test_a_drawn_sentence_end_ends_a_sentence(end: str) -> None:
    assert _sentences(2, "less than", f"Wow{end} Great{end} Done{end}") == 0.0


def test_plain_and_read_sentence_ends_count() -> None:
    assert _sentences(2, "less than", "Wow! Great! Done!") == 0.0
    assert _sentences(2, "less than", "Wow\u203c Great\u2049 Done\uff1f") == 0.0


# ---- capitals a reader sees, lower case to the checker --------------------------------------------

_NOTE = ", this is a short note about the weather today."


@pytest.mark.xfail(strict=True, reason=(
    "open (Invisible and look-alike text): rewards.text._styled_word reads a whole word of "
    "small capitals as lower-case letters (`_make_tables`: styled_as = the name's last letter "
    ".lower()), so 'HELLO WORLD' set in small capitals reads 'hello world' and passes "
    "change_case_english_lowercase, while its reader sees capitals (the lm-eval reference "
    "passes it too: small capitals are Ll to str.islower)"))
def test_a_word_of_small_capitals_breaks_lowercase() -> None:
    assert _value(["change_case:english_lowercase"], [{}],
                  "\u029c\u1d07\u029f\u029f\u1d0f \u1d21\u1d0f\u0280\u029f\u1d05" + _NOTE) == 0.0


@pytest.mark.xfail(strict=True, reason=(
    "open (Invisible and look-alike text): rewards.text._styled_word keeps raised letters "
    "after a letter as written (an exponent or ordinal), and MODIFIER LETTER CAPITAL O, R, L, "
    "D (Lm) are uncased to str.islower, so 'w' + superscript ORLD passes "
    "change_case_english_lowercase while its reader sees capitals (the reference passes it "
    "too)"))
def test_raised_capitals_after_a_letter_break_lowercase() -> None:
    assert _value(["change_case:english_lowercase"], [{}],
                  "hello w\u1d3c\u1d3f\u1d38\u1d30" + _NOTE) == 0.0


def test_a_word_of_raised_capitals_breaks_lowercase() -> None:
    # held: a whole word of superscript capitals reads as its capitals
    assert read_text("\u1d34\u1d31\u1d38\u1d38\u1d3c world") == "HELLO world"
    assert _value(["change_case:english_lowercase"], [{}],
                  "\u1d34\u1d31\u1d38\u1d38\u1d3c world" + _NOTE) == 0.0
    assert _value(["change_case:english_lowercase"], [{}], "hello world" + _NOTE) == 1.0


# ---- the other new tables: blanks, drawn format characters, presumed symbols ----------------------

def test_only_the_braille_blank_and_the_ideographic_space_read_as_a_space() -> None:
    spaces = sorted(code for code, read in _tables().read_as.items() if read == " ")
    assert spaces == [0x2800, 0x3000]
    for shown in ["\u2422", "\u2423", "\u2420"]:  # BLANK SYMBOL, OPEN BOX, SYMBOL FOR SPACE
        assert read_text(f"a{shown}b") == f"a{shown}b" and not is_blank(shown)


@pytest.mark.parametrize("mark", ["\u0600", "\u0605", "\u06dd", "\u070f", "\u0890", "\u08e2",
                                  "\U000110bd"])
def test_a_drawn_format_character_splits_a_word_only_where_it_shows(mark: str) -> None:
    # held: kept and shown (not blank), so a word around it is two words to its reader too
    assert not is_blank(mark * 3)
    assert read_text(f"pass{mark}word") == f"pass{mark}word"


def test_a_presumed_symbol_is_a_symbol_or_unassigned_in_a_later_unicode() -> None:
    regex = pytest.importorskip("regex")  # its own, newer Unicode database
    import unicodedata

    later = [code for code in _tables().kept if unicodedata.category(chr(code)) == "Cn"
             and not regex.match(r"\p{So}|\p{Cn}", chr(code))]
    assert later == []


# ==== (b) honest text read as the reference reads it ==============================================

_HONEST = {
    "spanish": "\u00bfQu\u00e9 tal est\u00e1s? \u00a1Muy bien! Gracias por preguntar.",
    "greek": "\u03a4\u03b9 \u03ba\u03ac\u03bd\u03b5\u03b9\u03c2\u037e \u039a\u03b1\u03bb\u03ac "
             "\u03b5\u03af\u03bc\u03b1\u03b9.",
    "japanese": "\u305d\u3046\u3067\u3059\u306d\u2026\u2026 \u308f\u304b\u308a\u307e\u3057\u305f",
    "ipa": "the aspirated k\u02b0 in skin vs kin and the sound /t\u02b7/ is rounded.",
    "math": "we have x\u00b2 + y\u00b2 = z\u00b2 and a\u207f plus e\u2071 terms.",
    "footnote": "this is true\u00b9 and also that\u00b2 per the source.",
    "ordinal": "she came 5\u1d57\u02b0 and he was 1\u02e2\u1d57 in the 2\u207f\u1d48 round.",
    "french": "M\u1d50\u1d49 Dupont et M\u02b3 Martin, le 1\u1d49\u02b3 janvier.",
    "armenian": "\u0532\u0561\u0580\u0565\u0582 \u0540\u0561\u0575\u0565\u0580\u0565\u0576\u055e",
}
_INSTRUCTIONS = [
    ("punctuation:no_comma", {}),
    *[("length_constraints:number_words", {"num_words": n, "relation": "less than"})
      for n in range(1, 20)],
    *[("keywords:letter_frequency", {"letter": "a", "let_frequency": n, "let_relation": "less than"})
      for n in range(1, 8)],
    *[("change_case:capital_word_frequency",
       {"capital_frequency": n, "capital_relation": "less than"}) for n in range(1, 4)],
]


@pytest.mark.parametrize("name", sorted(_HONEST))
def test_honest_text_gets_the_reference_verdicts(lm_eval, name: str) -> None:  # type: ignore[no-untyped-def]
    text = _HONEST[name]
    ids = [iid for iid, _ in _INSTRUCTIONS]
    kwargs = [kw for _, kw in _INSTRUCTIONS]
    ours = verdicts(parse_constraints({"instruction_id_list": ids, "kwargs": kwargs}), text)
    assert ours == lm_eval.verdicts(ids, kwargs, "p", text, False)


def test_honest_superscripts_and_subscripts_are_kept() -> None:
    for name in ["ipa", "math", "footnote", "ordinal", "french"]:
        assert read_text(_HONEST[name]) == _HONEST[name], name


_CHEMISTRY = "water is H\u2082O and carbon dioxide is CO\u2082 at V\u2098\u2090\u2093."
_EMOJI = ("great job \U0001f44d\U0001f3fd and family \U0001f468\u200d\U0001f469\u200d"
          "\U0001f467 and flag \U0001f1fa\U0001f1f8 and keycap 1\ufe0f\u20e3 and \u2764\ufe0f.")


@pytest.mark.parametrize("text, words", [(_CHEMISTRY, 10), (_EMOJI, 10)])
def test_formulas_and_emoji_count_the_words_a_reader_counts(text: str, words: int) -> None:
    # held, and better than the reference: NLTK 3.10's `regex` engine splits H2O at its
    # subscript (No is no \w there) and counts each ZWJ and VS16 of an emoji as a word
    assert count_words(read_text(text)) == words
    assert read_text(text).replace("\ufe0f", "") == text.replace("\ufe0f", "")  # VS16 after 1


@pytest.mark.parametrize("text, words", [("we have 10\u207b\u00b3 terms", 4),
                                         ("g is 9 m s\u207b\u00b2 here", 6)])
def test_an_exponent_after_a_sign_is_no_word(text: str, words: int) -> None:
    # fixed (h-a8): an exponent after a raised sign stays on its base (rewards.ifeval._text.words)
    assert count_words(read_text(text)) == words


@pytest.mark.parametrize("text, words", [
    ("\u092e\u0948\u0902 \u0920\u0940\u0915 \u0939\u0942\u0901", 3),
    ("\u0643\u064e\u062a\u064e\u0628\u064e \u0627\u0644\u0648\u064e\u0644\u064e\u062f\u064f", 2),
    ("\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35 \u0e04\u0e23\u0e31\u0e1a", 2),
])
def test_words_with_combining_marks_count_as_their_reader_counts(text: str, words: int) -> None:
    # fixed (h-a8): combining marks are word characters, as in the reference's `regex` engine
    assert count_words(read_text(text)) == words
    assert _value(["length_constraints:number_words"],
                  [{"num_words": words + 1, "relation": "less than"}], text) == 1.0


def test_words_without_combining_marks_count_as_their_reader_counts() -> None:
    assert count_words(read_text("\u041f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440")) == 2
    assert count_words(read_text("\u0645\u0631\u062d\u0628\u0627 \u0628\u0643\u0645")) == 2


@pytest.mark.parametrize("emoji", ["\u203c\ufe0f", "\u2049\ufe0f", "\u2139\ufe0f", "\u24c2\ufe0f"])
def test_an_emoji_presentation_sequence_stays_an_emoji(emoji: str) -> None:
    # fixed (h-a8): a character that VS16 makes an emoji stays as written, with its VS16
    text = f"We won {emoji}. Next we rest {emoji}"
    assert format_emoji(text)  # IFBench's check, as IFBench reads it: the raw code points
    assert _value(["format:emoji"], [{}], text) == 1.0


@pytest.mark.parametrize("emoji", ["\u2764\ufe0f", "\U0001f44d\U0001f3fd", "\u00a9\ufe0f",
                                   "\U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001fa77",
                                   "\u3030\ufe0f", "\U0001f170\ufe0f"])
def test_an_emoji_keeps_its_format_emoji_verdict(emoji: str) -> None:
    text = f"We won {emoji}. Next we rest {emoji}"
    assert format_emoji(text) and _value(["format:emoji"], [{}], text) == 1.0


# ==== bounds: 1 MB replies of the new special characters =========================================

_HOSTILE = {
    "zero-width inside words": "a\u200b",
    "emoji between letters": "a\U0001f600",
    "private use, astral": "\U000f0000",
    "ligatures": "\ufb03",
    "circled letter and joiner": "\u24df\u200d",
    "superscript words": "\u1d56\u1d43 ",
    "small-capital words": "\u1d18\u1d00 ",
    "braille blanks": "\u2800",
    "script full stops": "\u166e ",
    "right-to-left override": "\u202ea\u202c",
    "look-alike words": "p\u0430ss ",
    "astral combining marks": " \U0001d167",
    "drawn format characters": "\u0600",
    "composition exclusions": "\u0958",
}


@pytest.mark.parametrize("name", sorted(_HOSTILE))
def test_reading_a_megabyte_of_special_characters_is_bounded(name: str) -> None:
    unit = _HOSTILE[name]
    text = unit * (1_000_000 // len(unit.encode()))  # 1 MB of UTF-8
    read_text("\u00e9")  # the tables are made once per process, not per text
    start = time.perf_counter()
    read = read_text(text)
    reading = time.perf_counter() - start
    start = time.perf_counter()
    is_blank_read(read)
    deciding = time.perf_counter() - start
    # linear: under 0.3 s here; quadratic: minutes (a bound with a margin for any CPU and a
    # loaded CI machine, as test_redteam_reading's; 1 s failed here under load)
    assert (reading < 20.0, deciding < 20.0) == (True, True), (reading, deciding)


# ==== entry points: the same verdict through each door ============================================

_DOORS: list[tuple[str, list[str], list[dict[str, object]]]] = [
    ("my \u24dfassword is x", ["keywords:forbidden_words"], [{"forbidden_words": ["password"]}]),
    ("one\uff0c two", ["punctuation:no_comma"], [{}]),
    ("Hi\u166e there\u166e friend\u166e", ["length_constraints:number_sentences"],
     [{"num_sentences": 3, "relation": "at least"}]),
    ("\u200b\u2800\ue000", ["punctuation:no_comma"], [{}]),
    ("We won \u203c\ufe0f. Next \u2764\ufe0f", ["format:emoji"], [{}]),
]


def test_every_entry_point_reads_the_same_reply(tmp_path: Path) -> None:
    from rewards_cli import main

    config = tmp_path / "rewards.yaml"
    config.write_text("domains:\n  ifeval: {rewards: [{use: ifeval}]}\nnormalize: none\n")
    rows = tmp_path / "rows.jsonl"
    rows.write_text("".join(json.dumps({
        "completion": text, "domain": "ifeval",
        "reference": {"instruction_id_list": ids, "kwargs": kwargs}}) + "\n"
        for text, ids, kwargs in _DOORS))
    out = tmp_path / "scores.jsonl"
    assert main(["score", str(rows), "--config", str(config), "--out", str(out),
                 "--progress", "off"]) == 0
    cli = [json.loads(line)["score"] for line in out.read_text().splitlines()]
    library = [_value(ids, kwargs, text) for text, ids, kwargs in _DOORS]
    function = [float(all(verdicts(parse_constraints(
        {"instruction_id_list": ids, "kwargs": kwargs}), text))) for text, ids, kwargs in _DOORS]
    assert cli == library == function
    assert _server(config) == library


def _server(config: Path) -> list[float]:
    """The HTTP server's scores (OpenRLHF's `/get_reward`: query = prompt + completion)."""
    pytest.importorskip("fastapi", reason="the server needs pip install -e '.[server]'")
    from fastapi.testclient import TestClient

    from integrations.server import create_app

    body = {"query": ["p" + text for text, _, _ in _DOORS], "prompts": ["p"] * len(_DOORS),
            "labels": [json.dumps({"instruction_id_list": ids, "kwargs": kwargs})
                       for _, ids, kwargs in _DOORS],
            "domains": ["ifeval"] * len(_DOORS)}
    with TestClient(create_app(config)) as client:
        reply = client.post("/get_reward", json=body)
    assert reply.status_code == 200, reply.text
    return [float(v) for v in reply.json()["rewards"]]
