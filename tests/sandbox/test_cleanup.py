"""Leftovers too deep to walk recursively: a program that nests folders past Python's
recursion limit is an ordinary run, and the next program still starts in an empty /work and
/tmp. (The warm server used to die walking such a tree, which turned a bad program into a
SandboxError.)"""

from __future__ import annotations

import pytest
from sandbox_probes import MODES, SHORT, Host

import sandbox

DEPTH = 1500  # past the default recursion limit of 1000; 2 bytes a level stays under PATH_MAX

NEST = ("import os\n"
        "for top, name in (('/work', 'a'), ('/tmp', 'b')):\n"
        "    os.chdir(top)\n"
        f"    for _ in range({DEPTH}):\n"
        "        os.mkdir(name)\n"
        "        os.chdir(name)\n"
        "print('nested')\n")


@pytest.mark.parametrize("mode", MODES)
def test_deeply_nested_leftovers_do_not_reach_the_next_run(mode: str, host: Host) -> None:
    for _ in range(2):
        first = sandbox.run(NEST, limits=SHORT, mode=mode)
        assert (first.status, first.stdout) == ("ok", "nested\n"), first
        after = sandbox.run("import os\nprint(os.listdir('/work'), os.listdir('/tmp'))\n",
                            limits=SHORT, mode=mode)
        assert (after.status, after.stdout) == ("ok", "['main.py'] []\n"), after
