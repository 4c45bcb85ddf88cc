import json
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from rewards_cli import main

CONFIG = """
domains:
  default:
    rewards:
      - {use: "rewards_for_tests:exact", name: exact}
  poison:
    rewards:
      - {use: "rewards_for_tests:explode_on_boom", name: boom}
"""


def _read(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_score_one_row_per_input_row(tmp_path, capsys):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG)
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join([
        json.dumps({"prompt": "q", "completion": "4", "reference": "4", "group": "a"}),
        "{not json",
        json.dumps({"prompt": "q", "reference": "4"}),
        json.dumps({"prompt": "q", "completion": "5", "reference": "4"}),
        json.dumps({"completion": "BOOM", "domain": "poison"}),
        json.dumps({"completion": "fine", "domain": "poison"}),
    ]) + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["score", str(src), "--config", str(cfg), "--out", str(out)]) == 0
    rows = _read(out)
    assert [r["line"] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert rows[0] == {"line": 1, "domain": "default", "group": "a", "score": 1.0,
                       "reason": "ok", "parts": {"exact": 1.0}}
    assert rows[1]["reason"] == "input_error" and f"{src}:2" in rows[1]["error"]
    assert rows[2]["reason"] == "input_error" and rows[2]["field"] == "completion"
    assert rows[3]["score"] == 0.0
    assert rows[4]["reason"] == "error" and "poison sample" in rows[4]["error"]
    assert rows[5]["score"] == 1.0  # the poison row did not take its batch down
    summary = capsys.readouterr().out
    assert "scored 6 rows" in summary and "input_error" in summary
    assert "default" in summary and "0.5000" in summary


def test_score_parquet_with_map(tmp_path):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG)
    src = tmp_path / "in.parquet"
    pq.write_table(pa.table({"solution_str": ["7", "8"], "ground_truth": ["7", "7"]}), src)
    out = tmp_path / "out.jsonl"
    assert main(["score", str(src), "--config", str(cfg), "--out", str(out),
                 "--map", "solution_str=completion,ground_truth=reference"]) == 0
    assert [r["score"] for r in _read(out)] == [1.0, 0.0]


def test_bad_config_exits_2_with_message(tmp_path, capsys):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text("domains: {d: {rewards: [{use: no_such_reward_anywhere}]}}\n")
    src = tmp_path / "in.jsonl"
    src.write_text('{"completion": "x"}\n')
    assert main(["score", str(src), "--config", str(cfg), "--out", str(tmp_path / "o")]) == 2
    assert "unknown reward" in capsys.readouterr().err


def test_console_script_runs_as_a_process(tmp_path):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG)
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps({"completion": str(i % 3), "reference": "1"}) + "\n"
                           for i in range(1200)))
    out = tmp_path / "out.jsonl"
    proc = subprocess.run([sys.executable, "-m", "rewards", "score", str(src), "--config",
                           str(cfg), "--out", str(out), "--batch-size", "100"],
                          check=False, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    rows = _read(out)
    assert len(rows) == 1200 and [r["line"] for r in rows] == list(range(1, 1201))
    assert sum(r["score"] for r in rows) == 400
    assert "1200/1200" in proc.stderr  # the progress bar on a long input
    quiet = subprocess.run([sys.executable, "-m", "rewards", "score", str(src), "--config",
                            str(cfg), "--out", str(out), "--progress", "off"],
                           check=False, capture_output=True, text=True, timeout=120)
    assert quiet.returncode == 0 and "1200/1200" not in quiet.stderr
    assert len(_read(out)) == 1200


ABSTAIN_CONFIG = """
domains:
  math: {rewards: [{use: "rewards_for_tests:abstain_on_missing", name: gold}]}
  code: {rewards: [{use: "rewards_for_tests:exact", name: exact}]}
"""


def _run(tmp_path, rows, *extra, config=ABSTAIN_CONFIG):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(config)
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out.jsonl"
    code = main(["score", str(src), "--config", str(cfg), "--out", str(out), "--progress",
                 "off", *extra])
    return code, out


def test_a_run_where_every_row_has_an_unknown_domain_exits_3(tmp_path, capsys):
    code, out = _run(tmp_path, [{"completion": "1", "domain": "openai/gsm8k"}] * 3)
    assert code == 3
    assert [r["reason"] for r in _read(out)] == ["unknown_domain"] * 3  # rows still written
    captured = capsys.readouterr()
    assert "3 of 3 rows were not scored for a configuration cause" in captured.err
    assert "'openai/gsm8k'" in captured.err and "code, math" in captured.err
    assert "unknown_domain" in captured.out  # the summary's table by cause


def test_an_unmapped_reference_says_missing_and_exits_3(tmp_path, capsys):
    rows = [{"completion": "1", "answer": "1", "domain": "math"}] * 2
    code, out = _run(tmp_path, rows, "--map", "gold=reference")
    assert code == 3
    assert {r["cause"] for r in _read(out)} == {"bad_reference:missing"}
    err = capsys.readouterr().err
    assert "--map column 'gold' is in no input row" in err and "bad_reference:missing x2" in err
    code, out = _run(tmp_path, rows, "--map", "answer=reference")
    assert code == 0 and [r["score"] for r in _read(out)] == [1.0, 1.0]


def test_the_abstain_share_is_configurable(tmp_path):
    rows = [{"completion": "1", "domain": "math"}, {"completion": "1", "reference": "1",
                                                     "domain": "math"}]
    assert _run(tmp_path, rows)[0] == 0  # half of the rows scored
    assert _run(tmp_path, rows, "--abstain-share", "0.5")[0] == 3


def test_a_whole_domain_not_scored_fails_the_run(tmp_path):
    """`rewards.scoring.RUN_RULE`: a domain of the data that scored nothing for a
    configuration cause fails the run, even when the other domains scored."""
    rows = [{"completion": "1", "domain": "nowhere"}, {"completion": "1", "reference": "1",
                                                        "domain": "code"}]
    assert _run(tmp_path, rows)[0] == 3


def test_an_unparseable_reference_is_data_unless_it_is_every_reference(tmp_path):
    config = """
domains:
  math: {rewards: [{use: "rewards_for_tests:unreadable_unless_digits", name: gold}]}
"""
    rows = [{"completion": "1", "reference": "not it", "domain": "math"},
            {"completion": "1", "reference": "1", "domain": "math"}]
    code, out = _run(tmp_path, rows, config=config)
    assert code == 0  # one unreadable gold among good ones: data
    assert _read(out)[0]["cause"] == "bad_reference:unparseable"
    # every reference of the domain unreadable: the wrong column, or the wrong reward
    assert _run(tmp_path, rows[:1], config=config)[0] == 3


def test_constraint_columns_in_meta_are_a_reference_for_the_abstention_cause(tmp_path):
    """IFEval rows ship their constraints as `instruction_id_list`/`kwargs` columns, which
    travel in `Sample.meta`: an unknown id there is an unreadable reference, as in a
    `reference` field, not a missing one; a row with neither is missing."""
    config = "domains:\n  ifeval: {rewards: [{use: ifeval}]}\n"
    columns = {"completion": "ok", "domain": "ifeval", "kwargs": [{}]}
    rows = [{**columns, "instruction_id_list": ["punctuation:no_semicolons"]},
            {**columns, "reference": {"instruction_id_list": ["punctuation:no_semicolons"],
                                      "kwargs": [{}]}},
            {"completion": "ok", "domain": "ifeval"},
            {**columns, "instruction_id_list": ["punctuation:no_comma"]}]
    code, out = _run(tmp_path, rows, config=config)
    assert code == 0
    assert [r["cause"] for r in _read(out)[:3]] == ["bad_reference:unparseable"] * 2 + [
        "bad_reference:missing"]
    assert _read(out)[3]["score"] == 1.0


def test_out_equal_to_an_input_is_refused_and_the_input_kept(tmp_path, capsys):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG)
    src = tmp_path / "in.jsonl"
    src.write_text('{"completion": "x"}\n')
    for out in (src, tmp_path / "." / "in.jsonl", cfg):
        assert main(["score", str(src), "--config", str(cfg), "--out", str(out)]) == 2
        assert "is an input of this run" in capsys.readouterr().err
    assert src.read_text() == '{"completion": "x"}\n' and cfg.read_text() == CONFIG


def test_a_lone_surrogate_in_domain_or_group_is_an_error_row(tmp_path):
    src_rows = ['{"completion": "4", "reference": "4"}', '{"completion": "x", "domain": "\\ud800"}',
                '{"completion": "x", "group": "g\\udfff"}']
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG)
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(src_rows) + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["score", str(src), "--config", str(cfg), "--out", str(out)]) == 0
    rows = _read(out)
    assert rows[0]["score"] == 1.0
    assert [(r["reason"], r["field"]) for r in rows[1:]] == [("input_error", "domain"),
                                                             ("input_error", "group")]


def test_unreadable_inputs_and_outputs_are_messages_not_tracebacks(tmp_path, capsys):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG)
    corrupt = tmp_path / "bad.parquet"
    corrupt.write_bytes(b"PAR1 not really parquet")
    src = tmp_path / "in.jsonl"
    src.write_text('{"completion": "x"}\n')
    blocker = tmp_path / "file"
    blocker.write_text("")
    cases = [(corrupt, tmp_path / "o.jsonl", "not a readable Parquet file"),
             (tmp_path, tmp_path / "o.jsonl", "is a directory"),
             (src, blocker / "o.jsonl", "cannot write the output"),
             (src, tmp_path, "cannot write the output")]
    for source, out, message in cases:
        for progress in ("on", "off"):
            assert main(["score", str(source), "--config", str(cfg), "--out", str(out),
                         "--progress", progress]) == 2
            err = capsys.readouterr().err
            assert message in err and "Traceback" not in err


SET_CONFIG = """
domains:
  default:
    rewards:
      - {use: "rewards_for_tests:Constant", value: 1.0}
"""


def test_set_overrides_the_reward_config(tmp_path, capsys):
    rows = [{"completion": "x"}, {"completion": "y", "domain": "extra"}]
    code, out = _run(tmp_path, rows, "--set", "domains.default.rewards.0.value=0.25",
                     config=SET_CONFIG)
    assert code == 0 and [r["score"] for r in _read(out)] == [0.25, 0.25]
    code, out = _run(tmp_path, rows, "--set", "domains.extra={rewards: [{use: "
                     "'rewards_for_tests:Constant', value: 0.5}]}", "--set",
                     "domains.default.rewards.0.value=0", config=SET_CONFIG)
    assert code == 0 and [r["score"] for r in _read(out)] == [0.0, 0.5]
    assert (tmp_path / "cfg.yaml").read_text() == SET_CONFIG  # the file is not changed


@pytest.mark.parametrize("override, message", [
    ("domains.defualt.alpha=0.5",
     "--set domains.defualt.alpha: domains has no key 'defualt' (keys: default)"),
    ("domains.default.rewards.2.value=1",
     "domains.default.rewards is a list of 1, not indexed by '2' (0..0)"),
    ("normalize", "--set 'normalize': use KEY=VALUE"),
    ("normalize=zscore", "'zscore'"),  # the config's own validation names the bad value
    ("domains.default.rewards.0.value=[1,",
     "override domains.default.rewards.0.value: not valid YAML"),
])
def test_a_bad_set_exits_2_with_the_message(tmp_path, capsys, override, message):
    code, out = _run(tmp_path, [{"completion": "x"}], "--set", override, config=SET_CONFIG)
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err
    assert not out.exists()  # refused before any row is scored


@pytest.mark.parametrize(("component", "cause", "hint"), [
    ('{use: "rewards_for_tests:always_raises", name: broken}', "error x2",
     "the reward raised on them"),
    ('{use: "rewards_for_tests:exact", name: exact, weight: 0}', "no_value x2",
     "every component has weight 0"),
    ('{use: "rewards_for_tests:returns_none", name: nothing}', "abstain x2",
     "returned None"),
])
def test_a_run_that_scored_nothing_never_exits_0(tmp_path, capsys, component, cause, hint):
    """A plugin that raises on every row, a domain whose only component has weight 0, a
    plugin that abstains on every row: each exited 0 with a table of nothing."""
    config = f"domains:\n  default: {{rewards: [{component}]}}\n"
    rows = [{"completion": "1", "reference": "1"}] * 2
    code, out = _run(tmp_path, rows, config=config)
    assert code == 3
    assert [r["score"] for r in _read(out)] == [None, None]  # rows still written
    err = capsys.readouterr().err
    assert cause in err and hint in err


def test_one_poison_row_among_scored_rows_still_exits_0(tmp_path):
    config = 'domains:\n  default: {rewards: [{use: "rewards_for_tests:explode_on_boom"}]}\n'
    rows = [{"completion": "BOOM"}, {"completion": "fine"}]
    code, out = _run(tmp_path, rows, config=config)
    assert code == 0 and [r["reason"] for r in _read(out)] == ["error", "ok"]


def test_the_summary_mean_under_zscore_is_of_the_raw_scores(tmp_path, capsys):
    """Under zscore_by_domain the mean column always showed 0.0000 (the normalized scores'
    mean); it shows the raw mean and says so."""
    config = ('domains:\n  default: {rewards: [{use: "rewards_for_tests:exact"}]}\n'
              "normalize: zscore_by_domain\n")
    rows = [{"completion": c, "reference": "1"} for c in ("1", "1", "1", "0")]
    code, out = _run(tmp_path, rows, config=config)
    assert code == 0 and abs(sum(r["score"] for r in _read(out))) < 1e-9
    summary = capsys.readouterr().out
    assert "raw mean" in summary and "0.7500" in summary and "0.0000" not in summary
    assert "before zscore_by_domain" in summary
