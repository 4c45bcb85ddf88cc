"""The probes of the learned components (`genrm`, `rm`): the machinery on judges whose flaw is
known (one that always prefers position A, one swayed by length, one that reads a single order;
an honest symmetric one earns nothing), then a run over the tiny random-weight models that
only has to run and report, and `rewards stress` on a config with both reporting them probed."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from genrm import GENRM_PROBES, RM_PROBES, DiscriminativeRM, GenRMReward
from rewards import Sample, Score
from rewards.config import parse_config
from rewards.engines import TemplatePrompt
from rewards.stress import BUILTIN_PROBES, StressReport, probe_set_for, stress_config, stress_reward

ROWS = [Sample("What is 6 times 7?", "6 * 7 = 42, so the answer is 42.", reference="42",
               domain="chat", group="g1"),
        Sample("Name the capital of France.", "The capital of France is Paris.",
               reference="Paris", domain="chat", group="g2"),
        Sample("What is 2 + 3?", "2 + 3 = 5.", reference="5", domain="chat", group="g3")]


def _text(prompt: Any) -> str:
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, TemplatePrompt):
        return prompt.template.format(**prompt.fields)
    if prompt and isinstance(prompt[0], Mapping):
        return "\n".join(m["content"] for m in prompt)
    return "".join(map(chr, prompt))


def _responses(prompt: str) -> tuple[str, str, str]:
    """Response A, response B and the reference out of the filled `DEFAULT_TEMPLATE`."""
    a_start = prompt.index("Response A:\n") + len("Response A:\n")
    b_mark = prompt.rindex("\n\nResponse B:\n")
    rest = prompt[b_mark + len("\n\nResponse B:\n"):]
    ref_mark = rest.rfind("\n\nReference answer:\n")
    end = ref_mark if ref_mark >= 0 else rest.rfind("\n\nWhich response is better?")
    reference = rest[ref_mark + len("\n\nReference answer:\n"):rest.rfind("\n\nWhich")] \
        if ref_mark >= 0 else ""
    return prompt[a_start:b_mark], rest[:end], reference


class TextJudge:
    """A judge engine whose P(A) is a rule over the two responses it reads: one character per
    token, so "A" and "B" are single tokens and the prompt text is read back exactly."""

    model = "text-judge"

    def __init__(self, p_a: Callable[[str, str, str], float]) -> None:
        self.p_a = p_a

    def tokenize(self, prompt: Any, *, add_special_tokens: bool = True) -> list[int]:
        return [ord(c) for c in _text(prompt)]

    def next_token_logprobs(self, prompts: Sequence[Any],
                            candidates: Sequence[str]) -> list[dict[str, float]]:
        out = []
        for prompt in prompts:
            p = self.p_a(*_responses(_text(prompt)))
            out.append({c: math.log(p) if c.strip() == "A" else math.log(1 - p)
                        for c in candidates})
        return out


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def always_first(a: str, b: str, ref: str) -> float:
    return 0.99


def longer(a: str, b: str, ref: str) -> float:  # verbosity bias, the same in either order
    return _sigmoid((len(a) - len(b)) / 20)


def matches_reference(a: str, b: str, ref: str) -> float:  # honest and symmetric
    return _sigmoid(4 * ((ref.strip() in a) - (ref.strip() in b)))


def _credited(report: StressReport) -> dict[str, int]:
    out: dict[str, int] = {}
    for p in report.components[0].probes:
        out[p.cls] = out.get(p.cls, 0) + p.credited + p.masked
    return out


def _stress_judge(p_a: Callable[[str, str, str], float], **options: Any) -> StressReport:
    reward = GenRMReward(engine=TextJudge(p_a), **options)  # type: ignore[arg-type]
    return stress_reward(reward, ROWS, probes=GENRM_PROBES)


@pytest.mark.parametrize("against", ["reference", "group"])
def test_a_judge_that_always_prefers_position_a_is_flagged(against: str) -> None:
    report = _stress_judge(always_first, against=against)
    position = next(p for p in report.components[0].probes if p.cls == "position_bias")
    assert position.rows == len(ROWS) and position.credited == len(ROWS)
    assert "the order decides" in position.example
    assert _credited(report).get("judge_talk", 0) == 0  # averaged, it prefers nothing


def test_a_symmetric_honest_judge_earns_nothing() -> None:
    report = _stress_judge(matches_reference)
    component = report.components[0]
    assert component.probed and component.rows == len(ROWS)
    assert {p.cls for p in component.probes} == {"position_bias", "judge_talk", "special_tokens"}
    assert all(p.rows == len(ROWS) and p.errors == 0 for p in component.probes)
    assert report.failures(0.0) == []


def test_a_judge_swayed_by_length_is_flagged_by_every_injection() -> None:
    report = _stress_judge(longer)
    by_name = {p.name: p for p in report.components[0].probes}
    assert by_name["the pair in both orders"].credited == 0  # the same in either order
    injections = [p for p in by_name.values() if p.cls in ("judge_talk", "special_tokens")]
    assert len(injections) == 9 and all(p.credited == len(ROWS) for p in injections)
    assert any("judge_talk/inject chinese" in f for f in report.failures(0.0))


class OneOrderJudge:
    """Reports both reads but scores by the first one only: not the symmetric judge it
    claims to be."""

    name = "one_order"

    def __init__(self) -> None:
        self.inner = GenRMReward(engine=TextJudge(matches_reference), against="reference")

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return [Score(s.parts["genrm/forward"], s.reason, s.parts)
                for s in self.inner.score(samples)]


def test_a_judge_that_does_not_average_both_orders_is_flagged() -> None:
    biased = GenRMReward(engine=TextJudge(lambda a, b, ref: 0.8 * matches_reference(a, b, ref)),
                         against="reference")  # type: ignore[arg-type]
    report = stress_reward(OneOrderJudge(), ROWS, probes=GENRM_PROBES)
    assert _credited(report).get("position_bias", 0) == 0  # forward only, but unbiased
    one_order = OneOrderJudge()
    one_order.inner = biased
    report = stress_reward(one_order, ROWS, probes=GENRM_PROBES)
    position = next(p for p in report.components[0].probes if p.cls == "position_bias")
    assert position.credited == len(ROWS) and "not the mean" in position.example


def test_genrm_averages_both_orders_in_group_mode_too() -> None:
    reward = GenRMReward(engine=TextJudge(always_first), against="group")  # type: ignore[arg-type]
    scores = reward.score([Sample("q", "one", group="g"), Sample("q", "two", group="g"),
                           Sample("q", "three", group="g")])
    for score in scores:
        assert score.parts["genrm/forward"] == pytest.approx(0.99)  # shown first: preferred
        assert score.parts["genrm/swapped"] == pytest.approx(0.01)
        assert score.value == pytest.approx(0.5)


class TextRM:
    """A reward-model engine whose raw score is a rule over the completion it reads."""

    model = "text-rm"

    def __init__(self, raw: Callable[[str], float]) -> None:
        self.raw = raw

    def sequence_scores(self, texts: Sequence[Any]) -> list[float]:
        return [self.raw(conversation[-1]["content"]) for conversation in texts]


@pytest.mark.parametrize(("raw", "credited"), [
    (lambda text: len(text) / 20, True),                      # longer is better: swayed
    (lambda text: 2.0 * ("=" in text), False),               # reads the working only
])
def test_reward_model_probes(raw: Callable[[str], float], credited: bool) -> None:
    for squash in ("none", "sigmoid"):
        rm = DiscriminativeRM(engine=TextRM(raw), squash=squash)  # type: ignore[arg-type]
        report = stress_reward(rm, ROWS, probes=RM_PROBES)
        component = report.components[0]
        assert component.probed and all(p.rows == len(ROWS) for p in component.probes)
        assert {p.cls for p in component.probes} == {"judge_talk", "special_tokens"}
        assert bool(report.failures(0.0)) is credited


def test_the_learned_components_are_registered_builtins() -> None:
    config = parse_config({"domains": {"chat": {"rewards": [
        {"use": "genrm", "model": "unused"}, {"use": "rm", "model": "unused"}]}}},
        source="test")
    for component, expected in zip(config.domains["chat"].rewards, (GENRM_PROBES, RM_PROBES)):
        assert component.use in BUILTIN_PROBES
        assert probe_set_for(component, object()) is expected  # type: ignore[arg-type]


# -- the tiny random-weight models: the probes run and report ----------------------------------

def test_probes_run_on_the_tiny_models(tiny_lm_dir: Path, tiny_rm_dir: Path) -> None:
    config = parse_config({"domains": {"chat": {"rewards": [
        {"use": "genrm", "model": str(tiny_lm_dir), "backend": "transformers"},
        {"use": "rm", "model": str(tiny_rm_dir), "backend": "transformers"}]}},
        "normalize": "none"}, source="test")
    report = stress_config(config, ROWS, rows=2)
    assert [c.use for c in report.components] == ["genrm", "rm"]
    for component in report.components:
        assert component.probed and component.rows == 2, component.note
        assert component.probes and all(p.rows == 2 and p.errors == 0
                                        for p in component.probes)
    assert report.unprobed() == []


def test_rewards_stress_reports_genrm_and_rm_probed(tmp_path: Path, tiny_lm_dir: Path,
                                                    tiny_rm_dir: Path) -> None:
    config = tmp_path / "learned.yaml"
    config.write_text(
        "domains:\n  math:\n    rewards:\n"
        f"      - {{use: genrm, model: '{tiny_lm_dir}', backend: transformers}}\n"
        f"      - {{use: rm, model: '{tiny_rm_dir}', backend: transformers, weight: 0.5}}\n"
        "normalize: none\n", encoding="utf-8")
    out = tmp_path / "stress.json"
    done = subprocess.run([sys.executable, "-m", "rewards", "stress", "--config", str(config),
                           "--rows", "1", "--report", str(out), "--require-probes"],
                          check=False, capture_output=True, text=True, timeout=600)
    # random weights: a probe may well earn credit (exit 1), but nothing is unprobed or broken
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["unprobed"] == []
    assert [(c["use"], c["probed"], c["rows"]) for c in report["components"]] == [
        ("genrm", True, 1), ("rm", True, 1)]
    assert "unprobed components" not in done.stderr


def test_the_control_text_the_probes_write_stays_text(tiny_lm_dir: Path,
                                                      tiny_rm_dir: Path) -> None:
    """What `special_tokens` measures is the literal characters: through the judge's prompt
    and the reward model's input, no control token comes from the completion (the template's
    own turn markers only; tests/engines/test_text_stays_text.py covers every path)."""
    from rewards.engines import TransformersEngine, control_texts
    from rewards.stress import Row

    probe = next(p for p in GENRM_PROBES.probes if p.cls == "special_tokens")
    samples = list(probe.build(Row(ROWS[0], None, "I do not know.")))
    assert len(samples) == 5  # the clean weak answer, then four tails
    for directory, make in ((tiny_lm_dir, GenRMReward), (tiny_rm_dir, DiscriminativeRM)):
        engine = TransformersEngine(str(directory))
        controls = set(control_texts(engine.tokenizer).values())
        seen: list[list[int]] = []
        original = engine.tokenize

        def spy(prompt: Any, _original: Any = original, _seen: list[list[int]] = seen,
                **options: Any) -> list[int]:
            ids = _original(prompt, **options)
            _seen.append(ids)
            return ids

        engine.tokenize = spy  # type: ignore[method-assign]
        make(engine=engine).score(samples)
        prompts = [ids for ids in seen if len(ids) > 8]  # not the one-token label spellings
        distinct = {tuple(ids) for ids in prompts}  # (an engine may re-read ids it was given)
        assert len(distinct) == len(samples) * (2 if make is GenRMReward else 1)  # both orders
        counts = {tuple(sorted(i for i in ids if i in controls)) for ids in prompts}
        assert len(counts) == 1 and counts != {()}  # the template's markers, the same in each
