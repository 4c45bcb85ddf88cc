"""Experiment tracking (`report_to`) on the toy task, read back through each tool's own
reader: TensorBoard event files, a W&B offline run, an MLflow store, a trackio database; the
completions table; the reward curve written as training goes; the config's checks."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="the RL loops need torch: pip install -e '.[train]'")

from rewards.deps import MissingDependency
from rewards.errors import ConfigError
from rl import load_train_config
from rl._tracking import require_trackers, tracker_names
from rl.grpo import GRPOConfig, train
from rl.ppo import PPOConfig
from rl.ppo import train as train_ppo


def config(toy, out, **changes) -> GRPOConfig:
    base = GRPOConfig(model=str(toy.model), reward_config=str(toy.reward_config),
                      prompts=str(toy.prompts), output_dir=str(out), steps=2, prompts_per_step=4,
                      num_generations=4, max_completion_tokens=4, learning_rate=1e-3,
                      progress=False)
    return replace(base, **changes)


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def saved_trackers(out: Path) -> dict:
    (checkpoint,) = sorted((out / "checkpoints").glob("step-*"))
    return torch.load(checkpoint / "state.pt", weights_only=False)["trackers"]


# --- the config ---------------------------------------------------------------------------

DOC = {"model": "m", "reward_config": "r", "prompts": "p"}


@pytest.mark.parametrize(("report_to", "expected"), [
    ("wandb", ("wandb",)),                                    # one name, TRL's string form
    (["tensorboard", "mlflow", "tensorboard"], ("tensorboard", "mlflow")),
    ("none", ()),
    (["none"], ()),
    ([], ()),
    ("all", ("all",)),                                        # resolved when the run starts
])
def test_report_to_forms(report_to, expected):
    assert load_train_config(GRPOConfig, {**DOC, "report_to": report_to}).report_to == expected
    assert GRPOConfig("m", "r", "p", report_to=report_to).report_to == expected


@pytest.mark.parametrize(("changes", "message"), [
    ({"report_to": ["tensorbord"]},
     ("report_to\\[0\\]: must be one of 'tensorboard', 'wandb', 'mlflow', 'trackio', 'all', "
      "'none', not 'tensorbord' \\(did you mean 'tensorboard'\\?\\)")),
    ({"report_to": "comet"}, "must be one of 'tensorboard', 'wandb', 'mlflow', 'trackio'"),
    ({"report_to": ["none", "wandb"]}, "report_to: 'none' cannot be combined"),
    ({"log_completions_every": -1}, "log_completions_every: must be >= 0"),
    ({"log_completions_rows": 0}, "log_completions_rows: must be >= 1"),
    ({"plot_every": -2}, "plot_every: must be >= 0"),
])
def test_tracking_options_errors(changes, message):
    with pytest.raises(ConfigError, match=message):
        load_train_config(GRPOConfig, {**DOC, **changes})


def test_a_tracker_that_is_not_installed_fails_before_the_run(toy_task, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "mlflow", None)  # import mlflow now fails: not installed
    assert "mlflow" not in tracker_names(["all"])     # "all": the installed ones only
    with pytest.raises(MissingDependency, match=r"report_to: mlflow needs 'mlflow': "
                                                r"pip install (-e )?'[^']*\[mlflow\]'"):
        require_trackers(["tensorboard", "mlflow"])
    with pytest.raises(MissingDependency, match=r"'[^']*\[mlflow\]'"):
        train(config(toy_task, tmp_path / "run", report_to=("mlflow",)))
    assert not (tmp_path / "run").exists()  # nothing written: the check comes first


# --- TensorBoard ----------------------------------------------------------------------------


def test_tensorboard_events_completions_plot_and_resume(toy_task, tmp_path):
    pytest.importorskip("tensorboard", reason="pip install -e '.[tensorboard]'")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    out = tmp_path / "run"
    plots: list[bool] = []

    def saw_plot(row):  # the PNG is there after step 1, before the run ends
        plots.append((out / "reward_curve.png").exists())

    cfg = config(toy_task, out, steps=3, report_to=("tensorboard",), plot_every=1,
                 log_completions_every=2, log_completions_rows=5, save_every=2,
                 keep_checkpoints=2)
    train(cfg, on_step=saw_plot)
    assert plots == [True, True, True]
    assert (out / "reward_curve.png").read_bytes()[:4] == b"\x89PNG"
    rows = jsonl(out / "metrics.jsonl")

    def events() -> EventAccumulator:
        acc = EventAccumulator(str(out / "tensorboard"), size_guidance={"scalars": 0, "tensors": 0})
        acc.Reload()
        return acc

    acc = events()
    for key in ("reward/mean", "reward/std", "loss/policy", "perf/step_seconds",
                "completion/mean_length"):
        scalars = acc.Scalars(key)
        assert [e.step for e in scalars] == [1, 2, 3], key
        assert [e.value for e in scalars] == pytest.approx([r[key] for r in rows], rel=1e-6)
    # the completions table: completions.jsonl and a TensorBoard text summary at step 2
    table = jsonl(out / "completions.jsonl")
    assert len(table) == 5 and {r["step"] for r in table} == {2}
    assert {"prompt", "completion", "reward", "reason", "advantage"} <= set(table[0])
    assert all(r["prompt"].startswith("What is the sum of") for r in table)
    (text,) = acc.Tensors("completions/text_summary")
    markdown = text.tensor_proto.string_val[0].decode()
    assert text.step == 2 and markdown.startswith("| step | prompt | completion | reward |")
    assert table[0]["prompt"] in markdown

    # a crash after step 3 was logged but before its checkpoint: resume from step 2 relogs
    # step 3, and the writer's purge_step drops the first step-3 events
    shutil.rmtree(out / "checkpoints" / "step-000003")
    train(replace(cfg, resume=True))
    rows = jsonl(out / "metrics.jsonl")
    assert [r["step"] for r in rows] == [1, 2, 3]
    scalars = events().Scalars("reward/mean")
    assert [e.step for e in scalars] == [1, 2, 3]
    assert [e.value for e in scalars] == pytest.approx([r["reward/mean"] for r in rows], rel=1e-6)


def test_ppo_logs_the_completions_table(toy_task, tmp_path):
    cfg = PPOConfig(model=str(toy_task.model), reward_config=str(toy_task.reward_config),
                    prompts=str(toy_task.prompts), output_dir=str(tmp_path), steps=2,
                    prompts_per_step=3, max_completion_tokens=4, ppo_epochs=1, progress=False,
                    log_completions_every=1, log_completions_rows=2, plot_every=0)
    train_ppo(cfg)
    table = jsonl(tmp_path / "completions.jsonl")
    assert [r["step"] for r in table] == [1, 1, 2, 2]
    assert set(table[0]) == {"step", "prompt", "completion", "reward", "reason"}  # no gold here
    assert table[0]["reward"] in (0.0, 1.0)


# --- Weights & Biases -----------------------------------------------------------------------


def _wandb_records(run_dir: Path, *flags: str) -> list[dict]:
    """A W&B run's records through wandb's own reader of the .wandb log (`wandb leet
    inspect --json`)."""
    done = subprocess.run([sys.executable, "-m", "wandb", "leet", "inspect", "--json", *flags,
                           str(run_dir)], capture_output=True, text=True, timeout=120,
                          check=False)
    if done.returncode != 0 and "No such command" in done.stderr:
        pytest.skip(f"this wandb has no `wandb leet inspect` to read an offline run: {done.stderr}")
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()] \
        if not flags else [json.loads(done.stdout)]


def test_wandb_offline_run_reads_back(toy_task, tmp_path, monkeypatch):
    pytest.importorskip("wandb", reason="pip install -e '.[wandb]'")
    monkeypatch.setenv("WANDB_MODE", "offline")
    monkeypatch.setenv("WANDB_DIR", str(tmp_path / "wandb-files"))
    monkeypatch.setenv("WANDB_SILENT", "true")
    monkeypatch.delenv("WANDB_PROJECT", raising=False)
    out = tmp_path / "run"
    cfg = config(toy_task, out, report_to="wandb", run_name="toy-grpo",
                 log_completions_every=2, log_completions_rows=3)
    train(cfg)
    rows = jsonl(out / "metrics.jsonl")
    run_id = saved_trackers(out)["wandb_run_id"]
    (run_dir,) = (tmp_path / "wandb-files" / "wandb").glob(f"offline-run-*-{run_id}")

    records = _wandb_records(run_dir)
    (run,) = [r["run"] for r in records if r["type"] == "run"]
    assert (run["display_name"], run["project"]) == ("toy-grpo", "rewards-engine")
    assert run["config"]["update"]["learning_rate"] == 1e-3
    history = [r["history"]["item"] for r in records if r["type"] == "history"]
    assert [h["_step"] for h in history] == [1, 2]
    for key in ("reward/mean", "loss/policy", "perf/tokens_per_second", "completion/truncated"):
        assert [h[key] for h in history] == pytest.approx([r[key] for r in rows]), key
    (summary,) = _wandb_records(run_dir, "--summary")
    assert summary["state"] == "finished" and summary["step"] == 2
    assert summary["summary"]["reward/mean"] == pytest.approx(rows[-1]["reward/mean"])
    # the completions table: a wandb.Table logged at step 2, its file in the run directory
    table_file = summary["summary"]["completions"]
    assert table_file["_type"] == "table-file" and table_file["nrows"] == 3
    table = json.loads((run_dir / "files" / table_file["path"]).read_text())
    assert table["columns"][:5] == ["step", "prompt", "completion", "reward", "reason"]
    assert [r[:4] for r in table["data"]] == [[r["step"], r["prompt"], r["completion"], r["reward"]]
                                              for r in jsonl(out / "completions.jsonl")]

    # resume continues the same run id (offline: a second run folder with that id)
    train(replace(cfg, steps=3, resume=True))
    assert saved_trackers(out)["wandb_run_id"] == run_id
    resumed = [d for d in (tmp_path / "wandb-files" / "wandb").glob(f"offline-run-*-{run_id}")
               if d != run_dir]
    assert len(resumed) == 1
    history = [r["history"]["item"] for r in _wandb_records(resumed[0]) if r["type"] == "history"]
    assert [h["_step"] for h in history] == [3]


# --- MLflow -----------------------------------------------------------------------------------


def test_mlflow_local_store_reads_back(toy_task, tmp_path, monkeypatch):
    pytest.importorskip("mlflow", reason="pip install -e '.[mlflow]'")
    from mlflow.tracking import MlflowClient

    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    monkeypatch.delenv("MLFLOW_EXPERIMENT_NAME", raising=False)
    out = tmp_path / "run"
    cfg = config(toy_task, out, report_to=["mlflow"], project="toy", log_completions_every=2,
                 log_completions_rows=4)
    train(cfg)
    rows = jsonl(out / "metrics.jsonl")
    run_id = saved_trackers(out)["mlflow_run_id"]
    client = MlflowClient(tracking_uri=f"sqlite:///{out / 'mlflow.db'}")
    run = client.get_run(run_id)
    assert (run.info.status, run.info.run_name) == ("FINISHED", "run")
    assert client.get_experiment(run.info.experiment_id).name == "toy"
    assert run.data.params["learning_rate"] == "0.001"
    for key in ("reward/mean", "loss/policy", "perf/step_seconds", "completion/mean_length"):
        history = client.get_metric_history(run_id, key)
        assert [(m.step, m.value) for m in history] == \
            [(r["step"], pytest.approx(r[key])) for r in rows], key
    # the completions table: an artifact of the run, kept under output_dir/mlruns
    local = client.download_artifacts(run_id, "completions/step_000002.json", str(tmp_path))
    table = json.loads(Path(local).read_text())
    assert table["columns"][:4] == ["step", "prompt", "completion", "reward"]
    assert len(table["data"]) == 4
    assert list((out / "mlruns").rglob("step_000002.json"))

    train(replace(cfg, steps=3, resume=True))  # resume: the same run, one step more
    assert saved_trackers(out)["mlflow_run_id"] == run_id
    assert [m.step for m in client.get_metric_history(run_id, "reward/mean")] == [1, 2, 3]
    assert client.get_run(run_id).info.status == "FINISHED"


# --- trackio ----------------------------------------------------------------------------------


def test_trackio_local_database_reads_back(toy_task, tmp_path):
    pytest.importorskip("trackio", reason="pip install -e '.[trackio]'")
    # trackio fixes its folder (TRACKIO_DIR) when it is imported: the run and the read-back
    # go in a child process that imports it with TRACKIO_DIR in tmp_path
    out = tmp_path / "run"
    cfg = {"model": str(toy_task.model), "reward_config": str(toy_task.reward_config),
           "prompts": str(toy_task.prompts), "output_dir": str(out), "steps": 2,
           "prompts_per_step": 4, "num_generations": 4, "max_completion_tokens": 4,
           "progress": False, "report_to": "trackio", "project": "toy",
           "log_completions_every": 1, "log_completions_rows": 2}
    script = textwrap.dedent(f"""
        import json, torch
        torch.set_num_threads(2)
        from rl import load_train_config
        from rl.grpo import GRPOConfig, train
        train(load_train_config(GRPOConfig, json.loads({json.dumps(json.dumps(cfg))})))
        from trackio.sqlite_storage import SQLiteStorage
        print("LOGS=" + json.dumps(SQLiteStorage.get_logs("toy", "run")))
    """)
    env = {**os.environ, "TRACKIO_DIR": str(tmp_path / "trackio")}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=300, cwd=Path(__file__).resolve().parents[2],
                          check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    (line,) = [x for x in done.stdout.splitlines() if x.startswith("LOGS=")]
    logs = json.loads(line[len("LOGS="):])
    rows = jsonl(out / "metrics.jsonl")
    scalars = [entry for entry in logs if "reward/mean" in entry]
    assert [e["step"] for e in scalars] == [1, 2]
    assert [e["reward/mean"] for e in scalars] == pytest.approx([r["reward/mean"] for r in rows])
    tables = [entry for entry in logs if "completions" in entry]
    assert [e["step"] for e in tables] == [1, 2]
    first = tables[0]["completions"]["_value"]
    assert [r["prompt"] for r in first] == [r["prompt"] for r in jsonl(out / "completions.jsonl")][:2]
    assert {"completion", "reward", "reason", "advantage"} <= set(first[0])
    assert (tmp_path / "trackio" / "toy.db").exists()
