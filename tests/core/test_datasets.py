"""Datasets as they come: every input kind read as rows by the one reader (`rewards.io`), a
`datasets.Dataset` scored from Python, veRL's nested layout scored through `--map` with dotted
paths and `--domain-map`, chat-message completions, the id column carried to the output."""

import csv
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from rewards import InputError, build_reward, parse_config, score_batch
from rewards.io import count_rows, iter_rows, iter_samples, read_prompts
from rewards_cli import main


def _hf():
    """Hugging Face `datasets` (the `datasets` extra): only the tests of dataset folders and
    objects need it."""
    return pytest.importorskip("datasets")

ROWS = [{"completion": "4", "reference": "4"}, {"completion": "5", "reference": "4"}]


def _jsonl(path, rows):
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def _csv(path, rows, delimiter=","):
    with path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]), delimiter=delimiter)
        writer.writeheader()
        writer.writerows(rows)
    return path


def _arrow_file(path, rows):
    table = pa.Table.from_pylist(rows)
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
    return path


def _arrow_stream(path, rows):
    table = pa.Table.from_pylist(rows)
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return path


def _saved(path, rows):
    _hf().Dataset.from_list(rows).save_to_disk(str(path))
    return path


WRITERS = {
    "in.jsonl": _jsonl,
    "array.json": lambda p, rows: p.write_text(json.dumps(rows, indent=2)) and p,
    "lines.json": _jsonl,
    "in.parquet": lambda p, rows: pq.write_table(pa.Table.from_pylist(rows), p) or p,
    "in.csv": _csv,
    "in.tsv": lambda p, rows: _csv(p, rows, "\t"),
    "file.arrow": _arrow_file,
    "stream.arrow": _arrow_stream,
    "saved_dataset": _saved,
}


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_every_input_kind_reads_as_rows(tmp_path, name):
    path = WRITERS[name](tmp_path / name, ROWS)
    assert list(iter_rows(path)) == [(1, ROWS[0]), (2, ROWS[1])]
    assert count_rows(path) == 2


def test_a_saved_dataset_dict_names_its_splits(tmp_path):
    datasets = _hf()
    ds = datasets.Dataset.from_list(ROWS)
    datasets.DatasetDict({"train": ds, "test": ds.select([0])}).save_to_disk(str(tmp_path / "d"))
    with pytest.raises(InputError, match=r"splits train, test: give one split.*d/<split>"):
        list(iter_rows(tmp_path / "d"))
    assert [line for line, _ in iter_rows(tmp_path / "d" / "test")] == [1]


def test_a_folder_that_is_no_dataset_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="is a directory, not a file or a dataset folder"):
        list(iter_rows(tmp_path))


def test_a_json_array_yields_a_row_or_an_error_per_element(tmp_path):
    path = tmp_path / "a.json"
    path.write_text('[{"completion": "a"}, 3, {"completion": "b"}]')
    rows = list(iter_rows(path))
    assert rows[0] == (1, {"completion": "a"}) and rows[2] == (3, {"completion": "b"})
    assert isinstance(rows[1][1], InputError) and f"{path}:2" in str(rows[1][1])
    path.write_text('[{"completion": "a"},')  # cut short: the rows before the cut are read
    first, second = iter_rows(path)
    assert first == (1, {"completion": "a"})
    assert isinstance(second[1], InputError) and "not a valid JSON array from this element" \
        in str(second[1])
    path.write_text('[{"completion": "a"')  # no element at all
    with pytest.raises(InputError, match="not a valid JSON array"):
        list(iter_rows(path))


def test_csv_rows_of_the_wrong_width_are_error_rows_and_empty_cells_null(tmp_path):
    path = tmp_path / "in.csv"
    path.write_text("completion,reference\n4,4\n4,4,extra\n5,\n")
    rows = list(iter_rows(path))
    assert rows[0] == (1, {"completion": "4", "reference": "4"})
    assert isinstance(rows[1][1], InputError) and "3 values for the 2 columns" in str(rows[1][1])
    assert rows[2] == (3, {"completion": "5", "reference": None})


EXACT = parse_config({"domains": {"default": {"rewards": [
    {"use": "rewards_for_tests:exact", "name": "exact"}]}}})


def test_a_dataset_object_is_scored_from_python():
    datasets = _hf()
    ds = datasets.Dataset.from_list([{"answer": "4", "output": "4"},
                                     {"answer": "4", "output": "5"},
                                     {"answer": "4"}])
    items = list(iter_samples(ds, mapping={"output": "completion", "answer": "reference"}))
    assert isinstance(items[2][1], InputError) and "<dataset>:3" in str(items[2][1])
    samples = [s for _, s in items if not isinstance(s, InputError)]
    assert [s.value for s in score_batch(build_reward(EXACT), samples).scores] == [1.0, 0.0]
    table = pa.Table.from_pylist(ROWS)  # a pyarrow Table and a list of dicts read the same
    assert list(iter_rows(table)) == list(iter_rows(ROWS)) == [(1, ROWS[0]), (2, ROWS[1])]
    with pytest.raises(InputError, match="splits train"):
        list(iter_rows(datasets.DatasetDict({"train": ds})))
    prompts, errors, read = read_prompts(ds, {"output": "prompt", "answer": "reference"})
    assert read == 3 and len(prompts) == 2 and errors[0].line == 3


MATH = "domains:\n  math:\n    rewards:\n      - {use: math}\n"
VERL_MAP = ["--map", "reward_model.ground_truth=reference,data_source=domain",
            "--map", "extra_info.index=id,responses=completion"]


def _verl_rows(n=4):
    """veRL's layout: data_source, chat prompt, reward_model.ground_truth, extra_info.*."""
    return [{"data_source": "openai/gsm8k",
             "prompt": [{"role": "user", "content": f"What is {i} + 1?"}],
             "ability": "math", "reward_model": {"style": "rule", "ground_truth": str(i + 1)},
             "extra_info": {"split": "train", "index": 100 + i},
             "responses": f"{i} + 1 = {i + 1 if i % 2 == 0 else i}.\n#### "
                          f"{i + 1 if i % 2 == 0 else i}"}
            for i in range(n)]


def _score(tmp_path, source, *args, config=MATH):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(config)
    out = tmp_path / "out.jsonl"
    code = main(["score", str(source), "--config", str(cfg), "--out", str(out), "--progress",
                 "off", *args])
    rows = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    return code, rows


def test_verl_layout_scored_through_nested_map_and_domain_map(tmp_path, capsys):
    src = tmp_path / "verl.parquet"
    pq.write_table(pa.Table.from_pylist(_verl_rows()), src)
    code, rows = _score(tmp_path, src, *VERL_MAP)
    assert code == 3  # no domain is named openai/gsm8k: nothing scored, and the user told
    assert "'openai/gsm8k' are not in the config (math)" in capsys.readouterr().err
    code, rows = _score(tmp_path, src, *VERL_MAP, "--domain-map", "openai/gsm8k=math")
    assert code == 0
    assert [(r["id"], r["domain"], r["score"]) for r in rows] == [
        (100, "math", 1.0), (101, "math", 0.0), (102, "math", 1.0), (103, "math", 0.0)]


def test_a_saved_dataset_folder_is_scored(tmp_path):
    src = _saved(tmp_path / "verl_ds", _verl_rows())
    code, rows = _score(tmp_path, src, *VERL_MAP, "--domain-map", "openai/gsm8k=math")
    assert code == 0 and [r["score"] for r in rows] == [1.0, 0.0, 1.0, 0.0]


def test_a_missing_nested_path_is_an_error_row_naming_row_and_path(tmp_path):
    rows = _verl_rows(3)
    del rows[1]["reward_model"]["ground_truth"]
    rows[2]["reward_model"] = None
    src = _jsonl(tmp_path / "verl.jsonl", rows)
    code, out = _score(tmp_path, src, *VERL_MAP, "--domain-map", "openai/gsm8k=math")
    assert code == 0 and out[0]["score"] == 1.0
    assert [(r["line"], r["reason"], r["field"], r["id"]) for r in out[1:]] == [
        (2, "input_error", "reward_model.ground_truth", 101),
        (3, "input_error", "reward_model.ground_truth", 102)]
    assert f"{src}:2: missing column path 'reward_model.ground_truth': 'reward_model' has " \
           "no key 'ground_truth' (keys: style)" in out[1]["error"]
    assert "'reward_model' is null, not a mapping" in out[2]["error"]


CHAT = [{"completion": [{"role": "assistant", "content": "4"}], "reference": "4"},
        {"completion": [{"role": "user", "content": "4"}, {"role": "assistant", "content": "5"}],
         "reference": "4"},
        {"completion": {"role": "assistant", "content": [{"type": "text", "text": "4"}]},
         "reference": "4"},
        {"completion": ["4"], "reference": "4"}]
EXACT_YAML = "domains:\n  default:\n    rewards:\n      - {use: 'rewards_for_tests:exact'}\n"


def test_chat_message_completions_score_the_assistant_content(tmp_path):
    code, rows = _score(tmp_path, _jsonl(tmp_path / "chat.jsonl", CHAT), config=EXACT_YAML)
    assert code == 0
    assert [r["score"] for r in rows[:3]] == [1.0, 0.0, 1.0]
    assert (rows[3]["reason"], rows[3]["field"]) == ("input_error", "completion")
    assert "chat messages must be {role, content} objects" in rows[3]["error"]


def test_the_id_column_is_carried_to_every_output_row(tmp_path):
    rows = [{"id": "a", "completion": "4", "reference": "4"}, {"id": 7, "reference": "4"},
            {"completion": "4", "reference": "4"}]
    src = _jsonl(tmp_path / "ids.jsonl", rows)
    code, out = _score(tmp_path, src, config=EXACT_YAML)
    assert code == 0
    assert [(r.get("id"), r["reason"]) for r in out] == [("a", "ok"), (7, "input_error"),
                                                        (None, "ok")]
    src = _jsonl(tmp_path / "uids.jsonl", [{"uid": "u1", "completion": "4", "reference": "4"}])
    code, out = _score(tmp_path, src, "--map", "uid=id", config=EXACT_YAML)
    assert code == 0 and out[0]["id"] == "u1"


@pytest.mark.parametrize("name, content, message", [
    ("bad.arrow", b"ARROW1 junk", "not a readable Arrow file"),
    ("bad.csv", b"compl\xff\xfetion\nx\n", "not a readable CSV file"),
    ("bad.json", b'[{"completion": "a"', "not a valid JSON array"),
    ("folder/state.json", b"{not json", "not a readable dataset folder"),
])
def test_an_unreadable_input_is_one_line_exit_2(tmp_path, capsys, name, content, message):
    if name.startswith("folder/"):
        _hf()
    path = tmp_path / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(content)
    source = path.parent if name.startswith("folder/") else path
    for command in (["score", str(source), "--out", str(tmp_path / "o.jsonl")],
                    ["check", str(source)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err and len(err.splitlines()) == 1
