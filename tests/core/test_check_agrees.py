"""`rewards check` says what `rewards score` will do: the same extraction, reference parsing,
component build and exit rule, row by row, on the README's example data and on data built to
make them disagree (issue 27's four disagreements)."""

import json
from pathlib import Path

import pytest

from rewards import parse_config
from rewards.check import check_rows
from rewards.config import load_config
from rewards_cli import main
from rewards_cli._common import BUNDLED_CONFIG

EXAMPLES = Path(__file__).parents[2] / "rewards" / "data" / "example_rollouts.jsonl"


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    """`rewards score` on the bundled examples with the bundled config: rows by line."""
    out = tmp_path_factory.mktemp("score") / "scores.jsonl"
    assert main(["score", str(EXAMPLES), "--out", str(out), "--progress", "off"]) == 0
    return {row["line"]: row for row in map(json.loads, out.read_text().splitlines())}


def test_check_predicts_each_abstention_of_score_on_the_example_data(scored):
    report = check_rows(EXAMPLES, load_config(BUNDLED_CONFIG))
    lines = {d: [line for line, row in scored.items() if row["domain"] == d]
             for d in report.domains}
    for name, domain in report.domains.items():
        predicted = dict(zip(sorted(lines[name]), domain.row_causes))
        actual = {line: scored[line].get("cause", scored[line]["reason"])
                  if scored[line]["score"] is None else None for line in lines[name]}
        assert predicted == actual, name
    # disagreement 1: the math reference `\frac{3}{` (line 21) is unparseable in both
    assert report.domains["math"].abstain == {"bad_reference:unparseable": 1}
    assert scored[21]["cause"] == "bad_reference:unparseable"
    assert "references usable 20 of 21 (bad_reference:unparseable x1; first line 21" in \
        report.render()


def test_check_finds_a_program_where_score_finds_one(scored):
    """Disagreement 2: prose is not a found program (line 33 scores no_code)."""
    report = check_rows(EXAMPLES, load_config(BUNDLED_CONFIG))
    code = report.domains["code"].components[0]
    no_code = [line for line, row in scored.items() if row["reason"] == "no_code"]
    assert no_code == [33]
    assert code.answers == 12 - len(no_code)
    assert code.first_missing.startswith("line 33: no program taken")


def _rows(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


MATH = [json.loads(line) for line in EXAMPLES.read_text().splitlines()[:20]]


@pytest.mark.parametrize("share,expected", [("1.0", 3), ("0.5", 3), ("0.9", 3)])
def test_a_domain_of_unreadable_references_fails_check_and_score_alike(tmp_path, share,
                                                                         expected):
    """Disagreement 3: one domain whose references are all unparseable (40% of the rows)
    fails both commands, by the one rule (`rewards.scoring.RUN_RULE`)."""
    bad = {"domain": "code", "reference": "the function adds two numbers",
           "completion": "```python\ndef add(a, b):\n    return a + b\n```"}
    src = _rows(tmp_path / "in.jsonl", [*MATH[:12], *[bad] * 8])
    args = ["--abstain-share", share]
    check = main(["check", str(src), *args])
    score = main(["score", str(src), "--out", str(tmp_path / "o.jsonl"), "--progress", "off",
                  *args])
    assert check == score == expected


def test_a_share_of_bad_rows_below_the_policy_passes_both(tmp_path, capsys):
    rows = [*MATH[:12], {"domain": "math", "reference": "\\frac{3}{", "completion": "4"}]
    src = _rows(tmp_path / "in.jsonl", rows)
    assert main(["check", str(src)]) == 0
    assert main(["score", str(src), "--out", str(tmp_path / "o.jsonl"), "--progress",
                 "off"]) == 0
    # 1 of 13 rows is at least a share of 0.05: both fail
    assert main(["check", str(src), "--abstain-share", "0.05"]) == 3
    assert main(["score", str(src), "--out", str(tmp_path / "o2.jsonl"), "--progress", "off",
                 "--abstain-share", "0.05"]) == 3


def test_a_plugin_that_cannot_be_imported_fails_check_as_it_fails_score(tmp_path, capsys):
    """Disagreement 4: a domain absent from the sample is still built."""
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text("domains:\n  math: {rewards: [{use: math}]}\n"
                   "  chat: {rewards: [{use: 'no_such_plugin_module:judge'}]}\n")
    src = _rows(tmp_path / "in.jsonl", MATH[:3])
    assert main(["check", str(src), "--config", str(cfg)]) == 2
    check_err = capsys.readouterr().err
    assert main(["score", str(src), "--config", str(cfg), "--out",
                 str(tmp_path / "o.jsonl")]) == 2
    score_err = capsys.readouterr().err
    assert "no_such_plugin_module" in check_err and "no_such_plugin_module" in score_err


def test_answer_after_is_checked_as_it_is_scored():
    config = parse_config({"domains": {"math": {"rewards": [
        {"use": "math", "answer_after": "</think>"}]}}})
    rows = [{"domain": "math", "reference": "2", "completion": "<think>\\boxed{3}</think> 2"},
            {"domain": "math", "reference": "2", "completion": "<think>\\boxed{2}"},
            {"domain": "math", "reference": "\\frac{3}{", "completion": "\\boxed{2}"}]
    report = check_rows(rows, config)
    math = report.domains["math"]
    # the second has no marker: 0.0 (no_answer), not an abstention; the third has no
    # marker either, so its reference is never read and it does not abstain
    assert math.row_causes == [None, None, None]
    assert math.components[0].answers == 1


def test_a_rollout_row_without_a_completion_is_an_input_error_in_both(tmp_path):
    rows = [*MATH[:2], {"domain": "math", "reference": "72"}]
    src = _rows(tmp_path / "in.jsonl", rows)
    report = check_rows(src, load_config(BUNDLED_CONFIG))
    assert [e.line for e in report.input_errors] == [3]
    assert "missing completion" in str(report.input_errors[0])
    out = tmp_path / "o.jsonl"
    assert main(["score", str(src), "--out", str(out), "--progress", "off"]) == 0
    assert [json.loads(line)["reason"] for line in out.read_text().splitlines()][2] \
        == "input_error"
    # a file of prompts only (no completion anywhere) is checked as prompts
    prompts = _rows(tmp_path / "prompts.jsonl", [{"domain": "math", "reference": "72"}] * 2)
    assert check_rows(prompts, load_config(BUNDLED_CONFIG)).input_errors == []
