"""The sandbox's code that runs INSIDE the jail, under the jail's own interpreter
(`sandbox._languages.PYTHON`, `python3 -E -s -S`), never imported by the library on the host
(but for `init`'s constants, which `_runner.from_init` and `_staging` (the C init's defines)
read: `init` imports builtins only).

Staged loading, the one place it is told:

1. On the host, `sandbox._staging` copies this folder into a content-addressed folder of
   this user's cache, compiles each module's bytecode with the jail's interpreter (a
   read-only bind cannot take a `__pycache__`), adds the launcher `run.py`, compiles the C
   init `init.c` with the host's `cc` where it can (`init`), and nsjail binds the whole
   read-only at `/harness`: `/harness/run.py`, `/harness/init`, `/harness/_in_jail/*.py`
   and their bytecode.
2. The launcher puts `/harness` alone on `sys.path` (never the program's `/work`) and
   imports `_in_jail.warm_server` (`run.py warm-server FD UID`), `_in_jail.session_server`
   (`run.py session-server FD UID`), `_in_jail.init` (`run.py init NONCE UID ARGV`) or
   `_in_jail.harness` (`run.py python|io`); these
   import their siblings relatively. At no stage is
   anything imported from the program's folder.
3. Who runs what, under which uid:
   - a cold plain Python run: `init` is the jail's pid 1 under the jail uid, compiled from
     `init.c` at stage 1 (`/harness/init`) where the host has a C compiler, else
     `run.py init`; its one child takes the program uid (`_jail.PROGRAM_UID`, as warm)
     with no capability and execs the program's command, so that no program is a jail's
     pid 1 nor its init's uid (`init`'s docstring);
   - a cold test run: `harness` is the jail's pid 1 under the jail uid (`_jail.JAIL_UID`)
     with its kind's capabilities only (`harness.apart`); it forks the worker or zygote
     that loads the program (`harness_program`), and `harness_io` is imported only by a
     stdin/stdout run, each of whose tests execs the program's own command (`python3 -E
     -s -S main.py`); every process that runs the program takes the program uid with no
     capability first (`harness_wire.enter_program`), as warm;
   - warm: `warm_server` is pid 1 under the jail uid with a few capabilities (only inside
     its user namespace), imports every module here before it forks anything (so forked
     harnesses start warm), keeps one long-lived assert/check harness (`harness.serve`,
     jail uid), and forks one child per run, which takes the program uid
     (`_jail.PROGRAM_UID`, `harness_wire.become_program` / `enter_program`) before it reads
     any program byte;
   - a session (`sandbox.open_session`): `session_server` is pid 1 of a jail of its own,
     set up as the warm server's (it reuses its helpers), and keeps one interpreter of the
     program uid alive between calls.
4. Before a program runs in a process forked from any of these (a plain run's child, an
   assert/check worker), `harness_program.as_cold` puts
   back the import system run.py found at its first line (`COLD`): no module imported at
   a later stage stays in the program's `sys.modules`.

Standard library only, and the cheapest of it (`posix`, `_signal`, `_socket`, not `os`,
`signal`, `socket`; no `typing` and no `from __future__ import annotations` at run time):
the jail has nothing else installed, and every import is paid on every cold start. Every
function is annotated, for the type checker only (mypy --strict, as the whole library):
names from `typing` appear only where Python does not evaluate them (a quoted annotation,
a local variable's), imported under `TYPE_CHECKING` (a module-level `False` mypy reads as
True).

This `__init__` is imported in the jail too, before any module here: it holds nothing but
this text."""

__all__: "list[str]" = []  # nothing to re-export: the launcher imports the modules themselves
