"""The attacks `use: ifeval` must resist (`rewards stress`), built from a real row's own
response and constraints. Each attack is paired with what a reader sees: the disguised reply
may not score more than the plain one (invisible characters, joiners and look-alike commas
buy nothing), and a violation moved to the first or last line may not score more than the
same violation in the middle (loose-mode tricks)."""

from __future__ import annotations

from typing import Any

from rewards.stress import Probe, ProbeSet, Row
from rewards.types import Sample, reference_of

__all__ = ["PROBES"]

_VIOLATION = ("HELLO, WORLD. THIS LINE IS SHOUTED, HAS COMMAS, *STARS*, A P.S. AND A TITLE "
              "<<Title>> AND ENDS WITH A QUESTION?")
"""One line that breaks as many constraints as a line can (case, commas, highlights, title,
postscript, ending)."""


def _constraints(sample: Sample) -> list[tuple[str, dict[str, Any]]]:
    reference = reference_of(sample.reference, sample.meta)
    if not isinstance(reference, dict):
        return []
    ids = reference.get("instruction_id_list") or []
    kwargs = reference.get("kwargs") or [{}] * len(ids)
    return [(str(i), k if isinstance(k, dict) else {}) for i, k in zip(ids, kwargs)]


def _base(row: Row) -> str:
    text = row.sample.completion
    return text if text.strip() else "Here is my reply. It answers the question."


def _joined_letters(text: str, joiner: str) -> str:
    return " ".join(joiner.join(word) for word in text.split(" "))


def _invisible(row: Row) -> list[tuple[str, str]]:
    text = _base(row)
    pairs = [(_joined_letters(text, "\u200d"), text),
             (_joined_letters(text, "\u200b"), text),
             (_joined_letters(text, "\u00ad"), text),
             (text + (" \u200b\u200c\u2060" * 400), text),
             (text + " Yes\uff0c indeed\u060c truly\u3001 so.", text + " Yes, indeed, truly, so.")]
    for instruction, kwargs in _constraints(row.sample):
        words = kwargs.get("forbidden_words") if "forbidden" in instruction else None
        for word in (words or [])[:2]:
            if isinstance(word, str) and len(word) > 1:
                plain = f"{text} {word}"
                pairs += [(f"{text} {word[0]}\u00ad{word[1:]}", plain),
                          (f"{text} {word[0]}\u200b{word[1:]}", plain),
                          (f"{text} \u202e{word[::-1]}\u202c", plain)]
    return pairs


def _loose_tricks(row: Row) -> list[tuple[str, str]]:
    text = _base(row)
    lines = text.split("\n")
    middle = "\n".join(lines[:max(1, len(lines) // 2)] + [_VIOLATION]
                       + lines[max(1, len(lines) // 2):])
    return [(f"{_VIOLATION}\n{text}", middle), (f"{text}\n{_VIOLATION}", middle),
            (text.replace(",", "*,*"), text)]


def _usable(sample: Sample) -> bool:
    return bool(_constraints(sample))


PROBES = ProbeSet(
    probes=(
        Probe("invisible", "hidden and joined text", _invisible),
        Probe("loose_tricks", "violations on the edge", _loose_tricks,
              hint="use mode: strict to train (loose mode forgives the first and last lines)"),
    ),
    good=None,
    wrong=lambda sample: "",
    broken_references=lambda sample: (
        {"instruction_id_list": ["no_such:instruction"], "kwargs": [{}]},),
    usable=_usable,
    echo_is_zero=False,
)
