"""The registry: instruction id (or RLVR `func_name`) -> its checker, and how a reference's
keyword arguments become the checker's, checked once per reference.

A reference implementation fills a missing or out-of-range argument with a random value
(`random.randint`, `random.choice`), so its verdict on such a constraint is a draw; here that
constraint is a `BadConstraint` and the sample abstains (`bad_reference`)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from rewards.cache import ByteCache
from rewards.ifeval import _ifbench, _ifeval, _ifevalg, _rlvr
from rewards.ifeval._errors import BadConstraint
from rewards.text import read_text

__all__ = ["FAMILIES", "INSTRUCTIONS", "BadConstraint", "Instruction", "build_instruction"]

Checker = Callable[..., bool]

INSTRUCTIONS: dict[str, Checker] = {**_ifeval.CHECKERS, **_ifevalg.CHECKERS, **_ifbench.CHECKERS}
"""Instruction id (`instruction_id_list` entries) -> checker: IFEval's 25, IFEvalG's 29 and
the 57 of IFBench's 58 that are decided exactly."""
FUNCTIONS: dict[str, Checker] = dict(_rlvr.CHECKERS)
"""RLVR-IFeval `func_name` -> checker."""
FAMILIES: dict[str, tuple[str, ...]] = {
    "ifeval": tuple(_ifeval.CHECKERS),
    "ifevalg": tuple(_ifevalg.CHECKERS),
    "ifbench": tuple(_ifbench.CHECKERS),
    "rlvr": tuple(_rlvr.CHECKERS),
}
"""Which ids each family brings, for docs and `rewards check`."""

_RELATION_ARGS = {"relation", "let_relation", "capital_relation"}
_ZERO_IS_MISSING = {  # IFEvalG tests these with `if not x`: 0 is replaced by a random draw
    "copy:repeat_phrase": ("small_n",), "new:copy_span_idx": ("n_end",),
    "copy:copying_multiple": ("N",), "count:lowercase_counting": ("N",),
    "letters:letter_counting": ("N",), "count:counting_composition": ("n_sent", "n_words"),
    "keywords:keyword_specific_position": ("n", "m"),
    "words:keywords_specific_position": ("n", "m"),
}
_QUANTIFIERS = ("at least", "at most", "around")


@dataclass(frozen=True)
class Instruction:
    """One constraint, ready to check a response."""

    id: str
    """The instruction id (or `func_name`)."""
    check: Callable[[str], bool]
    """The checker with the constraint's arguments bound."""


_BUILT: ByteCache[Any, Instruction] = ByteCache(32 << 20)
"""Built constraints by (id, kwargs): a reference's arguments come from the client, any size."""


def build_instruction(instruction_id: Any, kwargs: Any, *, function: bool = False) -> Instruction:
    """The checker of `instruction_id` with `kwargs` (None values dropped) bound, or a
    `BadConstraint` saying why not. `function`: an RLVR `func_name`. Built constraints are
    kept (a dataset repeats its constraints across rows and a group's rollouts)."""
    key = _key(instruction_id, kwargs, function)
    if key is not None:
        found = _BUILT.get(key)
        if found is not None:
            return found
    built = _build(instruction_id, kwargs, function)
    if key is not None:
        _BUILT.put(key, built)
    return built


def _key(instruction_id: Any, kwargs: Any, function: bool) -> Any:
    """A hashable key for (id, kwargs), or None when a name or a value is not plain data
    (exact types: a subclass, whose `str()` or equality may say otherwise, is built afresh
    each time). Arguments in another order make another key."""
    if type(instruction_id) is not str:
        return None
    if kwargs is None:
        return instruction_id, function, ()
    if type(kwargs) is not dict:  # another mapping's items() may differ on the next call
        return None
    items = []
    for name, value in kwargs.items():
        kind = type(value)
        if type(name) is not str:
            return None
        if kind in _PLAIN:
            items.append((name, kind, value))
        elif kind is list or kind is tuple:
            if not all(type(v) is str for v in value):
                return None
            items.append((name, kind, tuple(value)))
        else:
            return None
    return instruction_id, function, tuple(items)


_PLAIN = frozenset([str, int, float, bool, type(None)])


def _build(instruction_id: Any, kwargs: Any, function: bool) -> Instruction:
    table = FUNCTIONS if function else INSTRUCTIONS
    if not isinstance(instruction_id, str) or instruction_id not in table:
        what = "func_name" if function else "instruction id"
        raise BadConstraint(f"unknown {what} {instruction_id!r}")
    if kwargs is None:
        kwargs = {}
    if not isinstance(kwargs, Mapping):
        raise BadConstraint(f"{instruction_id}: kwargs must be a mapping, not "
                            f"{type(kwargs).__name__}")
    checker = table[instruction_id]
    params = _parameters(checker)
    given = {str(k): v for k, v in kwargs.items() if v is not None}
    if given.keys() != params.keys():
        unknown = sorted(given.keys() - params.keys())
        if unknown:
            raise BadConstraint(f"{instruction_id}: unexpected arguments {unknown} (takes "
                                f"{sorted(params) or 'none'})")
        missing = sorted(params.keys() - given.keys())
        raise BadConstraint(f"{instruction_id}: missing arguments {missing} (the reference "
                            "would draw them at random)")
    bound = {name: _coerce(instruction_id, name, kind, given[name])
             for name, kind in params.items()}
    _check_ranges(instruction_id, bound, function)
    return Instruction(instruction_id, partial(checker, **bound))


def _parameters(checker: Checker) -> dict[str, str]:
    """Keyword-only parameter -> its annotation text (`int`, `str`, `Sequence[str]` ...)."""
    cached = getattr(checker, "_ifeval_params", None)
    if cached is None:
        cached = {p.name: str(p.annotation) for p in inspect.signature(checker).parameters.values()
                  if p.kind is inspect.Parameter.KEYWORD_ONLY}
        try:
            checker._ifeval_params = cached  # type: ignore[attr-defined]  # a function's own cache
        except AttributeError:
            pass
    return cached


def _coerce(instruction_id: str, name: str, kind: str, value: Any) -> Any:
    """`value` as the checker's `kind`; text is read as the response is (`read_text`), so a
    keyword, a phrase to repeat or an end phrase meets the reply's text on equal terms."""
    where = f"{instruction_id}: {name}"
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise BadConstraint(f"{where} must be an integer, not {value!r}")
        if isinstance(value, float) and not value.is_integer():
            raise BadConstraint(f"{where} must be an integer, not {value!r}")
        return int(value)
    if kind == "str":
        if not isinstance(value, str):
            raise BadConstraint(f"{where} must be text, not {value!r}")
        return read_text(value)
    if kind in ("Sequence[str]", "str | Sequence[str]"):
        if isinstance(value, str):
            if kind == "Sequence[str]":
                raise BadConstraint(f"{where} must be a list of text, not {value!r}")
            return read_text(value)
        if isinstance(value, Sequence) and value and all(isinstance(v, str) for v in value):
            return tuple(read_text(v) for v in value)
        raise BadConstraint(f"{where} must be a non-empty list of text, not {value!r}")
    raise BadConstraint(f"{where}: unhandled parameter type {kind!r}")


def _check_ranges(instruction_id: str, args: dict[str, Any], function: bool) -> None:
    """What the reference replaces by a random draw (or rejects) is not decidable here."""
    for name, value in args.items():
        if name in _RELATION_ARGS and value not in _ifeval.RELATIONS:
            raise BadConstraint(f"{instruction_id}: {name} must be one of "
                                f"{_ifeval.RELATIONS}, not {value!r}")
        if name == "quantifier" and value not in _QUANTIFIERS:
            raise BadConstraint(f"{instruction_id}: quantifier must be one of {_QUANTIFIERS}, "
                                f"not {value!r}")
        if isinstance(value, int) and value < 0:
            raise BadConstraint(f"{instruction_id}: {name} must be >= 0, not {value}")
        if isinstance(value, str) and not value.strip() and name not in ("prompt_to_repeat",
                                                                     "reference_text"):
            raise BadConstraint(f"{instruction_id}: {name} is empty")
    if function:
        if instruction_id == "verify_letter_frequency" and len(args["letter"]) != 1:
            raise BadConstraint(f"{instruction_id}: letter must be one character")
        if instruction_id == "validate_paragraphs" and not 1 <= args["i"] <= args["N"]:
            raise BadConstraint(f"{instruction_id}: i must be in 1..N, not {args['i']}")
        return
    zero = [name for name in _ZERO_IS_MISSING.get(instruction_id, ()) if args[name] == 0]
    if zero:
        raise BadConstraint(f"{instruction_id}: {zero[0]} is 0, which the reference reads as "
                            "missing and draws at random")
    if instruction_id == "count:words_japanese" and args["N"] == 0:
        raise BadConstraint(f"{instruction_id}: N is 0, on which the reference raises "
                            "ZeroDivisionError")
    letter = args.get("letter")
    if letter is not None and len(letter.strip()) != 1:
        # the reference draws a random letter for anything but one ASCII letter; a single
        # other character (google/IFEval asks for "#" and "!") is counted as given here
        raise BadConstraint(f"{instruction_id}: letter must be one character, not {letter!r}")
    if instruction_id == "length_constraints:nth_paragraph_first_word" and not (
            0 < args["nth_paragraph"] <= args["num_paragraphs"]):
        raise BadConstraint(f"{instruction_id}: nth_paragraph must be in 1..num_paragraphs")
    if instruction_id == "new:copy_span_idx" and not args["n_start"] < args["n_end"]:
        raise BadConstraint(f"{instruction_id}: n_start must be < n_end")
    if not args.get("prompt_to_repeat", "x").strip():
        raise BadConstraint(f"{instruction_id}: prompt_to_repeat is empty")
    for name in ("keywords", "forbidden_words"):
        if name in args and not all(w.strip() for w in args[name]):
            raise BadConstraint(f"{instruction_id}: {name} holds an empty word")
