"""Scoring one bad sample never fails a GRPO or PPO step: the loops score through the one
scoring path (`rewards.score_batch`), so a reward that raises on one completion makes that
completion an abstention (left out of the loss) and the others keep their scores."""

import json
import textwrap

import pytest

torch = pytest.importorskip("torch", reason="the RL loops need torch: pip install -e '.[train]'")

from rewards.io import prompt_record
from rewards.types import Score
from rl._rollout import score_groups

POISON = textwrap.dedent('''
    from rewards.types import Score

    class PoisonFirst:
        """Raises on the first completion it is given in a batch, in any call after."""

        name = "poison"

        def __init__(self, target="a"):
            self.target = target
            self.poison = None

        def score(self, samples):
            if self.poison is None and len(samples) > 1:
                self.poison = samples[0]
            if any(s is self.poison for s in samples):
                raise ValueError("this completion breaks the reward")
            return [Score(float(self.target in s.completion)) for s in samples]
''')


class Tokens:
    """A tokenizer whose tokens are characters."""

    def batch_decode(self, tokens, skip_special_tokens=True):
        return ["".join(map(chr, t)) for t in tokens]


def _poison(tmp_path, monkeypatch):
    (tmp_path / "poison_reward.py").write_text(POISON)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    return importlib.import_module("poison_reward").PoisonFirst()


def test_score_groups_turns_a_raising_sample_into_an_abstention(tmp_path, monkeypatch):
    reward = _poison(tmp_path, monkeypatch)
    rows = [{"id": "p1", "prompt": "q1", "reference": "a"},
            {"id": "p2", "prompt": "q2", "domain": "math"}]
    outputs = [[([ord("a")], True), ([ord("b")], True)], [([ord("a"), ord("a")], True)]]
    groups = score_groups(reward, Tokens(), [prompt_record(r) for r in rows], [[1], [2]],
                          outputs)
    assert [g.rewards for g in groups] == [[None, 0.0], [1.0]]
    assert groups[0].scores[0] == Score(None, "error")


def test_rows_become_samples_by_the_one_rule(tmp_path, monkeypatch):
    seen = []

    class Keep:
        name = "keep"

        def score(self, samples):
            seen.extend(samples)
            return [Score(0.0) for _ in samples]

    rows = [{"id": "p1", "prompt": "q1", "reference": "a", "bucket": "easy"}]
    score_groups(Keep(), Tokens(), [prompt_record(r) for r in rows], [[1]],
                 [[([ord("x")], True)]])
    [sample] = seen
    assert (sample.prompt, sample.completion, sample.reference, sample.domain, sample.group) \
        == ("q1", "x", "a", "default", "p1")
    assert dict(sample.meta) == {"bucket": "easy", "id": "p1"}


@pytest.mark.parametrize("loop", ["grpo", "ppo"])
def test_a_step_with_a_raising_sample_completes(toy_task, tmp_path, monkeypatch, loop):
    (tmp_path / "poison_reward.py").write_text(POISON)
    monkeypatch.syspath_prepend(str(tmp_path))
    cfg_path = tmp_path / "reward.yaml"
    cfg_path.write_text("domains:\n  default:\n    rewards:\n"
                        f"      - {{use: 'poison_reward:PoisonFirst', target: "
                        f"{json.dumps(toy_task.target)}}}\n")
    if loop == "grpo":
        from rl.grpo import GRPOConfig as Config
        from rl.grpo import train
    else:
        from rl.ppo import PPOConfig as Config
        from rl.ppo import train
    base = Config(model=str(toy_task.model), reward_config=str(cfg_path),
                  prompts=str(toy_task.prompts), output_dir=str(tmp_path / "out"), steps=1,
                  prompts_per_step=2, num_generations=4, max_completion_tokens=4,
                  progress=False)
    train(base)
    rows = [json.loads(line) for line in
            (tmp_path / "out" / "metrics.jsonl").read_text().splitlines()]
    assert len(rows) == 1
