"""What a component's probes are: the gold gate's inputs and the attacks, each built from one
real row. A `ProbeSet` lives beside its component (`rewards/math/_probes.py` ...) or on a
plugin's reward as its `probes` attribute; `rewards.stress` runs it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rewards.errors import ConfigError
from rewards.types import Sample, Score

__all__ = ["ATTACK_CLASSES", "INVISIBLE", "Probe", "ProbeSet", "Row", "with_completion"]

ATTACK_CLASSES: dict[str, str] = {
    "hedging": "several answers at once (lists, many boxes, ±, 'or'), the gold among them",
    "meaning_dropped": "words, symbols or units that change the value, dropped by normalization",
    "invisible": "zero-width, format and bidi characters, joiners, look-alike punctuation",
    "special_tokens": "chat-template control text (<|im_end|>, <tool_call>) written by the model",
    "judge_talk": "prose addressed to a grader, in any script or spelling",
    "no_commitment": "cut-off or retracted answers, a number found in passing",
    "degenerate": "huge expressions, token soup, thousands of repeats: cost bounded first",
    "exit_forgery": "sys.exit(0), os._exit, atexit, SystemExit, printing the harness's text",
    "lenient_compare": "always-equal objects, float for int, NaN, str/int confusion",
    "hard_coding": "expected outputs by lookup of the visible tests",
    "tampering": "patched builtins, assertions, the harness's names, test files",
    "state_between_runs": "state left by one program for the next on a warm server",
    "resources": "fork, memory and output floods, sleeps that hold a batch's tail",
    "masking": "malformed model output that makes a parser raise or abstain",
    "loose_tricks": "violations moved to a first or last line, keyword stuffing, padding",
    "tag_games": "tag spam and length games around reasoning tags",
    "position_bias": "a judge's verdict that follows the order two responses are shown in",
}
"""The attack classes of shared/ATTACK-CLASSES.md that a probe can belong to."""

INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u202e\u2066"
"""One of each kind of character a reader must not count as text: zero-width space,
non-joiner, joiner, word joiner, BOM, soft hyphen, a bidi override and an isolate."""


@dataclass(frozen=True)
class Row:
    """One real row a probe builds from: the sample as the user's data has it, and what is
    known about it before any attack (a known-good completion, a plain wrong one)."""

    sample: Sample
    good: str | None
    """A completion that earns full marks on this row (the gold in the component's layout,
    or a program that passes), or None when none is known."""
    wrong: str
    """An honest wrong completion: what an attack's score is compared against."""


@dataclass(frozen=True)
class Probe:
    """One attack: completions (or samples, for two-run attacks) built from a row. Credit is a
    score above the row's honest wrong answer's; an abstention on model output is masking,
    counted as a failure too."""

    cls: str
    """Its class, a key of `ATTACK_CLASSES`."""
    name: str
    build: Callable[[Row], Sequence[str | Sample | tuple[str, str]]]
    """The attack completions for one row (empty: the probe does not apply to it). A `Sample`
    replaces the row's whole sample (another reference or meta); str replaces the completion;
    a pair (attack, what a reader sees) is judged against the plain text's own score."""
    doc: str = ""
    runs_in_order: bool = False
    """Score the built samples one call each, in order (state left by one run for the next):
    only the last one's score is judged; the earlier ones set the stage."""
    hint: str = ""
    """What to change when the probe earns credit (an option of the component), shown with a
    failure."""
    max_value: float | None = None
    """Credit also when the score reaches this (for attacks whose honest baseline is not
    known), besides the comparison against the row's wrong answer."""
    judge: Callable[[Sequence[Score]], tuple[int, str] | None] | None = None
    """Decides credit itself from the scores of the built samples (in order), instead of the
    comparison against the row's wrong answer: for attacks judged by consistency (a pair in
    both orders) or against a clean text built beside them. Returns the index of the sample
    that earned credit and why, or None. An abstention still counts as masking."""

    def __post_init__(self) -> None:
        if self.cls not in ATTACK_CLASSES:
            raise ConfigError(f"probe {self.name!r}: unknown attack class {self.cls!r} (one of "
                              f"{', '.join(sorted(ATTACK_CLASSES))})")


@dataclass(frozen=True)
class ProbeSet:
    """Everything `rewards stress` needs to attack one component."""

    probes: tuple[Probe, ...]
    good: Callable[[Sample], Sequence[str]] | None = None
    """Completions that must earn full marks for a row (the reference in every layout the
    component reads); None: the component has no gold answer to write (constraints, judges)."""
    wrong: Callable[[Sample], str] = field(default=lambda sample: "I do not know.")
    """An honest wrong completion for a row."""
    broken_references: Callable[[Sample], Sequence[Any]] = field(default=lambda sample: ())
    """References a row could carry that are broken: each must abstain (`bad_reference...`)."""
    usable: Callable[[Sample], bool] = field(default=lambda sample: True)
    """Which rows the set can build from (a row of another component's kind is skipped)."""
    echo_is_zero: bool = True
    """A reply that only echoes the prompt must score 0 (not for rewards that grade form)."""
    blank_at_most_wrong: bool = False
    """Empty, blank and invisible replies must score no more than the honest wrong answer,
    instead of exactly 0 (for rewards whose scale is a penalty or a bonus on length)."""
    tolerance: float = 0.0
    """How far a score may rise above the one it is compared with before the rise counts:
    0 for rules; a learned judge moves a little under any change of text, so its probes
    allow that much (in the component's score units) in the relative gate checks, the
    comparison against the wrong answer and their own `judge`."""


def with_completion(sample: Sample, completion: str) -> Sample:
    """`sample` with `completion` as a new text completion: a probe's attack is the whole
    completion, so the row's own turns (`Sample.turns`) are not carried."""
    return replace(sample, completion=completion, turns=())
