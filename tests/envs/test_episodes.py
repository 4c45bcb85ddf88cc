"""The environment interface: bounds, returns, abstention, config loading, number_guess."""

from __future__ import annotations

import asyncio

import pytest

from rewards.build import build_reward
from rewards.config import parse_config
from rewards.envs import (
    EnvConfig,
    Episode,
    StepResult,
    arun_episodes,
    cap_text,
    discounted_returns,
    env_factory,
    run_episodes,
    score_trajectories,
    turn_metrics,
    turn_token_rewards,
)
from rewards.envs.number_guess import NOT_WHOLE, NumberGuessEnv, first_integer
from rewards.errors import ConfigError, InputError, SandboxError
from rewards.options import load_options
from rewards.text import read_text
from rewards.types import Sample


def math_reward():
    return build_reward(parse_config({"domains": {"default": {"rewards": ["math"]}}}))


def env_config(**document):
    return load_options(EnvConfig, document, where="test")


def scripted(actions):
    it = iter(actions)
    return lambda messages: next(it)


def test_discounted_returns_hand_computed():
    # r = (-0.1, -0.1, 0.9), gamma 0.5: G2 = 0.9, G1 = -0.1 + 0.45, G0 = -0.1 + 0.5 * 0.35
    assert discounted_returns([-0.1, -0.1, 0.9], 0.5) == pytest.approx([0.075, 0.35, 0.9])
    assert discounted_returns([], 0.9) == []


def test_number_guess_won_lost_and_invalid():
    config = env_config(use="number_guess", max_turns=3, step_penalty=0.1)
    samples = [Sample("g", "", reference=7), Sample("g", "", reference=2)]
    # first game: 4 -> Higher, 7 -> Correct; second: "no idea" (invalid), 5, 4: out of turns
    actions = ["4", "it is 7", "no idea", "5", "4"]
    won, lost = run_episodes(config, math_reward(), samples, scripted(actions))
    assert [t.observation.strip() for t in won.turns] == ["Higher.", "Correct!"]
    assert won.reward == pytest.approx(1.0 - 0.2) and won.reason == "ok"
    assert won.returns == pytest.approx((0.8, 0.9))
    assert [t.observation.strip() for t in lost.turns] == ["Say a number from 1 to 8.",
                                                          "Lower.", "Lower."]
    assert lost.reason == "out_of_turns" and lost.final.value == 0.0
    assert lost.reward == pytest.approx(-0.5)  # the invalid turn costs 0.2 more
    metrics = turn_metrics([won, lost])
    assert metrics["turn/turns_per_episode"] == 2.5
    assert metrics["turn/out_of_turns"] == 0.5
    assert metrics["turn/step_reward"] == pytest.approx(-0.7 / 5)


def test_step_weight_and_discount_enter_the_return():
    config = env_config(use="number_guess", max_turns=4, step_weight=0.5, discount=0.5)
    trajectory, = run_episodes(config, math_reward(), [Sample("g", "", reference=3)],
                               scripted(["1", "3"]))
    # r' = (-0.05, -0.05 + 1.0): G0 = -0.05 + 0.5 * 0.95
    assert trajectory.turn_rewards == pytest.approx((-0.05, 0.95))
    assert trajectory.returns == pytest.approx((0.425, 0.95))


def test_turn_token_rewards_sit_on_each_turns_last_policy_token():
    #        prompt-side padding and observations are 0s; three policy turns
    mask = [1, 1, 0, 0, 1, 0, 1, 1, 1, 0, 0]
    assert turn_token_rewards(mask, [-0.1, -0.1, 0.9]) == pytest.approx(
        [0, -0.1, 0, 0, -0.1, 0, 0, 0, 0.9, 0, 0])
    # a trainer that cut the last turn off: its reward joins the last kept policy token
    assert turn_token_rewards([1, 1, 0, 1], [-0.1, -0.1, 0.9]) == pytest.approx(
        [0, -0.1, 0, 0.8])
    with pytest.raises(InputError, match="abstained"):  # never zeros: a reward of 0
        turn_token_rewards([1, 0], [])
    with pytest.raises(InputError, match="3 policy turns for an episode of 2"):
        turn_token_rewards([1, 0, 1, 0, 1], [0.0, 1.0])
    with pytest.raises(InputError, match="no policy token"):
        turn_token_rewards([0, 0, 0], [1.0])


def test_turn_ends_tell_apart_turns_an_empty_observation_joins():
    """Two turns with no environment token between them are one run of 1s: the mask alone
    would put turn 1's reward on turn 2's end. The caller's ends place each on its own."""
    mask = [1, 1, 1, 1, 0, 1]  # turn 1 = tokens 0-1, turn 2 = 2-3 (empty observation), turn 3
    assert turn_token_rewards(mask, [-0.1, -0.2, 0.9], ends=[1, 3, 5]) == pytest.approx(
        [0, -0.1, 0, -0.2, 0, 0.9])
    assert turn_token_rewards(mask, [-0.1, -0.2, 0.9]) == pytest.approx(  # mask only:
        [0, 0, 0, -0.1, 0, 0.7])  # two runs, the third reward joins the last kept token
    # ends past the mask were cut off by the trainer: their rewards join the last kept end
    assert turn_token_rewards(mask[:4], [-0.1, -0.2, 0.9], ends=[1, 3, 5]) == pytest.approx(
        [0, -0.1, 0, 0.7])
    for wrong in ([1, 4, 5], [3, 1, 5], [1, 1, 5], [-1, 3, 5]):  # an observation token, out
        with pytest.raises(InputError, match="turn ends"):  # of order, twice, negative
            turn_token_rewards(mask, [-0.1, -0.2, 0.9], ends=wrong)


def test_observations_and_actions_are_capped():
    text = "x" * 10_000
    capped = cap_text(text, 500)
    assert len(capped) <= 500 and "characters cut" in capped
    assert cap_text("short", 500) == "short"

    class Echo:
        name = "echo"

        def reset(self, sample):
            return "o" * 5000

        def step(self, action):
            self.seen = action
            return StepResult(action * 3, done=True)

        def final_answer(self):
            return ""

    env = Echo()
    episode = Episode(env, Sample("p", ""), env_config(use="number_guess",
                                                       max_observation_chars=100,
                                                       max_action_chars=50))
    assert len(episode.start()) <= 100
    result = episode.step("a" * 1000)
    assert len(env.seen) == 50 and len(result.observation) <= 100


class Broken:
    """An environment whose infrastructure fails on the second step."""

    name = "broken"

    def __init__(self):
        self.steps = 0

    def reset(self, sample):
        return ""

    def step(self, action):
        self.steps += 1
        if self.steps == 2:
            raise SandboxError("the sandbox cannot start")
        return StepResult("ok", reward=-0.1)

    def final_answer(self):
        return "1"


def test_infrastructure_failure_abstains_and_a_bug_ends_only_its_episode():
    config = env_config(use="number_guess")
    episode = Episode(Broken(), Sample("p", "", reference=1), config)
    episode.start()
    episode.step("a")
    episode.step("b")
    assert episode.done and episode.failure.startswith("SandboxError")
    good = Episode(env_factory(config)(), Sample("p", "", reference=1), config)
    good.start()
    good.step("1")
    bad, ok = score_trajectories([episode, good], math_reward())
    assert bad.reward is None and bad.reason == "env_error"
    assert ok.reward == pytest.approx(0.9)
    assert turn_metrics([bad, ok])["turn/env_errors"] == 0.5



class Buggy(Broken):
    """An environment with a bug that one action reaches."""

    def step(self, action):
        if "poison" in action:
            raise KeyError("a bug")
        return StepResult("fine", reward=-0.1, done=True)


def test_a_bug_reached_by_one_episode_is_its_error_row_not_the_batch():
    config = env_config(use="number_guess")
    buggy = Episode(Buggy(), Sample("p", "", reference=1), config)
    buggy.start()
    result = buggy.step("poison")  # raised KeyError out of the batch before
    assert result.done and buggy.failure == "KeyError: 'a bug'" and buggy.error is None
    fine = Episode(Buggy(), Sample("p", "", reference=1), config)
    fine.start()
    fine.step("1")
    bad, ok = score_trajectories([buggy, fine], math_reward())
    assert bad.reward is None and bad.reason == "error" and bad.final.reason == "error"
    assert ok.reward == pytest.approx(0.9)
    assert turn_metrics([bad, ok])["turn/env_errors"] == 0.5


@pytest.mark.parametrize("reference", [7.9, "7.9", "7.5e0", True, float("nan"), "7 apples"])
def test_number_guess_abstains_on_a_reference_that_is_not_a_whole_number(reference):
    config = env_config(use="number_guess", max_turns=2)
    # 7.9 played as 7 before: "7" won the game
    trajectory, = run_episodes(config, math_reward(), [Sample("g", "", reference=reference)],
                               scripted(["7", "1"]))
    assert trajectory.reward is None and trajectory.reason == "env_error"
    assert trajectory.turns == ()


@pytest.mark.parametrize("reference", [7, 7.0, "7", " 7 ", "7.0"])
def test_number_guess_reads_a_whole_number_however_written(reference):
    config = env_config(use="number_guess", max_turns=2)
    trajectory, = run_episodes(config, math_reward(), [Sample("g", "", reference=reference)],
                               scripted(["7"]))
    assert trajectory.reason == "ok" and trajectory.final.value == 1.0


def test_async_episodes_match_sync():
    config = env_config(use="number_guess", max_turns=3)
    samples = [Sample("g", "", reference=s) for s in (1, 5, 8)]

    def policy(messages):
        return str(len(messages) * 2)  # 2, 4, 6 from the number of messages

    async def apolicy(messages):
        return policy(messages)

    sync = run_episodes(config, math_reward(), samples, policy)
    asynced = asyncio.run(arun_episodes(config, math_reward(), samples, apolicy))
    assert [t.returns for t in sync] == [t.returns for t in asynced]
    assert [len(t.turns) for t in sync] == [3, 3, 3]


def test_config_loader_errors_and_options():
    config = env_config(use="number_guess", max_turns=2, high=20)
    assert config.options == {"high": 20}
    assert env_factory(config)().options.high == 20
    with pytest.raises(ConfigError, match="max_turns"):
        env_config(use="number_guess", max_turns=0)
    with pytest.raises(ConfigError, match="did you mean 'step_penalty'"):
        env_factory(env_config(use="number_guess", step_penality=0.1))
    with pytest.raises(ConfigError, match="not a built-in"):
        env_factory(env_config(use="nonesuch"))
    with pytest.raises(ConfigError, match="discount"):
        env_config(use="number_guess", discount=1.5)
    assert load_options(EnvConfig, "number_guess", where="t").use == "number_guess"


def test_bad_reference_abstains_not_crashes():
    config = env_config(use="number_guess")
    trajectory, = run_episodes(config, math_reward(), [Sample("g", "", reference="seven")],
                               scripted(["3", "4", "5", "6"]))
    assert trajectory.reward is None


def test_a_near_miss_of_an_environment_key_is_a_typo_not_an_option():
    with pytest.raises(ConfigError, match="did you mean 'max_turns'"):
        load_options(EnvConfig, {"use": "number_guess", "max_turn": 3}, where="test")
    config = load_options(EnvConfig, {"use": "number_guess", "step_penalty": 0.1}, where="test")
    assert dict(config.options) == {"step_penalty": 0.1}


class Odd:
    """An environment whose outputs are malformed in one way per action."""

    name = "odd"

    def reset(self, sample):
        return "start \ud800"

    def step(self, action):
        if action == "none reward":
            return StepResult("x", reward=None, done=True)
        return StepResult("seen \ud800 here", reward=-0.1, done=action == "stop")

    def final_answer(self):
        raise ValueError("no answer kept")


def test_what_an_environment_returns_is_read_without_sinking_the_batch():
    config = env_config(use="number_guess")
    episode = Episode(Odd(), Sample("p", "", reference=1), config)
    assert episode.start() == "start \ufffd"  # a tokenizer raised on the lone surrogate
    assert episode.step("go").observation == "seen \ufffd here"
    broken = Episode(Odd(), Sample("p", "", reference=1), config)
    broken.start()
    assert broken.step("none reward").done and broken.failure.startswith("TypeError")
    no_answer = Episode(Odd(), Sample("p", "", reference=1), config)
    no_answer.start()
    no_answer.step("stop")
    fine = Episode(env_factory(config)(), Sample("p", "", reference=1), config)
    fine.start()
    fine.step("1")
    a, b, c = score_trajectories([broken, no_answer, fine], math_reward())
    assert (a.reason, b.reason) == ("error", "error") and a.reward is None is b.reward
    assert "no answer kept" in no_answer.failure and c.reward == pytest.approx(0.9)


@pytest.mark.parametrize("action, guess", [
    ("3", 3), ("it is 3", 3), ("My guess: 3.", 3), ("**3**", 3), ("(3)", 3), ("guess=3!", 3),
    ("\uff13", 3),  # a fullwidth digit is its digit (rewards.text.read_text)
    ("3.7", NOT_WHOLE), ("3.0", NOT_WHOLE), ("3e5", NOT_WHOLE), ("3/2", NOT_WHOLE),
    ("3,000", NOT_WHOLE), ("0x3", NOT_WHOLE), (".5", NOT_WHOLE), ("\u22123", NOT_WHOLE),
    ("3rd", 3), ("9fore", 9), ("3E-2", NOT_WHOLE),  # a glued word ends it; an exponent goes on
    ("no idea", None),
])
def test_a_guess_is_a_whole_number_as_written(action, guess):
    assert first_integer(read_text(action)) == guess


def test_a_number_that_is_not_whole_is_a_wrong_guess_never_a_win():
    env = NumberGuessEnv()
    env.reset(Sample("p", "", 3))
    result = env.step("3.0")
    assert (result.observation.strip(), result.done, result.info) == (
        "Not a whole number.", False, {"not_whole": 1})
    assert result.reward == pytest.approx(-env.options.step_penalty)  # no invalid penalty
    assert env.final_answer() == ""  # the final answer is the last whole-number guess
    assert env.step("3").done and env.final_answer() == "3"
