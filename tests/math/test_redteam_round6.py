"""Red team, round 6 of issue #33: the rules of 51d8cc8 and 09700f8, attacked from outside.

The rules attacked:

- `_said_in_another_language` / `_SAID_OF_ELSEWHERE` / `_SAID_OF_CJK`
  (`rewards/math/_extract.py`): the copulas of German, French, Spanish, Italian, Portuguese,
  Russian and Chinese, negated or not (`ist nicht`, `n'est pas`, `no es`, `non è`, `não é`,
  `не`, `不是`), after a box make it the subject of its clause; `_AFFIRMING`
  (`rewards/math/_normalize.py`) gained those languages' articles and answer words and
  `_AFFIRMING_CJK` a character set (`答案正确最终的结果解值对就`) for a Chinese run;
- `affirms` on numbers: `_read_number`, `_same_number` (a number said of a numeric box must be
  it, exactly or to the stated number's printed precision; a percent on one side is its
  hundredth unless `asks_for_percent(question)`, then the sign is dropped), a number said of
  an expression restates it only as all its numbers in order; `_SAME_VALUE_JOINS`
  (`equivalently`, `i.e.`, `that is`, `namely`, `simply`, `exactly` before a number);
  `_WORD_VALUES` (number words zero to twenty).

The classes of `/work/shared/ATTACK-CLASSES.md` that reach them, in both directions:

- no committed answer: retractions in those languages worded with verbs the copula list does
  not hold (modals, `seems`, `estar`, preterites, `stimmt nicht`), the Russian dash copula
  (`7 — это не ответ`), Chinese predicates without a copula (`不对`, `并非`, `也不是`),
  judgements and restatements in the next sentence (`Das ist falsch.`, `Nein, es ist 8.`),
  languages outside the seven (Japanese, Korean, Arabic, Hindi);
- hedging: an expression followed by its own numbers joined by `or` (`2\\sqrt{3}, or 2 or 3`),
  a value joined by `i.e.` / `namely` / `in other words` that is no restatement rule's, a
  percent hedge in a question that only mentions a percent;
- invisible and look-alike text: apostrophe look-alikes in `n'est` and `isn't`, a Latin `e`
  in the Cyrillic `не`, single characters (a CJK character read as a one-letter variable),
  full-width Latin, zero-width inside `不是`;
- degenerate length: 100,000-character soups of CJK characters, articles, `не`, `n'`,
  e-notation, number words (cost measured in a scratch script with `time.perf_counter`, not
  here: every case under 10 ms after warm-up, a 90,000-digit `e999` box included);
- the reverse direction, honest replies that score 0: answer words, adverbs, inflections and
  nouns of those languages the allow-list lacks (`est bien la réponse`, `является
  правильным ответом`, `sind Äpfel`, traditional Chinese `正確答案`), English words that are
  now read as foreign copulas (`era`, `son`, `war`), number words past twenty and the pronoun
  `one`, a percent question worded `per cent` or `Prozent`.

Held attacks are plain tests; each hole left open is an `xfail(strict=True)` naming it. The
verifier is not changed here (the author fixes). A case marked "since 51d8cc8" or "since
09700f8" scored as the test expects before that commit (checked on a `git archive` of
9929fed and 345cf96): a regression. Cases of rounds 3 to 5 are not repeated."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rewards import Sample
from rewards.math import MathReward

APPLES = "How many apples?"
PERCENT = "What percent of the 100 students are girls?"
FIND = "Find it."


def _values(reward: MathReward, gold: object, completions: Sequence[str],
            question: str = APPLES) -> list[float | None]:
    return [s.value for s in reward.score([Sample(question, c, reference=gold)
                                           for c in completions])]




# --- held: retractions in the seven languages ------------------------------------------------



HELD_RETRACTIONS = [
    "\\boxed{7} ist die falsche Antwort",
    "\\boxed{7} est la mauvaise r\u00e9ponse",
    "\\boxed{7} \u662f\u9519\u8bef\u7b54\u6848",  # 是错误答案
    "\\boxed{7} es la respuesta incorrecta", "\\boxed{7} n'est pas correct",
    "\\boxed{7} n\u2019est pas correct", "\\boxed{7} ne est pas la r\u00e9ponse",
    "\\boxed{7} ist nicht die Antwort", "\\boxed{7} nicht ist",
    "\\boxed{7} \u043d\u0435 \u044f\u0432\u043b\u044f\u0435\u0442\u0441\u044f \u043e\u0442\u0432\u0435\u0442\u043e\u043c",  # не является ответом
    "\\boxed{7} \u043d\u0435 \u043e\u0442\u0432\u0435\u0442",       # не ответ
    "\\boxed{7} \u044d\u0442\u043e \u043d\u0435 \u043e\u0442\u0432\u0435\u0442",  # это не ответ
    "\\boxed{7} \u0456st nicht die Antwort",                        # a Cyrillic і
    "\\boxed{7} \u0435st faux",  # a Cyrillic е
    "\\boxed{7} n\u0435 \u044f\u0432\u043b\u044f\u0435\u0442\u0441\u044f \u043e\u0442\u0432\u0435\u0442\u043e\u043c",  # a Latin n
    "\\boxed{7} \uff49\uff53\uff54 \uff4e\uff49\uff43\uff48\uff54 die Antwort",  # full-width
    "\\boxed{7}\u4e0d\u200b\u662f\u7b54\u6848",                     # 不<ZWSP>是答案
    "\\boxed{7}\u662f\u7b54\u6848\u5417",  # 是答案吗 (a question)
    "\\boxed{7}\u662f\u4e0d\u662f\u7b54\u6848\uff1f",  # 是不是答案？
    "\\boxed{7}\u4e0d\u5e94\u4e3a\u7b54\u6848",                     # 不应为答案
    "\\boxed{7}\u4e0d\u662f",                                       # 不是
    "\\boxed{7} ist die Antwort, oder 8.",
    "\\boxed{7} \u2014 \u044d\u0442\u043e \u043e\u0442\u0432\u0435\u0442 \u0438\u043b\u0438 8",  # — это ответ или 8
]


@pytest.mark.parametrize("completion", HELD_RETRACTIONS)
def test_a_retraction_in_another_language_unsays_the_box(math_reward: MathReward,
                                                         completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("gold, completion", [
    ("\\frac{5}{6}", "Let me work it out.\n\n\\frac{5}{6} ist falsch."),
    ("\\frac{5}{6}", ("Let me work it out.\n\n\\frac{5}{6} \u2014 \u044d\u0442\u043e "
                     "\u043d\u0435\u0432\u0435\u0440\u043d\u043e.")),  # — это неверно
    ("7", "Anna hat 7 \u00c4pfel. 7 ist nicht die Antwort.")])
def test_an_unmarked_answer_unsaid_in_another_language(math_reward: MathReward, gold: str,
                                                       completion: str) -> None:
    assert _values(math_reward, gold, [completion], question=FIND) == [0.0]


# --- held: number tricks -------------------------------------------------------------------

HELD_NUMBER_HEDGES = [
    "\\boxed{7}, or exactly 8", "\\boxed{7}, that is 8", "\\boxed{7}, or seven point five",
    "\\boxed{7}, or seven percent", "\\boxed{7}, or 7 percent", "\\boxed{7}, or seven hundred",
    "\\boxed{7}, or 7 hundred", "\\boxed{7}, or seven thousand", "\\boxed{7}, or seven squared",
    "\\boxed{7}, or 7.4e0", "\\boxed{7}, or 1e999", "\\boxed{7}, oder sieben",
    "\\boxed{7}. Or is it 8?",
]


@pytest.mark.parametrize("completion", HELD_NUMBER_HEDGES)
def test_another_number_joined_to_the_box_unsays_it(math_reward: MathReward,
                                                    completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("gold, completion, question", [
    ("21", "\\boxed{21} (or twenty)", APPLES), ("7", "\\boxed{7}, or 7.4%", PERCENT),
    ("7", "\\boxed{0.07}", PERCENT), ("7", "\\boxed{0.07}, or 7%", PERCENT)])
def test_a_near_number_or_a_percent_is_no_restatement(math_reward: MathReward, gold: str,
                                                      completion: str, question: str) -> None:
    assert _values(math_reward, gold, [completion], question=question) == [0.0]


# --- held: honest replies keep credit --------------------------------------------------------

HELD_HONEST = [
    "\\boxed{7} ist richtig", "\\boxed{7} ist die richtige Antwort.",
    "\\boxed{7} est la r\u00e9ponse finale.", "\\boxed{7} est la r\u00e9ponse.",
    "\\boxed{7} es correcto.", "\\boxed{7} es la respuesta correcta.",
    "\\boxed{7} \u00e8 la risposta corretta.", "\\boxed{7} \u00e9 a resposta correta.",
    "\\boxed{7} \u044d\u0442\u043e \u043e\u0442\u0432\u0435\u0442.",  # это ответ
    "\\boxed{7} \u044f\u0432\u043b\u044f\u0435\u0442\u0441\u044f \u043e\u0442\u0432\u0435\u0442\u043e\u043c.",  # является ответом
    "\\boxed{7}\u662f\u6b63\u786e\u7b54\u6848\u3002",               # 是正确答案。
    "\\boxed{7}\u5c31\u662f\u7b54\u6848\u3002",                     # 就是答案。
    "\\boxed{7}\u662f\u5bf9\u7684",                                 # 是对的
    "\\boxed{7}\u3002\u6240\u4ee5\u7b54\u6848\u662f7",              # 。所以答案是7
    "\\boxed{7} ist also die Antwort.", "\\boxed{7} es la soluci\u00f3n.",
    "\\boxed{7} est le r\u00e9sultat final.", "\\boxed{7} ist das Endergebnis.",
    "\\boxed{7} ist korrekt.", "\\boxed{7} \u00e8 il risultato.",
    "\\boxed{7} \u2014 \u044d\u0442\u043e \u043e\u0442\u0432\u0435\u0442.",  # — это ответ.
    ("\\boxed{7} \u2014 \u043f\u0440\u0430\u0432\u0438\u043b\u044c\u043d\u044b\u0439 "
    "\u043e\u0442\u0432\u0435\u0442."),                              # — правильный ответ.
    "\\boxed{7}\uc774 \ub2f5\uc785\ub2c8\ub2e4.",                   # 이 답입니다.
    "\\boxed{7} are apples.", "\\boxed{7} \u00c4pfel sind es.", "\\boxed{7}, also sieben.",
    "\\boxed{7} (sieben).", "\\boxed{7}, c'est-\u00e0-dire 7.", "\\boxed{7}, d.h. 7.",
    "\\boxed{7}, i.e. seven.", "\\boxed{7}, exactly 7.",
]


@pytest.mark.parametrize("completion", HELD_HONEST)
def test_an_honest_reply_in_another_language_keeps_credit(math_reward: MathReward,
                                                          completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [1.0]


@pytest.mark.parametrize("gold, completion, question", [
    ("20", "\\boxed{20} (or twenty)", APPLES), ("1990", "\\boxed{1990} era.", "In which year?"),
    ("5", "\\boxed{5} es", APPLES), ("7", "\\boxed{7}, or 7%", PERCENT),
    ("7", "\\boxed{7}, or 7%", "What percentage of the 100 students are girls?"),
    ("7.45", "\\boxed{7.45}, or 7.5", FIND),
    ("7", "\\boxed{7}\u4e2a\u82f9\u679c\u3002", "\u5c0f\u660e\u6709\u51e0\u4e2a\u82f9\u679c\uff1f")])
def test_an_honest_number_or_word_after_the_box_keeps_credit(math_reward: MathReward, gold: str,
                                                             completion: str,
                                                             question: str) -> None:
    """`7.45, or 7.5` is the box rounded to the stated precision, which `_same_number`
    accepts by design."""
    assert _values(math_reward, gold, [completion], question=question) == [1.0]


# --- held: degenerate length (cost measured outside the tests) -------------------------------

def test_soups_of_the_new_words_are_read_within_a_bound(math_reward: MathReward) -> None:
    """Replies near 100,000 characters of the new rules' words (measured in a scratch script
    after warm-up: every case under 10 ms, a 90,000-digit `e999` box included): each is read."""
    unsaid = ["\\boxed{7} " + "\u043d\u0435 " * 33_000, "\\boxed{7}, or " + "1e999 or " * 10_000,
              "\\boxed{7}, or " + "seven " * 16_000, "\\boxed{7}, or 7" + "{,}000" * 16_000]
    assert _values(math_reward, "7", unsaid) == [0.0] * len(unsaid)
    kept = ["\\boxed{7} \u662f" + "\u7b54" * 99_000, "\\boxed{7} ist " + "die " * 24_000,
            "\\boxed{7}, i.e. " * 7_000]
    assert _values(math_reward, "7", kept) == [1.0] * len(kept)


# --- open: false credit ----------------------------------------------------------------------

@pytest.mark.parametrize("completion", [
    "\\boxed{7}\u662f\u9519",                                       # 是错
    "\\boxed{7}\u662f \u9519 \u8bef \u7b54 \u6848",                 # 是 错 误 答 案
    "\\boxed{7} \u662f \u9519 \u7684",                              # 是 错 的
    "\\boxed{7}\u4e3a\u8bef",                                       # 为误
    "\\boxed{7}\u662f\u5047",                                       # 是假
    "\\boxed{7} is w r o n g", "\\boxed{7} is n o t the answer"])
def test_a_single_character_is_read_as_a_variable(math_reward: MathReward, completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}\u4e0d\u5bf9",                                       # 不对
    "\\boxed{7}\u4e0d\u6b63\u786e",                                 # 不正确
    "\\boxed{7}\u5e76\u4e0d\u6b63\u786e",                           # 并不正确
    "\\boxed{7}\u5e76\u975e\u7b54\u6848",                           # 并非答案
    "\\boxed{7}\u4e5f\u4e0d\u662f\u7b54\u6848",                     # 也不是答案
    "\\boxed{7}\u5e94\u8be5\u4e0d\u662f\u7b54\u6848",               # 应该不是答案
    "\\boxed{7}\u7edd\u4e0d\u662f\u7b54\u6848",                     # 绝不是答案
    "\\boxed{7}\u5176\u5b9e\u4e0d\u662f\u7b54\u6848",               # 其实不是答案
    "\\boxed{7}\u663e\u7136\u4e0d\u662f\u7b54\u6848",               # 显然不是答案
    "\\boxed{7}\u53ef\u80fd\u662f\u7b54\u6848",                     # 可能是答案
    "\\boxed{7} \u4e0d \u662f \u7b54\u6848",                        # 不 是 答案
    "\\boxed{7}\u4e0d\u3000\u662f\u7b54\u6848"])                    # 不<ideographic space>是答案
def test_a_chinese_predicate_the_copula_rule_misses(math_reward: MathReward,
                                                    completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7} \u2014 \u044d\u0442\u043e \u043d\u0435 \u043e\u0442\u0432\u0435\u0442",  # — это не ответ
    "\\boxed{7} \u2013 \u044d\u0442\u043e \u043d\u0435 \u043e\u0442\u0432\u0435\u0442",  # – это не ответ
    "\\boxed{7} - \u044d\u0442\u043e \u043d\u0435 \u043e\u0442\u0432\u0435\u0442",       # - это не ответ
    "\\boxed{7} \u2014 \u043d\u0435\u0432\u0435\u0440\u043d\u044b\u0439 \u043e\u0442\u0432\u0435\u0442"])  # — неверный ответ
def test_the_russian_dash_copula(math_reward: MathReward, completion: str) -> None:
    """Fixed after the round: a mark after the box (a dash of any width, a comma, a colon, a
    bracket) joins what follows to it (`_said_after_a_mark`): a verb after it is read by
    `_said_of`, here the negated Russian `это не`, a verbless predicate by the allow-list."""
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7} ne semble pas correct", "\\boxed{7} ne peut pas \u00eatre la r\u00e9ponse",
    "\\boxed{7} no puede ser la respuesta", "\\boxed{7} kann nicht die Antwort sein",
    "\\boxed{7} k\u00f6nnte die Antwort sein", "\\boxed{7} stimmt nicht",
    "\\boxed{7} est\u00e1 mal", "\\boxed{7} fue incorrecto", "\\boxed{7} non e la risposta",
    "\\boxed{7} non e' la risposta", "\\boxed{7} nao e a resposta",
    "\\boxed{7} n est pas la r\u00e9ponse"])
def test_a_verb_of_these_languages_the_copula_list_lacks(math_reward: MathReward,
                                                         completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7} isn\u2018t right", "\\boxed{7} isn\u02bct right", "\\boxed{7} isn`t right",
    "\\boxed{7} n\u2018est pas la r\u00e9ponse", "\\boxed{7} n\u02bcest pas la r\u00e9ponse",
    "\\boxed{7} n`est pas la r\u00e9ponse",
    "\\boxed{7} \u043de \u043e\u0442\u0432\u0435\u0442",           # н + Latin e
    "\\boxed{7} HE \u043e\u0442\u0432\u0435\u0442"])                # Latin HE
def test_look_alike_apostrophes_and_letters_in_the_negation(math_reward: MathReward,
                                                            completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}. Das ist falsch.", "\\boxed{7}. C'est faux.", "\\boxed{7}. Esto es incorrecto.",
    "\\boxed{7}\u3002\u8fd9\u662f\u9519\u8bef\u7684\u3002",         # 。这是错误的。
    "\\boxed{7}. \u042d\u0442\u043e \u043d\u0435\u0432\u0435\u0440\u043d\u043e.",  # Это неверно.
    "\\boxed{7}. Nein, es ist 8.",
    "\\boxed{7}. La r\u00e9ponse est 8.",
    "\\boxed{7} ist die Antwort. Nein, es ist 8.",
    "\\boxed{7}. Antwort: 8."])
def test_a_judgement_or_restatement_in_the_next_sentence(math_reward: MathReward,
                                                         completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}\u3067\u306f\u306a\u3044",                           # ではない
    "\\boxed{7}\u306f\u9593\u9055\u3044\u3067\u3059",               # は間違いです
    "\\boxed{7}\uc740 \ud2c0\ub838\ub2e4",                          # 은 틀렸다
    "\\boxed{7} \u0644\u064a\u0633 \u0627\u0644\u062c\u0648\u0627\u0628",  # ليس الجواب
    "\\boxed{7} \u0909\u0924\u094d\u0924\u0930 \u0928\u0939\u0940\u0902 \u0939\u0948"])  # उत्तर नहीं है
def test_a_retraction_in_a_language_outside_the_seven(math_reward: MathReward,
                                                      completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}, i.e. 8", "\\boxed{7}, i.e., 8", "\\boxed{7}, namely 8",
    "\\boxed{7}, in other words 8", "\\boxed{7}, equivalently 8"])
def test_a_same_value_join_to_another_value(math_reward: MathReward, completion: str) -> None:
    """Fixed after the round: the value `i.e.`, `namely`, `in other words`, `equivalently` join
    to a box is the box stated again (`_SAME_VALUE_JOIN`, `_restated_value`), as `that is 8` is."""
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("question", [
    "A 10% tax is added. How many apples?", "What is 20 percent of 35?",
    "How many apples are in the 90th percentile bag?"])
def test_a_percent_hedge_where_the_question_only_mentions_a_percent(math_reward: MathReward,
                                                                    question: str) -> None:
    assert _values(math_reward, "7", ["\\boxed{7}, or 7%"], question=question) == [0.0]


@pytest.mark.parametrize("gold, completion", [
    ("2\\sqrt{3}", "\\boxed{2\\sqrt{3}}, or 2 or 3"), ("2x+3", "\\boxed{2x+3}, or 2 or 3"),
    ("\\sqrt{2}+\\sqrt{3}", "\\boxed{\\sqrt{2}+\\sqrt{3}}, or 2 or 3")])
def test_an_expression_hedged_with_its_own_numbers(math_reward: MathReward, gold: str,
                                                   completion: str) -> None:
    assert _values(math_reward, gold, [completion], question=FIND) == [0.0]


# --- open: false loss ------------------------------------------------------------------------

@pytest.mark.parametrize("completion, question", [
    ("\\boxed{7} est bien la r\u00e9ponse.", APPLES), ("\\boxed{7} est donc la r\u00e9ponse.", APPLES),
    ("\\boxed{7} \u00e8 la risposta giusta.", APPLES), ("\\boxed{7} ist somit die Antwort.", APPLES),
    ("\\boxed{7} ist die gesuchte Zahl.", APPLES),
    (("\\boxed{7} \u044f\u0432\u043b\u044f\u0435\u0442\u0441\u044f \u043f\u0440\u0430\u0432\u0438"
     "\u043b\u044c\u043d\u044b\u043c \u043e\u0442\u0432\u0435\u0442\u043e\u043c."), APPLES),
    (("\\boxed{7} \u044f\u0432\u043b\u044f\u0435\u0442\u0441\u044f \u043e\u043a\u043e\u043d\u0447"
     "\u0430\u0442\u0435\u043b\u044c\u043d\u044b\u043c \u043e\u0442\u0432\u0435\u0442\u043e\u043c."), APPLES),
    ("\\boxed{7} sind \u00c4pfel.", APPLES), ("\\boxed{7} sont des pommes.", APPLES),
    ("\\boxed{7} son manzanas.", APPLES), ("\\boxed{7} sono le mele.", APPLES),
    ("\\boxed{7} ist die Anzahl der \u00c4pfel.", "Wie viele \u00c4pfel hat Anna?")])
def test_an_honest_reply_in_another_language_loses_credit(math_reward: MathReward, completion: str,
                                                          question: str) -> None:
    assert _values(math_reward, "7", [completion], question=question) == [1.0]


def test_an_honest_unmarked_french_reply_loses_credit(math_reward: MathReward) -> None:
    assert _values(math_reward, "\\frac{5}{6}",
                   ["Let me work it out.\n\n\\frac{5}{6} est bien la r\u00e9ponse."],
                   question=FIND) == [1.0]


@pytest.mark.parametrize("completion, question", [
    ("\\boxed{7} \u662f\u672c\u9898\u7684\u7b54\u6848", APPLES),     # 是本题的答案
    ("\\boxed{7}\u662f\u6700\u540e\u7684\u7b54\u6848\u3002", APPLES),  # 是最后的答案。
    ("\\boxed{7}\u662f\u6700\u7d42\u7b54\u6848\u3002", APPLES),      # 是最終答案。
    ("\\boxed{7}\u662f\u6b63\u78ba\u7b54\u6848\u3002", APPLES),      # 是正確答案。
    ("\\boxed{7}\u5373\u4e3a\u6240\u6c42\u3002", APPLES),            # 即为所求。
    ("\\boxed{7}\u662f\u82f9\u679c\u7684\u4e2a\u6570\u3002",         # 是苹果的个数。
     "\u5c0f\u660e\u6709\u51e0\u4e2a\u82f9\u679c\uff1f")])
def test_an_honest_chinese_reply_loses_credit(math_reward: MathReward, completion: str,
                                              question: str) -> None:
    assert _values(math_reward, "7", [completion], question=question) == [1.0]


@pytest.mark.parametrize("gold, completion", [
    ("1990", "The \\boxed{1990} era began then."),
    ("3", "She had \\boxed{3} son and two daughters."),
    ("1812", "The \\boxed{1812} war started then.")])
def test_an_english_word_read_as_a_foreign_copula(math_reward: MathReward, gold: str,
                                                  completion: str) -> None:
    assert _values(math_reward, gold, [completion], question="In which year or how many?") == [1.0]


@pytest.mark.parametrize("gold, completion", [
    ("21", "\\boxed{21} (or twenty-one)"), ("21", "\\boxed{21}, or twenty one"),
    ("100", "\\boxed{100}, or one hundred"), ("7", "\\boxed{7}, or simply seven."),
    ("7", "\\boxed{7} is exactly seven."), ("7", "\\boxed{7} is the correct one"),
    ("7", "\\boxed{7} is the right one.")])
def test_an_equal_number_in_words_loses_credit(math_reward: MathReward, gold: str,
                                               completion: str) -> None:
    """Fixed after the round: number words are read as the numbers they make
    (`numbers_in_words`: `twenty-one`, `one hundred`), and `one` after a determiner or an
    answer word is a pronoun."""
    assert _values(math_reward, gold, [completion]) == [1.0]


@pytest.mark.parametrize("question", [
    "What per cent of the 100 students are girls?",
    "Wie viel Prozent der 100 Sch\u00fcler sind M\u00e4dchen?"])
def test_a_percent_question_in_other_words_loses_credit(math_reward: MathReward,
                                                        question: str) -> None:
    assert _values(math_reward, "7", ["\\boxed{7}, or 7%"], question=question) == [1.0]


# --- after the round: the other direction of each fix ----------------------------------------

@pytest.mark.parametrize("gold, completion", [
    ("\\frac{1}{2}", "\\boxed{\\frac{1}{2}}, or one third."), ("7000", "\\boxed{7000}, or 8 thousand."),
    ("7", "\\boxed{7}, or 7 thousand."), ("7", "\\boxed{7}, or 800 %"), ("7", "\\boxed{7}, or one."),
    ("21", "\\boxed{21}, or twenty-two"), ("21", "\\boxed{21} (or twenty-one hundred)"),
    ("100", "\\boxed{100}, or one thousand"), ("7", "\\boxed{7}, or seven seven"),
    ("7", "\\boxed{7}, or 1.5 million"), ("7", "\\boxed{7} is exactly eight."),
    ("1", "\\boxed{1}, or a half"), ("5", "\\boxed{5}. Or, 6 apples."),
    ("7", "\\boxed{7} is the answer,8"), ("7", "\\boxed{7}. It is 7 thousand.")])
def test_a_different_number_in_words_unsays_the_box(math_reward: MathReward, gold: str,
                                                    completion: str) -> None:
    """Number words read as the numbers they make (`numbers_in_words`) make another value
    another value: it unsays the box as its digits would."""
    assert _values(math_reward, gold, [completion]) == [0.0]


@pytest.mark.parametrize("gold, completion", [
    ("\\frac{1}{3}", "\\boxed{\\frac{1}{3}}, or one third."),
    ("\\frac{3}{4}", "\\boxed{\\frac{3}{4}}, or three quarters."),
    ("\\frac{1}{2}", "\\boxed{\\frac{1}{2}}, or a half."), ("1500000", "\\boxed{1500000}, or 1.5 million."),
    ("2300", "\\boxed{2300}, or two thousand three hundred."),
    ("105", "\\boxed{105}, or one hundred and five."), ("12", "\\boxed{12} eggs, i.e. 1 dozen eggs."),
    ("7000", "\\boxed{7000}. It is 7 thousand."), ("1", "\\boxed{1}, or one.")])
def test_an_equal_number_in_words_keeps_the_box(math_reward: MathReward, gold: str,
                                                completion: str) -> None:
    assert _values(math_reward, gold, [completion]) == [1.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7} apples, i.e. 8 apples.", "\\boxed{7} (i.e. eight)", "\\boxed{7}, in other words, 8.",
    "\\boxed{7} is the answer, i.e. 8", "\\boxed{7}, namely eight apples."])
def test_a_same_value_join_to_another_value_in_more_forms(math_reward: MathReward,
                                                          completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("gold, completion", [
    ("7", "\\boxed{7}, i.e. 7"), ("7", "\\boxed{7} apples, i.e. 7 apples."),
    ("7", "\\boxed{7}, namely seven apples."), ("7", "\\boxed{7} (i.e. seven)"),
    ("120", "\\boxed{120} minutes, i.e. 2 hours."), ("7", "\\boxed{7}, i.e. 3 + 4."),
    ("7", "\\boxed{7}, namely the number of apples.")])
def test_a_same_value_join_that_explains_keeps_the_box(math_reward: MathReward, gold: str,
                                                       completion: str) -> None:
    """The same value joined again, another unit (a conversion) or an expression explains the
    box (`_restated_value`, as after `that is`)."""
    assert _values(math_reward, gold, [completion]) == [1.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}, wrong", "\\boxed{7}, incorrect!", "\\boxed{7} (probably wrong).",
    "\\boxed{7} [not sure]", "\\boxed{7}, is wrong.", "\\boxed{7} \u2014 not the answer.",
    "\\boxed{7}: \u043d\u0435 \u043e\u0442\u0432\u0435\u0442."])                       # : не ответ.
def test_a_verbless_judgement_in_more_forms(math_reward: MathReward, completion: str) -> None:
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7}, the final answer.", "\\boxed{7} (apples).", "\\boxed{7}, done.",
    "\\boxed{7}, correct.", "\\boxed{7}, which is correct.", "\\boxed{7}, so Sam has 7 apples.",
    "\\boxed{7} (3 + 4).", "\\boxed{7} - 3 = 4.", "\\boxed{7}\n- wrong turns were avoided",
    "\\boxed{7} (sieben).", "\\boxed{7} \u2014 \u044d\u0442\u043e \u043e\u0442\u0432\u0435\u0442."])  # — это ответ.
def test_an_honest_mark_after_the_box_keeps_it(math_reward: MathReward, completion: str) -> None:
    """What a mark joins to the box is read by the allow-list: answer words, units, a
    sign-off, a clause with a verb of its own, an explanation with numbers, a number in
    another language's words (not read) and an affirmative clause of another language keep
    it."""
    assert _values(math_reward, "7", [completion]) == [1.0]


@pytest.mark.parametrize("completion", [
    "\\boxed{7} " + "\\," * 1500 + "or 8", "\\boxed{7} " + "\u200b" * 3000 + "or 8",
    "\\boxed{7}. " + "*" * 2500 + "It is 8.", "\\boxed{7} " + "<b></b>" * 400 + "or 8"])
def test_padding_longer_than_the_phrase_window(math_reward: MathReward, completion: str) -> None:
    """Padding is dropped from the whole rest of the tail before the window is cut
    (`_after_box`), however long the run."""
    assert _values(math_reward, "7", [completion]) == [0.0]


@pytest.mark.parametrize("gold, completion", [
("12", "\\boxed{12}. The total is 12 dollars."),
    ("6", "\\boxed{6}. The total is 2*3."), ("120", "\\boxed{120} minutes. So 2 hours."),
    ("7", "\\boxed{7}. Wait, 8 minus 1 is 7."), ("3", "\\boxed{3}. So 3 apples each."),
    ("8", "\\boxed{8}. So 8 is the answer."), ("5", "\\boxed{5}. It was then 3 + 2."),
    ("7", "\\boxed{7}. It is 7, not 8."), ("7", "\\boxed{7}. The correct number of apples is 7."),
    ("2250", ("An avocado tree can produce a total of $\\boxed{2250}$ fruits during its 10 "
              "years of life.")),
    ("7", "\\boxed{7}. No, 7."), ("7", "\\boxed{7}. It is now 7 apples."),
    ("7", "\\boxed{7}. It is 2^3 - 1."), ("5", "\\boxed{5}. It is 10/2."), ("20", "\\boxed{20}. It is 4 x 5."),
    ("5\\sqrt{2}", "\\boxed{5\\sqrt{2}}. It is \\sqrt{50}."), ("5", "\\boxed{5}. It was 3 + 1 before."),
    ("5", "\\boxed{5}. That is 2 + 3 = 5.")])
def test_an_explanation_in_the_new_restating_forms_keeps_the_box(math_reward: MathReward, gold: str,
                                                                  completion: str) -> None:
    """The forms `_RESTATES` and `_RESTATING_OPENER` read since the round state the answer
    again only as a plain number with nothing after it but the box's words: a part (`the
    number of apples` of a box of fruits), another unit, a product, the same value, and a
    possessive `its` inside the box's sentence (ToRA's GSM8K row 1166) explain the box."""
    assert _values(math_reward, gold, [completion]) == [1.0]


def test_a_part_of_the_box_named_by_the_question_keeps_it(math_reward: MathReward) -> None:
    """A part of the box's count (`the number of apples` of a box of fruits) explains it where
    the question states the part (since h-m25 a longer sentence after the box is read for
    values neither the working nor the question states)."""
    question = "Tom picked 5 apples and 7 pears. How many fruits did he pick?"
    assert _values(math_reward, "12", ["\\boxed{12} fruits. The number of apples is 5."],
                   question=question) == [1.0]
