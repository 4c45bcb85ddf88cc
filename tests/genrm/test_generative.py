"""GenRM on the transformers backend with a tiny local judge: the swap identity, label
variants, CoT reads, and pointwise use as a Reward."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from genrm.generative import GenRMJudge, GenRMReward, JudgeConfig, Pair
from rewards import Sample
from rewards.engines import Generation, TransformersEngine
from rewards.errors import ConfigError

pytest.importorskip("transformers", reason="pip install -e '.[train]'")

PAIRS = [
    Pair("What is 2 + 3?", "2 + 3 = 5, so the answer is 5.", "The answer is 6."),
    Pair([{"role": "user", "content": "Write add(a, b)."}], "def add(a, b):\n    return a + b",
         "print('hello')"),
    Pair("Name a colour.", "blue", "green", reference="blue"),
]

# The identities below hold exactly in arithmetic, but each side is read from its own batched
# float32 forward pass, and on some CPUs a row's logits depend on its batch neighbours and
# padding (MKL's AVX2 kernels; AVX-512 happens to give bit-equal rows). Measured on the tiny
# judge (ATEN_CPU_CAPABILITY, MKL_ENABLE_INSTRUCTIONS, ONEDNN_MAX_CPU_ISA = AVX-512, AVX2,
# default): the same prompt in two batches differs by up to 6e-8 in P(first), a batched read
# from a single one by up to 2e-6. A broken swap or a read at the wrong position is off by
# more than 1e-3 (the position bias asserted below), so these tolerances still catch it.
SAME_PROMPT_TOL = 1e-5
"""Two reads of the same prompt in different batches."""
BATCH_TOL = 1e-4
"""A read in a padded batch against a single-prompt read."""


@pytest.fixture(scope="module")
def engine(tiny_lm_dir: Path) -> TransformersEngine:
    return TransformersEngine(str(tiny_lm_dir))


def swapped(pairs: Sequence[Pair]) -> list[Pair]:
    return [Pair(p.question, p.second, p.first, p.reference) for p in pairs]


@pytest.mark.parametrize("config", [JudgeConfig(), JudgeConfig(chat=False),
                                    JudgeConfig(answer_prefix="Verdict: ")])
def test_p_a_over_b_plus_p_b_over_a_is_one(engine: TransformersEngine,
                                           config: JudgeConfig) -> None:
    judge = GenRMJudge(engine, config)
    ab = judge.judge(PAIRS)
    ba = judge.judge(swapped(PAIRS))
    for x, y in zip(ab, ba):
        assert x.reason == "ok" and x.p_first is not None and y.p_first is not None
        assert 0.0 < x.p_first < 1.0
        assert x.p_first + y.p_first == pytest.approx(1.0, abs=SAME_PROMPT_TOL)
        # The swapped read of one is the forward read of the other.
        assert x.swapped == pytest.approx(1.0 - y.forward, abs=SAME_PROMPT_TOL)
    # Position bias is real in a random judge: the two orders disagree, averaging matters.
    assert any(abs(x.forward - x.swapped) > 1e-3 for x in ab)


def test_probability_is_the_label_mass_ratio(engine: TransformersEngine) -> None:
    judge = GenRMJudge(engine)
    assert judge.variants == [["A", " A"], ["B", " B"]]  # both spellings are single tokens
    pair = PAIRS[0]
    jd = judge.judge([pair])[0]
    prompt = judge._prompt(pair, swap=False)
    lp = engine.next_token_logprobs([prompt], ["A", " A", "B", " B"])[0]
    p_a = math.exp(lp["A"]) + math.exp(lp[" A"])
    p_b = math.exp(lp["B"]) + math.exp(lp[" B"])
    assert jd.forward == pytest.approx(p_a / (p_a + p_b), abs=BATCH_TOL)


def test_answer_prefix_is_appended(engine: TransformersEngine) -> None:
    plain = GenRMJudge(engine)._prompt(PAIRS[0], swap=False)
    prefixed = GenRMJudge(engine, JudgeConfig(answer_prefix="Verdict: [["))._prompt(
        PAIRS[0], swap=False)
    tail = engine.tokenize("Verdict: [[", add_special_tokens=False)
    assert prefixed == plain + tail


def test_labels_without_a_single_token_spelling_are_rejected(engine: TransformersEngine) -> None:
    with pytest.raises(ConfigError, match="single token"):
        GenRMJudge(engine, JudgeConfig(labels=("Zebra-quux", "B")))


def test_templates_see_the_reference(engine: TransformersEngine) -> None:
    judge = GenRMJudge(engine, JudgeConfig(template="{reference_block}Q: {question}\n"
                                                    "A: {response_a}\nB: {response_b}\n"))
    text = engine.tokenizer.decode(judge._prompt(PAIRS[2], swap=True))
    assert "Reference answer:\nblue" in text and "A: green\nB: blue" in text


class CannedReasoning:
    """The real engine, except that `generate` returns the given reasoning texts in turn."""

    def __init__(self, engine: TransformersEngine, texts: Sequence[str]) -> None:
        self.engine, self.texts, self.model = engine, list(texts), engine.model

    def generate(self, prompts: Sequence[Any], **_: Any) -> list[list[Generation]]:
        assert len(prompts) == len(self.texts)
        return [[Generation(t, (), None, "stop")] for t in self.texts]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)


def test_cot_reads_the_verdict_at_the_verdict_position(engine: TransformersEngine) -> None:
    texts = ["A is right since 5 = 2 + 3. Verdict: A", "B gives 6. Verdict: B and more"]
    judge = GenRMJudge(CannedReasoning(engine, texts), JudgeConfig(mode="cot"))  # type: ignore[arg-type]
    jd = judge.judge([PAIRS[0]])[0]
    assert jd.reason == "ok" and jd.texts == tuple(texts)
    expected = []
    for swap, text in zip((False, True), texts):
        prefix = text[:text.rfind("Verdict:") + len("Verdict:")]
        ids = judge._prompt(PAIRS[0], swap) + engine.tokenize(prefix, add_special_tokens=False)
        lp = engine.next_token_logprobs([ids], ["A", " A", "B", " B"])[0]
        p_a = math.exp(lp["A"]) + math.exp(lp[" A"])
        p_b = math.exp(lp["B"]) + math.exp(lp[" B"])
        expected.append(p_a / (p_a + p_b))
    assert jd.forward == pytest.approx(expected[0], abs=BATCH_TOL)
    assert jd.swapped == pytest.approx(1.0 - expected[1], abs=BATCH_TOL)


def test_cot_without_a_marker_forces_the_verdict(engine: TransformersEngine) -> None:
    judge = GenRMJudge(CannedReasoning(engine, ["no verdict here", "none either"]),  # type: ignore[arg-type]
                       JudgeConfig(mode="cot"))
    jd = judge.judge([PAIRS[0]])[0]
    assert jd.reason == "verdict_forced" and jd.p_first is not None


@pytest.mark.parametrize("texts, p_first, reason", [
    (["Reasoning... Verdict: A", "Verdict: B"], 1.0, "ok"),
    (["Verdict: [[B]]", "so Verdict: (A)"], 0.0, "ok"),
    (["Verdict: **A**", "Verdict: A"], 0.5, "ok"),  # the orders disagree: position bias
    (["I cannot decide.", "Verdict: B"], None, "parse_failure"),
    (["Verdict: Both are fine", "Verdict: B"], None, "parse_failure"),
    (["Verdict: Alpha", "Verdict: B"], None, "parse_failure"),
])
def test_cot_parse_mode(engine: TransformersEngine, texts: list[str], p_first: float | None,
                        reason: str) -> None:
    judge = GenRMJudge(CannedReasoning(engine, texts),  # type: ignore[arg-type]
                       JudgeConfig(mode="cot", cot_read="parse"))
    jd = judge.judge([PAIRS[0]])[0]
    assert (jd.p_first, jd.reason) == (p_first, reason)


def test_cot_end_to_end_on_the_tiny_judge(engine: TransformersEngine) -> None:
    judge = GenRMJudge(engine, JudgeConfig(mode="cot", cot_max_tokens=8))
    ab, ba = judge.judge(PAIRS[:1])[0], judge.judge(swapped(PAIRS[:1]))[0]
    assert len(ab.texts) == 2 and ab.p_first is not None and ba.p_first is not None
    assert ab.p_first + ba.p_first == pytest.approx(1.0, abs=SAME_PROMPT_TOL)  # greedy reasoning


def test_reward_against_reference_and_in_groups(engine: TransformersEngine) -> None:
    reward = GenRMReward(engine=engine)
    assert (reward.name, reward.kind) == ("genrm", "learned")
    samples = [
        Sample("Name a colour.", "blue", reference="red"),
        Sample("q", "one", group="g"), Sample("q", "two", group="g"),
        Sample("q", "three", group="g"),
        Sample("lonely prompt", "alone"),
    ]
    scores = reward.score(samples)
    direct = GenRMJudge(engine).judge([Pair("Name a colour.", "blue", "red")])[0]
    assert scores[0].value == pytest.approx(direct.p_first)
    group = [s.value for s in scores[1:4]]
    assert all(v is not None and 0 < v < 1 for v in group)
    # Each pair hands out p and 1 - p: a group of k sums to k / 2.
    assert sum(group) == pytest.approx(1.5, abs=1e-9)
    assert scores[1].parts["genrm/comparisons"] == 2.0
    assert (scores[4].value, scores[4].reason) == (None, "no_group_peers")
    only_ref = GenRMReward(engine=engine, against="reference").score([Sample("q", "x")])
    assert (only_ref[0].value, only_ref[0].reason) == (None, "no_reference")


def test_reward_from_a_config_file(tmp_path: Path, tiny_lm_dir: Path) -> None:
    from rewards.build import build_reward

    config = tmp_path / "reward.yaml"
    config.write_text(
        "domains:\n  chat:\n    rewards:\n"
        f"      - {{use: genrm, model: '{tiny_lm_dir}', backend: transformers,"
        " labels: [A, B], engine_options: {dtype: float32}}\n"
        "normalize: none\n")
    reward = build_reward(config)
    scores = reward.score([Sample("q", "a", domain="chat", reference="b"),
                           Sample("q", "b", domain="chat", reference="a")])
    assert [s.value is not None for s in scores] == [True, True]
    assert scores[0].value + scores[1].value == pytest.approx(1.0, abs=SAME_PROMPT_TOL)


def test_bad_options_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="needs a judge"):
        GenRMReward()
    with pytest.raises(ConfigError, match="genrm: unknown key .colour."):
        GenRMReward(model="m", colour="blue")
    with pytest.raises(ConfigError, match="against"):
        GenRMReward(model="m", against="everyone")  # type: ignore[arg-type]
