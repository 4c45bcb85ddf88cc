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
