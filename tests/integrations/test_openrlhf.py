"""Through OpenRLHF's own rollout executor (where openrlhf imports): `SingleTurnAgentExecutor`
with `--reward.remote_url` pointing at `rewards serve` and at our `reward_func` file. A
scripted generator stands in for vLLM; everything after generation (decoding the query with
special tokens, the request, reading rewards/scores/extra_logs) is OpenRLHF's code."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from integration_helpers import Server  # type: ignore[import-not-found]

CASES = [("What is 48 + 24?", "48 + 24 = 72. The answer is \\boxed{72}.", "72", 1.0),
         ("What is 6 * 7?", "6 * 7 = 43, so \\boxed{43}", "42", 0.0)]


def _executor_class() -> Any:
    try:
        from openrlhf.utils.agent import SingleTurnAgentExecutor
    except ImportError as exc:
        pytest.skip(f"OpenRLHF is not importable here ({exc}); pip install openrlhf")
    return SingleTurnAgentExecutor


class ScriptedEngine:
    """Stands in for OpenRLHF's vLLM engine: `generate` returns a fixed response + EOS."""

    def __init__(self, tokenizer: Any, response: str) -> None:
        end = tokenizer.convert_tokens_to_ids("<|im_end|>")
        self.token_ids = tokenizer.encode(response, add_special_tokens=False) + [end]
        self.text = response

    async def generate(self, prompt_token_ids: list[int], sampling_params: Any,
                       multi_modal_data: Any = None) -> Any:
        output = SimpleNamespace(token_ids=self.token_ids, text=self.text,
                                 finish_reason="stop", logprobs=None)
        return SimpleNamespace(outputs=[output])


def _rollouts(executor: Any, tiny_lm_dir: Path) -> list[dict[str, Any]]:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(tiny_lm_dir))

    async def one(question: str, response: str, label: str) -> dict[str, Any]:
        prompt = tokenizer.apply_chat_template([{"role": "user", "content": question}],
                                               tokenize=False, add_generation_prompt=True)
        params = SimpleNamespace(max_tokens=256, logprobs=None)
        return await executor.execute(prompt, label, params, 1024, tokenizer,
                                      ScriptedEngine(tokenizer, response))

    async def main() -> list[dict[str, Any]]:
        return await asyncio.gather(*(one(q, r, label) for q, r, label, _ in CASES))

    return asyncio.run(main())


def test_openrlhf_executor_against_rewards_serve(math_server: Server, tiny_lm_dir: Path) -> None:
    executor = _executor_class()(remote_rm_url=f"{math_server.url}/get_reward")
    outputs = _rollouts(executor, tiny_lm_dir)
    for output, (_, response, _, expected) in zip(outputs, CASES):
        assert output["reward"] == [expected], output  # None would mean the request failed
        assert output["scores"] == [expected]
        assert output["extra_logs"]["reward/math"] == [expected]
        # the brevity part saw exactly the response: prompt and <|im_end|> stripped
        assert output["extra_logs"]["reward/brevity"] == [
            pytest.approx(max(0.0, 1 - len(response) / 100))]


def test_openrlhf_executor_with_the_reward_func_file(math_config: Path, tiny_lm_dir: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import integrations.openrlhf as module

    monkeypatch.setenv("REWARDS_CONFIG", str(math_config))
    executor = _executor_class()(remote_rm_url=module.__file__)
    assert executor.reward_func is not None  # loaded from the .py path, as OpenRLHF does
    outputs = _rollouts(executor, tiny_lm_dir)
    assert [o["reward"].tolist() for o in outputs] == [[e] for *_, e in CASES]
    assert [o["extra_logs"]["reward/abstained"].tolist() for o in outputs] == [[0.0], [0.0]]


def test_a_decoded_multi_turn_response_is_split_at_its_turn_headers():
    from integrations.openrlhf import response_messages

    assert response_messages("just text<|im_end|>") == "just text<|im_end|>"
    chatml = ("a<|im_end|>\n<|im_start|>tool\nobs<|im_end|>\n<|im_start|>assistant\nb<|im_end|>")
    assert response_messages(chatml) == [{"role": "assistant", "content": "a"},
                                         {"role": "tool", "content": "obs"},
                                         {"role": "assistant", "content": "b"}]
    llama = ("a<|eot_id|><|start_header_id|>ipython<|end_header_id|>\n\nobs<|eot_id|>"
             "<|start_header_id|>assistant<|end_header_id|>\n\nb<|eot_id|>")
    assert [m["role"] for m in response_messages(llama)] == ["assistant", "ipython", "assistant"]
    # a header naming no known role is text, kept in the model's turn
    assert response_messages("a<|im_start|>bogus\nb") == "a<|im_start|>bogus\nb"
