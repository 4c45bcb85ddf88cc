"""Local scoring, the HTTP server and every batch adapter give equal scores under every
normalize mode (running z-score statistics included), batch after batch: they all score
through `rewards.scoring.score_batch` and normalize through the reward's own
`BatchNormalizer`. (The Celery client has the same test in tests/celery.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from integration_helpers import write_config  # type: ignore[import-not-found]

from integrations.openrlhf import reward_func
from integrations.trl import trl_rewards
from integrations.verl import compute_score_batch
from rewards import Sample, build_reward

MODES = {
    "none": "normalize: none",
    "zscore_by_domain": "normalize: zscore_by_domain",
    "zscore_by_domain+ema": "normalize: zscore_by_domain\nema_decay: 0.5\neps: 0.001",
    "group": "normalize: group\neps: 0.01",
}
CONFIG = """
domains:
  math: {rewards: [{use: "integration_rewards:brevity", name: brevity}]}
  text: {rewards: [{use: "integration_rewards:exact", name: exact}]}
"""
# two batches: the second one sees the running statistics the first one left
BATCHES = [
    [("p1 ", "x" * 10, "-", "math"), ("p1 ", "x" * 30, "-", "math"), ("p2 ", "yes", "yes", "text"),
     ("p2 ", "no", "yes", "text"), ("p2 ", "x" * 55, "-", "math"), ("p3 ", "ok", "ok", "text")],
    [("p4 ", "x" * 70, "-", "math"), ("p4 ", "x" * 5, "-", "math"), ("p5 ", "a", "b", "text"),
     ("p5 ", "b", "b", "text")],
]


def _samples(batch: list[tuple[str, str, str, str]]) -> list[Sample]:
    return [Sample(p, c, reference=r, domain=d, group=p) for p, c, r, d in batch]


def _config(tmp_path: Path, mode: str, name: str) -> Path:
    # one file per scorer: adapters cache a config's reward (and its statistics) per path
    return write_config(tmp_path / f"{name}.yaml", CONFIG + MODES[mode] + "\n")


def _local(tmp_path: Path, mode: str) -> list[list[float | None]]:
    reward = build_reward(_config(tmp_path, mode, "local"))
    return [[s.value for s in reward.score(_samples(b))] for b in BATCHES]


def _server(tmp_path: Path, mode: str) -> list[list[float | None]]:
    pytest.importorskip("fastapi", reason="the server needs pip install -e '.[server]'")
    from fastapi.testclient import TestClient

    from integrations.server import create_app

    out = []
    with TestClient(create_app(_config(tmp_path, mode, "server"))) as client:
        for batch in BATCHES:
            body = {"query": [p + c for p, c, _, _ in batch], "prompts": [p for p, *_ in batch],
                    "labels": [r for _, _, r, _ in batch], "domains": [d for *_, d in batch]}
            reply = client.post("/get_reward", json=body)
            assert reply.status_code == 200, reply.text
            out.append(reply.json()["rewards"])
    return out


def _openrlhf(tmp_path: Path, mode: str) -> list[list[float | None]]:
    config = _config(tmp_path, mode, "openrlhf")
    out = []
    for batch in BATCHES:
        result = reward_func([p + c for p, c, _, _ in batch], [p for p, *_ in batch],
                             [{"reference": r, "domain": d} for _, _, r, d in batch],
                             reward_config=config)
        out.append([float(v) for v in result["rewards"]])
    return out


def _verl(tmp_path: Path, mode: str) -> list[list[float | None]]:
    config = _config(tmp_path, mode, "verl")
    return [[r["score"] for r in compute_score_batch(
        ["dataset"] * len(batch), [c for _, c, _, _ in batch], [r for _, _, r, _ in batch],
        [{"domain": d, "index": p} for p, _, _, d in batch], reward_config=config)]
        for batch in BATCHES]


def _trl(tmp_path: Path, mode: str) -> list[list[float | None]]:
    (func,) = trl_rewards(_config(tmp_path, mode, "trl"), per_component=False).funcs
    return [func([p for p, *_ in batch], [c for _, c, _, _ in batch],
                 answer=[r for _, _, r, _ in batch], domain=[d for *_, d in batch])
            for batch in BATCHES]


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("scorer", [_server, _openrlhf, _verl, _trl])
def test_every_entry_point_scores_as_local_scoring(tmp_path: Path, mode: str, scorer) -> None:
    local = _local(tmp_path, mode)
    assert all(v is not None for batch in local for v in batch)  # nothing abstains here
    got = scorer(tmp_path, mode)
    if scorer is _openrlhf:  # OpenRLHF gets float32 tensors
        assert [pytest.approx(b, rel=1e-6, abs=1e-6) for b in local] == got
    else:
        assert got == local
    if mode != "none":
        assert local != [[s.value for s in build_reward(_config(tmp_path, "none", "raw"))
                          .score(_samples(b))] for b in BATCHES]  # normalization did something
