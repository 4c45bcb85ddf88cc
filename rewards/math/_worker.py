"""A worker process: `python -m rewards.math._worker`. Reads one JSON request per line on
stdin, `{"id", "pred", "gold", "rel_tol", "pred_raw"}`, answers one JSON line on stdout,
`{"id", "reason", "detail"}`. Prints `{"ready": true}` once sympy is loaded.

Started with `subprocess.Popen`, not `multiprocessing`, so that it can be started from daemonic
processes (Celery prefork children). The parent enforces the time bound by killing it; it
exits by itself when stdin closes or its parent dies."""

from __future__ import annotations

import json
import os
import sys
import threading
import time


def _exit_with_parent(parent: int) -> None:
    """A stuck comparison would outlive a dead parent; poll and leave."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


def main() -> int:
    # stdout carries the protocol only; anything printed by libraries goes to stderr.
    protocol = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)
    sys.stdout = sys.stderr
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    sys.setrecursionlimit(10_000)

    from rewards.math._symbolic import symbolic_compare, warm_up

    warm_up()
    protocol.write(json.dumps({"ready": True, "pid": os.getpid()}) + "\n")
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            reason, detail = symbolic_compare(request["pred"], request["gold"],
                                              request["rel_tol"],
                                              pred_raw=request.get("pred_raw", False))
        except RecursionError:
            reason, detail = "timeout", "recursion too deep"
        except Exception as exc:  # noqa: BLE001 (sympy raising on an odd answer is data)
            reason, detail = "wrong", f"{type(exc).__name__} during comparison"
        protocol.write(json.dumps({"id": request["id"], "reason": reason,
                                   "detail": detail}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
