"""One inference layer for the reward models, the prompt filter's rollouts and the training loop.

Three backends behind the `Engine` protocol:

- `"vllm"`: the vLLM offline engine (`vllm.LLM`), in this process;
- `"vllm-server"`: a vLLM OpenAI-compatible server over HTTP, one the user started (give its URL)
  or one started here on 127.0.0.1 (give a model folder);
- `"transformers"`: exact float32 log-probs with transformers, on CPU or a GPU.

    engine = load_engine("path/to/model", backend="transformers")
    engine.generate(["1 + 1 ="], n=4, max_tokens=32, temperature=1.0, logprobs=True)
    engine.next_token_logprobs(["Which is better? Answer:"], candidates=[" A", " B"])

`backend="auto"` picks "vllm-server" for an http(s) URL, "vllm" when vLLM is installed and a CUDA
GPU is present, and "transformers" otherwise (on a CPU, starting vLLM costs far more than a small
model's whole workload).

Text from data or a model stays text on every backend: chat message contents and the fields of
a `TemplatePrompt` never become special tokens (`text_ids`, `chat_ids`, `template_ids`, the one
place that encodes such text; the server backend does it with the model's tokenizer here and
sends token ids).

Every backend checks its model with `resolve_model` first: a local path that is not a model
folder, or a hub id that is neither cached nor reachable, is a `ConfigError` before any load.
"""

from rewards.engines._base import (
    Engine,
    Generation,
    Prompt,
    candidate_token_ids,
    hf_tokenize,
    label_probability,
    label_variants,
)
from rewards.engines._load import Backend, load_engine, resolve_backend, shared_engine
from rewards.engines._model_path import is_local_model_path, resolve_model
from rewards.engines._server import VLLMServer, VLLMServerEngine
from rewards.engines._text import TemplatePrompt, chat_ids, control_texts, template_ids, text_ids
from rewards.engines._transformers import TransformersEngine
from rewards.engines._vllm import VLLMEngine

__all__ = [
    "Backend",
    "Engine",
    "Generation",
    "Prompt",
    "TemplatePrompt",
    "TransformersEngine",
    "VLLMEngine",
    "VLLMServer",
    "VLLMServerEngine",
    "candidate_token_ids",
    "chat_ids",
    "control_texts",
    "hf_tokenize",
    "is_local_model_path",
    "label_probability",
    "label_variants",
    "load_engine",
    "resolve_backend",
    "resolve_model",
    "shared_engine",
    "template_ids",
    "text_ids",
]
