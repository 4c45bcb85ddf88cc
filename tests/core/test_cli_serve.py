"""`rewards serve` passes its abstention options through to the server it starts."""

from __future__ import annotations

import integrations.server
from rewards_cli import main


def test_serve_passes_abstain_options(monkeypatch):
    seen = {}
    monkeypatch.setattr(integrations.server, "serve",
                        lambda config, **kwargs: seen.update(kwargs, config=config))
    assert main(["serve", "--abstain", "zero", "--on-config-abstain", "warn",
                 "--abstain-value", "-1"]) == 0
    assert (seen["abstain"], seen["on_config_abstain"], seen["abstain_value"]) == (
        "zero", "warn", -1.0)
    assert seen["config"].endswith("default_config.yaml")


def test_serve_defaults_mask_and_raise(monkeypatch):
    seen = {}
    monkeypatch.setattr(integrations.server, "serve", lambda config, **kwargs: seen.update(kwargs))
    assert main(["serve"]) == 0
    assert (seen["abstain"], seen["on_config_abstain"]) == ("mask", "raise")


def test_serve_applies_set_overrides_to_the_config_it_serves(monkeypatch, capsys):
    seen = {}
    monkeypatch.setattr(integrations.server, "serve", lambda config, **kwargs: seen.update(
        config=config))
    assert main(["serve", "--set", "normalize=group", "--set", "domains.math.alpha=0.5"]) == 0
    config = seen["config"]
    assert config.normalize == "group" and config.domains["math"].alpha == 0.5
    assert main(["serve", "--set", "domains.chat.alpha=0.5"]) == 2
    assert "domains has no key 'chat' (keys: code, math)" in capsys.readouterr().err


def test_serve_passes_the_roll_task_table_and_its_per_client_share(monkeypatch):
    """`--max-tasks` and `--max-tasks-per-client` reach the server; by default the share is
    left to the rule (None: half the table, `integrations._http.client_share`)."""
    seen = {}
    monkeypatch.setattr(integrations.server, "serve", lambda config, **kwargs: seen.update(kwargs))
    assert main(["serve"]) == 0
    assert (seen["max_tasks"], seen["max_tasks_per_client"]) == (65536, None)
    assert main(["serve", "--max-tasks", "8", "--max-tasks-per-client", "8"]) == 0
    assert (seen["max_tasks"], seen["max_tasks_per_client"]) == (8, 8)
