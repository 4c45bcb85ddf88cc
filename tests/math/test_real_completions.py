"""Real model completions with another grader's verdicts: Qwen2.5-Math-Instruct's
chain-of-thought answers to 100 MATH test problems, 8 samples each (800 completions), as the
Qwen2.5-Math repository ships them with its evaluation harness's verdicts.

Data: tests/math/data/qwen25_math_cot_100.jsonl, the fields `idx`, `answer` (MATH's gold),
`code` (kept as `completions`) and `score` of `evaluation/data/eval_rm_maj_example/
math_cot_100.jsonl` in github.com/QwenLM/Qwen2.5-Math at a45202bd16f1ec06f433442dc1152d0074773465;
licence MIT (that folder's LICENSE, Copyright (c) 2024 Zhibin Gou; MATH itself is MIT).

Every verdict agrees with the harness's except where the harness is wrong, each listed with
why; one completion is a box followed by a page of token soup (a real output layout)."""

from __future__ import annotations

import json
from pathlib import Path

from rewards import Sample

DATA = Path(__file__).parent / "data" / "qwen25_math_cot_100.jsonl"
HARNESS_WRONG = {
    # gold `\text{4:30 p.m.}`: every sample boxes `4:30 \text{ p.m.}`; the harness strips the
    # text from the answer (4:30) but not from the gold
    **{(3, k): "the harness compares 4:30 with the gold 4:30 p.m." for k in range(8)},
    # gold `10{,}000`: the harness does not read `{,}` as a thousands separator
    (72, 7): "the harness reads the gold 10{,}000 as something other than 10000",
}


def test_verdicts_agree_with_the_harness_on_real_completions(math_reward) -> None:
    rows = [json.loads(line) for line in DATA.read_text().splitlines()]
    assert len(rows) == 100
    keys, samples, theirs = [], [], []
    for row in rows:
        for k, completion in enumerate(row["completions"]):
            keys.append((row["idx"], k))
            samples.append(Sample("p", completion, reference=row["answer"]))
            theirs.append(bool(row["score"][k]))
    assert len(samples) == 800
    scores = math_reward.score(samples)
    assert all(s.value is not None for s in scores), [
        (key, s.reason) for key, s in zip(keys, scores) if s.value is None]
    differ = {key for key, s, t in zip(keys, scores, theirs) if (s.value == 1.0) != t}
    assert differ == set(HARNESS_WRONG)
    assert all(s.value == 1.0 for key, s in zip(keys, scores) if key in HARNESS_WRONG)


def test_a_box_then_token_soup_keeps_the_box(math_reward) -> None:
    """Row 25, sample 1: `\\boxed{25}` then 6,700 characters of token soup holding
    `FIX######`: hashes inside a line are not GSM8K's `#### n` marker."""
    row = json.loads(DATA.read_text().splitlines()[25])
    completion = row["completions"][1]
    assert "FIX######" in completion and completion.rfind("\\boxed{25}") < len(completion) - 4000
    score = math_reward.score([Sample("p", completion, reference=row["answer"])])[0]
    assert score.value == 1.0
