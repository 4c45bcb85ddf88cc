"""Red team: `rewards serve` hands each request its scores as soon as its own samples are
decided (`rewards.types.Progressive`, `score_batch(ready=)`, the micro-batcher's per-request
delivery), and its protocol routes are plain starlette routes. The invariant attacked:
nothing one request, sample or client does changes the verdict of another sample; what a
request gets in a shared batch is what it gets alone, bit for bit. Attacks that held are
plain tests; the one hole found (a HEAD on ROLL's result route read the result and dropped
it) is fixed in `integrations.server` and tested here."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import Sequence
from typing import Any

import pytest

from integrations._batcher import BatchingConfig, MicroBatcher
from rewards import Sample, Score
from rewards.config import parse_config
from rewards.errors import ConfigError, EngineError
from rewards.types import ScoresReady, score_progressively

# --- the micro-batcher with an adversarial Progressive reward ------------------------------


def _alone(sample: Sample) -> Score:
    """A sample's score, a function of its text only (what it gets alone)."""
    text = sample.completion
    assert isinstance(text, str)
    if "MASK" in text:
        return Score(None, "timeout")  # an abstention: stays a mask wherever it is told
    return Score(len(text) + 0.25 * text.count("a"), "ok", {"a": float(text.count("a"))})


class Scrambler:
    """A `Progressive` reward that tells a batch's scores in random chunks and random order
    (seeded by the batch's own texts). QUIET samples are never told (only returned: the
    batcher must still answer their requests); BOOM raises once every other sample is told
    (a poison sample after partial reports); DOWN raises `EngineError` likewise (broken
    infrastructure after partial reports)."""

    name = "scrambler"

    def __init__(self) -> None:
        self.batches: list[int] = []
        self.lock = threading.Lock()

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return self.score_progressively(samples, None)

    def score_progressively(self, samples: Sequence[Sample],
                            ready: ScoresReady | None) -> list[Score]:
        with self.lock:
            self.batches.append(len(samples))
        scores = [_alone(s) for s in samples]
        texts = [str(s.completion) for s in samples]
        rng = random.Random("|".join(texts))
        order = [i for i, t in enumerate(texts) if not any(m in t for m in ("QUIET", "BOOM",
                                                                              "DOWN"))]
        rng.shuffle(order)
        while order and ready is not None:
            chunk = order[:rng.randint(1, 3)]
            order = order[len(chunk):]
            ready(chunk, [scores[i] for i in chunk])
        if any("DOWN" in t for t in texts):
            raise EngineError("model server down")
        if any("BOOM" in t for t in texts):
            raise ValueError("poison")
        return scores


POOL = ["a", "aa", "bab", "QUIET a", "MASK", "banana", "QUIET", "x" * 9]
"""Texts requests draw from: the same text in several requests of one batch (duplicates
from different clients), some never told, one an abstention."""


def _gathered(batcher: MicroBatcher, reqs: list[list[Sample]]) -> list[object]:
    """Every request queued before the collector runs (so they share batches), then each
    request's scores or its exception; a hang fails at 60 s instead of hanging the suite."""
    async def main() -> list[object]:
        results = await asyncio.wait_for(asyncio.gather(
            *(batcher.score(r) for r in reqs), return_exceptions=True), 60)
        await batcher.close()
        return results
    return asyncio.run(main())


@pytest.mark.parametrize("seed", range(12))
def test_random_mixes_in_shared_batches_get_what_each_request_gets_alone(seed: int) -> None:
    """Index mix-ups between batch-mates: scores told in random chunks and order, duplicates
    across clients, samples never told, batches split by `max_batch` and scored several at
    once: each request gets exactly its own scores, in its order, as it gets them alone."""
    rng = random.Random(seed)
    reqs = [[Sample("p", rng.choice(POOL)) for _ in range(rng.randint(1, 4))]
            for _ in range(rng.randint(2, 12))]
    reward = Scrambler()
    config = BatchingConfig(max_batch=rng.choice([1, 3, 5, 256]), max_inflight=rng.randint(1, 4))
    results = _gathered(MicroBatcher(reward, config), reqs)
    assert results == [[_alone(s) for s in r] for r in reqs]
    assert results == [reward.score(r) for r in reqs]
    if config.max_batch == 256:  # all queued first: one shared batch
        assert reward.batches[0] == sum(len(r) for r in reqs)


def test_a_poison_sample_after_partial_reports_fails_only_its_own_request() -> None:
    """BOOM raises once its batch-mates were told: the requests without it keep those
    scores (equal to alone), the duplicates of its honest neighbours too; its own request
    fails alone; nothing hangs."""
    reqs = [[Sample("p", "aa")], [Sample("p", "aa"), Sample("p", "BOOM")],
            [Sample("p", "QUIET a"), Sample("p", "bab")], [Sample("p", "MASK")]]
    results = _gathered(MicroBatcher(Scrambler()), reqs)
    assert isinstance(results[1], ValueError)
    for i in (0, 2, 3):
        assert results[i] == [_alone(s) for s in reqs[i]]
    assert results[3] == [Score(None, "timeout")]  # the abstention stays a mask


def test_infrastructure_failing_after_partial_reports_fails_the_undecided_requests() -> None:
    """DOWN (broken infrastructure) raises after the other samples were told: a request all
    of whose samples were decided keeps those scores (they are final); every request with
    an undecided sample fails with the infrastructure's error (503), none hangs."""
    reqs = [[Sample("p", "aa"), Sample("p", "bab")], [Sample("p", "DOWN")],
            [Sample("p", "QUIET a")], [Sample("p", "banana"), Sample("p", "QUIET")]]
    results = _gathered(MicroBatcher(Scrambler()), reqs)
    assert results[0] == [_alone(s) for s in reqs[0]]
    assert all(isinstance(results[i], EngineError) for i in (1, 2, 3))


class Held:
    """A `Progressive` reward that tells every sample but SLOW ones, then waits for
    `release`, then tells the rest."""

    name = "held"

    def __init__(self) -> None:
        self.release = threading.Event()
        self.waiting = threading.Event()

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return self.score_progressively(samples, None)

    def score_progressively(self, samples: Sequence[Sample],
                            ready: ScoresReady | None) -> list[Score]:
        scores = [_alone(s) for s in samples]
        slow = [i for i, s in enumerate(samples) if "SLOW" in str(s.completion)]
        fast = [i for i in range(len(samples)) if i not in slow]
        if ready is not None:
            ready(fast, [scores[i] for i in fast])
        self.waiting.set()
        self.release.wait(60)
        if ready is not None:
            ready(slow, [scores[i] for i in slow])
        return scores


def test_a_client_that_goes_away_mid_batch_changes_no_one_elses_scores() -> None:
    """A request cancelled (its client disconnected) while its batch is held, one already
    answered, one still waiting: the others get their own scores, and delivering to the
    gone request raises nothing in the event loop."""
    reward = Held()
    batcher = MicroBatcher(reward)
    problems: list[dict[str, Any]] = []

    async def main() -> list[object]:
        asyncio.get_running_loop().set_exception_handler(lambda _, ctx: problems.append(ctx))
        gone = asyncio.ensure_future(batcher.score([Sample("p", "SLOW a"), Sample("p", "a")]))
        early = asyncio.ensure_future(batcher.score([Sample("p", "aa")]))
        late = asyncio.ensure_future(batcher.score([Sample("p", "SLOW b"),
                                                    Sample("p", "SLOW a")]))
        assert await asyncio.wait_for(early, 60) == [_alone(Sample("p", "aa"))]
        gone.cancel()
        await asyncio.sleep(0)
        reward.release.set()
        got = await asyncio.wait_for(late, 60)
        await batcher.close()
        return [got, gone.cancelled()]

    got, cancelled = asyncio.run(main())
    assert got == [_alone(Sample("p", "SLOW b")), _alone(Sample("p", "SLOW a"))]
    assert cancelled and problems == []


class Broken:
    """A `Progressive` reward (10.0 for every sample) that breaks the contract as `how`
    says, then returns its scores."""

    name = "broken"

    def __init__(self, how: str) -> None:
        self.how = how

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return [Score(10.0) for _ in samples]

    def score_progressively(self, samples: Sequence[Sample],
                            ready: ScoresReady | None) -> list[Score]:
        scores = self.score(samples)
        if ready is None:
            return scores
        bad: dict[str, tuple[list[int], list[Any]]] = {
            "twice": ([0, 0], [scores[0], scores[0]]),
            "before the batch": ([-1], [Score(99.0)]),
            "past the batch": ([len(samples)], [Score(99.0)]),
            "another score": ([0], [Score(99.0)]),
            "not a Score": ([0], [99.0]),
            "fewer scores": ([0, 1], [scores[0]]),
        }
        ready(*bad[self.how])
        ready([i for i in range(1, len(samples))], scores[1:])
        return scores


BREAKS = ["twice", "before the batch", "past the batch", "another score", "not a Score",
          "fewer scores"]


@pytest.mark.parametrize("how", BREAKS)
def test_a_progressive_component_that_tells_out_of_turn_never_hands_a_wrong_score(
        how: str) -> None:
    """Hole (fixed): what a `Progressive` reward told went to the requests unchecked. A
    component of a `Mixture` that told sample 0 twice had the Mixture combine it before its
    other components had scored it (request 0 got 10.0, alone 12.0); one that told position
    -1 made the last request of the batch get its score from the wrong sample. Now a tell
    is checked as `check_scores` checks what is returned: a broken reward (ConfigError,
    every undecided request refused), never a wrong score handed to anyone."""
    from rewards.mixing import Mixture, WeightedComponent

    class Lengths:
        name = "len"

        def score(self, samples: Sequence[Sample]) -> list[Score]:
            return [Score(float(len(str(s.completion)))) for s in samples]

    mix = Mixture([WeightedComponent(Broken(how), 1.0), WeightedComponent(Lengths(), 1.0)])
    reqs = [[Sample("p", "ab")], [Sample("p", "abc")], [Sample("p", "abcd")]]
    results = _gathered(MicroBatcher(mix), reqs)
    alone = [mix.score(r) for r in reqs]
    for got, own in zip(results, alone):
        assert isinstance(got, ConfigError) or got == own, (got, own)
    assert any(isinstance(got, ConfigError) for got in results)


class Reuser:
    """A `Progressive` reward that tells one sample at a time through the same two lists,
    cleared after each tell (nothing in the protocol forbids it): the batcher hands what was
    told to its event loop, which runs later."""

    name = "reuser"

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return [_alone(s) for s in samples]

    def score_progressively(self, samples: Sequence[Sample],
                            ready: ScoresReady | None) -> list[Score]:
        scores = self.score(samples)
        indices: list[int] = [0]
        told: list[Score] = [scores[0]]
        for i in range(len(samples)):
            indices[0], told[0] = i, scores[i]
            if ready is not None:
                ready(indices, told)
            indices[0], told[0] = 0, Score(-1.0)  # the buffer cleared for the next
        return scores


def test_a_reward_that_reuses_its_lists_between_tells_gives_each_request_its_own() -> None:
    """Hole (fixed): the batcher handed the reward's own lists to its event loop, which read
    them after the reward had cleared them: request 0 got -1.0 (its score 1.25) in most
    runs. What a reward tells is now copied when it is told."""
    reqs = [[Sample("p", "a")], [Sample("p", "bb"), Sample("p", "ccc")], [Sample("p", "aaaa")]]
    assert _gathered(MicroBatcher(Reuser()), reqs) == [[_alone(s) for s in r] for r in reqs]


def test_a_progressive_reward_that_tells_nothing_still_tells_each_score_once() -> None:
    """A `Progressive` reward that forgets to tell (or tells some): every sample is told
    its returned score when it returns, once; its requests are answered, none hangs."""
    class Silent:
        name = "silent"

        def score(self, samples: Sequence[Sample]) -> list[Score]:
            return [_alone(s) for s in samples]

        def score_progressively(self, samples: Sequence[Sample],
                                ready: ScoresReady | None) -> list[Score]:
            if ready is not None and len(samples) > 1:
                ready([1], [_alone(samples[1])])
            return self.score(samples)

    calls: list[tuple[list[int], list[Score]]] = []
    samples = [Sample("p", t) for t in ("a", "bb", "ccc")]
    scores = score_progressively(Silent(), samples, lambda i, s: calls.append((list(i),
                                                                               list(s))))
    assert calls == [([1], [scores[1]]), ([0, 2], [scores[0], scores[2]])]
    reqs = [[Sample("p", "aa")], [Sample("p", "bab"), Sample("p", "a")]]
    assert _gathered(MicroBatcher(Silent()), reqs) == [[_alone(s) for s in r] for r in reqs]


class Judge:
    """A scripted judge engine (tests/math/test_judge.py's, cut down): P(yes) 0.97 for the
    pair ("three halves", 3/2) in either order, 0.02 otherwise; a prompt holding "quarters"
    makes the whole engine call raise (an engine that refuses one prompt of a batch)."""

    model = "scripted"

    def tokenize(self, prompt: Any, *, add_special_tokens: bool = True) -> list[int]:
        if prompt in ("Yes", " Yes"):
            return [1]
        if prompt in ("No", " No"):
            return [2]
        if not isinstance(prompt, str):
            prompt = "\n".join(m["content"] for m in prompt)
        return [ord(c) + 10 for c in prompt]

    def next_token_logprobs(self, prompts: Sequence[list[int]],
                            candidates: Sequence[str]) -> list[dict[str, float]]:
        import math
        rows = []
        for ids in prompts:
            text = "".join(chr(i - 10) for i in ids)
            if "quarters" in text:
                raise ValueError("the engine refused a prompt")
            p = 0.97 if "three halves" in text else 0.02
            rows.append({c: math.log(p if c.strip() == "Yes" else 1 - p) for c in candidates})
        return rows


def _judged(answer: str, gold: str = "\\frac{3}{2}") -> Sample:
    return Sample("Compute it.", f"So the answer is $\\boxed{{{answer}}}$.", reference=gold)


def _judged_reward() -> Any:
    from rewards.math import MathReward
    return MathReward(judge={}, judge_engine=Judge(), timeout=5.0, workers=2)


def test_judged_requests_in_a_shared_batch_get_what_they_get_alone() -> None:
    """The judge asks about a batch at once, then tells every score: each request gets its
    own verdict (the judge's credit, the rules' ok, wrong), equal to alone."""
    reward = _judged_reward()
    reqs = [[_judged("three halves")], [_judged("7"), _judged("3/2")],
            [_judged("three halves"), _judged("2")]]
    results = _gathered(MicroBatcher(reward), reqs)
    assert results == [reward.score(r) for r in reqs]
    assert results[0][0].reason == "judge_equal" and results[1][1].value == 1.0


def test_a_batch_mate_the_judge_engine_refuses_does_not_mask_another_requests_credit(
        ) -> None:
    """The judge reads a micro-batch in one engine call; a call that fails is read again in
    halves, so only the prompt the engine refuses abstains (`MathJudge.read`). Still shared:
    one deadline for the batch, so a batch-mate whose many answers make the engine miss it
    costs the others their reads too (a judge timeout abstains, never scores 0)."""
    reward = _judged_reward()
    honest = [_judged("three halves")]
    alone = reward.score(honest)
    assert alone[0].reason == "judge_equal"
    results = _gathered(MicroBatcher(reward), [honest, [_judged("five quarters")]])
    assert results[0] == alone
    refused, = results[1]
    assert refused.value is None, refused  # the refused prompt alone abstains


# --- the real server: math (sympy jobs told as they finish), AnswerAfter, Mixture, the
# --- domain router and per-request normalization; mixed concurrently vs each alone ------

ROWS = [  # (prompt, completion, label, domain)
    ("2+2?", "<think>4?</think> \\boxed{4}", "4", "math"),
    ("2+2?", "\\boxed{4}", "4", "math"),  # no marker: AnswerAfter's no_answer, told at once
    ("2+2?", "<think>hm</think> \\boxed{5}", "4", "math"),
    ("trig?", "<think></think> so $\\boxed{\\sin^2 x+\\cos^2 x}$", "1", "math"),  # sympy
    ("trig?", "<think></think> $\\boxed{2\\cos^2 x - 1}$", "\\cos 2x", "math"),  # sympy
    ("trig?", "<think></think> $\\boxed{x^2-1}$", "(x-1)(x+1)", "math"),  # sympy
    ("bad?", "<think></think> \\boxed{4}", "NaN", "math"),  # bad reference: abstains
    ("say yes", "yes", "yes", "text"),
    ("say yes", "no", "yes", "text"),
    ("say yes", "yes", "yes", "elsewhere"),  # unknown domain: abstains
]
MIX = """
domains:
  math:
    rewards:
      - {use: math, answer_after: "</think>"}
      - {use: "integration_rewards:brevity", name: brevity, weight: 0.5}
  text:
    rewards:
      - {use: "integration_rewards:exact", name: exact}
"""


class Gate:
    """Holds the first batch until `open` is set, so the requests sent meanwhile queue up
    and share the next batch (no timing: the test waits for the batcher to have them)."""

    name = "gate"

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.open = threading.Event()
        self.batches: list[int] = []

    def score(self, samples: Sequence[Sample]) -> list[Score]:
        return self.score_progressively(samples, None)

    def score_progressively(self, samples: Sequence[Sample],
                            ready: ScoresReady | None) -> list[Score]:
        self.batches.append(len(samples))
        self.open.wait(120)
        return score_progressively(self.inner, samples, ready)


def _body(rows: list[tuple[str, str, str, str]]) -> dict[str, list[str]]:
    return {"query": [p + c for p, c, _, _ in rows], "prompts": [p for p, *_ in rows],
            "labels": [g for _, _, g, _ in rows], "domains": [d for *_, d in rows]}


def _app(normalize: str, batching: BatchingConfig) -> Any:
    import yaml

    from integrations.server import create_app
    config = parse_config({**yaml.safe_load(MIX), "normalize": normalize})
    return create_app(config, batching=batching)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("normalize", ["none", "zscore_by_domain", "group",
                                       "group_per_component"])
def test_requests_mixed_in_one_batch_get_the_bytes_each_gets_alone(normalize: str,
                                                                    seed: int) -> None:
    """Differential: random requests (duplicates across them, sympy pairs, abstentions, no
    marker, an unknown domain) sent concurrently into one shared batch, and each sent alone
    to a fresh server without batching (so nothing is told there): every reply is the same
    bytes. (`ema_decay` is left out: its running
    statistics carry each request's scores into the next by design.)"""
    httpx = pytest.importorskip("httpx")
    pytest.importorskip("fastapi")
    rng = random.Random(f"progressive-{normalize}-{seed}")
    reqs = [[rng.choice(ROWS) for _ in range(rng.randint(1, 4))] for _ in range(10)]
    reqs[0].append(ROWS[3])  # one symbolic job for samples of two requests
    reqs[-1].insert(0, ROWS[3])

    async def alone() -> list[bytes]:  # no batcher: nothing told, the scores returned
        app = _app(normalize, BatchingConfig(enabled=False))
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            out = []
            for rows in reqs:
                reply = await client.post("/get_reward", json=_body(rows), timeout=120)
                assert reply.status_code == 200, reply.text
                out.append(reply.content)
        await app.state.batcher.close()
        return out

    async def mixed() -> tuple[list[bytes], list[int]]:
        app = _app(normalize, BatchingConfig(max_inflight=1))
        batcher = app.state.batcher
        gate = batcher._reward = Gate(batcher._reward)  # the batcher's own reward, held
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            deadline = time.monotonic() + 60  # a bound on a hang, not a timing assertion

            async def until(done: Any) -> None:
                while not done():
                    assert time.monotonic() < deadline, "the requests never reached the batcher"
                    await asyncio.sleep(0.01)
            plug = asyncio.ensure_future(client.post("/get_reward", json=_body([ROWS[7]])))
            await until(lambda: gate.batches)  # the plug's batch is held
            sent = [asyncio.ensure_future(client.post("/get_reward", json=_body(rows),
                                                      timeout=120)) for rows in reqs]
            await until(lambda: batcher.stats.requests == len(reqs) + 1)
            gate.open.set()
            assert (await plug).status_code == 200
            replies = await asyncio.gather(*sent)
        await batcher.close()
        assert all(r.status_code == 200 for r in replies), [r.text for r in replies]
        return [r.content for r in replies], gate.batches

    expected = asyncio.run(alone())
    got, batches = asyncio.run(mixed())
    assert batches == [1, sum(len(r) for r in reqs)]  # the plug, then every request at once
    assert got == expected
    assert any(json.loads(b)["reasons"].count("ok") for b in got)  # something scored


# --- the plain starlette routes ------------------------------------------------------------

CONFIG = {"domains": {"math": {"rewards": ["math"]}}}


def _client() -> Any:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from integrations.server import create_app
    return TestClient(create_app(parse_config(CONFIG)), raise_server_exceptions=False)


def test_each_protocol_route_answers_its_own_method_only() -> None:
    """As the FastAPI routes did: any other method (HEAD included: starlette adds it to a
    GET route) is a 405 naming the allowed one, in JSON, never scored or read."""
    from integrations.server import ROUTES
    with _client() as client:
        for route in ROUTES:
            method, path = route.split(" ", 1)
            if path == "/health":
                continue
            for other in ("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"):
                if other == method:
                    continue
                reply = client.request(other, path, content=b"{}")
                assert reply.status_code == 405, (other, path, reply.text)
                assert reply.headers["allow"] == method, (other, path)
                if other != "HEAD":
                    assert reply.json() == {"detail": "Method Not Allowed"}


def test_a_head_of_the_roll_result_does_not_read_the_result_away() -> None:
    """Hole (fixed): starlette added HEAD to the plain GET route of /roll/task_result, and a
    HEAD ran the endpoint, which forgets a finished result once read (ROLL reads it once):
    the result was dropped with the body HEAD does not carry, and ROLL's poll then found no
    such task. Now a HEAD is a 405 and the GET still gets the result."""
    from integrations.roll import RESULT_ROUTE, RUNNING, SUBMIT_ROUTE
    with _client() as client:
        task = client.post(SUBMIT_ROUTE, json={"prompt": "q", "response": "\\boxed{4}",
                                               "reward_info": {"ground_truth": "4"}}).json()
        query = {"reward_request_id": task["reward_request_id"]}
        tasks = client.app.state.roll_tasks
        deadline = time.monotonic() + 60
        while tasks.held[query["reward_request_id"]].reply is None:  # finished, unread
            assert time.monotonic() < deadline
            time.sleep(0.02)
        head = client.head(RESULT_ROUTE, params=query)
        result = client.get(RESULT_ROUTE, params=query).json()
        assert result["errcode"] != RUNNING and result["reward_score"] == 1.0
        assert head.status_code == 405


@pytest.mark.parametrize(("path", "body"), [
    ("/get_reward", {"query": ["\ud800 \\boxed{4}"], "labels": ["\ud800"],
                     "prompts": ["\udfff"]}),
    ("/verify", {"responses_create_params": {"input": [{"role": "user", "content": "\ud800"}]},
                 "response": {"output": [{"type": "message", "content": [
                     {"type": "output_text", "text": "\ud800 \\boxed{4}"}]}]},
                 "expected_answer": "4"}),
    ("/slime/reward", {"prompt": "\ud800", "response": "\ud800 \\boxed{4}", "label": "4"}),
    ("/roll/submit_task", {"prompt": "\ud800", "response": "\\boxed{4}\ud800",
                           "reward_info": {"ground_truth": "4"}}),
])
def test_lone_surrogates_on_the_plain_routes_are_scored_never_a_500(path: str,
                                                                     body: Any) -> None:
    """The model's text with a lone surrogate (JSON's `\\ud800`) is data on every plain
    route: scored (or its reply echoed with escapes), never a 500."""
    with _client() as client:
        raw = json.dumps(body).encode()  # ensure_ascii: the surrogates travel as \\u escapes
        reply = client.post(path, content=raw, headers={"content-type": "application/json"})
        assert reply.status_code == 200, reply.text


def test_one_clients_unknown_domain_rows_do_not_refuse_another_clients_request() -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from integrations.server import create_app
    app = create_app(parse_config({"domains": {"math": {"rewards": ["math"]},
                                               "text": {"rewards": ["math"]}}}))
    unknown = {"query": ["\\boxed{4}"] * 40, "labels": ["4"] * 40, "domains": ["nope"] * 40}
    healthy = {"query": ["\\boxed{4}"], "labels": ["4"], "domains": ["math"]}

    async def from_peer(scope: Any, receive: Any, send: Any) -> None:
        """The app, each request from the transport peer its `x-peer` header names (one
        event loop for both clients: a second TestClient would run its own)."""
        if scope["type"] == "http":
            peer = dict(scope["headers"]).get(b"x-peer", b"10.0.0.1").decode()
            scope = {**scope, "client": (peer, 4000)}
        await app(scope, receive, send)

    bad, good = {"x-peer": "10.0.0.1"}, {"x-peer": "10.0.0.2"}  # two addresses: two clients
    with TestClient(from_peer) as client:
        first = client.post("/get_reward", json=unknown, headers=bad)
        assert first.status_code == 422 and "nope" in first.text, first.text
        # the run rule still holds for the client whose rows all abstained ...
        again = client.post("/get_reward", json=healthy, headers=bad)
        assert again.status_code == 422, again.text
        # ... and is its own: another client's request is scored
        honest = client.post("/get_reward", json=healthy, headers=good)
        assert honest.status_code == 200, honest.text
        assert honest.json()["rewards"] == [1.0]
        assert client.get("/health").json()["abstained"]["rows"] == 42  # all counted
