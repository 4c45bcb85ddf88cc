"""The one scoring path: batch call, one-by-one retry on a poison sample, the count check,
infrastructure errors, and normalization over the whole batch after a retry."""

from __future__ import annotations

import pytest

from rewards import Sample, Score
from rewards.answer_after import AnswerAfter
from rewards.errors import ConfigError, EngineError, SandboxError
from rewards.mixing import DomainRouter, Mixture, WeightedComponent
from rewards.scoring import check_scores, score_batch


class Lengths:
    """len(completion); raises on BOOM (a bug), on DOWN (an engine that is down)."""

    name = "lengths"

    def __init__(self) -> None:
        self.calls: list[int] = []

    def score(self, samples):
        self.calls.append(len(samples))
        for s in samples:
            if s.completion == "BOOM":
                raise ValueError("poison")
            if s.completion == "DOWN":
                raise EngineError("judge unreachable")
            if s.completion == "JAIL":
                raise SandboxError("nsjail cannot start")
        return [Score(float(len(s.completion))) for s in samples]


def test_a_poison_sample_is_an_error_row_and_the_others_keep_their_scores() -> None:
    reward = Lengths()
    scored = score_batch(reward, [Sample("p", "ab"), Sample("p", "BOOM"), Sample("p", "c")])
    assert scored.scores == [Score(2.0), Score(None, "error"), Score(1.0)]
    assert scored.error_message(1) == "ValueError: poison" and scored.error_message(0) is None
    assert reward.calls == [3, 1, 1, 1]


@pytest.mark.parametrize("completion, error", [("DOWN", EngineError), ("JAIL", SandboxError)])
def test_broken_infrastructure_raises_without_a_retry(completion: str, error: type) -> None:
    reward = Lengths()
    with pytest.raises(error):
        score_batch(reward, [Sample("p", "a"), Sample("p", completion)])
    assert reward.calls == [2]


def test_an_interrupt_of_the_caller_is_never_a_poison_sample() -> None:
    class Stop(Exception):
        pass

    class Interrupted:
        name = "interrupted"

        def score(self, samples):
            raise Stop()

    with pytest.raises(Stop):
        score_batch(Interrupted(), [Sample("p", "a")], interrupts=(Stop,))


@pytest.mark.parametrize("returned, message", [
    ([Score(1.0)], "returned 1 scores for 2 samples"),
    ([Score(1.0), 0.5], "returned a float among its scores"),
    (None, "returned NoneType, not a list"),
])
def test_a_reward_that_breaks_the_contract_is_a_config_error(returned, message) -> None:
    class Broken:
        name = "broken"

        def score(self, samples):
            return returned

    with pytest.raises(ConfigError, match=message):
        score_batch(Broken(), [Sample("p", "a"), Sample("p", "b")])
    with pytest.raises(ConfigError, match="'broken'"):
        check_scores(Broken(), returned, 2)


def test_normalization_runs_once_over_the_batch_after_a_retry() -> None:
    router = DomainRouter({"default": Lengths()}, normalize="zscore_by_domain")
    samples = [Sample("p", "a"), Sample("p", "BOOM"), Sample("p", "abc")]
    scored = score_batch(router, samples)
    # 1 and 3 normalized together (mean 2, std 1); the poison row stays None
    assert [s.value for s in scored.scores] == [-1.0, None, 1.0]
    assert scored.scores[1].reason == "error"
    assert score_batch(router, []).scores == []


class Teller:
    """A `Progressive` reward: len(completion), each sample told on its own, last first; a
    sample BOOM raises once every other sample has been told (a poison sample)."""

    name = "teller"

    def score(self, samples):
        return self.score_progressively(samples, None)

    def score_progressively(self, samples, ready):
        scores = [Score(float(len(s.completion))) for s in samples]
        for i in reversed(range(len(samples))):
            if samples[i].completion == "BOOM":
                continue
            if ready is not None:
                ready([i], [scores[i]])
        if any(s.completion == "BOOM" for s in samples):
            raise ValueError("poison")
        return scores


def told_by(reward, samples, **options):
    told: dict[int, Score] = {}

    def ready(indices, scores):
        for i, score in zip(indices, scores):
            assert i not in told, f"sample {i} told twice"
            told[i] = score
    return score_batch(reward, samples, ready=ready, **options), told


def test_scores_told_as_decided_through_routing_and_mixing_are_the_scores_returned() -> None:
    router = DomainRouter({
        "a": Mixture([WeightedComponent(AnswerAfter(Teller(), "</think>"), 1.0),
                      WeightedComponent(Lengths(), 0.5, "learned")]),
        "b": Mixture([WeightedComponent(Teller(), 2.0)])})
    samples = [Sample("p", "x</think>ab", domain="a"), Sample("p", "abc", domain="b"),
               Sample("p", "no marker", domain="a"), Sample("p", "a", domain="elsewhere"),
               Sample("p", "abcd", domain="b")]
    scored, told = told_by(router.raw, samples)
    assert told == dict(enumerate(scored.scores))
    assert [s.value for s in scored.scores] == [2.0 + 0.5 * 11, 6.0, 0.5 * 9, None, 8.0]
    assert scored.scores == router.raw.score(samples)
    # a batch normalized by score_batch is told once normalized, as returned
    scored, told = told_by(router, samples)
    assert told == dict(enumerate(scored.scores)) and scored.scores == router.score(samples)


def test_a_poison_sample_is_never_told_and_what_was_told_before_it_raised_stands() -> None:
    reward = Teller()
    samples = [Sample("p", "a"), Sample("p", "BOOM"), Sample("p", "abc")]
    scored, told = told_by(reward, samples)
    assert told == {0: Score(1.0), 2: Score(3.0)}
    assert scored.scores[1].reason == "error" and set(scored.errors) == {1}
    # a reward that is not progressive: every score told once it returns, the poison's never
    scored, told = told_by(Lengths(), samples)
    assert told == {0: Score(1.0), 2: Score(3.0)} and set(scored.errors) == {1}
