"""Built-in GRPO and PPO training loops (`rl.grpo`, `rl.ppo`: one readable file each) and
their losses (`rl.losses`). Rewards come in through the `Reward` interface from a reward
config; run them with `rewards train grpo|ppo --config train.yaml`.

Torch is imported only when a loop runs: `import rl` stays light."""

from rl._config import CurriculumConfig, LoopConfig, load_train_config
from rl._episodes import ObservationEncoder
from rl.grpo import GRPOConfig
from rl.grpo import train as train_grpo
from rl.ppo import PPOConfig
from rl.ppo import train as train_ppo

__all__ = [
    "CurriculumConfig",
    "GRPOConfig",
    "LoopConfig",
    "ObservationEncoder",
    "PPOConfig",
    "load_train_config",
    "train_grpo",
    "train_ppo",
]
