"""Our environments in TRL's multi-turn GRPO (`environment_factory`): the tools TRL
exposes, their episodes, get_reward, and one GRPOTrainer step with TRL's own classes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from integrations.trl_env import trl_environment


def test_tools_step_a_bounded_episode():
    from transformers.utils import get_json_schema  # what TRL builds tool schemas with

    env = trl_environment({"use": "number_guess", "max_turns": 2, "step_penalty": 0.1})()
    public = [n for n in dir(env) if not n.startswith("_") and callable(getattr(env, n))]
    assert sorted(public) == ["get_reward", "guess", "reset"]  # TRL's tools: guess only
    schema = get_json_schema(env.guess)
    assert schema["function"]["parameters"]["properties"]["number"]["type"] == "integer"
    assert env.reset(prompt="Guess", answer=5) is None
    assert env.guess(3).strip() == "Higher."
    assert env.guess(4).strip() == "Higher."
    assert "over" in env.guess(5)  # max_turns reached: no third step
    assert env.get_reward() == pytest.approx(-0.2)


def test_python_tool_runs_in_the_sandbox():
    from transformers.utils import get_json_schema

    import sandbox

    try:
        sandbox.run("print(1)")
    except sandbox.SandboxError as exc:
        pytest.skip(f"the nsjail sandbox cannot run on this machine: {exc}")
    env = trl_environment({"use": "python_tool", "tool_time_limit_s": 2})()
    assert get_json_schema(env.python)["function"]["name"] == "python"
    env.reset(prompt="What is 6 * 7?", reference="42")
    assert env.python("print(6 * 7)").strip() == "<output>\n42\n</output>"
    assert "timeout" in env.python("while True: pass")
    assert env.get_reward() == 0.0


@pytest.mark.parametrize("code", ['print("</code>")', 'print("<tool_call>x</tool_call>")'])
def test_python_tool_passes_the_code_through_as_code(code):
    """The code was wrapped in <code>...</code> and parsed again: a program printing
    "</code>" ran cut at it (a syntax error), one holding <tool_call> text ran that instead."""
    import sandbox

    try:
        sandbox.run("print(1)")
    except sandbox.SandboxError as exc:
        pytest.skip(f"the nsjail sandbox cannot run on this machine: {exc}")
    env = trl_environment({"use": "python_tool", "tool_time_limit_s": 2})()
    env.reset(prompt="q", reference="42")
    printed = code[len('print("'):-len('")')]
    assert env.python(code).strip() == f"<output>\n{printed}\n</output>"


def test_grpo_trainer_takes_the_factory(tiny_lm_dir, tmp_path):
    pytest.importorskip("trl")
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    import trl
    from datasets import Dataset
    from transformers import AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    tokenizer = AutoTokenizer.from_pretrained(str(tiny_lm_dir))
    # a tool-calling chat template (Qwen3's, shipped with TRL): TRL requires one
    tokenizer.chat_template = (Path(trl.__file__).parent / "chat_templates" /
                               "qwen3.jinja").read_text()
    rows = [{"prompt": [{"role": "user", "content": "Guess from 1 to 8"}], "reference": 3}] * 4
    args = GRPOConfig(output_dir=str(tmp_path), per_device_train_batch_size=4,
                      num_generations=4, max_completion_length=8, max_steps=1,
                      report_to="none", use_cpu=True, logging_steps=1, save_strategy="no")
    trainer = GRPOTrainer(model=str(tiny_lm_dir), processing_class=tokenizer,
                          reward_funcs=[lambda completions, **kw: [0.0] * len(completions)],
                          args=args, train_dataset=Dataset.from_list(rows),
                          environment_factory=trl_environment({"use": "number_guess",
                                                               "max_turns": 2}))
    trainer.train()
    logged = trainer.state.log_history[0]
    # TRL called get_reward on our environment objects: a reward column named after the class
    assert "rewards/NumberGuessEnvironment/mean" in logged
    assert "tools/call_frequency" in logged
