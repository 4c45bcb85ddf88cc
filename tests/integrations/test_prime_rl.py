"""prime-rl's per-turn shape (verifiers' `TrajectoryStep.reward`, one step per model call):
prime-rl and verifiers < 0.4 do not install here, so the steps are written from verifiers'
documented `TrajectoryStep` fields (recorded shapes, our code)."""

from __future__ import annotations

import pytest

from integrations.prime_rl import STEP_FIELDS, with_turn_rewards
from rewards.build import build_reward
from rewards.config import parse_config
from rewards.envs import EnvConfig, run_episodes
from rewards.errors import InputError
from rewards.options import load_options
from rewards.types import Sample


def _steps(actions):
    """verifiers' steps for the turns `actions`: every documented key, reward unset."""
    return [{"prompt": [{"role": "user", "content": "Guess."}],
             "completion": [{"role": "assistant", "content": a}], "response": None,
             "tokens": {"prompt_ids": [1], "prompt_mask": [0], "completion_ids": [2, 3],
                        "completion_mask": [1, 1], "completion_logprobs": [-0.1, -0.2],
                        "overlong_prompt": False, "is_truncated": False,
                        "routed_experts": None},
             "reward": None, "advantage": None, "is_truncated": False,
             "trajectory_id": "t0", "extras": {}} for a in actions]


def _episodes(samples, actions, **options):
    config = load_options(EnvConfig, {"use": "number_guess", "max_turns": 3,
                                      "step_penalty": 0.1, **options}, where="test")
    reward = build_reward(parse_config({"domains": {"default": {"rewards": ["math"]}}}))
    it = iter(actions)
    return run_episodes(config, reward, samples, lambda messages: next(it))


def test_each_step_carries_its_turns_reward_and_nothing_else_changes():
    won, = _episodes([Sample("g", "", reference=7)], ["4", "7"], step_weight=0.5)
    steps = _steps(["4", "7"])
    out = with_turn_rewards(steps, won)
    assert [s["reward"] for s in out] == pytest.approx([-0.05, -0.05 + 1.0])
    assert all(set(s) == set(STEP_FIELDS) for s in out)
    assert [{k: v for k, v in s.items() if k != "reward"} for s in out] == \
        [{k: v for k, v in s.items() if k != "reward"} for s in steps]
    assert steps[0]["reward"] is None  # the caller's steps are not changed
    assert all(s["advantage"] is None for s in out)  # the trainer's to assign


def test_an_abstained_episode_is_unscored_and_a_mismatch_is_refused():
    from rewards.envs import Trajectory, Turn
    from rewards.types import Score

    # two turns played, then the final reward abstained (a judge down): unscored, not 0
    abstained = Trajectory(Sample("g", ""), (Turn("4", "Higher.", -0.1), Turn("7", "", 0.0)),
                           Score(None, "engine_error"), ())
    assert [s["reward"] for s in with_turn_rewards(_steps(["4", "7"]), abstained)] == \
        [None, None]
    won, = _episodes([Sample("g", "", reference=7)], ["7"])
    with pytest.raises(InputError, match="2 trajectory steps for an episode of 1 turns"):
        with_turn_rewards(_steps(["7", "7"]), won)
    with pytest.raises(InputError, match="mapping"):
        with_turn_rewards(["7"], won)
