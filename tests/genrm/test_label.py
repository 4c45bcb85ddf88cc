"""Offline labeling: candidate files, the confidence threshold, `rewards label` end to end."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from genrm.generative import GenRMJudge
from genrm.label import CandidateSet, LabelConfig, label_preferences, load_candidates
from genrm.train import load_pairs
from rewards.engines import TransformersEngine
from rewards.errors import ConfigError, InputError
from rewards_cli import main

pytest.importorskip("transformers", reason="pip install -e '.[train]'")

SETS = [
    CandidateSet("What is 2 + 3?", ("5", "6", "five", "5")),  # the duplicate "5" is judged once
    CandidateSet("Name a colour.", ("blue", "green")),
]


@pytest.fixture(scope="module")
def judge(tiny_lm_dir: Path) -> GenRMJudge:
    return GenRMJudge(TransformersEngine(str(tiny_lm_dir)))


def test_load_candidates_both_layouts(tmp_path: Path) -> None:
    path = tmp_path / "cands.jsonl"
    rows = [{"prompt": "p1", "candidates": ["a", "b"]},
            {"prompt": "p2", "completion": "x", "group": "g"},
            {"prompt": "p2", "completion": "y", "group": "g"},
            {"prompt": "p3", "completions": ["c", "d", "e"], "reference": "c"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    sets = load_candidates(path)
    assert sets == [CandidateSet("p1", ("a", "b")), CandidateSet("p3", ("c", "d", "e"), "c"),
                    CandidateSet("p2", ("x", "y"))]
    path.write_text('{"prompt": "p1", "candidates": ["a", "b"]}\n{"prompt": "p2"}\n')
    with pytest.raises(InputError) as info:
        load_candidates(path)
    assert (info.value.line, info.value.field) == (2, "candidates")


def test_threshold_keeps_only_confident_pairs(judge: GenRMJudge) -> None:
    everything, stats = label_preferences(judge, SETS, LabelConfig(threshold=0.5))
    assert (stats.judged, stats.kept, stats.uncertain, stats.failed) == (4, 4, 0, 0)
    confidences = sorted(r["confidence"] for r in everything)
    cut = (confidences[1] + confidences[2]) / 2
    kept, stats = label_preferences(judge, SETS, LabelConfig(threshold=cut))
    assert (stats.kept, stats.uncertain) == (2, 2)
    assert all(r["confidence"] >= cut for r in kept)
    for row in everything:
        p_first = (row["forward"] + row["swapped"]) / 2
        assert row["confidence"] == pytest.approx(max(p_first, 1 - p_first))
        assert row["chosen"] != row["rejected"]
    _, stats = label_preferences(judge, SETS, LabelConfig(threshold=0.5,
                                                                max_pairs_per_prompt=1))
    assert stats.judged == 2
    with pytest.raises(ConfigError):
        label_preferences(judge, SETS, LabelConfig(threshold=0.4))


def test_label_cli_feeds_train_rm(tmp_path: Path, tiny_lm_dir: Path) -> None:
    cands = tmp_path / "cands.jsonl"
    cands.write_text("".join(json.dumps({"prompt": s.prompt, "candidates": list(s.candidates)})
                             + "\n" for s in SETS))
    out = tmp_path / "prefs.jsonl"
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = main(["label", "--candidates", str(cands), "--judge", str(tiny_lm_dir),
                     "--backend", "transformers", "--out", str(out), "--threshold", "0.5"])
    assert code == 0
    summary = json.loads(buffer.getvalue().strip().splitlines()[-1])
    assert (summary["judged"], summary["kept"]) == (4, 4)
    pairs = load_pairs(out)
    assert len(pairs) == 4 and {p.prompt for p in pairs} == {"What is 2 + 3?", "Name a colour."}
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert all(r["judge"] == str(tiny_lm_dir) for r in rows)


def test_label_cli_rejects_bad_labels(tmp_path: Path, tiny_lm_dir: Path) -> None:
    cands = tmp_path / "cands.jsonl"
    cands.write_text('{"prompt": "p", "candidates": ["a", "b"]}\n')
    code = main(["label", "--candidates", str(cands), "--judge", str(tiny_lm_dir),
                 "--out", str(tmp_path / "o.jsonl"), "--labels", "A"])
    assert code == 2
