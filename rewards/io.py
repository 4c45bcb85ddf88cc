"""Reading input rows, the one reader every command uses (`rewards score`, `check`,
`filter-prompts`, `train`): rollout rows into `Sample`s, prompt rows into `PromptRecord`s (one
id rule for every command: the row's `id`, or one derived from its content), and writing
result rows.

Inputs (`iter_rows`): JSONL, a JSON array of objects (`.json`), Parquet, CSV/TSV, Arrow IPC
(`.arrow`, `.feather`), a folder written by Hugging Face `datasets`' `save_to_disk`, and in
Python a `datasets.Dataset`, `IterableDataset`, pyarrow `Table` or a list of dicts.
`--map` names columns by dotted path into nested ones (`reward_model.ground_truth=reference`,
veRL's layout); `--domain-map` maps a dataset's domain values onto a config's domains
(`openai/gsm8k=math`). A completion may be text or chat messages: a `Sample` keeps the
messages, and every reward reads them by the one rule of `rewards.completion` (the answer is
the last assistant turn, the tool calls those of every assistant turn).

Every input row yields a result or an error naming the file, the line (the file line for
JSONL, the 1-based row for every other kind) and the field: nothing is silently dropped."""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from rewards._inputs import (
    count_rows,
    input_kind,
    input_source,
    iter_rows,
    open_parquet,
    source_fingerprint,
    source_name,
)
from rewards.completion import completion_text, read_completion
from rewards.errors import InputError
from rewards.text import read_text
from rewards.types import Sample

__all__ = ["PROMPT_FIELDS", "REFERENCE_COLUMNS", "SAMPLE_FIELDS", "ErrorRow", "Gold", "PromptRecord", "column_key",
           "column_of", "completion_text", "count_rows", "derive_id", "find_reference", "gold_columns", "input_kind",
           "input_source", "is_flag_label", "iter_rows", "iter_samples", "map_domain", "open_output", "open_parquet",
           "parse_domain_map", "parse_map", "prompt_record", "prompt_sample", "read_prompts", "row_id", "row_to_sample", "same_gold",
           "source_fingerprint", "source_name", "write_row"]

SAMPLE_FIELDS = ("prompt", "completion", "reference", "domain", "group", "id", "meta")
"""The fields a rollout row's columns map onto (`rewards score --map`); `id` travels to the
output rows."""
PROMPT_FIELDS = ("id", "prompt", "reference", "domain")
"""The fields a prompt row's columns map onto (`filter-prompts --map`, training prompts)."""
REFERENCE_COLUMNS = ("reference", "solution", "answer", "ground_truth", "label")
"""Where a row's gold is when no `--map COLUMN=reference` (or adapter argument) names its
column (`find_reference`, the one rule of every entry point: `rewards score`/`check`, the
loops and the filter, every adapter): this project's `reference` (the field's own name, so
named, not guessed), else TRL's `solution`, GSM8K's `answer`, veRL's `ground_truth`,
OpenRLHF's `label`, read together: several that hold golds that differ make the row's gold
ambiguous, never the first guessed (a rollout file's `answer` is often the model's own
extracted answer: read as the gold it made every answer right)."""

# --- options ---------------------------------------------------------------------------------


def parse_map(spec: str | Sequence[str] | None,
              fields: Sequence[str] = SAMPLE_FIELDS) -> dict[str, str]:
    """`--map` option(s): 'solution_str=completion,reward_model.ground_truth=reference' ->
    {column: field}, each field one of `fields`; a column is a name or a dotted path into
    nested columns. Repeated options (a list) are joined."""
    mapping: dict[str, str] = {}
    for item in _items(spec):
        column, sep, target = (part.strip() for part in item.partition("="))
        if not sep or not column or target not in fields:
            raise InputError(f"bad --map entry {item!r}: use COLUMN=FIELD with FIELD one of "
                             f"{', '.join(fields)}")
        if target in mapping.values():
            first = column_of(mapping, target)
            raise InputError(f"bad --map entry {item!r}: {first!r} already maps onto {target}")
        mapping[column] = target
    return mapping


def parse_domain_map(spec: str | Sequence[str] | None) -> dict[str, str]:
    """`--domain-map` option(s): 'openai/gsm8k=math,codeparrot/apps=code' -> {value: domain}:
    a row whose domain (e.g. veRL's `data_source`) is `value` is scored as `domain`."""
    domains: dict[str, str] = {}
    for item in _items(spec):
        value, sep, domain = (part.strip() for part in item.rpartition("="))
        if not sep or not value or not domain:
            raise InputError(f"bad --domain-map entry {item!r}: use VALUE=DOMAIN, e.g. "
                             "openai/gsm8k=math")
        domains[value] = domain
    return domains


def _items(spec: str | Sequence[str] | None) -> list[str]:
    specs = [spec] if isinstance(spec, str) else list(spec or ())
    return [item for text in specs for item in text.split(",") if item.strip()]


# --- rows into fields ------------------------------------------------------------------------


@dataclass(frozen=True)
class Gold:
    """Where a row's gold is (`find_reference`)."""

    found: bool
    """A gold column is in the row (null or not)."""
    value: Any = None
    """The gold: the named column's value, or the first of the columns tried holding one."""
    column: str | None = None
    """The column it came from (None: no column held one)."""
    ambiguity: str | None = None
    """Why the gold is ambiguous (several columns hold golds that differ), else None: such a
    row is never scored against a guessed column (`rewards.types.AMBIGUOUS_GOLD`)."""


def find_reference(columns: Mapping[str, Any], name: str | None = None, *,
                   first: Sequence[str] = ()) -> Gold:
    """A row's gold, the one rule of every entry point (`rewards score`/`check`,
    `filter-prompts`, the loops, every adapter, NeMo Gym's `expected_answer`, which it tries
    `first`): the column `name` when one is named (`--map COLUMN=reference`, an adapter's
    `reference_column`: exactly that column); else the first of the columns `first` (a
    protocol's own gold field) and `reference` (the field's own name), spelled exactly, that
    holds a value: these are named, not guessed; else every gold column (`gold_columns`: a
    column whose name reads as one of `first` or `REFERENCE_COLUMNS`, `Label` and `label\\u200b`
    as `label`) that holds a value (a dataset of rows with different gold columns has every
    column, null where a row has none). One such column is the gold.
    Several are the gold only when they state the same
    gold (`same_gold`: MATH's `solution` ending in `\\boxed{5}` beside its `answer` `5`) and
    none is a `label` that reads as a correctness flag (0/1, true/false: `is_flag_label`);
    otherwise the row's gold is ambiguous (a rollout file's `answer` is often the model's own
    answer, its `label` the gold or a correctness flag), `Gold.ambiguity` says so and which
    columns, and no column is guessed (docs/datasets.md#the-gold-column)."""
    if name is not None:
        return Gold(name in columns, columns.get(name), name)
    for column in (*first, "reference"):  # named as the field itself: named, not guessed
        if columns.get(column) is not None:
            return Gold(True, columns[column], column)
    present = gold_columns(columns, first)
    held = [(column, columns[column]) for column in present if columns[column] is not None]
    if not held:
        return Gold(bool(present))
    (column, value), others = held[0], held[1:]
    flag = next((c for c, v in held if others and is_flag_label(c, v)), None)
    if flag is not None:  # a 0/1 or true/false `label` beside another gold: a flag or a gold?
        other = next(c for c, _ in held if c != flag)
        why = (f"ambiguous gold: columns {other!r} ({_shown(columns[other])}) and {flag!r} "
               f"({_shown(columns[flag])}, which may be a correctness flag)")
        return Gold(True, value, column, why + _NAME_IT)
    for other, gold in others:
        if not same_gold(value, gold):
            why = (f"ambiguous gold: columns {column!r} ({_shown(value)}) and {other!r} "
                   f"({_shown(gold)}) differ")
            return Gold(True, value, column, why + _NAME_IT)
    return Gold(True, value, column)


_NAME_IT = "; name the gold column (rewards score --map COLUMN=reference, an adapter's " \
           "reference_column)"


def gold_columns(columns: Mapping[str, Any], first: Sequence[str] = ()) -> list[str]:
    """The columns of a row that `find_reference` reads as gold columns when none is named,
    in its order (those of `first`, then of `REFERENCE_COLUMNS`, each in the row's order): a
    column whose name, read as every name is read (`column_key`), is one of theirs. A gold
    under `Label`, `label `, `label\\u200b` or `ground\\u2010truth` is a gold column like
    `label` or `ground_truth`, never an unread column beside the model's `answer`."""
    order = _gold_order(first) if first else _DEFAULT_ORDER
    found = [(order[key], i, c) for i, c in enumerate(columns)
             if isinstance(c, str) and (key := column_key(c)) in order]
    return [c for _, _, c in sorted(found)]


def _gold_order(first: Sequence[str]) -> dict[str, int]:
    """Each gold column's read name, by its rank in `find_reference`'s order."""
    return {column_key(c): i for i, c in enumerate(dict.fromkeys((*first, *REFERENCE_COLUMNS)))}


def column_key(name: str) -> str:
    """A column name as the gold rule reads it: by the reading rule of every text
    (`rewards.text.read_text`: invisible characters removed, look-alike letters read in
    Latin), compatibility forms folded (NFKC: full-width letters), casefolded, stripped,
    and each run of spaces, hyphens and dashes read as `_` (`Ground-Truth`, `ground truth`
    and `ground_truth` are one name)."""
    text = read_text(name)
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    return _SEPARATORS.sub("_", text.casefold().strip())


_SEPARATORS = re.compile(r"[\s_\-\u2010-\u2015\u2212\ufe58\ufe63\uff0d]+")
_DEFAULT_ORDER = _gold_order(())
_FLAG_TEXTS = frozenset({"0", "1", "true", "false"})


def is_flag_label(column: str, value: Any) -> bool:
    """Whether a gold column is a `label` (by `column_key`) whose value reads as a correctness
    flag: a boolean, the number 0 or 1, or the text `0`, `1`, `true` or `false`. Beside
    another gold column it cannot be told from a flag saying whether that column is right
    (reward-model and PRM data ship such labels), so the row is ambiguous; alone, it is the
    gold as written. Only `label`: it is the name correctness flags go by in the wild;
    `answer`, `solution`, `ground_truth` and `reference` name an answer, and 0 and 1 are
    answers there (GSM8K has both)."""
    if column_key(column) != "label":
        return False
    if isinstance(value, (bool, int, float)):
        return value in (0, 1)
    return isinstance(value, str) and value.strip().casefold() in _FLAG_TEXTS


def same_gold(first: Any, second: Any) -> bool:
    """Whether two gold columns of one row state the same gold: the same text (stripped), or,
    for text and numbers, the same answer as the math verifier reads a gold
    (`rewards.math.same_reference`: a worked solution's box and the bare answer). A boolean
    is a correctness flag, never a gold: it is the same as nothing else. The rule is the
    row's, not one reward's: whichever reward scores the row reads the gold column, and it
    must not depend on which column the reader guessed. Text equality is the whole rule for
    golds that are not answers (tests, rubrics): the math reading of such text is whole,
    matching only the same text."""
    if isinstance(first, bool) or isinstance(second, bool):
        return first is second
    if _gold_text(first) == _gold_text(second):
        return True
    if not all(isinstance(v, (str, int, float)) for v in (first, second)):
        return False
    from rewards.math import same_reference  # the verifier's reading, only for this case

    return same_reference(first, second)


def _gold_text(value: Any) -> str:
    if isinstance(value, str):
        return value.strip()
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _read_reference(fields: dict[str, Any], rest: dict[str, Any],
                    mapping: Mapping[str, str], source: str | None, line: int | None
                    ) -> str | None:
    """A row's reference by `find_reference`'s rule where no `--map` entry names its column:
    `fields["reference"]` is set from the gold columns, and those columns leave `rest` (they
    are the gold, not the row's other columns). Returns why the gold is ambiguous (naming
    the file, line and columns: `Sample.ambiguous_gold`, by which the row abstains), else
    None: the mark is the reader's alone, never a column's."""
    if "reference" in mapping.values():
        return None
    columns = {**rest, **({"reference": fields["reference"]} if "reference" in fields else {})}
    gold = find_reference(columns)
    if gold.found:
        fields["reference"] = gold.value
    for column in gold_columns(rest):
        del rest[column]
    if gold.ambiguity is None:
        return None
    return str(InputError(gold.ambiguity, source=source, line=line, field=gold.column))


def _map_row(row: Mapping[str, Any], mapping: Mapping[str, str], fields: Sequence[str],
             source: str | None, line: int | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """(value per field, the other columns). A mapped column wins over a column named like
    its field; a dotted column path that is not in the row is an `InputError`."""
    values: dict[str, Any] = {}
    for column, target in mapping.items():
        if column in row:
            values[target] = row[column]
        elif "." in column:
            values[target] = _at_path(row, column, source, line)
    rest: dict[str, Any] = {}
    for key, value in row.items():
        if key in mapping:
            continue
        if key in fields and key not in values:
            values[key] = value
        else:
            rest[key] = value
    return values, rest


def _at_path(row: Mapping[str, Any], path: str, source: str | None, line: int | None) -> Any:
    node: Any = row
    walked: list[str] = []
    for part in path.split("."):
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            where = ".".join(walked)
            if not walked:
                why = f"no column {part!r} (columns: {_names(row)})"
            elif isinstance(node, Mapping):
                why = f"{where!r} has no key {part!r} (keys: {_names(node)})"
            elif isinstance(node, list):
                why = f"{where!r} is a list of {len(node)}, no index {part!r}"
            else:
                why = f"{where!r} is {'null' if node is None else type(node).__name__}, " \
                      "not a mapping"
            raise InputError(f"missing column path {path!r}: {why}", source=source, line=line,
                             field=path)
        walked.append(part)
    return node


def _names(node: Mapping[str, Any]) -> str:
    names = sorted(map(str, node))
    return ", ".join(names[:12]) + (", ..." if len(names) > 12 else "") if names else "none"


def row_id(row: Mapping[str, Any], mapping: Mapping[str, str] | None = None) -> Any:
    """The row's id (the column mapped onto `id`, else `id`), or None; never raises."""
    column = column_of(mapping or {}, "id")
    if column in row:
        return row[column]
    try:
        return _at_path(row, column, None, None) if "." in column else None
    except InputError:
        return None


def row_to_sample(row: Mapping[str, Any], *, mapping: Mapping[str, str] | None = None,
                  domain_map: Mapping[str, str] | None = None, source: str | None = None,
                  line: int | None = None, completion_required: bool = True) -> Sample:
    """Validate one row into a `Sample`. Unknown columns travel in `meta`, so does the id
    (`meta["id"]`). `completion_required=False` (a prompt row checked by `rewards check`):
    a missing completion is the empty text."""
    mapping = mapping or {}
    fields, meta = _map_row(row, mapping, SAMPLE_FIELDS, source, line)
    ambiguity = _read_reference(fields, meta, mapping, source, line)
    if "meta" in fields:
        extra = fields.pop("meta")
        if isinstance(extra, Mapping):
            meta.update(extra)
        else:
            meta[column_of(mapping, "meta")] = extra
    if fields.get("id") is not None:
        meta["id"] = fields["id"]

    def bad(message: str, field: str) -> InputError:
        return InputError(message, source=source, line=line, field=column_of(mapping, field))

    completion = fields.get("completion")
    if completion is None:
        if completion_required:
            raise bad("missing completion", "completion")
        completion = ""
    try:
        completion, turns = read_completion(completion)
    except InputError as exc:
        raise bad(exc.detail, "completion") from None
    prompt = fields.get("prompt", "")
    if prompt is None:
        prompt = ""
    if not isinstance(prompt, (str, list)):
        raise bad(f"prompt must be a string or a list of chat messages, got "
                  f"{type(prompt).__name__}", "prompt")
    domain = _domain(fields, domain_map, bad)
    group = fields.get("group")
    if group is not None and not isinstance(group, (str, int)):
        raise bad(f"group must be a string or an integer, got {type(group).__name__}", "group")
    for name, text in (("domain", domain), ("group", group)):
        if isinstance(text, str) and not _is_unicode(text):
            raise bad(f"{name} is not valid Unicode (a lone surrogate such as \\ud800)", name)
    return Sample(prompt=prompt, completion=completion, reference=fields.get("reference"),
                  domain=domain, group=None if group is None else str(group), meta=meta,
                  turns=turns, ambiguous_gold=ambiguity)


def _domain(fields: Mapping[str, Any], domain_map: Mapping[str, str] | None, bad: Any) -> str:
    domain = fields.get("domain") or "default"
    if not isinstance(domain, str):
        raise bad(f"domain must be a string, got {type(domain).__name__}", "domain")
    return map_domain(domain, domain_map)


def map_domain(domain: str, domain_map: Mapping[str, str] | None) -> str:
    """The config domain a row of `domain` is scored as (`--domain-map`; unmapped: itself)."""
    return (domain_map or {}).get(domain, domain)


def iter_samples(source: str | Path | Any, *, mapping: Mapping[str, str] | None = None,
                 domain_map: Mapping[str, str] | None = None
                 ) -> Iterator[tuple[int, Sample | InputError]]:
    """(line, sample or error) for every row of `source` (a path or a `datasets.Dataset`):
    `iter_rows`, then `row_to_sample`."""
    name = source_name(source)
    for line, row in iter_rows(source):
        if isinstance(row, InputError):
            yield line, row
            continue
        try:
            sample: Sample | InputError = row_to_sample(
                row, mapping=mapping, domain_map=domain_map, source=name, line=line)
        except InputError as exc:
            sample = exc
        yield line, sample


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# --- outputs ---------------------------------------------------------------------------------


@contextlib.contextmanager
def open_output(out: Path, *, inputs: Sequence[Path]) -> Iterator[TextIO]:
    """Open the output JSONL for writing. An output that is one of `inputs` (it would be
    truncated before it is read) or that cannot be written is an `InputError`."""
    for path in inputs:
        if out.resolve() == path.resolve() or (out.exists() and path.exists()
                                               and out.samefile(path)):
            raise InputError(f"--out {out} is an input of this run; write the scores to "
                             "another file", source=str(out))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        fh = out.open("w", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write the output: {exc.strerror or exc}",
                         source=str(out)) from exc
    with fh:
        yield fh


def write_row(fh: TextIO, row: Mapping[str, Any], out: Path) -> None:
    """One result row as a JSON line. Text that UTF-8 cannot hold (a lone surrogate in an
    error message) is escaped rather than lost; a failing disk is an `InputError`."""
    try:
        line = json.dumps(row, ensure_ascii=False, default=str)
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(row, ensure_ascii=True, default=str)
    try:
        fh.write(line + "\n")
    except OSError as exc:
        raise InputError(f"cannot write the output: {exc.strerror or exc}",
                         source=str(out)) from exc


# --- prompt rows ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ErrorRow:
    """A row that could not be used, and why."""

    file: str
    line: int | None
    field: str | None
    error: str

    @classmethod
    def of(cls, exc: InputError) -> ErrorRow:
        return cls(exc.source or "", exc.line, exc.field, exc.detail)

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "field": self.field, "error": self.error}


@dataclass(frozen=True)
class PromptRecord:
    """One valid prompt row."""

    id: str
    line: int
    row: dict[str, Any]
    """The row as read (original column names), with `id` added when it was derived."""
    prompt: str | list[dict[str, Any]]
    reference: Any
    domain: str
    meta: Mapping[str, Any] = field(default_factory=dict)
    """The row's other columns (those not mapped onto a field)."""
    ambiguous_gold: str | None = None
    """Why the row's gold columns state different golds (`find_reference`), else None: its
    rollouts abstain (`Sample.ambiguous_gold`)."""


def prompt_record(row: Mapping[str, Any], *, mapping: Mapping[str, str] | None = None,
                  domain_map: Mapping[str, str] | None = None, source: str | None = None,
                  line: int = 0) -> PromptRecord:
    """Validate one prompt row into a `PromptRecord` (`read_prompts` reads every row so)."""
    return _prompt_record(dict(row), mapping or {}, domain_map or {}, source or "<rows>", line)


def prompt_sample(record: PromptRecord, completion: str) -> Sample:
    """A rollout of a prompt as a `Sample`: the one rule for every command that generates
    (`filter-prompts`, `train`): the prompt, reference and domain as read (after `--map` and
    `--domain-map`), `group` the prompt's id, `meta` the row's other columns and its id."""
    return Sample(record.prompt, completion, reference=record.reference, domain=record.domain,
                  group=record.id, meta={**record.meta, "id": record.id},
                  ambiguous_gold=record.ambiguous_gold)


def derive_id(row: Mapping[str, Any]) -> str:
    """A stable id from a row's content: the same row always gets the same id."""
    canonical = json.dumps(row, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                           default=str)
    return "p-" + hashlib.sha256(canonical.encode()).hexdigest()[:16]


def read_prompts(source: str | Path | Any, mapping: Mapping[str, str] | None = None, *,
                 domain_map: Mapping[str, str] | None = None
                 ) -> tuple[dict[str, PromptRecord], list[ErrorRow], int]:
    """Valid prompts by id (input order), error rows, and the number of rows read, from any
    input `iter_rows` reads."""
    prompts: dict[str, PromptRecord] = {}
    errors: list[ErrorRow] = []
    rows = 0
    name = source_name(source)
    for line, row in iter_rows(source):
        rows += 1
        try:
            if isinstance(row, InputError):
                raise row
            record = _prompt_record(row, mapping or {}, domain_map or {}, name, line)
            if record.id in prompts:
                raise InputError(f"duplicate id {record.id!r} (first at line "
                                 f"{prompts[record.id].line})", source=name, line=line,
                                 field=column_of(mapping or {}, "id"))
        except InputError as exc:
            errors.append(ErrorRow.of(exc))
            continue
        prompts[record.id] = record
    return prompts, errors, rows


def column_of(mapping: Mapping[str, str], field: str) -> str:
    """The input column (or dotted column path) that `--map` maps onto `field` (the field
    itself when unmapped)."""
    return next((column for column, target in mapping.items() if target == field), field)


def _prompt_record(row: dict[str, Any], mapping: Mapping[str, str],
                   domain_map: Mapping[str, str], source: str, line: int) -> PromptRecord:
    fields, rest = _map_row(row, mapping, PROMPT_FIELDS, source, line)
    ambiguity = _read_reference(fields, rest, mapping, source, line)

    def bad(message: str, field: str) -> InputError:
        return InputError(message, source=source, line=line, field=column_of(mapping, field))

    prompt = fields.get("prompt")
    if prompt is None or prompt == "":
        raise bad("missing prompt", "prompt")
    if isinstance(prompt, list):
        if not prompt or not all(isinstance(m, dict) and isinstance(m.get("content"), str)
                                 and isinstance(m.get("role"), str) for m in prompt):
            raise bad("chat prompt must be a non-empty list of {role, content} messages",
                      "prompt")
    elif not isinstance(prompt, str):
        raise bad(f"prompt must be a string or a list of chat messages, got "
                  f"{type(prompt).__name__}", "prompt")
    domain = _domain(fields, domain_map, bad)
    if "id" in fields and fields["id"] is not None:
        raw_id = fields["id"]
        if isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)) or raw_id == "":
            raise bad(f"id must be a non-empty string or an integer, got {raw_id!r}", "id")
        prompt_id, out_row = str(raw_id), dict(row)
    else:
        prompt_id = derive_id(row)
        out_row = {"id": prompt_id, **row}
    return PromptRecord(prompt_id, line, out_row, prompt, fields.get("reference"), domain,
                        rest, ambiguity)
