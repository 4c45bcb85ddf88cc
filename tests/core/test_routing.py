import pytest

from rewards import Sample, Score, parse_config
from rewards.build import build_reward
from rewards.errors import ConfigError


def _build(domains, normalize="none"):
    return build_reward(parse_config({"domains": domains, "normalize": normalize}))


def test_routes_by_domain_with_default_fallback():
    r = _build({
        "exact": {"rewards": [{"use": "rewards_for_tests:exact"}]},
        "default": {"rewards": [{"use": "rewards_for_tests:Constant", "value": 0.25}]},
    })
    scores = r.score([Sample("p", "1", reference="1", domain="exact"),
                      Sample("p", "1", reference="2", domain="exact"),
                      Sample("p", "x", domain="other")])
    assert [s.value for s in scores] == [1.0, 0.0, 0.25]


def test_unknown_domain_without_default_is_explicit():
    r = _build({"exact": {"rewards": ["rewards_for_tests:exact"]}})
    (score,) = r.score([Sample("p", "x", domain="chat")])
    assert score == Score(None, "unknown_domain")


def test_alpha_mixes_verifiable_and_learned():
    # exact is verifiable (1.0 or 0.0); Constant is learned (0.5): 0.3 * v + 0.7 * 0.5
    r = _build({"d": {"alpha": 0.3, "rewards": [
        {"use": "rewards_for_tests:exact", "name": "v"},
        {"use": "rewards_for_tests:Constant", "value": 0.5, "name": "g"}]}})
    right, wrong = r.score([Sample("p", "1", reference="1", domain="d"),
                            Sample("p", "2", reference="1", domain="d")])
    assert right.value == pytest.approx(0.3 + 0.35)
    assert wrong.value == pytest.approx(0.35)
    assert dict(right.parts) == {"v": 1.0, "g": 0.5}


def test_abstention_propagates_and_is_not_zero():
    r = _build({"d": {"rewards": ["rewards_for_tests:abstain_on_missing"]}})
    (score,) = r.score([Sample("p", "1", domain="d")])
    assert score.value is None and score.reason == "bad_reference"


def test_group_normalization_keeps_raw_in_parts():
    r = _build({"d": {"rewards": ["rewards_for_tests:exact"]}}, normalize="group")
    samples = [Sample("p", c, reference="1", domain="d", group="g1") for c in ("1", "0")]
    a, b = r.score(samples)
    assert a.value == pytest.approx(0.5 / (0.5 + 1e-4))
    assert b.value == pytest.approx(-0.5 / (0.5 + 1e-4))
    assert a.parts["raw"] == 1.0 and b.parts["raw"] == 0.0


def test_ema_decay_from_config_keeps_running_statistics():
    r = _build({"d": {"rewards": ["rewards_for_tests:exact"]}}, normalize="zscore_by_domain")
    assert r.running is None
    cfg = parse_config({"domains": {"d": {"rewards": ["rewards_for_tests:exact"]}},
                        "normalize": "zscore_by_domain", "ema_decay": 0.5, "eps": 1e-3})
    r = build_reward(cfg)
    assert r.running is not None and r.eps == 1e-3
    first = r.score([Sample("p", c, reference="1", domain="d") for c in ("1", "0")])
    assert [s.value for s in first] == pytest.approx([1.0, -1.0])  # first batch: plain z-score


@pytest.mark.parametrize("alpha, side", [(0.5, "learned"), (0.0, "learned"), (0.9, "learned")])
def test_alpha_with_no_learned_side_is_an_error_naming_the_fix(alpha, side):
    """A plain @reward is verifiable: alpha would be silently ignored (1.0 + 0.5 = 1.5)."""
    with pytest.raises(ConfigError) as info:
        _build({"d": {"alpha": alpha, "rewards": [
            {"use": "rewards_for_tests:exact", "name": "v"},
            {"use": "rewards_for_tests:length", "name": "n"}]}})
    message = str(info.value)
    assert f"domain 'd': alpha {alpha:g} gives" in message and f"no weighted component is {side}" \
        in message and "`kind: learned`" in message


def test_alpha_is_fine_once_a_side_is_marked_or_not_needed():
    _build({"d": {"alpha": 0.5, "rewards": [
        {"use": "rewards_for_tests:exact", "name": "v"},
        {"use": "rewards_for_tests:length", "name": "n", "kind": "learned"}]}})
    _build({"d": {"alpha": 1.0, "rewards": ["rewards_for_tests:exact"]}})  # learned gets 0
    with pytest.raises(ConfigError, match="no weighted component is verifiable"):
        _build({"d": {"alpha": 0.5, "rewards": [
            {"use": "rewards_for_tests:exact", "name": "v", "kind": "learned"}]}})


def test_a_sample_without_a_domain_goes_to_a_one_domain_configs_domain():
    """One rule (`rewards.mixing.route_domain`) for the CLI and the adapters: a row that
    names no domain is scored by a one-domain config's domain (the CLI made it
    unknown_domain where the adapters scored it); a named unknown domain still abstains."""
    from rewards.mixing import route_domain

    r = _build({"exact": {"rewards": ["rewards_for_tests:exact"]}})
    scores = r.score([Sample("p", "1", reference="1"),                   # no domain
                      Sample("p", "1", reference="1", domain="chat")])  # another one
    assert scores == [Score(1.0, "ok", scores[0].parts), Score(None, "unknown_domain")]
    assert route_domain(["a", "b"], None) is None
    assert route_domain(["a", "default"], "c") == "default"
    assert route_domain(["a"], "default") == "a"


def test_the_cli_routes_a_row_without_a_domain_as_the_adapters_do(tmp_path):
    import json
    import subprocess
    import sys

    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"prompt": "2+2?", "completion": "\\\\boxed{4}",
                                "reference": "4"}) + "\n")
    config = tmp_path / "c.yaml"
    config.write_text("domains:\n  math: {rewards: [{use: math}]}\n")
    done = subprocess.run([sys.executable, "-m", "rewards", "score", str(rows), "--config",
                           str(config), "--out", str(tmp_path / "o.jsonl")],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    (row,) = [json.loads(line) for line in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert (row["score"], row["reason"]) == (1.0, "ok")
