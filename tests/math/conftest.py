"""Shared fixtures: one small worker pool for the whole math test session."""

from __future__ import annotations

import pytest

from rewards.math import MathConfig, MathReward, shared_pool

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
def reward() -> MathReward:
    """A default `MathReward` (the red-team rounds'; a module may define its own)."""
    return MathReward()
