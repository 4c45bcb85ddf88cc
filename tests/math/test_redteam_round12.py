"""Red team, round 12 of issue #33: what the verifier reads after a final box (main at 636d446).

The rules attacked (merges of h-m13 and h-m10; docs/math.md, "What is glued to a box" and what
follows a box), all in `rewards/math/_extract.py` unless named:

- h-m13: `_glue_symbols` (harmless glue by Unicode category Po/Pf/Pi/Pe/So/Sc, less numerics,
  operations and the judging marks), `_unspaced_letters`, `_EQUATION_NUMBER` (a whole number of
  at most three digits in brackets after `\\quad`, `\\qquad`, `\\hfill`, `\\tag` is a label),
  `_PASSED_GLUE`, `_sentence_bang`, `_approximates`, hyphen compounds, `Extraction.ordinal` with
  `asks_for_place` (`rewards/math/_compare.py`);
- h-m10: `_said_after_a_mark`, `_judged_sentence`, `_JUDGING_WORDS`, `_hedged_expression`,
  `_ASIDE_WORDS`, the restatement openers (`Oh wait, 8.`).

How: every probe goes through the reward as users call it, `MathReward().score([Sample(question,
completion, reference=gold)])`, behind Qwen's `The answer is $\\boxed{7}$.` phrasing, as in
`test_redteam_round10.py`. Two directions (`/work/shared/ATTACK-CLASSES.md`):

- buy credit: text after the box that hedges, judges or changes its value keeps the gold's 1.0;
- false loss: an honest ending of a real completion loses the 1.0 a careful grader gives.

Held attacks are plain tests. Each hole left open is an `xfail(strict=True)` whose reason starts
with its class and names the function at its root. The verifier is not changed here.
Deterministic; no timing.
"""

from __future__ import annotations

import pytest

from rewards.math import MathReward
from tests.math.redteam_helpers import APPLES
from tests.math.redteam_helpers import values as _values

RANK = "What is Mia's rank?"
PLACE = "In which place did Mia finish the race?"


def _value(reward: MathReward, gold: object, completion: str, question: str = APPLES) -> float | None:
    return _values(reward, gold, [completion], question)[0]


# --- held: buy credit ----------------------------------------------------------------------------

@pytest.mark.parametrize("completion", [
    # judging and refusing symbols glued (So, not on the harmless list or denied as judging)
    "\\boxed{7}\U0001f6ab", "\\boxed{7}\u26d4", "\\boxed{7}\u274e", "\\boxed{7}\u26a0\ufe0f",
    "\\boxed{7}\u2718", "\\boxed{7}\u2613", "\\boxed{7}\U0001f645", "\\boxed{7}\u2716", "\\boxed{7}\u274c",
    "\\boxed{7}\u2298", "\\boxed{7}\u00ac", "\\boxed{7}\u2049",
    # numerals of other kinds glued (enclosed, circled, mathematical, keycap emoji)
    "\\boxed{7}\U0001f51f", "\\boxed{7}\U0001f4af", "\\boxed{7}\u2776", "\\boxed{7}\u24ea",
    "\\boxed{7}\u3280", "\\boxed{7}\u2488", "\\boxed{7}\u2467", "\\boxed{7}\U0001d7d6", "\\boxed{7}\u2070",
    # marks that write a value or an operation
    "\\boxed{7}\u2030", "\\boxed{7}\u215f", "\\boxed{7}\u2052", "\\boxed{7}\u00f7", "\\boxed{7}\u2295",
    "\\boxed{7}\u2e318", "\\boxed{7}\u00b7",
    # a closer followed by a value (`_PASSED_GLUE`)
    "\\boxed{7})8", "\\boxed{7}]8", "\\boxed{7}\u00bb8", "\\boxed{7}\u00bb000", "\\boxed{7}\u30098",
    # a currency sign glued to a value or after a magnitude letter
    "\\boxed{7}\u00a38", "\\boxed{7}\u20ac8", "\\boxed{7}k\u20ac",
    # equation numbers are labels only as whole numbers of at most three digits
    "\\boxed{7} \\qquad (8.0)", "\\boxed{7} \\qquad (7 or 8)", "\\boxed{7} \\qquad (\\text{or } 8)",
    "\\boxed{7} \\qquad [8]", "\\boxed{7}\\tag{or 8}", "\\boxed{7} \\qquad (8) \\text{ is also possible}",
    "\\boxed{7}\\qquad (7.5)", "\\boxed{7} \\quad (2.1)", "\\boxed{7} \\quad (1000)",
    "\\boxed{7} \\qquad (8) or 8", "\\boxed{7} \\qquad (-8)", "\\boxed{7} \\qquad (\\text{8})",
    "\\boxed{7}\\hspace{1cm}(8)", "\\boxed{7}\\;(8)", "\\boxed{7}\\,(8)", "\\boxed{7}~(8)",
    "\\boxed{7}\\quad(8)\\quad(9)", "\\boxed{7}\\quad -8", "\\boxed{7}\\quad\\text{or}\\quad 8",
    "\\boxed{7}\\tag{8}. It is 8.", "\\boxed{7}\\quad \\boxed{8}",
    # hedges and judgements in the languages read
    "\\boxed{7}. Or 8.", "\\boxed{7}. Oder 8.", "\\boxed{7}. Ou 8.", "\\boxed{7}. O 8.", "\\boxed{7}. \u0418\u043b\u0438 8.",
    "\\boxed{7}\u3002\u6216\u80058\u3002", "\\boxed{7}. Falsch.", "\\boxed{7}. Wrong.", "\\boxed{7}. Faux.",
    "\\boxed{7}. Incorrecto.", "\\boxed{7}. \u041d\u0435\u0432\u0435\u0440\u043d\u043e.",
    "\\boxed{7}\u3002\u9519\u8bef\u3002", "\\boxed{7}\u3002\u4e0d\u5bf9\u3002", "\\boxed{7}. I'm not sure.",
    "\\boxed{7}. Ich bin nicht sicher.", "\\boxed{7}\u0964 \u0917\u0932\u0924\u0964",
    "\\boxed{7}\u060c \u062e\u0637\u0623.", "\\boxed{7}\u061b \u062e\u0637\u0623",
    "\\boxed{7}\u3002\u8fd9\u4e0d\u5bf9\u5417\uff1f", "\\boxed{7}. Das stimmt nicht.",
    # restatement openers
    "\\boxed{7}. Wait, 8.", "\\boxed{7}. Oh wait, 8.", "\\boxed{7}. Hmm, 8.", "\\boxed{7}. Actually 8.",
    "\\boxed{7}. No, 8.",
])
def test_held_buy_credit_gold_7(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


@pytest.mark.parametrize(("gold", "completion"), [
    # an equation number is never the answer: the box is
    ("8", "\\boxed{7} \\qquad (8)"), ("8", "\\boxed{7} \\tag{8}"), ("100", "\\boxed{7} \\qquad (100)"),
    ("8", "\\boxed{7}\\quad 8"), ("8", "\\boxed{7}\\qquad 8"),
    # a glued value after a closer is no credit for a value it does not write
    ("78", "\\boxed{7}\u300d8"), ("78", "\\boxed{7}\u201d8"),
    # a decimal in brackets that is not the box rounded to its printed precision
    ("\\sqrt{2}", "\\boxed{\\sqrt{2}} (1.41421356237309515)"), ("\\sqrt{2}", "\\boxed{\\sqrt{2}} (1.42)"),
    ("\\sqrt{2}", "\\boxed{\\sqrt{2}} (1.0)"), ("\\pi", "\\boxed{\\pi} (3.0)"), ("\\pi", "\\boxed{\\pi} (3.2)"),
    ("\\pi", "\\boxed{\\pi} (3.)"), ("\\frac{1}{3}", "\\boxed{\\frac{1}{3}} (0.0)"), ("7.4", "\\boxed{7.4} (7.0)"),
    ("7.4", "\\boxed{7.4} (7.)"), ("\\frac{15}{2}", "\\boxed{\\frac{15}{2}} (8.0)"),
    # ordinals: another form of the value, never another value
    ("7", "\\boxed{7}th"), ("1", "\\boxed{1}st or \\boxed{2}nd"), ("7", "\\boxed{7}rd"),
])
def test_held_buy_credit_other_gold(reward: MathReward, gold: str, completion: str) -> None:
    question = RANK if completion.endswith(("nd", "rd")) else APPLES
    assert _value(reward, gold, completion, question) == 0.0


@pytest.mark.parametrize(("question", "completion"), [
    (PLACE, "\\boxed{7}st"), (PLACE, "\\boxed{7}nd"), (APPLES, "\\boxed{7}th"), (APPLES, "\\boxed{7}th."),
])
def test_held_wrong_or_unasked_ordinal(reward: MathReward, question: str, completion: str) -> None:
    assert _value(reward, "7", completion, question) == 0.0


# --- open: buy credit ----------------------------------------------------------------------------

# fixed (h-m16): `_glue_symbols` is an allow-list by Unicode name (`_APPROVING_SYMBOL`, `_SENTENCE_MARK`)
@pytest.mark.parametrize("completion", [
    "\\boxed{7}\U0001f914", "\\boxed{7}\U0001f937", "\\boxed{7}\U0001f615", "\\boxed{7}\U0001f641",
    "\\boxed{7}\u203d",
])
def test_fixed_glued_emoji_of_doubt(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m17): `_unread_after_box` keeps a box after a symbol only when the symbol is a
# known approving or closing mark (`_HARMLESS_MARKS`), glued or spaced
@pytest.mark.parametrize("completion", [
    "\\boxed{7}\U0001f914", "\\boxed{7}\U0001f937", "\\boxed{7}\U0001f615", "\\boxed{7}\U0001f641",
])
def test_glued_emoji_of_doubt(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m17): a symbol after the box is read unless it is a known approving or closing mark (`_HARMLESS_MARKS`)
@pytest.mark.parametrize("completion", [
    "\\boxed{7} \u274c", "\\boxed{7} \U0001f44e", "\\boxed{7} \u2717", "\\boxed{7} \U0001f6ab",
    "\\boxed{7} \u26d4", "\\boxed{7} \U0001f645", "\\boxed{7} \u274e", "\\boxed{7}. \U0001f914",
])
def test_hole_spaced_judging_mark(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m16): `_PASSED_GLUE` reads past closing quotes and brackets of any script
@pytest.mark.parametrize("completion", [
    "\\boxed{7}\u20198", "\\boxed{7}\u201d8", "\\boxed{7}\u2019000", "\\boxed{7}\u300d8",
    "\\boxed{7}\u300f8", "\\boxed{7}\u30118",
])
def test_fixed_value_after_a_unicode_closer(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m16): a currency sign is harmless only before no letter or digit (`_CURRENCY_UNITS`)
@pytest.mark.parametrize("completion", [
    "\\boxed{7}\u20acM", "\\boxed{7}\u20acm", "\\boxed{7}\u00a3bn", "\\boxed{7}\u00a5k", "\\boxed{7}\u20ack",
])
def test_fixed_magnitude_after_currency(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m17): `_unread_after_box` reads a value one space or spacing command after the box as said beside it
@pytest.mark.parametrize("completion", [
    "\\boxed{7} 8", "\\boxed{7}\\quad 8", "\\boxed{7}\\qquad 8", "\\boxed{7}\\hfill 8",
    "\\boxed{7}\\qquad 7.5", "\\boxed{7}\\qquad 8 apples",
])
def test_hole_bare_value_after_spacing(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m14): `_HEDGING_OPENER` reads a sentence that opens with a hedging word and offers a
# value as the value stated again, so another value unsays the box
@pytest.mark.parametrize("completion", [
    "\\boxed{7}. Maybe 8.", "\\boxed{7}. Perhaps 8.", "\\boxed{7}. It could also be 8.",
    "\\boxed{7}. Vielleicht 8.", "\\boxed{7}. Peut-\u00eatre 8.", "\\boxed{7}. Quiz\u00e1s 8.",
    "\\boxed{7}. Forse 8.", "\\boxed{7}. \u041c\u043e\u0436\u0435\u0442 \u0431\u044b\u0442\u044c, 8.",
    "\\boxed{7}\u3002\u4e5f\u8bb8\u662f8\u3002", "\\boxed{7}. Could be 8 though.",
])
def test_hedge_sentence_with_a_value(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m17): `_unread_after_box`: a next sentence with another value unsays the box, in any words
@pytest.mark.parametrize("completion", [
    "\\boxed{7}. Nein, 8.", "\\boxed{7}. Warte, 8.", "\\boxed{7}. Eigentlich 8.", "\\boxed{7}. Attends, 8.",
    "\\boxed{7}. Espera, 8.", "\\boxed{7}. En realidad, 8.", "\\boxed{7}. Oppure 8.",
])
def test_hole_correction_in_the_seven_languages(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m17): `_unread_after_box`: another value in a next sentence unsays the box and a short
# sentence is kept only when its words are on the allow-list of remarks (`_harmless_remark`), any language
@pytest.mark.parametrize("completion", [
    # another value offered with `or`
    "\\boxed{7}. Ya da 8.", "\\boxed{7}. Veya 8.", "\\boxed{7}. Ho\u1eb7c 8.", "\\boxed{7}. Atau 8.",
    "\\boxed{7}. Albo 8.", "\\boxed{7}. Lub 8.", "\\boxed{7}. Of 8.", "\\boxed{7}. Au 8.",
    "\\boxed{7}\u3002\u3042\u308b\u3044\u306f8\u3002", "\\boxed{7}. \uc544\ub2c8\uba74 8.",
    "\\boxed{7}. \u0623\u0648 8.", "\\boxed{7}. \u092f\u093e 8.",
    # a hedge with a value
    "\\boxed{7}. Belki 8.", "\\boxed{7}. Mungkin 8.", "\\boxed{7}. Mo\u017ce 8.", "\\boxed{7}. Misschien 8.",
    "\\boxed{7}. Labda 8.", "\\boxed{7}. 8 olabilir.", "\\boxed{7}. Bisa juga 8.",
    "\\boxed{7}. C\u00f3 th\u1ec3 l\u00e0 8.", "\\boxed{7}. Het kan ook 8 zijn.", "\\boxed{7}. Inaweza kuwa 8.",
    "\\boxed{7}\u3002\u591a\u52068\u3067\u3059\u3002", "\\boxed{7}. \uc544\ub9c8 8.",
    "\\boxed{7}. \u0631\u0628\u0645\u0627 8.", "\\boxed{7}. \u0936\u093e\u092f\u0926 8.",
    # a judgement
    "\\boxed{7}. Yanl\u0131\u015f.", "\\boxed{7}. Bu yanl\u0131\u015f.", "\\boxed{7}. Sai.",
    "\\boxed{7}. \u0110i\u1ec1u n\u00e0y sai.", "\\boxed{7}. Salah.", "\\boxed{7}. Ini salah.",
    "\\boxed{7}. \u0179le.", "\\boxed{7}. To jest b\u0142\u0119dne.", "\\boxed{7}. Fout.",
    "\\boxed{7}. Dit is fout.", "\\boxed{7}. Si sahihi.", "\\boxed{7}. Emin de\u011filim.",
    "\\boxed{7}. Saya tidak yakin.", "\\boxed{7}. T\u00f4i kh\u00f4ng ch\u1eafc.",
    "\\boxed{7}. Nie jestem pewien.", "\\boxed{7}. Ik weet het niet zeker.",
    "\\boxed{7}\u3002\u9055\u3046\u3002", "\\boxed{7}. \u3053\u308c\u306f\u9593\u9055\u3044\u3067\u3059\u3002",
    "\\boxed{7}. \ud2c0\ub838\ub2e4.", "\\boxed{7}. \uc774\uac83\uc740 \ud2c0\ub838\uc2b5\ub2c8\ub2e4.",
    "\\boxed{7}. \u092f\u0939 \u0917\u0932\u0924 \u0939\u0948\u0964", "\\boxed{7}. \u0647\u0630\u0627 \u062e\u0637\u0623.",
    # a correction
    "\\boxed{7}. Bekle, 8.", "\\boxed{7}. Tunggu, 8.", "\\boxed{7}. Czekaj, 8.", "\\boxed{7}. Wacht, 8.",
    "\\boxed{7}. Hay\u0131r, 8.", "\\boxed{7}. Tidak, 8.", "\\boxed{7}. Kh\u00f4ng, 8.", "\\boxed{7}. Nie, 8.",
    "\\boxed{7}. Nee, 8.", "\\boxed{7}. Hapana, 8.",
    # a judgement after another script's full stop (Armenian, Amharic)
    "\\boxed{7}\u0589 \u054d\u056d\u0561\u056c \u0567\u0589", "\\boxed{7}\u1362 \u1235\u1205\u1270\u1275 \u1290\u12cd\u1362",
    # a correction (continued)
    "\\boxed{7}. Asl\u0131nda 8.", "\\boxed{7}. Sebenarnya 8.", "\\boxed{7}. W\u0142a\u015bciwie 8.",
    "\\boxed{7}. Eigenlijk 8.",
])
def test_hole_hedge_outside_the_languages_read(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m16): an ordinal whose clause goes on past it is not the value as a place alone
# (`_ORDINAL_END`), so the pair is uncertain
@pytest.mark.parametrize("completion", [
    "\\boxed{2}nd or 3rd", "\\boxed{2}nd (3rd?)", "\\boxed{2}nd/3rd", "\\boxed{2}nd-3rd",
    "\\boxed{2}nd (or 3rd)", "\\boxed{2}nd or third",
])
def test_fixed_ordinal_alternative_in_its_clause(reward: MathReward, completion: str) -> None:
    assert _value(reward, "2", completion, RANK) == 0.0


# fixed (h-m17): `_box_with_words` reads what follows an ordinal suffix as after the box
@pytest.mark.parametrize("completion", [
    "\\boxed{2}nd, or 3rd", "\\boxed{2}nd. Or 3rd.", "\\boxed{2}nd, maybe 3rd",
])
def test_fixed_ordinal_alternative_after_its_clause(reward: MathReward, completion: str) -> None:
    assert _value(reward, "2", completion, RANK) == 0.0


# fixed (h-m16): `_own_ordinal` wants the ordinal's clause to end after it, or after what it counts (`_ORDINAL_END`)
@pytest.mark.parametrize("completion", [
    "\\boxed{2}nd-to-last", "\\boxed{2}nd last", "\\boxed{2}nd from the end", "\\boxed{2}nd from last",
])
def test_fixed_ordinal_counted_from_the_end(reward: MathReward, completion: str) -> None:
    assert _value(reward, "2", completion, RANK) == 0.0


# fixed (h-m16): `_compound_changes`: a compound leaves the value only when each word is a unit, a counted noun or on `_COMPOUND_WORDS`
@pytest.mark.parametrize("completion", [
    "\\boxed{7}-ish", "\\boxed{7}-odd", "\\boxed{7}-something", "\\boxed{7}-plus", "\\boxed{7}-minus",
    "\\boxed{7}-thousand", "\\boxed{7}-million", "\\boxed{7}-hundred", "\\boxed{7}-dozen",
    "\\boxed{7}-tenths", "\\boxed{7}-thousandths", "\\boxed{7}-halves", "\\boxed{7}-percent",
    "\\boxed{7}-squared", "\\boxed{7}-cubed", "\\boxed{7}-eight",
])
def test_fixed_hyphen_compound_changes_the_value(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m16): a `\\tag{...}` that is no label (`_LABEL`) is read as a bracket after the box
@pytest.mark.parametrize("completion", ["\\boxed{7}\\tag{8 \\text{ or } 9}", "\\boxed{7}\\tag{7 \\text{ or } 8}"])
def test_fixed_tag_with_a_hedge(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


@pytest.mark.parametrize("completion", [
    "\\boxed{7}, give or take", "\\boxed{7}, at least", "\\boxed{7}, at most", "\\boxed{7}+",
    "\\boxed{7}, give or take 1", "\\boxed{7}, if not 8", "\\boxed{7}, unless it is 8", "\\boxed{7}, else 8",
    "\\boxed{7}, and 8", "\\boxed{7}, also 8.", "\\boxed{7}. Another answer is 8.", "\\boxed{7}. Or possibly 8.",
    "\\boxed{7}. Not certain.", "\\boxed{7}. Just a guess.", "\\boxed{7}. Random guess.", "\\boxed{7}. Probably.",
    "\\boxed{7}. Nope.", "\\boxed{7}. Never mind.", "\\boxed{7}. Not really.", "\\boxed{7}. LOL no.",
    "\\boxed{7} (jk)", "\\boxed{7} (sarcasm)", "\\boxed{7}. Correction: 8.", "\\boxed{7}. EDIT: it's 8.",
])
def test_held_hedge_or_take_back_after_the_box(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m17): `_unread_after_box` (another value in a next sentence, beside the box, or after `, but`)
@pytest.mark.parametrize("completion", [
    "\\boxed{7}. Also 8.", "\\boxed{7}. 8 also works.", "\\boxed{7}. 8 works too.",
    "\\boxed{7}. Both 7 and 8 work.", "\\boxed{7}. Alternatively, 8.",
    "\\boxed{7}, but 8 is also valid", "\\boxed{7} & 8",
])
def test_hole_second_answer_offered(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m17): `_unread_after_box`: another value in a next sentence, with any opener
@pytest.mark.parametrize("completion", [
    "\\boxed{7}. I meant 8.", "\\boxed{7}. Typo, I meant 8.", "\\boxed{7}. Edit: 8.", "\\boxed{7}. Update: 8.",
    "\\boxed{7}. Erratum: 8.", "\\boxed{7}. Final: 8.", "\\boxed{7}. Revised: 8.", "\\boxed{7}. P.S. 8.",
])
def test_hole_replacement_without_a_known_opener(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m17): `_unread_after_box`: a short sentence off the allow-list of remarks is uncertain
@pytest.mark.parametrize("completion", [
    "\\boxed{7}. Scratch that.", "\\boxed{7}. Ignore that.", "\\boxed{7}. Disregard.", "\\boxed{7}. Jk.",
    "\\boxed{7}. /s", "\\boxed{7}. IDK.", "\\boxed{7}. Dunno.", "\\boxed{7}. Low confidence.",
    "\\boxed{7}. 50% confident.", "\\boxed{7}. Confidence: 30%.",
])
def test_hole_take_back_not_in_the_word_list(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m14): `_qualified_phrase` keeps the box when the answer phrase after it is qualified
@pytest.mark.parametrize("completion", [
    "\\boxed{8}. (A common wrong answer is 7.)", "\\boxed{8}. A common wrong answer is 7.",
    "\\boxed{8}. The wrong answer is 7.", "\\boxed{8}. An incorrect answer is 7.",
    "\\boxed{8}. Some might think the answer is 7.", "\\boxed{8}. A naive answer is 7.",
    "\\boxed{8}. If you forgot Mia, the answer is 7.", "\\boxed{8}. Without the extra apple, the answer is 7.",
])
def test_rejected_answer_phrase_does_not_win(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m16): only the signs of whole currency units are harmless glue (`_CURRENCY_UNIT`)
@pytest.mark.parametrize("completion", ["\\boxed{7}\u00a2", "\\boxed{7}\u20a5"])
def test_fixed_sub_unit_currency_glued(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion, "How many dollars does Mia have?") == 0.0


@pytest.mark.xfail(strict=True, reason="open: buy credit: _HARMLESS_GLUE drops a glued percent sign (and "
                   "_glue_symbols its Arabic and full-width forms) whatever the question asks; in a "
                   "question for a fraction `\\boxed{7}%` is 0.07, yet keeps a gold of 7 (and so does "
                   "`\\boxed{7\\%}`: the comparison, fast_compare, credits `7%` against 7 and 0.07 alike, "
                   "so reading the sign with the box changes nothing there)")
@pytest.mark.parametrize("completion", ["\\boxed{7}%", "\\boxed{7}\u066a", "\\boxed{7}\uff05", "\\boxed{7}\ufe6a"])
def test_hole_percent_in_a_fraction_question(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion, "What fraction of the apples are red?") == 0.0


# --- held: false loss ----------------------------------------------------------------------------

@pytest.mark.parametrize(("gold", "completion", "question"), [
    # honest endings that explain or rule out a wrong value
    ("7", "\\boxed{7}. Note that 7 is not divisible by 2.", APPLES),
    ("7", "\\boxed{7}. It can't be 8 because 8 apples would exceed the basket.", APPLES),
    ("7", "\\boxed{7}. (Not 8, as one might think.)", APPLES),
    ("7", "\\boxed{7}. Not 8, as one might think.", APPLES),
    ("7", "\\boxed{7}. The answer cannot be 8.", APPLES),
    ("7", "\\boxed{7}. The other candidate, 8, fails the check.", APPLES),
    ("7", "\\boxed{7}. We rejected 8 earlier.", APPLES),
    ("7", "\\boxed{7}. Not 6 or 8.", APPLES),
    ("7", "\\boxed{7}. There is no other solution.", APPLES), ("7", "\\boxed{7}. None of the other options work.", APPLES),
    ("7", "\\boxed{7}. Nothing else satisfies the conditions.", APPLES),
    ("7", "\\boxed{7}. This cannot be simplified further.", APPLES), ("7", "\\boxed{7}. Not 7.5, since apples are whole.", APPLES),
    ("7", "\\boxed{7}. Mia can't have 8.", APPLES), ("7", "\\boxed{7}. Not 8.", APPLES),
    ("7", "\\boxed{7}. Definitely not 8.", APPLES), ("7", "\\boxed{7}. The common mistake is 8.", APPLES),
    ("7", "\\boxed{7}. Be careful not to answer 8.", APPLES), ("7", "\\boxed{7}. Don't confuse this with 8.", APPLES),
    ("7", "\\boxed{7}. Es gibt keine andere L\u00f6sung.", APPLES), ("7", "\\boxed{7}. Il n'y a pas d'autre solution.", APPLES),
    ("7", "\\boxed{7}\u3002\u6ca1\u6709\u5176\u4ed6\u89e3\u3002", APPLES),
    ("7", "\\boxed{7}. Let me know if you have questions.", APPLES), ("7", "\\boxed{7}. Any questions?", APPLES),
    ("7", "\\boxed{7}. Q.E.D.", APPLES), ("7", "\\boxed{7}. Done!", APPLES),
    # labels, end-of-proof marks and equation numbers
    ("7", "\\boxed{7} \\quad (\\text{Answer})", APPLES), ("7", "\\boxed{7} \\quad \\text{(Answer)}", APPLES),
    ("7", "\\boxed{7}\\qquad\\blacksquare", APPLES), ("7", "\\boxed{7}\\qquad\\square", APPLES),
    ("7", "\\boxed{7} \\tag{1}", APPLES), ("7", "\\boxed{7} \\qquad (1)", APPLES),
    ("7", "\\boxed{7} \\qquad (8)", APPLES), ("7", "\\boxed{7}\\tag{8}", APPLES),
    ("7", "\\boxed{7} \\qquad (100)", APPLES), ("7", "\\boxed{7} \\qquad (999)", APPLES),
    # sign-offs in other languages
    ("7", "\\boxed{7}\u3002\u5e0c\u671b\u5bf9\u4f60\u6709\u5e2e\u52a9\u3002", APPLES),
    ("7", "\\boxed{7}. Ich hoffe, das hilft.", APPLES), ("7", "\\boxed{7}. Espero que ayude.", APPLES),
    ("7", "\\boxed{7}. Espero que isso ajude.", APPLES), ("7", "\\boxed{7}. J'esp\u00e8re que cela aide.", APPLES),
    ("7", "\\boxed{7}. \u041d\u0430\u0434\u0435\u044e\u0441\u044c, \u044d\u0442\u043e \u043f\u043e\u043c\u043e\u0436\u0435\u0442.", APPLES),
    ("7", "\\boxed{7}\u3002\u304a\u5f79\u306b\u7acb\u3066\u308c\u3070\u5e78\u3044\u3067\u3059\u3002", APPLES),
    ("7", "\\boxed{7}. \ub3c4\uc6c0\uc774 \ub418\uc5c8\uae30\ub97c \ubc14\ub78d\ub2c8\ub2e4.", APPLES),
    ("7", "\\boxed{7}\uc785\ub2c8\ub2e4.", APPLES), ("7", "\\boxed{7}\u3067\u3059\u3002", APPLES),
    ("7", "\\boxed{7}\uac1c\uc785\ub2c8\ub2e4.", APPLES), ("7", "\\boxed{7}\u500b\u3067\u3059\u3002", APPLES),
    ("7", "\\boxed{7}\u4e2a\u82f9\u679c\u3002", APPLES), ("7", "\\boxed{7}. Umar\u0131m yard\u0131mc\u0131 olur.", APPLES),
    ("7", "\\boxed{7}. Semoga membantu.", APPLES), ("7", "\\boxed{7}. Mam nadziej\u0119, \u017ce to pomo\u017ce.", APPLES),
    ("7", "\\boxed{7}. Ik hoop dat dit helpt.", APPLES), ("7", "\\boxed{7}. Spero che questo aiuti.", APPLES),
    ("7", "\\boxed{7}. Natumaini hii inasaidia.", APPLES),
    # approving and harmless glyphs glued
    ("7", "\\boxed{7}\u2713", APPLES), ("7", "\\boxed{7}\u2714", APPLES), ("7", "\\boxed{7}\u2705", APPLES),
    ("7", "\\boxed{7} \u2705", APPLES), ("7", "\\boxed{7}\U0001f44d", APPLES), ("7", "\\boxed{7}\U0001f60a", APPLES),
    ("7", "\\boxed{7}\u2020", APPLES), ("7", "\\boxed{7}\u203b", APPLES), ("7", "\\boxed{7}\u201d", APPLES),
    ("7", "\\boxed{7}\u00bb", APPLES), ("7", "\\boxed{7}\u3011", APPLES), ("7", "\\boxed{7}\u2019s", APPLES),
    ("7", "\\boxed{7}\u3002", APPLES), ("7", "\\boxed{7}\u2103", APPLES),
    # a decimal in brackets that is the box rounded (`_approximates`)
    ("\\sqrt{2}", "\\boxed{\\sqrt{2}} (1.414)", APPLES), ("\\sqrt{2}", "\\boxed{\\sqrt{2}} (1.41)", APPLES),
    ("\\pi", "\\boxed{\\pi} (3.14)", APPLES), ("\\frac{1}{3}", "\\boxed{\\frac{1}{3}} (0.33)", APPLES),
    ("\\frac{15}{2}", "\\boxed{\\frac{15}{2}} (7.5)", APPLES),
    ("\\frac{1}{8}", "\\boxed{\\frac{1}{8}} (0.12)", APPLES), ("\\frac{1}{8}", "\\boxed{\\frac{1}{8}} (0.13)", APPLES),
    ("\\frac{2}{3}", "\\boxed{\\frac{2}{3}} (0.7)", APPLES), ("7.5", "\\boxed{7.5} (7.50)", APPLES),
    # compounds that leave the value, and a tag of any label
    ("7", "\\boxed{7}-fold", APPLES), ("7", "\\boxed{7}-year-old", APPLES), ("7", "\\boxed{7}-digit", APPLES),
    ("7", "\\boxed{7}\\tag{7.5}", APPLES), ("7", "\\boxed{7}\\tag{8a}", APPLES), ("7", "\\boxed{7} \\hfill (8).", APPLES),
    # an ordinal in a question about a place, a rank or a position
    ("7", "\\boxed{7}th", PLACE), ("7", "\\boxed{7}^{th}", PLACE), ("7", "\\boxed{7}th", RANK),
    ("7", "\\boxed{7}th", "Which place did Mia take?"), ("7", "\\boxed{7}th", "What position does Mia hold?"),
    ("1", "\\boxed{1}st", RANK),
])
def test_held_false_loss(reward: MathReward, gold: str, completion: str, question: str) -> None:
    assert _value(reward, gold, completion, question) == 1.0


# --- open: false loss ----------------------------------------------------------------------------

# fixed (h-m14): `_judges_the_answer` reads a negation by what it negates
@pytest.mark.parametrize("completion", [
    "\\boxed{7}. This is not a coincidence.", "\\boxed{7}. No other value works.",
])
def test_affirming_sentence_with_a_negation(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 1.0


# fixed (h-m16): `asks_for_place` reads a question for which member of a series counted in order (`PLACE_NOUNS`)
@pytest.mark.parametrize("question", [
    "Which floor does Mia live on?", "On which floor of the building does Mia live?",
    "What day of the month is Mia's birthday?", "Which day did Mia arrive?",
    "Which term of the arithmetic sequence is 23?", "Which month of the year has the most rain?",
    "In which grade is Mia?", "Which row is Mia seated in?",
])
def test_fixed_ordinal_in_an_ordinal_question(reward: MathReward, question: str) -> None:
    assert _value(reward, "7", "\\boxed{7}th", question) == 1.0



# fixed (h-m17): `_describes` takes the remark words, a tag question and `anything else` judge nothing
@pytest.mark.parametrize("completion", [
    "\\boxed{7}. This is the only solution.", "\\boxed{7}. Easy, isn't it?", "\\boxed{7}. Is there anything else?",
])
def test_hole_honest_remark_read_as_a_judgement(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 1.0


# fixed (h-m14): `_judges_the_answer` reads a negation by what it negates (`_NEGATABLE`, `_OTHER_WORDS`)
@pytest.mark.parametrize("completion", [
    "\\boxed{7}. It is not negative.", "\\boxed{7}. No remainder.",
    "\\boxed{7}. Without a doubt.", "\\boxed{7}. No doubt.", "\\boxed{7}. There's no mistake.",
    "\\boxed{7}. No errors.", "\\boxed{7}. That's not a typo.", "\\boxed{7}. Order doesn't matter.",
    "\\boxed{7}. No more, no less.", "\\boxed{7}. Not more, not less.", "\\boxed{7}. No calculator needed.",
    "\\boxed{7}. Not too hard!", "\\boxed{7}. Not a trick question.", "\\boxed{7}. No rounding needed.",
    "\\boxed{7}. No units needed.", "\\boxed{7}. Never negative.", "\\boxed{7}. Not eight.",
    "\\boxed{7}. Keine andere Zahl passt.", "\\boxed{7}. Das ist kein Zufall.",
    "\\boxed{7}. No hay otra soluci\u00f3n.", "\\boxed{7}. N\u00e3o h\u00e1 outra solu\u00e7\u00e3o.",
    "\\boxed{7}. \u0414\u0440\u0443\u0433\u043e\u0433\u043e \u0440\u0435\u0448\u0435\u043d\u0438\u044f \u043d\u0435\u0442.",
])
def test_honest_remark_with_a_negation(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 1.0


@pytest.mark.parametrize("completion", [
    # a negation that judges the box, or a sentence that offers a second answer beside it
    "\\boxed{7}. Not sure.", "\\boxed{7}. That is not right.", "\\boxed{7}. I doubt it.", "\\boxed{7}. No.",
    "\\boxed{7}. LOL no.", "\\boxed{7}. Das stimmt nicht.", "\\boxed{7}. I don't know.", "\\boxed{7}. Not quite.",
    "\\boxed{7}. That's not correct.", "\\boxed{7}. \u042d\u0442\u043e \u043d\u0435 \u0442\u0430\u043a.",
    "\\boxed{7}. No es correcto.", "\\boxed{7}. Never mind.", "\\boxed{7}. Not the answer.",
    "\\boxed{7}. Some might think the answer is 8.", "\\boxed{7}. If you forgot Mia, the answer is 8.",
    "\\boxed{7}. Another answer is 8.",
])
def test_held_negation_or_offered_answer_after_the_box(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 0.0


# fixed (h-m14): `_qualified_phrase` (a negated or qualified phrase after the box is not its answer)
@pytest.mark.parametrize("completion", [
    "\\boxed{7}. The answer is not 8.", "\\boxed{7}. (A common wrong answer is 8.)",
    "\\boxed{7}. A common wrong answer is 8.",
])
def test_rejected_answer_phrase_after_the_box(reward: MathReward, completion: str) -> None:
    assert _value(reward, "7", completion) == 1.0


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. Upon rechecking, the answer is 8.", "\\boxed{7}. Wait, actually the answer is 8.",
    "\\boxed{7}. After double checking, the correct answer is 8.", "\\boxed{7}. So the final answer is 8.",
    "\\boxed{7} is what I first thought, but the answer is 8.",
])
def test_plain_answer_phrase_after_the_box_corrects_it(reward: MathReward, completion: str) -> None:
    # a plain phrase (`_PLAIN_LEAD` openers only) is the reply's last committed answer
    assert _value(reward, "8", completion) == 1.0
