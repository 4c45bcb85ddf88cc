"""`python -m rewards` runs the `rewards` command. The command is the top floor, `rewards_cli`,
which imports this package and every package built on it; the core imports none of them, so
this door hands over by name, as the `rewards` console script does (pyproject.toml)."""

import runpy

runpy.run_module("rewards_cli", run_name="__main__", alter_sys=True)
