"""Rewards the prompt-filter tests reach by dotted path (`filter_rewards:...`), in-process and
from CLI subprocesses (the folder is put on PYTHONPATH by conftest)."""

import time

from rewards import Sample, Score, reward


@reward
def exact(sample: Sample) -> Score:
    """1.0 when the completion equals the reference, 0.0 otherwise; no reference: abstain."""
    if sample.reference is None:
        return Score(None, "bad_reference")
    return Score(float(sample.completion.strip() == str(sample.reference)),
                 "ok" if sample.completion.strip() == str(sample.reference) else "wrong")


@reward
def slow_exact(sample: Sample) -> Score:
    """`exact`, 2 ms per sample: slow enough that a kill lands in the middle of a run."""
    time.sleep(0.002)
    return exact(sample)


@reward
def fraction(sample: Sample) -> float:
    """A continuous reward: the completion parsed as a number."""
    return float(sample.completion)


@reward
def explode_on_boom(sample: Sample) -> float:
    if "BOOM" in sample.completion:
        raise ValueError("poison sample")
    return float(sample.completion.strip() == str(sample.reference))


@reward
def even_length(sample: Sample) -> float:
    """1.0 for a completion of even length: about half of a random model's outputs pass."""
    return float(len(sample.completion) % 2 == 0)


@reward
def abstain_on_skip(sample: Sample) -> Score:
    """`exact`, but a completion "SKIP" abstains for a cause of its own (not the reference)."""
    if sample.completion.strip() == "SKIP":
        return Score(None, "judge_unavailable")
    return exact(sample)
