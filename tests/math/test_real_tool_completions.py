"""Real tool-integrated completions with another grader's verdicts: ToRA's greedy answers to
all 1319 GSM8K test problems (a Python program, its ```output block, then a sentence, most
with a box), from two models, as github.com/microsoft/ToRA ships them.

Data: tests/math/data/tora_70b_gsm8k.jsonl and tora_code_34b_gsm8k.jsonl, the fields `idx`,
`gt` (GSM8K's gold), `code[0]` (kept as `completion`) and `pred[0]` (the harness's extracted
answer) of `src/outputs/llm-agents/{tora-70b-v1.0,tora-code-34b-v1.0}/gsm8k/
test_tora_-1_seed0_t0.0_s0_e1319.jsonl` in github.com/microsoft/ToRA at
213c1c995038c73fab10343814df7a42f990f026; licence MIT (Copyright (c) Microsoft Corporation;
GSM8K itself is MIT).

The files store the harness's answer, not its verdict; the verdict is its GSM8K rule
(`src/eval/grader.py`, `math_equal`): both sides as floats with commas dropped, equal within
a relative 1e-4 to the gold, the gold / 100 or the gold * 100. The counts it gives are the
ones its `.metrics` files report (84.3% and 80.7%), which the test checks.

Every verdict agrees with the harness's except where the harness is wrong or the completion
never marks its answer, each listed with why."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from rewards import Sample

DATA = Path(__file__).parent / "data"

HARNESS_WRONG = {
    # the harness's percent rule takes any number 100 times off the gold
    ("tora_code_34b_gsm8k", 191): "gold 5 (pounds of insects a day), the box says 0.05",
    ("tora_code_34b_gsm8k", 806): "gold 70 (a pass rate in percent), the box says 0.7",
}
# No box, no answer phrase: the completion ends with a sentence whose last number comes from
# the question. The harness reads the program's printed output; the last-number fallback reads
# the sentence's rightmost number (math-verify's rule), which here is not the answer.
UNMARKED = {
    ("tora_70b_gsm8k", 98): "`5 cars drove through the traffic jam in the first 15 minutes.`"
                            " reads 15",
    ("tora_70b_gsm8k", 288): "`Three trucks will be needed to transport 80 flagstones in one"
                             " trip.` reads 80",
}


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def harness_verdict(pred: str, gold: str) -> bool:
    """ToRA's `math_equal` on GSM8K (numbers only: every gold is one)."""
    p, g = _number(pred), _number(gold)
    if p is None or g is None:
        return False
    return any(math.isclose(x, p, rel_tol=1e-4) for x in (g / 100, g, g * 100))


@pytest.mark.parametrize(("name", "their_correct"), [
    ("tora_70b_gsm8k", 1112),       # 84.3% of 1319
    ("tora_code_34b_gsm8k", 1064),  # 80.7% of 1319
])
def test_verdicts_agree_with_the_harness_on_tool_completions(
        math_reward, name: str, their_correct: int) -> None:
    rows = [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text().splitlines()]
    assert len(rows) == 1319
    theirs = [harness_verdict(row["pred"], row["gt"]) for row in rows]
    assert sum(theirs) == their_correct
    samples = [Sample("p", row["completion"], reference=row["gt"]) for row in rows]
    scores = math_reward.score(samples)
    assert all(s.value is not None for s in scores), [
        (row["idx"], s.reason) for row, s in zip(rows, scores) if s.value is None]
    differ = {(name, row["idx"]) for row, s, t in zip(rows, scores, theirs)
              if (s.value == 1.0) != t}
    listed = {key for key in {**HARNESS_WRONG, **UNMARKED} if key[0] == name}
    assert differ == listed
    assert all(s.value == 0.0 for row, s in zip(rows, scores) if (name, row["idx"]) in listed)


def test_a_percent_printed_by_the_program_is_the_gold_number(math_reward) -> None:
    """ToRA boxes the program's float as a percent (`\\boxed{50.0\\%}`, gold `50`): a whole
    value written with `.0` may drop its sign as `50\\%` may (8 completions in these files)."""
    rows = [json.loads(line) for line in (DATA / "tora_70b_gsm8k.jsonl").read_text()
            .splitlines()]
    row = rows[772]
    assert row["completion"].endswith("$\\boxed{50.0\\%}$ of her weekend playing soccer.")
    score = math_reward.score([Sample("p", row["completion"], reference=row["gt"])])[0]
    assert score.value == 1.0
