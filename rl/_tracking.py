"""Experiment trackers for the training loops (`report_to`, TRL's convention): TensorBoard,
Weights & Biases, MLflow and trackio, each behind one small `Tracker` protocol, imported only
when a run names it. They get exactly the metrics rows of metrics.jsonl (`reward/...`,
`loss/...`, `perf/...`, `completion/...`) and the completions tables of completions.jsonl;
`MetricsLog` (rl/_metrics.py) fans both out. What resume needs (a W&B or MLflow run id) is
returned by `Tracker.state` and saved in the checkpoint. See docs/tracking.md."""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from rewards.deps import require, require_installed
from rewards.errors import ConfigError

__all__ = ["DEFAULT_PROJECT", "RESCORE_FIELDS", "TRACKERS", "RunInfo", "Tracker", "completion_rows",
           "open_trackers", "plain_config", "require_trackers", "tracker_names"]

TRACKERS = ("tensorboard", "wandb", "mlflow", "trackio")
"""The experiment trackers `report_to` can name (besides "all" and "none")."""
DEFAULT_PROJECT = "rewards-engine"
"""W&B project, MLflow experiment and trackio project when neither the config nor the
tool's own environment variable names one."""


class Tracker(Protocol):
    """One experiment tracker. `log` and `log_table` get what metrics.jsonl and
    completions.jsonl get; `state` is what a resumed run needs to continue the same run."""

    name: str

    def log(self, step: int, metrics: Mapping[str, float]) -> None: ...

    def log_table(self, step: int, rows: Sequence[Mapping[str, Any]]) -> None: ...

    def state(self) -> dict[str, Any]: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class RunInfo:
    """What a tracker needs to open: where the run writes, its names, its config (the
    hyperparameters, as plain values), and, on resume, the step and the saved state."""

    output_dir: Path
    run_name: str
    project: str | None = None
    config: Mapping[str, Any] = field(default_factory=dict)
    resume_step: int = 0
    """The checkpoint's step; 0: a fresh run."""
    saved: Mapping[str, Any] = field(default_factory=dict)
    """The trackers' `state()` saved in that checkpoint."""


def tracker_names(report_to: Sequence[str]) -> tuple[str, ...]:
    """The trackers a `report_to` names: "all" is every tracker whose package is installed
    (as transformers reads it), "none" is none."""
    names: list[str] = []
    for name in report_to:
        if name == "all":
            names += [n for n in TRACKERS if importlib.util.find_spec(_MODULES[n]) is not None]
        elif name in TRACKERS:
            names.append(name)
        elif name != "none":
            raise ConfigError(f"report_to: unknown tracker {name!r}; the trackers are "
                              f"{', '.join(TRACKERS)} (or all, none)")
    return tuple(dict.fromkeys(names))


def require_trackers(report_to: Sequence[str]) -> None:
    """Fail before a run starts when a tracker it names is not installed."""
    for name in tracker_names(report_to):
        require_installed(_MODULES[name], extra=name, feature=f"report_to: {name}")


def open_trackers(cfg: Any, output_dir: Path, *, resume_step: int = 0,
                  saved: Mapping[str, Any] | None = None) -> list[Tracker]:
    """Open every tracker `cfg.report_to` names for the run of `cfg` (a `LoopConfig`) in
    `output_dir`, continuing the runs in `saved` (a checkpoint's tracker state) when
    `resume_step` > 0. One that cannot start is a `ConfigError` that names it (the trackers
    opened before it are closed)."""
    run = RunInfo(output_dir=Path(output_dir), run_name=cfg.run_name or Path(output_dir).name,
                  project=cfg.project, config=plain_config(cfg), resume_step=resume_step,
                  saved=dict(saved or {}) if resume_step else {})
    opened: list[Tracker] = []
    for name in tracker_names(cfg.report_to):
        try:
            opened.append(_BACKENDS[name](run))
        except ConfigError:
            _close_all(opened)
            raise
        except Exception as exc:  # the tool's own error (bad URI, login): ours, naming it
            _close_all(opened)
            raise ConfigError(f"report_to: {name} could not start: "
                              f"{type(exc).__name__}: {exc}") from exc
    return opened


def _close_all(trackers: Sequence[Tracker]) -> None:
    for tracker in trackers:
        tracker.close()


def plain_config(cfg: Any) -> dict[str, Any]:
    """A config dataclass as plain JSON values (mappings to dicts, tuples to lists), for the
    trackers' run config / params. (`dataclasses.asdict` cannot copy read-only mappings.)"""
    return {f.name: _plain(getattr(cfg, f.name)) for f in dataclasses.fields(cfg)}


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return plain_config(value)
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


RESCORE_FIELDS = ("reference", "domain", "group")
"""Prompt-row fields a completions row carries in completions.jsonl (not in the trackers'
tables), so that `rewards rescore` can score a finished run's completions again."""


def completion_rows(step: int, groups: Sequence[Any], *, limit: int,
                    advantages: Sequence[float | None] | None = None) -> list[dict[str, Any]]:
    """The completions table of a step (TRL's `log_completions`): the first `limit`
    completions of the batch, each with its prompt (chat messages as `role: content`
    lines), completion text, reward (None: abstained), the score's reason and, when given,
    its advantage, then the row's `RESCORE_FIELDS` where it has them. `groups` are the
    loop's scored `Group`s."""
    rows: list[dict[str, Any]] = []
    at = 0
    for group in groups:
        prompt = _prompt_text(group.row["prompt"])
        for text, score, reward in zip(group.texts, group.scores, group.rewards):
            if len(rows) >= limit:
                return rows
            row = {"step": step, "prompt": prompt, "completion": text, "reward": reward,
                   "reason": score.reason}
            for key in RESCORE_FIELDS:  # what `rewards rescore` needs to score it again
                if group.row.get(key) is not None:
                    row[key] = group.row[key]
            if advantages is not None:
                row["advantage"] = advantages[at]
            rows.append(row)
            at += 1
    return rows


def _prompt_text(prompt: Any) -> str:
    if isinstance(prompt, str):
        return prompt
    return "\n".join(f"{m.get('role', '?')}: {m.get('content', '')}" for m in prompt)


def _numbers(metrics: Mapping[str, Any]) -> dict[str, float]:
    """The numeric values of a metrics row (None, a non-finite number in the JSONL, left
    out; bools are no metrics)."""
    return {k: float(v) for k, v in metrics.items()
            if isinstance(v, (int, float)) and not isinstance(v, bool)}


def _columns(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    return list(dict.fromkeys(k for row in rows for k in row))


# --- the backends -------------------------------------------------------------------------


class TensorBoardTracker:
    """`torch.utils.tensorboard.SummaryWriter` writing to `output_dir/tensorboard/`: each
    metric a scalar, the completions table a markdown text summary (`completions`). On
    resume the writer purges the events after the checkpoint's step (`purge_step`)."""

    name = "tensorboard"

    def __init__(self, run: RunInfo) -> None:
        require("tensorboard", extra="tensorboard", feature="report_to: tensorboard")
        from torch.utils.tensorboard import SummaryWriter

        self.log_dir = run.output_dir / "tensorboard"
        self._writer = SummaryWriter(log_dir=str(self.log_dir),
                                     purge_step=run.resume_step + 1 if run.resume_step else None)
        if not run.resume_step:
            self._writer.add_text("config", _markdown_table(
                [{"field": k, "value": str(v)} for k, v in run.config.items()]), 0)

    def log(self, step: int, metrics: Mapping[str, float]) -> None:
        for key, value in _numbers(metrics).items():
            self._writer.add_scalar(key, value, step)
        self._writer.flush()  # a crashed run keeps every step it logged

    def log_table(self, step: int, rows: Sequence[Mapping[str, Any]]) -> None:
        self._writer.add_text("completions", _markdown_table(rows), step)
        self._writer.flush()

    def state(self) -> dict[str, Any]:
        return {}

    def close(self) -> None:
        self._writer.close()


def _markdown_table(rows: Sequence[Mapping[str, Any]]) -> str:
    columns = _columns(rows)

    def cell(value: Any) -> str:
        text = "" if value is None else str(value)
        return text.replace("|", "\\|").replace("\n", "<br>")

    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(row.get(c)) for c in columns) + " |" for row in rows]
    return "\n".join(lines)


class _WandbStyle:
    """What W&B and trackio (which copies W&B's API) share: a run object whose `log` takes
    metrics with `step=`, a `Table(columns=, data=)` class for the completions, `finish`."""

    _run: Any
    _module: Any  # the wandb or trackio module, for its Table

    def log(self, step: int, metrics: Mapping[str, float]) -> None:
        self._run.log(_numbers(metrics), step=step)

    def log_table(self, step: int, rows: Sequence[Mapping[str, Any]]) -> None:
        columns = _columns(rows)
        table = self._module.Table(columns=columns,
                                   data=[[row.get(c) for c in columns] for row in rows])
        self._run.log({"completions": table}, step=step)

    def close(self) -> None:
        self._run.finish()


class WandbTracker(_WandbStyle):
    """`wandb.init` (the mode from WANDB_MODE: online, offline, disabled; the files under
    WANDB_DIR, else output_dir): metrics with `step=`, the completions table a
    `wandb.Table` named `completions`. The run id is saved; a resumed run continues it
    (`resume="allow"`)."""

    name = "wandb"

    def __init__(self, run: RunInfo) -> None:
        wandb = require("wandb", extra="wandb", feature="report_to: wandb")
        self._module = wandb
        run_id = run.saved.get("wandb_run_id")
        self._run = wandb.init(
            project=run.project or os.environ.get("WANDB_PROJECT") or DEFAULT_PROJECT,
            name=run.run_name, dir=os.environ.get("WANDB_DIR") or str(run.output_dir),
            config=dict(run.config), id=run_id, resume="allow" if run_id else None,
            reinit="create_new")

    def state(self) -> dict[str, Any]:
        return {"wandb_run_id": self._run.id}


class MlflowTracker:
    """`mlflow.tracking.MlflowClient` (no global active run) on MLFLOW_TRACKING_URI, else a
    local SQLite store `output_dir/mlflow.db` with artifacts in `output_dir/mlruns/`:
    the config as params, metrics with their step, each completions table an artifact
    `completions/step_NNNNNN.json` (`log_table`). The run id is saved; a resumed run
    continues it."""

    name = "mlflow"

    def __init__(self, run: RunInfo) -> None:
        require("mlflow", extra="mlflow", feature="report_to: mlflow")
        from mlflow.entities import Param
        from mlflow.tracking import MlflowClient

        uri = os.environ.get("MLFLOW_TRACKING_URI")
        artifacts = None
        if not uri:  # MLflow 3 refuses a plain file store: SQLite is its local file store
            uri = f"sqlite:///{(run.output_dir / 'mlflow.db').resolve()}"
            artifacts = (run.output_dir / "mlruns").resolve().as_uri()
        self.tracking_uri = uri
        self._client = MlflowClient(tracking_uri=uri)
        run_id = run.saved.get("mlflow_run_id")
        if run_id:
            self._client.update_run(run_id, status="RUNNING")
        else:
            name = run.project or os.environ.get("MLFLOW_EXPERIMENT_NAME") or DEFAULT_PROJECT
            experiment = self._client.get_experiment_by_name(name)
            experiment_id = experiment.experiment_id if experiment is not None else \
                self._client.create_experiment(name, artifact_location=artifacts)
            run_id = self._client.create_run(experiment_id, run_name=run.run_name).info.run_id
            params = [Param(k, str(v)[:6000]) for k, v in run.config.items()]
            for at in range(0, len(params), 100):  # log_batch takes 100 params at a time
                self._client.log_batch(run_id, params=params[at:at + 100])
        self.run_id: str = run_id

    def log(self, step: int, metrics: Mapping[str, float]) -> None:
        from mlflow.entities import Metric

        now = int(time.time() * 1000)
        self._client.log_batch(self.run_id, metrics=[
            Metric(k, v, now, step) for k, v in _numbers(metrics).items()])

    def log_table(self, step: int, rows: Sequence[Mapping[str, Any]]) -> None:
        columns = _columns(rows)
        self._client.log_table(self.run_id, data={c: [row.get(c) for row in rows]
                                                  for c in columns},
                               artifact_file=f"completions/step_{step:06d}.json")

    def state(self) -> dict[str, Any]:
        return {"mlflow_run_id": self.run_id}

    def close(self) -> None:
        self._client.set_terminated(self.run_id, status="FINISHED")


class TrackioTracker(_WandbStyle):
    """`trackio.init` (local: a SQLite database per project under TRACKIO_DIR, by default
    ~/.cache/huggingface/trackio; TRACKIO_SPACE_ID sends it to a Space): metrics with their
    step, the completions table a `trackio.Table`. trackio names runs by name: a resumed
    run continues the saved name (`resume="allow"`)."""

    name = "trackio"

    def __init__(self, run: RunInfo) -> None:
        trackio = require("trackio", extra="trackio", feature="report_to: trackio")
        self._module = trackio
        saved = run.saved.get("trackio_run")
        self.run_name: str = saved or run.run_name
        self._run = trackio.init(project=run.project or DEFAULT_PROJECT, name=self.run_name,
                                 config=dict(run.config), resume="allow" if saved else "never",
                                 embed=False)

    def state(self) -> dict[str, Any]:
        return {"trackio_run": self.run_name}


_MODULES = {"tensorboard": "tensorboard", "wandb": "wandb", "mlflow": "mlflow",
            "trackio": "trackio"}
_BACKENDS: dict[str, Any] = {"tensorboard": TensorBoardTracker, "wandb": WandbTracker,
                             "mlflow": MlflowTracker, "trackio": TrackioTracker}
