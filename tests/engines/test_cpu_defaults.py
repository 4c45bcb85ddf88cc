"""vLLM on a CPU through the project: a KV cache size when none is set (vLLM's own default
asks for nearly all the machine's memory), a hint in the start-up error, and vLLM's logs on
stderr under the CLI (stdout holds the command's tables)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rewards.engines import _server, _vllm
from rewards.errors import EngineError

REPO = Path(__file__).parents[2]


@pytest.fixture
def on_cpu(monkeypatch):
    monkeypatch.setattr(_vllm, "_cpu_platform", lambda: True)
    monkeypatch.delenv("VLLM_CPU_KVCACHE_SPACE", raising=False)


def test_a_cpu_engine_gets_a_bounded_kv_cache_when_none_is_set(on_cpu):
    pytest.importorskip("psutil")
    size = _vllm.cpu_cache_options({})["kv_cache_memory_bytes"]
    assert 1 << 30 <= size <= _vllm.CPU_KV_CACHE_GIB << 30 and size % (1 << 30) == 0
    assert _vllm.cpu_cache_options({"kv_cache_memory_bytes": 123}) == {}
    assert _server._cpu_cache_args(["--kv-cache-memory-bytes", "5"], {}) == []
    assert _server._cpu_cache_args([], {"VLLM_CPU_KVCACHE_SPACE": "2"}) == []
    assert _server._cpu_cache_args([], {})[0] == "--kv-cache-memory-bytes"


def test_the_environment_or_another_platform_decides_alone(on_cpu, monkeypatch):
    monkeypatch.setenv("VLLM_CPU_KVCACHE_SPACE", "2")
    assert _vllm.cpu_cache_options({}) == {}
    monkeypatch.delenv("VLLM_CPU_KVCACHE_SPACE")
    monkeypatch.setattr(_vllm, "_cpu_platform", lambda: False)
    assert _vllm.cpu_cache_options({}) == {}


def test_a_failed_cpu_start_says_what_to_set(on_cpu, monkeypatch, tmp_path):
    vllm = pytest.importorskip("vllm")

    def refuse(*args, **kwargs):
        raise ValueError("Available memory on node 0 is less than requested memory for kv")

    monkeypatch.setattr(vllm, "LLM", refuse)
    (tmp_path / "config.json").write_text('{"architectures": ["LlamaForCausalLM"]}')
    with pytest.raises(EngineError) as info:
        _vllm.VLLMEngine(str(tmp_path))
    message = str(info.value)
    assert "VLLM_CPU_KVCACHE_SPACE" in message and "enforce_eager" in message


def test_vllm_logs_go_to_stderr_under_the_cli(tmp_path):
    pytest.importorskip("vllm")
    (tmp_path / "in.jsonl").write_text('{"domain": "math", "reference": "2", "completion": "2"}\n')
    script = ("from rewards_cli import main\n"
              "assert main(['check', 'in.jsonl']) == 0\n"  # any command: the CLI's setting
              "from vllm.logger import init_logger\n"
              "init_logger('vllm.test').warning('VLLM-LOG-LINE')\n")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("VLLM_LOGGING_STREAM", None)
    proc = subprocess.run([sys.executable, "-c", script], check=False, env=env, text=True,
                          capture_output=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "VLLM-LOG-LINE" in proc.stderr and "VLLM-LOG-LINE" not in proc.stdout
