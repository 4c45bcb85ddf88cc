import textwrap

import pytest

from rewards import ConfigError, Sample, build_reward, load_config, parse_config
from rewards.registry import register, resolve


def test_parse_full_config():
    cfg = parse_config({
        "domains": {
            "math": {"rewards": [{"use": "math", "timeout": 2}]},
            "chat": {"alpha": 0.3, "rewards": ["rewards_for_tests:exact",
                                               {"use": "rewards_for_tests:Constant", "value": 0.5,
                                                "weight": 0, "name": "c"}]},
        },
        "normalize": "zscore_by_domain",
    })
    assert cfg.normalize == "zscore_by_domain"
    math = cfg.domains["math"].rewards[0]
    assert (math.use, math.name, math.weight, dict(math.options)) == ("math", "math", 1.0,
                                                                       {"timeout": 2})
    chat = cfg.domains["chat"]
    assert chat.alpha == 0.3
    assert [c.name for c in chat.rewards] == ["rewards_for_tests:exact", "c"]
    assert chat.rewards[1].weight == 0.0


@pytest.mark.parametrize("document, message", [
    ([], "mapping"),
    ({"domains": {}}, "non-empty"),
    ({"domains": {"m": {"rewards": []}}}, "non-empty 'rewards'"),
    ({"domains": {"m": {"rewards": [{"weight": 1}]}}}, "'use' key"),
    ({"domains": {"m": {"rewards": [{"use": "math", "weight": -1}]}}}, "weight"),
    ({"domains": {"m": {"alpha": 2, "rewards": ["math"]}}}, "alpha"),
    ({"domains": {"m": {"rewards": ["math"]}}, "normalize": "minmax"}, "normalize"),
    ({"domains": {"m": {"rewards": ["math", "math"]}}}, "unique"),
    ({"domains": {"m": {"rewards": ["math"], "extra": 1}}}, "domains.m: unknown key 'extra'"),
    ({"domains": {"m": {"rewards": ["math"]}}, "oops": 1}, "cfg.yaml: unknown key 'oops'"),
    ({"domains": {"m": {"rewards": ["math"]}}, "normalise": "group"},
     "unknown key 'normalise' \\(did you mean 'normalize'\\?\\)"),
    ({"domains": {"m": {"rewards": [{"use": "math", "weight": "heavy"}]}}},
     "cfg.yaml: domains.m.rewards\\[0\\].weight: expected a number, not 'heavy'"),
    ({"domains": {"m": {"rewards": [{"use": "math", "kind": "learnt"}]}}},
     "kind: must be one of 'verifiable', 'learned', not 'learnt'"),
    ({"domains": {"m": {"rewards": ["math"]}}, "ema_decay": 0.9}, "needs normalize"),
    ({"domains": {"m": {"rewards": ["math"]}}, "normalize": "zscore_by_domain",
      "ema_decay": 1.5}, "ema_decay"),
    ({"domains": {"m": {"rewards": ["math"]}}, "eps": 0}, "eps"),
])
def test_bad_configs_name_the_problem(document, message):
    with pytest.raises(ConfigError, match=message):
        parse_config(document, source="cfg.yaml")


def test_load_config_reports_file(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("domains: [unclosed\n")
    with pytest.raises(ConfigError, match="bad.yaml"):
        load_config(path)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.yaml")


def test_content_hash_is_stable_and_sensitive(tmp_path):
    a = tmp_path / "a.yaml"
    b = tmp_path / "b.yaml"
    a.write_text("domains:\n  m:\n    rewards: [{use: math, timeout: 2}]\n")
    b.write_text("domains: {m: {rewards: [{timeout: 2, use: math}]}}\n")
    assert load_config(a).content_hash() == load_config(b).content_hash()
    b.write_text("domains: {m: {rewards: [{timeout: 3, use: math}]}}\n")
    assert load_config(a).content_hash() != load_config(b).content_hash()


def test_every_builtin_name_resolves_to_a_factory():
    from rewards.registry import registered_names

    for name in registered_names():
        assert callable(resolve(name)), name


def test_resolve_errors():
    with pytest.raises(ConfigError, match="unknown reward"):
        resolve("nonexistent")
    with pytest.raises(ConfigError, match="cannot import"):
        resolve("no_such_module_xyz:thing")
    with pytest.raises(ConfigError, match="has no"):
        resolve("rewards_for_tests:missing")


def test_register_by_name():
    @register("test-upper")
    def factory(letter: str = "A"):
        from rewards import reward

        @reward(name="upper")
        def upper(sample):
            return float(sample.completion.startswith(letter))
        return upper

    r = build_reward(parse_config({"domains": {"default": {"rewards": [
        {"use": "test-upper", "letter": "B"}]}}}))
    assert [s.value for s in r.score([Sample("p", "Bx"), Sample("p", "Ax")])] == [1.0, 0.0]


def test_build_reward_from_file(tmp_path):
    path = tmp_path / "cfg.yaml"
    path.write_text(textwrap.dedent("""
        domains:
          default:
            rewards:
              - use: rewards_for_tests:exact
                name: exact
              - {use: rewards_for_tests:length, weight: 0}
    """))
    r = build_reward(path)
    (score,) = r.score([Sample("p", "42", reference="42")])
    assert score.value == 1.0  # the length component has weight 0: logged only
    assert dict(score.parts) == {"exact": 1.0, "rewards_for_tests:length": 2.0}


def test_build_errors():
    with pytest.raises(ConfigError, match="bad options"):
        build_reward(parse_config({"domains": {"d": {"rewards": [
            {"use": "rewards_for_tests:Constant", "bogus": 1}]}}}))
    with pytest.raises(ConfigError, match="takes no options"):
        build_reward(parse_config({"domains": {"d": {"rewards": [
            {"use": "rewards_for_tests:exact", "x": 1}]}}}))


def _laughs(levels: int = 9, width: int = 9) -> str:
    """A "billion laughs" document: each anchor aliases the previous one `width` times."""
    lines = ["l0: &l0 [" + ", ".join(["lol"] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def test_alias_expansion_is_bounded_in_every_config_loader(tmp_path):
    from rewards.config import MAX_YAML_NODES
    from rl import load_train_config
    from rl.grpo import GRPOConfig

    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(_laughs())  # 9^9 = 387 million strings once expanded
    assert len(bomb.read_bytes()) < 600
    with pytest.raises(ConfigError, match=rf"bomb.yaml: YAML expands to more than "
                                          rf"{MAX_YAML_NODES:,} nodes"):
        load_config(bomb)
    with pytest.raises(ConfigError, match="bomb.yaml: YAML expands"):
        load_train_config(GRPOConfig, bomb)
    with pytest.raises(ConfigError, match="override model: YAML expands"):
        load_train_config(GRPOConfig, {"reward_config": "r", "prompts": "p"},
                          ["model=" + _laughs().replace("\n", "\n")])


def test_yaml_bound_counts_aliases_at_their_expanded_size():
    from rewards.config import parse_yaml

    text = _laughs(levels=3, width=10)
    document = parse_yaml(text, source="small")
    assert len(document["l2"]) == 10 and document["l2"][0][0] == ["lol"] * 10
    # root + 3 keys + l0 (a list of 10) + l1 (10 x l0) + l2 (10 x l1), aliases expanded
    nodes = 1 + 3 + 11 + (1 + 10 * 11) + (1 + 10 * 111)
    assert parse_yaml(text, source="exact", max_nodes=nodes)["l0"] == ["lol"] * 10
    with pytest.raises(ConfigError, match="exact: YAML expands to more than"):
        parse_yaml(text, source="exact", max_nodes=nodes - 1)
    # merge keys and ordinary aliases still load
    merged = parse_yaml("base: &b {lr: 0.1}\nrun: {<<: *b, steps: 3}\n", source="m")
    assert merged["run"] == {"lr": 0.1, "steps": 3}


@pytest.mark.parametrize(("text", "message"), [
    ("a: &a [1, *a]\n", "recursive YAML alias \\*a at line 1"),
    ("[" * 2000 + "]" * 2000, "YAML nested too deeply"),
    ("a: 1\n---\nb: 2\n", "not valid YAML"),
    ("a: *nowhere\n", "not valid YAML"),
    ("a: !!python/object:os.system {}\n", "not valid YAML"),
], ids=["recursive", "deep", "two-documents", "undefined-alias", "python-tag"])
def test_hostile_yaml_is_a_config_error(tmp_path, text, message):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=f"c.yaml: {message}"):
        load_config(path)


def test_unreadable_configs_name_the_file(tmp_path):
    (tmp_path / "bin.yaml").write_bytes(b"\xff\xfe\x00domains")
    with pytest.raises(ConfigError, match="bin.yaml: cannot read reward config"):
        load_config(tmp_path / "bin.yaml")
    with pytest.raises(ConfigError, match="cannot read reward config"):
        load_config(tmp_path)  # a folder


def test_shorthands_and_the_normalization_off_switch():
    import dataclasses

    cfg = parse_config({"domains": {1: {"rewards": ["math", {"use": "math", "name": 2}]}},
                        "normalize": None})
    assert cfg.normalize == "none"  # an empty normalize: means none
    assert [c.name for c in cfg.domains["1"].rewards] == ["math", "2"]  # keys read as text
    assert cfg.document()["domains"] == {"1": {"rewards": ["math", {"use": "math", "name": 2}]}}
    ema = parse_config({"domains": {"m": {"rewards": ["math"]}}, "normalize": "zscore_by_domain",
                        "ema_decay": 0.9})
    # workers and the prompt filter turn the batch normalization off this way
    assert dataclasses.replace(ema, normalize="none").ema_decay == 0.9
    with pytest.raises(ConfigError, match="component names must be unique"):  # built in Python
        dataclasses.replace(ema, domains={"m": dataclasses.replace(
            ema.domains["m"], rewards=ema.domains["m"].rewards * 2)})


def test_an_unknown_component_key_names_answer_after_too() -> None:
    """Every component takes `answer_after` (read by the builder, not by the component): the
    unknown-key error lists it beside the component's own keys."""
    from rewards.build import build_component_spec

    with pytest.raises(ConfigError, match=r"the keys are allow_loose, .*; and answer_after"):
        build_component_spec({"use": "ifeval", "answer_afte": "</think>"}, where="x")
