"""The core's front: the `Reward` contract check lives with the types, scoring sees a
normalizing router through a small protocol (no import of mixing), and the config builder
builds nested components (`of:`) and passes them in."""

import ast
from pathlib import Path

import pytest

import rewards.reasoning._correctness as correctness
from rewards import parse_config
from rewards.build import build_reward
from rewards.mixing import DomainRouter
from rewards.scoring import BatchNormalized, check_scores
from rewards.types import check_scores as contract_check

ROOT = Path(__file__).parents[2] / "rewards"


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_scoring_and_mixing_do_not_import_each_other():
    assert "rewards.mixing" not in _imports(ROOT / "scoring.py")
    assert "rewards.scoring" not in _imports(ROOT / "mixing.py")
    assert check_scores is contract_check  # one contract check, re-exported by scoring


def test_a_router_is_seen_through_the_protocol():
    router = build_reward(parse_config({"domains": {"d": {"rewards": [
        "rewards_for_tests:exact"]}}, "normalize": "group"}))
    assert isinstance(router, DomainRouter) and isinstance(router, BatchNormalized)
    assert not isinstance(router.raw, BatchNormalized)


def test_the_builder_builds_of_and_passes_it_in(monkeypatch):
    def refuse(spec, *, where):
        raise AssertionError(f"the reasoning package built {where} itself")

    monkeypatch.setattr(correctness, "build_component_spec", refuse)
    router = build_reward(parse_config({"domains": {"math": {"rewards": [
        {"use": "cosine", "of": {"use": "math", "answer_after": "</think>"}},
        {"use": "length", "of": "rewards_for_tests:exact", "weight": 0}]}}}))
    cosine, length = (c.reward for c in router.domains["math"].components)
    assert type(cosine.correctness.reward).__name__ == "AnswerAfter"
    assert length.correctness.reward.name == "rewards_for_tests:exact"


def test_a_bad_nested_entry_is_named_by_its_path():
    with pytest.raises(Exception, match=r"cosine\.of"):
        build_reward(parse_config({"domains": {"math": {"rewards": [
            {"use": "cosine", "of": {"use": "math", "timeuot": 3}}]}}}))
