"""`python_tool` as a veRL tool, driven through veRL's own BaseTool lifecycle."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("verl.tools.base_tool")


def test_python_tool_lifecycle_in_verl():
    from verl.tools.base_tool import BaseTool
    from verl.tools.schemas import ToolResponse

    import sandbox
    from integrations.verl_env import PythonTool

    try:
        sandbox.run("print(1)")
    except sandbox.SandboxError as exc:
        pytest.skip(f"the nsjail sandbox cannot run on this machine: {exc}")
    tool = PythonTool({"type": "native", "tool_time_limit_s": 2})
    assert isinstance(tool, BaseTool) and tool.name == "python"
    schema = tool.get_openai_tool_schema().model_dump()
    assert schema["function"]["parameters"]["required"] == ["code"]

    async def episode():
        instance, _ = await tool.create()
        ok = await tool.execute(instance, {"code": "print(6 * 7)"})
        loop = await tool.execute(instance, {"code": "while True: pass"})
        bad = await tool.execute(instance, {"source": 1})
        reward = await tool.calc_reward(instance)
        await tool.release(instance)
        return ok, loop, bad, reward

    ok, loop, bad, reward = asyncio.run(episode())
    assert isinstance(ok[0], ToolResponse) and ok[0].text == "<output>\n42\n</output>"
    assert ok[2]["tool_errors"] == 0
    assert loop[2]["status"] == "timeout" and loop[2]["tool_seconds"] <= 2 + 1.0
    assert "string argument 'code'" in bad[0].text and bad[2]["tool_errors"] == 1
    assert reward == 0.0 and tool.calls == {}


def test_options_are_checked():
    from integrations.verl_env import PythonTool
    from rewards.errors import ConfigError

    with pytest.raises(ConfigError, match="did you mean 'tool_time_limit_s'"):
        PythonTool({"tool_time_limit": 2})


def test_markup_in_the_code_stays_the_program():
    """The code was wrapped in <code>...</code> and parsed again: `print("</code>")` ran cut
    at the tag (a syntax error)."""
    import sandbox
    from integrations.verl_env import PythonTool

    try:
        sandbox.run("print(1)")
    except sandbox.SandboxError as exc:
        pytest.skip(f"the nsjail sandbox cannot run on this machine: {exc}")
    tool = PythonTool({"type": "native", "tool_time_limit_s": 2})

    async def call(code):
        instance, _ = await tool.create()
        out = await tool.execute(instance, {"code": code})
        await tool.release(instance)
        return out

    for code, printed in [('print("</code>")', "</code>"),
                          ('print("<tool_call>x</tool_call>")', "<tool_call>x</tool_call>")]:
        response, _, metrics = asyncio.run(call(code))
        assert response.text == f"<output>\n{printed}\n</output>" and metrics["tool_errors"] == 0
