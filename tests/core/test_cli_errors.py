"""Every command but `score`/`serve` (tested with them) on input it cannot use: a corrupt file,
a folder where a file belongs, an output that cannot be written, a model that is not there,
bad arguments. Each exits 2 with one line on stderr naming the file or field, and leaves
nothing behind (an output folder is made only once its run can start)."""

from __future__ import annotations

import json
import socket
import sys
import uuid
from pathlib import Path

import pytest

from rewards_cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """main(argv) -> (exit code, stderr); argparse's own errors exit through SystemExit."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.fixture
def prompts(tmp_path: Path) -> Path:
    path = tmp_path / "prompts.jsonl"
    path.write_text(json.dumps({"id": "a", "prompt": "1+1?", "reference": "2",
                                "domain": "math"}) + "\n")
    return path


@pytest.fixture
def rollouts(tmp_path: Path) -> Path:
    path = tmp_path / "rollouts.jsonl"
    path.write_text(json.dumps({"id": "a", "completion": "\\boxed{2}"}) + "\n")
    return path


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "plain.txt"
    path.write_text("not a folder\n")
    return path


def _corrupt_parquet(tmp_path: Path) -> Path:
    path = tmp_path / "broken.parquet"
    path.write_bytes(b"PAR1" + b"\x00garbage" * 20)
    return path


# --- filter-prompts ------------------------------------------------------------------------

def test_filter_prompts_inputs(tmp_path, rollouts, capsys):
    out = tmp_path / "out"
    code, err = run(["filter-prompts", tmp_path, "--rollouts", rollouts, "--out", out], capsys)
    assert code == 2 and (f"{tmp_path}: is a directory, not a file or a dataset folder written "
                          "by datasets' save_to_disk (field 'prompts')") in one_line(err)
    broken = _corrupt_parquet(tmp_path)
    code, err = run(["filter-prompts", broken, "--rollouts", rollouts, "--out", out], capsys)
    assert code == 2 and f"{broken}: not a readable Parquet file" in one_line(err)
    code, err = run(["filter-prompts", rollouts, "--rollouts", tmp_path / "none.jsonl",
                     "--out", out, "--no-plot"], capsys)
    assert code == 2 and "none.jsonl: no such file (field 'rollouts')" in one_line(err)
    assert not out.exists()


def test_filter_prompts_rollouts_parquet_corrupt(tmp_path, prompts, capsys):
    broken = _corrupt_parquet(tmp_path)
    code, err = run(["filter-prompts", prompts, "--rollouts", broken, "--out", tmp_path / "o",
                     "--no-plot"], capsys)
    assert code == 2 and f"{broken}: not a readable Parquet file" in one_line(err)


def test_filter_prompts_unwritable_out(tmp_path, prompts, rollouts, a_file, capsys):
    base = ["filter-prompts", prompts, "--rollouts", rollouts, "--no-plot"]
    code, err = run([*base, "--out", a_file], capsys)
    assert code == 2 and f"{a_file}: exists and is not a folder (field 'out')" in one_line(err)
    code, err = run([*base, "--out", a_file / "out"], capsys)
    assert code == 2 and f"cannot be created: {a_file} is a file" in one_line(err)
    code, err = run([*base, "--out", a_file, "--restart"], capsys)
    assert code == 2 and "exists and is not a folder" in one_line(err)


@pytest.mark.parametrize("policy", ["./no/such/model", "/no/such/model", "~/no-such-model-x",
                                    "../no-such-model"])
def test_filter_prompts_missing_policy_folder(tmp_path, prompts, policy, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    code, err = run(["filter-prompts", prompts, "--policy", policy, "--out", out, "--no-plot"],
                    capsys)
    assert code == 2 and "policy: no such model folder" in one_line(err)
    assert not out.exists()


def test_filter_prompts_policy_that_is_no_model_folder(tmp_path, prompts, a_file, capsys):
    out = tmp_path / "out"
    code, err = run(["filter-prompts", prompts, "--policy", a_file, "--out", out, "--no-plot"],
                    capsys)
    assert code == 2 and "is a file; a model is a folder" in one_line(err)
    (tmp_path / "empty").mkdir()
    code, err = run(["filter-prompts", prompts, "--policy", tmp_path / "empty", "--out", out,
                     "--no-plot"], capsys)
    assert code == 2 and "is not a model folder (it has no config.json)" in one_line(err)
    assert not out.exists()


def test_a_path_whose_first_part_exists_is_a_path_not_a_hub_id(tmp_path, prompts, capsys,
                                                                monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").mkdir()
    code, err = run(["filter-prompts", prompts, "--policy", "runs/model", "--out", "o",
                     "--no-plot"], capsys)
    assert code == 2 and "no such model folder" in one_line(err)


def _unknown_hub_id() -> str:
    return f"no-such-org-{uuid.uuid4().hex[:8]}/tiny"


def test_hub_id_offline_is_refused_before_any_download(tmp_path, prompts, capsys, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    out = tmp_path / "out"
    code, err = run(["filter-prompts", prompts, "--policy", _unknown_hub_id(), "--out", out,
                     "--no-plot"], capsys)
    assert code == 2 and "not in the Hugging Face cache, and HF_HUB_OFFLINE is set" in \
        one_line(err)
    assert not out.exists()


def test_hub_id_with_the_hub_unreachable(tmp_path, prompts, capsys, monkeypatch):
    with socket.socket() as probe:  # a port nothing listens on: connections are refused
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    out = tmp_path / "out"
    code, err = run(["filter-prompts", prompts, "--policy", _unknown_hub_id(), "--out", out,
                     "--no-plot"], capsys)
    assert code == 2 and f"the hub at http://127.0.0.1:{port} cannot be reached" in \
        one_line(err)
    assert not out.exists()


# --- train -----------------------------------------------------------------------------------

def _train_config(tmp_path: Path, prompts: Path, **fields: str) -> Path:
    reward = tmp_path / "reward.yaml"
    reward.write_text("domains:\n  math:\n    rewards: [math]\n")
    document = {"model": "./no-model", "reward_config": str(reward), "prompts": str(prompts),
                "output_dir": "runs/x", **fields}
    path = tmp_path / "train.yaml"
    path.write_text("".join(f"{k}: {json.dumps(v)}\n" for k, v in document.items()))
    return path


def test_train_missing_model_leaves_no_output_folder(tmp_path, prompts, capsys):
    pytest.importorskip("torch")
    cfg = _train_config(tmp_path, prompts)
    code, err = run(["train", "grpo", "--config", cfg], capsys)
    assert code == 2 and f"model: no such model folder: {tmp_path / 'no-model'}" in one_line(err)
    assert not (tmp_path / "runs").exists()


def test_train_checks_inputs_and_output_before_the_folder(tmp_path, prompts, tiny_lm_dir,
                                                          a_file, capsys):
    pytest.importorskip("torch")
    cfg = _train_config(tmp_path, prompts, model=str(tiny_lm_dir),
                        reward_config="missing.yaml")
    code, err = run(["train", "ppo", "--config", cfg], capsys)
    assert code == 2 and "missing.yaml: no such file (field 'reward_config')" in one_line(err)
    assert not (tmp_path / "runs").exists()
    cfg = _train_config(tmp_path, prompts, model=str(tiny_lm_dir),
                        output_dir=str(a_file / "run"))
    code, err = run(["train", "grpo", "--config", cfg], capsys)
    assert code == 2 and f"cannot be created: {a_file} is a file" in one_line(err)


def test_train_config_yaml_is_bounded_and_overrides_parsed(tmp_path, prompts, capsys):
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [{', '.join([f'*{p}'] * 10)}]\n" for p, c in zip("abcdefgh", "bcdefghi")))
    code, err = run(["train", "grpo", "--config", bomb], capsys)
    assert code == 2 and f"{bomb}: YAML expands to more than" in one_line(err)
    cfg = _train_config(tmp_path, prompts)
    code, err = run(["train", "grpo", "--config", cfg, "--set", "steps=[1,"], capsys)
    assert code == 2 and "override steps: not valid YAML" in err


# --- train-rm --------------------------------------------------------------------------------

def test_train_rm_errors(tmp_path, a_file, tiny_lm_dir, capsys):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps({"prompt": "q", "chosen": "a", "rejected": "b"}) + "\n")
    out = tmp_path / "rm"
    code, err = run(["train-rm", "--pairs", pairs, "--base", "./missing-base", "--out", out],
                    capsys)
    assert code == 2 and "--base: no such model folder" in one_line(err)
    code, err = run(["train-rm", "--pairs", tmp_path, "--base", tiny_lm_dir, "--out", out],
                    capsys)
    assert code == 2 and "is a directory, not a file (field '--pairs')" in one_line(err)
    broken = _corrupt_parquet(tmp_path)
    code, err = run(["train-rm", "--pairs", broken, "--base", tiny_lm_dir, "--out", out],
                    capsys)
    assert code == 2 and "not a readable Parquet file" in one_line(err)
    code, err = run(["train-rm", "--pairs", pairs, "--base", tiny_lm_dir, "--out", a_file],
                    capsys)
    assert code == 2 and "exists and is not a folder (field '--out')" in one_line(err)
    assert not out.exists()


# --- label -----------------------------------------------------------------------------------

def test_label_errors(tmp_path, tiny_lm_dir, capsys):
    candidates = tmp_path / "cands.jsonl"
    candidates.write_text(json.dumps({"prompt": "q", "candidates": ["a", "b"]}) + "\n")
    base = ["label", "--candidates", candidates, "--judge", tiny_lm_dir]
    code, err = run([*base, "--out", tmp_path], capsys)
    assert code == 2 and "is a folder; give a file name (field '--out')" in one_line(err)
    out = tmp_path / "prefs.jsonl"
    code, err = run(["label", "--candidates", candidates, "--judge", "./no-judge", "--out", out],
                    capsys)
    assert code == 2 and "--judge: no such model folder" in one_line(err)
    code, err = run(["label", "--candidates", tmp_path, "--judge", tiny_lm_dir, "--out", out],
                    capsys)
    assert code == 2 and "(field '--candidates')" in one_line(err)
    code, err = run([*base, "--out", out, "--template", tmp_path / "none.txt"], capsys)
    assert code == 2 and "none.txt: no such file (field '--template')" in one_line(err)
    assert not out.exists()


# --- sandbox run -----------------------------------------------------------------------------

@pytest.mark.parametrize(("args", "message"), [
    (["--wall", "0"], "argument --wall: must be a positive float, not '0'"),
    (["--wall", "nan"], "argument --wall: must be a positive float, not 'nan'"),
    (["--memory-mb", "-5"], "argument --memory-mb: must be a positive int, not '-5'"),
    (["--language", "cobol"], "argument --language: invalid choice: 'cobol'"),
])
def test_sandbox_run_bad_arguments(tmp_path, args, message, capsys):
    program = tmp_path / "p.py"
    program.write_text("print('hi')\n")
    code, err = run(["sandbox", "run", program, *args], capsys)
    assert code == 2 and message in err.strip().splitlines()[-1]


@pytest.mark.parametrize(("tests", "message"), [
    ("5", "tests must be a non-empty list"),
    ("[]", "tests must be a non-empty list"),
    ('{"check": 5}', "a tests object needs 'check' code as a string"),
    ('[{"input": "1"}]', "io test 0 needs 'input' and 'output'"),
    ("[1, 2]", "tests must be assert strings"),
    ("{oops", "not valid JSON"),
])
def test_sandbox_run_bad_tests_file(tmp_path, tests, message, capsys):
    program = tmp_path / "p.py"
    program.write_text("print('hi')\n")
    path = tmp_path / "tests.json"
    path.write_text(tests)
    code, err = run(["sandbox", "run", program, "--tests", path], capsys)
    assert code == 2 and f"{path}: {message}" in one_line(err)


def test_sandbox_run_bad_files(tmp_path, capsys):
    program = tmp_path / "p.py"
    program.write_text("print('hi')\n")
    code, err = run(["sandbox", "run", tmp_path], capsys)
    assert code == 2 and "is a directory, not a file (field 'FILE')" in one_line(err)
    code, err = run(["sandbox", "run", program, "--stdin", tmp_path / "in.txt"], capsys)
    assert code == 2 and "in.txt: no such file (field '--stdin')" in one_line(err)
    binary = tmp_path / "b.py"
    binary.write_bytes(b"\xff\xfe\x00\x01")
    code, err = run(["sandbox", "run", binary], capsys)
    assert code == 2 and "not UTF-8 text" in one_line(err)


# --- any command ------------------------------------------------------------------------------

def test_an_os_error_mid_run_is_one_line_naming_the_file(tmp_path, capsys, monkeypatch):
    import rewards_cli.sandbox as command

    def fail(args: object) -> int:
        raise PermissionError(13, "Permission denied", str(tmp_path / "x.jsonl"))

    monkeypatch.setattr(command, "run", fail)
    code, err = run(["sandbox", "run", "p.py"], capsys)
    assert code == 2 and one_line(err) == \
        f"rewards sandbox: error: {tmp_path / 'x.jsonl'}: Permission denied"


def test_the_entry_point_itself(tmp_path):
    import subprocess

    result = subprocess.run([sys.executable, "-m", "rewards", "sandbox", "run", str(tmp_path)],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "is a directory, not a file" in one_line(result.stderr)
