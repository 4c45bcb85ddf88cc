"""The one config loader (`rewards.options`): its rules on small dataclasses, then every config
kind of the project through its own entry point, then an introspection of every config
dataclass in the packages."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, get_args, get_origin

import pytest

from rewards.errors import ConfigError
from rewards.options import (
    NOT_AN_OPTION,
    check_fields,
    check_range,
    did_you_mean,
    load_options,
    option_names,
)


@dataclass(frozen=True)
class Inner:
    rate: float = 0.5
    mode: Literal["fast", "exact"] = "fast"

    def __post_init__(self) -> None:
        check_fields(self)
        check_range("rate", self.rate, ge=0, le=1)


@dataclass(frozen=True)
class Outer:
    name: str
    count: int = 1
    flag: bool = False
    ratio: float = 1.0
    limit: int | None = None
    path: Path | None = None
    tags: tuple[str, ...] = ()
    pair: tuple[str, int] = ("a", 1)
    items: list[int] = field(default_factory=list)
    weights: Mapping[str, float] = field(default_factory=dict)
    inner: Inner = Inner()
    inners: Sequence[Inner] = ()
    either: bool | Callable[[int], int] = False
    hidden: str = field(default="", metadata=NOT_AN_OPTION)

    def __post_init__(self) -> None:
        check_fields(self)


def load(document: Any) -> Outer:
    return load_options(Outer, document, where="test.yaml")


def test_values_are_checked_and_normalized_by_their_type_hints():
    outer = load({"name": "n", "count": 3.0, "ratio": 2, "limit": None, "path": "a/b",
                  "tags": ["x", "y"], "pair": ["b", 2], "items": (1, 2),
                  "weights": {"k": 1, 2: 0.5}, "inner": {"mode": "exact"},
                  "inners": [{"rate": 1}, Inner(rate=0.25)], "either": abs})
    assert (outer.count, outer.ratio, outer.limit) == (3, 2.0, None)
    assert isinstance(outer.count, int) and isinstance(outer.ratio, float)
    assert outer.path == Path("a/b") and outer.tags == ("x", "y") and outer.pair == ("b", 2)
    assert outer.items == [1, 2]
    assert outer.weights == {"k": 1.0, "2": 0.5}  # a number key of a str mapping is its text
    assert isinstance(outer.weights, MappingProxyType)  # read-only: the config is frozen
    assert outer.inner == Inner(mode="exact") and outer.inners == (Inner(1.0), Inner(0.25))
    assert outer.either is abs
    assert option_names(Outer)[:3] == ["name", "count", "flag"] and "hidden" not in \
        option_names(Outer)


@pytest.mark.parametrize(("document", "message"), [
    ({"name": "n", "count": True}, "test.yaml: count: expected an integer, not True"),
    ({"name": "n", "count": 2.5}, "count: expected an integer, not 2.5"),
    ({"name": "n", "ratio": True}, "ratio: expected a number, not True"),
    ({"name": "n", "ratio": "0.5"}, "ratio: expected a number, not '0.5'"),
    ({"name": "n", "flag": "yes"}, "flag: expected true or false, not 'yes'"),
    ({"name": "n", "flag": 1}, "flag: expected true or false, not 1"),
    ({"name": 3}, "name: expected a string, not 3"),
    ({"name": "n", "limit": "many"}, "limit: expected an integer, not 'many'"),
    ({"name": "n", "tags": "x"}, "tags: expected a list, not 'x'"),
    ({"name": "n", "tags": ["x", 2]}, "tags\\[1\\]: expected a string, not 2"),
    ({"name": "n", "pair": ["a"]}, "pair: expected a list of 2 items, not 1"),
    ({"name": "n", "weights": [1]}, "weights: expected a mapping, not \\[1\\]"),
    ({"name": "n", "weights": {"k": "x"}}, "weights.k: expected a number, not 'x'"),
    ({"name": "n", "inner": {"mode": "slow"}},
     "test.yaml: inner.mode: must be one of 'fast', 'exact', not 'slow'"),
    ({"name": "n", "inner": {"mode": "exactt"}}, "\\(did you mean 'exact'\\?\\)"),
    ({"name": "n", "inner": {"rate": 2}}, "test.yaml: inner.rate: must be >= 0 and <= 1, not 2.0"),
    ({"name": "n", "inners": [{}, {"rat": 1}]},
     "inners\\[1\\]: unknown key 'rat' \\(did you mean 'rate'\\?\\); the keys are mode, rate"),
    ({"name": "n", "inner": 3}, "inner: expected a mapping with keys among rate, mode, not 3"),
    ({"name": "n", "either": 3}, "either: expected true or false or a callable, not 3"),
    ({"name": "n", "hidden": "x"}, "unknown key 'hidden'"),
    ({"nme": "n"}, "test.yaml: unknown key 'nme' \\(did you mean 'name'\\?\\)"),
    ({"count": 1}, "test.yaml: missing required key 'name'"),
    (["name"], "test.yaml: expected a mapping"),
])
def test_bad_values_name_their_path_and_the_rule(document, message):
    with pytest.raises(ConfigError, match=message):
        load(document)


def test_a_literal_rejection_lists_every_allowed_value():
    with pytest.raises(ConfigError) as err:
        load({"name": "n", "inner": {"mode": 1}})
    assert "must be one of 'fast', 'exact', not 1" in str(err.value)
    for kind in ("fast", "exact"):  # and a literal takes exactly its values
        assert load({"name": "n", "inner": {"mode": kind}}).inner.mode == kind


def test_direct_construction_is_checked_by_the_same_rules():
    with pytest.raises(ConfigError, match="Outer: count: expected an integer, not True"):
        Outer(name="n", count=True)  # type: ignore[arg-type]
    built = Outer(name="n", ratio=1, tags=["a"], inner={"rate": 0})  # type: ignore[arg-type]
    assert built.ratio == 1.0 and built.tags == ("a",) and built.inner == Inner(rate=0.0)


def test_check_range_and_did_you_mean():
    check_range("x", None, gt=0)  # None passes: an unset optional field
    check_range("x", 0.5, gt=0, lt=1)
    with pytest.raises(ConfigError, match="x: must be > 0 and < 1, not 1"):
        check_range("x", 1, gt=0, lt=1)
    assert did_you_mean("stepz", ["steps", "seed"]) == " (did you mean 'steps'?)"
    assert did_you_mean("zzz", ["steps"]) == "" and did_you_mean(3, ["steps"]) == ""


# --- every config kind through its own entry point ------------------------------------------

def _reward_config(options: dict[str, Any]) -> None:
    from rewards import parse_config

    parse_config(options, source="reward.yaml")


def _math(options: dict[str, Any]) -> None:
    from rewards.math import MathReward

    MathReward(**options)


def _code(options: dict[str, Any]) -> None:
    from rewards.code import CodeReward

    CodeReward(**options)


def _train(cls_path: str) -> Callable[[dict[str, Any]], None]:
    def load_train(options: dict[str, Any]) -> None:
        from rl import load_train_config

        module, _, name = cls_path.rpartition(".")
        cls = getattr(importlib.import_module(module), name)
        load_train_config(cls, {"model": "m", "reward_config": "r", "prompts": "p", **options})

    return load_train


def _genrm(options: dict[str, Any]) -> None:
    from genrm import GenRMReward

    GenRMReward(model="judge", **options)


def _rm(options: dict[str, Any]) -> None:
    from genrm import DiscriminativeRM

    DiscriminativeRM(model="rm", **options)


def _genrm_label(options: dict[str, Any]) -> None:
    from genrm import LabelConfig

    load_options(LabelConfig, options, where="label")


def _worker(options: dict[str, Any]) -> None:
    from integrations.celery import WorkerConfig

    load_options(WorkerConfig, options, where="worker")


KINDS = {
    "reward config": (_reward_config, {"domains": {"m": {"rewards": ["math"]}},
                                       "normalise": "group"}, "normalize"),
    "math": (_math, {"timout": 2}, "timeout"),
    "code": (_code, {"hiden_share": 0.2}, "hidden_share"),
    "grpo": (_train("rl.grpo.GRPOConfig"), {"num_generation": 4}, "num_generations"),
    "ppo": (_train("rl.ppo.PPOConfig"), {"kl_coeff": 0.1}, "kl_coef"),
    "genrm": (_genrm, {"verdict_markr": "V:"}, "verdict_marker"),
    "rm": (_rm, {"squah": "sigmoid"}, "squash"),
    "genrm label": (_genrm_label, {"treshold": 0.9}, "threshold"),
    "celery worker": (_worker, {"concurency": 2}, "concurrency"),
}


@pytest.mark.parametrize("kind", KINDS)
def test_a_misspelled_key_gets_the_nearest_one(kind):
    entry, options, meant = KINDS[kind]
    with pytest.raises(ConfigError, match=f"did you mean '{meant}'\\?") as err:
        entry(options)
    assert meant in str(err.value).split("; the keys are ")[1].split(", ")


@pytest.mark.parametrize(("entry", "options", "message"), [
    (_reward_config, {"domains": {"math": {"rewards": [{"use": "math", "weight": "x"}]}}},
     "reward config reward.yaml: domains.math.rewards\\[0\\].weight: expected a number"),
    (_reward_config, {"domains": {"math": {"rewards": ["math"]}}, "normalize": "zscore"},
     ("normalize: must be one of 'none', 'zscore_by_domain', 'group', 'group_per_component', "
      "not 'zscore'")),
    (_math, {"float_rel_tol": "tight"}, "math reward: float_rel_tol: expected a number"),
    (_math, {"timeout": 0}, "math reward: timeout: must be >= 0.01"),
    (_code, {"weights": {"judge": "x"}}, "rtv: weights.judge: expected a number"),
    (_code, {"block": "middle"},
     "rtv: block: must be one of 'last', 'first', 'longest', 'concat', not 'middle'"),
    (_code, {"forbidden_patterns": [{"regex": "a", "scope": "some"}]},
     "rtv: forbidden_patterns\\[0\\].scope: must be one of 'all', 'function', 'stdin'"),
    (_train("rl.grpo.GRPOConfig"), {"curriculum": {"order": [1]}},
     "GRPOConfig: curriculum.order\\[0\\]: expected a string, not 1"),
    (_train("rl.grpo.GRPOConfig"), {"rollout_backend": "sglang"},
     "rollout_backend: must be one of 'transformers', 'vllm', not 'sglang'"),
    (_train("rl.ppo.PPOConfig"), {"dtype": "float16"},
     "PPOConfig: dtype: must be one of 'float32', 'bfloat16', not 'float16'"),
    (_genrm, {"cot_read": "guess"}, "genrm: cot_read: must be one of 'logprob', 'parse'"),
    (_worker, {"queues": ["cpu", "tpu"]},
     "worker: queues\\[1\\]: must be one of 'cpu', 'sandbox', 'gpu', not 'tpu'"),
])
def test_each_kind_names_the_path_and_the_allowed_values(entry, options, message):
    with pytest.raises(ConfigError, match=message):
        entry(options)


@pytest.mark.parametrize(("entry", "options"), [
    (_math, {"tail_chars": True}), (_math, {"workers": False}), (_code, {"memory_mb": True}),
    (_train("rl.grpo.GRPOConfig"), {"steps": True}), (_genrm, {"seed": True}),
    (_worker, {"concurrency": True}),
])
def test_bool_is_not_an_int(entry, options):
    with pytest.raises(ConfigError, match="expected an integer, not True|not False"):
        entry(options)


# --- introspection --------------------------------------------------------------------------

PACKAGES = ("rewards", "genrm", "rl", "integrations", "prompt_filter")


def _config_classes() -> dict[str, type]:
    """Every dataclass named `...Config` defined in the packages."""
    found: dict[str, type] = {}
    for package in PACKAGES:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            if info.name.endswith("__main__"):
                continue
            try:
                module = importlib.import_module(info.name)
            except ModuleNotFoundError as exc:  # an adapter whose framework's own deps are
                if (exc.name or "").split(".")[0] in PACKAGES:  # not installed here (veRL's
                    raise  # agent loop needs hydra, tested in a child with it on the path)
                continue
            for obj in vars(module).values():
                if isinstance(obj, type) and dataclasses.is_dataclass(obj) \
                        and obj.__module__ == module.__name__ and obj.__name__.endswith("Config"):
                    found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return found


def _example(hint: Any) -> Any:
    """A plausible document value for a required field of this type."""
    origin, args = get_origin(hint), get_args(hint)
    if origin is Literal:
        return args[0]
    if origin in (typing.Union, types.UnionType):
        return _example(next(a for a in args if a is not type(None)))
    if dataclasses.is_dataclass(hint):
        return _minimal(hint)
    if origin in (tuple, list, Sequence) or hint in (tuple, list):
        return [_example(args[0] if args else str)]
    if origin in (dict, Mapping) or hint in (dict, Mapping):
        return {"k": _example(args[1]) if args else 1}
    return {str: "x", int: 1, float: 1.0, bool: False}.get(hint, "x")


def _minimal(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: _example(hints[f.name]) for f in dataclasses.fields(cls)
            if f.init and f.default is dataclasses.MISSING
            and f.default_factory is dataclasses.MISSING}


CONFIGS = _config_classes()

# The configs of this change: each validates itself through `check_fields` when built in Python.
SELF_CHECKED = {
    "rewards.config.ComponentConfig", "rewards.config.DomainConfig", "rewards.config.RewardConfig",
    "rewards.math._config.MathConfig", "rewards.code._config.CodeRewardConfig",
    "rl._config.CurriculumConfig", "rl._config.LoopConfig", "rl.grpo.GRPOConfig",
    "rl.ppo.PPOConfig", "genrm.generative.JudgeConfig", "genrm.generative.GenRMConfig",
    "genrm.discriminative.RMConfig", "genrm.label.LabelConfig", "genrm.train.TrainConfig",
    "integrations.celery._worker.WorkerConfig", "integrations.celery.client.ClientConfig",
}


def test_the_introspection_finds_the_configs():
    assert SELF_CHECKED <= set(CONFIGS)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_every_config_dataclass_loads_through_the_one_loader(name):
    cls = CONFIGS[name]
    assert cls.__dataclass_params__.frozen, f"{name} is a config: frozen"  # type: ignore[attr-defined]
    document = _minimal(cls)
    config = load_options(cls, document, where=name)
    assert isinstance(config, cls)
    first = option_names(cls)[0]
    misspelled = {**document, first + "x": 1}
    if name == "rewards.config.ComponentConfig":  # its other keys are the factory's options,
        assert load_options(cls, misspelled, where=name).options == {first + "x": 1}
        return  # which the factory's own config then checks (the math, code ... kinds above)
    with pytest.raises(ConfigError, match=f"did you mean '{first}'"):
        load_options(cls, misspelled, where=name)


@pytest.mark.parametrize("name", sorted(SELF_CHECKED))
def test_our_configs_check_themselves_when_built_in_python(name):
    cls = CONFIGS[name]
    hints = typing.get_type_hints(cls)
    config = load_options(cls, _minimal(cls), where=name)
    for target in (n for n in option_names(cls) if hints[n] in (int, float, bool, str)):
        with pytest.raises(ConfigError, match=f"{cls.__name__}: {target}: expected"):
            dataclasses.replace(config, **{target: [object()]})
