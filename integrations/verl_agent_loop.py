"""Our environments inside veRL's own agent loop (veRL 0.9.1,
`verl.experimental.agent_loop`), with turn-level credit in veRL's token-level reward tensor
and no reward model.

`RewardsEnvAgentLoop` is a veRL agent loop registered as `rewards_env`: a dataset row whose
`agent_name` is `rewards_env` runs one bounded episode of a `rewards.envs` environment
(`number_guess`, `python_tool`, a dotted path), turn by turn through veRL's server manager,
and the final answer is scored by the reward config. `PerTurnAgentLoopManager` is veRL's
`AgentLoopManager` that then puts each turn's reward on that turn's last token of the batch's
`rm_scores` (`integrations.verl_env.place_turn_rewards`), which veRL's trainer reads as the
token-level scores (GAE and REINFORCE++ per token; GRPO and RLOO sum it: the trajectory
reward).

```yaml
# agent_loops.yaml, named by actor_rollout_ref.rollout.agent.agent_loop_config_path
- name: rewards_env
  _target_: integrations.verl_agent_loop.RewardsEnvAgentLoop
  environment: {use: number_guess, max_turns: 4, step_penalty: 0.1}   # or a YAML path
  reward_config: /path/to/reward.yaml
```
```bash
actor_rollout_ref.rollout.agent.default_agent_loop=rewards_env \\
actor_rollout_ref.rollout.agent.agent_loop_config_path=agent_loops.yaml \\
+actor_rollout_ref.rollout.agent.agent_loop_manager_class=integrations.verl_agent_loop.PerTurnAgentLoopManager
```
Without the YAML the registered `rewards_env` reads `$REWARDS_ENV_CONFIG` and
`$REWARDS_CONFIG`. The other keys: `abstain` (mask | zero | raise), `abstain_score`,
`domain_map`, `on_config_abstain`, as `integrations.verl.compute_score` takes them.

One episode: the row's `raw_prompt` (with the environment's opening, if any, as a user
message) through the chat template, every string of it as text (`rewards.engines.chat_ids`);
then each turn generates on the whole context (`server_manager.generate`, at most the room
left in `rollout.response_length`), decodes the action, steps the environment
(`rewards.envs.Episode`: its turn and text bounds, an infrastructure error abstains), and
appends the observation's tokens (`rl.ObservationEncoder`: the template's markers around the
observation's text, which stays text: a tool that prints `<|im_end|>` fakes no turn). The
response mask is 1 on the model's tokens and 0 on the observations'. The episode ends when the
environment says done, after `max_turns`, or when the response length is spent (out of turns).

What veRL gets (`AgentLoopOutput`): `reward_score`, the trajectory reward G_0 (veRL's own
manager puts it on the last token), and `extra_fields`: `turn_rewards` (each turn's r'_k,
`Trajectory.turn_rewards`; `[]` for an abstained episode), `turn_ends` (each turn's last
token in the response, so turns that an empty observation joins are still told apart),
`reward_extra_info` (what
`compute_score` returns for the final answer: reason, abstained, cause, `reward/<component>`,
`hack/<class>`, with `score` the trajectory reward) and the episode's `turns` and `reason`.
Setting `reward_score` keeps veRL's reward loop from scoring the rollout again.

An episode that abstains (broken infrastructure; the final reward abstained) is never trained
as a reward of 0 unasked. `abstain: mask` (default) gives it the mean score of its group's
other rollouts (veRL's `uid`) in `PerTurnAgentLoopManager`, so its group-relative advantage
is 0; veRL's own manager could not, so `mask` needs `PerTurnAgentLoopManager` (checked when
the loop is built). `zero`: `abstain_score` on the last token; `raise`: `InputError`.

veRL's agent loop module imports hydra at the top (`import hydra`, for
`hydra.utils.instantiate`), so this module needs it: `pip install
-e '.[verl-agent-loop]'` (from the checkout) brings hydra-core 1.4.0rc3 (docs/integrations.md says why
not veRL's hydra-core 1.3, which cannot import beside antlr4 4.13).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import replace
from typing import Any
from uuid import uuid4

from verl.experimental.agent_loop.agent_loop import (
    AgentLoopBase,
    AgentLoopManager,
    AgentLoopMetrics,
    AgentLoopOutput,
    register,
)
from verl.utils.profiler import simple_timer
from verl.utils.ray_utils import auto_await

from integrations._common import (
    AbstainMode,
    OnConfigAbstain,
    RewardSource,
    check_abstain_mode,
    env_config,
    prompt_value,
    raise_on_abstention,
    resolve_reward,
)
from integrations.verl import _result, _sample
from integrations.verl_env import place_turn_rewards
from rewards.engines import chat_ids
from rewards.envs import Episode, env_factory, score_trajectories
from rewards.errors import ConfigError, EngineError
from rl import ObservationEncoder

__all__ = ["PerTurnAgentLoopManager", "RewardsEnvAgentLoop"]


class PerTurnAgentLoopManager(AgentLoopManager):
    """veRL's agent loop manager, with each turn's reward on its own last token of
    `rm_scores` and abstained episodes masked by their group (module docstring)."""

    @auto_await  # type: ignore[untyped-decorator]
    async def generate_sequences(self, prompts: Any) -> Any:
        output = await super().generate_sequences(prompts)
        return place_turn_rewards(output, prompts.non_tensor_batch.get("uid"))


def _manager_class(config: Any) -> type | None:
    """The `agent_loop_manager_class` the trainer config names, loaded as veRL's trainer
    loads it (None: veRL's own)."""
    from verl.utils.import_utils import load_class_from_fqn

    name = config.actor_rollout_ref.rollout.get("agent", {}).get("agent_loop_manager_class")
    if not name:
        return None
    try:
        found = load_class_from_fqn(str(name), "AgentLoopManager")
    except (ImportError, AttributeError, ValueError) as exc:
        raise ConfigError(f"agent_loop_manager_class {name!r} cannot be loaded: {exc}") from exc
    return found if isinstance(found, type) else None


def _plain(value: Any) -> Any:
    """A hydra/OmegaConf node as plain Python (what our config loader reads)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    try:
        from omegaconf import OmegaConf

        if OmegaConf.is_config(value):
            return OmegaConf.to_container(value, resolve=True)
    except ImportError:  # pragma: no cover - veRL installs omegaconf
        pass
    return value


@register("rewards_env")
class RewardsEnvAgentLoop(AgentLoopBase):
    """One episode of a `rewards.envs` environment per dataset row (module docstring)."""

    def __init__(self, *args: Any, environment: Any = None, reward_config: RewardSource = None,
                 abstain: AbstainMode = "mask", abstain_score: float = 0.0,
                 domain_map: Mapping[str, str] | None = None,
                 on_config_abstain: OnConfigAbstain = "raise", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        check_abstain_mode(abstain, on_config_abstain)
        self.env_config = env_config(_plain(environment), where="veRL agent loop rewards_env")
        self.make_env = env_factory(self.env_config)  # options checked now
        self.resolved = resolve_reward(_plain(reward_config))
        self.resolved.check_per_rollout(
            "the rewards_env agent loop", "use normalize: group (veRL's GRPO normalizes the "
            "group itself) or none")
        self.abstain, self.abstain_score = abstain, float(abstain_score)
        self.domain_map = dict(_plain(domain_map) or {})
        self.on_config_abstain = on_config_abstain
        manager = _manager_class(self.config)
        if abstain == "mask" and not (manager and issubclass(manager, PerTurnAgentLoopManager)):
            raise ConfigError(
                "rewards_env with abstain: mask needs actor_rollout_ref.rollout.agent."
                "agent_loop_manager_class=integrations.verl_agent_loop.PerTurnAgentLoopManager "
                "(veRL's own manager cannot leave an abstained episode out of a group); or "
                "set abstain: zero to train it as abstain_score")
        template = bool(getattr(self.tokenizer, "chat_template", None))
        self.encode = ObservationEncoder(self.tokenizer, chat_template=template,
                                         role=self.env_config.observation_role)
        self.response_length = int(self.rollout_config.response_length)

    async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> AgentLoopOutput:
        raw = kwargs.get("raw_prompt", "")
        prompt = prompt_value(raw if isinstance(raw, str) else list(raw))
        reward_model = kwargs.get("reward_model") or {}
        extra_info = kwargs.get("extra_info")
        sample = _sample(self.resolved, str(kwargs.get("data_source", "")), "",
                         reward_model.get("ground_truth"),
                         extra_info if isinstance(extra_info, Mapping) else None,
                         self.domain_map)
        sample = replace(sample, prompt=prompt)  # the episode's prompt: the row's messages
        episode = Episode(self.make_env(), sample, self.env_config)
        metrics: dict[str, Any] = {}
        opening = await asyncio.to_thread(episode.start)
        messages = [{"role": "user", "content": prompt}] if isinstance(prompt, str) \
            else [dict(m) for m in prompt]
        if opening:
            messages.append({"role": "user", "content": opening})
        prompt_ids = self._cap_text_prompt_length(chat_ids(
            self.tokenizer, messages, add_generation_prompt=True,
            **dict(self.apply_chat_template_kwargs or {})))
        response, mask, logprobs, ends = await self._episode(episode, prompt_ids,
                                                             sampling_params, metrics)
        with simple_timer("compute_score", metrics):
            trajectory, = await asyncio.to_thread(score_trajectories, [episode],
                                                  self.resolved.raw)
        self.resolved.observe([trajectory.sample], [trajectory.final],
                              on_config_abstain=self.on_config_abstain)
        value = trajectory.reward
        if value is None and self.abstain == "raise":
            raise_on_abstention([trajectory.sample], [trajectory.final])
        info = _result(self.resolved, episode.final_sample() if episode.failure is None
                       else sample, trajectory.final, self.abstain_score)
        info["score"] = self.abstain_score if value is None else float(value)
        turn_rewards: list[float] | None = list(trajectory.turn_rewards)
        if (value is None and self.abstain == "zero") or (value is not None and 1 not in mask):
            turn_rewards = None  # on the last token, as veRL places a score (no turn to carry)
        metrics.setdefault("num_preempted", -1)
        return AgentLoopOutput(
            prompt_ids=prompt_ids, response_ids=response, response_mask=mask,
            response_logprobs=logprobs, reward_score=info["score"],
            num_turns=1 + len(trajectory.turns) * 2, metrics=AgentLoopMetrics(**metrics),
            extra_fields={"turn_rewards": turn_rewards, "turn_ends": ends,
                          "reward_extra_info": info,
                          "turns": len(trajectory.turns), "reason": trajectory.reason})

    async def _episode(self, episode: Episode, prompt_ids: list[int],
                       sampling_params: dict[str, Any], metrics: dict[str, Any]
                       ) -> tuple[list[int], list[int], list[float] | None, list[int]]:
        """The episode's turns: the response tokens after the prompt, their mask (1: the
        model's), when veRL asks for them (`logprobs`) the model's log-probs (0.0 on
        observation tokens; `[]` for an episode with no turn, which veRL's batch needs), and
        each turn's last token (an empty observation leaves two turns one run of 1s)."""
        response: list[int] = []
        mask: list[int] = []
        logprobs: list[float] = []
        ends: list[int] = []
        want = bool(sampling_params.get("logprobs"))
        request_id = uuid4().hex  # one sticky session: the server reuses the prefix
        while not episode.done:
            room = self.response_length - len(response)
            if room <= 0:  # no room for another turn: data, as a turn budget
                episode.stop("out_of_turns")
                break
            with simple_timer("generate_sequences", metrics):
                out = await self.server_manager.generate(
                    request_id=request_id, prompt_ids=prompt_ids + response,
                    sampling_params={**sampling_params, "max_tokens": room})
            ids = list(out.token_ids)[:room]
            if not ids:  # nothing generated: no turn to step or to credit
                episode.stop("empty_turn")
                break
            given = list(out.log_probs or [])[:len(ids)]
            if want and len(given) != len(ids):
                raise EngineError(f"the rollout server gave {len(given)} log-probs for "
                                  f"{len(ids)} tokens")
            response += ids
            mask += [1] * len(ids)
            ends.append(len(response) - 1)
            logprobs += given
            tokenizer: Any = self.tokenizer  # a transformers tokenizer (veRL types it loosely)
            action = tokenizer.decode(ids, skip_special_tokens=True)
            with simple_timer("tool_calls", metrics):
                result = await episode.astep(action)
            if not result.done:
                observation = self.encode(result.observation)[:self.response_length
                                                              - len(response)]
                response += observation
                mask += [0] * len(observation)
                logprobs += [0.0] * len(observation)
        return response, mask, logprobs if want else None, ends
