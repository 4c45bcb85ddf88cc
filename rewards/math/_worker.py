"""A worker: a fork of the zygote (`rewards.math._zygote`) that compares one pair at a time.
Reads one JSON request per line, `{"id", "pred", "gold", "rel_tol", "pred_raw"}`, and answers
one JSON line, `{"id", "reason", "detail"}`, after a first line `{"ready": true, "pid"}`.

The caller enforces the time bound by killing the worker; it exits by itself when its request
pipe closes or the caller (the zygote's parent, not the zygote) dies. Its address space is
bounded (`MEMORY_BUDGET` beyond the zygote's), so an answer that makes sympy allocate without
end gets a `MemoryError` in this worker (reason `timeout`, as for the time bound) instead of
pushing the machine into its OOM killer, which may pick another process."""

from __future__ import annotations

import json
import os
import resource
import select
import signal
import sys
import threading
import traceback
from typing import IO

MEMORY_BUDGET = 4 << 30
"""Bytes of address space a worker may add to what it had when forked from the zygote."""


def become_worker(fds: list[int], parent_fd: int | None) -> None:
    """In the child of the zygote's fork, never returning: take the three descriptors the
    caller sent (requests to read, answers to write, a file for stderr), serve, exit."""
    code = 1
    try:
        requests_fd, answers_fd, stderr_fd = fds
        for target in (1, 2):  # stray C-level output goes to this worker's stderr file
            os.dup2(stderr_fd, target)
        os.close(stderr_fd)
        signal.signal(signal.SIGINT, signal.default_int_handler)  # the zygote ignores it
        bound_memory(MEMORY_BUDGET)
        threading.Thread(target=_exit_with_parent, args=(parent_fd, os.getppid()),
                         daemon=True).start()
        with os.fdopen(requests_fd, "r") as requests, \
                os.fdopen(answers_fd, "w", buffering=1) as answers:
            serve(requests, answers)
        code = 0
    except BaseException:  # noqa: BLE001 (never unwind into the zygote's loop)
        traceback.print_exc()
    finally:
        try:
            sys.stderr.flush()
        finally:
            os._exit(code)


def bound_memory(budget: int) -> None:
    """Limit this process's address space to its present size plus `budget` bytes (never
    above a hard limit already set)."""
    with open("/proc/self/statm") as statm:
        size = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = size + budget if hard == resource.RLIM_INFINITY else min(size + budget, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def serve(requests: IO[str], answers: IO[str]) -> None:
    """The request loop, until `requests` closes."""
    from rewards.math._symbolic import symbolic_compare

    answers.write(json.dumps({"ready": True, "pid": os.getpid()}) + "\n")
    for line in requests:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            reason, detail = symbolic_compare(request["pred"], request["gold"],
                                              request["rel_tol"],
                                              pred_raw=request.get("pred_raw", False))
        except RecursionError:
            reason, detail = "timeout", "recursion too deep"
        except MemoryError:
            reason, detail = "timeout", "memory limit of the comparison process"
        except Exception as exc:  # noqa: BLE001 (sympy raising on an odd answer is data)
            reason, detail = "wrong", f"{type(exc).__name__} during comparison"
        answers.write(json.dumps({"id": request["id"], "reason": reason,
                                  "detail": detail}) + "\n")


def _exit_with_parent(parent_fd: int | None, zygote: int) -> None:
    """A stuck comparison would outlive a dead caller; leave when it is gone. `parent_fd`, a
    pidfd of the caller, turns readable when it exits. Without one (no pidfd on this system),
    leave when the zygote is gone (reparented), as the zygote leaves with the caller."""
    while True:
        if parent_fd is not None:
            if select.select([parent_fd], [], [], 1.0)[0]:
                os._exit(0)
        else:
            select.select([], [], [], 1.0)
            if os.getppid() != zygote:
                os._exit(0)
