"""Test helpers, for this project's tests, examples and benchmarks and for a user's own:
tiny random-weight models built locally, in Hugging Face format, and the toy task the
training loops are tested on.

Nothing can be downloaded from a model hub in tests, examples or benchmarks, so these helpers
build a byte-level BPE tokenizer (trained with `tokenizers` on a small built-in corpus, with a
ChatML chat template) and tiny Llama models on top of it. The saved folders load with
`transformers.AutoModelForCausalLM` / `AutoModelForSequenceClassification` and with vLLM
(`vllm.LLM(dir)` and `vllm.LLM(dir, runner="pooling")`).

The letters "A" and "B" and their leading-space forms " A" and " B" are single tokens, so a
GenRM judge can read P("A") and P("B") from one next-token distribution.

The toy task: the reward is 1 when the completion contains a target string, else 0
(`TargetReward`). `pick_target` chooses a target the untrained model emits rarely (about 10% of
completions), so a run that ends near 1.0 has learned something.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from rewards.errors import ConfigError, EngineError
from rewards.types import Sample, Score

__all__ = [
    "CHAT_TEMPLATE",
    "SPECIAL_TOKENS",
    "TargetReward",
    "build_tiny_causal_lm",
    "build_tiny_reward_model",
    "build_tiny_tokenizer",
    "pick_target",
]

SPECIAL_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|pad|>")
"""End of text (also EOS), ChatML turn markers, padding."""

CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)
"""ChatML, the same layout as Qwen's, without a default system prompt."""

# A small corpus in the style of the data these models stand in for: math and code questions,
# judge prompts with A/B verdicts, chat turns. Repeated with variations so BPE learns merges.
_SENTENCES = (
    "What is the sum of {a} and {b}? The answer is {c}.",
    "Compute {a} times {b}. So the answer is \\boxed{{{c}}}.",
    "def add(a, b):\n    return a + b\n\nassert add({a}, {b}) == {c}",
    "Which response is better? Answer A or B. The better response is {ab}.",
    "Response A: the answer is {a}. Response B: the answer is {b}. Verdict: {ab}",
    "[[{ab}]] Response {ab} is more helpful, correct and concise than the other one.",
    "The user asked a question and the assistant gave a helpful answer.",
    "Let x = {a}. Then x + {b} = {c}, so x is {a}. Therefore the final answer is {c}.",
    "for i in range({a}):\n    print(i * {b})",
    "Option A is wrong because {a} is not {b}; option B is right. I choose B.",
    "Option B is wrong because {b} is not {a}; option A is right. I choose A.",
    "Please reason step by step, and put your final answer within \\boxed{{}}.",
    "The quick brown fox jumps over the lazy dog {a} times.",
    "Hello! How can I help you today? Sure, here is a short poem about {a} cats.",
)


def _corpus(seed: int = 0, lines: int = 3000) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(lines):
        a, b = rng.randint(0, 99), rng.randint(0, 99)
        text = rng.choice(_SENTENCES).format(a=a, b=b, c=a + b, ab=rng.choice("AB"))
        out.append(text)
    out += [" A", " B", "A", "B", "(A)", "(B)"] * 200
    return out


def build_tiny_tokenizer(out_dir: str | Path, *, vocab_size: int = 512) -> Path:
    """Train a byte-level BPE tokenizer on the built-in corpus and save it (with its chat
    template and special tokens) as a Hugging Face tokenizer folder. Returns `out_dir`."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.post_processor = processors.ByteLevel(trim_offsets=False)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=list(SPECIAL_TOKENS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(_corpus(), trainer=trainer)
    for text in ("A", "B", " A", " B"):
        ids = tok.encode(text).ids
        if len(ids) != 1:  # the corpus guarantees this; checked so a corpus edit cannot break it
            raise EngineError(f"tiny tokenizer: {text!r} is not one token ({ids})")
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, eos_token="<|endoftext|>", pad_token="<|pad|>",
        unk_token=None, bos_token=None, additional_special_tokens=["<|im_start|>", "<|im_end|>"],
        model_max_length=1024, clean_up_tokenization_spaces=False)
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(str(out))
    return out


def _llama_config(tokenizer: Any, *, architecture: str, layers: int, hidden: int,
                  init_std: float, **extra: Any) -> Any:
    from transformers import LlamaConfig

    return LlamaConfig(
        vocab_size=len(tokenizer), hidden_size=hidden, intermediate_size=2 * hidden,
        num_hidden_layers=layers, num_attention_heads=2, num_key_value_heads=1,
        head_dim=hidden // 2, max_position_embeddings=1024, rms_norm_eps=1e-6,
        initializer_range=init_std, tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None, architectures=[architecture], dtype="float32", **extra)


def build_tiny_causal_lm(out_dir: str | Path, *, seed: int = 0, layers: int = 2,
                         hidden: int = 64, init_std: float = 0.3) -> Path:
    """A random-weight Llama causal LM (with the tiny tokenizer) saved to `out_dir`.

    `init_std` is larger than the usual 0.02 so the next-token distribution is far from
    uniform: log-prob comparisons between backends then test something.
    """
    import torch
    from transformers import AutoTokenizer, LlamaForCausalLM

    out = build_tiny_tokenizer(out_dir)
    tokenizer = AutoTokenizer.from_pretrained(str(out))
    config = _llama_config(tokenizer, architecture="LlamaForCausalLM", layers=layers,
                           hidden=hidden, init_std=init_std)
    torch.manual_seed(seed)
    model = LlamaForCausalLM(config).float()
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.save_pretrained(str(out))
    _write_marker(out, kind="causal_lm", seed=seed)
    return out


def build_tiny_reward_model(out_dir: str | Path, *, seed: int = 0, layers: int = 2,
                            hidden: int = 64, init_std: float = 0.3) -> Path:
    """A random-weight Llama sequence classifier with one output (a scalar reward), with the
    tiny tokenizer, saved to `out_dir`. It pools the last non-padding token."""
    import torch
    from transformers import AutoTokenizer, LlamaForSequenceClassification

    out = build_tiny_tokenizer(out_dir)
    tokenizer = AutoTokenizer.from_pretrained(str(out))
    config = _llama_config(tokenizer, architecture="LlamaForSequenceClassification",
                           layers=layers, hidden=hidden, init_std=init_std, num_labels=1)
    torch.manual_seed(seed)
    model = LlamaForSequenceClassification(config).float()
    model.save_pretrained(str(out))
    _write_marker(out, kind="reward_model", seed=seed)
    return out


def _write_marker(out: Path, **info: Any) -> None:
    """A small note of how the folder was made (not read by any loader)."""
    (out / "tiny_model.json").write_text(json.dumps(info) + "\n")


# --- the toy task ---------------------------------------------------------------------------


class TargetReward:
    """1.0 when the completion contains (or ends with) `target`, else 0.0 (reason `wrong`)."""

    kind = "verifiable"

    def __init__(self, target: str, *, mode: Literal["contains", "endswith"] = "contains",
                 name: str = "target") -> None:
        if not target:
            raise ConfigError("TargetReward: target must be a non-empty string")
        if mode not in ("contains", "endswith"):
            raise ConfigError(f"TargetReward: mode must be 'contains' or 'endswith', not {mode!r}")
        self.target = target
        self.mode = mode
        self.name = name

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        hit = (lambda text: self.target in text) if self.mode == "contains" \
            else (lambda text: text.rstrip().endswith(self.target))
        return [Score(1.0, "ok") if hit(s.completion) else Score(0.0, "wrong") for s in samples]


def pick_target(model_dir: str | Path, prompts: Sequence[str], *, samples_per_prompt: int = 16,
                max_tokens: int = 4, rate: float = 0.1, seed: int = 0) -> tuple[str, float]:
    """Sample from the untrained model and return (target, its hit rate): the decoded token
    (2+ visible characters) whose `contains` rate over the completions is closest to `rate`."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer: Any = AutoTokenizer.from_pretrained(str(model_dir))  # decode(ids) -> str
    model = AutoModelForCausalLM.from_pretrained(str(model_dir)).eval()
    torch.manual_seed(seed)
    completions: list[list[int]] = []
    with torch.inference_mode():
        for prompt in prompts:
            ids = torch.tensor([tokenizer(prompt)["input_ids"]])
            out = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=True,
                                 temperature=1.0, top_p=1.0, top_k=0,
                                 max_new_tokens=max_tokens,
                                 num_return_sequences=samples_per_prompt,
                                 pad_token_id=tokenizer.pad_token_id)
            completions += [[t for t in row.tolist()[ids.shape[1]:]
                             if t != tokenizer.pad_token_id] for row in out]
    texts = [tokenizer.decode(c, skip_special_tokens=True) for c in completions]
    candidates = {tokenizer.decode([t]) for c in completions for t in c}
    candidates = {c for c in candidates if len(c.strip()) >= 2 and c.isprintable()}
    rates = Counter({c: sum(c in text for text in texts) / len(texts) for c in candidates})
    if not rates:
        raise EngineError("the model produced no usable target token")
    target = min(rates, key=lambda c: (abs(rates[c] - rate), c))
    return target, rates[target]
