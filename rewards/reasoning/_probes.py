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


# --- the shaping rewards: steps, repetition and length ------------------------------------

def _base(row: Row) -> str:
    text = row.sample.completion
    return text if text.strip() else "We add the two numbers and carry the one."


def _empty_steps(row: Row) -> list[tuple[str, str]]:
    """Step markers with nothing in the steps earn no more than no steps at all."""
    return [("Step 1:\nStep 2:\nStep 3:\nStep 4:", "I do not know."),
            ("First,\nSecond,\nNext,\nFinally,", "I do not know."),
            ("\n-\n-\n-\n*\n*", "I do not know."),
            ("Step 1:\u200b\nStep 2:\u200b\nStep 3:\u200b", "I do not know.")]


def _sprinkled_loop(row: Row) -> list[tuple[str, str]]:
    """A loop whose every repeat carries zero-width characters in other places scores no
    better than the plain loop a reader sees."""
    words = ["the", "cat", "sat", "on", "the", "mat"]
    plain = " ".join(words * 30)
    sprinkled = " ".join(w[:1] + "\u200b" * (i % 7 + 1) + w[1:]
                         for i, w in enumerate(words * 30))
    return [(sprinkled, plain), (_base(row) + " " + sprinkled, _base(row) + " " + plain)]


def _invisible_length(row: Row) -> list[tuple[str, str]]:
    """Invisible padding buys no length credit: the padded text scores no more than the
    text a reader sees."""
    text = _base(row)
    return [(text + "\u200b" * 3000, text), (text + "\u2060\u200c" * 1500, text),
            ("\u00ad".join(text), text)]


STEPS_PROBES = ProbeSet(
    probes=(Probe("tag_games", "empty step markers", _empty_steps),),
    good=None, wrong=lambda sample: "I do not know.", usable=_usable)

REPETITION_PROBES = ProbeSet(
    probes=(Probe("invisible", "zero-width in a loop", _sprinkled_loop),),
    good=None, wrong=lambda sample: "I do not know.", usable=_usable)

LENGTH_PROBES = ProbeSet(
    probes=(Probe("invisible", "invisible length", _invisible_length),),
    good=None, wrong=lambda sample: "I do not know.", usable=_usable,
    blank_at_most_wrong=True, echo_is_zero=False)
"""For `cosine`, `length` and `overlong`: length is what they grade (a penalty or a bonus,
so an empty reply scores as an honest wrong one does, not 0, and an echo of the prompt by its
length); their correctness component (`of:`) is stressed as its own component."""
