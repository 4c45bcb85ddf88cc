"""Scoring while generating (`reward_overlap`): each chunk of groups is scored on a background
thread while the next chunk generates, so a slow reward leaves only its tail after the last
generation (`time/reward_wait`); a completion scores the same as in one call (the batch
normalization runs once over the step), abstentions and poison samples stay what they are."""

from __future__ import annotations

import json
import textwrap
import time
from dataclasses import replace

import pytest

torch = pytest.importorskip("torch", reason="the RL loops need torch: pip install -e '.[train]'")

from rewards.build import build_reward
from rewards.errors import ConfigError
from rewards.io import prompt_record
from rl._episodes import Rollouts
from rl._rollout import TransformersRollout, score_groups
from rl.grpo import GRPOConfig, train

SLOW = textwrap.dedent('''
    import time

    from rewards.types import Score

    class SlowLength:
        """Sleeps `delay` seconds per completion (a sandbox or a judge), then scores the
        completion's length; abstains on prompt p2 (an unreadable gold) and raises on p4 (a
        poison sample)."""

        name = "slow_length"

        def __init__(self, delay=0.0):
            self.delay = float(delay)

        def score(self, samples):
            time.sleep(self.delay * len(samples))
            if any(s.group == "p4" for s in samples):
                raise ValueError("this completion breaks the reward")
            return [Score(None, "bad_reference") if s.group == "p2"
                    else Score(float(len(s.completion))) for s in samples]
''')

GENERATE_SECONDS = 0.1
"""Seconds a slow generator adds per prompt (a generation that takes time, as on a GPU with
long completions): the time the overlapped scoring has to hide behind."""


class Recording:
    """Wraps a generator: records every call's outputs, optionally sleeps per prompt."""

    def __init__(self, inner, *, delay: float = 0.0) -> None:
        self.inner, self.delay, self.calls = inner, delay, []

    def generate(self, prompt_ids, **kwargs):
        time.sleep(self.delay * len(prompt_ids))
        out = self.inner.generate(prompt_ids, **kwargs)
        self.calls.append((len(prompt_ids), kwargs.get("seed"), out))
        return out


@pytest.fixture
def setup(toy_task, tmp_path, monkeypatch):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    (tmp_path / "slow_reward.py").write_text(SLOW)
    monkeypatch.syspath_prepend(str(tmp_path))
    tokenizer = AutoTokenizer.from_pretrained(toy_task.model)
    policy = AutoModelForCausalLM.from_pretrained(toy_task.model).eval()
    rows = [prompt_record({"id": f"p{i}", "prompt": f"What is {i} plus {i}?"}) for i in range(8)]
    return tokenizer, policy, rows


def reward_config(tmp_path, *, delay: float) -> str:
    """The slow reward under `zscore_by_domain`: scores normalized over the whole batch."""
    path = tmp_path / f"slow_{delay}.yaml"
    path.write_text("normalize: zscore_by_domain\ndomains:\n  default:\n    rewards:\n"
                    f"      - {{use: 'slow_reward:SlowLength', delay: {delay}}}\n")
    return str(path)


def loop_config(toy, tmp_path, **changes) -> GRPOConfig:
    base = GRPOConfig(model=str(toy.model), reward_config=str(toy.reward_config),
                      prompts=str(toy.prompts), output_dir=str(tmp_path / "run"),
                      prompts_per_step=8, num_generations=4, max_completion_tokens=4,
                      progress=False)
    return replace(base, **changes)


def collect(toy, tmp_path, setup, *, overlap: int, delay: float, generate_delay: float):
    tokenizer, policy, rows = setup
    cfg = loop_config(toy, tmp_path, reward_overlap=overlap)
    generator = Recording(TransformersRollout(policy, tokenizer), delay=generate_delay)
    rollouts = Rollouts(cfg, generator, tokenizer,
                        build_reward(reward_config(tmp_path, delay=delay)))
    torch.manual_seed(0)
    groups = rollouts.collect(rows, step=1)
    return groups, generator, rollouts.pop_reward_wait()


def test_overlap_hides_a_slow_reward_behind_generation(toy_task, tmp_path, setup):
    """8 groups of 4 at 0.025 s of reward per completion (0.1 s a group) and 0.1 s of
    generation per prompt: one call waits for all the scoring after generating (0.8 s, and
    the poison prompt's batch scored again one by one: 1.6 s); in 4 chunks of 2 groups the
    first three chunks' scoring (0.2 s each, 0.4 s for the poison's) runs while the next
    chunk generates (at least 0.2 s each), and only the last one's 0.2 s is left
    (measured: 1.61 s against 0.20 s)."""
    _, _, serial = collect(toy_task, tmp_path, setup, overlap=1, delay=0.025,
                           generate_delay=GENERATE_SECONDS)
    groups, generator, overlapped = collect(toy_task, tmp_path, setup, overlap=4, delay=0.025,
                                            generate_delay=GENERATE_SECONDS)
    assert [calls for calls, _, _ in generator.calls] == [2, 2, 2, 2]
    assert serial >= 0.8  # the whole scoring: 32 completions x 0.025 s
    assert overlapped < serial / 2, (overlapped, serial)
    assert len(groups) == 8 and all(len(g.completions) == 4 for g in groups)


def test_a_completion_scores_the_same_overlapped_or_not(toy_task, tmp_path, setup):
    """The overlapped step's completions, scored in one call by a fresh reward, get the same
    scores: the z-score over the batch runs once over the whole step, the abstentions (p2)
    and the poison prompt (p4, reason `error`) are kept, in order."""
    tokenizer, _, rows = setup
    groups, generator, _ = collect(toy_task, tmp_path, setup, overlap=3, delay=0.0,
                                   generate_delay=0.0)
    assert [calls for calls, _, _ in generator.calls] == [2, 3, 3]
    outputs = [group for _, _, out in generator.calls for group in out]
    ids = [g.prompt_ids for g in groups]
    fresh = build_reward(reward_config(tmp_path, delay=0.0))
    expected = score_groups(fresh, tokenizer, rows, ids, outputs)
    assert [g.scores for g in groups] == [g.scores for g in expected]
    assert [g.rewards for g in groups] == [g.rewards for g in expected]
    assert [g.texts for g in groups] == [g.texts for g in expected]
    by_id = {g.row["id"]: g for g in groups}
    assert all(s.value is None and s.reason == "bad_reference" for s in by_id["p2"].scores)
    assert all(s.value is None and s.reason == "error" for s in by_id["p4"].scores)
    scored = [r for g in groups for r in g.rewards if r is not None]
    assert len(scored) == 24 and abs(sum(scored)) < 1e-6  # z-scored over the whole step


def test_chunks_keep_the_vllm_seed_of_every_request(toy_task, tmp_path, setup):
    """vLLM seeds prompt i of a call with seed + i * n: a chunk starting at prompt k gets
    seed + k * n, so every request keeps the seed it has in one call."""
    _, generator, _ = collect(toy_task, tmp_path, setup, overlap=3, delay=0.0,
                              generate_delay=0.0)
    base = 0 * 1_000_003 + 1  # cfg.seed * 1_000_003 + step
    assert [seed for _, seed, _ in generator.calls] == [base, base + 2 * 4, base + 5 * 4]


def test_broken_infrastructure_in_a_chunk_stops_the_step(toy_task, tmp_path, setup):
    tokenizer, policy, rows = setup
    from rewards.errors import SandboxError

    class Broken:
        name = "broken"

        def score(self, samples):
            raise SandboxError("the sandbox cannot start")

    cfg = loop_config(toy_task, tmp_path, reward_overlap=2)
    rollouts = Rollouts(cfg, TransformersRollout(policy, tokenizer), tokenizer, Broken())
    with pytest.raises(SandboxError, match="cannot start"):
        rollouts.collect(rows, step=1)


def test_reward_overlap_must_be_positive(toy_task, tmp_path):
    with pytest.raises(ConfigError, match="reward_overlap"):
        loop_config(toy_task, tmp_path, reward_overlap=0)


def test_grpo_logs_the_reward_wait_with_and_without_overlap(toy_task, tmp_path):
    for overlap in (1, 2):
        out = tmp_path / f"overlap{overlap}"
        train(loop_config(toy_task, tmp_path, output_dir=str(out), steps=1,
                          reward_overlap=overlap))
        [row] = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
        assert row["time/reward_wait"] >= 0
        assert 0 <= row["time/reward_wait_share"] <= 1
        assert row["time/reward_wait"] <= row["perf/step_seconds"]
