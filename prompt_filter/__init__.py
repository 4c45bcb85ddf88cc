"""Prompt filtering by pass rate: score N rollouts per prompt, keep the prompts in a pass-rate
band (neither always solved nor never), bucket them by difficulty for a curriculum, and drop
zero-variance groups online while training (DAPO dynamic sampling)."""

from prompt_filter._band import Band, BandSelection, DropReason, drop_reason, select_band
from prompt_filter._buckets import Buckets, assign_buckets, quantile
from prompt_filter._curriculum import MixingSchedule, curriculum
from prompt_filter._dynamic import DynamicBatch, DynamicSampler, group_drop_reason
from prompt_filter._job import run_filter
from prompt_filter._pass_rate import DEFAULT_N, Mode, PassRate, pass_rate, pass_rates, resolve_mode
from prompt_filter._spec import FilterJob, GenerationOptions

__all__ = [
    "DEFAULT_N",
    "Band",
    "BandSelection",
    "Buckets",
    "DropReason",
    "DynamicBatch",
    "DynamicSampler",
    "FilterJob",
    "GenerationOptions",
    "MixingSchedule",
    "Mode",
    "PassRate",
    "assign_buckets",
    "curriculum",
    "drop_reason",
    "group_drop_reason",
    "pass_rate",
    "pass_rates",
    "quantile",
    "resolve_mode",
    "run_filter",
    "select_band",
]
