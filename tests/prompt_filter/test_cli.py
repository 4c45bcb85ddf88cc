"""`rewards filter-prompts` end to end: the shipped examples through the real math reward,
bad rows, Parquet, re-selection from the journal, the progress bar."""

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from filter_helpers import EXAMPLES, cli, outputs, read_jsonl, write_config, write_jsonl

# Correct rollouts (of 16) per example prompt, from examples/filter/make_examples.py, and one
# prompt whose reference is truncated (`\frac{3}{`): the math reward abstains on all 16, which
# makes it an error row (line 30, field reference), not a dropped prompt.
SOLVED = [16, 16, 15, 16, 15, 16, 0, 0, 1, 0, 1, 0,
          2, 3, 4, 5, 6, 7, 8, 8, 9, 10, 11, 12, 13, 14, 4, 10, 6]


@pytest.fixture(scope="module")
def example_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("example")
    result = cli(EXAMPLES / "prompts.jsonl", "--rollouts", EXAMPLES / "rollouts.jsonl",
                 "--out", out)
    assert result.returncode == 0, result.stderr
    return out, result


def test_examples_with_the_math_reward(example_run):
    out, result = example_run
    kept, dropped = read_jsonl(out / "kept.jsonl"), read_jsonl(out / "dropped.jsonl")
    # kept: 2..14 of 16 (0.125 .. 0.875); 15/16 = 0.9375 > 0.9 and 1/16 = 0.0625 < 0.1 are not
    expected_kept = {f"math-{i:03d}": s / 16 for i, s in enumerate(SOLVED) if 2 <= s <= 14}
    assert {r["id"]: r["pass_rate"] for r in kept} == expected_kept
    assert len(kept) == 17
    reasons = {r["id"]: r["reason"] for r in dropped}
    assert reasons == {**{f"math-{i:03d}": "too_easy" for i in range(6)},
                       **{f"math-{i:03d}": "too_hard" for i in range(6, 12)}}
    [bad] = read_jsonl(out / "errors.jsonl")
    assert (bad["file"], bad["line"], bad["field"]) == (str(EXAMPLES / "prompts.jsonl"), 30,
                                                        "reference")
    assert "bad_reference:unparseable x16 of 16 rollouts" in bad["error"]
    assert "'math-bad-reference'" in bad["error"]
    by_id = {r["id"]: r for r in kept}
    # 8/16 is exactly 0.5: easy; 7/16 hard. std of 8/16 passes: sqrt(0.25) = 0.5
    assert by_id["math-018"]["bucket"] == "easy" and by_id["math-017"]["bucket"] == "hard"
    assert by_id["math-018"]["std"] == 0.5 and by_id["math-018"]["n_rollouts"] == 16
    assert by_id["math-012"]["source"] == "generated"  # the prompt row's own columns travel
    stats = json.loads((out / "stats.json").read_text())
    assert stats["mode"] == "binary" and stats["prompts"]["kept"] == 17
    assert stats["prompts"]["dropped"] == {"too_easy": 6, "too_hard": 6, "unscorable": 0,
                                           "low_std": 0}
    assert stats["prompts"]["bad_reference"] == 1
    assert stats["buckets"]["counts"] == {"easy": 9, "hard": 8}
    assert stats["rollouts"]["used"] == 480
    assert stats["rollouts"]["reasons"]["bad_reference"] == 16
    hist = stats["pass_rate"]["histogram"]
    assert len(hist["counts"]) == 17 and hist["counts"][0] == 4 and hist["counts"][16] == 4
    assert sum(hist["counts"]) == 29  # the bad-reference prompt has no pass rate to plot
    assert (out / "pass_rates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "kept 17 in [0.1, 0.9]" in result.stdout


def test_band_change_reselects_from_the_journal_without_rescoring(example_run, tmp_path):
    out, _ = example_run
    copy = tmp_path / "out"
    copy.mkdir()
    (copy / "journal.jsonl").write_bytes((out / "journal.jsonl").read_bytes())
    # a different reward config would refuse the journal; the same one re-selects at once
    result = cli(EXAMPLES / "prompts.jsonl", "--rollouts", EXAMPLES / "rollouts.jsonl",
                 "--out", copy, "--low", "0.5", "--high", "1.0", "--buckets", "2", "--no-plot")
    assert result.returncode == 0, result.stderr
    kept = read_jsonl(copy / "kept.jsonl")
    assert len(kept) == sum(1 for s in SOLVED if s >= 8)  # 8/16 .. 16/16: 15 prompts
    assert (copy / "journal.jsonl").read_bytes() == (out / "journal.jsonl").read_bytes()
    assert not (copy / "pass_rates.png").exists()
    stats = json.loads((copy / "stats.json").read_text())
    # rates of the kept: 8,8,9,10,10,11,12,13,14,15,15,16,16,16,16 (/16); median 13/16
    assert stats["buckets"]["edges"] == [13 / 16]
    assert stats["buckets"]["counts"] == {"q2": 8, "q1": 7}


def test_other_config_refuses_the_journal_until_restart(example_run, tmp_path):
    out, _ = example_run
    copy = tmp_path / "out"
    copy.mkdir()
    (copy / "journal.jsonl").write_bytes((out / "journal.jsonl").read_bytes())
    cfg = write_config(tmp_path / "cfg.yaml", "filter_rewards:exact", domain="math")
    args = [EXAMPLES / "prompts.jsonl", "--rollouts", EXAMPLES / "rollouts.jsonl", "--out", copy,
            "--config", cfg, "--no-plot"]
    refused = cli(*args)
    assert refused.returncode == 2 and "--restart" in refused.stderr
    restarted = cli(*args, "--restart")
    assert restarted.returncode == 0, restarted.stderr
    # exact string match against the reference: no completion equals it, all too hard
    assert read_jsonl(copy / "kept.jsonl") == []


def test_bad_rows_become_error_rows_naming_file_line_field(tmp_path):
    prompts = write_jsonl(tmp_path / "prompts.jsonl", [
        {"id": "a", "prompt": "q", "reference": "1"},
        {"id": "b", "reference": "1"},
        "{oops",
        {"id": "c", "prompt": "q", "reference": "1"},
    ])
    rollouts = write_jsonl(tmp_path / "rollouts.jsonl", [
        {"id": "a", "completion": "1"}, {"id": "a", "completion": "0"},
        {"id": "a", "completion": "BOOM"},
        {"id": "b", "completion": "1"},
        {"id": "c"},
        "not json",
        {"id": "c", "completion": "1"}, {"id": "c", "completion": "1"},
    ])
    cfg = write_config(tmp_path / "cfg.yaml", "filter_rewards:explode_on_boom")
    out = tmp_path / "out"
    result = cli(prompts, "--rollouts", rollouts, "--out", out, "--config", cfg, "--no-plot",
                 "--chunk-size", "3")
    assert result.returncode == 0, result.stderr
    errors = read_jsonl(out / "errors.jsonl")
    assert [(e["file"], e["line"], e["field"]) for e in errors] == [
        (str(prompts), 2, "prompt"), (str(prompts), 3, None),
        (str(rollouts), 3, "completion"),   # the reward raised on this one
        (str(rollouts), 4, "id"),           # prompt b was a bad row
        (str(rollouts), 5, "completion"), (str(rollouts), 6, None)]
    assert "poison sample" in errors[2]["error"]
    kept = read_jsonl(out / "kept.jsonl")
    dropped = read_jsonl(out / "dropped.jsonl")
    # a: 1 of 2 scored (the poison rollout abstains) -> 0.5 kept; c: 2 of 2 -> too easy
    assert [(r["id"], r["pass_rate"], r["n_rollouts"], r["n_scored"]) for r in kept] == [
        ("a", 0.5, 3, 2)]
    assert [(r["id"], r["reason"]) for r in dropped] == [("c", "too_easy")]
    stats = json.loads((out / "stats.json").read_text())
    assert stats["prompts"]["errors"] == 2 and stats["rollouts"]["errors"] == 4
    assert "2 bad rows" in result.stdout


def test_parquet_inputs_derived_ids_continuous_mode_and_n(tmp_path):
    rows = [{"prompt": f"q{i}", "reference": "x"} for i in range(3)]
    prompts = tmp_path / "prompts.parquet"
    pq.write_table(pa.Table.from_pylist(rows), prompts)
    from rewards.io import derive_id

    ids = [derive_id(r) for r in rows]
    values = {ids[0]: ["0.2", "0.4", "0.9", "0.0"], ids[1]: ["0.95", "1.0", "0.9"],
              ids[2]: ["0.5", "0.5", "0.5"]}
    rollouts = tmp_path / "rollouts.parquet"
    pq.write_table(pa.Table.from_pylist([{"prompt_id": pid, "completion": v}
                                         for pid, vs in values.items() for v in vs]), rollouts)
    cfg = write_config(tmp_path / "cfg.yaml", "filter_rewards:fraction")
    out = tmp_path / "out"
    result = cli(prompts, "--rollouts", rollouts, "--out", out, "--config", cfg, "--n", "3",
                 "--min-std", "0.05")
    assert result.returncode == 0, result.stderr
    kept = read_jsonl(out / "kept.jsonl")
    # continuous: mean of the first 3 values; q0: 0.5 (the 4th, 0.0, is beyond n)
    assert [(r["id"], r["prompt"]) for r in kept] == [(ids[0], "q0")]
    assert kept[0]["pass_rate"] == pytest.approx(0.5)
    assert kept[0]["std"] == pytest.approx((0.26 / 3) ** 0.5)
    dropped = {r["prompt"]: r["reason"] for r in read_jsonl(out / "dropped.jsonl")}
    assert dropped == {"q1": "too_easy", "q2": "low_std"}  # 0.95 > 0.9; std 0 < 0.05
    stats = json.loads((out / "stats.json").read_text())
    assert stats["mode"] == "continuous" and stats["rollouts"]["beyond_n_ignored"] == 1
    assert len(stats["pass_rate"]["histogram"]["counts"]) == 20


def test_progress_bar_counts_and_eta(tmp_path):
    out = tmp_path / "out"
    result = cli(EXAMPLES / "prompts.jsonl", "--rollouts", EXAMPLES / "rollouts.jsonl",
                 "--out", out, "--progress", "on", "--chunk-size", "100", "--no-plot")
    assert result.returncode == 0, result.stderr
    last = result.stderr.replace("\r", "\n").strip().splitlines()[-1]
    assert "480/480" in last and "scored=464" in last and "abstained=16" in last
    assert "errors=0" in last and "<" in last  # tqdm's [elapsed<remaining]
    first = outputs(out)
    again = cli(EXAMPLES / "prompts.jsonl", "--rollouts", EXAMPLES / "rollouts.jsonl",
                "--out", out, "--progress", "on", "--no-plot")
    assert "resuming: 480 of 480 rollouts already scored" in again.stderr
    assert outputs(out) == first  # a finished run started again changes nothing


def test_usage_errors(tmp_path):
    both = cli(EXAMPLES / "prompts.jsonl", "--out", tmp_path, "--rollouts", "x", "--policy", "y")
    assert both.returncode == 2 and "not allowed with" in both.stderr
    missing = cli(tmp_path / "none.jsonl", "--out", tmp_path, "--rollouts",
                  EXAMPLES / "rollouts.jsonl")
    assert missing.returncode == 2 and "no such file" in missing.stderr
    band = cli(EXAMPLES / "prompts.jsonl", "--out", tmp_path, "--rollouts",
               EXAMPLES / "rollouts.jsonl", "--low", "0.9", "--high", "0.1")
    assert band.returncode == 2 and "low <= high" in band.stderr


def test_a_verl_dataset_folder_with_nested_map_domain_map_and_set(tmp_path):
    datasets = pytest.importorskip("datasets")
    prompts = tmp_path / "prompts_ds"
    datasets.Dataset.from_list([
        {"data_source": "openai/gsm8k", "prompt": [{"role": "user", "content": f"q{i}"}],
         "reward_model": {"style": "rule", "ground_truth": str(i)},
         "extra_info": {"index": f"p{i}"}} for i in range(3)]).save_to_disk(str(prompts))
    # p0: 4 of 4 right (too easy), p1: 2 of 4 (kept), p2: 0 of 4 (too hard)
    rollouts = write_jsonl(tmp_path / "rollouts.jsonl", [
        {"id": f"p{i}", "completion": str(i) if k < 4 - 2 * i else "x"}
        for i in range(3) for k in range(4)])
    cfg = write_config(tmp_path / "cfg.yaml", "filter_rewards:fraction", domain="math")
    args = [prompts, "--rollouts", rollouts, "--config", cfg, "--no-plot", "--n", "4",
            "--map", "reward_model.ground_truth=reference,extra_info.index=id",
            "--map", "data_source=domain", "--domain-map", "openai/gsm8k=math"]
    result = cli(*args, "--out", tmp_path / "out", "--set",
                 "domains.math.rewards.0.use=filter_rewards:exact")
    assert result.returncode == 0, result.stderr
    # output rows are the prompt rows as read: the id is where the dataset keeps it
    kept = read_jsonl(tmp_path / "out" / "kept.jsonl")
    assert [(r["extra_info"]["index"], r["pass_rate"]) for r in kept] == [("p1", 0.5)]
    dropped = {r["extra_info"]["index"]: r["reason"]
               for r in read_jsonl(tmp_path / "out" / "dropped.jsonl")}
    assert dropped == {"p0": "too_easy", "p2": "too_hard"}
    bad = cli(*args, "--out", tmp_path / "out2", "--set", "domains.maths.alpha=1")
    assert bad.returncode == 2
    assert "--set domains.maths.alpha: domains has no key 'maths' (keys: math)" in bad.stderr
    assert not (tmp_path / "out2").exists()
