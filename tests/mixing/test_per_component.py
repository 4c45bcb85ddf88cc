"""`normalize: group_per_component` (GDPO; TRL's `normalize_then_sum`): each component
group-normalized on its own, the weighted sum, then the batch normalized. Checked against
the formula on hand-computed groups, with a component that abstains on some samples, a
sample where every weighted component abstains, and a weight-0 component (logged only);
then every entry point (local scoring, the Celery client's normalizer, the server, the
OpenRLHF, veRL and TRL adapters, the GRPO loop's advantages) against local scoring."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from rewards import Sample, Score, build_reward
from rewards.config import parse_config
from rewards.mixing import (
    BatchNormalizer,
    DomainRouter,
    MixPlan,
    Mixture,
    WeightedComponent,
    normalize,
)

HERE = Path(__file__).parent
EPS = 1e-4  # the default epsilon of group normalization


class Fixed:
    """A reward returning preset values in order (None = abstain)."""

    def __init__(self, name, values, kind="verifiable"):
        self.name, self.values, self.kind = name, list(values), kind

    def score(self, samples):
        return [Score(v, "ok" if v is not None else "timeout")
                for v, _ in zip(self.values, samples)]


def _batch_norm(xs):
    """Step 3 of GDPO, by hand: (x - mean) / (population std + eps) over the batch."""
    mean = sum(xs) / len(xs)
    std = math.sqrt(sum((x - mean) ** 2 for x in xs) / len(xs))
    return [(x - mean) / (std + EPS) for x in xs]


# Group g1: a = [1, 0, 1] (mean 2/3, std sqrt(2/9)), b = [0.2, None, 0.8] (mean 0.5, std 0.3,
# counted over the two that scored); g2: a = [0, 0] (std 0: normalizes to 0),
# b = [1.0, 0.0] (mean 0.5, std 0.5). Weights a 1, b 0.5, log 0.
A = (1 / 3) / (math.sqrt(2 / 9) + EPS)
B = 0.3 / (0.3 + EPS)
C = 0.5 / (0.5 + EPS)
SUMS = [A - 0.5 * B, -2 * A, A + 0.5 * B, 0.5 * C, -0.5 * C]  # b skipped where it abstained
EXPECTED = _batch_norm(SUMS)


def _mixture(log_values):
    a = [1.0, 0.0, 1.0, 0.0, 0.0, None]
    b = [0.2, None, 0.8, 1.0, 0.0, None]  # the sixth sample: every weighted part abstains
    return Mixture([WeightedComponent(Fixed("a", a), 1.0),
                    WeightedComponent(Fixed("b", b), 0.5),
                    WeightedComponent(Fixed("log", log_values), 0.0)], name="d")


SAMPLES = [Sample("p", str(i), domain="d", group=g)
           for i, g in enumerate(["g1", "g1", "g1", "g2", "g2", "g2"])]


def test_per_component_normalization_is_the_gdpo_formula():
    router = DomainRouter({"d": _mixture([5.0, 6.0, 7.0, 8.0, 9.0, 10.0])},
                          normalize="group_per_component")
    scores = router.score(SAMPLES)
    assert [s.value for s in scores[:5]] == pytest.approx(EXPECTED, abs=1e-12)
    assert scores[5].value is None  # abstained: stays None, counted nowhere
    # the raw weighted sum and every component (weight 0 included) are still logged
    assert scores[0].parts["raw"] == pytest.approx(1.0 + 0.5 * 0.2)
    assert scores[0].parts["log"] == 5.0 and scores[1].parts["b"] is None


def test_weight_zero_component_is_logged_only():
    wild = DomainRouter({"d": _mixture([1e6, -3.0, 0.0, 42.0, 7.0, 1.0])},
                        normalize="group_per_component")
    calm = DomainRouter({"d": _mixture([5.0, 6.0, 7.0, 8.0, 9.0, 10.0])},
                        normalize="group_per_component")
    assert [s.value for s in wild.score(SAMPLES)] == [s.value for s in calm.score(SAMPLES)]


def test_differs_from_normalizing_the_sum():
    """The point of GDPO: under the sum's group normalization, (a, b) = (0, 1) and (1, 0)
    get one advantage (both sum to 1); per component, missing a (the rarer outcome: 3 of 4
    have it) costs more than missing b (2 of 4)."""
    a, b = [1.0, 0.0, 1.0, 1.0], [0.0, 1.0, 0.0, 1.0]
    samples = [Sample("p", str(i), domain="d", group="g") for i in range(4)]

    def values(mode):
        mix = Mixture([WeightedComponent(Fixed("a", a)), WeightedComponent(Fixed("b", b))],
                      name="d")
        return [s.value for s in DomainRouter({"d": mix}, normalize=mode).score(samples)]

    summed, gdpo = values("group"), values("group_per_component")
    assert summed[1] == pytest.approx(summed[2])
    # a: mean 3/4, std sqrt(3)/4; b: mean 1/2, std 1/2
    na = [(x - 0.75) / (math.sqrt(3) / 4 + EPS) for x in a]
    nb = [(x - 0.5) / (0.5 + EPS) for x in b]
    assert gdpo == pytest.approx(_batch_norm([x + y for x, y in zip(na, nb)]), abs=1e-12)
    assert gdpo[1] < gdpo[2] - 0.1


def test_alpha_combines_the_normalized_sides():
    """With alpha, the normalized verifiable and learned sides mix by alpha, as raw ones do;
    where the learned side abstains entirely the verifiable one stands alone."""
    v, g = [1.0, 0.0, 0.0, 1.0], [0.9, 0.1, None, None]
    mix = Mixture([WeightedComponent(Fixed("v", v), 1.0, "verifiable"),
                   WeightedComponent(Fixed("g", g), 1.0, "learned")], alpha=0.25, name="d")
    samples = [Sample("p", str(i), domain="d", group=grp)
               for i, grp in enumerate(["x", "x", "y", "y"])]
    got = [s.value for s in DomainRouter({"d": mix}, normalize="group_per_component")
           .score(samples)]
    nv = 0.5 / (0.5 + EPS)  # each group of v: [1, 0] or [0, 1] -> +-nv
    ng = 0.4 / (0.4 + EPS)  # group x of g: [0.9, 0.1] -> +-ng; group y: g abstained
    sums = [0.25 * nv + 0.75 * ng, -0.25 * nv - 0.75 * ng, -nv, nv]
    assert got == pytest.approx(_batch_norm(sums), abs=1e-12)


def test_mixture_names_are_unique():
    """Parts and the plan go by component name: two components of one name would collide."""
    from rewards.errors import ConfigError

    with pytest.raises(ConfigError, match="unique"):
        Mixture([WeightedComponent(Fixed("a", [1.0])), WeightedComponent(Fixed("a", [0.0]))])


def test_plan_from_config_equals_the_built_mixtures():
    """The Celery client normalizes with plans read from the config, the workers score with
    the built mixtures: the two must agree (names, weights, kinds, alpha)."""
    config = parse_config({"domains": {
        "chat": {"alpha": 0.3, "rewards": [
            {"use": "gdpo_rewards:has_a", "name": "v", "weight": 2.0},
            {"use": "gdpo_rewards:b_value", "name": "j", "kind": "learned"},
            {"use": "gdpo_rewards:length", "name": "len", "weight": 0.0}]},
        "plain": {"rewards": [{"use": "gdpo_rewards:has_a"}]}},
        "normalize": "group_per_component"})
    import sys
    sys.path.insert(0, str(HERE))
    try:
        router = build_reward(config)
    finally:
        sys.path.remove(str(HERE))
    built = {d: MixPlan.of(r) for d, r in router.domains.items()}
    assert BatchNormalizer.from_config(config).plans == built
    assert built["chat"] == MixPlan((("v", 2.0, "verifiable"), ("j", 1.0, "learned"),
                                     ("len", 0.0, "verifiable")), 0.3)


def test_normalize_function_is_the_routers():
    """`normalize` on raw scores (what the server, the adapters and the Celery client call)
    gives what the router gives."""
    router = DomainRouter({"d": _mixture([5.0, 6.0, 7.0, 8.0, 9.0, 10.0])},
                          normalize="group_per_component")
    raw = router.raw.score(SAMPLES)
    assert normalize(raw, SAMPLES, "group_per_component", plans=router.normalizer.plans) \
        == router.score(SAMPLES)


# -- every entry point gives the same values ---------------------------------------------------

CONFIG = """
domains:
  d:
    rewards:
      - {use: "gdpo_rewards:has_a", name: a}
      - {use: "gdpo_rewards:b_value", name: b, weight: 0.5}
      - {use: "gdpo_rewards:length", name: log, weight: 0.0}
normalize: group_per_component
"""
# the hand-computed groups above, as completions: a = "A" present, b = "b=<value>" or absent
ROWS = [("p1 ", "A b=0.2"), ("p1 ", "x"), ("p1 ", "A b=0.8"), ("p2 ", "b=1.0"),
        ("p2 ", "b=0.0")]


@pytest.fixture
def config(tmp_path, monkeypatch) -> Path:
    monkeypatch.syspath_prepend(str(HERE))
    path = tmp_path / "gdpo.yaml"
    path.write_text(CONFIG)
    return path


def _samples():
    return [Sample(p, c, domain="d", group=p) for p, c in ROWS]


def _local(config):
    return [s.value for s in build_reward(config).score(_samples())]


def _celery_client(config):
    """What `CeleryReward.score` does with the workers' raw scores (workers build the config
    with `normalize: none`; the client normalizes with `BatchNormalizer.from_config`)."""
    from dataclasses import replace

    from rewards.config import load_config

    loaded = load_config(config)
    raw = build_reward(replace(loaded, normalize="none")).score(_samples())
    return [s.value for s in BatchNormalizer.from_config(loaded)(_samples(), raw)]


def _cli(config):
    import json

    from rewards_cli import main

    source, out = config.parent / "rows.jsonl", config.parent / "out.jsonl"
    source.write_text("".join(json.dumps({"prompt": p, "completion": c, "domain": "d",
                                          "group": p}) + "\n" for p, c in ROWS))
    assert main(["score", str(source), "--config", str(config), "--out", str(out)]) == 0
    return [json.loads(line)["score"] for line in out.read_text().splitlines()]


def _server(config):
    pytest.importorskip("fastapi", reason="the server needs pip install -e '.[server]'")
    from fastapi.testclient import TestClient

    from integrations.server import create_app

    with TestClient(create_app(config)) as client:
        reply = client.post("/get_reward", json={
            "query": [p + c for p, c in ROWS], "prompts": [p for p, _ in ROWS],
            "labels": [None] * len(ROWS), "domains": ["d"] * len(ROWS)})
        assert reply.status_code == 200, reply.text
        return reply.json()["rewards"]


def _openrlhf(config):
    from integrations.openrlhf import reward_func

    result = reward_func([p + c for p, c in ROWS], [p for p, _ in ROWS],
                         [{"domain": "d"} for _ in ROWS], reward_config=config)
    return [float(v) for v in result["rewards"]]


def _verl(config):
    from integrations.verl import compute_score_batch

    return [r["score"] for r in compute_score_batch(
        ["dataset"] * len(ROWS), [c for _, c in ROWS], [None] * len(ROWS),
        [{"domain": "d", "index": p} for p, _ in ROWS], reward_config=config)]


def _trl(config):
    from integrations.trl import trl_rewards

    (func,) = trl_rewards(config, per_component=False).funcs
    return func([p for p, _ in ROWS], [c for _, c in ROWS], domain=["d"] * len(ROWS))


def _grpo(config):
    """The built-in GRPO loop's advantages: the reward's values, not normalized again."""
    from rl.grpo import step_advantages

    reward = build_reward(config)
    rewards = [s.value for s in reward.score(_samples())]
    return step_advantages(rewards, [0, 0, 0, 1, 1], scale=True, normalize=reward.normalize)


@pytest.mark.parametrize("entry", [_local, _celery_client, _cli, _server, _openrlhf, _verl,
                                   _trl, _grpo])
def test_every_entry_point_gives_the_formula(config, entry):
    got = entry(config)
    tolerance = 1e-6 if entry is _openrlhf else 1e-12  # OpenRLHF's float32 tensors
    assert got == pytest.approx(EXPECTED, abs=tolerance)


def test_trl_components_ask_for_trls_gdpo(config):
    """Per component, the functions return raw values and TRL normalizes: the adapter asks
    for TRL's own GDPO with the config's weights."""
    from integrations.trl import trl_rewards

    rewards = trl_rewards(config)
    assert rewards.aggregation == "normalize_then_sum"
    assert rewards.weights == (1.0, 0.5, 0.0)
    assert [f.__name__ for f in rewards.funcs] == ["a", "b", "log"]


@pytest.mark.parametrize("adapter", ["verl", "areal", "verifiers"])
def test_per_rollout_adapters_refuse_it(config, adapter):
    """A per-rollout adapter never sees a group: it refuses rather than train the raw sum."""
    from rewards.errors import ConfigError

    with pytest.raises(ConfigError, match="group_per_component"):
        if adapter == "verl":
            from integrations.verl import compute_score

            compute_score("dataset", "A b=0.5", None, {"domain": "d"}, reward_config=config)
        elif adapter == "areal":
            from integrations.areal import AReaLReward

            AReaLReward(config)("p", "A b=0.5", domain="d")
        else:
            from integrations.verifiers import reward_funcs

            reward_funcs(config)
