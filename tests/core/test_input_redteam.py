"""Every input record is read, or refused by row naming file, line and field; a file that
cannot be read at all is one clear error (exit 2). The red-team cases of issue 27, then a
seeded fuzz of every reader (JSONL, JSON arrays, CSV/TSV, Parquet, Arrow, `save_to_disk`):
round trips of random rows, and random corruptions that must yield rows, error rows or an
`InputError`, never another exception. The fuzz is bounded by its counts, not by time."""

import csv
import json
import random

import pytest

from rewards.errors import InputError
from rewards.io import iter_rows
from rewards_cli import main

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

EXACT = "domains:\n  default: {rewards: [{use: 'rewards_for_tests:exact'}]}\n"


def _rows(path):
    return [(line, row if isinstance(row, dict) else ("error", str(row), row.field))
            for line, row in iter_rows(path)]


def _score(tmp_path, source):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(EXACT)
    out = tmp_path / "scores.jsonl"
    code = main(["score", str(source), "--config", str(cfg), "--out", str(out), "--progress",
                 "off"])
    return code, [json.loads(line) for line in out.read_text().splitlines()]


def test_a_csv_field_over_131072_characters_is_read(tmp_path):
    path = tmp_path / "big.csv"
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerows([["completion", "reference"], ["x" * 140_000, "1"], ["2", "2"]])
    rows = _rows(path)
    assert [len(r["completion"]) for _, r in rows] == [140_000, 1]
    code, out = _score(tmp_path, path)
    assert code == 0 and [r["score"] for r in out] == [0.0, 1.0]


def test_a_tsv_with_raw_quotes_keeps_one_record_per_line(tmp_path):
    path = tmp_path / "q.tsv"
    path.write_text('completion\treference\n"quoted start\t1\nhe said "hi"\t2\nthird\t3\n')
    rows = _rows(path)
    assert [r["completion"] for _, r in rows] == ['"quoted start', 'he said "hi"', "third"]
    code, out = _score(tmp_path, path)
    assert code == 0 and [r["line"] for r in out] == [1, 2, 3]


@pytest.mark.parametrize("kind", ["jsonl", "json"])
def test_a_5000_digit_number_is_read_as_its_digits(tmp_path, kind):
    big = "9" * 5000
    records = [f'{{"completion": "{big}", "reference": {big}}}',
               '{"completion": "2", "reference": 2}']
    path = tmp_path / f"num.{kind}"
    path.write_text("\n".join(records) + "\n" if kind == "jsonl" else
                    "[" + ", ".join(records) + "]")
    rows = _rows(path)
    assert rows[0][1]["reference"] == big and rows[1][1]["reference"] == 2
    code, out = _score(tmp_path, path)
    assert code == 0 and [r["score"] for r in out] == [1.0, 1.0]


@pytest.mark.parametrize("kind", ["jsonl", "json"])
def test_100000_nested_arrays_are_an_error_row_and_the_next_record_is_read(tmp_path, kind):
    deep = '{"completion": "1", "reference": ' + "[" * 100_000 + "]" * 100_000 + "}"
    good = '{"completion": "2", "reference": 2}'
    path = tmp_path / f"deep.{kind}"
    path.write_text(f"{deep}\n{good}\n" if kind == "jsonl" else f"[{deep}, {good}]")
    rows = _rows(path)
    assert rows[0][0] == 1 and rows[0][1][0] == "error"
    assert "nested too deeply" in rows[0][1][1] and f"{path}:1" in rows[0][1][1]
    assert rows[1] == (2, {"completion": "2", "reference": 2})
    code, out = _score(tmp_path, path)
    assert code == 0 and [r["reason"] for r in out] == ["input_error", "ok"]


def _bad_utf8_table():
    values = pa.array([b"ok", b"\xff\xfe", b"2"], pa.binary())
    completion = pa.Array.from_buffers(pa.string(), 3, values.buffers())  # not validated
    return pa.table({"completion": completion, "reference": pa.array(["ok", "1", "2"])})


def _write_bad_utf8(tmp_path, kind):
    table = _bad_utf8_table()
    if kind == "arrow":
        path = tmp_path / "bad.arrow"
        with pa.ipc.new_file(str(path), table.schema) as writer:
            writer.write_table(table)
    elif kind == "parquet":
        path = tmp_path / "bad.parquet"
        pq.write_table(table, path)
    else:
        datasets = pytest.importorskip("datasets")
        path = tmp_path / "saved"
        datasets.Dataset(table).save_to_disk(str(path))
    return path


@pytest.mark.parametrize("kind", ["arrow", "parquet", "dataset"])
def test_a_string_column_with_invalid_utf8_is_an_error_row_naming_the_field(tmp_path, kind):
    path = _write_bad_utf8(tmp_path, kind)
    rows = _rows(path)
    assert rows[0] == (1, {"completion": "ok", "reference": "ok"})
    assert rows[1][1][0] == "error" and rows[1][1][2] == "completion"
    assert f"{path}:2" in rows[1][1][1] and "not valid UTF-8" in rows[1][1][1]
    assert rows[2] == (3, {"completion": "2", "reference": "2"})
    code, out = _score(tmp_path, path)
    assert code == 0 and [r["reason"] for r in out] == ["ok", "input_error", "ok"]
    assert out[1]["field"] == "completion"


def test_a_csv_record_with_invalid_utf8_or_bad_quoting_is_an_error_row(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_bytes(b'completion,reference\nab\xffc,1\n"x"y,2\nok,ok\n')
    rows = _rows(path)
    assert rows[0][1][0] == "error" and rows[0][1][2] == "completion"
    assert rows[1][1][0] == "error" and f"{path}:2" in rows[1][1][1]
    assert rows[2] == (3, {"completion": "ok", "reference": "ok"})


def test_a_file_that_cannot_be_read_at_all_exits_2(tmp_path, capsys):
    path = tmp_path / "bad.parquet"
    path.write_bytes(b"PAR1 this is not parquet")
    assert main(["score", str(path), "--out", str(tmp_path / "o.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rewards score: error: ") and "not a readable Parquet file" in err
    assert err.count("\n") == 1


# --- the seeded fuzz ----------------------------------------------------------------------

ALPHABET = 'ab z09,;"\'\t\n\r\\{}[]:é中😀\u2028\x00'
KINDS = ["jsonl", "json", "csv", "tsv", "parquet", "arrow", "dataset"]


def _text(rng, kind, size=12):
    chars = ALPHABET
    if kind == "tsv":  # one record per line, cells as written: no tab, no line break
        chars = "".join(c for c in ALPHABET if c not in "\t\n\r\u2028")
    if kind in ("csv", "tsv"):
        chars = chars.replace("\x00", "")
    return "".join(rng.choice(chars) for _ in range(rng.randint(1, size)))


def _random_rows(rng, kind, n):
    return [{"completion": _text(rng, kind, 40), "reference": _text(rng, kind)}
            for _ in range(n)]


def _write(path_base, kind, rows):
    if kind == "jsonl":
        path = path_base.with_suffix(".jsonl")
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    elif kind == "json":
        path = path_base.with_suffix(".json")
        path.write_text(json.dumps(rows))
    elif kind in ("csv", "tsv"):
        path = path_base.with_suffix("." + kind)
        with path.open("w", newline="", encoding="utf-8") as fh:
            if kind == "csv":
                writer = csv.writer(fh)
            else:
                writer = csv.writer(fh, delimiter="\t", quoting=csv.QUOTE_NONE, escapechar=None,
                                    quotechar=None, lineterminator="\n")
            writer.writerow(["completion", "reference"])
            writer.writerows([[r["completion"], r["reference"]] for r in rows])
    elif kind == "parquet":
        path = path_base.with_suffix(".parquet")
        pq.write_table(pa.Table.from_pylist(rows), path)
    elif kind == "arrow":
        path = path_base.with_suffix(".arrow")
        table = pa.Table.from_pylist(rows)
        with pa.ipc.new_file(str(path), table.schema) as writer:
            writer.write_table(table)
    else:
        datasets = pytest.importorskip("datasets")
        path = path_base
        datasets.Dataset.from_list(rows).save_to_disk(str(path))
    return path


@pytest.mark.parametrize("kind", KINDS)
def test_fuzz_random_rows_round_trip(tmp_path, kind):
    rng = random.Random(f"round-trip-{kind}")
    for trial in range(8):
        rows = _random_rows(rng, kind, rng.randint(1, 30))
        path = _write(tmp_path / f"t{trial}", kind, rows)
        read = list(iter_rows(path))
        assert [line for line, _ in read] == list(range(1, len(rows) + 1)) if kind != \
            "jsonl" else len(read) == len(rows)
        assert [row for _, row in read] == rows, (kind, trial)


def _mutate(rng, data: bytes) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(data)) if data else 0
        action = rng.choice(("flip", "insert", "delete", "truncate"))
        if action == "flip" and data:
            data[at] = rng.randrange(256)
        elif action == "insert":
            data[at:at] = bytes(rng.choice([b'"', b"[", b"{", b"\t", b"\n", b",", b"\xff",
                                             b"\\", b"9" * 50]))
        elif action == "delete" and data:
            del data[at:at + rng.randint(1, 8)]
        elif action == "truncate":
            del data[at:]
    return bytes(data)


@pytest.mark.parametrize("kind", KINDS)
def test_fuzz_corrupt_files_yield_rows_error_rows_or_one_input_error(tmp_path, kind):
    rng = random.Random(f"corrupt-{kind}")
    rows = _random_rows(rng, kind, 20)
    original = _write(tmp_path / "orig", kind, rows)
    files = sorted(p for p in original.rglob("*") if p.is_file()) if original.is_dir() \
        else [original]
    outcomes = {"read": 0, "refused": 0}
    for trial in range(40):
        target = rng.choice(files)
        saved = target.read_bytes()
        target.write_bytes(_mutate(rng, saved))
        try:
            for line, row in iter_rows(original):
                assert isinstance(line, int) and line >= 1
                assert isinstance(row, (dict, InputError)), (kind, trial, type(row))
                if isinstance(row, InputError):
                    assert str(original) in str(row)
            outcomes["read"] += 1
        except InputError as exc:
            assert str(original) in str(exc)
            outcomes["refused"] += 1
        finally:
            target.write_bytes(saved)
    assert sum(outcomes.values()) == 40
