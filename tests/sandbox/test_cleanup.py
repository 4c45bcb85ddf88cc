"""Leftovers too deep to walk recursively: a program that nests folders past Python's
recursion limit is an ordinary run, and the next program still starts in an empty /work and
/tmp. (The warm server used to die walking such a tree, which turned a bad program into a
SandboxError.)"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sandbox_probes import MODES, SHORT, Host

import sandbox
from sandbox._cache import remove_tree

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



def test_a_host_folder_deeper_than_the_recursion_limit_is_removed(tmp_path: Path) -> None:
    """`_cache.remove_tree` (the workspace, spare and checker folders of cold runs) walks with
    a list: a task folder 1,500 deep goes whole, and a link in it is removed as a link (what
    it points at stays)."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "kept.txt").write_text("kept")
    root = tmp_path / "root"
    root.mkdir()
    os.symlink(outside, root / "link")
    folder = os.open(root, os.O_DIRECTORY)
    try:
        for _ in range(DEPTH):
            os.mkdir("d", dir_fd=folder)
            inner = os.open("d", os.O_DIRECTORY, dir_fd=folder)
            os.close(folder)
            folder = inner
        with open(os.open("leaf.txt", os.O_CREAT | os.O_WRONLY, 0o644, dir_fd=folder), "w") as fh:
            fh.write("x")
    finally:
        os.close(folder)
    remove_tree(str(root))
    assert not root.exists()
    assert (outside / "kept.txt").read_text() == "kept"
