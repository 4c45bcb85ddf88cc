"""`rewards check`: a dry run of a reward config over the first rows of a dataset."""

import json

import pytest

import rewards.check
from rewards import parse_config
from rewards.check import SampleCheck, check_component, check_rows
from rewards.types import Sample
from rewards_cli import main

CONFIG = """
domains:
  math: {rewards: [{use: math}]}
  code: {rewards: [{use: rtv}]}
"""

GOOD = [
    {"id": "m1", "domain": "math", "reference": "72", "completion": "48 + 24 = 72.\n#### 72"},
    {"id": "m2", "domain": "math", "reference": "\\frac{1}{2}",
     "completion": "So the answer is $\\boxed{\\frac{1}{2}}$."},
    {"id": "m3", "domain": "math", "reference": "", "completion": "#### 3"},
    {"id": "c1", "domain": "code", "reference": {"test_list": ["assert add(1, 2) == 3",
                                                               "assert add(0, 0) == 0"]},
     "completion": "```python\ndef add(a, b):\n    return a + b\n```"},
]


def _jsonl(path, rows):
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def _check(tmp_path, rows, *args, config=CONFIG):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(config)
    src = rows if not isinstance(rows, list) else _jsonl(tmp_path / "in.jsonl", rows)
    return main(["check", str(src), "--config", str(cfg), *args])


def test_good_data_passes_with_routing_reference_counts_and_answers(tmp_path, capsys):
    rows = [*GOOD, "{not json", {"domain": "math", "reference": 5, "completion": 3}]
    assert _check(tmp_path, rows) == 0
    out = capsys.readouterr().out
    assert "checked the first 6 of 6 rows" in out
    assert "columns: id, domain, reference, completion" in out
    assert "math                               3  math" in out
    assert "code                               1  code" in out
    assert "references usable 2 of 3 (bad_reference:missing x1; first line 3" in out
    assert "answers found 3 of 3" in out
    assert "would abstain: 1 (bad_reference:missing x1)" in out
    assert "line 1: reference 72  ->  answer 72" in out
    assert "line 2: reference \\frac{1}{2}  ->  answer \\frac{1}{2}" in out
    assert "code: 1 row, 1 with a completion" in out  # hidden_share 0.5: 1 public, 1 hidden
    assert "line 4: reference 1 public + 1 hidden asserts tests (python)  ->  answer def " \
           "add(a, b): (2 lines)" in out
    assert "input errors: 2 of 6 rows" in out and "in.jsonl:5: not valid JSON" in out
    assert "completion must be a string" not in out  # a chat completion is fine; 3 is not:
    assert "a completion is text or chat messages, not int (field 'completion')" in out
    assert out.rstrip().endswith("ok: every domain in the sample would be scored")


def test_a_domain_that_would_score_nothing_exits_3_and_says_why(tmp_path, capsys):
    rows = [{"domain": "code", "reference": "print(1)", "completion": "x"},
            {"domain": "code", "reference": {"tests": []}, "completion": "x"},
            {"domain": "openai/gsm8k", "reference": "1", "completion": "1"},
            *GOOD[:2]]
    assert _check(tmp_path, rows) == 3
    captured = capsys.readouterr()
    assert "FAIL: domain 'code': 2 of 2 rows were not scored for a configuration cause: " \
           "bad_reference:unparseable x2" in captured.out
    assert "first: line 1: a string reference must be JSON or assert statements" in captured.err
    assert "(and 1 more: the FAIL lines of the report)" in captured.err
    assert "FAIL: domain 'openai/gsm8k': 1 of 1 rows were not scored for " \
           "a configuration cause: unknown_domain x1" in captured.out
    assert "(try --domain-map openai/gsm8k=DOMAIN, DOMAIN one of code, math)" in captured.out
    assert "nothing (unknown_domain 'openai/gsm8k')" in captured.out
    assert "domain 'math'" not in captured.err  # math scores
    # the same file, its dataset domain mapped onto the config's: only code fails now
    assert _check(tmp_path, rows, "--domain-map", "openai/gsm8k=math") == 3
    captured = capsys.readouterr()
    assert "(--domain-map openai/gsm8k=math)" in captured.out
    assert "gsm8k" not in captured.err and "domain 'code'" in captured.err


def test_a_missing_reference_column_is_named_with_the_hint(tmp_path, capsys):
    rows = [{"domain": "math", "gold": "1", "completion": "1"}] * 3
    assert _check(tmp_path, rows) == 3
    err = capsys.readouterr().err
    assert "bad_reference:missing x3 (samples without a reference: none of the gold columns " \
           "read by default (reference, solution, answer, ground_truth, label) holds one; " \
           "name the dataset's (e.g. --map gold=reference))" in err
    assert _check(tmp_path, rows, "--map", "gold=reference") == 0


@pytest.mark.parametrize("column", ["solution", "answer", "ground_truth", "reference", "label"])
def test_each_gold_column_the_adapters_read_is_read_without_a_map(tmp_path, column):
    """One rule for the gold column (`rewards.io.REFERENCE_COLUMNS`): what TRL, veRL,
    OpenRLHF and the loops read without being told, `rewards check` reads too."""
    rows = [{"domain": "math", column: "1", "completion": "1"}] * 2
    assert _check(tmp_path, rows) == 0
    rows = [{"domain": "math", column: "2", "completion": "1"}] * 2
    assert _check(tmp_path, rows) == 0  # read (a wrong answer is scored, not missing)


def test_rows_that_are_all_invalid_input_fail(tmp_path, capsys):
    assert _check(tmp_path, ["{", "[1]"]) == 3
    err = capsys.readouterr().err
    assert "2 of 2 rows were not scored for a configuration cause: input_error x2" in err
    assert "(first: " in err and "in.jsonl:1: not valid JSON" in err


def test_a_large_file_is_read_only_as_far_as_the_sample(tmp_path, capsys, monkeypatch):
    good = {"domain": "math", "reference": "2", "completion": "1 + 1 = 2"}
    src = tmp_path / "big.jsonl"
    # 100 good rows, then 4,900 rows that would each be an input error if they were read
    src.write_text(json.dumps(good) + "\n" * 1 + (json.dumps(good) + "\n") * 99
                   + "{broken\n" * 4900)
    read = []
    real = rewards.check.iter_rows

    def counting(source):
        for item in real(source):
            read.append(item)
            yield item

    monkeypatch.setattr(rewards.check, "iter_rows", counting)
    assert _check(tmp_path, src, "--rows", "100") == 0
    out = capsys.readouterr().out
    assert len(read) == 100
    assert "checked the first 100 of 5,000 rows" in out and "input errors" not in out


def test_the_size_of_a_text_input_too_large_to_count_is_estimated(tmp_path, capsys,
                                                                  monkeypatch):
    row = {"domain": "math", "reference": "2", "completion": "1 + 1 = 2"}
    src = _jsonl(tmp_path / "big.jsonl", [row] * 3000)
    monkeypatch.setattr(rewards.check, "_COUNT_LIMIT", 0)
    assert _check(tmp_path, src, "--rows", "10") == 0
    assert "checked the first 10 of ~3,000 rows" in capsys.readouterr().out


def test_prompt_rows_without_completions_check_the_references(tmp_path, capsys):
    rows = [{"prompt": "1 + 1?", "reference": "2", "domain": "math"}] * 2
    assert _check(tmp_path, rows) == 0
    out = capsys.readouterr().out
    assert "math: 2 rows, 0 with a completion" in out and "answers found" not in out
    assert "line 1: reference 2  ->  answer -" in out


def test_set_overrides_the_config_of_a_check(tmp_path, capsys):
    rows = [{"domain": "other", "reference": "2", "completion": "2"}]
    assert _check(tmp_path, rows) == 3
    capsys.readouterr()
    assert _check(tmp_path, rows, "--set", "domains.other={rewards: [{use: math}]}") == 0
    assert "other                              1  other" in capsys.readouterr().out
    assert _check(tmp_path, rows, "--set", "domains.mth.alpha=0.5") == 2
    assert "--set domains.mth.alpha: domains has no key 'mth' (keys: code, math)" in \
           capsys.readouterr().err


class Judged:
    """A custom reward providing the optional `check` protocol."""

    name = "judged"

    def score(self, samples):  # pragma: no cover - check never scores
        raise AssertionError("rewards check must not score")

    def check(self, samples):
        return [SampleCheck(s.reference, s.completion[:3],
                            None if s.reference else "bad_reference", "no rubric")
                for s in samples]


def test_components_tell_what_they_can_through_the_check_protocol():
    samples = [Sample("p", "abcdef", reference="rubric"), Sample("p", "xyz")]
    checks = check_component(Judged(), samples)
    assert [(c.answer, c.abstain) for c in checks] == [("abc", None), ("xyz", "bad_reference")]

    class Opaque:
        name = "opaque"

        def score(self, samples):  # pragma: no cover
            raise AssertionError

    assert check_component(Opaque(), samples) is None


def test_check_rows_on_a_dataset_object_with_an_unchecked_component():
    datasets = pytest.importorskip("datasets")
    ds = datasets.Dataset.from_list([{"completion": "1", "reference": "1"}] * 5)
    config = parse_config({"domains": {"default": {"rewards": [
        {"use": "rewards_for_tests:exact", "name": "exact"}]}}})
    report = check_rows(ds, config, rows=2)
    assert (report.read, report.total, report.failures) == (2, 5, [])
    assert "exact (rewards_for_tests:exact, weight 1): not checked" in report.render()


def test_a_domain_whose_only_component_has_weight_0_fails_the_check(tmp_path, capsys):
    """It said ok and exited 0: a weight-0 component is logged only, so the domain scores
    nothing, and `rewards score` exits 3 on it."""
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text("domains:\n  default: {rewards: [{use: math, weight: 0}]}\n")
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"completion": "\\boxed{1}", "reference": "1"}) + "\n")
    assert main(["check", str(src), "--config", str(cfg)]) == 3
    captured = capsys.readouterr()
    assert "FAIL" in captured.out and "no_value x1" in captured.out
    assert "weight > 0" in captured.err


NOTE = ("no 'completion' field in any row (file {src}, line 1); found 'response': add --map "
        "response=completion")


def test_a_renamed_completion_column_fails_check_as_it_fails_score(tmp_path, capsys):
    """check said ok and exited 0 (it read the rows as prompts) where score exited 3 with
    every row bad input; both now name the field and the --map that fixes it."""
    src = tmp_path / "rows.jsonl"
    src.write_text("".join(json.dumps({"prompt": "q", "response": f"\\boxed{{{i}}}",
                                       "reference": "1", "domain": "math"}) + "\n"
                           for i in (1, 2)))
    note = NOTE.format(src=src)
    assert main(["check", str(src)]) == 3
    captured = capsys.readouterr()
    assert note in captured.out and note in captured.err
    out = tmp_path / "o.jsonl"
    assert main(["score", str(src), "--out", str(out), "--progress", "off"]) == 3
    captured = capsys.readouterr()
    assert note in captured.out and note in captured.err
    assert main(["check", str(src), "--map", "response=completion"]) == 0
    assert main(["score", str(src), "--out", str(out), "--map", "response=completion",
                 "--progress", "off"]) == 0


def test_a_mapped_completion_column_in_no_row_is_named(tmp_path, capsys):
    src = tmp_path / "rows.jsonl"
    src.write_text(json.dumps({"prompt": "q", "text": "1", "reference": "1"}) + "\n")
    assert main(["check", str(src), "--map", "answer=completion"]) == 3
    err = capsys.readouterr().err
    assert f"no 'answer' field in any row (file {src}, line 1)" in err
    assert "add --map COLUMN=completion" in err


def test_prompt_rows_without_a_completion_column_still_check(tmp_path, capsys):
    src = tmp_path / "prompts.jsonl"
    src.write_text(json.dumps({"prompt": "q", "reference": "1", "domain": "math"}) + "\n")
    assert main(["check", str(src)]) == 0


IFEVAL = {"instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]}


def _nested(reference, depth):
    for _ in range(depth):
        reference = [reference]
    return reference


def test_a_deeply_nested_instruction_reference_is_its_rows_error_not_a_crash():
    """check raised RecursionError out of the run where score makes the row an error row."""
    config = parse_config({"domains": {"if": {"rewards": [{"use": "ifeval"}]}}})
    deep = {"prompt": "q", "completion": "hello", "reference": _nested(IFEVAL, 3000),
            "domain": "if"}
    good = {"prompt": "q", "completion": "hello", "reference": IFEVAL, "domain": "if"}
    report = check_rows([deep, good], config)
    domain = report.domains["if"]
    assert domain.abstain == {"error": 1} and report.failures == []
    assert "RecursionError" in domain.components[0].first_problem
    assert domain.examples[0][2] == "follows 1 of 1"
    report = check_rows([deep], config)  # every row of the domain: the run rule's failure
    assert report.failures and "error x1" in report.failures[0]


def test_check_applies_ifeval_max_chars_as_scoring_does(tmp_path, capsys):
    """check said 'follows 0 of 1' past max_chars, where scoring gives too_long 0.0."""
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text("domains:\n  if: {rewards: [{use: ifeval, max_chars: 100}]}\n")
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"prompt": "q", "completion": "no commas here " * 20,
                               "reference": IFEVAL, "domain": "if"}) + "\n")
    assert main(["check", str(src), "--config", str(cfg)]) == 0
    assert "too long: scores 0.0 (over max_chars 100)" in capsys.readouterr().out


def test_check_never_loads_the_math_judge(tmp_path, capsys, monkeypatch):
    """A math judge is asked where the rules say wrong: check ran it, loading its model."""
    import rewards.engines

    def load(*args, **kwargs):
        raise AssertionError("rewards check loaded a judge model")

    monkeypatch.setattr(rewards.engines, "shared_engine", load)
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text("domains:\n  math: {rewards: [{use: math, judge: {model: some/judge}}]}\n")
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps({"prompt": "q", "completion": f"\\boxed{{{a}}}",
                                       "reference": "2", "domain": "math"}) + "\n"
                           for a in (2, 3)))
    assert main(["check", str(src), "--config", str(cfg)]) == 0
    out = capsys.readouterr().out
    assert "answers found 2 of 2" in out and "ok: every domain" in out


def test_a_row_with_no_domain_is_checked_as_the_one_domain_scores_it(tmp_path, capsys):
    """One routing rule (`rewards.mixing.route_domain`): under a one-domain config a row that
    names no domain is that domain's, in `rewards check` as in `rewards score` (check said
    unknown_domain and failed the run that score scored)."""
    rows = [{"reference": "2", "completion": "\\boxed{2}"}]
    config = "domains:\n  math: {rewards: [{use: math}]}\n"
    assert _check(tmp_path, rows, config=config) == 0
    out = capsys.readouterr().out
    assert "would abstain: 0" in out and "unknown_domain" not in out
    assert main(["score", str(tmp_path / "in.jsonl"), "--config", str(tmp_path / "cfg.yaml"),
                 "--out", str(tmp_path / "out.jsonl")]) == 0
    assert json.loads((tmp_path / "out.jsonl").read_text())["score"] == 1.0
