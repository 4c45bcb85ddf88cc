"""Learned reward models on `rewards.engines`: the generative judge (GenRM), the discriminative
reward model, Bradley-Terry training and offline preference labeling; the probes `rewards
stress` attacks them with (`GENRM_PROBES`, `RM_PROBES`).

Importing this package is light; torch, transformers and vLLM load when a model does."""

from __future__ import annotations

from genrm._probes import GENRM_PROBES, RM_PROBES
from genrm.discriminative import DiscriminativeRM, RMConfig
from genrm.generative import GenRMConfig, GenRMJudge, GenRMReward, JudgeConfig, Judgment, Pair
from genrm.label import CandidateSet, LabelConfig, LabelStats, label_preferences, load_candidates
from genrm.train import (
    PreferencePair,
    TrainConfig,
    TrainResult,
    bradley_terry_loss,
    load_pairs,
    train_reward_model,
)

__all__ = [
    "GENRM_PROBES",
    "RM_PROBES",
    "CandidateSet",
    "DiscriminativeRM",
    "GenRMConfig",
    "GenRMJudge",
    "GenRMReward",
    "JudgeConfig",
    "Judgment",
    "LabelConfig",
    "LabelStats",
    "Pair",
    "PreferencePair",
    "RMConfig",
    "TrainConfig",
    "TrainResult",
    "bradley_terry_loss",
    "label_preferences",
    "load_candidates",
    "load_pairs",
    "train_reward_model",
]
