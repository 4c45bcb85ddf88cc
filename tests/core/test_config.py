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
    ({"domains": {"m": {"rewards": ["math"], "extra": 1}}}, "unknown keys"),
    ({"domains": {"m": {"rewards": ["math"]}}, "oops": 1}, "unknown top-level"),
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
