"""`python_menu`: the toy of stateful tool use. The policy does not write code: each turn it
picks one of a menu of calls (`calls`), which runs as `python_tool` runs code (the sandbox,
its limits and budgets, `session: per_call` or `persistent`), and the final answer is what
the last call printed. A tiny random-weight model learns which call to make when
(examples/multiturn/state.yaml): with the default menu and `session: persistent`, setting
`x = 6 * 7` and then calling `print(x)` answers 42, which no sequence of calls earns when
each call is its own program.

The action space is the menu: a turn's first visible character picks `calls[ord(c) %
len(calls)]`, so every text names a call and a random policy tries each about as often; a
turn with no visible character makes no call and ends the episode. The observation shows the
call that ran (`>>> code`) above its output.

```yaml
environment:
  use: python_menu
  session: persistent          # per_call: each call its own program, state never carries
  max_turns: 2
  calls: ["x = 6 * 7", "print(x)", "x = 7"]
```
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rewards.envs._types import StepResult
from rewards.envs.python_tool import PythonToolEnv, PythonToolOptions
from rewards.errors import ConfigError
from rewards.text import is_blank_read, read_text
from rewards.types import Sample

__all__ = ["PythonMenuEnv", "PythonMenuOptions", "pick_call"]


@dataclass(frozen=True)
class PythonMenuOptions(PythonToolOptions):
    """Options of `python_menu`: those of `python_tool`, and the menu."""

    calls: tuple[str, ...] = ("x = 6 * 7", "print(x)", "x = 7")
    """The code of each call the policy can make (at least one)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.calls:
            raise ConfigError("calls: the menu needs at least one call")


def pick_call(action: str, calls: tuple[str, ...]) -> str | None:
    """The call `action` picks: `calls[ord(c) % len(calls)]` for its first visible character
    c, or None when it has none (no call: the episode ends). Visible is the project's one
    rule (`rewards.text`): the turn is read (`read_text`: zero-width and format characters
    go, width variants are their letters), then a character is visible unless it is blank
    to a reader (`is_blank_read`: spaces, the blank braille pattern, lone marks)."""
    text = read_text(action)
    if is_blank_read(text):
        return None
    first = next(c for c in text if not is_blank_read(c))
    return calls[ord(first) % len(calls)]


class PythonMenuEnv:
    """One episode of calls picked from a menu (see the module docstring)."""

    name = "python_menu"
    Options = PythonMenuOptions

    def __init__(self, options: PythonMenuOptions | None = None) -> None:
        self.options = options or PythonMenuOptions()
        self.tool = PythonToolEnv(self.options)

    def reset(self, sample: Sample) -> str:
        return self.tool.reset(sample)

    def close(self) -> None:
        """End the episode's session, if any (`PythonToolEnv.close`)."""
        self.tool.close()

    def step(self, action: str) -> StepResult:
        code = pick_call(action, self.options.calls)
        if code is None:
            self.close()
            return StepResult(done=True)
        result = self.tool.run_code(code)
        return replace(result, observation=f"\n>>> {code}{result.observation}")

    def final_answer(self) -> str:
        """What the last call printed."""
        return self.tool.output.strip()
