"""A band verdict needs evidence: a prompt whose reference the reward cannot use is an error
row (never too_hard from the one rollout that got a score), and a prompt with fewer scored
rollouts than `min_scored` is unscorable."""

import json

import pytest
from filter_helpers import cli, read_jsonl, write_config, write_jsonl

from prompt_filter import Band, PassRate, drop_reason
from rewards.errors import ConfigError

# The math reward cannot use a power tower as gold (beyond its structural limits): it
# abstains with bad_reference on every completion, one with no answer at all too (the gold
# is judged before the reply).
TOWER = "2^{2^{2^{2^{2}}}}"


def test_unusable_gold_goes_to_errors_not_too_hard(tmp_path):
    prompts = write_jsonl(tmp_path / "prompts.jsonl", [
        {"id": "good", "prompt": "1 + 1?", "reference": "2", "domain": "math"},
        {"id": "tower", "prompt": "Big number?", "reference": TOWER, "domain": "math"},
    ])
    rollouts = write_jsonl(tmp_path / "rollouts.jsonl", [
        *({"id": "good", "completion": f"\\boxed{{{2 if i % 2 else 3}}}"} for i in range(16)),
        *({"id": "tower", "completion": f"\\boxed{{{i}}}"} for i in range(15)),
        {"id": "tower", "completion": "no idea"},
    ])
    out = tmp_path / "out"
    result = cli(prompts, "--rollouts", rollouts, "--out", out, "--no-plot")
    assert result.returncode == 0, result.stderr
    [error] = read_jsonl(out / "errors.jsonl")
    assert (error["file"], error["line"], error["field"]) == (str(prompts), 2, "reference")
    assert "bad_reference:unparseable x16 of 16 rollouts" in error["error"]
    dropped = read_jsonl(out / "dropped.jsonl")
    kept = read_jsonl(out / "kept.jsonl")
    assert [r["id"] for r in kept] == ["good"] and dropped == []
    stats = json.loads((out / "stats.json").read_text())
    assert stats["prompts"]["bad_reference"] == 1
    assert stats["prompts"]["dropped"]["too_hard"] == 0
    assert "1 with an unusable reference" in result.stdout


def test_a_mapped_reference_column_is_named_in_the_error(tmp_path):
    prompts = write_jsonl(tmp_path / "prompts.jsonl", [
        {"uid": "tower", "problem": "Big number?", "answer": TOWER, "domain": "math"},
        {"uid": "good", "problem": "2 + 2?", "answer": "4", "domain": "math"}])
    # (a math domain with no usable reference at all would fail the run: RUN_RULE)
    rollouts = write_jsonl(tmp_path / "rollouts.jsonl",
                           [{"id": p, "completion": "\\boxed{4}"} for p in ("tower", "good")] * 2)
    out = tmp_path / "out"
    result = cli(prompts, "--rollouts", rollouts, "--out", out, "--no-plot", "--n", "2",
                 "--map", "uid=id,problem=prompt,answer=reference")
    assert result.returncode == 0, result.stderr
    [error] = read_jsonl(out / "errors.jsonl")
    assert (error["line"], error["field"]) == (1, "answer")


def test_too_few_scored_rollouts_are_unscorable_until_min_scored_allows(tmp_path):
    prompts = write_jsonl(tmp_path / "prompts.jsonl", [{"id": "a", "prompt": "q",
                                                         "reference": "1"}])
    rollouts = write_jsonl(tmp_path / "rollouts.jsonl", [
        {"id": "a", "completion": "0"}, *({"id": "a", "completion": "SKIP"} for _ in range(3))])
    cfg = write_config(tmp_path / "cfg.yaml", "filter_rewards:abstain_on_skip")
    base = [prompts, "--rollouts", rollouts, "--config", cfg, "--no-plot", "--n", "4"]
    result = cli(*base, "--out", tmp_path / "default")
    assert result.returncode == 0, result.stderr
    [row] = read_jsonl(tmp_path / "default" / "dropped.jsonl")
    assert row["reason"] == "unscorable" and row["n_scored"] == 1
    assert row["detail"] == ("1 of 4 rollouts scored, a verdict needs 2: "
                             "judge_unavailable x3")
    assert read_jsonl(tmp_path / "default" / "errors.jsonl") == []  # not the reference's fault
    # the same journal, re-selected with a lower bar: now a verdict (0 of 1 passed)
    result = cli(*base, "--out", tmp_path / "default", "--min-scored", "1")
    assert result.returncode == 0, result.stderr
    [row] = read_jsonl(tmp_path / "default" / "dropped.jsonl")
    assert row["reason"] == "too_hard"
    stats = json.loads((tmp_path / "default" / "stats.json").read_text())
    assert stats["band"]["min_scored"] == 1


@pytest.mark.parametrize(("n_scored", "n_rollouts", "min_scored", "reason"), [
    (1, 16, None, "unscorable"),   # default: half of 16 = 8
    (8, 16, None, "too_hard"),
    (7, 15, None, "unscorable"),   # half of 15, rounded up: 8
    (1, 1, None, "too_hard"),
    (3, 16, 3, "too_hard"),
    (2, 16, 3, "unscorable"),
])
def test_needed_scored(n_scored, n_rollouts, min_scored, reason):
    rate = PassRate(0.0, 0.0, n_rollouts, n_scored)
    assert drop_reason(rate, Band(min_scored=min_scored)) == reason


def test_min_scored_must_be_positive(tmp_path):
    with pytest.raises(ConfigError, match="min_scored must be >= 1"):
        Band(min_scored=0)
    result = cli(tmp_path / "p.jsonl", "--rollouts", tmp_path / "r.jsonl", "--out",
                 tmp_path / "o", "--min-scored", "0")
    assert result.returncode == 2 and "min_scored must be >= 1" in result.stderr


def test_a_missing_reference_is_an_error_row_too(tmp_path):
    prompts = write_jsonl(tmp_path / "prompts.jsonl", [
        {"id": "a", "prompt": "q", "reference": "1"}, {"id": "b", "prompt": "q"}])
    rollouts = write_jsonl(tmp_path / "rollouts.jsonl", [
        {"id": "a", "completion": "1"}, {"id": "a", "completion": "0"},
        {"id": "b", "completion": "1"}, {"id": "b", "completion": "0"}])
    cfg = write_config(tmp_path / "cfg.yaml", "filter_rewards:exact")
    out = tmp_path / "out"
    result = cli(prompts, "--rollouts", rollouts, "--out", out, "--config", cfg, "--n", "2",
                 "--no-plot")
    assert result.returncode == 0, result.stderr
    [error] = read_jsonl(out / "errors.jsonl")
    assert (error["line"], error["field"]) == (2, "reference")
    assert "bad_reference:missing x2 of 2 rollouts" in error["error"]
    stats = json.loads((out / "stats.json").read_text())
    assert stats["rollouts"]["abstained"] == {"bad_reference:missing": 2}


def test_a_run_that_scores_nothing_for_a_configuration_cause_exits_3(tmp_path):
    # the rows name a domain the config does not have: every rollout abstains unknown_domain
    prompts = write_jsonl(tmp_path / "prompts.jsonl", [
        {"id": "a", "prompt": "1+1?", "reference": "2", "domain": "maths"}])
    rollouts = write_jsonl(tmp_path / "rollouts.jsonl",
                           [{"id": "a", "completion": "\\boxed{2}"}] * 2)
    out = tmp_path / "out"
    result = cli(prompts, "--rollouts", rollouts, "--out", out, "--n", "2", "--no-plot")
    assert result.returncode == 3
    message = result.stderr.strip().splitlines()[-1]
    assert "2 of 2 rows were not scored for a configuration cause: unknown_domain x2" in message
    assert "'maths'" in message
    stats = json.loads((out / "stats.json").read_text())  # every output was written first
    assert stats["rollouts"]["abstained"] == {"unknown_domain": 2}
    assert [r["reason"] for r in read_jsonl(out / "dropped.jsonl")] == ["unscorable"]
