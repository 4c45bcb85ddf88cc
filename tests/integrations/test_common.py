"""What the adapters share: reading completions and OpenRLHF queries, finding the reward,
lazy imports, and errors that name the pip extra."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from integration_helpers import server_env  # type: ignore[import-not-found]

from integrations._common import (
    completion_text,
    find_reference,
    resolve_reward,
    warm_up,
)
from integrations.openrlhf import split_query
from rewards import Sample, Score, build_reward
from rewards.deps import require
from rewards.errors import ConfigError
from rewards.io import Gold

PROMPT = "<|im_start|>user\nWhat is 1+1?<|im_end|>\n<|im_start|>assistant\n"


@pytest.mark.parametrize("query, prompt, response", [
    (PROMPT + "It is 2.<|im_end|><|endoftext|>", PROMPT, "It is 2."),
    (PROMPT + "It is 2.<|im_end|>\n<|endoftext|><|endoftext|>", PROMPT, "It is 2."),
    ("<s> Q: 1+1? A: 2</s>", "Q: 1+1? A:", " 2"),  # BOS decoded in front of the prompt
    ("Q: 1+1? A: 2", "a different prompt", "Q: 1+1? A: 2"),  # prompt not found: whole query
    ("Q: 1+1? A: 2<|eot_id|>", None, "Q: 1+1? A: 2"),
    ("keeps inner <|im_end|> tokens<|im_end|>", "", "keeps inner <|im_end|> tokens"),
])
def test_split_query(query: str, prompt: str | None, response: str) -> None:
    assert split_query(query, prompt) == response


@pytest.mark.parametrize("completion, text", [
    ("plain", "plain"),
    ([{"role": "assistant", "content": "chat"}], "chat"),
    ([{"role": "assistant", "content": "call tool"}, {"role": "tool", "content": "42"},
      {"role": "assistant", "content": "final \\boxed{42}"}], "final \\boxed{42}"),
    ([{"role": "assistant", "content": [{"type": "text", "text": "a"},
                                        {"type": "image", "image": "..."},
                                        {"type": "text", "text": "b"}]}], "ab"),
    ({"role": "assistant", "content": "one message"}, "one message"),
])
def test_completion_text(completion: object, text: str) -> None:
    assert completion_text(completion) == text


def _found(gold: Gold) -> tuple[bool, object]:
    return gold.found, gold.value


def test_find_reference() -> None:
    assert _found(find_reference({"answer": "2", "solution": "So \\boxed{2}."})) == (True, "So \\boxed{2}.")
    assert _found(find_reference({"answer": "1"}, "answer")) == (True, "1")
    assert _found(find_reference({"answer": "1"}, "gold")) == (False, None)
    assert _found(find_reference({"x": 1}, None)) == (False, None)
    ambiguous = find_reference({"answer": "1", "solution": "2"})
    assert ambiguous.ambiguity is not None and "'solution' ('2')" in ambiguous.ambiguity


def test_resolve_reward_sources(math_config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = resolve_reward(math_config)
    assert resolve_reward(str(math_config)) is first  # built once per path and mtime
    assert first.default_domain == "math" and first.component_names() == ["math", "brevity"]
    monkeypatch.setenv("REWARDS_CONFIG", str(math_config))
    assert resolve_reward(None) is first
    direct = resolve_reward(build_reward(math_config))
    assert direct.config is None and direct.default_domain == "default"
    with pytest.raises(ConfigError, match="cannot read"):
        resolve_reward(math_config.parent / "missing.yaml")
    with pytest.raises(ConfigError, match="not a Reward"):
        resolve_reward(42)  # type: ignore[arg-type]


def test_raw_reward_drops_batch_normalization(tmp_path: Path) -> None:
    config = tmp_path / "z.yaml"
    config.write_text("domains: {default: {rewards: [{use: 'integration_rewards:exact', "
                      "name: exact}]}}\nnormalize: zscore_by_domain\n")
    resolved = resolve_reward(config)
    samples = [Sample("p", "a", "a"), Sample("p", "b", "a")]
    assert [s.value for s in resolved.raw.score(samples)] == [1.0, 0.0]
    assert [s.value for s in resolved.reward.score(samples)] == [1.0, -1.0]
    assert resolved.normalize == "zscore_by_domain"
    assert isinstance(resolved.raw.score(samples)[0], Score)


def test_missing_dependency_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "fastapi", None)  # import fastapi -> ImportError
    with pytest.raises(ConfigError, match=r"pip install (-e )?'[^']*\[server\]'"):
        require("fastapi", extra="server")
    from integrations.server import create_app

    with pytest.raises(ConfigError, match=r"pip install (-e )?'[^']*\[server\]'"):
        create_app(None)
    monkeypatch.setitem(sys.modules, "verifiers", None)
    from integrations.verifiers import rubric

    with pytest.raises(ConfigError, match="pip install verifiers"):
        rubric(None)


def test_adapters_import_nothing_heavy() -> None:
    code = ("import sys, integrations.trl, integrations.verl, integrations.openrlhf, "
            "integrations.server, integrations.verifiers, integrations.areal, rewards_cli.serve\n"
            "heavy = ['fastapi', 'uvicorn', 'httpx', 'torch', 'transformers', 'trl', 'verl', "
            "'verifiers', 'areal', 'aiohttp']\n"
            "print(sorted(m for m in heavy if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=server_env(), check=True)
    assert out.stdout.strip() == "[]"


def test_warm_up_reaches_every_component(math_config: Path) -> None:
    class Warmable:
        name = "warmable"
        kind = "verifiable"

        def __init__(self) -> None:
            self.warmed = 0

        def warm_up(self) -> None:
            self.warmed += 1

        def score(self, samples: list[Sample]) -> list[Score]:
            return [Score(1.0) for _ in samples]

    from rewards.mixing import DomainRouter, Mixture, WeightedComponent

    shared, other = Warmable(), Warmable()
    other.name = "other"  # a mixture's components have distinct names
    router = DomainRouter({"a": Mixture([WeightedComponent(shared)]),
                           "b": Mixture([WeightedComponent(shared), WeightedComponent(other)])})
    assert warm_up(router) == 2  # the shared component once
    assert (shared.warmed, other.warmed) == (1, 1)
    # a built config: the math reward (renamed by build) is found and warmed
    assert warm_up(resolve_reward(math_config).reward) == 1


def test_a_null_gold_column_gives_way_to_the_next() -> None:
    """A dataset of rows with different gold columns has every column, null where a row has
    none: the reference is the first column that holds a value; a row whose gold columns are
    all null has a missing reference (found, None), not the wrong column's."""
    from integrations._common import REFERENCE_COLUMNS

    row = dict.fromkeys(REFERENCE_COLUMNS) | {"label": "9"}
    assert find_reference(row, None) == Gold(True, "9", "label")
    assert find_reference(dict.fromkeys(REFERENCE_COLUMNS), None) == Gold(True)
    assert _found(find_reference({"solution": None, "answer": "0"}, "solution")) == (True, None)


def test_row_sample_is_the_one_rule_for_a_rows_adapter(tmp_path: Path) -> None:
    from integration_helpers import write_config  # type: ignore[import-not-found]

    from integrations._common import row_sample
    from rewards.errors import InputError

    one = resolve_reward(write_config(tmp_path / "one.yaml",
                                      "domains:\n  math: {rewards: [{use: math}]}\n"))
    row = {"answer": "4", "domain": None, "tools": [{"name": "f"}], "id": 7, "step": 1}
    sample = row_sample(one, "2 + 2?", [{"role": "assistant", "content": "\\boxed{4}"}], row,
                        not_meta={"step"})
    assert (sample.prompt, sample.completion, sample.reference, sample.domain, sample.group) \
        == ("2 + 2?", "\\boxed{4}", "4", "math", "2 + 2?")
    assert dict(sample.meta) == {"tools": [{"name": "f"}], "id": 7}
    assert row_sample(one, "q", "c", {"kind": "x"}, domain_column="kind", group="g").domain \
        == "x"  # a domain the config lacks keeps its name (its abstention names it)
    with pytest.raises(InputError, match="no reference column 'gold'"):
        row_sample(one, "q", "c", row, reference_column="gold")
