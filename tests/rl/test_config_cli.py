"""Train configs (YAML -> frozen dataclass), the prompt stream, and `rewards train` end to end."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest

from rewards.errors import ConfigError, InputError
from rl import CurriculumConfig, LoopConfig, load_train_config
from rl._prompts import PromptStream, read_prompts
from rl.grpo import GRPOConfig
from rl.ppo import PPOConfig


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_config_from_yaml_with_overrides_and_relative_paths(tmp_path):
    cfg_file = write(tmp_path / "train.yaml", """
model: tiny
reward_config: reward.yaml
prompts: data/prompts.jsonl
output_dir: runs/x
steps: 5
loss_aggregation: seq-mean-token-mean
epsilon_high: 0.28
curriculum: {column: bucket, order: [easy, hard]}
""")
    (tmp_path / "tiny").mkdir()  # a model folder next to the config: relative to it
    cfg = load_train_config(GRPOConfig, cfg_file, ["learning_rate=3e-4", "beta=0.1"])
    assert cfg.model == str(tmp_path / "tiny")
    # a hub id is no path: it stays as written (checked, with the rest, when training starts)
    assert load_train_config(GRPOConfig, cfg_file, ["model=Qwen/Qwen2-0.5B"]).model == \
        "Qwen/Qwen2-0.5B"
    assert cfg.prompts == str(tmp_path / "data" / "prompts.jsonl")
    assert cfg.output_dir == str(tmp_path / "runs" / "x")
    assert (cfg.steps, cfg.learning_rate, cfg.beta, cfg.epsilon_high) == (5, 3e-4, 0.1, 0.28)
    assert cfg.curriculum == CurriculumConfig(column="bucket", order=("easy", "hard"))
    with pytest.raises(AttributeError):
        cfg.steps = 6  # type: ignore[misc]  # frozen


@pytest.mark.parametrize(("document", "message"), [
    ({"reward_config": "r", "prompts": "p"}, "GRPOConfig: missing required key 'model'"),
    ({"model": "m", "reward_config": "r", "prompts": "p", "stepz": 3},
     "GRPOConfig: unknown key 'stepz' \\(did you mean 'steps'\\?\\)"),
    ({"model": "m", "reward_config": "r", "prompts": "p", "steps": "ten"},
     "steps: expected an integer, not 'ten'"),
    ({"model": "m", "reward_config": "r", "prompts": "p", "loss_aggregation": "sum"},
     "loss_aggregation: must be one of 'token-mean', 'seq-mean-token-mean', 'constant-length'"),
    ({"model": "m", "reward_config": "r", "prompts": "p", "num_generations": 1},
     "num_generations: must be >= 2"),
    ({"model": "m", "reward_config": "r", "prompts": "p", "curriculum": {"step": 2}},
     "curriculum: unknown key 'step' \\(did you mean 'steps'\\?\\)"),
    ({"model": "m", "reward_config": "r", "prompts": "p", "curriculum": {"order": "easy"}},
     "curriculum.order: expected a list"),
    ({"model": "m", "reward_config": "r", "prompts": "p", "temperature": 0},
     "temperature: must be > 0"),
    ({"model": "m", "reward_config": "r", "prompts": "p", "scale_rewards": "yes"},
     "expected true or false"),
])
def test_config_errors_name_the_problem(document, message):
    with pytest.raises(ConfigError, match=message):
        load_train_config(GRPOConfig, document)


def test_overrides_go_through_the_one_set_parser(tmp_path):
    cfg_file = write(tmp_path / "train.yaml", """
model: m
reward_config: r.yaml
prompts: p.jsonl
curriculum: {order: [easy, hard]}
vllm_options: {enforce_eager: false}
""")
    cfg = load_train_config(GRPOConfig, cfg_file, ["curriculum.steps=4", "steps=7",
                                                   "vllm_options.enforce_eager=true",
                                                   "report_to=[tensorboard, wandb]"])
    assert (cfg.curriculum.steps, cfg.curriculum.order, cfg.steps) == (4, ("easy", "hard"), 7)
    assert dict(cfg.vllm_options) == {"enforce_eager": True}
    assert cfg.report_to == ("tensorboard", "wandb")
    with pytest.raises(ConfigError, match="--set 'steps': use KEY=VALUE"):
        load_train_config(GRPOConfig, cfg_file, ["steps"])
    with pytest.raises(ConfigError, match="unknown key 'stepz' \\(did you mean 'steps'\\?\\)"):
        load_train_config(GRPOConfig, cfg_file, ["stepz=3"])
    with pytest.raises(ConfigError, match="--set critic.lr: the config has no key 'critic'"):
        load_train_config(GRPOConfig, cfg_file, ["critic.lr=1"])


def test_prompts_may_be_a_dataset_folder(toy_task, tmp_path):
    from rl._config import prepare_output_dir

    folder = tmp_path / "prompts_ds"
    folder.mkdir()
    base = {"model": str(toy_task.model), "reward_config": str(toy_task.reward_config),
            "prompts": str(folder), "output_dir": str(tmp_path / "out")}
    with pytest.raises(InputError, match="not a file or a dataset folder") as err:
        prepare_output_dir(load_train_config(GRPOConfig, base))
    assert err.value.field == "prompts" and not (tmp_path / "out").exists()
    (folder / "state.json").write_text("{}")  # what datasets' save_to_disk writes
    assert prepare_output_dir(load_train_config(GRPOConfig, base)) == tmp_path / "out"


def test_ppo_config_fields():
    cfg = load_train_config(PPOConfig, {"model": "m", "reward_config": "r", "prompts": "p",
                                        "gamma": 1, "lam": 0.9, "critic_model": None})
    assert (cfg.gamma, cfg.lam, cfg.critic_model, cfg.kl_coef) == (1.0, 0.9, None, 0.05)
    with pytest.raises(ConfigError, match="unknown key 'beta'"):
        load_train_config(PPOConfig, {"model": "m", "reward_config": "r", "prompts": "p",
                                      "beta": 0.1})


def test_grpo_and_ppo_declare_their_shared_fields_once():
    shared = [f.name for f in fields(LoopConfig)]
    assert len(shared) == 38  # environment and max_episode_tokens: both loops run episodes;
    # reward_overlap: both loops collect through the one Rollouts
    own_defaults = {"output_dir", "prompts_per_step", "num_generations"}
    for cls in (GRPOConfig, PPOConfig):
        assert [f.name for f in fields(cls)][:len(shared)] == shared
        # a loop's own body repeats only the three shared fields whose default it sets
        assert set(cls.__annotations__) & set(shared) == own_defaults
    grpo, ppo = GRPOConfig("m", "r", "p"), PPOConfig("m", "r", "p")
    assert (grpo.output_dir, grpo.prompts_per_step, grpo.num_generations) == ("runs/grpo", 8, 8)
    assert (ppo.output_dir, ppo.prompts_per_step, ppo.num_generations) == ("runs/ppo", 16, 1)
    for name in set(shared) - own_defaults:
        assert getattr(grpo, name) == getattr(ppo, name), name


def test_read_prompts_errors_name_file_and_line(tmp_path):
    good = write(tmp_path / "p.jsonl", json.dumps({"prompt": "hi", "reference": "1"}) + "\n"
                 + json.dumps({"prompt": [{"role": "user", "content": "yo"}], "id": "q2"}) + "\n")
    rows = read_prompts(good)
    from rewards.io import derive_id  # the one id rule of every command

    assert [r.id for r in rows] == [derive_id({"prompt": "hi", "reference": "1"}), "q2"]
    bad = write(tmp_path / "bad.jsonl", json.dumps({"prompt": "ok"}) + "\n"
                + json.dumps({"question": "no prompt"}) + "\n")
    with pytest.raises(InputError) as err:
        read_prompts(bad)
    assert err.value.line == 2 and err.value.field == "prompt"


def test_prompt_stream_epochs_skip_and_curriculum():
    from rewards.io import prompt_record

    rows = [prompt_record({"id": f"p{i}", "prompt": str(i), "bucket": "easy" if i < 2 else "hard"})
            for i in range(4)]
    stream = PromptStream(rows, seed=3)
    first = [r.id for r in stream.take(8)]
    assert sorted(first[:4]) == sorted(first[4:]) == ["p0", "p1", "p2", "p3"]  # whole epochs
    assert first[:4] != first[4:] or first[:4] != ["p0", "p1", "p2", "p3"]
    resumed = PromptStream(rows, seed=3)
    resumed.skip(5)
    assert [r.id for r in resumed.take(3)] == first[5:8]
    assert resumed.drawn == 8
    easy_first = PromptStream(rows, seed=0, curriculum=CurriculumConfig(order=("easy", "hard")))
    assert [r.row["bucket"] for r in easy_first.take(4)] == ["easy", "easy", "hard", "hard"]
    hard_first = PromptStream(rows, seed=0, curriculum=CurriculumConfig(order=("hard", "easy")))
    assert [r.row["bucket"] for r in hard_first.take(4)] == ["hard", "hard", "easy", "easy"]


def test_rewards_train_cli_end_to_end(toy_task, tmp_path, capsys):
    pytest.importorskip("torch", reason="needs torch")
    from rewards_cli import main

    cfg = write(tmp_path / "train.yaml", f"""
model: {toy_task.model}
reward_config: {toy_task.reward_config}
prompts: {toy_task.prompts}
output_dir: run
steps: 2
prompts_per_step: 4
num_generations: 4
max_completion_tokens: 4
learning_rate: 0.001
""")
    assert main(["train", "grpo", "--config", str(cfg), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "trained grpo for 2 steps" in out and "reward/mean" in out
    # the run ends with what it learned, first steps against last, not one noisy step
    assert out.splitlines()[-1].startswith("learned: reward/mean ")
    assert "over the first step" in out and "the last step alone" in out
    rows = [json.loads(x) for x in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [1, 2]
    # --resume with more steps continues at step 3
    assert main(["train", "grpo", "--config", str(cfg), "--resume", "--set", "steps=3",
                 "--no-progress"]) == 0
    rows = [json.loads(x) for x in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [1, 2, 3]
    assert (tmp_path / "run" / "final" / "config.json").exists()
    # a bad config is a clean error, exit code 2
    assert main(["train", "ppo", "--config", str(cfg), "--set", "ppo_epochs=zero"]) == 2
    assert "ppo_epochs" in capsys.readouterr().err


def test_learned_summary_compares_the_first_and_last_steps():
    from rewards_cli.train import learned_summary

    rows = [{"step": i + 1, "reward/mean": v}
            for i, v in enumerate([0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.9, 0.8, 1.0, 0.9, 1.0, -0.025])]
    line = learned_summary(rows)
    # first 5: (0 + .1 + .2 + .3 + .4) / 5 = 0.2; last 5: (.8 + 1 + .9 + 1 - .025) / 5 = 0.735
    assert line == ("learned: reward/mean 0.2000 over the first 5 steps -> 0.7350 over the "
                    "last 5 steps (+0.5350); the last step alone: -0.0250")
    assert "first 2 steps" in learned_summary(rows[:4])  # k is at most half the steps
    assert learned_summary(rows[:1]) == "reward/mean: 0.0000 (step 1, the only step)"
    assert learned_summary([{"step": 1, "loss": 0.3}]) == ""


def test_a_file_the_setup_script_builds_says_to_run_it(tmp_path, capsys):
    """Run before its setup script, an example failed with a model hub error."""
    from rewards_cli import main

    (tmp_path / "setup.py").write_text("# builds toy/\n")
    (tmp_path / "prompts.jsonl").write_text('{"prompt": "q"}\n')
    (tmp_path / "reward.yaml").write_text("domains: {default: {rewards: [math]}}\n")
    cfg = write(tmp_path / "train.yaml", "model: ./toy/model\nreward_config: reward.yaml\n"
                                         "prompts: prompts.jsonl\noutput_dir: run\n")
    assert main(["train", "grpo", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert "model:" in err and "toy/model does not exist yet: run `python " in err
    assert "setup.py` first" in err and "huggingface" not in err.lower()
    assert not (tmp_path / "run").exists()


def test_messages_say_each_thing_once(monkeypatch):
    """'environment: environment: unknown key' and 'the training loops needs' (#40)."""
    import sys

    from rl._models import require_torch

    with pytest.raises(ConfigError) as caught:
        load_train_config(GRPOConfig, {"model": "m", "reward_config": "r.yaml", "prompts": "p",
                                       "environment": {"use": "number_guess", "max_turn": 3}})
    message = str(caught.value)
    assert "environment: unknown key 'max_turn'" in message
    assert "environment: environment:" not in message
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch raises ImportError
    with pytest.raises(Exception) as missing:
        require_torch()
    assert "training (the GRPO and PPO loops) needs 'torch'" in str(missing.value)
