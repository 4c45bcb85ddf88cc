"""verifiers adapter, the current API (verifiers 0.4, `verifiers.v1`): a `@vf.reward` built by
`task_reward`, and the plugged `integrations.verifiers:reward`, inside a real environment
loaded by verifiers' own loader, scoring traces through the task's own `score` (the entry
point a rollout and `vf replay` call), with no model server."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import integration_rewards  # type: ignore[import-not-found]
import pytest

from integrations import verifiers as adapter
from rewards.errors import ConfigError, InputError

vf: Any = pytest.importorskip("verifiers.v1", reason="the verifiers 0.4 Task API (pip install "
                                                     "verifiers)")

REPLIES = ["So the answer is \\boxed{72}.", "It is \\boxed{70}.", "No idea."]

TASKSET = '''
import verifiers.v1 as vf
from datasets import Dataset
{reward_import}

class MathData(vf.TaskData):
    answer: str
    domain: str | None = None

class MathTask(vf.Task[MathData]):
{reward_method}

class MathTaskset(vf.Taskset[MathTask, vf.TasksetConfig]):
    def load(self):
        rows = Dataset.from_list([
            {{"question": "48 + 24?", "answer": "72"}},
            {{"question": "70 + 0?", "answer": "70"}},
        ])
        for row in rows:
            yield MathTask(MathData(prompt=row["question"], answer=row["answer"],
                                    system_prompt="Box the answer."), self.config.task)

__all__ = ["MathTaskset"]
'''

DECORATED = '''
    @vf.reward(weight=1.0)
    async def rewards(self, trace: vf.Trace) -> float:
        return await score(self.data, trace)
'''


def _taskset_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, *,
                     reward_import: str, reward_method: str) -> str:
    """An installed-like taskset package: verifiers loads a taskset by package id."""
    pytest.importorskip("datasets", reason="the taskset reads a datasets.Dataset")
    package = tmp_path / "packages" / name
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(TASKSET.format(reward_import=reward_import,
                                                        reward_method=reward_method))
    monkeypatch.syspath_prepend(str(package.parent))
    monkeypatch.delitem(sys.modules, name, raising=False)
    return name


def _trace(task: Any, reply: str) -> Any:
    """A finished single-turn rollout of `task`, as a rollout records it (prompt, then the
    sampled reply)."""
    prompt = task.data.prompt
    messages = [vf.UserMessage(content=prompt)] if isinstance(prompt, str) else list(prompt)
    nodes = [vf.MessageNode(message=m, parent=i - 1 if i else None)
             for i, m in enumerate(messages)]
    nodes.append(vf.MessageNode(parent=len(nodes) - 1, sampled=True,
                                message=vf.AssistantMessage(content=reply)))
    return vf.Trace(
        task=vf.TraceTask(type=type(task).__name__, data=task.data, key=task.key,
                          hash=task.hash),
        agent=vf.AgentInfo(config=vf.AgentConfig(), name="test", trainable=False),
        nodes=nodes)


def _score_all(env: Any, replies: list[str]) -> list[Any]:
    """Every task of the environment's taskset times `replies`, scored concurrently."""
    tasks = list(env.taskset)
    pairs = [(task, _trace(task, reply)) for task in tasks for reply in replies]

    async def main() -> None:
        await asyncio.gather(*(task.score(trace) for task, trace in pairs))

    asyncio.run(main())
    return [trace for _, trace in pairs]


def test_decorated_task_reward_in_a_real_environment(recorded_config: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    name = _taskset_package(
        tmp_path, monkeypatch, "rewards_vf_decorated",
        reward_import=("from integrations.verifiers import task_reward\n"
                       f"score = task_reward({str(recorded_config)!r})"),
        reward_method=DECORATED)
    env = vf.load_environment(vf.resolve_env_config({"taskset": {"id": name}}))
    assert isinstance(env, vf.SingleAgentEnv)
    traces = _score_all(env, REPLIES)
    # task 0's answer is 72, task 1's is 70: the second reply is right there
    assert [t.rewards["rewards"].score for t in traces] == [1.125, 0.125, 0.125,
                                                            0.125, 1.125, 0.125]
    assert [t.reward for t in traces] == [1.125, 0.125, 0.125, 0.125, 1.125, 0.125]
    assert [t.metrics for t in traces] == [{"math": m, "format": 0.5}
                                           for m in (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)]
    assert integration_rewards.BATCH_SIZES == [6]  # every concurrent rollout in one batch


def test_plugged_reward_from_the_task_config(recorded_config: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """No code: `integrations.verifiers:reward` plugged into the task config by import path,
    the config from $REWARDS_CONFIG."""
    monkeypatch.setenv("REWARDS_CONFIG", str(recorded_config))
    name = _taskset_package(tmp_path, monkeypatch, "rewards_vf_plugged", reward_import="",
                            reward_method="    pass\n")
    config = vf.resolve_env_config({"taskset": {"id": name, "task": {"rewards": {
        "rewards": {"fn": "integrations.verifiers:reward", "weight": 2.0}}}}})
    traces = _score_all(vf.load_environment(config), REPLIES[:1])
    assert [(t.rewards["rewards"].score, t.rewards["rewards"].weight) for t in traces] == [
        (1.125, 2.0), (0.125, 2.0)]
    assert [t.reward for t in traces] == [2.25, 0.25]


def _task(data: Any) -> Any:
    return vf.Task(data)


def test_reference_and_domain_come_from_the_task_data(mixed_config: Path) -> None:
    class QAData(vf.TaskData):
        solution: str
        kind: str

    score = adapter.task_reward(mixed_config, reference_key="solution", domain_key="kind")
    text = _task(QAData(prompt="Say hello", solution="hello", kind="text"))
    math = _task(QAData(prompt=[vf.UserMessage(content="1 + 1?")], solution="2", kind="math"))
    traces = [_trace(text, "hello"), _trace(math, "\\boxed{2}")]

    async def main() -> list[float]:
        return [await score(text.data, traces[0]), await score(math.data, traces[1])]

    values = asyncio.run(main())
    assert values[0] == 1.0 and traces[0].metrics == {"exact": 1.0}
    assert traces[1].metrics["math"] == 1.0
    assert values[1] == pytest.approx(1.0 + 0.5 * traces[1].metrics["brevity"])


def test_an_abstention_fails_the_rollout_instead_of_scoring_zero(math_config: Path) -> None:
    """math_config: the math verifier, plus a logged-only brevity part (weight 0), so an
    unparseable gold leaves the rollout without a value."""

    class MathData(vf.TaskData):
        answer: str

    class MathTask(vf.Task[MathData]):
        rewards = vf.reward(adapter.task_reward(math_config))  # decorated as an attribute

    task = MathTask(MathData(prompt="q", answer="\\frac{"))
    trace = _trace(task, "\\boxed{1}")
    with pytest.raises(vf.TaskError, match="ConfigError") as caught:
        asyncio.run(task.score(trace))
    assert isinstance(caught.value.__cause__, ConfigError)
    assert trace.rewards == {"rewards": None}  # seeded, never scored: no silent 0

    zero = adapter.task_reward(math_config, abstain="zero", abstain_value=-1.0)
    assert asyncio.run(zero(task.data, trace)) == -1.0
    raising = adapter.task_reward(math_config, abstain="raise")
    with pytest.raises(InputError, match="bad_reference:unparseable"):
        asyncio.run(raising(task.data, trace))


def test_the_task_argument_must_be_task_data(recorded_config: Path) -> None:
    score = adapter.task_reward(recorded_config)
    with pytest.raises(InputError, match="vf.TaskData"):
        asyncio.run(score("not a task", None))
