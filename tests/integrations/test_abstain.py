"""Abstentions in the adapters: never trained as 0 by default (each framework's own way to
leave a sample out), `abstain: mask | zero | raise`, and a run that abstains for a
configuration cause fails loudly (or warns once)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from integration_helpers import write_config  # type: ignore[import-not-found]

from integrations import verl
from integrations.openrlhf import MASK_SCORE, reward_func
from integrations.trl import trl_rewards
from rewards.errors import ConfigError, InputError
from rewards.scoring import ConfigurationAbstention

CONFIG = """
domains:
  text:
    rewards:
      - {use: "integration_rewards:exact", name: exact}
      - {use: "integration_rewards:brevity", name: brevity, weight: 0.0}
  other: {rewards: [{use: "integration_rewards:brevity", name: short}]}
"""


@pytest.fixture
def config(tmp_path: Path) -> Path:  # a fresh path: a fresh run (tallies are per config)
    return write_config(tmp_path / "abstain.yaml", CONFIG)


def _trl_call(funcs, answers):
    return [f(["q"] * len(answers), ["a"] * len(answers), answer=answers,
              domain=["text"] * len(answers)) for f in funcs]


def test_trl_masks_an_abstention_in_every_function_even_logged_only_parts(config) -> None:
    funcs = trl_rewards(config).funcs  # text/exact, text/brevity (weight 0), other/short
    assert _trl_call(funcs, ["a", None]) == [[1.0, None], [0.99, None], [None, None]]
    zero = trl_rewards(config, abstain="zero").funcs
    assert _trl_call(zero, ["a", None]) == [[1.0, 0.0], [0.99, 0.0], [None, None]]
    with pytest.raises(InputError, match="sample 1 .* abstained: bad_reference:missing"):
        _trl_call(trl_rewards(config, abstain="raise").funcs, ["a", None])
    with pytest.raises(ConfigError, match="abstain must be one of"):
        trl_rewards(config, abstain="skip")  # type: ignore[arg-type]


def test_trl_logs_abstentions_by_cause(config) -> None:
    metrics: dict[str, float] = {}
    (func,) = trl_rewards(config, per_component=False).funcs
    func(["q", "q"], ["a", "a"], answer=["a", None], domain=["text", "text"],
         log_metric=metrics.__setitem__)
    assert {k: v for k, v in metrics.items() if not k.startswith("hack/")} == {
        "rewards/abstained/frac": 0.5, "rewards/abstained/bad_reference:missing/frac": 0.5}


def test_a_trl_run_with_only_unknown_domains_fails_loudly_or_warns_once(
        config, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (func,) = trl_rewards(config, per_component=False).funcs
    batch = (["q"] * 16, ["a"] * 16)
    assert func(*batch, answer=["a"] * 16, domain=["openai/gsm8k"] * 16) == [None] * 16
    with pytest.raises(ConfigurationAbstention, match="32 of 32 rows .*'openai/gsm8k'"):
        func(*batch, answer=["a"] * 16, domain=["openai/gsm8k"] * 16)
    other = write_config(tmp_path / "warn.yaml", CONFIG)
    (warn,) = trl_rewards(other, per_component=False, on_config_abstain="warn").funcs
    with caplog.at_level(logging.WARNING, logger="rewards.scoring"):
        for _ in range(4):
            warn(*batch, answer=[None] * 16, domain=["text"] * 16)
    assert [r.message for r in caplog.records].count(caplog.records[0].message) == 1
    assert "bad_reference:missing x32" in caplog.records[0].message


def test_verl_batch_masks_with_the_group_mean(config) -> None:
    results = verl.compute_score_batch(
        ["d"] * 4, ["a", "ab", "a", "x"], ["a", "a", None, None],
        [{"domain": "text", "index": "g1"}] * 3 + [{"domain": "text", "index": "g2"}],
        reward_config=config, abstain_score=-5.0)
    # g1: scored 1.0 and 0.0, the abstention gets their mean; g2 abstains entirely
    assert [r["score"] for r in results] == [1.0, 0.0, 0.5, -5.0]
    assert [r["cause"] for r in results] == [None, None, "bad_reference:missing"] * 1 + [
        "bad_reference:missing"]
    zero = verl.compute_score_batch(["d"], ["a"], [None], [{"domain": "text"}],
                                    reward_config=config, abstain="zero")
    assert zero[0]["score"] == 0.0


def test_verl_data_source_outside_the_config_is_loud(config) -> None:
    with pytest.raises(ConfigError, match="unknown_domain"):  # mask cannot mask per rollout
        verl.compute_score("openai/gsm8k", "a", "a", reward_config=config)
    for _ in range(31):
        verl.compute_score("openai/gsm8k", "a", "a", reward_config=config, abstain="zero",
                           on_config_abstain="warn")
    with pytest.raises(ConfigurationAbstention, match="'openai/gsm8k'"):
        verl.compute_score("openai/gsm8k", "a", "a", reward_config=config, abstain="zero")


def test_openrlhf_masks_through_dynamic_filtering_scores(config) -> None:
    result = reward_func(["q a", "q a"], ["q ", "q "], [{"reference": "a", "domain": "text"},
                                                       {"domain": "text"}],
                         reward_config=config)
    assert result["rewards"].tolist() == [1.0, 0.0]
    assert result["scores"].tolist() == [1.0, MASK_SCORE]
    zero = reward_func(["q a"], ["q "], [{"domain": "text"}], reward_config=config,
                       abstain="zero")
    assert zero["scores"].tolist() == [0.0]


def test_server_reports_abstentions_refuses_deep_json_and_a_misconfigured_run(config) -> None:
    pytest.importorskip("fastapi", reason="the server needs pip install -e '.[server]'")
    from fastapi.testclient import TestClient

    from integrations.server import create_app

    with TestClient(create_app(config)) as client:
        deep = b'{"query": ' + b"[" * 1_000 + b"]" * 1_000 + b"}"  # few values, deep
        reply = client.post("/get_reward", content=deep)
        assert reply.status_code == 400 and "nested deeper" in reply.json()["detail"]
        many = b'{"query": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"  # over the value bound
        assert client.post("/get_reward", content=many).status_code == 413
        body = {"query": ["q a"] * 16, "prompts": ["q "] * 16, "domains": ["nowhere"] * 16}
        first = client.post("/get_reward", json=body)
        assert first.status_code == 200 and first.json()["causes"] == ["unknown_domain"] * 16
        second = client.post("/get_reward", json=body)
        assert second.status_code == 422 and "'nowhere'" in second.json()["detail"]
        health = client.get("/health").json()
        assert health["abstained"] == {"rows": 32, "by_cause": {"unknown_domain": 32}}
