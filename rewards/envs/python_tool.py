"""`python_tool`: a code interpreter on the sandbox. The policy writes Python in a tool call,
it runs in a fresh jail (the warm sandbox where enabled) with the usual limits, and its output
(capped) is the next observation; a turn without a tool call is the final answer, which the
final reward scores (e.g. `{use: math}` on the bundled math examples).

A tool call is any of (the first found in the turn runs; one call per turn):
- the chat template's tool-call format: `<tool_call>{"name": "python", "arguments":
  {"code": "..."}}</tool_call>` (Hermes / Qwen);
- `<code>...</code>`;
- a fenced block: three backticks and `python` (or `py`), the code, three backticks.

By default each call runs as its own program (nothing carries over between calls: define
what a call needs in it). With `session: persistent` the episode gets one interpreter in a
jail of its own (`sandbox.open_session`): variables, imports and files in /work carry over
from call to call, as in a notebook; a call that runs past its time or kills the interpreter
resets the episode's session (its state is gone, and the next observation says so), no other.
`fork(n)` gives n copies of a live episode whose sessions hold its state (sibling rollouts
branching from one point). The sandbox cost of an episode is bounded: each call at most
`tool_time_limit_s`, all calls of the episode at most `episode_time_limit_s` together (a call
gets what is left of it), and at most `max_tool_calls` calls; a looping call costs one call's
limit. A call that fails (an exception, a timeout, the memory limit) is an observation with
the error: data, counted in `tool_errors`. A sandbox that cannot run programs raises
`rewards.errors.SandboxError`, and the episode abstains.

```yaml
environment: {use: python_tool, max_turns: 4, tool_time_limit_s: 5, max_tool_calls: 3}
environment: {use: python_tool, session: persistent}   # state carries over between calls
```
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from rewards.envs._types import StepResult
from rewards.envs.tool_calls import extract_tagged
from rewards.errors import sandbox_errors
from rewards.options import check_fields, check_range
from rewards.types import Sample

if TYPE_CHECKING:
    from sandbox import Execution, Session  # imported where it runs: the sandbox is optional

__all__ = ["PythonToolEnv", "PythonToolOptions", "find_code"]

_FENCE_TAGS = ("python", "py", "python3", "py3")


@dataclass(frozen=True)
class PythonToolOptions:
    """Options of `python_tool`."""

    tool_name: str = "python"
    """The function name a chat-template tool call uses."""
    tool_time_limit_s: float = 5.0
    """Wall-clock seconds of one call (its CPU seconds too)."""
    episode_time_limit_s: float = 20.0
    """Wall-clock seconds of all calls of one episode together."""
    max_tool_calls: int = 4
    """Calls per episode; later ones are answered with an error, not run."""
    memory_mb: int = 512
    """Memory of one call, in MiB."""
    max_output_chars: int = 2000
    """Characters of stdout + stderr handed back (the episode's observation cap applies too)."""
    mode: Literal["auto", "warm", "cold"] = "auto"
    """The sandbox's mode (`sandbox.run`): auto uses the warm pool where it is enabled.
    Per-call programs only: a persistent session has a jail of its own."""
    session: Literal["per_call", "persistent"] = "per_call"
    """per_call: each call is a fresh program. persistent: one interpreter per episode keeps
    variables, imports and files between calls (`sandbox.open_session`)."""

    def __post_init__(self) -> None:
        check_fields(self)
        for name in ("tool_time_limit_s", "episode_time_limit_s", "max_tool_calls",
                     "memory_mb", "max_output_chars"):
            check_range(name, getattr(self, name), gt=0)


def find_code(action: str, *, tool_name: str = "python") -> tuple[str | None, str | None]:
    """(code, None) for the first tool call in `action`, (None, error) for a chat-template
    call that does not parse or names another tool, (None, None) for no call at all."""
    for body in extract_tagged(action, "<tool_call>", "</tool_call>", limit=1):
        try:
            call = json.loads(body)
        except (ValueError, RecursionError):
            return None, "the tool call is not valid JSON"
        if not isinstance(call, dict) or call.get("name") != tool_name:
            return None, f"unknown tool; the one tool is {tool_name!r}"
        arguments = call.get("arguments", {})
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except (ValueError, RecursionError):
                return None, "the tool call's arguments are not valid JSON"
        code = arguments.get("code") if isinstance(arguments, dict) else None
        if not isinstance(code, str):
            return None, "the tool call needs a string argument 'code'"
        return code, None
    for body in extract_tagged(action, "<code>", "</code>", limit=1):
        return body, None
    at = action.find("```")
    while at >= 0:  # fenced blocks in order; each scan moves forward: linear
        line_end = action.find("\n", at)
        if line_end < 0:
            break
        end = action.find("```", line_end)
        if action[at + 3:line_end].strip().lower() in _FENCE_TAGS:
            return action[line_end + 1:] if end < 0 else action[line_end + 1:end], None
        at = -1 if end < 0 else action.find("```", end + 3)
    return None, None


def _tool_error(message: str) -> StepResult:
    """A tool call that did not run: an observation with the error (data, a tool error)."""
    return StepResult(f"\nerror: {message}\n", info={"tool_calls": 1, "tool_errors": 1})


class PythonToolEnv:
    """One episode with a Python interpreter (see the module docstring)."""

    name = "python_tool"
    Options = PythonToolOptions

    def __init__(self, options: PythonToolOptions | None = None) -> None:
        self.options = options or PythonToolOptions()
        self.calls = 0
        self.seconds_left = self.options.episode_time_limit_s
        self.answer = ""
        self.output = ""
        """What the last call printed (its stdout; "" for a call that did not run)."""
        self.session: Session | None = None  # sandbox.Session of a persistent episode, opened at its first call

    def reset(self, sample: Sample) -> str:
        self.close()
        self.calls, self.answer, self.output = 0, "", ""
        self.seconds_left = self.options.episode_time_limit_s
        return ""

    def close(self) -> None:
        """End the episode's session, if any (done episodes and `reset` do it themselves)."""
        if self.session is not None:
            self.session.close()
            self.session = None

    def fork(self, n: int) -> list[PythonToolEnv]:
        """n copies of this episode as it stands (calls made, time left, the answer so far),
        each with a session holding this one's state (`sandbox.Session.fork`): sibling
        rollouts branch from here. Their `random` state is this one's: reseed for diversity."""
        if self.session is None:
            sessions: list[Session | None] = [None] * n
        else:
            with sandbox_errors("python_tool: the sandbox cannot fork the session"):
                sessions = list(self.session.fork(n))
        copies = []
        for session in sessions:
            copy = PythonToolEnv(self.options)
            copy.calls, copy.seconds_left, copy.answer = self.calls, self.seconds_left, self.answer
            copy.output = self.output
            copy.session = session
            copies.append(copy)
        return copies

    def step(self, action: str) -> StepResult:
        code, error = find_code(action, tool_name=self.options.tool_name)
        self.answer = action
        if error is not None:
            return _tool_error(error)
        if code is None:  # no call: the final answer
            self.close()
            return StepResult(done=True)
        return self.run_code(code)

    def run_code(self, code: str) -> StepResult:
        """One tool call given as its code (what `step` finds in an action; what an adapter's
        framework parsed from its own tool-call format): run under the episode's budget, the
        output as the observation. The code is run as it is, never re-parsed; code that is
        not text a program file can hold (a lone surrogate, from a JSON `\\ud800` escape) is
        the model's data: an error observation, like a program that fails."""
        self.output = ""
        if self.calls >= self.options.max_tool_calls or self.seconds_left <= 0.05:
            return _tool_error("the tool budget of this episode is spent; answer now")
        try:
            code.encode("utf-8")
        except UnicodeEncodeError as exc:
            return _tool_error(f"the code is not valid text: {exc.reason} at character "
                               f"{exc.start} ({code[exc.start]!a}); write it in UTF-8")
        execution = self._run(code)
        self.output = execution.stdout
        return StepResult(self._observation(execution), info={
            "tool_calls": 1, "tool_errors": int(execution.status != "ok"),
            "status": execution.status, "tool_seconds": execution.wall_s})

    async def astep(self, action: str) -> StepResult:
        return await asyncio.to_thread(self.step, action)

    def final_answer(self) -> str:
        return self.answer

    def _run(self, code: str) -> Execution:
        import sandbox

        o = self.options
        seconds = min(o.tool_time_limit_s, self.seconds_left)
        limits = sandbox.Limits(wall_s=seconds, cpu_s=seconds, memory_bytes=o.memory_mb << 20,
                                output_bytes=max(4 * o.max_output_chars, 4096), processes=16)
        self.calls += 1
        with sandbox_errors("python_tool: the sandbox cannot run programs"):
            if o.session == "persistent":
                if self.session is None:  # its calls get what is left of the episode
                    self.session = sandbox.open_session(
                        limits=replace(limits, wall_s=o.tool_time_limit_s,
                                       cpu_s=o.tool_time_limit_s),
                        options=sandbox.SessionOptions(episode_wall_s=self.seconds_left))
                execution = self.session.run(code)
            else:
                execution = sandbox.run(code, "python", limits=limits, mode=o.mode)
        if execution.status == "sandbox_error":
            with sandbox_errors("python_tool"):
                raise sandbox.SandboxError(execution.stderr[-500:] or "sandbox_error")
        self.seconds_left -= min(max(execution.wall_s, 0.0), seconds)
        return execution

    def _observation(self, execution: Execution) -> str:
        text = execution.stdout + (("\n" + execution.stderr) if execution.stderr else "")
        limit = self.options.max_output_chars
        if len(text) > limit:
            text = text[:limit] + f"\n[output cut at {limit} characters]"
        status = "" if execution.status == "ok" else f"[{execution.status}]\n"
        return f"\n<output>\n{status}{text.rstrip()}\n</output>\n"
