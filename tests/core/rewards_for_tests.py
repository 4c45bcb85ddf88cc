"""Small deterministic rewards the core tests reach by dotted path (`rewards_for_tests:...`)."""

from rewards import Sample, Score, reward


@reward
def exact(sample: Sample) -> float:
    """1.0 when the completion equals the reference after stripping, else 0.0."""
    return float(sample.completion.strip() == str(sample.reference).strip())


@reward(name="length")
def length(sample: Sample) -> float:
    return float(len(sample.completion))


@reward
def abstain_on_missing(sample: Sample) -> Score | float:
    if sample.reference is None:
        return Score(None, "bad_reference")
    return float(sample.completion.strip() == str(sample.reference))


@reward
def explode_on_boom(sample: Sample) -> float:
    if "BOOM" in sample.completion:
        raise ValueError("poison sample")
    return 1.0


class Constant:
    """A factory with options: `{use: rewards_for_tests:Constant, value: 0.5}`."""

    kind = "learned"

    def __init__(self, value: float = 1.0) -> None:
        self.value = value
        self.name = "constant"

    def score(self, samples):
        return [Score(self.value) for _ in samples]


@reward
def always_bad_reference(sample: Sample) -> Score:
    """Abstains as a verifier does on a gold it cannot parse."""
    return Score(None, "bad_reference")


@reward
def unreadable_unless_digits(sample: Sample) -> Score:
    """Abstains (bad_reference) on a reference that is not digits, as a verifier does on a
    gold it cannot parse; else `exact`."""
    if not str(sample.reference).strip().isdigit():
        return Score(None, "bad_reference")
    return Score(exact(sample))


@reward
def always_raises(sample: Sample) -> float:
    """A broken plugin: raises on every row."""
    raise RuntimeError("this plugin is broken")


@reward
def returns_none(sample: Sample) -> float | None:
    """A plugin that abstains (returns None) on every row."""
    return None if sample.completion is not None else 0.0
