"""`rewards serve` passes its abstention options through to the server it starts."""

from __future__ import annotations

import integrations.server
from rewards.cli import main


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
