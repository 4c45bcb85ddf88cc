"""Shared fixtures: one small worker pool for the whole math test session."""

from __future__ import annotations

import pytest

from rewards.math import MathConfig, MathReward, shared_pool
from tests.math.redteam_helpers import YesEngine, judged_reward

# A short bound keeps the timeout tests fast; 2 workers match the CI machine.
TEST_OPTIONS = {"timeout": 2.0, "workers": 2}


@pytest.fixture(scope="session")
def math_config() -> MathConfig:
    return MathConfig(**TEST_OPTIONS)


@pytest.fixture(scope="session")
def math_reward() -> MathReward:
    reward = MathReward(**TEST_OPTIONS)
    reward.warm_up()
    return reward


@pytest.fixture(scope="session")
def warm_pool(math_reward: MathReward):
    """The process-wide worker pool, started."""
    return shared_pool(math_reward.config.worker_count)


@pytest.fixture(scope="module")
def reward(request: pytest.FixtureRequest) -> MathReward:
    """A `MathReward` with the requesting module's `REWARD_OPTIONS` (the red-team rounds set
    them to `redteam_helpers.OPTIONS`); the defaults where it sets none."""
    return MathReward(**getattr(request.module, "REWARD_OPTIONS", {}))


@pytest.fixture(scope="module")
def judged() -> MathReward:
    """A `MathReward` whose judge says yes to everything (`redteam_helpers.YesEngine`)."""
    return judged_reward(YesEngine())
