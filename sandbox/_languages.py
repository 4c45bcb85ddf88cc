"""How each language is compiled and run inside the jail: file names, argv, runtime mounts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sandbox._errors import ArgumentError

__all__ = ["LANGUAGES", "Language", "LanguageSpec", "language_spec"]

Language = Literal["python", "c", "cpp", "javascript", "bash"]

PYTHON = "/usr/bin/python3"
# -E -s -S: no PYTHON* variables, no user site, no site module and so no .pth start-up hooks
# (what -I -S gives) but, unlike -I, the script's folder stays on sys.path so a program can
# import the helper files it was given.
PYTHON_FLAGS = ("-E", "-s", "-S")
BASE_MOUNTS = ("/usr/bin", "/usr/lib", "/lib", "/lib64", "/bin")
"""Read-only system folders every jail sees; never /usr/local, /etc, /root, /home, /proc, /sys."""


@dataclass(frozen=True)
class LanguageSpec:
    """One language: where the source goes and the commands that build and run it."""

    name: Language
    """Canonical language name."""
    source: str
    """File name of the program inside the work dir `/work`."""
    run: tuple[str, ...]
    """argv that runs the program (after compilation, for compiled languages)."""
    compile: tuple[str, ...] | None = None
    """argv that compiles `source` into `/out/prog`, or None for interpreted languages."""
    mounts: tuple[str, ...] = ()
    """Extra read-only host folders the toolchain needs besides BASE_MOUNTS."""
    address_space_extra: int = 0
    """Bytes added to RLIMIT_AS on top of the memory limit: V8 reserves about 1 GiB of
    address space up front (its code range), so node gets that much more address space and
    its heap is capped separately (`{heap_mb}` in `run`)."""

    def run_argv(self, memory_bytes: int) -> list[str]:
        """`run` with `{heap_mb}` filled in: three quarters of the memory limit, so that V8
        stops at its heap limit ("heap out of memory", a `memory_limit`) before node as a
        whole (code, buffers, stacks: what the run's memory cgroup counts) reaches it."""
        heap_mb = str(max(16, (memory_bytes >> 20) * 3 // 4))
        return [part.replace("{heap_mb}", heap_mb) for part in self.run]


LANGUAGES: dict[str, LanguageSpec] = {
    "python": LanguageSpec("python", "main.py", (PYTHON, *PYTHON_FLAGS, "main.py")),
    "c": LanguageSpec("c", "main.c", ("/work/prog",),
                      compile=("/usr/bin/gcc", "-O2", "-std=gnu17", "-pipe", "-o", "/out/prog",
                               "main.c", "-lm"),
                      mounts=("/usr/include",)),
    "cpp": LanguageSpec("cpp", "main.cpp", ("/work/prog",),
                        compile=("/usr/bin/g++", "-O2", "-std=gnu++17", "-pipe", "-o",
                                 "/out/prog", "main.cpp", "-lm"),
                        mounts=("/usr/include",)),
    "javascript": LanguageSpec("javascript", "main.js",
                               ("/usr/bin/node", "--max-old-space-size={heap_mb}", "main.js"),
                               address_space_extra=1 << 30),
    "bash": LanguageSpec("bash", "main.sh", ("/bin/bash", "main.sh")),
}
ALIASES = {"py": "python", "python3": "python", "c++": "cpp", "cxx": "cpp", "js": "javascript",
           "node": "javascript", "sh": "bash", "shell": "bash"}


def language_spec(language: str) -> LanguageSpec:
    """The spec of `language` (aliases such as `py`, `c++`, `js`, `sh` accepted)."""
    key = ALIASES.get(language.lower(), language.lower())
    if key not in LANGUAGES:
        raise ArgumentError(f"unsupported language {language!r}; "
                            f"choose one of {', '.join(sorted(LANGUAGES))}")
    return LANGUAGES[key]
