"""ROLL: its remote reward system's submit and poll protocol, served by `rewards serve`.

ROLL's `RemoteRewardSystemWorker` (`roll/pipeline/rlvr/rewards/remote_reward_system_worker.py`,
`RewardSystemHandler`) scores each rollout in two calls, to URLs from its
`reward_system_config` (`submit_url`, `get_result_url`):

    POST submit_url  {"priority", "project_id", "experiment_id", "global_step", "data_id",
                      "rollout_id", "prompt", "response", "reward_info", "reward_manager",
                      "timeout"}
                  -> {"errcode": 0, "reward_request_id": str}
    GET get_result_url, JSON body {"reward_request_id": str}
                  -> {"errcode": 1} while it runs;
                     {"errcode": 0, "reward_score": float | null,
                      "dimention_reward_score": {name: {...}}, "start_time", "end_time"}

It polls every 2 s until `errcode` 0 or its timeout, and treats a null `reward_score` as "no
reward": it submits again (5 tries) and then trains 0. That is the one way the protocol has to
leave a sample out, so an abstention (`abstain="mask"`) is a null `reward_score` (with
`errmsg` naming the reason); `zero` sends the abstain value. A failure of the scoring
infrastructure is a null score too, its `errmsg` saying so. Any other `errcode` ROLL logs
and polls on: 2 is "the server holds `max_tasks` tasks: submit again" (ROLL retries a
submit 5 times, a second apart), 3 "no such task".

The label is `reward_info["ground_truth"]` when present (ROLL's own adapter puts the
dataset's ground truth there), else `reward_info` itself, read by the one label rule
(`integrations._common.labelled_sample`: a mapping with `reference` and `domain`). ROLL sends
its token as `XRL-Authorization`, a header ours do not read: put it in the URLs as
`?access_token=` instead.

Tasks are the server's: it chooses every `reward_request_id` (unguessable), so no client
can name, read or replace another's task. At most `max_tasks` are held, at most
`per_client` of them (half by default) by one client, as the connection caps count clients
(`integrations._http.Shares`, `client_key` of the socket's peer: all of loopback is one): a
client past its share makes room from its own oldest finished task (its result, unread, is
then gone: errcode 3), else gets errcode 2 while other clients still find room. At the total,
a finished task unread for `keep_s` seconds makes room; a running one is never dropped."""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from integrations._common import ResolvedReward, labelled_sample, prompt_and_response
from integrations._http import Shares, client_share
from rewards.errors import ConfigError
from rewards.types import Sample, Score

__all__ = ["BUSY", "DONE", "RESULT_ROUTE", "RUNNING", "SUBMIT_ROUTE", "UNKNOWN", "Task",
           "Tasks", "result_reply", "sample_from_submit"]

SUBMIT_ROUTE = "/roll/submit_task"
RESULT_ROUTE = "/roll/task_result"
DONE, RUNNING, BUSY, UNKNOWN = 0, 1, 2, 3
"""The `errcode`s: ROLL reads 0 (done) and 1 (still running); 2 and 3 it logs and polls on."""


def sample_from_submit(resolved: ResolvedReward, body: Any) -> Sample:
    """The `Sample` of a submit body; `InputError` naming the field."""
    prompt, response = prompt_and_response(body)
    info = body.get("reward_info")
    label = info.get("ground_truth") if isinstance(info, Mapping) and "ground_truth" in info \
        else info
    domain = info.get("domain") if isinstance(info, Mapping) else None
    return labelled_sample(resolved, prompt, response, label,
                           domain if isinstance(domain, str) else None)


@dataclass
class Task:
    """One submitted sample: running until `reply` is set."""

    started: str
    client: str = "local"
    """Whose it is (`integrations._http.client_key`): what it counts against."""
    cost: int = 0
    reply: dict[str, Any] | None = None
    finished_at: float = 0.0


class Tasks:
    """The server's tasks by id (the module docstring): at most `max_tasks`, `per_client`
    of them per client (None: half); a finished one is kept until read or for `keep_s`; a
    running one never gives way. One event loop touches it: no lock."""

    def __init__(self, max_tasks: int, keep_s: float, max_bytes: int,
                 per_client: int | None = None) -> None:
        if isinstance(max_tasks, bool) or not isinstance(max_tasks, int) or max_tasks < 1:
            raise ConfigError(f"max_tasks must be a positive integer, not {max_tasks!r}")
        self.max_tasks, self.keep_s, self.max_bytes = max_tasks, keep_s, max_bytes
        self.shares = Shares(max_tasks, client_share(
            max_tasks, per_client, names=("max_tasks", "max_tasks_per_client")))
        self.held: OrderedDict[str, Task] = OrderedDict()  # oldest first
        self.running_bytes = 0
        """The body bytes of the tasks still running: at most `max_bytes` (one task may
        always run)."""

    def add(self, cost: int, client: str = "local") -> str | None:
        """A new running task's id for `client`, charged `cost` bytes until it finishes;
        None when the running tasks hold `max_bytes` already, or no held task may give way
        (`Shares`: the client's own finished ones past its share, anyone's finished and
        unread for `keep_s` at the total)."""
        if self.running_bytes and self.running_bytes + cost > self.max_bytes:
            return None
        now = time.monotonic()

        def spent(task_id: str) -> bool:
            task = self.held[task_id]
            return task.reply is not None and (
                task.client == client or now - task.finished_at > self.keep_s)

        room = self.shares.room(client, ((k, t.client) for k, t in self.held.items()), spent)
        if room is Shares.FULL:
            return None
        if room is not Shares.NOTHING:
            self._forget(room)
        task_id = secrets.token_urlsafe(18)
        self.held[task_id] = Task(started=_now(), client=client, cost=cost)
        self.shares.add(client)
        self.running_bytes += cost
        return task_id

    def _forget(self, task_id: str) -> None:
        self.shares.remove(self.held.pop(task_id).client)

    def finish(self, task_id: str, reply: dict[str, Any]) -> None:
        task = self.held[task_id]
        self.running_bytes -= task.cost
        task.reply = {**reply, "start_time": task.started, "end_time": _now()}
        task.finished_at = time.monotonic()

    def read(self, task_id: Any) -> dict[str, Any]:
        """The poll's reply for `task_id`: running, unknown, or the result (then
        forgotten: ROLL reads a result once)."""
        task = self.held.get(task_id) if isinstance(task_id, str) else None
        if task is None:
            return {"errcode": UNKNOWN, "errmsg": "no such task (finished results are read "
                                                  "once)"}
        if task.reply is None:
            return {"errcode": RUNNING, "errmsg": "running"}
        self._forget(task_id)
        return task.reply


def result_reply(score: Score | None, *, abstain_value: float, mask: bool,
                 failure: str | None = None) -> dict[str, Any]:
    """A finished task's reply: `reward_score` (null for an abstention under `mask`, or a
    `failure` of the scoring), `dimention_reward_score` ({part: {"score": value}}; ROLL
    reads each value's `debug_info`), `errmsg`."""
    if score is None:
        return {"errcode": DONE, "reward_score": None, "dimention_reward_score": {},
                "errmsg": f"scoring failed: {failure}"}
    value = score.value
    if value is None:
        value = None if mask else abstain_value
    return {"errcode": DONE, "reward_score": None if value is None else float(value),
            "dimention_reward_score": {k: {"score": float(v)} for k, v in score.parts.items()
                                       if isinstance(v, (int, float))},
            "errmsg": score.reason}


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()
