"""The gold column of a row no `--map` names (`rewards.io.find_reference`, one rule for every
entry point): MATH-shaped rows whose `solution` (a worked solution ending in `\\boxed{}`) and
`answer` state one gold score as before through `rewards score`, TRL's reward functions and
NeMo Gym's verify; rows whose gold columns differ abstain with `bad_reference:ambiguous`
naming the columns in each, and a `--map` naming the gold resolves them.

The rows have the layout of MATH-500 as math-evaluation-harness ships it
(`data/math_oai/test.jsonl`: problem, solution, answer, subject, level, unique_id) and of
AIME 2024 as Qwen2.5-Math ships it (`evaluation/data/aime24/test.jsonl`: a solution whose box
is `\\textbf{(113) }` beside the answer `113`); the rows here are written for these tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from integrations._common import resolve_reward
from integrations.nemo_gym import sample_from_verify
from integrations.trl import trl_rewards
from rewards.io import find_reference, prompt_record, row_to_sample, same_gold
from rewards.scoring import abstention_cause, score_batch

# (problem, solution, answer, completion, expected score)
MATH_ROWS = [
    ("Compute $\\frac{3}{6}$.", "We have $\\frac{3}{6} = \\boxed{\\frac{1}{2}}.$", "\\frac{1}{2}",
     "So the answer is \\boxed{\\frac12}.", 1.0),
    ("Convert $(0,3)$ to polar coordinates.",
     "The polar coordinates are $\\boxed{\\left( 3, \\frac{\\pi}{2} \\right)}.$",
     "\\left( 3, \\frac{\\pi}{2} \\right)", "\\boxed{(3, \\frac{\\pi}{2})}", 1.0),
    ("Find $m+n$.", "Therefore, the answer is $100 + 13 = \\boxed{\\textbf{(113) }}$.", "113",
     "The answer is \\boxed{113}.", 1.0),
    ("What is $2+3$?", "Clearly $2+3=\\boxed{5}$.", "5", "I get \\boxed{6}.", 0.0),
]


def _math_row(problem: str, solution: str, answer: str, completion: str, i: int = 0
              ) -> dict[str, Any]:
    return {"problem": problem, "solution": solution, "answer": answer, "subject": "Algebra",
            "level": 1, "unique_id": f"test/algebra/{i}.json", "completion": completion}


CONFIG = "domains:\n  default:\n    rewards: [math]\n"


def _score(tmp_path: Path, rows: list[dict[str, Any]], *options: str
           ) -> tuple[int, list[dict[str, Any]], str]:
    from rewards_cli import main

    data, out, config = tmp_path / "in.jsonl", tmp_path / "out.jsonl", tmp_path / "c.yaml"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    config.write_text(CONFIG)
    try:
        code = main(["score", str(data), "--config", str(config), "--out", str(out),
                     "--map", "problem=prompt", *options])
    except SystemExit as exc:  # main may exit with the run's status
        code = int(exc.code or 0)
    return code, [json.loads(line) for line in out.read_text().splitlines()], str(data)


def test_agreeing_solution_and_answer_score_as_the_answer_column_does(tmp_path: Path) -> None:
    rows = [_math_row(*row[:4], i=i) for i, row in enumerate(MATH_ROWS)]
    assert all(find_reference(r).ambiguity is None for r in rows)
    code, out, _ = _score(tmp_path, rows)
    assert code == 0 and [r["score"] for r in out] == [row[4] for row in MATH_ROWS]
    code, mapped, _ = _score(tmp_path, rows, "--map", "answer=reference")
    assert code == 0 and [r["score"] for r in mapped] == [r["score"] for r in out]


def test_disagreeing_gold_columns_abstain_naming_file_line_and_columns(tmp_path: Path) -> None:
    """A rollout file whose `answer` is the model's answer and whose `label` is the gold: no
    column is guessed; each row says which columns differ, and a run of such rows fails."""
    rows: list[dict[str, Any]] = [
        {"problem": "2+2?", "completion": "\\boxed{5}", "answer": "5", "label": "4"},
        {"problem": "2+2?", "completion": "\\boxed{4}", "answer": "4", "label": True}]
    code, out, source = _score(tmp_path, rows)
    assert code == 3
    for line, row in enumerate(out, 1):
        assert row["score"] is None and row["cause"] == "bad_reference:ambiguous", row
        assert row["error"].startswith(f"{source}:{line}: ambiguous gold: columns 'answer'")
        assert "'label'" in row["error"] and "(field 'answer')" in row["error"]
    assert "label" in out[0]["error"] and "('4')" in out[0]["error"]


def test_one_ambiguous_row_does_not_fail_a_run_that_scored(tmp_path: Path) -> None:
    rows: list[dict[str, Any]] = [
        _math_row(*MATH_ROWS[0][:4]),
        {"problem": "2+2?", "completion": "\\boxed{5}", "answer": "5", "label": "4"}]
    code, out, _ = _score(tmp_path, rows)
    assert code == 0 and out[0]["score"] == 1.0 and out[1]["cause"] == "bad_reference:ambiguous"


@pytest.mark.parametrize(("column", "expected"), [("label", [0.0, 1.0]), ("answer", [1.0, 0.0])])
def test_a_map_naming_the_gold_resolves_the_ambiguity(tmp_path: Path, column: str,
                                                      expected: list[float]) -> None:
    rows = [{"problem": "2+2?", "completion": "\\boxed{5}", "answer": "5", "label": "4"},
            {"problem": "2+2?", "completion": "\\boxed{4}", "answer": "5", "label": "4"}]
    code, out, _ = _score(tmp_path, rows, "--map", f"{column}=reference")
    assert code == 0 and [r["score"] for r in out] == expected


def test_prompt_rows_carry_the_ambiguity_to_the_filter_and_the_loops() -> None:
    record = prompt_record({"prompt": "2+2?", "answer": "5", "label": "4"}, source="p.jsonl",
                           line=7)
    sample = row_to_sample({"prompt": "2+2?", "completion": "4", "answer": "5", "label": "4"})
    from rewards.io import prompt_sample
    from rewards.types import gold_ambiguity

    why = gold_ambiguity(prompt_sample(record, "\\boxed{4}"))
    assert why is not None and why.startswith("p.jsonl:7: ambiguous gold")
    assert gold_ambiguity(sample) is not None


def _trl(config: Path, **columns: list[Any]) -> list[float | None]:
    func = trl_rewards(config, on_config_abstain="warn").funcs[0]
    n = len(columns["completions"])
    return func(prompts=["q"] * n, completion_ids=[[1, 2]] * n, trainer_state=object(),
                **columns)


def test_trl_reward_functions_read_the_gold_by_the_same_rule(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(CONFIG)
    rows = [_math_row(*row[:4]) for row in MATH_ROWS]
    columns = {k: [r[k] for r in rows] for k in ("solution", "answer", "level", "unique_id")}
    assert _trl(config, completions=[r["completion"] for r in rows], **columns) \
        == [row[4] for row in MATH_ROWS]
    assert _trl(config, completions=["\\boxed{5}", "\\boxed{4}"], answer=["5", "4"],
                label=["4", "4"]) == [None, 1.0]


def test_nemo_gym_verify_reads_the_gold_by_the_same_rule(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(CONFIG)
    resolved = resolve_reward(config)

    def body(completion: str, **fields: Any) -> dict[str, Any]:
        return {"responses_create_params": {"input": "q"},
                "response": {"output": [{"type": "message", "role": "assistant", "content": [
                    {"type": "output_text", "text": completion}]}]}, **fields}

    bodies = [body(row[3], solution=row[1], answer=row[2]) for row in MATH_ROWS]
    bodies += [body("\\boxed{5}", answer="5", label="4"),
               body("\\boxed{4}", expected_answer="4", answer="5")]  # NeMo Gym's own field
    samples = [sample_from_verify(resolved, b) for b in bodies]
    scores = score_batch(resolved.reward, samples).scores
    assert [s.value for s in scores] == [*(row[4] for row in MATH_ROWS), None, 1.0]
    assert abstention_cause(samples[-2], scores[-2]) == "bad_reference:ambiguous"


def test_rewards_check_says_what_scoring_will_do(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from rewards_cli import main

    data, config = tmp_path / "in.jsonl", tmp_path / "c.yaml"
    config.write_text(CONFIG)
    rows = [{"prompt": "2+2?", "completion": "\\boxed{5}", "answer": "5", "label": "4"}] * 2
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["check", str(data), "--config", str(config)]) == 3
    assert "bad_reference:ambiguous x2" in capsys.readouterr().err
    rows = [_math_row(*row[:4]) for row in MATH_ROWS]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["check", str(data), "--config", str(config)]) == 0


def test_each_sample_is_told_once_in_order_of_its_own_score(tmp_path: Path) -> None:
    """`score_batch(..., ready=)`: an ambiguous sample is told its abstention, the others
    their scores under their own positions in the batch."""
    config = tmp_path / "c.yaml"
    config.write_text(CONFIG)
    reward = resolve_reward(config).reward
    rows = [_math_row(*MATH_ROWS[0][:4]),
            {"prompt": "2+2?", "completion": "\\boxed{5}", "answer": "5", "label": "4"},
            _math_row(*MATH_ROWS[3][:4])]
    samples = [row_to_sample(r) for r in rows]
    told: dict[int, float | None] = {}

    def ready(indices: Any, scores: Any) -> None:
        for i, score in zip(indices, scores, strict=True):
            assert i not in told
            told[i] = score.value
    scores = score_batch(reward, samples, ready=ready).scores
    assert [s.value for s in scores] == [1.0, None, 0.0] and told == {0: 1.0, 1: None, 2: 0.0}


def test_the_trl_environment_carries_the_ambiguity_to_its_final_answer() -> None:
    """TRL's environments read the gold as the reward functions do; an ambiguous row's
    episode carries the mark by which its final answer abstains (`score_trajectories`)."""
    from integrations.trl_env import _Episodic
    from rewards.envs import EnvConfig
    from rewards.options import load_options
    from rewards.types import Sample, gold_ambiguity

    seen: dict[str, Sample] = {}

    class Probe(_Episodic):
        def _make(self) -> Any:
            class Env:
                name = "probe"

                def reset(self, sample: Sample) -> str:
                    seen["sample"] = sample
                    return ""

            return Env()

    Probe._config = load_options(EnvConfig, {"use": "number_guess"}, where="t")
    Probe().reset(prompt="Guess", solution="So \\boxed{7}.", answer="7")
    assert seen["sample"].reference == "So \\boxed{7}." and not gold_ambiguity(seen["sample"])
    Probe().reset(prompt="Guess", answer="7", label="3")
    why = gold_ambiguity(seen["sample"])
    assert why is not None and "columns 'answer' ('7') and 'label' ('3') differ" in why


@pytest.mark.parametrize(("first", "second", "same"), [
    ("We get $\\boxed{\\frac{1}{2}}$.", "\\frac{1}{2}", True),   # MATH: solution and answer
    ("$= \\boxed{\\textbf{(113) }}$.", "113", True),               # AIME 2024 (Qwen2.5-Math)
    ("25", "025", True),
    ("104.", 104, True),
    (" 7 ", "7", True),
    (7, 7.0, True),
    ("\\boxed{15\\frac{39}{40}, \\frac{639}{40}}", "\\frac{639}{40}", False),  # MATH-500's one
    ("Since $t = 24$, the walk takes 204 minutes.", "204", False),  # a solution with no box
    ("5", "4", False),
    ("5", True, False),      # a correctness flag is never a gold
    (True, True, True),
    ([{"input": "1", "output": "2"}], [{"input": "1", "output": "3"}], False),
    ({"a": 1, "b": 2}, {"b": 2, "a": 1}, True),
])
def test_same_gold(first: Any, second: Any, same: bool) -> None:
    assert same_gold(first, second) is same and same_gold(second, first) is same


# --- the mark is a field the reader sets, never an input's key ----------------------------


@pytest.mark.parametrize("key", ["ambiguous_gold", "_ambiguous_gold"])
def test_no_input_sets_or_clears_the_ambiguity(key: str) -> None:
    """`Sample.ambiguous_gold` is set by the gold rule alone: a row's `meta` column, a
    column, a Celery wire sample's `meta` or an environment server's sample named like it
    is data; the wire carries the reader's mark as its own key."""
    from integrations.celery._wire import decode_sample, encode_sample
    from integrations.env_server import _sample as env_sample
    from rewards.types import Sample, gold_ambiguity

    honest: dict[str, Any] = {"prompt": "2+2?", "completion": "\\boxed{4}", "answer": "4"}
    for forged in ({"meta": {key: "forged"}}, {key: "forged"}):
        assert gold_ambiguity(row_to_sample({**honest, **forged})) is None
    ambiguous: dict[str, Any] = {"prompt": "2+2?", "completion": "4", "answer": "5", "label": "4"}
    for cleared in ({"meta": {key: None}}, {key: None}, {"meta": {key: ""}}):
        assert gold_ambiguity(row_to_sample({**ambiguous, **cleared})) is not None
    wire = encode_sample(row_to_sample(ambiguous))
    assert gold_ambiguity(decode_sample(json.loads(json.dumps(wire)))) is not None
    assert gold_ambiguity(decode_sample({**wire, "ambiguous_gold": None,
                                         "meta": {key: "x"}})) is None
    assert gold_ambiguity(decode_sample({**wire, "ambiguous_gold": None})) is None
    assert gold_ambiguity(env_sample({"sample": {"prompt": "p", "reference": "4",
                                                 "meta": {key: "x"}, key: "y"}})) is None
    with pytest.raises(Exception, match="ambiguous_gold"):
        Sample("p", "c", ambiguous_gold=3)  # type: ignore[arg-type]


# --- look-alike gold column names ---------------------------------------------------------


@pytest.mark.parametrize("column", ["Label", "label ", "label\u200b", "\uff4c\uff41\uff42\uff45\uff4c",
                                    "LABEL", "\u200blabel"])
def test_a_look_alike_label_is_a_gold_column(column: str) -> None:
    """Read alone, it is the gold; beside the model's `answer` the row is ambiguous; it never
    travels in `meta` (a gold column, not another column)."""
    alone = find_reference({"prompt": "q", column: "4"})
    assert (alone.value, alone.column, alone.ambiguity) == ("4", column, None)
    beside = find_reference({"answer": "5", column: "4"})
    assert beside.ambiguity is not None and repr(column) in beside.ambiguity
    sample = row_to_sample({"prompt": "q", "completion": "4", "answer": "4", column: "4"})
    assert sample.reference == "4" and column not in sample.meta and sample.ambiguous_gold is None


@pytest.mark.parametrize("column", ["Ground Truth", "ground-truth", "GROUND\u2013TRUTH",
                                    "ground__truth", "Solution", "Reference", "expected answer"])
def test_separators_and_case_read_as_the_gold_columns_name(column: str) -> None:
    gold = find_reference({"answer": "5", column: "4"}, first=("expected_answer",))
    assert gold.ambiguity is not None and repr(column) in gold.ambiguity


def test_an_exact_named_column_wins_and_a_named_column_is_exact(tmp_path: Path) -> None:
    """`reference` and a protocol's own field, spelled exactly, are named: they win without a
    comparison. Their look-alikes are read with the others, and a `--map` or
    `reference_column` names exactly one column."""
    assert find_reference({"reference": "4", "answer": "5"}).value == "4"
    assert find_reference({"Reference": "4", "answer": "5"}).ambiguity is not None
    assert find_reference({"expected_answer": "4", "answer": "5"},
                          first=("expected_answer",)).ambiguity is None
    assert find_reference({"Label": "4"}, "label").found is False
    rows = [{"problem": "2+2?", "completion": "\\boxed{5}", "answer": "5", "Label": "4"}]
    code, out, _ = _score(tmp_path, rows, "--map", "Label=reference")
    assert code == 0 and out[0]["score"] == 0.0, out
    func = trl_rewards(tmp_path / "c.yaml", reference_column="label",
                       on_config_abstain="warn").funcs[0]
    from rewards.errors import InputError

    with pytest.raises(InputError, match="no reference column 'label'"):
        func(prompts=["q"], completions=["\\boxed{4}"], Label=["4"])


# --- 0/1 and true/false labels beside another gold ----------------------------------------


@pytest.mark.parametrize("label", [0, 1, 0.0, 1.0, "0", "1", " 1 ", "true", "False", True])
def test_a_flag_like_label_beside_another_gold_is_ambiguous(label: Any) -> None:
    for other in ({"answer": str(label).strip().lower()}, {"solution": "\\boxed{1}"},
                  {"ground_truth": 0}):
        gold = find_reference({**other, "label": label})
        assert gold.ambiguity is not None and "correctness flag" in gold.ambiguity, (other, gold)


def test_flags_are_only_a_labels_and_a_lone_label_is_its_gold(tmp_path: Path) -> None:
    assert find_reference({"answer": "0", "solution": "so \\boxed{0}"}).ambiguity is None
    assert find_reference({"answer": 1, "ground_truth": "1"}).ambiguity is None
    assert find_reference({"answer": "2", "label": 2}).ambiguity is None  # not a flag value
    assert find_reference({"answer": None, "label": 0}).value == 0
    rows = [{"problem": "1-1?", "completion": "\\boxed{0}", "label": 0},
            {"problem": "1-1?", "completion": "\\boxed{0}", "answer": "0", "label": 0}]
    code, out, _ = _score(tmp_path, rows)
    assert code == 0 and [r["score"] for r in out] == [1.0, None], out
    assert out[1]["cause"] == "bad_reference:ambiguous"


# --- TRL environments are told the gold column ---------------------------------------------


def test_the_trl_environment_reads_the_named_column_and_carries_the_mark() -> None:
    from integrations.trl_env import trl_environment
    from rewards.errors import InputError
    from rewards.types import gold_ambiguity

    named = trl_environment({"use": "number_guess"}, reference_column="label")()
    named.reset(prompt="Guess.", answer="7", label="3")
    assert named._episode.sample.reference == "3" and not gold_ambiguity(named._episode.sample)
    with pytest.raises(InputError, match="no reference column 'label'"):
        named.reset(prompt="Guess.", Label="3")
    plain = trl_environment({"use": "number_guess"})()
    plain.reset(prompt="Guess.", answer="7", label="3", meta={"ambiguous_gold": None})
    assert gold_ambiguity(plain._episode.sample) is not None
    assert gold_ambiguity(plain._episode.final_sample()) is not None


def test_memos_tell_an_ambiguous_row_from_an_honest_one(tmp_path: Path) -> None:
    """The gold columns leave `meta`, so an honest row and an ambiguous one can differ in
    `Sample.ambiguous_gold` alone: the verifiers memo and TRL's batch memo key on it too."""
    import asyncio

    from integrations._common import row_sample
    from integrations.verifiers import _SharedScorer

    config = tmp_path / "c.yaml"
    config.write_text(CONFIG)
    resolved = resolve_reward(config)
    honest = row_sample(resolved, "2+2?", "\\boxed{5}", {"answer": "5"})
    ambiguous = row_sample(resolved, "2+2?", "\\boxed{5}", {"answer": "5", "label": "4"})
    assert (honest.reference, honest.meta) == (ambiguous.reference, ambiguous.meta)

    async def both() -> list[float | None]:
        scorer = _SharedScorer(resolved)
        return [(await scorer.score(s)).value for s in (honest, ambiguous)]

    assert asyncio.run(both()) == [1.0, None]
    two = tmp_path / "two.yaml"
    two.write_text("domains:\n  default:\n    rewards: [math, {use: math, name: again}]\n")
    funcs = trl_rewards(two, on_config_abstain="warn").funcs
    call = {"prompts": ["2+2?"], "completions": ["\\boxed{5}"], "answer": ["5"]}
    assert funcs[0](**call) == [1.0]
    assert funcs[1](**call, label=["4"]) == [None]
