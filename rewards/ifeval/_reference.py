"""A sample's constraints, read from the reference as the datasets ship it:

- IFEval / IFBench rows: `{"instruction_id_list": [...], "kwargs": [{...}, ...]}` (as the
  reference, or the two columns left in `Sample.meta` when no reference column is mapped);
- open-instruct IFEvalG ground truth: `[{"instruction_id": [...], "kwargs": [...]}]`, a list
  or its text (JSON or the Python literal open-instruct writes), an item possibly JSON text;
- open-instruct RLVR-IFeval ground truth: `{"func_name": "...", <arguments>}`, its JSON
  text, or a list of them.

`None` arguments are dropped, as the references drop them."""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping, Sequence
from typing import Any

from rewards.cache import byte_cache
from rewards.ifeval._registry import BadConstraint, Instruction, build_instruction
from rewards.types import reference_of

__all__ = ["MAX_REFERENCE_CHARS", "parse_constraints"]

MAX_REFERENCE_CHARS = 200_000
"""A reference text longer than this is refused (a dataset's is a few hundred characters)."""


def parse_constraints(reference: Any, meta: Mapping[str, Any] | None = None) -> tuple[Instruction, ...]:
    """The constraints of one sample, or `BadConstraint` saying why there are none."""
    reference = reference_of(reference, meta)
    if isinstance(reference, str):
        return _parse_text(reference)
    return _parse(reference)


@byte_cache(32 << 20)
def _parse_text(text: str) -> tuple[Instruction, ...]:
    """Text references repeat across a group's rollouts: parsed once."""
    if len(text) > MAX_REFERENCE_CHARS:
        raise BadConstraint(f"reference text of {len(text):,} characters (at most "
                            f"{MAX_REFERENCE_CHARS:,})")
    return _parse(_load_text(text))


def _load_text(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        pass
    try:  # open-instruct writes its ground truth as a Python literal (single quotes, None)
        return ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise BadConstraint(f"reference is neither JSON nor a Python literal: {_cut(text)}") from None


def _parse(value: Any) -> tuple[Instruction, ...]:
    if value is None:
        raise BadConstraint("no reference (map the dataset's constraint column, e.g. "
                            "ground_truth or instruction_id_list/kwargs)")
    if isinstance(value, str):
        return _parse_text(value)
    if type(value) is dict or isinstance(value, Mapping):
        if "instruction_id_list" in value or "instruction_id" in value:
            ids = value.get("instruction_id_list", value.get("instruction_id"))
            return _instruction_list(ids, value.get("kwargs"))
        if "func_name" in value:
            args = {k: v for k, v in value.items() if k != "func_name"}
            return (build_instruction(value["func_name"], args, function=True),)
        raise BadConstraint("reference has none of instruction_id_list, instruction_id, "
                            f"func_name: keys {sorted(map(str, value))[:8]}")
    if type(value) in (list, tuple) or (isinstance(value, Sequence)
                                            and not isinstance(value, (bytes, bytearray))):
        if not value:
            raise BadConstraint("reference is an empty list")
        found: list[Instruction] = []
        for item in value:
            found.extend(_parse(item))
        return tuple(found)
    raise BadConstraint(f"reference of type {type(value).__name__} is not a constraint list")


def _instruction_list(ids: Any, kwargs: Any) -> tuple[Instruction, ...]:
    if isinstance(ids, str):
        ids = [ids]
    if type(ids) is not list and not isinstance(ids, Sequence) or not ids:
        raise BadConstraint(f"instruction ids must be a non-empty list, not {_cut(repr(ids))}")
    if kwargs is None:
        kwargs = [{}] * len(ids)
    if type(kwargs) is not list and isinstance(kwargs, Mapping) and len(ids) == 1:
        kwargs = [kwargs]
    if (type(kwargs) is not list and (not isinstance(kwargs, Sequence) or isinstance(kwargs, str))
            or len(kwargs) != len(ids)):
        raise BadConstraint(f"{len(ids)} instruction ids but kwargs is {_cut(repr(kwargs))}")
    return tuple(map(build_instruction, ids, kwargs))


def _cut(text: str, width: int = 80) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."
