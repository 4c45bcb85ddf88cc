"""Real model responses with the reference implementation's own verdicts, kept back in
tests/ifeval/data (sources and licences in its README): GPT-4 on IFEval's 540 prompts
(Google's evaluation) and a model on IFBench (IFBench's evaluation: the 287 of its 294
evaluated rows whose constraints are all among the 57 types decided here). Targets: the
all-followed verdict and the followed fraction agree on >= 99.5% of rows, strict and loose."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rewards import Sample
from rewards.ifeval import IFEvalReward

DATA = Path(__file__).parent / "data"
# Google's evaluation draws a random letter for `letter: "#"` (it takes only a-z): on row 1122
# (four "#" asked, four written) its strict run passed and its loose run failed. "#" is
# counted here: followed in both modes.
KNOWN = {("loose", 1122): "keywords:letter_frequency with letter '#': the reference drew a random letter",
         # IFBench row 163, `ratio:sentence_type` (2 sentences ending in "." per "?"): the
         # stored verdict counts `... meaning "paraphrasing."` as ending in "."; NLTK 3.10's
         # Punkt (the benchmark's reference) and `split_sentences` keep the closing quote in
         # that sentence, so it ends in '"' and the ratio is 1:1
         ("strict", "163"): "ratio:sentence_type: Punkt's break around a closing quote",
         ("loose", "163"): "ratio:sentence_type: Punkt's break around a closing quote"}


def _rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines()]


@pytest.mark.parametrize("mode", ["strict", "loose"])
@pytest.mark.parametrize(("name", "count"), [("ifeval_gpt4_responses.jsonl", 540),
                                             ("ifbench_responses.jsonl", 287)])
def test_verdicts_agree_with_the_reference_on_real_responses(name: str, count: int,
                                                             mode: str) -> None:
    rows = _rows(name)
    assert len(rows) == count
    reward = IFEvalReward(mode=mode, allow_loose=mode == "loose")  # loose: evaluation only
    samples = [Sample(r["prompt"], r["response"], {"instruction_id_list": r["instruction_id_list"],
                                                   "kwargs": r["kwargs"]}) for r in rows]
    all_agree = fraction_agree = 0
    differ = []
    for row, score in zip(rows, reward.score(samples)):
        assert score.value is not None, row["instruction_id_list"]
        mine = list(score.parts.values())
        theirs = [1.0 if v else 0.0 for v in row[mode]]
        all_agree += (min(mine) == 1.0) == all(row[mode])
        fraction_agree += score.value == sum(theirs) / len(theirs)
        if mine != theirs:
            differ.append(row["key"])
    assert all_agree >= 0.995 * count and fraction_agree >= 0.995 * count, differ
    known = [key for key in differ if (mode, key) in KNOWN]
    assert differ == known, f"unexplained: {sorted(set(differ) - set(known))}"
