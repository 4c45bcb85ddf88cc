"""Small rewards the integration tests reach by dotted path (`integration_rewards:...`)."""

from rewards import Sample, Score, reward
from rewards.errors import EngineError


@reward
def brevity(sample: Sample) -> float:
    """1.0 for an empty completion, falling linearly to 0.0 at 100 characters."""
    return max(0.0, 1.0 - len(sample.completion) / 100)


@reward
def exact(sample: Sample) -> Score | float:
    """1.0 when the stripped completion equals the reference; abstains without one."""
    if sample.reference is None:
        return Score(None, "bad_reference")
    return float(sample.completion.strip() == str(sample.reference).strip())


@reward
def explode_on_boom(sample: Sample) -> float:
    """A reward with a bug: raises on completions containing BOOM."""
    if "BOOM" in sample.completion:
        raise ValueError("poison sample")
    return 1.0


@reward
def engine_down(sample: Sample) -> float:
    """Broken infrastructure: always raises EngineError."""
    raise EngineError("judge server unreachable at http://127.0.0.1:9")


BATCH_SIZES: list[int] = []
"""Sizes of the batches `BatchRecorder` was asked to score, in order (reset by tests)."""


class BatchRecorder:
    """A Reward recording the size of every batch it scores; scores 1.0 (or the option
    `value`) per sample."""

    name = "recorder"
    kind = "verifiable"

    def __init__(self, value: float = 1.0) -> None:
        self.value = value

    def score(self, samples: list[Sample]) -> list[Score]:
        BATCH_SIZES.append(len(samples))
        return [Score(self.value) for _ in samples]


@reward
def judge_stand_in(sample: Sample) -> Score | float:
    """An LLM judge's stand-in: 1.0 when the stripped completion equals the reference, and
    broken infrastructure (abstains, reason `timeout`, as a judge server that does not answer)
    for a completion that says `[judge down]`."""
    if "[judge down]" in sample.completion:
        return Score(None, "timeout")
    return float(sample.completion.strip() == str(sample.reference).strip())


@reward
def has_tools(sample: Sample) -> float:
    """1.0 when the row's `tools` column reached the sample's meta (as a tool-call reward reads
    its schema), else 0.0."""
    return float("tools" in sample.meta)
