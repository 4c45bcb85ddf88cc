
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from rewards import InputError
from rewards.io import (
    PROMPT_FIELDS,
    completion_text,
    iter_rows,
    parse_domain_map,
    parse_map,
    read_prompts,
    row_to_sample,
)


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


def test_map_takes_dotted_paths_repeated_options_and_refuses_two_columns_for_one_field():
    assert parse_map(["reward_model.ground_truth=reference", "data_source=domain"]) == {
        "reward_model.ground_truth": "reference", "data_source": "domain"}
    with pytest.raises(InputError, match="'answer' already maps onto reference"):
        parse_map("answer=reference,gold=reference")


def test_domain_map():
    assert parse_domain_map("openai/gsm8k=math, codeparrot/apps=code") == {
        "openai/gsm8k": "math", "codeparrot/apps": "code"}
    for spec in ("openai/gsm8k", "=math", "x="):
        with pytest.raises(InputError, match="--domain-map"):
            parse_domain_map(spec)


def test_nested_paths_list_indices_and_the_domain_map():
    row = {"data_source": "openai/gsm8k", "reward_model": {"ground_truth": "72"},
           "responses": [{"text": "#### 72"}], "reference": "ignored: --map names another"}
    mapping = parse_map("reward_model.ground_truth=reference,data_source=domain,"
                        "responses.0.text=completion")
    s = row_to_sample(row, mapping=mapping, domain_map={"openai/gsm8k": "math"})
    assert (s.completion, s.reference, s.domain) == ("#### 72", "72", "math")
    assert s.meta["reference"] == "ignored: --map names another"
    assert s.meta["reward_model"] == {"ground_truth": "72"}  # the nested column travels whole
    with pytest.raises(InputError) as info:
        row_to_sample(row, mapping=parse_map("responses.3.text=completion"), source="f", line=2)
    assert info.value.field == "responses.3.text" and info.value.line == 2
    assert "'responses' is a list of 1, no index '3'" in str(info.value)
    with pytest.raises(InputError, match=r"no column 'extra_info' \(columns: data_source, "):
        row_to_sample(row, mapping=parse_map("extra_info.index=completion"))


def test_prompt_rows_read_nested_columns_and_domain_map(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('{"q": {"text": "hi"}, "src": "openai/gsm8k", "uid": 1}\n{"uid": 2}\n')
    prompts, errors, rows = read_prompts(path, parse_map("q.text=prompt,src=domain,uid=id",
                                                         PROMPT_FIELDS),
                                         domain_map={"openai/gsm8k": "math"})
    assert rows == 2 and (prompts["1"].prompt, prompts["1"].domain) == ("hi", "math")
    assert (errors[0].line, errors[0].field) == (2, "q.text")


@pytest.mark.parametrize("completion, text", [
    ("plain", "plain"),
    ([{"role": "system", "content": "s"}, {"role": "assistant", "content": "a"}], "a"),
    ([{"role": "user", "content": "u"}], ""),  # no assistant message: no model text
    ({"role": "assistant", "content": None}, ""),
])
def test_completion_text(completion, text):
    assert completion_text(completion) == text


@pytest.mark.parametrize("completion", [3, ["text"], b"bytes"])
def test_completion_text_refuses_what_is_not_text_or_messages(completion):
    with pytest.raises(InputError) as info:
        completion_text(completion)
    assert info.value.field == "completion"
