"""`python_menu`: the policy picks calls from a menu by its first visible character; the final
answer is what the last call printed. With the default menu, only setting x and then printing
it in one persistent session answers 42: no sequence of calls earns it call by call."""

from __future__ import annotations

import itertools

import pytest

from rewards.build import build_reward
from rewards.config import parse_config
from rewards.envs import EnvConfig, env_factory, run_episodes
from rewards.envs.python_menu import PythonMenuOptions, pick_call
from rewards.errors import ConfigError
from rewards.options import load_options
from rewards.types import Sample

MENU = ("x = 6 * 7", "print(x)", "x = 7")
# one action per call of the default menu: ord("0") % 3 == 0, ord("1") % 3 == 1, ...
PICKS = {0: "0", 1: "1", 2: "2"}


def config(**options):
    return load_options(EnvConfig, {"use": "python_menu", "max_turns": 2, **options},
                        where="test")


def math_reward():
    return build_reward(parse_config({"domains": {"default": {"rewards": ["math"]}}}))


@pytest.mark.parametrize(("action", "call"), [
    ("0", "x = 6 * 7"), ("1", "print(x)"), ("2", "x = 7"),
    ("  \n 1 and more", "print(x)"),     # the first visible character
    ("x", MENU[ord("x") % 3]), ("\u00e9t\u00e9", MENU[ord("\u00e9") % 3]),
    ("", None), (" \n\t", None),         # no visible character: no call
    ("\u200b1", "print(x)"), ("\u2800 \u2800\u03011", "print(x)"),  # read past blanks
    ("\uff11", "print(x)"),              # a fullwidth digit is its digit (rewards.text)
])
def test_the_first_visible_character_picks_the_call(action, call):
    assert pick_call(action, MENU) == call


def test_the_menu_is_checked():
    assert PythonMenuOptions().calls == MENU
    with pytest.raises(ConfigError, match="calls"):
        env_factory(config(calls=[]))
    with pytest.raises(ConfigError, match="session"):  # python_tool's own options are checked
        env_factory(config(session="forever"))


def policy_of(choices):
    """A policy that picks `choices[k]` at its k-th turn."""
    def policy(messages):
        return PICKS[choices[sum(m["role"] == "assistant" for m in messages)]]
    return policy


@pytest.mark.parametrize("session", ["persistent", "per_call"])
def test_only_a_session_lets_the_later_call_use_the_variable(sandbox_ready, session):
    """All 9 two-call sequences: with a session only set-then-print answers 42; call by call
    none does (print(x) finds no x)."""
    rewards = {}
    for choices in itertools.product(range(3), repeat=2):
        trajectory, = run_episodes(config(session=session), math_reward(),
                                   [Sample("Set x, then print it.", "", reference="42")],
                                   policy_of(choices))
        rewards[choices] = trajectory.reward
        assert len(trajectory.turns) == 2
    won = {c for c, r in rewards.items() if r == 1.0}
    assert won == ({(0, 1)} if session == "persistent" else set()), rewards
    assert all(r == 0.0 for c, r in rewards.items() if c not in won), rewards


def test_the_observation_shows_the_call_and_the_answer_is_the_last_output(sandbox_ready):
    env = env_factory(config(session="persistent", calls=["x = 6 * 7", "print(x)"]))()
    env.reset(Sample("q", "", reference="42"))
    try:
        first = env.step("0").observation
        assert first.startswith("\n>>> x = 6 * 7\n<output>") and env.final_answer() == ""
        second = env.step("1")
        assert second.observation.startswith("\n>>> print(x)\n<output>\n42\n")
        assert env.final_answer() == "42" and second.info["tool_errors"] == 0
        assert env.step(" ").done  # no visible character: no call, the episode ends
        assert env.tool.session is None  # and its session is closed
    finally:
        env.close()
