"""`run_tests`: all tests of one program in one jail, verdicts through an unforgeable channel
(see `_in_jail/harness.py` for why a program cannot fake a pass)."""

from __future__ import annotations

import dataclasses
import json
import marshal
import math
import numbers
import secrets
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Literal, get_args

from sandbox._checker import CHECKED, Checker, checker_output_room, judged, prepare_checker
from sandbox._classify import log_tail, to_execution
from sandbox._errors import ArgumentError, SandboxError
from sandbox._in_jail.init import FAILED as HARNESS_FAILED
from sandbox._jail import (
    COLD_INIT_CAPABILITIES,
    PROGRAM_UID,
    WARM_CAPABILITIES,
    check_nsjail,
    cpu_rlimit_s,
    run_jail,
)
from sandbox._languages import PYTHON, PYTHON_FLAGS, language_spec
from sandbox._parallel import Cancel, not_run
from sandbox._runner import Mode
from sandbox._staging import IN_JAIL, LAUNCHER, staged_dir
from sandbox._types import Execution, Limits, Status, TestOutcome, TestReport, TestResult
from sandbox._warm import run_warm, use_warm
from sandbox._workspace import (
    Files,
    check_inputs_fit,
    compile_program,
    program_too_large,
    refused_program,
    workspace,
)

__all__ = ["Compare", "TestFormat", "run_tests", "test_format"]

Compare = Literal["exact", "whitespace", "float", "lines_unordered"]
TestFormat = Literal["assert", "check", "io"]
Tests = "Sequence[str] | str | Sequence[Mapping[str, str]]"
BUDGET_GRACE_S = 1.0
"""Seconds the jail's wall limit allows beyond `Limits.program_wall_s`: the jail's and the
harness's start-up and the report, which the in-jail budget does not see."""
HARNESS_PROCESSES = {"python": 2, "io": 1}
"""The processes a cold test harness keeps alive beside the program's, under the jail's
uid (the harness is its pid 1, the program PROGRAM_UID): assert/check the harness and its
zygote (the worker runs the program's code: it is the program's own process, as `python3
main.py` is; a restarted worker replaces one the zygote has reaped first), stdin/stdout the
harness (each test's process is the program's). They come on top of the program's count
and take no share of its memory (`process_budget`): the jail's RLIMIT_NPROC and pids cap
hold them, and each process that runs the program takes them off its RLIMIT_NPROC
(`harness.apart`: the harness is told this number), so that the program's processes read
the count, start as many threads and hold as much as `python3 main.py` alone (red team
sb14, sb5). Warm none: the server and the long-lived harness are another uid, which
RLIMIT_NPROC does not count, and every process that runs program code takes the program's
count (`_warm.WarmServer._header`)."""
HARNESS_CAPABILITIES = {"python": COLD_INIT_CAPABILITIES, "io": WARM_CAPABILITIES}
"""What a cold test jail keeps for its harness (`jail_argv`'s `capabilities`), in its user
namespace only: the switch of each program process to PROGRAM_UID and the kills of the
program's processes, as the cold init; for stdin/stdout tests CAP_FOWNER too, for /work and
/tmp taken back between tests (`harness_io.restore`), as the warm server's stdin/stdout
harness. The harness keeps exactly these (`harness_wire.HARNESS_CAPABILITIES`, the same by
bit) and every program process drops them all."""
HARNESS_OPEN_FILES = 64
"""Descriptors the stdin/stdout harness may hold (its streams, a test's three pipes and
pidfd, `restore`'s folders one at a time, warm its report and `end_processes`' batch of 16
pidfds), whatever the program's `open_files` (`_io_harness_limits`)."""


def test_format(tests: Any) -> TestFormat:
    """`assert` for a list of assert statements, `check` for HumanEval `check(candidate)`
    code (a string), `io` for a list of {"input", "output"} mappings."""
    if isinstance(tests, str):
        return "check"
    items = list(tests)
    if items and all(isinstance(t, Mapping) for t in items):
        return "io"
    if all(isinstance(t, str) for t in items):
        return "assert"
    raise ArgumentError("tests must be assert strings, check(candidate) code, or a list of "
                        "{'input': ..., 'output': ...} cases")


def run_tests(code: str, tests: Any, language: str = "python", *,
              entry_point: str | None = None, limits: Limits | None = None,
              compare: Compare = "exact", float_tol: float = 1e-6,
              style: TestFormat | None = None, files: Files | None = None,
              mode: Mode = "auto", context: str | None = None,
              setup: str | None = None, checker: Checker | None = None,
              test_limits: Sequence[float] | None = None,
              cancel: Cancel | None = None) -> TestReport:
    """Run every test of `tests` against `code` in ONE sandbox run, each test under
    `limits.test_wall_s`, and report a verdict per test. A test that times out ends the run:
    the tests after it do not start and count as timeouts (`TestResult.ran` False), so a
    program that loops costs one per-test limit, not one per test. `limits.program_wall_s`
    bounds all the tests together (tests that would start after it count as timeouts).

    test_limits: one limit per test, in seconds, instead of `limits.test_wall_s` for each
    (EvalPlus's per-test limits from a reference solution's times); each still capped by what
    is left of `limits.program_wall_s`. `limits.wall_s` bounds the whole run: leave it room
    for their sum. A check(candidate) test is one test.
    cancel: a `sandbox.Cancel` another thread may set to stop this run: the run (warm or
    cold) is then killed within milliseconds and its unfinished tests are timeouts that did
    not run, with the cancel's reason as their message; a run cancelled before it starts
    does not start. A test finished before the cancel keeps its
    verdict; no test gets a pass it did not finish. (`run_tests_many`'s chunks use it.)

    tests: a list of assert statements (`["assert add(1, 2) == 3"]`), HumanEval-style check
    code with `entry_point` (`"def check(candidate): ..."`), or stdin/stdout cases
    (`[{"input": "1 2\\n", "output": "3\\n"}]`, compared by `compare`: exact (trailing
    newlines ignored), whitespace (token-wise), float (token-wise, numbers within
    `float_tol`) or lines_unordered (the same lines in any order, each line's trailing
    whitespace and the trailing empty lines aside)). assert and check tests are Python only;
    io tests work for every language.
    checker: a `Checker` (special judge) deciding the io tests instead of `compare`: compiled
    once before the program runs, then run in a jail of its own per test on that test's
    input, the program's output and the expected output (see `sandbox._checker`).
    style: force the format ("assert", "check" or "io") instead of inferring it from `tests`.
    context: the task's own code the tests see (a HumanEval prompt: its imports and helper
    functions), run before each assert/check test in the test's namespace. The tests see
    builtins, standard-library modules and these helpers as the task defined them, whatever
    the program defines; from the program come `entry_point` and the other names the tests
    use that the task does not define (a class they construct).
    setup: code run in the program's process after the program, before the tests (MBPP's
    `test_setup_code`, which builds objects the tests pass to the program).
    Every program of `mode="auto"` Python runs warm (see `run`).
    """
    spec = language_spec(language)
    limits = limits or Limits()
    fmt = style or test_format(tests)
    items = _normalize(tests, fmt, entry_point, spec.name, compare)
    if (context or setup) and fmt == "io":
        raise ArgumentError("context and setup apply to assert and check tests, not stdin "
                            "cases")
    own_limits = _test_limits(test_limits, len(items))
    if not items:
        return TestReport(results=(), execution=Execution(status="ok"))
    if cancel is not None and cancel.is_set():
        return not_run(len(items), cancel.reason)
    refused = refused_program(code, spec)  # one rule for the text, whatever the mode
    if refused is not None:
        return TestReport(results=tuple(
            TestResult(i, "error", refused.stderr.strip())
            for i in range(len(items))), execution=refused)
    check_inputs_fit(spec, files or {}, limits)  # as `run`'s, whatever the mode
    refused = program_too_large(code, spec, files or {}, limits)  # the program's own
    if refused is not None:
        return TestReport(results=tuple(
            TestResult(i, "error", refused.stderr.strip())
            for i in range(len(items))), execution=refused)
    checking = prepare_checker(checker, fmt, items, limits)  # compiled once, before the program
    if checking is not None:
        items = checking.blind(items)  # the program's jail never holds the expected outputs
    nonce = secrets.token_hex(16)
    document = {"nonce": nonce, "format": fmt, "tests": items, "entry_point": entry_point,
                "context": context or "", "setup": setup or "", "checker": checking is not None,
                "compare": compare, "float_tol": float_tol, "test_wall_s": limits.test_wall_s,
                "test_limits": own_limits, "program_wall_s": limits.program_wall_s,
                "output_bytes": limits.output_bytes, "argv": spec.run_argv(limits.memory_bytes),
                # what each io test's process takes before its exec (`harness_io.take_limits`):
                # the program's RLIMIT_CPU as nsjail rounds it (`jail_argv`) and RLIMIT_NOFILE
                "program_limits": {"cpu_s": cpu_rlimit_s(limits),
                                   "open_files": limits.open_files}}
    payload = marshal.dumps(document)
    # python: asserts/check against a worker; io: one run of the program's own command per
    # stdin/stdout test (for Python, `python3 main.py` itself: red team sb7, a run forked
    # from a harness has the harness's frames below the program's, see docs/sandbox.md)
    kind = "python" if fmt in ("assert", "check") else "io"
    # the harness's own stream carries verdicts (messages up to ~2 KB) and a quarter of the
    # program's output: give it room so that a chatty program is not an output_limit;
    # with a program budget the jail's wall limit follows it, the harness's start-up and
    # report on top (the harness itself ends the tests when the budget is spent).
    # `processes` stays the program's: each mode adds the sandbox's own (`HARNESS_PROCESSES`)
    wall_s = limits.wall_s if limits.program_wall_s is None else \
        min(limits.wall_s, limits.program_wall_s + BUDGET_GRACE_S)
    harness_limits = dataclasses.replace(
        limits, output_bytes=limits.output_bytes + 4096 * len(items) + (64 << 10),
        wall_s=wall_s)
    if kind == "io":
        harness_limits = _io_harness_limits(harness_limits)
    if checking is not None:  # the stream also carries each test's output to the checker
        harness_limits = dataclasses.replace(harness_limits, output_bytes=(
            harness_limits.output_bytes + checker_output_room(checking, limits, len(items))))
    if use_warm(spec, mode):
        execution = run_warm(code, stdin=payload, files=files or {}, limits=harness_limits,
                             harness=kind, cancel=cancel, decode_stdout=False)
        report, outputs = _report(execution, nonce, len(items), cancel)
        del execution  # the harness's stream: the checker needs only `outputs`, once
        return judged(checking, report, outputs)
    check_nsjail()
    with workspace(code, spec, files or {}) as box:
        failed = compile_program(box, spec, limits)
        if failed is not None:
            return TestReport(results=tuple(
                TestResult(i, "error", "compile_error") for i in range(len(items))),
                execution=failed)
        # the harness (the jail's pid 1) is another uid than the program, as warm: every
        # process that runs the program takes PROGRAM_UID, with no capability, and the
        # program's own count (`harness.apart`). The harness's processes come on top of
        # the program's, with no share of its memory where rlimits split it (`process_budget`)
        own = HARNESS_PROCESSES[kind]
        raw = run_jail([PYTHON, *PYTHON_FLAGS, LAUNCHER, kind, str(PROGRAM_UID), str(own)],
                       harness_limits, extra_processes=own, program_uid=True,
                       capabilities=HARNESS_CAPABILITIES[kind],
                       stdin=payload, output_bytes=harness_limits.output_bytes,
                       binds=[*box.binds, (staged_dir(), IN_JAIL)],
                       address_space_extra=spec.address_space_extra, cancel=cancel)
    if raw.exit_code == HARNESS_FAILED and raw.signal is None and not raw.timed_out:
        # only `harness.apart` ends the harness (the jail's pid 1, which no program process
        # may signal) so, and before any program code has run: the sandbox failed, not the
        # program (red team sb17)
        raise SandboxError("the test harness could not keep apart from the program: "
                           f"{log_tail(raw)}")
    report, outputs = _report(to_execution(raw, limits, decode_stdout=False), nonce,
                              len(items), cancel)
    del raw  # the harness's stream: the checker needs only `outputs`, once
    return judged(checking, report, outputs)


def _io_harness_limits(limits: Limits) -> Limits:
    """The stdin/stdout harness's own RLIMIT_CPU and RLIMIT_NOFILE (cold: nsjail's on its
    pid 1; warm: the run's header), never the program's: it restores /work and /tmp after
    every test and holds each test's pipes and pidfd, which no test's process pays for (red
    team sb10). It is one thread, so its CPU never passes the jail's wall time: that is its
    RLIMIT_CPU, and the wall limit is what bounds it. Each test's process takes the
    program's own limits before its exec (`harness_io.take_limits`, at most what the
    harness holds: hence the program's as a floor of both)."""
    return dataclasses.replace(limits, cpu_s=max(limits.cpu_s, limits.wall_s + 1),
                               open_files=max(limits.open_files, HARNESS_OPEN_FILES))


def _normalize(tests: Any, fmt: TestFormat, entry_point: str | None, language: str,
               compare: str) -> list[Any]:
    if compare not in get_args(Compare):
        raise ArgumentError(f"compare must be one of {', '.join(get_args(Compare))}, not "
                            f"{compare!r}")
    if fmt in ("assert", "check") and language != "python":
        raise ArgumentError(f"{fmt} tests are Python-only; use stdin/stdout cases for "
                            f"{language}")
    if fmt == "check":
        if not entry_point:
            raise ArgumentError("check(candidate) tests need entry_point (the function's "
                                "name)")
        return [tests if isinstance(tests, str) else "\n".join(tests)]
    if fmt == "assert":
        return [str(t) for t in tests]
    cases = []
    for i, case in enumerate(tests):
        if "input" not in case or "output" not in case:
            raise ArgumentError(f"io test {i} needs 'input' and 'output'")
        cases.append({"input": str(case["input"]), "output": str(case["output"])})
    return cases


def _test_limits(test_limits: Sequence[float] | None, count: int) -> list[float] | None:
    """The per-test limits as the harness's `Budget` takes them, checked: one positive,
    finite number of seconds per test."""
    if test_limits is None:
        return None
    if isinstance(test_limits, (str, bytes, Mapping)) or not isinstance(test_limits, Sequence):
        raise ArgumentError(f"test_limits must be a sequence of seconds, one per test, not "
                            f"{type(test_limits).__name__}")
    if len(test_limits) != count:
        raise ArgumentError(f"test_limits gives {len(test_limits)} limits for {count} tests: "
                            "one per test")
    for i, value in enumerate(test_limits):
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or \
                not 0 < value < math.inf:
            raise ArgumentError(f"test_limits[{i}] must be a positive number of seconds, got "
                                f"{value!r}")
    return [float(value) for value in test_limits]


def _records(stdout: bytes, nonce: str) -> Iterator[dict[str, Any]]:
    """The harness's nonce-framed JSON records in `stdout`, parsed one line at a time (no
    decoded or split copy of the whole stream: checker outputs make it large). A line that
    does not parse (cut short by the output cap, or from a harness the program spoiled) is
    no record: its test has no verdict, which is never a pass."""
    frame = nonce.encode()
    start = 0
    while (at := stdout.find(frame, start)) >= 0:
        end = stdout.find(b"\n", at)
        end = len(stdout) if end < 0 else end
        if at == 0 or stdout[at - 1] == 10:  # a line that starts with the nonce
            try:
                record = json.loads(stdout[at + len(frame):end])
            except ValueError:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
                record = None
            if isinstance(record, dict):
                yield record
        start = end + 1


def _verdict(record: dict[str, Any], count: int) -> tuple[int, list[Any]] | None:
    """(test index, verdict) of a verdict record of the right shape, else None."""
    index, verdict = record.get("test"), record.get("verdict")
    if type(index) is not int or not 0 <= index < count or not isinstance(verdict, list) \
            or not 2 <= len(verdict) <= 4 or not isinstance(verdict[0], str) \
            or not isinstance(verdict[1], str):
        return None
    return index, verdict


def _report(execution: Execution, nonce: str, count: int,
            cancel: Cancel | None = None) -> tuple[TestReport, dict[int, bytes | None]]:
    """Verdicts from the harness's nonce-framed lines; tests without one are timeouts if the
    run timed out (that did not run, with its reason, if `cancel` stopped it), else errors.
    Never a pass without a verdict. Also the outputs awaiting the checker, as bytes (None:
    not hex), by test: their results carry no message."""
    verdicts: dict[int, list[Any]] = {}
    outputs: dict[int, bytes | None] = {}
    final: dict[str, Any] | None = None
    for record in _records(execution.stdout_bytes, nonce):
        if "verdict" not in record:
            final = record if isinstance(record.get("stdout"), str) and \
                isinstance(record.get("stderr"), str) else final
            continue
        found = _verdict(record, count)
        if found is None:
            continue
        index, verdict = found
        if verdict[0] == CHECKED:
            try:
                outputs[index] = bytes.fromhex(verdict[1])
            except ValueError:
                outputs[index] = None
            verdict[1] = ""
        verdicts[index] = verdict
    missing: TestOutcome = "timeout" if execution.status == "timeout" else "error"
    why = f"no verdict: the run ended with {execution.status}"
    if final is None and execution.stderr.strip():
        why += f" ({execution.stderr.strip().splitlines()[-1][:300]})"
    unfinished = TestResult(0, missing, why)
    if execution.status == "timeout" and cancel is not None and cancel.is_set():
        unfinished = TestResult(0, "timeout", cancel.reason, 0.0, False)
    results = tuple(TestResult(i, *verdicts[i]) if i in verdicts else
                    dataclasses.replace(unfinished, index=i) for i in range(count))
    status: Status = execution.status
    if status == "ok":
        if any(r.outcome == "timeout" for r in results):
            status = "timeout"
        elif any("MemoryError" in r.message for r in results if r.outcome == "error"):
            status = "memory_limit"
        elif any(r.outcome == "error" for r in results):
            status = "runtime_error"
    program = Execution(status=status, exit_code=execution.exit_code,
                        signal=execution.signal,
                        stdout=final["stdout"] if final else "",
                        stderr=final["stderr"] if final else execution.stderr,
                        truncated=execution.truncated or bool(final and final.get("truncated")),
                        wall_s=execution.wall_s,
                        cpu_s=execution.cpu_s, peak_memory_bytes=execution.peak_memory_bytes)
    return TestReport(results=results, execution=program), outputs
