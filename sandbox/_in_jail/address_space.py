"""The size of this process's address space (what RLIMIT_AS counts), told without /proc,
which the jail does not have, and without ctypes: measured by the warm server's launcher
(run.py) before anything else of the harness is loaded, as a cold `python3 main.py` holds
it at its start, in each run's child (`warm_server.own_address_space`), and by a harness
that bounds its own growth (`harness_wire.address_space_bytes`)."""

import mmap
import resource

PAGE = 4096


def size(near: "int | None" = None) -> "int | None":
    """The lowest RLIMIT_AS under which a one-page mapping still fits, found by bisection,
    the limit restored after; None if it cannot be told. From 0 to the hard limit, about
    35 setrlimit/mmap pairs; `near`, a size this process is known to be close to: from a
    window around it (1 MiB each way, four times wider while the size is not in it), about
    a dozen."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    top = 1 << 47 if hard == resource.RLIM_INFINITY else hard

    def fits(limit: int) -> bool:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
        try:
            mmap.mmap(-1, PAGE, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ).close()
        except (OSError, MemoryError):
            return False
        return True

    try:
        low, high = 0, top  # a page fits under `high`, not under `low`
        width = 1 << 20
        while near is not None and near > 0:
            low = max(0, near - width) // PAGE * PAGE
            high = min(top, near + width) // PAGE * PAGE
            if (low == 0 or not fits(low)) and (high == top or fits(high)):
                break
            width *= 4
        while high - low > PAGE:
            middle = (low + high) // 2 // PAGE * PAGE
            if fits(middle):
                high = middle
            else:
                low = middle
    except (OSError, ValueError):
        return None
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    return high - PAGE
