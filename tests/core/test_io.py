
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from rewards import InputError
from rewards.io import iter_rows, parse_map, row_to_sample


def test_jsonl_rows_and_errors(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text('{"completion": "a"}\n\n[1, 2]\n{broken\n{"completion": "b"}\n')
    rows = list(iter_rows(path))
    assert [line for line, _ in rows] == [1, 3, 4, 5]
    assert rows[0][1] == {"completion": "a"}
    assert isinstance(rows[1][1], InputError) and "JSON object" in str(rows[1][1])
    assert isinstance(rows[2][1], InputError) and f"{path}:4" in str(rows[2][1])
    assert rows[3][1] == {"completion": "b"}


def test_parquet_rows(tmp_path):
    path = tmp_path / "in.parquet"
    pq.write_table(pa.table({"completion": ["x", "y"], "reference": ["1", "2"]}), path)
    assert list(iter_rows(path)) == [(1, {"completion": "x", "reference": "1"}),
                                     (2, {"completion": "y", "reference": "2"})]


def test_missing_file():
    with pytest.raises(InputError, match="no such file"):
        list(iter_rows("/nonexistent/x.jsonl"))


def test_row_to_sample_maps_columns_and_keeps_the_rest_in_meta():
    mapping = parse_map("solution_str=completion,ground_truth=reference,data_source=domain")
    s = row_to_sample({"solution_str": "42", "ground_truth": "42", "data_source": "math",
                       "extra": 7, "prompt": [{"role": "user", "content": "hi"}]},
                      mapping=mapping)
    assert (s.completion, s.reference, s.domain) == ("42", "42", "math")
    assert s.prompt == [{"role": "user", "content": "hi"}]
    assert dict(s.meta) == {"extra": 7}


@pytest.mark.parametrize("row, field", [
    ({}, "completion"),
    ({"completion": 3}, "completion"),
    ({"completion": "a", "prompt": 5}, "prompt"),
    ({"completion": "a", "domain": ["x"]}, "domain"),
    ({"completion": "a", "group": {"x": 1}}, "group"),
])
def test_row_errors_name_the_field(row, field):
    with pytest.raises(InputError) as info:
        row_to_sample(row, source="f.jsonl", line=9)
    assert info.value.field == field
    assert info.value.line == 9 and "f.jsonl:9" in str(info.value)


def test_mapped_field_errors_name_the_source_column():
    with pytest.raises(InputError) as info:
        row_to_sample({"solution_str": 1}, mapping=parse_map("solution_str=completion"))
    assert info.value.field == "solution_str"


@pytest.mark.parametrize("spec", ["a", "a=b", "=completion"])
def test_bad_map(spec):
    with pytest.raises(InputError, match="--map"):
        parse_map(spec)
