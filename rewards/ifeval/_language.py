"""Language detection with langdetect's bundled profiles (no download), seeded so that a
response always gets the same verdict (the reference's unseeded `langdetect.detect` may name
another language on a second call for short or mixed text).

langdetect spends its time in one pure-Python loop: thousands of random n-gram draws, each
multiplying 55 language probabilities. `_FastDetector` runs the same loop on the same draws
from the same seeded generator, multiplying the draws between two normalizations (1, then 5
at a time) as one numpy product and normalizing with langdetect's left-to-right sum. The
products round differently in the last bits, so probabilities agree to about 1e-12 and the
language named is langdetect's (tests/ifeval/test_language.py compares them)."""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

__all__ = ["MAX_DETECT_CHARS", "detect_language"]

_LOCK = threading.Lock()
_STATE: dict[str, Any] = {}
MAX_DETECT_CHARS = 10_000
"""langdetect reads at most this many characters (its own default `max_text_length`)."""
SEED = 0


def _factory() -> Any:
    with _LOCK:
        if "factory" not in _STATE:
            import numpy as np
            from langdetect.detector_factory import PROFILES_DIRECTORY, DetectorFactory

            factory = DetectorFactory()
            factory.load_profile(PROFILES_DIRECTORY)
            factory.set_seed(SEED)
            words = list(factory.word_lang_prob_map)
            _STATE["index"] = {w: i for i, w in enumerate(words)}
            _STATE["matrix"] = np.asarray([factory.word_lang_prob_map[w] for w in words],
                                          dtype=np.float64)
            _STATE["factory"] = factory
    return _STATE["factory"]


def _fast_detector_class() -> type:
    if "detector" in _STATE:
        return _STATE["detector"]
    import numpy as np
    from langdetect.detector import Detector
    from langdetect.lang_detect_exception import ErrorCode, LangDetectException

    class _FastDetector(Detector):  # type: ignore[misc]
        def _detect_block(self) -> None:
            self.cleaning_text()
            ngrams = self._extract_ngrams()
            if not ngrams:
                raise LangDetectException(ErrorCode.CantDetectError, "No features in text.")
            index, matrix = _STATE["index"], _STATE["matrix"]
            rows = [index[w] for w in ngrams]
            size = len(self.langlist)
            total = np.zeros(size)
            draw = self.random.choice
            self.random.seed(self.seed)
            for _ in range(self.n_trial):
                prob = np.full(size, 1.0 / size)
                alpha = self.alpha + self.random.gauss(0.0, 1.0) * self.ALPHA_WIDTH
                weight = alpha / self.BASE_FREQ
                drawn, chunk = 0, 1  # langdetect normalizes after draw 1, 6, 11, ...
                while True:
                    picked = [draw(rows) for _ in range(chunk)]
                    prob *= np.prod(weight + matrix[picked], axis=0)
                    drawn += chunk
                    prob /= sum(prob.tolist())  # langdetect's left-to-right sum
                    if prob.max() > self.CONV_THRESHOLD or drawn - 1 >= self.ITERATION_LIMIT:
                        break
                    chunk = 5
                total += prob / self.n_trial
            self.langprob = total.tolist()

    _STATE["detector"] = _FastDetector
    return _FastDetector


@lru_cache(maxsize=8192)
def detect_language(text: str) -> str | None:
    """The ISO 639-1 code langdetect (seeded) names for `text`, or None when it cannot tell
    (no letters: the reference then counts the instruction as followed)."""
    from langdetect.lang_detect_exception import LangDetectException

    factory = _factory()
    detector = _fast_detector_class()(factory)
    detector.set_max_text_length(MAX_DETECT_CHARS)
    detector.seed = SEED
    detector.append(text[:MAX_DETECT_CHARS * 2])
    try:
        return detector.detect()
    except LangDetectException:
        return None


def reference_detect(text: str) -> str | None:
    """langdetect's own (slow) seeded detector: the oracle the tests compare with."""
    from langdetect.lang_detect_exception import LangDetectException

    detector = _factory().create()
    detector.append(text[:MAX_DETECT_CHARS * 2])
    try:
        return detector.detect()
    except LangDetectException:
        return None
