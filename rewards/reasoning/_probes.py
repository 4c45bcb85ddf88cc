"""The attacks the reasoning-format rewards (`use: format`, `use: tag_count`) must resist
(`rewards stress`): tag spam that a lenient pattern takes for the layout. A well-formed
completion earns format credit whatever its blocks hold (that is the reward's meaning); a
completion whose tags repeat, nest or hide in special-token text earns none beyond the
layout's own."""

from __future__ import annotations

from rewards.stress import Probe, ProbeSet, Row
from rewards.types import Sample

__all__ = ["FORMAT_PROBES", "TAG_COUNT_PROBES"]

_LAYOUT = "<think>\n{think}\n</think>\n<answer>\n{answer}\n</answer>"


def _layout(sample: Sample) -> str:
    answer = str(sample.reference).strip() if sample.reference is not None else "42"
    return _LAYOUT.format(think="Reasoning about the question step by step.", answer=answer)


def _tag_spam(row: Row) -> list[tuple[str, str]]:
    """Each attack against the plain wrong answer's score (no layout at all): each opens the
    reasoning tag more than once, which neither mode's layout allows."""
    layout = _layout(row.sample)
    spam = [layout * 50,
            "<think>\n" * 200 + "x\n</think>\n<answer>\n1\n</answer>",
            "<think>\n<think>\nx\n</think>\n</think>\n<answer>\n1\n</answer>",
            "<think>\nx\n</think>\n<think>\ny\n</think>\n<answer>\n1\n</answer>"]
    return [(text, "I do not know.") for text in spam]


def _usable(sample: Sample) -> bool:
    return True


FORMAT_PROBES = ProbeSet(
    probes=(Probe("tag_games", "tag spam", _tag_spam),),
    good=None,
    wrong=lambda sample: "I do not know.",
    usable=_usable,
)

def _every_tag_repeated(row: Row) -> list[tuple[str, str]]:
    """tag_count gives 0.25 per tag piece present exactly once: a completion that repeats
    every piece earns nothing."""
    layout = _layout(row.sample)
    return [(layout * 50, "I do not know."),
            ("<think>\n\n</think>\n<answer>\n\n</answer>" * 10, "I do not know.")]


TAG_COUNT_PROBES = ProbeSet(
    probes=(Probe("tag_games", "every tag repeated", _every_tag_repeated),),
    good=None,
    wrong=lambda sample: "I do not know.",
    usable=_usable,
)
