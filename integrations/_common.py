"""What every framework adapter shares: finding the reward (an object, a config, a path or the
`REWARDS_CONFIG` environment variable), turning framework values into `Sample`s (chat messages,
dataset columns, domains), the reward's batch normalization, and naming the pip extra for a missing
dependency."""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

from rewards.completion import completion_text, read_completion  # the one reading
from rewards.config import RewardConfig, load_config, load_yaml
from rewards.envs import EnvConfig
from rewards.errors import ConfigError, InputError
from rewards.io import REFERENCE_COLUMNS, find_reference, gold_columns  # shared with the CLI
from rewards.mixing import BatchNormalizer, DomainRouter, route_domain
from rewards.options import load_options
from rewards.scoring import AbstentionPolicy, AbstentionTally, abstention_cause
from rewards.types import Reward, Sample, Score

__all__ = [
    "ABSTAIN_MODES",
    "ADAPTER_POLICY",
    "CONFIG_ENV",
    "ENV_CONFIG_ENV",
    "MAX_CLIENT_TALLIES",
    "REFERENCE_COLUMNS",
    "AbstainMode",
    "OnConfigAbstain",
    "ResolvedReward",
    "RewardSource",
    "check_abstain_mode",
    "check_rollout_abstention",
    "completion_text",
    "env_config",
    "find_reference",
    "labelled_sample",
    "prompt_and_response",
    "raise_on_abstention",
    "resolve_reward",
    "row_gold",
    "row_sample",
    "warm_up",
]

CONFIG_ENV = "REWARDS_CONFIG"
"""Environment variable naming the reward config file when an adapter is given none."""

RewardSource = Reward | RewardConfig | str | Path | None

ENV_CONFIG_ENV = "REWARDS_ENV_CONFIG"
"""Environment variable naming the environment YAML (an `environment:` block) when an
environment adapter is given none."""

AbstainMode = Literal["mask", "zero", "raise"]
"""What an adapter hands its framework for a sample that abstained: `mask` leaves it out the
framework's own way (see docs/integrations.md), `zero` a number (the adapter's abstain value,
0.0 unless set), `raise` an `InputError` naming the sample and its cause."""
ABSTAIN_MODES: tuple[str, ...] = get_args(AbstainMode)
OnConfigAbstain = Literal["raise", "warn"]
"""What an adapter does when its run abstains for a configuration cause (an unknown domain,
missing references): raise `ConfigurationAbstention`, or log one warning per run."""
ADAPTER_POLICY = AbstentionPolicy(share=1.0, min_rows=32)
"""Adapters see a run a batch (or a rollout) at a time: the run fails once all of its first
32 rows or more abstained for a configuration cause."""

MAX_CLIENT_TALLIES = 4096
"""Clients whose rows a shared server judges on their own (`ResolvedReward.observe`)."""


def check_abstain_mode(abstain: str, on_config_abstain: str = "raise") -> None:
    """Options of an adapter, checked when it is built (not at its first abstention)."""
    if abstain not in ABSTAIN_MODES:
        raise ConfigError(f"abstain must be one of {', '.join(ABSTAIN_MODES)}, not {abstain!r}")
    if on_config_abstain not in get_args(OnConfigAbstain):
        raise ConfigError(f"on_config_abstain must be one of "
                          f"{', '.join(get_args(OnConfigAbstain))}, not {on_config_abstain!r}")


def raise_on_abstention(samples: Sequence[Sample], scores: Sequence[Score]) -> None:
    """`abstain="raise"`: an `InputError` for the first sample that abstained."""
    for i, (sample, score) in enumerate(zip(samples, scores)):
        cause = abstention_cause(sample, score)
        if cause is not None:
            raise InputError(f"sample {i} of the batch (domain {sample.domain!r}) abstained: "
                             f"{cause}; pass abstain='mask' or 'zero' to train on without it",
                             field="reference" if cause.startswith("bad_reference") else None)


def check_rollout_abstention(sample: Sample, score: Score, value: float | None,
                             abstain: AbstainMode, *, framework: str, mask_hint: str) -> None:
    """The one decision for adapters called once per rollout (veRL's per-rollout forms,
    verifiers, AReaL), which must hand their framework a number and cannot leave a rollout
    out: `raise` raises `InputError`; `mask` (the default, so that an abstention never trains
    as 0 unasked) raises a `ConfigError` saying how to mask or to opt into `zero`; `zero`
    returns, and the adapter sends its abstain value. `value`: what the adapter would send
    (the score's value, or a component's part); `None` is an abstention."""
    if value is not None:
        return
    abstained = Score(None, score.reason, score.parts)
    if abstain == "raise":
        raise_on_abstention([sample], [abstained])
    if abstain == "mask":
        raise ConfigError(f"a rollout abstained ({abstention_cause(sample, abstained)}) and "
                          f"{framework} cannot leave it out (a number is needed for every "
                          f"rollout): {mask_hint}")


@dataclass(frozen=True)
class ResolvedReward:
    """A reward ready for an adapter, with what the adapter needs to know about it."""

    reward: Reward
    """The reward as configured, batch normalization included."""
    raw: Reward
    """The same reward without batch normalization (for per-request normalization and for
    frameworks that compute their own advantages)."""
    normalizer: BatchNormalizer
    """The reward's own batch normalization (its running statistics included): `reward` is
    `raw` followed by this."""
    config: RewardConfig | None
    """The config it was built from; None for a `Reward` object passed directly."""
    tally: AbstentionTally = field(default_factory=lambda: AbstentionTally(ADAPTER_POLICY))
    """Rows and abstentions by cause over this process's run (see `observe`)."""
    clients: OrderedDict[str, AbstentionTally] = field(default_factory=OrderedDict)
    """A shared server's tally per client (`observe`'s `client`), least recent first."""

    def observe(self, samples: Sequence[Sample], scores: Sequence[Score], *,
                on_config_abstain: OnConfigAbstain = "raise", client: str | None = None
                ) -> None:
        """Count a scored batch in the run's tally; a run that abstains for a configuration
        cause raises `ConfigurationAbstention` or warns once (`on_config_abstain`).

        A server shared by several clients passes `client` (`integrations._http.peer_key`):
        the run's tally still counts every row (`/health`), and the decision is each
        client's own, over its own rows, so one client's rows of a domain the config lacks
        never refuse another client's request. The last `MAX_CLIENT_TALLIES` clients are
        followed (one that comes back after more starts a new count)."""
        self.tally.add(samples, scores)
        if client is None:
            self.tally.check(on_config_abstain)
            return
        own = self.clients.pop(client, None) or AbstentionTally(
            self.tally.policy, where=self.tally.where, domains=self.tally.domains)
        self.clients[client] = own
        while len(self.clients) > MAX_CLIENT_TALLIES:
            self.clients.popitem(last=False)
        own.add(samples, scores)
        own.check(on_config_abstain)

    @property
    def normalize(self) -> str:
        """The config's batch normalization: none, zscore_by_domain, group or
        group_per_component."""
        return self.normalizer.mode

    def normalize_batch(self, samples: Sequence[Sample], scores: Sequence[Score]) -> list[Score]:
        """Raw scores of one batch (one request, one trainer batch), normalized as `reward`
        normalizes a batch (`rewards.mixing.normalize`)."""
        return self.normalizer(samples, scores)

    def check_per_rollout(self, api: str, instead: str) -> None:
        """Scoring one rollout at a time returns raw values and leaves the batch normalization
        to the trainer (its group advantages stand for `group`). `group_per_component` is not
        the trainer's to apply: each component is normalized over the rollouts of a group,
        which `api` never sees together. Refused, naming what to use `instead`."""
        if self.normalize == "group_per_component":
            raise ConfigError(f"normalize: group_per_component normalizes each component over "
                              f"the rollouts of a group, and {api} scores one rollout at a "
                              f"time: {instead}")

    @property
    def default_domain(self) -> str:
        """The domain of samples that name none (`rewards.mixing.route_domain`)."""
        return self.route(None)

    def route(self, domain: str | None) -> str:
        """The config domain that scores a sample of `domain`, by the one rule
        (`rewards.mixing.route_domain`) the scoring path routes by; a sample no domain
        scores keeps its own name, which its `unknown_domain` abstention then names."""
        if self.config is None:
            return domain or "default"
        return route_domain(self.config.domains, domain) or domain or "default"

    def components(self) -> list[tuple[str, str, float]]:
        """(domain, component name, weight) for every component of the config, in order."""
        if self.config is None:
            return []
        return [(domain, c.name, c.weight) for domain, spec in self.config.domains.items()
                for c in spec.rewards]

    def component_names(self) -> list[str]:
        """Distinct component names over all domains, in config order."""
        return list(dict.fromkeys(name for _, name, _ in self.components()))


_CACHE: dict[tuple[str, int], ResolvedReward] = {}
_CACHE_LOCK = threading.Lock()


def resolve_reward(source: RewardSource = None) -> ResolvedReward:
    """The reward for `source`: a `Reward`, a `RewardConfig`, a config path, or (None) the
    path in `$REWARDS_CONFIG`. Config files are built once per process (per path and mtime)."""
    if source is None:
        source = os.environ.get(CONFIG_ENV)
        if not source:
            raise ConfigError(f"no reward config: pass one to the adapter or set {CONFIG_ENV} "
                              "to the path of a reward config YAML")
    if isinstance(source, (str, Path)):
        path = Path(source).expanduser().resolve()
        try:
            key = (str(path), path.stat().st_mtime_ns)
        except OSError as exc:
            raise ConfigError(f"{source}: cannot read reward config: {exc}") from exc
        with _CACHE_LOCK:
            if key not in _CACHE:
                _CACHE[key] = _from_config(load_config(path))
            return _CACHE[key]
    if isinstance(source, RewardConfig):
        return _from_config(source)
    if not hasattr(source, "score"):
        raise ConfigError(f"not a Reward, RewardConfig or config path: {source!r}")
    return _from_reward(source, None)


def _from_config(config: RewardConfig) -> ResolvedReward:
    from rewards.build import build_reward

    return _from_reward(build_reward(config), config)


def _from_reward(reward: Reward, config: RewardConfig | None) -> ResolvedReward:
    domains = list(config.domains) if config is not None else []
    tally = AbstentionTally(ADAPTER_POLICY, where=f"reward {reward.name!r}", domains=domains)
    if isinstance(reward, DomainRouter):
        return ResolvedReward(reward, reward.raw, reward.normalizer, config, tally)
    return ResolvedReward(reward, reward, BatchNormalizer("none"), config, tally)


def env_config(source: EnvConfig | Mapping[str, Any] | str | Path | None = None, *,
               where: str) -> EnvConfig:
    """The environment config of an adapter that runs episodes in a trainer's rollouts: an
    `EnvConfig`, an `environment:` document (a mapping, or a name), a YAML file holding one
    (bare or under `environment:`), or (None) the file in `$REWARDS_ENV_CONFIG`."""
    if isinstance(source, EnvConfig):
        return source
    document: Any = source
    if source is None or isinstance(source, Path):
        path = source or os.environ.get(ENV_CONFIG_ENV)
        if not path:
            raise ConfigError(f"no environment config for {where}: pass one or set "
                              f"{ENV_CONFIG_ENV} to the path of an environment YAML")
        document = load_yaml(path, what="environment")
        where = f"environment {path}"
    elif isinstance(source, str) and source.endswith((".yaml", ".yml")):
        document = load_yaml(source, what="environment")
        where = f"environment {source}"
    if isinstance(document, Mapping) and "environment" in document:
        document = document["environment"]
    return load_options(EnvConfig, document, where=where)


def warm_up(reward: Any, _seen: set[int] | None = None) -> int:
    """Call `warm_up()` on every component of a reward that has one (e.g. the math reward
    starts its worker processes), walking routers, mixtures and renamed components. A server
    does this before accepting requests so its first requests are not the slow ones. Returns
    how many components were warmed."""
    seen = _seen if _seen is not None else set()
    if id(reward) in seen:
        return 0
    seen.add(id(reward))
    warmed = 0
    if callable(getattr(reward, "warm_up", None)):
        reward.warm_up()
        warmed += 1
    children: list[Any] = []
    if isinstance(getattr(reward, "domains", None), Mapping):
        children += list(reward.domains.values())
    children += [getattr(c, "reward", c) for c in getattr(reward, "components", ()) or ()]
    if hasattr(reward, "reward") and hasattr(reward.reward, "score"):
        children.append(reward.reward)
    return warmed + sum(warm_up(child, seen) for child in children)


def prompt_value(prompt: Any) -> str | list[dict[str, Any]]:
    """A prompt for `Sample.prompt`: text, or chat messages as plain dicts."""
    if prompt is None:
        return ""
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, Sequence) and all(isinstance(m, Mapping) for m in prompt):
        return [dict(m) for m in prompt]
    return str(prompt)


def prompt_and_response(body: Any) -> tuple[str | list[Any], str]:
    """(prompt, response) of a remote reward request that sends them as `prompt` (text or chat
    messages) and `response` (text), as slime and ROLL do; `InputError` naming the field."""
    if not isinstance(body, Mapping):
        raise InputError("the body must be a JSON object", field="body")
    prompt, response = body.get("prompt"), body.get("response")
    if not isinstance(prompt, (str, list)):
        raise InputError("needs text or chat messages", field="prompt")
    if not isinstance(response, str):
        raise InputError("needs the response text", field="response")
    return prompt, response


def labelled_sample(resolved: ResolvedReward, prompt: Any, completion: Any, label: Any,
                    domain: str | None = None) -> Sample:
    """The `Sample` of a trainer's (prompt, completion, label) triple, by the one rule every
    remote reward protocol reads a label with (OpenRLHF, slime, NeMo Gym, ROLL): the label is
    the reference; a label that is a mapping with a `reference` key gives the reference and,
    with a `domain` key, the domain (`domain` given first wins). The completion is text or
    chat messages, read by the one reading (`read_completion`)."""
    reference = label
    if isinstance(label, Mapping) and "reference" in label:
        reference = label["reference"]
        domain = domain or label.get("domain")
    text, turns = read_completion(completion)
    return Sample(prompt=prompt_value(prompt), completion=text, turns=turns,
                  reference=reference, domain=resolved.route(domain), group=group_key(prompt))


def group_key(prompt: Any) -> str:
    """A group id for rollouts of one prompt (the prompt's text)."""
    return prompt if isinstance(prompt, str) else repr(prompt)


_NOT_META = frozenset({*REFERENCE_COLUMNS, "prompt", "completion"})


def row_gold(row: Mapping[str, Any], reference_column: str | None = None, *,
             first: Sequence[str] = ()) -> tuple[Any, str | None]:
    """(the gold, why it is ambiguous or None) of a row or request body whose columns an
    adapter sees, by `find_reference` (the column `reference_column` when named, exactly;
    `first`: a protocol's own gold field): the one reading of every adapter, so the reward
    of a final answer and the episode before it read the same gold. A named column the row
    lacks is an `InputError`. The ambiguity is `Sample.ambiguous_gold` (the sample abstains,
    `bad_reference:ambiguous`): it comes from this reading alone, never from the row."""
    gold = find_reference(row, reference_column, first=first)
    if not gold.found and reference_column is not None:
        raise InputError(f"the dataset has no reference column {reference_column!r} "
                         f"(columns: {sorted(map(str, row))})", field=reference_column)
    why = None if gold.ambiguity is None else str(InputError(gold.ambiguity, field=gold.column))
    return gold.value, why


def row_sample(resolved: ResolvedReward, prompt: Any, completion: Any,
               row: Mapping[str, Any], *, reference_column: str | None = None,
               domain_column: str = "domain", group: str | None = None,
               not_meta: Collection[str] = ()) -> Sample:
    """A rollout of a dataset row as a `Sample`: the one rule by which every adapter that sees
    the row's columns (TRL, verifiers, AReaL) builds its samples.

    The reference is the column `reference_column`, else the row's gold by `find_reference`
    (`row_gold`: a row whose gold columns differ abstains, `bad_reference:ambiguous`); a
    named column the row lacks is an `InputError`.
    The domain is the row's `domain_column`, routed by `ResolvedReward.route` (a row that
    names none: the config's only domain, else `default`). The group is `group`, else the
    prompt's text. The row's other columns travel in `meta`, as `rewards score` carries a
    row's unmapped columns (a tool schema `tools`, IFEval's constraint columns, ids);
    `not_meta` names the framework's own arguments that arrive among the columns."""
    reference, ambiguity = row_gold(row, reference_column)
    skip = {*_NOT_META, *gold_columns(row), *not_meta, domain_column, reference_column}
    meta = {k: v for k, v in row.items() if k not in skip}
    text, turns = read_completion(completion)
    return Sample(prompt=prompt_value(prompt), completion=text, turns=turns,
                  reference=reference, domain=resolved.route(row.get(domain_column)),
                  group=group if group is not None else group_key(prompt), meta=meta,
                  ambiguous_gold=ambiguity)


