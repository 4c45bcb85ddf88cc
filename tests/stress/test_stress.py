"""`rewards stress`: the probes find the weak rewards people write in a hurry (each flagged
with the class that beats it), hold on the built-in components, and the command's report and
exit status say so."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from rewards import Sample, Score
from rewards.config import parse_config
from rewards.stress import (
    BUILTIN_PROBES,
    Probe,
    ProbeSet,
    StressReport,
    stress_config,
    stress_reward,
)
from rewards.stress._probe import ATTACK_CLASSES

DATA = Path(__file__).resolve().parents[2] / "rewards" / "data"


def _rows(*names: str) -> list[Sample]:
    out = []
    for name in names:
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            out.append(Sample(r["prompt"], r["completion"], reference=r.get("reference"),
                              domain=r.get("domain", "default"), group=r.get("group"),
                              meta=r.get("meta", {})))
    return out


def _failing_classes(report: StressReport) -> set[str]:
    return {re.search(r": (\w+)/", f).group(1) for f in report.failures(0.0)
            if ": gate " not in f}


def _stress(use: str, domain: str, rows: list[Sample], **options: object) -> StressReport:
    config = parse_config({"domains": {domain: {"rewards": [{"use": use, **options}]}}},
                          source="test")
    return stress_config(config, rows, rows=4)


# --- weak rewards of the kinds people write in a hurry: each is flagged by its class ---------

class DigitsOnly:
    """Compares the digits of the answer's last box with the gold's: drops every word."""

    name = "digits_only"
    kind = "verifiable"

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        out = []
        for s in samples:
            box = s.completion.rsplit("\\boxed{", 1)[-1] if "\\boxed{" in s.completion else ""
            digits = "".join(c for c in box if c.isdigit())
            out.append(Score(float(bool(digits) and digits == str(s.reference))))
        return out


class AnyNumber:
    """Credit when the gold appears anywhere in the text: no committed answer needed."""

    name = "any_number"
    kind = "verifiable"

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return [Score(float(str(s.reference) in s.completion)) for s in samples]


class JsonCalls:
    """Parses the reply as JSON and raises on anything else (the batch masks the sample)."""

    name = "json_calls"
    kind = "verifiable"

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        out = []
        for s in samples:
            try:
                json.loads(s.completion.split("<tool_call>")[-1].split("</tool_call>")[0])
            except ValueError:
                out.append(Score(None, "parse_error"))
                continue
            out.append(Score(0.0, "wrong"))
        return out


def test_a_reward_that_drops_words_is_flagged_meaning_dropped():
    from rewards.math._probes import PROBES

    report = _stress_object(_with_probes(DigitsOnly(), PROBES), "math",
                            _rows("example_rollouts.jsonl"))
    assert {"meaning_dropped", "hedging"} <= _failing_classes(report)


def test_a_reward_that_finds_the_gold_anywhere_is_flagged_no_commitment():
    from rewards.math._probes import PROBES

    report = _stress_object(_with_probes(AnyNumber(), PROBES), "math",
                            _rows("example_rollouts.jsonl"))
    assert {"no_commitment", "hedging", "judge_talk"} <= _failing_classes(report)


def test_a_reward_that_abstains_on_malformed_calls_is_flagged_masking():
    from rewards.envs._tool_call_probes import PROBES

    report = _stress_object(_with_probes(JsonCalls(), PROBES), "tools",
                            _rows("stress_examples.jsonl"))
    failing = report.failures(0.0)
    assert any("masking/" in f and "masked" in f for f in failing)


def test_loose_mode_is_flagged_loose_tricks():
    report = _stress("ifeval", "instructions", _rows("stress_examples.jsonl"), mode="loose",
                     allow_loose=True)
    assert "loose_tricks" in _failing_classes(report)
    strict = _stress("ifeval", "instructions", _rows("stress_examples.jsonl"))
    assert not strict.failures(0.0)


def test_rtv_without_the_gate_is_flagged_hard_coding(sandbox_ready):
    report = _stress("rtv", "code", _rows("example_rollouts.jsonl"))
    assert "hard_coding" in _failing_classes(report)
    assert any("set gate: true" in f for f in report.failures(0.0))


# --- the built-in components ----------------------------------------------------------------

@pytest.mark.parametrize(("use", "domain", "options"), [
    ("ifeval", "instructions", {}),
    ("tool_call", "tools", {}),
    ("format", "reasoning", {"mode": "think_answer"}),
    ("format", "reasoning", {}),
    ("tag_count", "reasoning", {}),
    ("reasoning_steps", "reasoning", {}),
    ("repetition", "reasoning", {}),
    ("overlong", "reasoning", {"max_length": 400, "cache_length": 100}),
    ("cosine", "reasoning", {"of": "math"}),
    ("length", "reasoning", {"of": "math"}),
])
def test_builtin_components_hold_on_the_bundled_rows(use, domain, options):
    report = _stress(use, domain, _rows("stress_examples.jsonl"), **options)
    component = report.components[0]  # then its `of:` component, where it has one
    assert component.probed and component.rows >= 3 and component.probes
    own = StressReport([component])  # the `of:` component is stressed as its own use
    assert own.failures(0.0) == []


def test_every_builtin_that_needs_no_model_has_probes():
    from rewards.registry import builtin_names

    learned = {"genrm", "rm", "celery"}  # a model or a broker: stressed with the user's config
    assert set(builtin_names()) - learned <= set(BUILTIN_PROBES)
    for path in BUILTIN_PROBES.values():
        module, _, attr = path.partition(":")
        probe_set = getattr(__import__(module, fromlist=[attr]), attr)
        assert isinstance(probe_set, ProbeSet)
        assert all(p.cls in ATTACK_CLASSES for p in probe_set.probes)


def test_a_component_without_probes_is_unprobed_never_safe():
    class NoProbes:
        name = "plain"

        def score(self, samples):
            return [Score(0.0) for _ in samples]

    report = stress_reward(NoProbes(), _rows("example_rollouts.jsonl"))
    assert report.unprobed() and not report.components[0].probed
    assert "unprobed" in report.unprobed()[0]


def test_a_shaping_component_stresses_its_correctness_too():
    report = _stress("cosine", "math", _rows("example_rollouts.jsonl"), of="math")
    names = [c.name for c in report.components]
    assert names == ["cosine", "cosine.math"] and all(c.probed for c in report.components)


@pytest.mark.parametrize(("use", "weak", "cls"), [
    # each shaping reward before its fix, rebuilt here as people write them in a hurry
    ("reasoning_steps", lambda t: min(1.0, sum(t.count(m) for m in ("Step ", "First,",
                                                                       "Next,")) / 3), "tag_games"),
    ("repetition", lambda t: -(1 - len(set(t.split())) / max(len(t.split()), 1)), "invisible"),
    ("cosine", lambda t: min(1.0, len(t) / 1000) - 1, "invisible"),
])
def test_weak_shaping_rewards_are_flagged(use, weak, cls):
    from rewards.stress import probe_set_for

    class Weak:
        name = f"weak_{use}"

        def score(self, samples):
            return [Score(float(weak(s.completion))) for s in samples]

    config = parse_config({"domains": {"d": {"rewards": [{"use": use, "of": "math"}
                                                         if use == "cosine" else use]}}})
    probes = probe_set_for(config.domains["d"].rewards[0], Weak())
    report = stress_reward(Weak(), _rows("stress_examples.jsonl"), probes=probes)
    assert cls in _failing_classes(report)


def test_a_plugin_declares_its_own_probes():
    probes = ProbeSet(probes=(Probe("hedging", "two answers", lambda row: ["1 or 2"]),),
                      wrong=lambda sample: "0")
    report = _stress_object(_with_probes(AnyNumber(), probes), "math",
                            [Sample("q", "1", reference="1", domain="math", group="g")])
    assert report.components[0].probed
    assert "hedging" in _failing_classes(report)


def test_a_probe_that_cannot_build_is_reported_not_run():
    def broken(row):
        raise KeyError("no such column")

    probes = ProbeSet(probes=(Probe("hedging", "broken", broken),), wrong=lambda s: "0")
    report = _stress_object(_with_probes(AnyNumber(), probes), "math",
                            [Sample("q", "1", reference="1", domain="math", group="g")])
    (result,) = report.components[0].probes
    assert result.errors == 1 and "could not build" in result.example


# --- the command ----------------------------------------------------------------------------

def test_stress_command_reports_and_exits_by_the_failures(tmp_path):
    rows = tmp_path / "rows.jsonl"
    rows.write_text("\n".join(line for line in (DATA / "stress_examples.jsonl").read_text(
        encoding="utf-8").splitlines() if '"reasoning"' in line) + "\n", encoding="utf-8")
    ok = tmp_path / "ok.yaml"
    ok.write_text("domains:\n  reasoning: {rewards: [{use: format, mode: think_answer}]}\n")
    out = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-m", "rewards", "stress", "--config", str(ok),
                           "--data", str(rows), "--report", str(out)],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(out.read_text())
    assert report["failures"] == [] and report["components"][0]["probes"]
    plugin = tmp_path / "weak_format.py"
    plugin.write_text(
        "from rewards import Score\n"
        "class Weak:\n"
        "    name = 'weak'\n"
        "    def score(self, samples):\n"
        "        return [Score(float('<think>' in s.completion)) for s in samples]\n"
        "from rewards.reasoning._probes import FORMAT_PROBES\n"
        "Weak.probes = FORMAT_PROBES\n")
    weak = tmp_path / "weak.yaml"
    weak.write_text("domains:\n  reasoning: {rewards: [{use: 'weak_format:Weak'}]}\n")
    done = subprocess.run([sys.executable, "-m", "rewards", "stress", "--config", str(weak),
                           "--data", str(rows)], capture_output=True, text=True, check=False,
                          timeout=300, cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAIL reasoning/weak_format:Weak: tag_games/tag spam" in done.stdout


# --- helpers --------------------------------------------------------------------------------

def _with_probes(reward, probes: ProbeSet):
    reward.probes = probes
    return reward


def _stress_object(reward, domain: str, rows: list[Sample]) -> StressReport:
    """Stress a reward object (a plugin) on the rows of `domain`."""
    return stress_reward(reward, [r for r in rows if r.domain == domain], rows=4,
                         domain=domain)


def test_every_builtin_holds_on_the_bundled_config(sandbox_ready, tmp_path):
    """The contract: `rewards stress --all-builtins` (every built-in that needs no model, on the
    bundled rows) earns no credit anywhere and every component is probed."""
    out = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-m", "rewards", "stress", "--all-builtins",
                           "--require-probes", "--report", str(out)], capture_output=True,
                          text=True, check=False, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    report = json.loads(out.read_text())
    assert report["failures"] == [] and report["unprobed"] == []
    used = {c["use"] for c in report["components"]}
    assert {"math", "rtv", "ifeval", "tool_call", "format", "tag_count", "reasoning_steps",
            "repetition", "overlong", "cosine", "length"} <= used
