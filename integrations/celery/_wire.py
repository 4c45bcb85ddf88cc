"""Samples and scores as JSON-ready values: the only form they take on the broker and in the
result store (the app accepts JSON alone, never pickle)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rewards.errors import InputError
from rewards.types import AMBIGUOUS_GOLD, Sample, Score

__all__ = ["decode_sample", "decode_score", "encode_sample", "encode_score"]


def encode_sample(sample: Sample) -> dict[str, Any]:
    """A sample as a JSON object; `meta` becomes a plain dict. The gold reader's ambiguity
    mark travels as its own key (`Sample.ambiguous_gold`), never inside `meta`: a worker
    abstains such a sample as the client would, and a row's `meta` sets nothing."""
    return {"prompt": sample.prompt, "completion": sample.completion,
            "reference": sample.reference, "domain": sample.domain, "group": sample.group,
            "meta": dict(sample.meta), "turns": list(sample.turns),
            AMBIGUOUS_GOLD: sample.ambiguous_gold}


def decode_sample(data: Mapping[str, Any]) -> Sample:
    try:
        return Sample(prompt=data["prompt"], completion=data["completion"],
                      reference=data.get("reference"), domain=data.get("domain", "default"),
                      group=data.get("group"), meta=data.get("meta") or {},
                      turns=tuple(data.get("turns") or ()),
                      ambiguous_gold=data.get(AMBIGUOUS_GOLD))
    except KeyError as exc:
        raise InputError("sample on the wire lacks a field", field=str(exc.args[0])) from exc


def encode_score(score: Score) -> list[Any]:
    """`[value, reason, parts]`: compact, since a chunk's result holds one per sample."""
    return [_number(score.value), score.reason, {k: _number(v) for k, v in score.parts.items()}]


def decode_score(data: Sequence[Any]) -> Score:
    value, reason, parts = data
    return Score(None if value is None else float(value), str(reason), dict(parts))


def _number(value: float | None) -> float | None:
    # json writes floats by repr, so they come back bit for bit; NaN and inf travel as the
    # literals Python's json reads back. ints and numpy floats become plain floats here.
    return None if value is None else float(value)
