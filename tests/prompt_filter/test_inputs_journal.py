"""Prompt and rollout rows (ids, error rows naming file/line/field) and the journal."""

import json

import pytest
from filter_helpers import write_jsonl

from prompt_filter._inputs import iter_rollouts
from prompt_filter._journal import Journal
from rewards.errors import ConfigError, InputError
from rewards.io import PROMPT_FIELDS, derive_id, parse_map, read_prompts


def test_derived_id_is_stable_and_content_based():
    row = {"prompt": "1+1?", "reference": "2"}
    assert derive_id(row) == derive_id({"reference": "2", "prompt": "1+1?"})  # key order
    assert derive_id(row) != derive_id({"prompt": "1+1?", "reference": "3"})
    assert derive_id(row).startswith("p-") and len(derive_id(row)) == 18


def test_read_prompts_ids_and_error_rows(tmp_path):
    path = write_jsonl(tmp_path / "p.jsonl", [
        {"id": "a", "prompt": "q1", "reference": "1", "domain": "math"},
        {"prompt": "q2", "reference": "2"},                  # id derived
        '{"id": "c", "prompt": ',                             # line 3: not JSON
        {"id": "d", "reference": "4"},                        # no prompt
        {"id": "a", "prompt": "again"},                       # duplicate id
        {"id": "f", "prompt": "q", "domain": 3},              # bad domain
        {"id": True, "prompt": "q"},                          # bad id
        {"id": 7, "prompt": [{"role": "user", "content": "hi"}]},
        {"id": "i", "prompt": [{"role": "user"}]},            # message without content
    ])
    prompts, errors, rows = read_prompts(path)
    assert rows == 9
    assert list(prompts) == ["a", derive_id({"prompt": "q2", "reference": "2"}), "7"]
    assert prompts["a"].domain == "math" and prompts["7"].domain == "default"
    second = prompts[list(prompts)[1]]
    assert second.row == {"id": second.id, "prompt": "q2", "reference": "2"}
    assert [(e.line, e.field) for e in errors] == [
        (3, None), (4, "prompt"), (5, "id"), (6, "domain"), (7, "id"), (9, "prompt")]
    assert all(e.file == str(path) for e in errors)
    assert "duplicate id 'a' (first at line 1)" in errors[2].error


def test_prompt_map_renames_columns(tmp_path):
    path = write_jsonl(tmp_path / "p.jsonl", [{"uid": 5, "problem": "q", "answer": "1"}, {"uid": 6}])
    mapping = parse_map("problem=prompt,answer=reference,uid=id", PROMPT_FIELDS)
    prompts, errors, _ = read_prompts(path, mapping)
    assert prompts["5"].prompt == "q" and prompts["5"].reference == "1"
    assert prompts["5"].row == {"uid": 5, "problem": "q", "answer": "1"}
    assert [(e.line, e.field) for e in errors] == [(2, "problem")]  # named as the user's column
    with pytest.raises(InputError):
        parse_map("problem=question", PROMPT_FIELDS)


def test_rollout_rows_errors(tmp_path):
    prompts, _, _ = read_prompts(write_jsonl(tmp_path / "p.jsonl",
                                             [{"id": "a", "prompt": "q", "reference": "1"}]))
    path = write_jsonl(tmp_path / "r.jsonl", [
        {"id": "a", "completion": "1"},
        {"prompt_id": "a", "completion": "2"},
        {"id": "zz", "completion": "1"},
        {"completion": "1"},
        {"id": "a"},
        {"id": "a", "completion": 5},
        "[1, 2]",
    ])
    items = list(iter_rollouts(path, prompts))
    assert [item.completion for _, item in items[:2]] == ["1", "2"]
    assert items[0][1].group == "a" and items[0][1].reference == "1"
    assert [(line, item.field) for line, item in items[2:]] == [
        (3, "id"), (4, "id"), (5, "completion"), (6, "completion"), (7, None)]
    assert "no valid prompt has id 'zz'" in items[2][1].error
    assert [line for line, _ in iter_rollouts(path, prompts, after=5)] == [6, 7]


def test_journal_drops_a_torn_last_line_and_keeps_complete_ones(tmp_path):
    path = tmp_path / "journal.jsonl"
    with Journal(path, "fp") as journal:
        journal.append({"kind": "chunk", "end": 1})
        journal.append({"kind": "chunk", "end": 2})
    complete = path.read_bytes()
    for cut in range(len(complete) - 20, len(complete)):  # a kill in the middle of line 3
        path.write_bytes(complete[:cut])
        with Journal(path, "fp") as journal:
            assert [r["end"] for r in journal.records()] == [1]
            assert (journal.chunks, journal.last) == (1, {"kind": "chunk", "end": 1})
            journal.append({"kind": "chunk", "end": 2})
        assert path.read_bytes() == complete
    path.write_bytes(complete[:10])  # torn header: starts over
    with Journal(path, "fp") as journal:
        assert list(journal.records()) == [] and journal.last is None
    assert json.loads(path.read_text()) == {"kind": "header", "version": 1, "fingerprint": "fp"}


def test_journal_refuses_another_runs_journal(tmp_path):
    path = tmp_path / "journal.jsonl"
    Journal(path, "fp").close()
    with pytest.raises(ConfigError, match="--restart"):
        Journal(path, "other")
    path.write_text('{"something": "else"}\n')
    with pytest.raises(ConfigError, match="not a filter-prompts journal"):
        Journal(path, "fp")
