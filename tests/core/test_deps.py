"""The install command a missing extra names works where the user stands: this package is not
on the public index, so an editable checkout is told `pip install -e '<checkout>[extra]'` and a
wheel install its wheel's path (pip's PEP 610 `direct_url.json` says which)."""

from __future__ import annotations

import json
import sys
from importlib import metadata

import pytest

from rewards import deps
from rewards.deps import MissingDependency, install_hint, require


class _Dist:
    def __init__(self, direct_url: dict | None) -> None:
        self._text = None if direct_url is None else json.dumps(direct_url)

    def read_text(self, name: str) -> str | None:
        assert name == "direct_url.json"
        return self._text


def _installed_as(monkeypatch: pytest.MonkeyPatch, direct_url: dict | None) -> None:
    monkeypatch.setattr(metadata, "distribution", lambda name: _Dist(direct_url))


def test_an_editable_checkout_is_told_pip_install_e(monkeypatch, tmp_path):
    _installed_as(monkeypatch, {"url": f"file://{tmp_path}", "dir_info": {"editable": True}})
    assert install_hint(extra="server") == f"pip install -e '{tmp_path}[server]'"
    monkeypatch.chdir(tmp_path)  # standing in the checkout: the short form
    assert install_hint(extra="server") == "pip install -e '.[server]'"


def test_a_wheel_install_is_told_its_wheel(monkeypatch):
    wheel = "/tmp/dist/rewards_engine-0.1.0-py3-none-any.whl"
    _installed_as(monkeypatch, {"url": f"file://{wheel}", "archive_info": {}})
    assert install_hint(extra="celery") == f"pip install '{wheel}[celery]'"


@pytest.mark.parametrize("direct_url", [None, {"url": "https://example.invalid/x.whl"}, {"x": 1}])
def test_an_index_or_unknown_install_names_both_forms(monkeypatch, direct_url):
    _installed_as(monkeypatch, direct_url)
    hint = install_hint(extra="train")
    assert hint == ("pip install 'rewards-engine[train]' (from a checkout of the repository: "
                    "pip install -e '.[train]')")


def test_not_installed_at_all_names_both_forms(monkeypatch):
    def missing(name: str):
        raise metadata.PackageNotFoundError(name)
    monkeypatch.setattr(metadata, "distribution", missing)
    hint = install_hint(extra="vllm")
    assert "pip install 'rewards-engine[vllm]'" in hint and "pip install -e '.[vllm]'" in hint


def test_a_framework_we_plug_into_is_named_by_its_package():
    assert install_hint(package="trl") == "pip install trl"


def test_require_raises_with_the_hint(monkeypatch, tmp_path):
    _installed_as(monkeypatch, {"url": f"file://{tmp_path}", "dir_info": {"editable": True}})
    monkeypatch.setitem(sys.modules, "fastapi", None)
    with pytest.raises(MissingDependency, match=rf"pip install -e '{tmp_path}\[server\]'"):
        require("fastapi", extra="server")
    assert deps._install_source() == (True, str(tmp_path))
