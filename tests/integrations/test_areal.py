"""AReaL adapter: `reward_fn(prompt, completions, prompt_ids, completion_ids, **task_data)`
returning a float, picklable and run in a process pool the way AReaL's AsyncRewardWrapper
runs it (and through the real wrapper where AReaL imports)."""

from __future__ import annotations

import asyncio
import inspect
import pickle
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

import pytest
from integration_helpers import server_env  # type: ignore[import-not-found]

from integrations.areal import AReaLReward, reward_fn
from rewards.errors import ConfigError, InputError

CASES = [  # (completion, task data, expected)
    ("48 + 24 = 72\n#### 72", {"answer": "72"}, 1.0),
    ("The answer is \\boxed{70}.", {"answer": "72"}, 0.0),
    ("The answer is \\boxed{\\frac{1}{2}}", {"solution": "0.5"}, 1.0),
    ("\\boxed{3}", {"answer": "\\frac{"}, -1.0),  # abstains: unparseable gold
]


def test_signature_matches_areal() -> None:
    params = list(inspect.signature(reward_fn).parameters)
    assert params[:4] == ["prompt", "completions", "prompt_ids", "completion_ids"]
    assert inspect.signature(reward_fn).parameters["kwargs"].kind is inspect.Parameter.VAR_KEYWORD


def test_called_like_rlvr_workflow(math_config: Path) -> None:
    fn = AReaLReward(math_config, abstain_value=-1.0, abstain="zero")
    for completion, data, expected in CASES:
        assert fn("What is 48 + 24?", completion, [1, 2, 3], [4, 5], **data) == expected


def test_an_abstention_never_trains_as_a_number_unasked(math_config: Path) -> None:
    completion, data, _ = CASES[3]  # an unparseable gold
    with pytest.raises(ConfigError, match="AReaL cannot leave it out.*abstain='zero'"):
        AReaLReward(math_config)("q", completion, [1], [2], **data)  # the default: mask
    with pytest.raises(InputError, match="bad_reference:unparseable"):
        AReaLReward(math_config, abstain="raise")("q", completion, [1], [2], **data)
    with pytest.raises(ConfigError, match="abstain must be one of"):
        AReaLReward(math_config, abstain="skip")  # type: ignore[arg-type]


def test_runs_in_a_process_pool_from_the_environment(math_config: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """AsyncRewardWrapper: loop.run_in_executor(ProcessPoolExecutor, partial(reward_fn, ...))."""
    for key, value in server_env().items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("REWARDS_CONFIG", str(math_config))
    assert pickle.loads(pickle.dumps(reward_fn)) is reward_fn
    assert pickle.loads(pickle.dumps(AReaLReward(math_config))).config == str(math_config)

    async def main() -> list[float]:
        loop = asyncio.get_running_loop()
        with ProcessPoolExecutor(max_workers=1) as pool:
            return await asyncio.gather(*(
                loop.run_in_executor(pool, partial(reward_fn, "q", completion, [1], [2], **data))
                for completion, data, _ in CASES[:3]))

    assert asyncio.run(main()) == [expected for _, _, expected in CASES[:3]]


def test_real_async_reward_wrapper(math_config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        from areal.api.reward_api import AsyncRewardWrapper
    except ImportError as exc:
        pytest.skip(f"AReaL is not importable here ({exc}); pip install areal")
    for key, value in server_env().items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("REWARDS_CONFIG", str(math_config))
    wrapper = AsyncRewardWrapper(reward_fn, timeout_seconds=60, max_workers=1)
    values = asyncio.run(wrapper("q", CASES[0][0], [1], [2], **CASES[0][1]))
    assert values == 1.0
