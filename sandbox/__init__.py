"""Isolated execution of untrusted programs in nsjail: `run` one program, `run_many` in
parallel, `run_tests` a program against assert, check(candidate) or stdin/stdout tests
(these judged by a comparison or by the task's `Checker`).
Imports nothing else of ours. It raises only its own exceptions: `SandboxError` when the
sandbox itself cannot run a program, `ArgumentError` (a `ValueError`) for a call it cannot
carry out as given; a program that fails is an `Execution`, never an exception."""

from sandbox._batch import run_many, run_tests_many
from sandbox._checker import Checker, CheckerArgs
from sandbox._errors import ArgumentError, SandboxError
from sandbox._languages import Language
from sandbox._parallel import Cancel
from sandbox._runner import Backend, Mode, run
from sandbox._session import Cell, Session, SessionOptions, max_sessions, open_session
from sandbox._tests import Compare, TestFormat, run_tests
from sandbox._types import Execution, Limits, Status, TestOutcome, TestReport, TestResult

__all__ = ["ArgumentError", "Backend", "Cancel", "Cell", "Checker", "CheckerArgs", "Compare", "Execution",
           "Language", "Limits", "Mode", "SandboxError", "Session",
           "SessionOptions", "Status", "TestFormat", "TestOutcome",
           "TestReport", "TestResult", "max_sessions", "open_session", "run", "run_many",
           "run_tests",
           "run_tests_many"]
