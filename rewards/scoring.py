"""Scoring a batch: the one path that the CLI, the prompt filter, the HTTP server, the
framework adapters and the Celery tasks all take.

`score_batch` scores the samples as one batch. If the reward raises, and the error is not
broken infrastructure (`INFRASTRUCTURE_ERRORS`: a bad config, an engine or sandbox that cannot
run), the samples are scored one by one so that only the poison sample becomes an error row
and the rest keep their scores. The batch normalization of a `DomainRouter` runs after that,
over the whole batch, so one poison sample does not change how the others are normalized.
Every reward's answer goes through `check_scores`: one `Score` per sample, in order.

`AbstentionTally` counts, over a run, the rows that were not scored, by cause
(`abstention_cause`), in all and per domain, and decides by `RUN_RULE` (stated once, here,
for `rewards score`, `rewards check`, the server, the adapters and the Celery client) when a
run scored nothing for a configuration cause: a `ConfigurationAbstention` error or one
warning, never a green run of zeros. `score_batch(..., tally=)` feeds it."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from rewards.errors import INFRASTRUCTURE_ERRORS, ConfigError
from rewards.types import (
    Reward,
    Sample,
    Score,
    ScoresReady,
    check_scores,
    gold_ambiguity,
    reference_of,
    score_progressively,
)

__all__ = [
    "CONFIGURATION_CAUSES",
    "ERROR_REASON",
    "INFRASTRUCTURE_ERRORS",
    "NO_VALUE",
    "RUN_RULE",
    "AbstentionPolicy",
    "AbstentionTally",
    "BatchNormalized",
    "ConfigurationAbstention",
    "ScoredBatch",
    "abstention_cause",
    "check_scores",
    "normalize_batch",
    "score_batch",
]

log = logging.getLogger("rewards.scoring")

ERROR_REASON = "error"
"""The reason of a sample whose scoring raised (a poison sample)."""


@runtime_checkable
class BatchNormalized(Protocol):
    """A reward that normalizes each batch after scoring it (a config's `DomainRouter`):
    `raw` scores without the normalization, `normalizer(samples, scores)` applies it. Scoring
    retries a poison sample on `raw`, then normalizes the whole batch once."""

    name: str
    raw: Reward

    def normalizer(self, samples: Sequence[Sample], scores: Sequence[Score]) -> list[Score]: ...

    def score(self, samples: Sequence[Sample]) -> list[Score]: ...


@dataclass(frozen=True)
class ScoredBatch:
    """One `Score` per sample, in order; a poison sample's is `Score(None, "error")` and its
    exception is in `errors` under its position."""

    scores: list[Score]
    errors: dict[int, Exception] = field(default_factory=dict)

    def error_message(self, i: int) -> str | None:
        """`"ValueError: ..."` for a poison sample, else None."""
        exc = self.errors.get(i)
        return None if exc is None else f"{type(exc).__name__}: {exc}"


def score_batch(reward: Reward, samples: Sequence[Sample], *,
                interrupts: tuple[type[BaseException], ...] = (),
                tally: AbstentionTally | None = None, normalize: bool = True,
                ready: ScoresReady | None = None) -> ScoredBatch:
    """Score `samples` with `reward` (see the module docstring). Broken infrastructure
    raises; so do `interrupts`, the exceptions by which the caller's context stops scoring
    (Celery's soft time limit), which are never taken for a poison sample. `tally`: counts
    the batch's abstentions (the caller decides when to `check` it). `normalize=False`
    leaves out a `BatchNormalized` reward's batch normalization: for a caller that scores
    one batch in parts (the training loops' overlapped rollouts) and then normalizes the
    whole batch once (`normalize_batch`), as one call would. `ready`: told each sample's
    score, as it returns it, as soon as the reward decides it (`rewards.types.Progressive`;
    a batch normalized here: all at the end); never a poison sample's (see `errors`)."""
    scored = _score_unambiguous(reward, samples, interrupts, normalize, ready)
    if tally is not None:
        tally.add(samples, scored.scores)
    return scored


def _score_unambiguous(reward: Reward, samples: Sequence[Sample],
                       interrupts: tuple[type[BaseException], ...], normalize: bool,
                       ready: ScoresReady | None) -> ScoredBatch:
    """`_score_batch` over the samples whose gold is not ambiguous (`gold_ambiguity`: a row
    whose gold columns differ, `rewards.io.find_reference`); the others abstain with
    `bad_reference` and no reward sees them (no reward scores against a guessed gold)."""
    ambiguous = [i for i, sample in enumerate(samples) if gold_ambiguity(sample)]
    if not ambiguous:
        return _score_batch(reward, samples, interrupts, normalize, ready)
    skipped = set(ambiguous)
    kept = [i for i in range(len(samples)) if i not in skipped]
    abstained = Score(None, "bad_reference")
    if ready is not None:
        ready(ambiguous, [abstained] * len(ambiguous))

    def tell(indices: Sequence[int], scores: Sequence[Score]) -> None:
        if ready is not None:
            ready([kept[i] for i in indices], scores)
    part = _score_batch(reward, [samples[i] for i in kept], interrupts, normalize,
                        tell if ready is not None else None)
    scores = [abstained] * len(samples)
    for i, score in zip(kept, part.scores, strict=True):
        scores[i] = score
    return ScoredBatch(scores, {kept[i]: exc for i, exc in part.errors.items()})


def normalize_batch(reward: Reward, samples: Sequence[Sample], scores: Sequence[Score]
                    ) -> list[Score]:
    """The batch normalization of a `BatchNormalized` reward over the whole batch, for
    `scores` from `score_batch(..., normalize=False)` (in one call or in parts); other
    rewards' scores unchanged."""
    if isinstance(reward, BatchNormalized) and samples:
        return reward.normalizer(samples, scores)
    return list(scores)


def _score_batch(reward: Reward, samples: Sequence[Sample],
                 interrupts: tuple[type[BaseException], ...], normalize: bool,
                 ready: ScoresReady | None) -> ScoredBatch:
    if not samples:
        return ScoredBatch([])
    normalized = reward if isinstance(reward, BatchNormalized) else None
    scorer: Reward = reward if normalized is None else normalized.raw
    normalizes = normalize and normalized is not None
    told: dict[int, Score] = {}  # what `ready` heard before the batch raised, if it did

    def tell(indices: Sequence[int], scores: Sequence[Score]) -> None:
        told.update(zip(indices, scores))
        if ready is not None:
            ready(indices, scores)
    stop = (*INFRASTRUCTURE_ERRORS, *interrupts)
    errors: dict[int, Exception] = {}
    try:
        scores = score_progressively(scorer, samples,
                                     tell if ready is not None and not normalizes else None)
    except stop:
        raise
    except Exception:  # noqa: BLE001 - find the poison sample: one by one below
        log.info("a batch of %d samples raised; scoring them one by one", len(samples))
        scores = []
        for i, sample in enumerate(samples):
            if i in told:  # decided before the batch raised: its score stands
                scores.append(told[i])
                continue
            try:
                scores.extend(check_scores(scorer, scorer.score([sample]), 1))
            except stop:
                raise
            except Exception as exc:  # noqa: BLE001 - a poison sample: an error row
                log.warning("sample %d raised: %s: %s", i, type(exc).__name__, exc)
                scores.append(Score(None, ERROR_REASON))
                errors[i] = exc
                continue
            if ready is not None and not normalizes:
                ready([i], scores[-1:])
    if normalizes:
        scores = normalize_batch(reward, samples, scores)
        if ready is not None:
            fine = [i for i in range(len(samples)) if i not in errors]
            ready(fine, [scores[i] for i in fine])
    return ScoredBatch(scores, errors)


NO_VALUE = "no_value"
"""The cause of a score with no value that gives no reason for it (`Score(None)`, reason
"ok"): a domain whose every component has weight 0 (logged only) scores each row so."""

CONFIGURATION_CAUSES = ("unknown_domain", "bad_reference:missing", "bad_reference:unparseable",
                        "bad_reference:ambiguous", "input_error", ERROR_REASON, NO_VALUE, "abstain")
"""Causes that say the run is set up wrong when they take a whole domain (or the policy's
share of the rows): a domain the config does not score, no reference at all (an unmapped or
misnamed reference column), references the reward cannot read (the wrong column, or the
wrong reward for the domain), rows whose gold columns state different golds and none is named
(`bad_reference:ambiguous`), rows that are not valid input (a wrong --map, a wrong file),
a reward that raised (`error`: one poison sample is one row; a plugin that raises on every
row is a broken plugin), a domain that gives no value (`no_value`: every component weight 0),
a reward function that returned None (`abstain`) on all of them."""

RUN_RULE = """\
A run fails (exit 3, or one warning where the caller only warns) when rows were not scored
for a configuration cause (unknown_domain, bad_reference:missing, bad_reference:unparseable,
bad_reference:ambiguous, input_error; or the reward failed on them: error, no_value, abstain), over at least
`min_rows` rows, either
  - at least `share` of all the rows of the run, or
  - at least `share` of the rows of one domain of the data (after --domain-map);
`share` is 1.0 unless set (`--abstain-share`): by default a run fails when a whole domain, or
the whole run, scored nothing for such a cause: a run that scored nothing never exits 0.
Other abstentions (a timeout, a sandbox error, a judge that abstained) never fail a run:
they are broken or slow infrastructure at run time, counted in the summary."""
"""The one statement of when a run counts as having scored nothing; `rewards score`,
`rewards check`, the server, the adapters and the Celery client apply it through
`AbstentionTally`."""

_HINTS = {
    "unknown_domain": "add the domain to the config (or a `default` domain), or map the "
                      "dataset's domain values to the config's",
    "bad_reference:missing": "samples without a reference: none of the gold columns read "
                             "by default (reference, solution, answer, ground_truth, label) "
                             "holds one; name the dataset's (e.g. --map gold=reference)",
    "bad_reference:unparseable": "references the domain's reward cannot read: map the column "
                                 "that holds the final answer or the tests (e.g. --map "
                                 "answer=reference), or use the reward that reads them",
    "bad_reference:ambiguous": "rows whose gold columns (reference, solution, answer, "
                               "ground_truth, label) state different golds: name the one that "
                               "holds the gold (e.g. --map label=reference); the output rows' "
                               "`error` names the columns",
    "input_error": "rows that are not valid input: check the file and --map",
    ERROR_REASON: "the reward raised on them (the output rows' `error` holds the exception): "
                  "fix the reward or its options",
    NO_VALUE: "the domain's reward gave no value and no reason: a domain whose every "
              "component has weight 0 (logged only) scores nothing; give one a weight > 0",
    "abstain": "the reward function returned None (abstained) on them: check the fields "
               "it reads",
}


def abstention_cause(sample: Sample | None, score: Score) -> str | None:
    """Why a row was not scored, or None if it was: its reason, with `bad_reference` split into
    `bad_reference:ambiguous` (its gold columns differ, `gold_ambiguity`),
    `bad_reference:missing` (the sample has no reference, in `reference` or where
    `reference_of` finds one in `meta`) and `bad_reference:unparseable`, and a missing value
    that gives no reason (`ok`) named `no_value`."""
    if score.value is not None:
        return None
    if score.reason == "ok":  # no value, and no reason why
        return NO_VALUE
    if score.reason == "bad_reference":
        if sample is not None and gold_ambiguity(sample):
            return "bad_reference:ambiguous"
        missing = sample is not None and _is_missing(reference_of(sample.reference, sample.meta))
        return "bad_reference:missing" if missing else "bad_reference:unparseable"
    return score.reason


def _is_missing(reference: Any) -> bool:
    if reference is None:
        return True
    if isinstance(reference, str):
        return not reference.strip()
    return isinstance(reference, (list, tuple, dict)) and not reference


@dataclass(frozen=True)
class AbstentionPolicy:
    """When a run counts as having scored nothing."""

    share: float = 1.0
    """Fail once at least this share of the rows abstained for a configuration cause
    (1.0: all of them)."""
    min_rows: int = 1
    """... counted over at least this many rows (per-rollout adapters wait for a few)."""

    def __post_init__(self) -> None:
        if not 0.0 < self.share <= 1.0:
            raise ConfigError(f"the abstention share must be in (0, 1], not {self.share}")
        if self.min_rows < 1:
            raise ConfigError(f"min_rows must be >= 1, not {self.min_rows}")


class ConfigurationAbstention(ConfigError):
    """A run (or batch) whose rows abstained for a configuration cause (see
    `CONFIGURATION_CAUSES`). The CLI exits with `exit_code`."""

    exit_code = 3

    def __init__(self, message: str, counts: dict[str, int]) -> None:
        super().__init__(message)
        self.counts = counts


class AbstentionTally:
    """Rows and abstentions by cause over a run (in all and per domain of the data), and the
    decision `RUN_RULE` states: that the run scored nothing.

    `where` names the entry point in messages ("" for none); `domains` are the config's
    domains (for the unknown-domain hint)."""

    def __init__(self, policy: AbstentionPolicy | None = None, *, where: str = "scoring",
                 domains: Iterable[str] = ()) -> None:
        self.policy = policy or AbstentionPolicy()
        self.where = where
        self.domains = sorted(domains)
        self.rows = 0
        self.causes: Counter[str] = Counter()
        self.unknown_domains: Counter[str] = Counter()
        self.domain_rows: Counter[str] = Counter()
        self.domain_causes: dict[str, Counter[str]] = {}
        self.warned = False

    def add(self, samples: Sequence[Sample], scores: Sequence[Score]) -> None:
        """Count one batch of scored samples."""
        for sample, score in zip(samples, scores, strict=True):
            self.add_row(sample.domain, abstention_cause(sample, score))

    def add_row(self, domain: str, cause: str | None) -> None:
        """Count one row of `domain`: scored (`cause` None) or not, and why."""
        self.rows += 1
        tracked = domain in self.domain_rows or len(self.domain_rows) < _MAX_DOMAINS
        if tracked:
            self.domain_rows[domain] += 1
        if cause is None:
            return
        self.causes[cause] += 1
        if tracked:
            self.domain_causes.setdefault(domain, Counter())[cause] += 1
        if cause == "unknown_domain" and (domain in self.unknown_domains
                                          or len(self.unknown_domains) < 20):
            self.unknown_domains[domain] += 1

    def add_cause(self, cause: str, n: int = 1) -> None:
        """Count `n` rows that were never scored and have no domain (`input_error`)."""
        if n > 0:
            self.rows += n
            self.causes[cause] += n

    def counts(self) -> dict[str, int]:
        """Abstentions by cause, most frequent first."""
        return dict(self.causes.most_common())

    def configuration_rows(self) -> int:
        return sum(self.causes[c] for c in CONFIGURATION_CAUSES)

    def failures(self) -> list[str]:
        """Why the run counts as having scored nothing (`RUN_RULE`): one line for the whole
        run, else one per failing domain; empty when it scored."""
        where = f"{self.where}: " if self.where else ""
        whole = self._failure(self.rows, self.causes)
        if whole is not None:
            return [f"{where}{whole}"]
        return [f"{where}domain {domain!r}: {line}"
                for domain in sorted(self.domain_causes)
                if (line := self._failure(self.domain_rows[domain],
                                          self.domain_causes[domain])) is not None]

    def failure(self) -> str | None:
        """The failures as one message, or None."""
        lines = self.failures()
        return "; ".join(lines) if lines else None

    def _failure(self, rows: int, causes: Counter[str]) -> str | None:
        bad = sum(causes[c] for c in CONFIGURATION_CAUSES)
        if rows < self.policy.min_rows or bad == 0 or bad < self.policy.share * rows:
            return None
        found = [c for c in CONFIGURATION_CAUSES if causes[c]]
        parts = [f"{c} x{causes[c]} ({self._hint(c)})" for c in found]
        return (f"{bad} of {rows} rows were not scored for a configuration cause: "
                f"{'; '.join(parts)}")

    def _hint(self, cause: str) -> str:
        if cause != "unknown_domain":
            return _HINTS[cause]
        seen = ", ".join(repr(d) for d in self.unknown_domains)
        config = ", ".join(self.domains) if self.domains else "?"
        return f"domains {seen} are not in the config ({config}): {_HINTS[cause]}"

    def check(self, action: Literal["raise", "warn"] = "raise") -> None:
        """Raise `ConfigurationAbstention` (or log one warning per tally) if the run failed."""
        message = self.failure()
        if message is None:
            return
        if action == "raise":
            raise ConfigurationAbstention(message, self.counts())
        if not self.warned:
            self.warned = True
            log.warning("%s", message)


_MAX_DOMAINS = 1000
"""Domains a tally follows one by one (a run with more still counts every row in all)."""
