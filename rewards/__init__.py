"""rewards-engine: verifiable and learned rewards for LLM reinforcement learning.

The one interface: `Sample` in, `Score` out, through any `Reward` (an object with
`name` and `score(samples) -> list[Score]`)."""

from rewards.build import build_reward
from rewards.config import RewardConfig, load_config, parse_config
from rewards.errors import ConfigError, EngineError, InputError, RewardsError, SandboxError
from rewards.registry import register
from rewards.scoring import ScoredBatch, score_batch
from rewards.types import Reward, Sample, Score, reward

__all__ = [
    "ConfigError", "EngineError", "InputError", "Reward", "RewardConfig", "RewardsError",
    "Sample", "SandboxError", "Score", "ScoredBatch", "build_reward", "load_config",
    "parse_config", "register", "reward", "score_batch",
]
