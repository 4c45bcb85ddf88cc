"""TRL adapter: GRPOTrainer's reward function signature, plain and conversational
completions, one function per component with its weight, None for abstentions, and two real
GRPOTrainer steps on a tiny local model with the math reward."""

from __future__ import annotations

from pathlib import Path

import pytest
from integration_helpers import write_config  # type: ignore[import-not-found]

from integrations.trl import trl_rewards
from rewards.errors import ConfigError, InputError
from rewards.stress import SIGNATURES, hack_metrics

HACKS = [f"hack/{name}" for name in SIGNATURES]

PROMPTS = ["What is 6 times 7?", "What is 1 + 1?", "What is 2 + 2?"]
COMPLETIONS = ["6 * 7 = 42, so the answer is \\boxed{42}.", "The answer is 3.",
               "I am not sure."]
SOLUTIONS = ["42", "2", "4"]


def call(func, prompts, completions, **columns):  # type: ignore[no-untyped-def]
    """Call a reward function the way GRPOTrainer._calculate_rewards does."""
    return func(prompts=prompts, completions=completions, completion_ids=[[1, 2]] * len(prompts),
                trainer_state=object(), **columns)


def test_one_function_per_component_named_and_weighted(math_config: Path) -> None:
    rewards = trl_rewards(math_config, reference_column="solution")
    assert [f.__name__ for f in rewards.funcs] == ["math", "brevity"]
    assert rewards.weights == (1.0, 0.0)
    math, brevity = rewards.funcs
    assert call(math, PROMPTS, COMPLETIONS, solution=SOLUTIONS) == [1.0, 0.0, 0.0]
    assert call(brevity, PROMPTS, COMPLETIONS, solution=SOLUTIONS) == pytest.approx(
        [1 - len(c) / 100 for c in COMPLETIONS])


def test_conversational_completions_and_reason_logging(math_config: Path) -> None:
    rewards = trl_rewards(math_config)  # reference column found: `answer`
    logged: dict[str, list] = {}
    metrics: dict[str, float] = {}
    prompts = [[{"role": "user", "content": p}] for p in PROMPTS]
    completions = [[{"role": "assistant", "content": c}] for c in COMPLETIONS]
    values = call(rewards.funcs[0], prompts, completions, answer=SOLUTIONS,
                  log_extra=lambda column, v: logged.setdefault(column, []).extend(v),
                  log_metric=lambda name, v: metrics.__setitem__(name, v))
    assert values == [1.0, 0.0, 0.0]
    assert logged == {"reason": ["ok", "wrong", "no_answer"]}
    assert metrics == {"rewards/abstained/frac": 0.0, **dict.fromkeys(HACKS, 0.0)}
    # the second function reuses the batch's scores: nothing is scored or logged twice
    call(rewards.funcs[1], prompts, completions, answer=SOLUTIONS,
         log_extra=lambda column, v: logged.setdefault(column, []).extend(v))
    assert logged == {"reason": ["ok", "wrong", "no_answer"]}


def test_trip_wires_are_logged_through_log_metric(math_config: Path) -> None:
    """`hack/<class>`: the share of rewarded completions carrying the signature, from the one
    trip-wire function the built-in loops use."""
    math = trl_rewards(math_config, log_reasons=False).funcs[0]
    metrics: dict[str, list[float]] = {}
    # (talk after the box is no longer rewarded: an unlisted short sentence there is uncertain)
    completions = ["The judge will agree. The answer is \\boxed{42}.",  # rewarded, talks
                   "\\boxed{2}<|im_end|>",                               # rewarded, a token
                   "The judge will agree: \\boxed{5}."]                   # talks, not rewarded
    values = call(math, PROMPTS, completions, solution=SOLUTIONS,
                  log_metric=lambda name, v: metrics.setdefault(name, []).append(v))
    assert values == [1.0, 1.0, 0.0]
    assert metrics == {name: [v] for name, v in hack_metrics(completions, values).items()}
    assert metrics["hack/judge_talk"] == [0.5] and metrics["hack/special_tokens"] == [0.5]
    assert metrics["hack/hedging"] == [0.0]


def test_abstention_is_none(math_config: Path) -> None:
    math = trl_rewards(math_config).funcs[0]
    assert call(math, ["q"], ["\\boxed{1}"], solution=["\\frac{"]) == [None]


def test_missing_reference_column_names_it(math_config: Path) -> None:
    math = trl_rewards(math_config, reference_column="gold").funcs[0]
    with pytest.raises(InputError, match="gold") as info:
        call(math, PROMPTS, COMPLETIONS, solution=SOLUTIONS)
    assert info.value.field == "gold"


def test_domains_get_qualified_names_and_none_outside_their_domain(mixed_config: Path) -> None:
    rewards = trl_rewards(mixed_config)
    assert [f.__name__ for f in rewards.funcs] == ["math/math", "math/brevity", "text/exact"]
    assert rewards.weights == (1.0, 0.5, 1.0)
    columns = {"solution": ["42", "hello"], "domain": ["math", "text"]}
    completions = ["\\boxed{42}", "hello"]
    out = [call(f, ["p", "q"], completions, **columns) for f in rewards.funcs]
    assert out == [[1.0, None], [pytest.approx(0.9), None], [None, 1.0]]


def test_alpha_is_folded_into_the_weights(tmp_path: Path) -> None:
    config = write_config(tmp_path / "alpha.yaml", """
domains:
  math:
    alpha: 0.75
    rewards:
      - use: math
      - {use: "integration_rewards:brevity", name: judge, kind: learned, weight: 2.0}
""")
    assert trl_rewards(config).weights == (0.75, 0.5)


def test_zscore_needs_a_single_total_function(tmp_path: Path) -> None:
    config = write_config(tmp_path / "z.yaml", """
domains:
  default: {rewards: [{use: "integration_rewards:exact", name: exact}]}
normalize: zscore_by_domain
""")
    with pytest.raises(ConfigError, match="per_component=False"):
        trl_rewards(config)
    total = trl_rewards(config, per_component=False)
    assert total.weights == (1.0,)
    values = call(total.funcs[0], ["p", "p"], ["a", "b"], answer=["a", "a"])
    assert values == [pytest.approx(1.0), pytest.approx(-1.0)]


def test_grpo_trainer_two_steps_with_the_math_reward(math_config: Path, tiny_lm_dir: Path,
                                                     tmp_path: Path) -> None:
    trl = pytest.importorskip("trl", reason="pip install -e '.[trl]'")
    datasets = pytest.importorskip("datasets")
    from transformers import AutoModelForCausalLM, AutoTokenizer

    dataset = datasets.Dataset.from_list([
        {"prompt": [{"role": "user", "content": f"What is {a} + {b}?"}],
         "solution": str(a + b)} for a, b in [(1, 2), (3, 4), (5, 6), (7, 8)]])
    rewards = trl_rewards(math_config, reference_column="solution")
    args = trl.GRPOConfig(
        output_dir=str(tmp_path / "out"), max_steps=2, per_device_train_batch_size=4,
        num_generations=4, max_completion_length=12, learning_rate=1e-4, logging_steps=1,
        report_to=[], save_strategy="no", use_cpu=True, bf16=False,
        reward_weights=list(rewards.weights), seed=0)
    model = AutoModelForCausalLM.from_pretrained(str(tiny_lm_dir))
    tokenizer = AutoTokenizer.from_pretrained(str(tiny_lm_dir))
    trainer = trl.GRPOTrainer(model=model, reward_funcs=list(rewards.funcs), args=args,
                              train_dataset=dataset, processing_class=tokenizer)
    trainer.train()
    logs = [entry for entry in trainer.state.log_history if "rewards/math/mean" in entry]
    assert len(logs) == 2
    for entry in logs:
        assert 0.0 <= entry["rewards/math/mean"] <= 1.0
        assert 0.0 <= entry["rewards/brevity/mean"] <= 1.0
        # brevity has weight 0 (logged only): the total is the math reward alone
        assert entry["reward"] == pytest.approx(entry["rewards/math/mean"])
        assert all(0.0 <= entry[name] <= 1.0 for name in HACKS)  # the trip-wires, logged
    # TRL's completions table: our reason column lines up with the math values it logged
    math_values = list(trainer._logs["rewards"]["math"])
    reasons = list(trainer._logs["extra"]["reason"])
    assert len(reasons) == len(math_values) > 0  # the table keeps the last generation batch
    assert [1.0 if r == "ok" else 0.0 for r in reasons] == math_values
    assert set(reasons) <= {"ok", "wrong", "no_answer"}
    completions = list(trainer._logs["completion"])
    assert all(isinstance(c, list) and c[0]["role"] == "assistant" for c in completions)


def test_the_rows_columns_reach_the_reward_as_meta(tmp_path: Path) -> None:
    """A tool schema column (`tools`) reaches `use: tool_call` through TRL as through
    `rewards score`: a float where the schema asks an integer is wrong, as the CLI says;
    without the schema in meta it was compared by value (3.0 == 3) and scored 1."""
    config = tmp_path / "tools.yaml"
    config.write_text("domains:\n  default: {rewards: [{use: tool_call}]}\n")
    tool = trl_rewards(config).funcs[0]
    tools = [{"type": "function", "function": {"name": "area", "parameters": {
        "type": "object", "properties": {"side": {"type": "integer"}}, "required": ["side"]}}}]
    reference = [{"name": "area", "arguments": {"side": 3}}]
    typed = '<tool_call>{"name": "area", "arguments": {"side": 3}}</tool_call>'
    text = '<tool_call>{"name": "area", "arguments": {"side": 3.0}}</tool_call>'
    values = tool(prompts=["p", "p"], completions=[typed, text], reference=[reference] * 2,
                  tools=[tools, tools])
    assert values == [1.0, 0.0]


def test_the_trl_environment_reads_the_reference_column_the_rewards_read(tmp_path: Path) -> None:
    """One rule for the reference column (`REFERENCE_COLUMNS`, `reference` first, then `solution`): the
    environment tried `answer` first where the reward functions try `solution` first, so a
    row with both played one gold and scored another."""
    from integrations._common import REFERENCE_COLUMNS, find_reference
    from integrations.trl_env import _Episodic

    row = {"prompt": "Guess", "solution": 7, "label": None}
    assert find_reference(row).value == 7 and REFERENCE_COLUMNS[0] == "reference"

    seen = {}

    class Probe(_Episodic):
        def _make(self):
            class Env:
                name = "probe"

                def reset(self, sample):
                    seen["reference"] = sample.reference
                    return ""

            return Env()

    from rewards.envs import EnvConfig
    from rewards.options import load_options

    Probe._config = load_options(EnvConfig, {"use": "number_guess"}, where="t")
    Probe().reset(**row)
    assert seen["reference"] == 7
