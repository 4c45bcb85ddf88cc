"""Language detection with langdetect's bundled profiles (no download), seeded so that a
response always gets the same verdict (the reference's unseeded `langdetect.detect` may name
another language on a second call for short or mixed text).

langdetect spends its time in one pure-Python loop: thousands of random n-gram draws, each
multiplying 55 language probabilities, normalized every fifth draw. `_FastDetector` takes
the same draws in chunks, and finds with numpy (log sums) the check at which langdetect's
trial stops. langdetect reseeds its generator for every text, so every detection reads the
same random stream: it is made once (`_stream`) and replayed (`_Replay`). The n-grams of a
word are found once per process, and the trials stop once `detect()`'s answer cannot change
(`_decided`). The probabilities agree to rounding, so the language named is langdetect's
(tests/ifeval/test_text.py compares them)."""

from __future__ import annotations

import math
import re
import threading
from typing import Any

from rewards.cache import ByteCache, byte_cache

__all__ = ["MAX_DETECT_CHARS", "detect_language"]

_LOCK = threading.RLock()
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
            _STATE["replay"] = _replay_matches()
            _STATE["normalized"] = _Normalized()
            _STATE["words"] = ByteCache(_WORDS_BYTES)
            _STATE["decided"] = ByteCache(_DECIDED_BYTES)
            _STATE["factory"] = factory
    return _STATE["factory"]


def _fast_detector_class() -> type:
    if "detector" in _STATE:
        return _STATE["detector"]
    import numpy as np
    from langdetect.detector import Detector
    from langdetect.lang_detect_exception import ErrorCode, LangDetectException
    from langdetect.utils.ngram import NGram

    class _FastDetector(Detector):
        def append(self, text: str) -> None:
            """langdetect's `append`, whose loop over characters keeps one space of each run
            of spaces: here one substitution does it."""
            text = self.URL_RE.sub(" ", text)
            text = self.MAIL_RE.sub(" ", text)
            text = NGram.normalize_vi(text)
            self.text += _SPACE_RUN.sub(" ", text[:self.max_text_length])

        def cleaning_text(self) -> None:
            """langdetect's `cleaning_text` drops Latin letters from a text with more than twice
            as many letters from U+0300 on: an ASCII text has none, and is left as it is."""
            if not self.text.isascii():
                super().cleaning_text()

        def _extract_rows(self) -> list[int]:
            """langdetect's n-gram extraction (`NGram.add_char`, then the 1-, 2- and 3-grams
            it holds that the profiles know) as profile rows. `add_char` starts afresh after
            each space, so the n-grams of a text are those of its space-separated words in
            order, each with the space after it (none after the last): a word's rows are
            computed once per process. Each character's normalization is looked up once."""
            words = _STATE["words"]
            rows: list[int] = []
            parts = self.text.translate(_STATE["normalized"]).split(" ")
            last = len(parts) - 1
            for i, part in enumerate(parts):
                if not part:
                    continue
                word = part + " " if i < last else part
                found = words.get(word)
                if found is None:
                    found = _word_rows(word, self.word_lang_prob_map, _STATE["index"])
                    words.put(word, found)
                rows.extend(found)
            return rows

        def _detect_block(self) -> None:
            self.cleaning_text()
            found = self._extract_rows()
            if not found:
                raise LangDetectException(ErrorCode.CantDetectError, "No features in text.")
            rows = np.asarray(found, dtype=np.int64)
            key = rows.tobytes() if len(found) <= _DECIDED_ROWS else None
            decided = _STATE["decided"]
            known = None if key is None else decided.get(key)
            if known is not None:
                self.langprob = list(known)
                return
            self.langprob = self._trials(rows)
            if key is not None:
                decided.put(key, tuple(self.langprob))

        def _trials(self, rows: Any) -> list[float]:
            """langdetect's trials on the text's n-gram rows (in order): its probabilities."""
            table = (_STATE["matrix"], rows)
            total = np.zeros(len(self.langlist))
            source = _Replay()  # langdetect's self.random after seed(SEED)
            for trial in range(self.n_trial):
                alpha = self.alpha + source.gauss(0.0, 1.0) * self.ALPHA_WIDTH
                total += _trial(source, table, alpha / self.BASE_FREQ,
                                self.CONV_THRESHOLD, self.ITERATION_LIMIT) / self.n_trial
                if _decided(total, (self.n_trial - 1 - trial) / self.n_trial,
                            self.PROB_THRESHOLD):
                    break
            return total.tolist()

    _STATE["detector"] = _FastDetector
    return _FastDetector


_SPACE_RUN = re.compile(" {2,}")
_WORDS_BYTES = 32 << 20  # words whose n-gram rows are kept (a reply's words: any length)
_DECIDED_ROWS = 4_096
"""Texts of at most this many n-grams have their probabilities kept, keyed by the n-gram rows
in order: everything after `_extract_rows` depends on those alone, so two texts with the same
rows (loose mode's variants without `*`, which langdetect reads as a space) are decided once."""
_DECIDED_BYTES = 16 << 20  # texts whose probabilities are kept (at most 32 KiB of key each)


class _Normalized(dict[int, str]):
    """`str.translate` table: a character -> langdetect's `NGram.normalize` of it, computed on
    first use."""

    def __missing__(self, char: int) -> str:
        from langdetect.utils.ngram import NGram

        value = self[char] = NGram.normalize(chr(char))
        return value


def _word_rows(word: str, known: Any, index: dict[str, int]) -> tuple[int, ...]:
    """langdetect's `_extract_ngrams` loop on one normalized word (and the space after it,
    if any), from a fresh `NGram`: the profile rows of the n-grams it yields."""
    result = []
    grams, capital = " ", False
    for ch in word:
        last = grams[-1]
        if len(grams) >= 3:
            grams = grams[1:]
        grams += ch
        if ch.isupper():
            if last.isupper():
                capital = True
        else:
            capital = False
        if capital:
            continue
        if ch != " " and ch in known:
            result.append(index[ch])
        if len(grams) >= 2:
            if grams[-2:] in known:
                result.append(index[grams[-2:]])
            if len(grams) == 3 and grams in known:
                result.append(index[grams])
    return tuple(result)


def _decided(total: Any, remaining: float, floor: float) -> bool:
    """Whether the language ahead in `total` (the trials so far, each summing to 1 and
    weighted 1/n) stays ahead and above `floor` whatever the `remaining` trials give: then
    langdetect's `detect()` names it, and the remaining trials are not drawn."""
    if remaining <= 0.0:
        return True
    order = total.argsort()
    best, second = total[order[-1]], total[order[-2]]
    return bool(best > floor and best - second > remaining + 1e-9)


_CHUNK = 100  # draws per numpy step: a multiple of 5, langdetect's checking period


_STREAM_WORDS = 1 << 16


def _stream(end: int) -> Any:
    """The first `end` (or more) 32-bit words of Python's Mersenne Twister seeded with `SEED`,
    made once (a trial's draws all come from this one stream, since langdetect reseeds its
    generator for every text)."""
    import numpy as np

    stream = _STATE.get("stream")
    if stream is None or len(stream) < end:
        with _LOCK:
            stream = _STATE.get("stream")
            if stream is None or len(stream) < end:
                import random

                size = max(end, 2 * (0 if stream is None else len(stream)), _STREAM_WORDS)
                generator = random.Random(SEED)
                stream = np.frombuffer(generator.getrandbits(32 * size).to_bytes(4 * size, "little"),
                                       dtype="<u4")
                _STATE["stream"] = stream
    return stream


class _Replay:
    """langdetect's `self.random` just after `seed(SEED)`, replayed from `_stream`: `gauss`
    as CPython's `Random.gauss` computes it, and `random.choice(range(n))` drawn in bulk
    (`choice` takes one 32-bit word shifted right to `n.bit_length()` bits, again while the
    value is not below `n`). `_replay_matches` checks this against the generator itself."""

    def __init__(self) -> None:
        self.position = 0
        self.gauss_next: float | None = None

    def random(self) -> float:
        stream = _stream(self.position + 2)
        a, b = int(stream[self.position]) >> 5, int(stream[self.position + 1]) >> 6
        self.position += 2
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)

    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        z = self.gauss_next
        self.gauss_next = None
        if z is None:
            x2pi = self.random() * _TWOPI
            g2rad = math.sqrt(-2.0 * math.log(1.0 - self.random()))
            z = math.cos(x2pi) * g2rad
            self.gauss_next = math.sin(x2pi) * g2rad
        return mu + z * sigma

    def choices(self, n: int, count: int) -> tuple[Any, Any]:
        """The next `count` values of `choice(range(n))`, and after each the number of words
        taken; the position is not moved (`advance` moves it)."""
        import numpy as np

        shift = 32 - n.bit_length()
        values, used, taken, have = [], [], 0, 0
        while have < count:
            m = 2 * (count - have) + 8
            start = self.position + taken
            words = _stream(start + m)[start:start + m] >> shift
            ok = np.nonzero(words < n)[0]
            values.append(words[ok])
            used.append(ok + taken + 1)
            taken += m
            have += ok.size
        return np.concatenate(values)[:count], np.concatenate(used)[:count]

    def advance(self, words: int) -> None:
        self.position += words


_TWOPI = 2.0 * math.pi


def _replay_matches() -> bool:
    """Whether `_Replay` reproduces this Python's `random.Random(SEED)` (`gauss`, `choice`,
    `random`); if not, `detect_language` uses langdetect's own detector."""
    import random

    generator, replay = random.Random(SEED), _Replay()
    for n in (1, 2, 3, 7, 1000, 4097, 70000):
        if generator.gauss(0.0, 1.0) != replay.gauss(0.0, 1.0):
            return False
        values, used = replay.choices(n, 50)
        if [generator.choice(range(n)) for _ in range(50)] != values.tolist():
            return False
        replay.advance(int(used[-1]))
    return generator.random() == replay.random()


def _trial(source: _Replay, table: Any, weight: float, threshold: float, limit: int) -> Any:
    """One of langdetect's trials: draw n-grams until, at a check (after draw 1, 6, 11, ...),
    one language's normalized probability exceeds `threshold` (or `limit` draws passed).
    `table`: the profiles' rows, and the row of each of the text's n-grams in order. Draws are
    taken in growing chunks (100, 200, ... 1600) and their products accumulated as log sums;
    after each chunk the source moves just past the last draw langdetect would have taken, so
    the next chunk and the next trial see the random numbers langdetect's would."""
    import numpy as np

    rows, ngrams = table
    languages = rows.shape[1]
    logs = np.zeros(languages)
    drawn, chunk = 0, _CHUNK
    while True:
        checks = np.arange(0, chunk, 5)  # chunk offsets of the checks (drawn: a multiple of 5)
        picked, used = source.choices(len(ngrams), chunk)
        drawn_logs = rows.take(ngrams.take(picked), axis=0)  # (chunk, languages)
        drawn_logs += weight
        np.log(drawn_logs, out=drawn_logs)
        # the running sums at the checks only: draw 0, then blocks of five, then the tail
        at = np.empty((len(checks), languages))
        at[0] = drawn_logs[0]
        drawn_logs[1:chunk - 4].reshape(-1, 5, languages).sum(axis=1, out=at[1:])
        np.cumsum(at, axis=0, out=at)
        at += logs
        scaled = at - at.max(axis=1, keepdims=True)
        np.exp(scaled, out=scaled)
        sums = scaled.sum(axis=1)
        stop = np.nonzero((1.0 / sums > threshold) | (drawn + checks >= limit))[0]
        last = int(checks[stop[0]]) if stop.size else chunk - 1
        source.advance(int(used[last]))
        if stop.size:
            return scaled[stop[0]] / sums[stop[0]]
        logs = at[-1] + drawn_logs[chunk - 4:].sum(axis=0)
        drawn += chunk
        chunk = min(2 * chunk, 16 * _CHUNK)


@byte_cache(16 << 20)  # replies are any size: a bound on their count is none on memory
def detect_language(text: str) -> str | None:
    """The ISO 639-1 code langdetect (seeded) names for `text`, or None when it cannot tell
    (no letters: the reference then counts the instruction as followed)."""
    from langdetect.lang_detect_exception import LangDetectException

    factory = _factory()
    if not _STATE["replay"]:
        return reference_detect(text)
    detector = _new_detector(factory)
    detector.append(text[:MAX_DETECT_CHARS * 2])
    try:
        return detector.detect()
    except LangDetectException:
        return None


def _new_detector(factory: Any) -> Any:
    """A fresh `_FastDetector`: a copy of the attributes of one made once (langdetect's
    constructor seeds a generator from the OS each time, which `_Replay` never reads)."""
    template = _STATE.get("template")
    if template is None:
        template = _fast_detector_class()(factory)
        template.set_max_text_length(MAX_DETECT_CHARS)
        template.seed = SEED
        _STATE["template"] = template
    detector = object.__new__(type(template))
    detector.__dict__.update(template.__dict__)
    return detector


def reference_detect(text: str) -> str | None:
    """langdetect's own (slow) seeded detector: the oracle the tests compare with."""
    from langdetect.lang_detect_exception import LangDetectException

    detector = _factory().create()
    detector.append(text[:MAX_DETECT_CHARS * 2])
    try:
        return detector.detect()
    except LangDetectException:
        return None
