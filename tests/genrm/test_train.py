"""Bradley-Terry reward-model training (`rewards train-rm`) and the discriminative RM."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from genrm.discriminative import DiscriminativeRM
from genrm.train import PreferencePair, bradley_terry_loss, load_pairs, split_pairs
from rewards import Sample
from rewards.engines import TransformersEngine
from rewards.errors import ConfigError, InputError

torch = pytest.importorskip("torch", reason="pip install -e '.[train]'")
pytest.importorskip("transformers", reason="pip install -e '.[train]'")


def test_bradley_terry_loss_hand_numbers() -> None:
    # -log sigmoid(1) = log(1 + e^-1) = 0.313262; -log sigmoid(0) = log 2 = 0.693147
    loss = bradley_terry_loss(torch.tensor([1.0, 0.0]), torch.tensor([0.0, 0.0]))
    assert float(loss) == pytest.approx((0.313262 + 0.693147) / 2, abs=1e-6)
    # A margin of 1 turns the first pair's gap of 1 into 0: -log sigmoid(0) each.
    loss = bradley_terry_loss(torch.tensor([1.0, 0.0]), torch.tensor([0.0, 0.0]),
                              torch.tensor([1.0, 0.0]))
    assert float(loss) == pytest.approx(math.log(2), abs=1e-6)
    # Rejected far above chosen: the loss is the gap.
    loss = bradley_terry_loss(torch.tensor([0.0]), torch.tensor([30.0]))
    assert float(loss) == pytest.approx(30.0, abs=1e-6)


def test_split_is_deterministic_and_keeps_a_training_pair() -> None:
    pairs = [PreferencePair(f"p{i}", "c", "r") for i in range(10)]
    train, held = split_pairs(pairs, 0.2, seed=3)
    assert (len(train), len(held)) == (8, 2)
    assert split_pairs(pairs, 0.2, seed=3) == (train, held)
    assert {p.prompt for p in train + held} == {p.prompt for p in pairs}
    assert len(split_pairs(pairs[:1], 0.5)[0]) == 1
    with pytest.raises(ConfigError):
        split_pairs(pairs, 1.0)


def test_load_pairs_names_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "prefs.jsonl"
    path.write_text('{"prompt": "p", "chosen": "c", "rejected": "r", "margin": 0.5}\n'
                    '{"prompt": "p", "chosen": "c"}\n')
    with pytest.raises(InputError) as info:
        load_pairs(path)
    assert (info.value.line, info.value.field) == (2, "rejected")
    path.write_text('{"prompt": "p", "chosen": "c", "rejected": "r", "margin": 0.5}\n')
    assert load_pairs(path) == [PreferencePair("p", "c", "r", 0.5)]


def test_train_rm_reaches_high_eval_accuracy(trained_rm: dict[str, Any]) -> None:
    summary = trained_rm["summary"]
    assert (summary["train_pairs"], summary["eval_pairs"]) == (192, 48)
    # Measured with the fixture's recipe, pair and training seeds 0-7 x ISA {AVX-512, AVX2,
    # default} (ATEN_CPU_CAPABILITY, MKL_ENABLE_INSTRUCTIONS, ONEDNN_MAX_CPU_ISA), 24 runs:
    # eval accuracy 1.0 in every run (48 pairs: 0.9 allows 4 misses), as were the fresh-pair
    # wins of the next test; eval loss after epoch 2 at most 0.002 (the feature is easy).
    assert summary["eval_accuracy"] >= 0.9, trained_rm["log"]
    out = Path(trained_rm["dir"])
    metrics = json.loads((out / "train_metrics.json").read_text())
    assert metrics["eval_accuracy"] == summary["eval_accuracy"]
    assert len(metrics["history"]) == 2
    config = json.loads((out / "config.json").read_text())
    assert config["architectures"] == ["LlamaForSequenceClassification"]
    assert len(config["id2label"]) == 1  # one output: the scalar reward
    assert (out / "tokenizer.json").is_file() and (out / "model.safetensors").is_file()


def test_trained_rm_prefers_the_feature_on_new_pairs(trained_rm: dict[str, Any],
                                                     make_preferences: Any) -> None:
    rm = DiscriminativeRM(str(trained_rm["dir"]), backend="transformers")
    fresh = make_preferences(40, seed=99)
    chosen = rm.score([Sample(r["prompt"], r["chosen"]) for r in fresh])
    rejected = rm.score([Sample(r["prompt"], r["rejected"]) for r in fresh])
    wins = sum(c.value > r.value for c, r in zip(chosen, rejected))
    assert wins / len(fresh) >= 0.9  # measured 1.0 in all 24 runs (see the test above)


def test_discriminative_rm_scores_and_squashes(tiny_rm_dir: Path) -> None:
    engine = TransformersEngine(str(tiny_rm_dir))
    raw = DiscriminativeRM(engine=engine)
    squashed = DiscriminativeRM(engine=engine, squash="sigmoid")
    assert (raw.name, raw.kind) == ("rm", "learned")
    samples = [Sample("What is 2 + 3?", "5"), Sample([{"role": "user", "content": "hi"}], "hey")]
    r, s = raw.score(samples), squashed.score(samples)
    for a, b in zip(r, s):
        assert b.value == pytest.approx(1 / (1 + math.exp(-a.value)), rel=1e-9)
        assert b.parts["rm/raw"] == a.value
    expected = engine.sequence_scores([
        [{"role": "user", "content": "What is 2 + 3?"}, {"role": "assistant", "content": "5"}]])
    # scored in a batch of two against alone: other float32 kernels, measured 8.9e-7 apart on
    # AVX2 (0.89 of the old 1e-6), 2.4e-7 on the default ISA, 0 on AVX-512
    assert r[0].value == pytest.approx(expected[0], abs=5e-5)
    assert raw.score([]) == []
    with pytest.raises(ConfigError):
        DiscriminativeRM()


def test_train_rm_cli_reports_a_missing_base(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from rewards_cli import main

    pairs = tmp_path / "prefs.jsonl"
    pairs.write_text('{"prompt": "p", "chosen": "a", "rejected": "b"}\n')
    code = main(["train-rm", "--pairs", str(pairs), "--base", str(tmp_path / "no-model"),
                 "--out", str(tmp_path / "out")])
    assert code == 2  # refused before loading anything, and before the output folder is made
    assert "--base: no such model folder" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
