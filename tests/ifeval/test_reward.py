"""`use: ifeval`: reference formats as datasets ship them, strict/loose, fraction/all, parts,
`answer_after`, abstention, and a config mixing math, code and instruction following scored
alike through `score_batch` and every adapter."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rewards import Sample, build_reward
from rewards.config import parse_config
from rewards.ifeval import IFEvalReward, parse_constraints
from rewards.scoring import score_batch

IFEVAL_ROW = {  # a row of google/IFEval as the Hub ships it: every kwargs key, None unused
    "key": 1000, "prompt": "Write a short note. No commas. At least 5 words.",
    "instruction_id_list": ["punctuation:no_comma", "length_constraints:number_words"],
    "kwargs": [{"num_words": None, "relation": None, "keywords": None},
               {"num_words": 5, "relation": "at least", "keywords": None}],
}
RLVR_GROUND_TRUTH = json.dumps({"func_name": "validate_lowercase", "N": None, "quantifier": None})
IFEVALG_GROUND_TRUTH = str([{"instruction_id": ["keywords:word_once", "punctuation:no_comma"],
                             "kwargs": [{"keyword": "rain"}, None]}])  # open-instruct's literal


def _score(reference, completion: str, **options) -> object:
    return IFEvalReward(**options).score([Sample("p", completion, reference)])[0]


def test_ifeval_row_with_none_kwargs() -> None:
    score = _score({k: IFEVAL_ROW[k] for k in ("instruction_id_list", "kwargs")},
                   "here is a short note for you")
    assert (score.value, score.reason) == (1.0, "ok")
    assert score.parts == {"punctuation:no_comma": 1.0, "length_constraints:number_words": 1.0}


def test_ifeval_columns_left_in_meta_are_the_reference() -> None:
    sample = Sample("p", "a note, with a comma here", None,
                    meta={k: IFEVAL_ROW[k] for k in ("instruction_id_list", "kwargs")})
    score = IFEvalReward().score([sample])[0]
    assert (score.value, score.reason) == (0.5, "wrong")
    assert score.parts["punctuation:no_comma"] == 0.0


def test_open_instruct_ground_truths() -> None:
    assert _score(RLVR_GROUND_TRUTH, "all lower case").value == 1.0
    assert _score(RLVR_GROUND_TRUTH, "Not lower").value == 0.0
    assert _score(json.loads(RLVR_GROUND_TRUTH), "all lower").value == 1.0  # parsed already
    both = [json.loads(RLVR_GROUND_TRUTH), {"func_name": "validate_no_commas"}]
    assert _score(json.dumps(both), "lower, with comma").value == 0.5
    assert _score(IFEVALG_GROUND_TRUTH, "The rain fell").value == 1.0
    assert _score(IFEVALG_GROUND_TRUTH, "The rain, the rain").value == 0.0
    item_as_json = json.dumps([json.dumps({"instruction_id": ["punctuation:no_comma"],
                                           "kwargs": [{}]})])
    assert _score(item_as_json, "fine").value == 1.0


@pytest.mark.parametrize("reference", [
    {"instruction_id_list": ["keywords:unknown_type"], "kwargs": [{}]},
    {"instruction_id_list": ["punctuation:no_comma", "nope:nope"], "kwargs": [{}, {}]},
    '{"func_name": "no_such_function"}',
    {"instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}, {}]},  # lengths differ
    "not a reference at all {",
    None,
    [],
])
def test_unknown_or_broken_references_abstain(reference) -> None:
    score = _score(reference, "anything")
    assert (score.value, score.reason) == (None, "bad_reference")


def test_unknown_id_is_never_a_reused_verdict() -> None:
    good = {"instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]}
    bad = {"instruction_id_list": ["punctuation:no_semicolon"], "kwargs": [{}]}
    scores = IFEvalReward().score([Sample("p", "ok", good), Sample("p", "ok", bad)])
    assert [s.value for s in scores] == [1.0, None]


def test_pass_mode_and_mode() -> None:
    reference = {"instruction_id_list": ["startend:quotation", "punctuation:no_comma"],
                 "kwargs": [{}, {}]}
    text = 'Here you go:\n"Quoted answer"\nEnjoy'
    assert _score(reference, text).value == 0.5
    assert _score(reference, text, pass_mode="all").value == 0.0
    assert _score(reference, text, mode="loose", allow_loose=True).value == 1.0
    assert _score(reference, text, mode="loose", allow_loose=True, pass_mode="all").value == 1.0


def test_repeated_ids_keep_every_verdict_in_parts() -> None:
    reference = {"instruction_id_list": ["keywords:existence", "keywords:existence"],
                 "kwargs": [{"keywords": ["rain"]}, {"keywords": ["sun"]}]}
    score = _score(reference, "rain")
    assert score.parts == {"keywords:existence": 1.0, "keywords:existence#2": 0.0}


def test_long_and_blank_completions() -> None:
    reference = {"instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]}
    assert _score(reference, "x" * 200, max_chars=100).reason == "too_long"
    blank = _score(reference, "   ")
    assert (blank.value, blank.reason) == (0.0, "no_answer")


def test_bad_options_name_the_field() -> None:
    from rewards.errors import ConfigError

    with pytest.raises(ConfigError, match="mode"):
        IFEvalReward(mode="lenient")
    with pytest.raises(ConfigError, match="did you mean 'pass_mode'"):
        IFEvalReward(passmode="all")


def test_parse_is_cached_for_text_references() -> None:
    first = parse_constraints(RLVR_GROUND_TRUTH)
    assert parse_constraints(RLVR_GROUND_TRUTH) is first


def test_answer_after_through_the_config() -> None:
    config = parse_config({"domains": {"if": {"rewards": [
        {"use": "ifeval", "answer_after": "</think>"}]}}})
    reward = build_reward(config)
    reference = {"instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]}
    scores = reward.score([
        Sample("p", "<think>a, b, c</think>no commas here", reference, domain="if"),
        Sample("p", "<think>still thinking, no end", reference, domain="if"),
    ])
    assert [(s.value, s.reason) for s in scores] == [(1.0, "ok"), (0.0, "no_answer")]
    assert scores[0].parts["ifeval/punctuation:no_comma"] == 1.0


# --- one config: math, code and instruction following --------------------------------------

MIXED = """
domains:
  math: {rewards: [{use: math}]}
  code: {rewards: [{use: rtv}]}
  ifeval: {rewards: [{use: ifeval, mode: loose, allow_loose: true}]}
normalize: none
"""
IF_REFERENCE = json.dumps({"instruction_id_list": ["punctuation:no_comma", "detectable_format:title"],
                           "kwargs": [{}, {}]})
ROWS = [  # (completion, reference, domain, expected)
    ("The answer is \\boxed{4}.", "4", "math", 1.0),
    ("The answer is \\boxed{5}.", "4", "math", 0.0),
    ("```python\ndef add(a, b):\n    return a + b\n```",
     {"test_list": ["assert add(1, 2) == 3", "assert add(2, 2) == 4"]}, "code", 1.0),
    ("<<Title>>\nNo commas at all", IF_REFERENCE, "ifeval", 1.0),
    ("No title, and a comma", IF_REFERENCE, "ifeval", 0.0),
    ("<<Title>>\nOne, two\nThree, four\nFive, six", IF_REFERENCE, "ifeval", 0.5),
]


def _mixed_samples() -> list[Sample]:
    return [Sample("prompt", c, r, domain=d, group=f"g{i}") for i, (c, r, d, _) in enumerate(ROWS)]


@pytest.fixture(scope="module")
def mixed_config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("mixed") / "rewards.yaml"
    path.write_text(MIXED)
    return path


@pytest.fixture(scope="module")
def local_scores(mixed_config: Path) -> list[float | None]:
    scores = score_batch(build_reward(mixed_config), _mixed_samples()).scores
    return [s.value for s in scores]


def test_mixed_config_scores_every_domain(local_scores: list[float | None]) -> None:
    for (completion, _, domain, expected), value in zip(ROWS, local_scores):
        assert value == expected, (domain, completion)


def test_mixed_config_through_every_adapter(mixed_config: Path,
                                            local_scores: list[float | None]) -> None:
    from integrations.openrlhf import reward_func
    from integrations.trl import trl_rewards
    from integrations.verl import compute_score_batch

    verl = [r["score"] for r in compute_score_batch(
        ["dataset"] * len(ROWS), [c for c, *_ in ROWS], [r for _, r, _, _ in ROWS],
        [{"domain": d, "index": i} for i, (_, _, d, _) in enumerate(ROWS)],
        reward_config=mixed_config)]
    assert verl == local_scores
    openrlhf = reward_func(["prompt" + c for c, *_ in ROWS], ["prompt"] * len(ROWS),
                           [{"reference": r, "domain": d} for _, r, d, _ in ROWS],
                           reward_config=mixed_config)
    assert [float(v) for v in openrlhf["rewards"]] == pytest.approx(local_scores)
    (func,) = trl_rewards(mixed_config, per_component=False).funcs
    trl = func(["prompt"] * len(ROWS), [c for c, *_ in ROWS], answer=[r for _, r, _, _ in ROWS],
               domain=[d for _, _, d, _ in ROWS])
    assert trl == local_scores


def test_every_checker_takes_arguments_the_registry_can_read() -> None:
    from rewards.ifeval import FUNCTIONS, INSTRUCTIONS
    from rewards.ifeval._registry import _parameters

    kinds = {"int", "str", "Sequence[str]", "str | Sequence[str]"}
    for name, checker in {**INSTRUCTIONS, **FUNCTIONS}.items():
        assert set(_parameters(checker).values()) <= kinds, name


# --- known bugs of peer IF workers, as regression cases ---------------------------------------


def test_peer_bug_every_word_a_keyword_hit() -> None:
    """A peer counted every word as a keyword hit: a response without the keyword has none."""
    reference = {"instruction_id_list": ["keywords:frequency"],
                 "kwargs": [{"keyword": "ocean", "frequency": 1, "relation": "at least"}]}
    assert _score(reference, "many many words but not the one asked for").value == 0.0
    assert _score(reference, "the Ocean").value == 1.0


def test_peer_bug_multiple_choice_run_backwards() -> None:
    """A peer tested whether the response is inside an option: the option must be in the
    response."""
    reference = json.dumps({"func_name": "validate_choice",
                            "options": ["My answer is yes.", "My answer is no."]})
    assert _score(reference, "yes").value == 0.0
    assert _score(reference, "Thinking... My answer is no.").value == 1.0
    google = {"instruction_id_list": ["detectable_format:constrained_response"], "kwargs": [{}]}
    assert _score(google, "no").value == 0.0


def test_peer_bug_around_read_as_equal() -> None:
    """A peer read "around N words" as exactly N: RLVR allows 10% (at least 1)."""
    reference = {"func_name": "validate_word_constraint", "N": 20, "quantifier": "around"}
    assert _score(reference, " ".join(["w"] * 22)).value == 1.0
    assert _score(reference, " ".join(["w"] * 23)).value == 0.0
    assert _score({"func_name": "validate_word_constraint", "N": 5, "quantifier": "around"},
                  "one two three four five six").value == 1.0  # tolerance at least 1



@pytest.mark.parametrize("text", ["x", " x ", "a*b*", "first\nlast", "x\n\n*y*\nz ", "x\nx",
                                  "**Title**\nbody, *stars*\n\nend\n", "*\n*", "\n\n", "a\n*"])
def test_loose_mode_checks_every_non_blank_loose_variant(text: str) -> None:
    from rewards.ifeval._reward import _other_texts, loose_variants

    assert {text, *_other_texts(text)} == {t for t in loose_variants(text) if t.strip()} | {text}
    assert all(t.strip() for t in _other_texts(text))
