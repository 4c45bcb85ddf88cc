"""`IFEvalReward`: instruction following as a verifiable reward (`use: ifeval`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rewards.errors import ConfigError
from rewards.ifeval._reference import parse_constraints
from rewards.ifeval._registry import BadConstraint, Instruction
from rewards.options import check_fields, check_range, load_options
from rewards.text import is_blank_read, read_text
from rewards.types import Sample, Score

__all__ = ["IFEvalConfig", "IFEvalReward", "follows", "loose_variants", "verdicts"]

Mode = Literal["strict", "loose"]
PassMode = Literal["fraction", "all"]


@dataclass(frozen=True)
class IFEvalConfig:
    """Options of the `ifeval` reward."""

    mode: Mode = "strict"
    """`strict`: the response as it is; `loose` (IFEval's loose accuracy, an evaluation
    metric): a constraint also counts as followed on the response with its first line, its
    last line or both removed, each also with every `*` removed. Refused unless `allow_loose`."""
    allow_loose: bool = False
    """Allow `mode: loose`. Loose mode forgives a violation on the first or last line (or in
    `*`s), so a policy trained on it learns to put its violations there and scores 1.0: it
    measures a model, it does not train one. Set it to evaluate."""
    pass_mode: PassMode = "fraction"
    """`fraction`: the share of constraints followed (open-instruct's reward); `all`: 1.0
    only when every constraint is followed (IFEval's prompt-level accuracy)."""
    max_chars: int = 100_000
    """A longer completion is not checked: 0.0 with reason `too_long` (every check is linear,
    this bounds its cost)."""

    def __post_init__(self) -> None:
        check_fields(self, where="ifeval reward")
        check_range("max_chars", self.max_chars, ge=1)
        if self.mode == "loose" and not self.allow_loose:
            raise ConfigError(
                "mode: loose is IFEval's evaluation metric, not a training reward: it counts a "
                "constraint as followed when the violation sits on the first or last line (or "
                "inside `*`), so a policy learns to put it there and scores 1.0. Use mode: "
                "strict to train; to evaluate with loose accuracy, say so with allow_loose: "
                "true (docs/instruction-following.md)")


def loose_variants(response: str) -> list[str]:
    """The eight texts loose mode checks, in the reference's order."""
    first, last, both = _without_end_lines(response)
    return [response, response.replace("*", ""), first, last, both,
            first.replace("*", ""), last.replace("*", ""), both.replace("*", "")]


def _without_end_lines(response: str) -> tuple[str, str, str]:
    """The response without its first line, without its last, without both (stripped)."""
    lines = response.split("\n")
    return ("\n".join(lines[1:]).strip(), "\n".join(lines[:-1]).strip(),
            "\n".join(lines[1:-1]).strip())


def _other_texts(response: str) -> list[str]:
    """The non-blank `loose_variants` after the response itself, in order, less those that
    are the response or another one by construction: without `*` there is nothing to remove,
    and one line has nothing left without its first or last (a text left twice would only be
    checked twice, to the same verdict)."""
    stars = "*" in response
    texts = [response.replace("*", "")] if stars else []
    if "\n" in response:
        cut = _without_end_lines(response)
        texts += cut
        if stars:
            texts += [text.replace("*", "") for text in cut]
    # cut from a text already read: read as it is (`read_text` is idempotent)
    return [text for text in texts if not is_blank_read(text)]


def follows(instruction: Instruction, response: str, mode: Mode = "strict") -> bool:
    """Whether `response` follows `instruction`: a blank text follows nothing."""
    return verdicts([instruction], response, mode)[0]


def verdicts(instructions: Sequence[Instruction], response: str, mode: Mode = "strict") -> list[bool]:
    """`follows` for each instruction, on `response` as `rewards.text.read_text` reads it
    (invisible and format characters removed, bidi overrides applied, look-alike commas read
    as `,`, NFC): every checker sees that text, and a reply of invisible characters is blank."""
    return _read_verdicts(instructions, read_text(response), mode)


def _read_verdicts(instructions: Sequence[Instruction], response: str, mode: Mode) -> list[bool]:
    """`verdicts` on a text already read. Loose mode checks the response itself first (every
    loose text of a blank response is blank) and makes the other texts (`_other_texts`) only
    when an instruction is not followed by it."""
    if is_blank_read(response):  # nothing a reader sees (`rewards.text.is_blank`)
        return [False] * len(instructions)
    found = [bool(i.check(response)) for i in instructions]
    if mode == "strict" or all(found):
        return found
    others = _other_texts(response)
    return [ok or any(i.check(text) for text in others) for i, ok in zip(instructions, found)]


class IFEvalReward:
    """Instruction following (IFEval, IFEvalG, IFBench, RLVR-IFeval constraints): the share of the
    sample's constraints the completion follows (or 1/0 with `pass_mode: all`); `parts`
    holds each constraint's verdict under its instruction id. An unknown instruction id or
    arguments the reference would replace by a random draw abstain (`None`, reason
    `bad_reference`). Options: the fields of `IFEvalConfig`."""

    name = "ifeval"
    kind = "verifiable"

    def __init__(self, **options: Any) -> None:
        self.config = load_options(IFEvalConfig, options, where="ifeval reward")

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return [self.score_one(s) for s in samples]

    def score_one(self, sample: Sample) -> Score:
        try:
            instructions = parse_constraints(sample.reference, sample.meta)
        except BadConstraint:
            return Score(None, "bad_reference")
        text = sample.completion if isinstance(sample.completion, str) else ""
        if len(text) > self.config.max_chars:
            return Score(0.0, "too_long", _parts(instructions, [False] * len(instructions)))
        text = read_text(text)
        found = _read_verdicts(instructions, text, self.config.mode)
        followed = sum(found)
        if self.config.pass_mode == "all":
            value = 1.0 if followed == len(found) else 0.0
        else:
            value = followed / len(found)
        reason = "ok" if followed == len(found) else ("no_answer" if is_blank_read(text) else "wrong")
        return Score(value, reason, _parts(instructions, found))

    def check(self, samples: Sequence[Sample]) -> list[Any]:
        """What `rewards check` reports: the constraints each reference holds."""
        from rewards.check import SampleCheck

        checks = []
        for s in samples:
            try:
                instructions = parse_constraints(s.reference, s.meta)
            except BadConstraint as exc:
                checks.append(SampleCheck(None, None, "bad_reference", str(exc)))
                continue
            ids = ", ".join(i.id for i in instructions)
            noun = "constraint" if len(instructions) == 1 else "constraints"
            followed = None
            if s.completion:  # scoring's own verdict (max_chars, mode), not a second copy
                score = self.score_one(s)
                followed = (f"too long: scores {score.value} (over max_chars "
                            f"{self.config.max_chars:,})" if score.reason == "too_long" else
                            f"follows {round(sum(v for v in score.parts.values() if v is not None))} of {len(instructions)}")
            checks.append(SampleCheck(f"{len(instructions)} {noun}: {ids}", followed))
        return checks

    def __repr__(self) -> str:
        return f"IFEvalReward({self.config})"


def _parts(instructions: Sequence[Instruction], verdicts: Sequence[bool]) -> dict[str, float]:
    parts: dict[str, float] = {}
    for instruction, ok in zip(instructions, verdicts):
        key, n = instruction.id, 2
        while key in parts:  # the same id twice in one reference
            key, n = f"{instruction.id}#{n}", n + 1
        parts[key] = 1.0 if ok else 0.0
    return parts
