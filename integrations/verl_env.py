"""`python_tool` as a veRL tool, for veRL's multi-turn tool agent loop (veRL 0.9:
`verl.experimental.agent_loop.tool_agent_loop`, tools listed in a tool config YAML).

```yaml
# tool_config.yaml, named by actor_rollout_ref.rollout.multi_turn.tool_config_path
tools:
  - class_name: integrations.verl_env.PythonTool
    config: {type: native, tool_time_limit_s: 5, max_output_chars: 2000}
    # tool_schema: optional; the default is a `python(code)` function
```

Every call runs the code in a fresh sandbox jail with `python_tool`'s limits and returns what
it printed (capped) as the tool's response; a failing program (an exception, a timeout) is a
response, counted in the call's metrics. veRL 0.9's loop makes, executes and releases one
tool instance per call, so the per-episode budget of our own loop (`max_tool_calls`,
`episode_time_limit_s`) does not carry across calls: veRL's `max_assistant_turns` bounds the
calls of an episode and each costs at most `tool_time_limit_s`. A sandbox that cannot run
programs raises `rewards.errors.SandboxError`, which veRL's loop logs and answers with an
error message. The final answer is scored by our veRL `compute_score` (integrations.verl).
"""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from verl.tools.base_tool import BaseTool
from verl.tools.schemas import OpenAIFunctionToolSchema, ToolResponse

from rewards.envs.python_tool import PythonToolEnv, PythonToolOptions
from rewards.options import load_options
from rewards.types import Sample

__all__ = ["PythonTool"]

SCHEMA = {
    "type": "function",
    "function": {
        "name": "python",
        "description": "Run a Python program in a sandbox and return what it printed.",
        "parameters": {
            "type": "object",
            "properties": {"code": {"type": "string",
                                    "description": "The complete program; print what you "
                                                   "want to see."}},
            "required": ["code"],
        },
    },
}


class PythonTool(BaseTool):
    """The `python` tool of veRL's tool agent loop, on our sandbox (module docstring)."""

    def __init__(self, config: dict[str, Any], tool_schema: OpenAIFunctionToolSchema | None
                 = None) -> None:
        options = {k: v for k, v in dict(config or {}).items() if k != "type"}
        self.options = load_options(PythonToolOptions, options, where="veRL python tool")
        self.config = config
        self.tool_schema = tool_schema or OpenAIFunctionToolSchema.model_validate(SCHEMA)
        self.name = self.tool_schema.function.name
        self.calls: dict[str, int] = {}

    def get_openai_tool_schema(self) -> OpenAIFunctionToolSchema:
        return self.tool_schema

    async def create(self, instance_id: str | None = None, **kwargs: Any
                     ) -> tuple[str, ToolResponse]:
        instance_id = instance_id or str(uuid4())
        self.calls[instance_id] = 0
        return instance_id, ToolResponse()

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any
                      ) -> tuple[ToolResponse, float, dict[str, Any]]:
        import asyncio

        code = parameters.get("code") if isinstance(parameters, dict) else None
        if not isinstance(code, str):
            return ToolResponse(text="error: the tool needs a string argument 'code'"), 0.0, \
                {"tool_errors": 1}
        env = PythonToolEnv(self.options)
        env.reset(Sample(prompt="", completion=""))
        result = await asyncio.to_thread(env.run_code, code)  # the code as it is
        self.calls[instance_id] = self.calls.get(instance_id, 0) + 1
        return ToolResponse(text=result.observation.strip()), float(result.reward), \
            dict(result.info)

    async def calc_reward(self, instance_id: str, **kwargs: Any) -> float:
        return 0.0  # the tool gives no step reward; the final answer is scored

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        self.calls.pop(instance_id, None)
