"""`python_tool` as a verifiers toolset (verifiers 0.4's `v1` API, where a toolset is an
MCP server whose `@vf.tool` methods the model calls).

```python
from integrations.verifiers_env import PythonToolset, PythonToolsetConfig
toolset = PythonToolset(PythonToolsetConfig(tool_time_limit_s=5))
```

Its one tool, `python(code)`, runs the program in a fresh sandbox jail with `python_tool`'s
limits and returns what it printed (capped); a failing program (an exception, a timeout) is a
response. Each call is its own jail and costs at most `tool_time_limit_s`; the calls of an
episode are bounded by the harness's own turn limit. A sandbox that cannot run programs
raises `rewards.errors.SandboxError`. Score the final answer with our verifiers reward
(`integrations.verifiers`)."""

from __future__ import annotations

import asyncio

from verifiers.v1 import State, tool
from verifiers.v1.mcp.toolset import Toolset, ToolsetConfig

from rewards.envs.python_tool import PythonToolEnv, PythonToolOptions
from rewards.types import Sample

__all__ = ["PythonToolset", "PythonToolsetConfig"]


class PythonToolsetConfig(ToolsetConfig):
    """`python_tool`'s limits (rewards.envs.python_tool.PythonToolOptions)."""

    tool_time_limit_s: float = 5.0
    memory_mb: int = 512
    max_output_chars: int = 2000


class PythonToolset(Toolset[PythonToolsetConfig, State]):
    """A Python interpreter on our sandbox, as a verifiers toolset (module docstring)."""

    def __init__(self, config: PythonToolsetConfig) -> None:
        super().__init__(config)
        self.options = PythonToolOptions(
            tool_time_limit_s=config.tool_time_limit_s, memory_mb=config.memory_mb,
            max_output_chars=config.max_output_chars,
            episode_time_limit_s=config.tool_time_limit_s, max_tool_calls=1)

    @tool
    async def python(self, code: str) -> str:
        """Run a Python program in a sandbox and return what it printed."""
        env = PythonToolEnv(self.options)
        env.reset(Sample(prompt="", completion=""))
        result = await asyncio.to_thread(env.run_code, code)  # the code as it is
        return result.observation.strip()
