"""GenRM and the discriminative RM on real vLLM (offline engine, server, pooling engine),
checked against transformers on the same models."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from genrm.discriminative import DiscriminativeRM
from genrm.generative import GenRMJudge, JudgeConfig, Pair
from rewards import Sample
from rewards.engines import Engine, TransformersEngine, VLLMServerEngine
from rewards_cli import main

pytest.importorskip("transformers", reason="pip install -e '.[train]'")

TOL = 2e-3
PAIRS = [
    Pair("What is 2 + 3?", "2 + 3 = 5, so the answer is 5.", "The answer is 6."),
    Pair([{"role": "user", "content": "Write add(a, b)."}], "def add(a, b):\n    return a + b",
         "print('hello')"),
]


@pytest.fixture(scope="module")
def hf_judge(tiny_lm_dir: Path) -> TransformersEngine:
    return TransformersEngine(str(tiny_lm_dir))


@pytest.fixture(params=["offline", "server"])
def vllm_judge(request: pytest.FixtureRequest, vllm_lm_engine: Engine,
               vllm_server_url: str) -> Engine:
    # Both named statically: the session fixtures are released after their last static user.
    return vllm_lm_engine if request.param == "offline" else VLLMServerEngine(vllm_server_url)


@pytest.mark.parametrize("config", [JudgeConfig(), JudgeConfig(mode="cot", cot_max_tokens=8)])
def test_swap_identity_and_agreement(vllm_judge: Engine, hf_judge: TransformersEngine,
                                     config: JudgeConfig) -> None:
    judge = GenRMJudge(vllm_judge, config)
    ab = judge.judge(PAIRS)
    ba = judge.judge([Pair(p.question, p.second, p.first) for p in PAIRS])
    ref = GenRMJudge(hf_judge, config).judge(PAIRS)
    for x, y, r in zip(ab, ba, ref):
        assert x.p_first is not None and y.p_first is not None
        assert x.p_first + y.p_first == pytest.approx(1.0, abs=1e-6)
        assert x.texts == r.texts  # CoT: the same greedy reasoning
        assert (x.forward, x.swapped) == pytest.approx((r.forward, r.swapped), abs=TOL)


@pytest.fixture(params=["offline", "server"])
def vllm_rm(request: pytest.FixtureRequest, vllm_rm_engine: Engine,
            vllm_rm_server_url: str) -> DiscriminativeRM:
    if request.param == "offline":
        return DiscriminativeRM(engine=vllm_rm_engine)
    return DiscriminativeRM(url=vllm_rm_server_url)  # backend auto: a URL is a vllm-server


def test_trained_rm_scores_the_same_in_vllm_and_transformers(
        trained_rm: dict[str, Any], vllm_rm: DiscriminativeRM, make_preferences: Any) -> None:
    rows = make_preferences(12, seed=7)
    samples = [Sample(r["prompt"], r[side]) for r in rows for side in ("chosen", "rejected")]
    via_vllm = vllm_rm.score(samples)
    via_hf = DiscriminativeRM(str(trained_rm["dir"]), backend="transformers").score(samples)
    assert [s.value for s in via_vllm] == pytest.approx([s.value for s in via_hf], abs=TOL)
    spread = max(s.value for s in via_hf) - min(s.value for s in via_hf)
    assert spread > 1.0  # a trained head: the scores are far apart, agreement means something
    wins = sum(via_vllm[2 * i].value > via_vllm[2 * i + 1].value for i in range(len(rows)))
    assert wins >= 11


def test_label_cli_through_the_server(tmp_path: Path, vllm_server_url: str,
                                      tiny_lm_dir: Path) -> None:
    cands = tmp_path / "cands.jsonl"
    cands.write_text(json.dumps({"prompt": "Name a colour.",
                                 "candidates": ["blue", "green", "red"]}) + "\n")
    out_server, out_hf = tmp_path / "server.jsonl", tmp_path / "hf.jsonl"
    for judge, backend, out in ((vllm_server_url, "vllm-server", out_server),
                                (str(tiny_lm_dir), "transformers", out_hf)):
        with contextlib.redirect_stdout(io.StringIO()):
            code = main(["label", "--candidates", str(cands), "--judge", judge, "--backend",
                         backend, "--out", str(out), "--threshold", "0.5"])
        assert code == 0
    served = [json.loads(x) for x in out_server.read_text().splitlines()]
    local = [json.loads(x) for x in out_hf.read_text().splitlines()]
    assert len(served) == len(local) == 3
    for s, h in zip(served, local):
        assert (s["chosen"], s["rejected"]) == (h["chosen"], h["rejected"])
        assert s["confidence"] == pytest.approx(h["confidence"], abs=TOL)
