"""The size of this process's address space (what RLIMIT_AS counts), told without /proc,
which the jail does not have, and without ctypes: measured by the warm server's launcher
(run.py) before anything else of the harness is loaded, as a cold `python3 main.py` holds
it at its start, in each run's child (`warm_server.own_address_space`), and by a harness
that bounds its own growth (`harness_wire.address_space_bytes`)."""

import mmap
import resource

PAGE = 4096


def size() -> "int | None":
    """The lowest RLIMIT_AS under which a one-page mapping still fits, found by bisection
    (about 35 setrlimit/mmap pairs), the limit restored after; None if it cannot be told."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    low, high = 0, 1 << 47 if hard == resource.RLIM_INFINITY else hard
    try:
        while high - low > PAGE:
            middle = (low + high) // 2 // PAGE * PAGE
            resource.setrlimit(resource.RLIMIT_AS, (middle, hard))
            try:
                mmap.mmap(-1, PAGE, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ).close()
                high = middle
            except (OSError, MemoryError):
                low = middle
    except (OSError, ValueError):
        return None
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    return high - PAGE
