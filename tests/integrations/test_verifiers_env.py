"""`python_tool` as a verifiers 0.4 toolset, registered on a real MCP server and called
through it."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("verifiers.v1")
pytest.importorskip("mcp.server.mcpserver")


def test_toolset_registers_and_runs_on_the_sandbox():
    from mcp.server.mcpserver import MCPServer

    import sandbox
    from integrations.verifiers_env import PythonToolset, PythonToolsetConfig

    try:
        sandbox.run("print(1)")
    except sandbox.SandboxError as exc:
        pytest.skip(f"the nsjail sandbox cannot run on this machine: {exc}")
    toolset = PythonToolset(PythonToolsetConfig(tool_time_limit_s=2))
    server = MCPServer(name="python")
    toolset.register(server)  # verifiers' own registration of the @vf.tool methods

    async def calls():
        tools = await server.list_tools()
        ok = await server.call_tool("python", {"code": "print(6 * 7)"})
        loop = await server.call_tool("python", {"code": "while True: pass"})
        return tools, ok, loop

    tools, ok, loop = asyncio.run(calls())
    assert [t.name for t in tools] == ["python"]
    assert ok.content[0].text == "<output>\n42\n</output>" and not ok.is_error
    assert "[timeout]" in loop.content[0].text


def test_markup_in_the_code_stays_the_program():
    """The code was wrapped in <code>...</code> and parsed again: `print("</code>")` ran cut
    at the tag (a syntax error)."""
    import sandbox
    from integrations.verifiers_env import PythonToolset, PythonToolsetConfig

    try:
        sandbox.run("print(1)")
    except sandbox.SandboxError as exc:
        pytest.skip(f"the nsjail sandbox cannot run on this machine: {exc}")
    toolset = PythonToolset(PythonToolsetConfig(tool_time_limit_s=2))
    out = asyncio.run(toolset.python('print("</code>")'))
    assert out == "<output>\n</code>\n</output>"
