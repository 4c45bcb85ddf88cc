"""`Sample`, `Score` and the `Reward` protocol: the one interface everything scores through,
with its contract check (`check_scores`) and the optional `Checkable` protocol."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, runtime_checkable

from rewards.completion import calls_of_turn, read_completion
from rewards.errors import ConfigError, InputError

__all__ = ["AMBIGUOUS_GOLD", "Checkable", "Progressive", "Reward", "Sample", "SampleCheck", "Score",
           "ScoresReady", "check_scores", "completion_turns", "gold_ambiguity", "ready_for_part",
           "reference_of", "reward", "score_progressively", "with_completion"]

@dataclass(frozen=True)
class Sample:
    """One rollout to score."""

    prompt: str | list[dict[str, Any]]
    """The prompt: plain text or chat messages (`[{"role": ..., "content": ...}]`)."""
    completion: str
    """The model's completion, as text: the answer every reward checks. Given as chat
    messages (TRL's conversational completions, a multi-turn rollout with tool calls), it is
    read once, here, by `rewards.completion`: the completion becomes the content of the last
    assistant turn (`completion_text`) and `turns` every assistant turn; anything else is an
    `InputError` naming the field."""
    reference: Any = None
    """Gold answer, test cases or rubric: whatever the domain's rewards compare against."""
    domain: str = "default"
    """Selects the rewards and the normalization group (math, code, chat ...)."""
    group: str | None = None
    """Prompt id: the rollouts of one prompt share it (GRPO groups, pass rates)."""
    meta: Mapping[str, Any] = field(default_factory=dict)
    """Anything else carried along (dataset columns, ids)."""
    turns: tuple[str, ...] = ()
    """Every assistant turn of a completion given as chat messages, as text (its content,
    then its calls), in order (the last is `completion` followed by that turn's calls): the
    tool-call reward reads the calls of all of them. Empty for a text completion, which is
    its one turn. Read them with `completion_turns`, which ignores turns that are not this
    completion's (a `dataclasses.replace` of the completion alone); replace a completion
    with `with_completion`, which keeps them."""
    ambiguous_gold: str | None = None
    """Why the gold columns of this sample's row state different golds (which columns, and
    where), else None: set only by the gold reader (`rewards.io.find_reference`'s callers),
    never from a row, a `meta` mapping or a request body, which cannot set or clear it. Such
    a sample abstains (`bad_reference:ambiguous`, `gold_ambiguity`)."""

    def __post_init__(self) -> None:
        if not isinstance(self.completion, str):  # chat messages: read once, by one rule
            completion, turns = read_completion(self.completion)
            object.__setattr__(self, "completion", completion)
            object.__setattr__(self, "turns", turns)
        elif not isinstance(self.turns, tuple) or not all(isinstance(t, str)
                                                          for t in self.turns):
            raise InputError("turns must be a tuple of texts", field="turns")
        if self.ambiguous_gold is not None and not isinstance(self.ambiguous_gold, str):
            raise InputError("ambiguous_gold must be a text or None", field=AMBIGUOUS_GOLD)


def completion_turns(sample: Sample) -> list[str]:
    """The assistant turns of `sample`'s completion as text, in order: its `turns` when they
    are this completion's (the last of them is `completion` followed by calls only,
    `rewards.completion.calls_of_turn`), else the completion as its one turn. The tool-call
    reward reads every call of a multi-turn completion so: a call made in an earlier turn
    was made, whatever the last turn says."""
    if sample.turns and calls_of_turn(sample.turns[-1], sample.completion) is not None:
        return list(sample.turns)
    return [sample.completion]


def with_completion(sample: Sample, completion: str) -> Sample:
    """`sample` with its answer replaced by `completion` (the text after a marker, a check's
    view of it), the rollout kept: the earlier turns and the last turn's calls stay, so the
    tool-call reward still reads every call the rollout made. The one way a reward or a
    command replaces a completion (a bare `dataclasses.replace` drops the turns)."""
    if not sample.turns:
        return replace(sample, completion=completion)
    calls = calls_of_turn(sample.turns[-1], sample.completion)
    if calls is None:  # turns that are not this completion's: dropped, as completion_turns does
        return replace(sample, completion=completion, turns=())
    return replace(sample, completion=completion, turns=(*sample.turns[:-1], completion + calls))


AMBIGUOUS_GOLD = "ambiguous_gold"
"""The name of `Sample.ambiguous_gold`, the field (never a `meta` key) that says a sample's
row holds several gold columns that state different golds (`rewards.io.find_reference`):
its value says which columns and where. Such a sample is never scored against a guessed
column: `rewards.scoring.score_batch` abstains it (`bad_reference`, cause
`bad_reference:ambiguous`) before any reward sees it. A row column or `meta` key of this
name (or the former `_ambiguous_gold`) is data like any other: no input sets the mark."""


def gold_ambiguity(sample: Sample) -> str | None:
    """Why `sample`'s gold is ambiguous (`Sample.ambiguous_gold`), or None."""
    return sample.ambiguous_gold or None


def reference_of(reference: Any, meta: Mapping[str, Any] | None) -> Any:
    """A sample's reference: `reference`, or, where that is None, the constraint columns that
    IFEval and IFBench rows ship instead of one (`instruction_id_list` with `kwargs`) when they
    travel in `meta` (no reference column mapped). The one statement of where a reference is,
    for the rewards that read it and for `rewards.scoring`'s missing/unparseable split."""
    if reference is None and meta and "instruction_id_list" in meta:
        return {"instruction_id_list": meta["instruction_id_list"], "kwargs": meta.get("kwargs")}
    return reference


@dataclass(frozen=True)
class Score:
    """The result of scoring one sample."""

    value: float | None
    """The reward; `None` means abstain (e.g. unparseable gold), never a silent 0."""
    reason: str = "ok"
    """Why: ok | wrong | no_answer | timeout | runtime_error | sandbox_error | bad_reference ..."""
    parts: Mapping[str, float | None] = field(default_factory=dict)
    """Per-component breakdown, logged as `reward/<name>`."""


@runtime_checkable
class Reward(Protocol):
    """Anything that scores a batch of samples, one `Score` per sample, in order."""

    name: str

    def score(self, samples: Sequence[Sample]) -> list[Score]: ...


ScoresReady = Callable[[Sequence[int], Sequence[Score]], None]
"""`ready(indices, scores)`: the final scores of some samples of a batch, by their positions
in it (see `Progressive`)."""


@runtime_checkable
class Progressive(Protocol):
    """A reward that can hand over the scores of a batch's samples as they are decided,
    before the whole batch is (optional; the math reward: those decided without sympy at
    once). `score_progressively(samples, ready)` returns what `score(samples)` returns and,
    before returning, has told `ready` (when not None) every sample's score once, each the
    one it returns: a server hands a request its scores as soon as its own samples are
    decided, never waiting for another request's slowest sample. `ready` is called from the
    thread that called `score_progressively`, one call at a time."""

    def score_progressively(self, samples: Sequence[Sample],
                            ready: ScoresReady | None) -> list[Score]: ...


def score_progressively(reward: Reward, samples: Sequence[Sample],
                        ready: ScoresReady | None) -> list[Score]:
    """`reward.score(samples)` (checked by `check_scores`), telling `ready` the scores as the
    reward decides them where it is `Progressive`, else all of them once it returns.

    What a `Progressive` reward tells is checked as what it returns is: a position outside
    the batch, a sample told twice, or told a score it does not return is a broken reward
    (a `ConfigError` naming it), never passed on, since a server hands a told score to its
    request at once (a position -1 was another request's sample; a second tell inside a
    `Mixture` combined a sample before its other components had scored it). A sample it
    did not tell is told its returned score when it returns."""
    if isinstance(reward, Progressive):
        if ready is None:
            return check_scores(reward, reward.score_progressively(samples, None),
                                len(samples))
        told: dict[int, Score] = {}
        checked = _checked_ready(reward, ready, len(samples), told)
        scores = check_scores(reward, reward.score_progressively(samples, checked),
                              len(samples))
        differs = next((i for i, s in told.items()
                        if s != scores[i] and repr(s) != repr(scores[i])), None)  # (NaN)
        if differs is not None:
            raise ConfigError(f"reward {_name(reward)!r} told sample {differs} the score "
                              f"{told[differs]!r} and returned {scores[differs]!r}")
        rest = [i for i in range(len(samples)) if i not in told]
        if rest:
            ready(rest, [scores[i] for i in rest])
        return scores
    scores = check_scores(reward, reward.score(samples), len(samples))
    if ready is not None:
        ready(range(len(scores)), scores)
    return scores


def _checked_ready(reward: Any, ready: ScoresReady, n: int,
                   told: dict[int, Score]) -> ScoresReady:
    """`ready` for a `Progressive` reward's batch of `n`, each call checked before it is
    passed on (`score_progressively`); `told` collects what was told."""
    def checked(indices: Sequence[int], scores: Sequence[Score]) -> None:
        indices = list(indices)
        if len(indices) != len(scores):
            raise ConfigError(f"reward {_name(reward)!r} told {len(scores)} scores for "
                              f"{len(indices)} positions")
        now: dict[int, Score] = {}
        for i, score in zip(indices, scores):
            if not isinstance(i, int) or not 0 <= i < n:
                raise ConfigError(f"reward {_name(reward)!r} told position {i!r} of a batch "
                                  f"of {n}")
            if i in told or i in now:
                raise ConfigError(f"reward {_name(reward)!r} told sample {i} twice")
            if not isinstance(score, Score):
                raise ConfigError(f"reward {_name(reward)!r} told a {type(score).__name__}, "
                                  "not a Score")
            now[i] = score
        told.update(now)
        ready(indices, scores)
    return checked


def _name(reward: Any) -> str:
    return str(getattr(reward, "name", type(reward).__name__))


def ready_for_part(ready: ScoresReady | None, positions: Sequence[int]) -> ScoresReady | None:
    """`ready` for a part of a batch (the samples a router or wrapper hands an inner reward):
    the part's sample `i` is told as the batch's `positions[i]`."""
    if ready is None:
        return None

    def told(indices: Sequence[int], scores: Sequence[Score]) -> None:
        ready([positions[i] for i in indices], scores)
    return told


@dataclass(frozen=True)
class SampleCheck:
    """What a reward can tell about one sample without running it (`rewards check`)."""

    reference: str | None
    """The reference as the reward reads it (math: the gold answer; code: its tests), for
    people; None when it cannot use it."""
    answer: str | None = None
    """What the reward takes from the completion (math: the final answer; code: the
    program's first line); None: nothing found, or no completion."""
    abstain: str | None = None
    """The reason the reward would abstain with (`bad_reference`), None if it would score."""
    detail: str = ""
    """Why, for people (the parser's message, or why no answer was taken)."""


@runtime_checkable
class Checkable(Protocol):
    """A reward that can check samples without scoring them (optional; `rewards check`).
    Its checks must come from the steps its `score` takes (the same extraction and reference
    parsing), so that the dry run says what scoring will do."""

    def check(self, samples: Sequence[Sample]) -> list[SampleCheck]: ...


def check_scores(reward: Any, scores: Any, n: int) -> list[Score]:
    """What a reward returned for `n` samples, checked: a list of `n` `Score`s. Anything else
    is a broken reward (a `ConfigError` naming it), never a silently shifted or dropped row."""
    name = _name(reward)
    if not isinstance(scores, Sequence) or isinstance(scores, (str, bytes)):
        raise ConfigError(f"reward {name!r} returned {type(scores).__name__}, not a list of "
                          "Scores")
    if len(scores) != n:
        raise ConfigError(f"reward {name!r} returned {len(scores)} scores for {n} samples: a "
                          "Reward returns one Score per sample, in order")
    bad = next((s for s in scores if not isinstance(s, Score)), None)
    if bad is not None:
        raise ConfigError(f"reward {name!r} returned a {type(bad).__name__} among its scores, "
                          "not a Score")
    return list(scores)


class FunctionReward:
    """A batch `Reward` made from a one-sample function (see `reward`)."""

    def __init__(self, fn: Callable[[Sample], float | Score | None], name: str) -> None:
        self.fn = fn
        self.name = name
        functools.update_wrapper(self, fn)

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return [as_score(self.fn(s)) for s in samples]

    def __call__(self, sample: Sample) -> float | Score | None:
        return self.fn(sample)

    def __repr__(self) -> str:
        return f"<reward {self.name}>"


def as_score(result: float | Score | None) -> Score:
    """Normalize what a one-sample function returns: a float, `None` (abstain) or a `Score`."""
    if isinstance(result, Score):
        return result
    if result is None:
        return Score(None, "abstain")
    if isinstance(result, bool):
        return Score(float(result), "ok" if result else "wrong")
    return Score(float(result))


def reward(fn: Callable[[Sample], float | Score | None] | None = None, *,
           name: str | None = None) -> Any:
    """Lift a one-sample function `(sample) -> float | None | Score` to a batch `Reward`.

    Usable bare (`@reward`) or with a name (`@reward(name="length")`).
    """

    def wrap(f: Callable[[Sample], float | Score | None]) -> FunctionReward:
        return FunctionReward(f, name or f.__name__)

    return wrap(fn) if fn is not None else wrap
