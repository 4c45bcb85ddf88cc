"""Running episodes under the bounds of an `EnvConfig`, and scoring them into trajectories.

`Episode` wraps one environment: it caps actions and observations, ends the episode after
`max_turns` (reason `out_of_turns`: data), and turns an infrastructure error raised inside
the environment (anything of the `rewards.errors` tree: the sandbox cannot run, an engine is
down) into an abstention (reason `env_error`), as a single-turn reward abstains. Any other
exception is a bug in the environment that the episode's own action reached: that episode
ends as scoring's poison sample does (reason `error`, logged with its traceback), and the
other episodes of the batch go on: one episode never sinks a batch. A step reward that is
not a finite number (NaN, inf) is such a bug: it never reaches a sum or an advantage.

`score_trajectories` hands the final answers to the final reward through the one scoring
path (`rewards.scoring.score_batch`) and computes the discounted returns. `run_episodes`
(and `arun_episodes`) drive whole episodes at the text level for a policy given as a
function of the chat messages: the HTTP face, the adapters and the tests use it; the GRPO
loop drives episodes at the token level (`rl._episodes`)."""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable, Sequence

from rewards.envs._config import EnvConfig, env_factory
from rewards.envs._types import Environment, ScoredFinal, StepResult, Trajectory, Turn
from rewards.errors import ConfigError, RewardsError
from rewards.types import Reward, Sample, Score

__all__ = ["Episode", "arun_episodes", "cap_text", "discounted_returns", "run_episodes",
           "score_trajectories", "trajectory_returns", "turn_metrics", "turn_rewards",
           "turn_token_rewards"]

log = logging.getLogger("rewards.envs")


def cap_text(text: str, limit: int) -> str:
    """`text` if it fits in `limit` characters, else its head and tail around a marker; a
    character no UTF-8 text can hold (a lone surrogate, from a `\\ud800` escape in an
    environment's JSON) becomes U+FFFD, so no tokenizer or JSON writer downstream of the
    episode raises on it."""
    text = _valid_text(text)
    if len(text) <= limit:
        return text
    marker = f"\n[... {len(text) - limit} characters cut ...]\n"
    head = max((limit - len(marker)) * 2 // 3, 0)
    tail = max(limit - len(marker) - head, 0)
    return text[:head] + marker + (text[-tail:] if tail else "")


def _valid_text(text: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)
    return text


def turn_rewards(step_rewards: Sequence[float], final: float, config: EnvConfig
                 ) -> list[float]:
    """The one statement of an episode's per-turn rewards r'_k: each turn's step reward
    weighted by `config.step_weight`, the final reward added on the last turn (undiscounted).
    The returns discount them (`trajectory_returns`); the trainers that take a reward per
    turn or per token (`turn_token_rewards`, the veRL and OpenRLHF adapters) read them."""
    rewards = [config.step_weight * r for r in step_rewards] or [0.0]
    rewards[-1] += final
    return rewards


def trajectory_returns(step_rewards: Sequence[float], final: float, config: EnvConfig
                       ) -> list[float]:
    """The one statement of an episode's per-turn returns G_k: its `turn_rewards`,
    discounted by `config.discount`. `Trajectory.returns`, the environment server's step
    rewards and the loops' per-turn advantages all read it."""
    return discounted_returns(turn_rewards(step_rewards, final, config), config.discount)


def turn_token_rewards(action_mask: Sequence[int], rewards: Sequence[float],
                       ends: Sequence[int] | None = None) -> list[float]:
    """Per-token rewards for a trainer that takes a reward per token (veRL's `rm_scores`):
    turn k's reward on the last token of the k-th run of policy tokens (1s) in
    `action_mask`, 0 on every other token, environment tokens (0s) and padding included.

    A trainer that cut the sequence (its response length) may show fewer runs than turns:
    the rewards of the turns cut off are added on the last policy token it kept, so the
    sum over the tokens is the episode's whole reward and nothing is silently lost (no
    policy token kept at all: nothing can carry it, `InputError`). More runs than turns
    means the mask is not this episode's: `InputError`. No rewards at all is an abstained
    episode (`Trajectory.turn_rewards` is empty): it has no per-token rewards, and zeros
    would train it as a reward of 0, so that is an `InputError` too: mask the row by the
    trainer's own abstention (veRL: `rm_scores` gives it the row's score).

    `ends`, where the caller built the sequence, names each turn's last policy token: two
    turns with no environment token between them (an empty observation) are one run of 1s
    in the mask, and only the caller knows where the first ended. Ends past the mask's
    length are turns a trainer cut off; an end that is not a policy token, or ends out of
    order, are not this episode's: `InputError`."""
    from rewards.errors import InputError

    if not rewards:
        raise InputError("no turn rewards: the episode abstained; mask the row as the "
                         "trainer masks an abstention, never as a reward of 0",
                         field="turn_rewards")
    if ends is None:
        ends = [i for i, m in enumerate(action_mask)
                if m and (i + 1 == len(action_mask) or not action_mask[i + 1])]
    else:
        ends = [int(e) for e in ends if int(e) < len(action_mask)]  # past it: cut off
        if any(e < 0 or not action_mask[e] for e in ends) or ends != sorted(set(ends)):
            raise InputError(f"the turn ends {ends} are not increasing policy tokens of the "
                             "action mask: they are not this episode's", field="turn_ends")
    if len(ends) > len(rewards):
        raise InputError(f"the action mask has {len(ends)} policy turns for an episode of "
                         f"{len(rewards)} turns: it is not this episode's", field="action_mask")
    if not all(math.isfinite(float(r)) for r in rewards):
        raise InputError(f"the turn rewards {list(rewards)} hold a value that is not a finite "
                         "number", field="turn_rewards")
    out = [0.0] * len(action_mask)
    if not ends:
        raise InputError(f"the action mask holds no policy token to carry the episode's "
                         f"{len(rewards)} turn rewards", field="action_mask")
    for end, reward in zip(ends, rewards):
        out[end] = float(reward)
    out[ends[-1]] += float(sum(rewards[len(ends):]))
    return out


def discounted_returns(rewards: Sequence[float], discount: float) -> list[float]:
    """G_k = r_k + gamma * G_{k+1} for each turn k (Sutton and Barto 2018, eq. 3.9)."""
    out, running = [0.0] * len(rewards), 0.0
    for k in range(len(rewards) - 1, -1, -1):
        running = rewards[k] + discount * running
        out[k] = running
    return out


class Episode:
    """One bounded episode of a fresh environment on `sample` (see the module docstring)."""

    def __init__(self, env: Environment, sample: Sample, config: EnvConfig) -> None:
        self.env = env
        self.sample = sample
        self.config = config
        self.turns: list[Turn] = []
        self.done = False
        self.reason = "ok"
        self.failure: str | None = None
        """Why the episode abstains (an infrastructure error's message), or None."""
        self.error: RewardsError | None = None
        """The infrastructure error itself (a loop whose every episode failed raises it)."""
        self.failure_reason = "env_error"
        """`env_error` (infrastructure) or `error` (the environment raised a bug)."""

    def start(self) -> str:
        """Reset the environment; the opening observation (capped; "" after a failure)."""
        try:
            return cap_text(self.env.reset(self.sample), self.config.max_observation_chars)
        except Exception as exc:  # noqa: BLE001 - `_fail` tells infrastructure from a bug
            self._fail(exc)
            return ""

    def step(self, action: str, *, tool: Callable[[str], StepResult] | None = None
             ) -> StepResult:
        """One policy turn (the episode must not be done). `tool`: for an adapter whose
        framework parsed a tool call itself, the environment's own call on its argument (e.g.
        `PythonToolEnv.run_code` on the code), run in place of `env.step` under the same
        bounds, the argument passed through as it is (capped), never re-wrapped as text."""
        if self.done:
            raise ConfigError("step on a finished episode: start a new Episode")
        try:
            result = (tool or self.env.step)(action[:self.config.max_action_chars])
            return self._record(action, result)  # what it returned is read here too
        except Exception as exc:  # noqa: BLE001 - `_fail` tells infrastructure from a bug
            self._fail(exc)
            return StepResult(done=True, info={"error": str(exc)})

    async def astep(self, action: str) -> StepResult:
        """`step`, awaiting the environment's own `astep` when it has one (else a thread)."""
        if self.done:
            raise ConfigError("step on a finished episode: start a new Episode")
        astep = getattr(self.env, "astep", None)
        try:
            if astep is not None:
                result = await astep(action[:self.config.max_action_chars])
            else:
                result = await asyncio.to_thread(self.env.step,
                                                 action[:self.config.max_action_chars])
            return self._record(action, result)  # what it returned is read here too
        except Exception as exc:  # noqa: BLE001 - `_fail` tells infrastructure from a bug
            self._fail(exc)
            return StepResult(done=True, info={"error": str(exc)})

    def stop(self, reason: str) -> None:
        """End the episode from outside (the loop's token budget): data, like out of turns."""
        self.done, self.reason = True, reason
        self._release()

    def _release(self) -> None:
        """The episode is over: an environment that holds something for it (a sandbox
        session) lets it go now (its optional `close()`), not when the object is collected."""
        close = getattr(self.env, "close", None)
        if close is None:
            return
        try:
            close()
        except Exception as exc:  # noqa: BLE001 - releasing never fails a finished episode
            log.warning("closing %s failed: %s", getattr(self.env, "name", "env"), exc)

    def _record(self, action: str, result: StepResult) -> StepResult:
        reward = float(result.reward)
        if not math.isfinite(reward):  # NaN or inf would poison every sum and advantage:
            # the environment's bug, this episode only (a poison sample, as if it raised)
            bug = ValueError(f"the environment returned a step reward of {reward}: a step "
                             "reward must be a finite number")
            self._fail(bug)
            return StepResult(done=True, info={"error": str(bug)})
        observation = cap_text(result.observation, self.config.max_observation_chars)
        self.turns.append(Turn(action, observation, reward, dict(result.info)))
        done = result.done
        if not done and len(self.turns) >= self.config.max_turns:
            done, self.reason = True, "out_of_turns"
        self.done = done
        if done:
            self._release()
        return StepResult(observation, reward, done, result.info)

    def _fail(self, exc: Exception) -> None:
        name = getattr(self.env, "name", "env")
        if isinstance(exc, RewardsError):  # infrastructure: the episode abstains
            log.warning("episode of %s abstains: %s: %s", name, type(exc).__name__, exc)
            self.error = exc
        else:  # a bug the episode reached: this episode only, as a poison sample
            log.warning("episode of %s raised (an error row; the batch goes on)", name,
                        exc_info=exc)
            self.failure_reason = "error"
        self.failure = f"{type(exc).__name__}: {exc}"
        self.done = True
        self._release()

    def final_sample(self) -> Sample:
        """The sample the final reward scores: the final answer as the completion."""
        return Sample(prompt=self.sample.prompt, completion=self.env.final_answer(),
                      reference=self.sample.reference, domain=self.sample.domain,
                      group=self.sample.group, meta=self.sample.meta,
                      ambiguous_gold=self.sample.ambiguous_gold)


def score_trajectories(episodes: Sequence[Episode], reward: Reward) -> list[Trajectory]:
    """Score the finished `episodes`: final answers through `rewards.scoring.score_batch`
    in one batch (failed episodes are not scored: they abstain), then the returns."""
    from rewards.scoring import score_batch

    finals, given = [], {}
    for e in episodes:
        if e.failure is None:
            try:
                if isinstance(e.env, ScoredFinal):  # scored by the server that ran it
                    given[id(e)] = e.env.final_score() or Score(None, "env_error")
                else:
                    finals.append(e.final_sample())
            except Exception as exc:  # noqa: BLE001 - this episode's error (or abstention)
                e._fail(exc)
    scores = iter(score_batch(reward, finals).scores) if finals else iter(())
    out = []
    for episode in episodes:
        config = episode.config
        if episode.failure is not None:
            reason = episode.failure_reason
            out.append(Trajectory(episode.sample, tuple(episode.turns), Score(None, reason),
                                  (), reason))
            continue
        final = given[id(episode)] if id(episode) in given else next(scores)
        returns: tuple[float, ...] = ()
        rewards: tuple[float, ...] = ()
        if final.value is not None:
            rewards = tuple(turn_rewards([t.reward for t in episode.turns], final.value,
                                         config))
            returns = tuple(discounted_returns(rewards, config.discount))
        reason = episode.reason if episode.reason != "ok" else final.reason
        out.append(Trajectory(episode.sample, tuple(episode.turns), final, returns, reason,
                              rewards))
    return out


def turn_metrics(trajectories: Sequence[Trajectory]) -> dict[str, float]:
    """The `turn/...` metrics of a batch: turns, tool calls and tool errors per episode, the
    mean step reward per turn, and the shares out of turns and abstained (env errors: broken
    infrastructure, or an environment that raised)."""
    n = max(len(trajectories), 1)
    turns = [len(t.turns) for t in trajectories]
    steps = [turn.reward for t in trajectories for turn in t.turns]
    return {
        "turn/turns_per_episode": sum(turns) / n,
        "turn/tool_calls": sum(t.counter("tool_calls") for t in trajectories) / n,
        "turn/tool_errors": sum(t.counter("tool_errors") for t in trajectories) / n,
        "turn/step_reward": sum(steps) / max(len(steps), 1),
        "turn/out_of_turns": sum(t.reason == "out_of_turns" for t in trajectories) / n,
        "turn/env_errors": sum(t.reason in ("env_error", "error") for t in trajectories) / n,
    }


Policy = Callable[[list[dict[str, str]]], str]
"""A policy at the text level: the chat messages so far -> the next action's text."""


def _messages(sample: Sample, opening: str) -> list[dict[str, str]]:
    prompt = sample.prompt
    messages = [{"role": "user", "content": prompt}] if isinstance(prompt, str) \
        else [dict(m) for m in prompt]
    if opening:
        messages.append({"role": "user", "content": opening})
    return messages


def run_episodes(config: EnvConfig, reward: Reward, samples: Sequence[Sample],
                 policy: Policy) -> list[Trajectory]:
    """One episode per sample, turn by turn, with `policy` choosing each action; scored."""
    make = env_factory(config)
    episodes = [Episode(make(), s, config) for s in samples]
    for episode in episodes:
        messages = _messages(episode.sample, episode.start())
        while not episode.done:
            action = policy(messages)
            result = episode.step(action)
            messages += [{"role": "assistant", "content": action},
                         {"role": config.observation_role, "content": result.observation}]
    return score_trajectories(episodes, reward)


async def arun_episodes(config: EnvConfig, reward: Reward, samples: Sequence[Sample],
                        policy: Callable[[list[dict[str, str]]], Awaitable[str]]
                        ) -> list[Trajectory]:
    """`run_episodes` with an async policy, the episodes running concurrently."""
    make = env_factory(config)
    episodes = [Episode(make(), s, config) for s in samples]

    async def one(episode: Episode) -> None:
        messages = _messages(episode.sample, episode.start())
        while not episode.done:
            action = await policy(messages)
            result = await episode.astep(action)
            messages.extend([{"role": "assistant", "content": action},
                             {"role": config.observation_role, "content": result.observation}])

    await asyncio.gather(*(one(e) for e in episodes))
    return await asyncio.to_thread(score_trajectories, episodes, reward)


