"""Red team (rt8) on the gold-column rule (`rewards.io.find_reference`, `rewards.io.same_gold`,
`rewards.math.same_reference`, the `_ambiguous_gold` abstention of `rewards.scoring`,
docs/datasets.md#the-gold-column).

What: can a dataset row, a `rewards serve` client (NeMo Gym's /verify, OpenRLHF's
/get_reward), a TRL/AReaL row or a NeMo Gym body make a wrong answer score 1.0 through the
column rule: look-alike or invisible column names, hedged golds that `same_reference` might
call the same, null/empty/blank golds, booleans and 0/1 integers as labels, lists and dicts,
the `_ambiguous_gold` mark set or cleared by the row itself; does an ambiguous row change an
honest row's verdict or the run's exit status; do all entry points decide alike.
How: rows are written in the rollout shape of the docs' example (the model's extracted
`answer` beside the dataset's gold) and scored with the `math` reward through `rewards score`,
the library (`row_to_sample` + `score_batch`), TRL's reward functions, AReaL's reward, NeMo
Gym's `sample_from_verify` and the FastAPI app. Every attack's completion is wrong against the
row's true gold, so a 1.0 is a bought verdict. Held attacks are plain tests; open holes are
strict xfails naming the function at fault."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from integrations._common import resolve_reward
from integrations.nemo_gym import sample_from_verify
from integrations.trl import trl_rewards
from rewards.io import find_reference, row_to_sample
from rewards.scoring import abstention_cause, score_batch
from rewards.types import AMBIGUOUS_GOLD, gold_ambiguity

CONFIG = "domains:\n  default:\n    rewards: [math]\n"

# The model answered 5 to "2+2?"; its extracted answer sits in `answer`, the true gold is 4.
WRONG = "I get \\boxed{5}."


def _config(tmp_path: Path) -> Path:
    config = tmp_path / "c.yaml"
    config.write_text(CONFIG)
    return config


def _score(tmp_path: Path, rows: list[dict[str, Any]], *options: str
           ) -> tuple[int, list[dict[str, Any]], str]:
    from rewards_cli import main

    data, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    try:
        code = main(["score", str(data), "--config", str(_config(tmp_path)), "--out", str(out),
                     *options])
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, [json.loads(line) for line in out.read_text().splitlines()], str(data)


def _library(tmp_path: Path, rows: list[dict[str, Any]]) -> list[float | None]:
    reward = resolve_reward(_config(tmp_path)).reward
    return [s.value for s in score_batch(reward, [row_to_sample(r) for r in rows]).scores]


def _trl(tmp_path: Path, rows: list[dict[str, Any]]) -> list[float | None]:
    func = trl_rewards(_config(tmp_path), on_config_abstain="warn").funcs[0]
    keys = sorted({k for r in rows for k in r} - {"prompt", "completion"})
    columns = {k: [r.get(k) for r in rows] for k in keys}
    return func(prompts=[r.get("prompt", "q") for r in rows],
                completions=[r["completion"] for r in rows],
                completion_ids=[[1, 2]] * len(rows), trainer_state=object(), **columns)


def _areal(tmp_path: Path, row: dict[str, Any]) -> float:
    from integrations.areal import AReaLReward

    fields = {k: v for k, v in row.items() if k not in ("prompt", "completion")}
    return AReaLReward(_config(tmp_path), abstain="zero", abstain_value=-7.0)(
        row.get("prompt", "q"), row["completion"], **fields)


def _verify_body(completion: str, **fields: Any) -> dict[str, Any]:
    return {"responses_create_params": {"input": "2+2?"},
            "response": {"output": [{"type": "message", "role": "assistant", "content": [
                {"type": "output_text", "text": completion}]}]}, **fields}


# --- the `_ambiguous_gold` mark is the reader's, never the row's ----------------------------


def test_a_row_cannot_clear_its_own_ambiguity_through_its_meta_column(tmp_path: Path) -> None:
    row = {"prompt": "2+2?", "completion": WRONG, "answer": "5", "label": "4",
           "meta": {AMBIGUOUS_GOLD: None}}
    assert _trl(tmp_path, [row]) == [None]  # (the TRL path abstains: a column, not meta)
    code, out, _ = _score(tmp_path, [row])
    assert out[0]["score"] is None and out[0]["cause"] == "bad_reference:ambiguous", out
    assert code == 3


def test_a_row_cannot_forge_an_ambiguity_error_through_its_meta_column(tmp_path: Path) -> None:
    rows = [{"prompt": "2+2?", "completion": "\\boxed{4}", "answer": "4",
             "meta": {AMBIGUOUS_GOLD: "all is fine"}}] * 2
    code, out, _ = _score(tmp_path, rows)
    assert [r["score"] for r in out] == [1.0, 1.0], out
    assert code == 0


def test_a_top_level_mark_column_is_dropped_and_never_reaches_another_row(
        tmp_path: Path) -> None:
    """A column named `_ambiguous_gold` neither abstains its own honest row nor any other;
    the ambiguous row among them abstains by the reader's mark, with file and line."""
    rows: list[dict[str, Any]] = [
        {"prompt": "2+2?", "completion": "\\boxed{4}", "answer": "4", AMBIGUOUS_GOLD: "x"},
        {"prompt": "2+2?", "completion": WRONG, "answer": "5", "label": "4",
         AMBIGUOUS_GOLD: None},
        {"prompt": "2+2?", "completion": WRONG, "answer": "4", AMBIGUOUS_GOLD: ""}]
    code, out, source = _score(tmp_path, rows)
    assert [r["score"] for r in out] == [1.0, None, 0.0], out
    assert out[1]["error"].startswith(f"{source}:2: ambiguous gold: columns 'answer'")
    assert code == 0
    assert _library(tmp_path, rows) == [1.0, None, 0.0]
    assert _trl(tmp_path, rows) == [1.0, None, 0.0]


def test_a_verify_client_cannot_set_or_clear_the_mark(tmp_path: Path) -> None:
    """NeMo Gym's /verify body: a body field named like the mark is no mark; the body's
    gold fields decide alone."""
    resolved = resolve_reward(_config(tmp_path))
    bodies = [_verify_body(WRONG, answer="5", label="4", **{AMBIGUOUS_GOLD: None}),
              _verify_body(WRONG, answer="5", label="4", meta={AMBIGUOUS_GOLD: None}),
              _verify_body("\\boxed{4}", answer="4", **{AMBIGUOUS_GOLD: "forged"})]
    samples = [sample_from_verify(resolved, b) for b in bodies]
    scores = score_batch(resolved.reward, samples).scores
    assert [s.value for s in scores] == [None, None, 1.0]
    assert all(abstention_cause(s, x) == "bad_reference:ambiguous"
               for s, x in zip(samples[:2], scores[:2], strict=True))


# --- look-alike and invisible column names --------------------------------------------------


LOOKALIKE_GOLD_COLUMNS = ["Label", "label ", "label\u200b", "ANSWER", "ground\u2010truth"]


@pytest.mark.parametrize("column", LOOKALIKE_GOLD_COLUMNS)
def test_a_look_alike_gold_column_beside_the_models_answer_is_not_ignored(
        tmp_path: Path, column: str) -> None:
    row = {"prompt": "2+2?", "completion": WRONG, "answer": "5", column: "4"}
    _, out, _ = _score(tmp_path, [row])
    assert out[0]["score"] != 1.0, out


@pytest.mark.parametrize("column", ["Answer", "answer\u200b", "answer ", "\u0430nswer"])
def test_a_look_alike_model_answer_column_never_becomes_the_gold(tmp_path: Path,
                                                                  column: str) -> None:
    """The other way round: the model's answer under a look-alike name beside the true
    `label` is a gold column like `answer` (names are read as every text is), so the row is
    ambiguous and abstains on every path, naming both columns: never scored against the
    model's answer, never against a guessed column."""
    row = {"prompt": "2+2?", "completion": WRONG, column: "5", "label": "4"}
    gold = find_reference(row)
    assert gold.ambiguity is not None and f"{column!r}" in gold.ambiguity, gold
    assert "'label'" in gold.ambiguity
    code, out, _ = _score(tmp_path, [row])
    assert code == 3 and out[0]["score"] is None, out
    assert out[0]["cause"] == "bad_reference:ambiguous"
    assert _library(tmp_path, [row]) == [None] and _trl(tmp_path, [row]) == [None]
    assert _areal(tmp_path, row) == -7.0
    # named, the column is exact: `--map label=reference` scores the 5 against the 4
    code, out, _ = _score(tmp_path, [row], "--map", "label=reference")
    assert code == 0 and out[0]["score"] == 0.0, out


# --- values: hedged, blank, typed ----------------------------------------------------------


HEDGED_GOLDS = ["4 or 5", "4 \\text{ or } 5", "\\boxed{4} or \\boxed{5}", "4, 5", "\\pm 4",
                "\\{4, 5\\}", "[4, 5]", ["4", "5"], ["4"], {"answer": "4"},
                "4\u200b5", "-4", "4\\%\\text{ or more}"]


@pytest.mark.parametrize("gold", HEDGED_GOLDS, ids=repr)
def test_a_hedged_or_shaped_gold_is_not_the_same_as_one_of_its_answers(gold: Any) -> None:
    """`same_reference` never calls a hedged gold (a list, `or`, `\\pm`, a set, a tuple, a
    dict) the same as the model's single answer beside it: the row abstains, naming both
    columns, and no path scores the answer against a guess."""
    row = {"prompt": "2+2?", "completion": "\\boxed{4}", "answer": "4", "label": gold}
    why = find_reference(row).ambiguity
    assert why is not None and "'answer'" in why and "'label'" in why
    assert gold_ambiguity(row_to_sample(row)) is not None


@pytest.mark.parametrize(("blank", "expected"), [
    (None, 0.0),   # null is no gold: `label` alone decides, the 5 is wrong
    ("", None),    # an empty gold beside another: ambiguous, never skipped as no gold
    ("  \n", None),
    ("\u200b", None),
    ("\\boxed{}", None),
])
def test_null_empty_and_blank_golds_beside_the_true_one(tmp_path: Path, blank: Any,
                                                        expected: float | None) -> None:
    row = {"prompt": "2+2?", "completion": WRONG, "answer": blank, "label": "4"}
    code, out, _ = _score(tmp_path, [row])
    assert out[0]["score"] == expected, out
    assert _library(tmp_path, [row]) == [expected] and _trl(tmp_path, [row]) == [expected]
    if expected is None:
        assert out[0]["cause"] == "bad_reference:ambiguous" and code == 3


@pytest.mark.parametrize("flag", [True, False])
def test_a_boolean_label_is_never_a_gold(tmp_path: Path, flag: bool) -> None:
    """A correctness flag alone is no gold (a reply `True` does not match it), and beside
    the model's answer it makes the row ambiguous, on every path."""
    alone = {"prompt": "2+2?", "completion": f"\\boxed{{{flag}}} {flag}", "label": flag}
    beside = {"prompt": "2+2?", "completion": WRONG, "answer": "5", "label": flag}
    _, out, _ = _score(tmp_path, [alone, beside])
    assert [r["score"] for r in out] == [None, None], out
    assert out[1]["cause"] == "bad_reference:ambiguous"
    assert _trl(tmp_path, [alone, beside]) == [None, None]
    assert _areal(tmp_path, beside) == -7.0


def test_an_integer_correctness_label_is_not_read_as_agreeing_with_the_answer(
        tmp_path: Path) -> None:
    row = {"prompt": "What is 2+2?", "completion": "\\boxed{0}", "answer": "0", "label": 0}
    _, out, _ = _score(tmp_path, [row])
    assert out[0]["score"] != 1.0, out


def test_agreeing_columns_take_the_first_and_the_rest_must_agree_with_it() -> None:
    """Three gold columns: the first agrees with the second, the third states another gold:
    the row is ambiguous (every other column is compared, not only the next one)."""
    row = {"solution": "So $2+2=\\boxed{4}$.", "answer": "4", "ground_truth": "4",
           "label": "5"}
    gold = find_reference(row)
    assert gold.ambiguity is not None and "'label'" in gold.ambiguity
    row["label"] = "4"
    assert find_reference(row).ambiguity is None


# --- the batch and the run -------------------------------------------------------------------


def test_ambiguous_rows_among_honest_ones_change_no_honest_verdict(tmp_path: Path) -> None:
    """Honest rows score alike with or without ambiguous rows between them (same batch,
    same order otherwise) on the CLI, the library and TRL; one scored row keeps exit 0."""
    honest = [{"prompt": "2+2?", "completion": "\\boxed{4}", "answer": "4"},
              {"prompt": "2+2?", "completion": WRONG, "label": "4"}]
    ambiguous = {"prompt": "2+2?", "completion": WRONG, "answer": "5", "label": "4"}
    mixed = [ambiguous, honest[0], ambiguous, honest[1], ambiguous]
    code, out, _ = _score(tmp_path, mixed)
    assert code == 0 and [r["score"] for r in out] == [None, 1.0, None, 0.0, None], out
    assert [r.get("cause") for r in out[::2]] == ["bad_reference:ambiguous"] * 3
    assert _library(tmp_path, mixed) == [None, 1.0, None, 0.0, None]
    assert _trl(tmp_path, mixed) == [None, 1.0, None, 0.0, None]


def test_map_naming_a_look_alike_column_resolves_it(tmp_path: Path) -> None:
    """`--map` naming the gold (even under an odd name) is the gold; the model's `answer`
    then travels in meta and is never compared."""
    row = {"prompt": "2+2?", "completion": WRONG, "answer": "5", "label\u200b": "4"}
    code, out, _ = _score(tmp_path, [row], "--map", "label\u200b=reference")
    assert code == 0 and out[0]["score"] == 0.0, out


def test_the_fastapi_verify_route_abstains_an_ambiguous_body_beside_honest_ones(
        tmp_path: Path) -> None:
    """`rewards serve`'s /verify: an ambiguous body is masked (bad_reference), an honest
    body sent right after it keeps its verdict; /get_reward's label is the reference."""
    from fastapi.testclient import TestClient

    from integrations.server import create_app

    with TestClient(create_app(_config(tmp_path), on_config_abstain="warn")) as client:
        bad = client.post("/verify", json=_verify_body(WRONG, answer="5", label="4",
                                                       **{AMBIGUOUS_GOLD: None}))
        good = client.post("/verify", json=_verify_body(WRONG, label="4"))
        right = client.post("/verify", json=_verify_body("\\boxed{4}", answer="4",
                                                         solution="$\\boxed{4}$"))
        assert bad.status_code == 200 and bad.json()["mask_sample"] is True, bad.json()
        assert bad.json()["reward"] == 0.0
        assert good.json()["reward"] == 0.0 and right.json()["reward"] == 1.0
        reply = client.post("/get_reward", json={
            "query": ["2+2? " + WRONG], "prompts": ["2+2? "],
            "labels": [{"answer": "5", "label": "4"}]})
        assert reply.status_code in (200, 422), reply.text
        if reply.status_code == 200:
            assert reply.json()["rewards"] != [1.0], reply.json()


@pytest.mark.parametrize("field", ["Expected_answer", "expected_answer\u200b"])
def test_a_look_alike_expected_answer_is_not_ignored_by_verify(tmp_path: Path,
                                                               field: str) -> None:
    resolved = resolve_reward(_config(tmp_path))
    sample = sample_from_verify(resolved, _verify_body(WRONG, answer="5", **{field: "4"}))
    assert score_batch(resolved.reward, [sample]).scores[0].value != 1.0


def test_the_trl_environment_reads_the_column_the_trl_rewards_are_told(tmp_path: Path) -> None:
    from integrations.trl_env import trl_environment

    row = {"prompt": "Guess the number.", "answer": "7", "label": "3"}
    func = trl_rewards(_config(tmp_path), reference_column="label",
                       on_config_abstain="warn").funcs[0]
    assert func(prompts=[row["prompt"]], completions=["\\boxed{3}"], completion_ids=[[1]],
                trainer_state=object(), answer=[row["answer"]], label=[row["label"]]) == [1.0]
    env_class = trl_environment({"use": "number_guess"}, reference_column="label")
    env = env_class()
    env.reset(**row)
    episode = env._episode
    assert episode is not None and episode.sample.reference == "3"
    assert gold_ambiguity(episode.sample) is None
