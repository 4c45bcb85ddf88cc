"""verifiers adapter, the classic API (verifiers 0.1 - 0.3): reward functions a `vf.Rubric`
calls by signature, one per component with its weight; a group's rollouts scored together, once
for all functions. The verifiers 0.4 Task API is in test_verifiers_v1.py."""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import integration_rewards  # type: ignore[import-not-found]
import pytest
from integration_helpers import HERE, REPO  # type: ignore[import-not-found]

from integrations.verifiers import reward_funcs, rubric

COMPLETIONS = ["So the answer is \\boxed{72}.", "It is \\boxed{70}.", "No idea."]


def test_functions_have_rubric_signatures(recorded_config: Path) -> None:
    funcs, weights = reward_funcs(recorded_config)
    assert [f.__name__ for f in funcs] == ["math", "format"]
    assert weights == [1.0, 0.25]
    for func in funcs:
        params = set(inspect.signature(func).parameters)
        # a Rubric treats plural names (prompts, completions ...) as group functions
        assert not params & {"states", "prompts", "completions", "answers", "tasks", "infos"}
        assert {"prompt", "completion", "answer", "info"} <= params
        assert inspect.iscoroutinefunction(func)


def test_direct_calls_score_each_rollout_once(recorded_config: Path) -> None:
    math, fmt = reward_funcs(recorded_config)[0]

    async def main() -> list[float]:
        prompt = [{"role": "user", "content": "48 + 24?"}]
        calls = []
        for c in COMPLETIONS:
            completion = [{"role": "assistant", "content": c}]
            calls += [math(prompt=prompt, completion=completion, answer="72"),
                      fmt(prompt=prompt, completion=completion, answer="72")]
        return await asyncio.gather(*calls)

    assert asyncio.run(main()) == [1.0, 0.5, 0.0, 0.5, 0.0, 0.5]
    assert sum(integration_rewards.BATCH_SIZES) == 3  # 3 rollouts, not 6 calls
    assert len(integration_rewards.BATCH_SIZES) == 1


CLASSIC_VERIFIERS = REPO / "build" / "verifiers-0.3.1"
"""Where scripts/test.sh installs verifiers 0.3.1 (the last classic release) beside the current
one, so the Rubric path runs for real in a child process."""

SINGLE_TURN_RUN = r'''
import asyncio, json, sys
import integration_rewards
import verifiers as vf
from datasets import Dataset
from verifiers.types import Response, ResponseMessage
from integrations.verifiers import rubric

class ScriptedClient(vf.Client):
    """A model that answers from a script, so the rollout needs no server."""
    def __init__(self, replies):
        super().__init__(None)
        self.replies = list(replies)
    def setup_client(self, config): return None
    async def to_native_tool(self, tool): return tool
    async def to_native_prompt(self, messages): return messages, {}
    async def get_native_response(self, prompt, model, sampling_args, tools=None, **kwargs):
        return self.replies.pop(0)
    async def raise_from_native_response(self, response): return None
    async def from_native_response(self, text):
        message = ResponseMessage(content=text, finish_reason="stop", is_truncated=False)
        return Response(id="r", created=0, model="scripted", message=message)
    async def close(self): return None

config, replies = sys.argv[1], json.loads(sys.argv[2])
dataset = Dataset.from_list([{"question": "48 + 24?", "answer": "72", "info": {}}])
env = vf.SingleTurnEnv(dataset=dataset, rubric=rubric(config))
row = env.get_dataset()[0]
outputs = asyncio.run(env.run_group([row] * len(replies), ScriptedClient(replies), "m", {}))
print(json.dumps({"version": vf.__version__, "batches": integration_rewards.BATCH_SIZES,
                  "rewards": [o["reward"] for o in outputs],
                  "metrics": [o["metrics"] for o in outputs]}))
'''


def _classic_verifiers_path() -> list[str]:
    vf = pytest.importorskip("verifiers")
    try:
        vf.Rubric  # noqa: B018  (the classic API: verifiers <= 0.3)
        return [str(Path(vf.__file__).parents[1])]  # the child imports this same verifiers
    except AttributeError:
        pass
    if not (CLASSIC_VERIFIERS / "verifiers").is_dir():
        pytest.skip(f"verifiers {vf.__version__} has no classic Rubric and {CLASSIC_VERIFIERS} "
                    "holds no verifiers 0.3.1 (scripts/test.sh step 4 installs it there)")
    return [str(CLASSIC_VERIFIERS)]


def test_real_single_turn_env_scores_a_group(recorded_config: Path, tmp_path: Path) -> None:
    """verifiers 0.3's own SingleTurnEnv runs a group (a scripted model answers) and scores it
    with its Rubric: the README's `vf.SingleTurnEnv(..., rubric=rubric(...))` line."""
    pytest.importorskip("datasets", reason="a verifiers environment takes a datasets.Dataset")
    extra = _classic_verifiers_path()
    script = tmp_path / "single_turn_run.py"
    script.write_text(SINGLE_TURN_RUN)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([*extra, str(HERE), str(REPO)])}
    done = subprocess.run([sys.executable, str(script), str(recorded_config),
                           json.dumps(COMPLETIONS)],
                          capture_output=True, text=True, env=env, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["version"].startswith(("0.1", "0.2", "0.3"))
    assert result["rewards"] == [1.125, 0.125, 0.125]
    assert [{k: m[k] for k in ("math", "format")} for m in result["metrics"]] == [
        {"math": m, "format": 0.5} for m in (1.0, 0.0, 0.0)]
    assert result["batches"] == [3]  # the whole group in one batch


def test_verifiers_without_the_classic_rubric_is_told_what_to_use(recorded_config: Path) -> None:
    vf = pytest.importorskip("verifiers")
    if hasattr(vf, "Rubric"):
        pytest.skip(f"this verifiers ({vf.__version__}) still has the classic Rubric")
    from rewards.errors import ConfigError

    with pytest.raises(ConfigError, match="no classic vf.Rubric.*task_reward"):
        rubric(recorded_config)


def test_pydantic_messages_are_read_like_dicts(recorded_config: Path) -> None:
    """verifiers 0.3+ hands a Rubric its messages as pydantic models, not dicts."""
    pydantic = pytest.importorskip("pydantic")

    class Message(pydantic.BaseModel):
        role: str
        content: str | None = None

    math = reward_funcs(recorded_config)[0][0]
    value = asyncio.run(math(prompt=[Message(role="user", content="48 + 24?")],
                             completion=[Message(role="assistant", content=COMPLETIONS[0])],
                             answer="72"))
    assert value == 1.0


def test_abstention_scores_abstain_value(recorded_config: Path) -> None:
    math = reward_funcs(recorded_config, abstain_value=-1.0, abstain="zero")[0][0]
    value = asyncio.run(math(prompt="q", completion="\\boxed{1}", answer="\\frac{"))
    assert value == -1.0


def test_an_abstention_never_trains_as_a_number_unasked(recorded_config: Path) -> None:
    from rewards.errors import ConfigError, InputError

    masked = reward_funcs(recorded_config)[0][0]  # the default: mask
    with pytest.raises(ConfigError, match="Rubric cannot leave it out.*abstain='zero'"):
        asyncio.run(masked(prompt="q", completion="\\boxed{1}", answer="\\frac{"))
    raising = reward_funcs(recorded_config, abstain="raise")[0][0]
    with pytest.raises(InputError, match="bad_reference:unparseable"):
        asyncio.run(raising(prompt="q", completion="\\boxed{1}", answer="\\frac{"))
