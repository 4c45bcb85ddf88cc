"""The same 1,000 math samples through every protocol give the same rewards, bit for bit, as
scoring them locally; each abstention arrives as its protocol's own mask:

| protocol | reward read as | an abstention |
|---|---|---|
| OpenRLHF `/get_reward` | `rewards[i]` | `scores[i]` = MASK_SCORE, `reward/abstained` 1 |
| NeMo Gym `/verify` | `reward` | `mask_sample: true` |
| slime `remote_rm` / `remote_reward` | the reply / its return | `remove_sample = True` |
| ROLL submit and poll | `reward_score` | `reward_score: null` |
| OpenEnv `/ws` (python_tool, one answer turn) | `final_reward` | `final_reward: null` |
| ORS `act` tool (openreward SDK; same episodes) | `metadata["final_reward"]` | `final_reward: null` |

Each over real sockets on 127.0.0.1, many requests at once (the server micro-batches them)."""

from __future__ import annotations

import asyncio
import random
import struct
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
pytest.importorskip("aiohttp")
pytest.importorskip("requests")
pytest.importorskip("openai")

from protocol_clients import (  # type: ignore[import-not-found]
    nemo_gym_read,
    nemo_gym_verify_body,
    roll_get_reward,
    slime_remote_rm,
)
from protocol_helpers import serving  # type: ignore[import-not-found]

from integrations import roll, slime
from integrations.env_server import create_env_app
from integrations.openrlhf import MASK_SCORE
from integrations.server import create_app
from rewards.build import build_reward
from rewards.config import parse_config
from rewards.envs import EnvConfig
from rewards.options import load_options
from rewards.scoring import score_batch
from rewards.types import Sample

N = 1000
CONFIG = {"domains": {"math": {"rewards": ["math"]}}}


def rows(n: int, seed: int = 0) -> list[tuple[str, str, str | None]]:
    """(prompt, completion, gold) rows: right and wrong answers in the formats models write
    (boxed, "the answer is", fractions, decimals, LaTeX, none at all), and one in twenty
    without a gold (the reward abstains: bad_reference)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        a, b = rng.randint(1, 99), rng.randint(1, 99)
        right = a + b
        answer = right if rng.random() < 0.5 else right + rng.choice([-2, -1, 1, 10])
        completion = rng.choice([
            f"Adding them gives \\boxed{{{answer}}}.", f"The answer is {answer}.",
            f"$\\frac{{{2 * answer}}}{{2}}$", f"So it is {answer}.0 in the end: \\boxed{{{answer}.0}}",
            f"We get ${answer}$", "I am not sure.", f"\\boxed{{{answer}}} or \\boxed{{{answer + 1}}}"])
        gold = None if i % 20 == 7 else str(right)
        out.append((f"Problem {i}: what is {a} + {b}?", completion, gold))
    return out


def bits(value: float | None) -> bytes | None:
    return None if value is None else struct.pack("<d", value)


def test_every_protocol_gives_the_local_rewards_bit_for_bit_and_masks_its_own_way():
    data = rows(N)
    reward = build_reward(parse_config(CONFIG))
    local = score_batch(reward, [Sample(p, c, reference=g, domain="math")
                                 for p, c, g in data]).scores
    expected = [bits(s.value) for s in local]
    assert 0 < sum(v is None for v in expected) < N  # abstentions, and scored rows
    assert {s.value for s in local} >= {0.0, 1.0}  # right and wrong answers both present

    with serving(create_app(parse_config(CONFIG))) as url:
        assert _openrlhf(url, data) == expected
        assert _nemo_gym(url, data) == expected
        assert _slime(url, data) == expected
        assert _slime_custom(url, data) == expected
        assert _roll(url, data) == expected
    env = load_options(EnvConfig, {"use": "python_tool", "max_turns": 1}, where="t")
    with serving(create_env_app(env, build_reward(parse_config(CONFIG)))) as url:
        assert _openenv(url, data) == expected
        if _has("openreward"):
            assert _ors(url, data) == expected


def _has(module):
    import importlib.util

    return importlib.util.find_spec(module) is not None


def _ors(url, data):
    """Each row one session of the openreward SDK's own client, its task sent as `task_spec`,
    its completion the `act` tool's input; the reward read from the tool's output."""
    import os

    os.environ.setdefault("OPENREWARD_DISABLE_UPDATE_CHECK", "1")
    from openreward import AsyncOpenReward
    from openreward.api.environments.types import Task

    async def go():
        client = AsyncOpenReward(api_key="", base_url=url)
        env = client.environments.get("python_tool", base_url=url)

        async def one(p, c, g):
            task = Task(server_name="python_tool", environment_name="python_tool",
                        task_spec={"prompt": p, "reference": g, "domain": "math"},
                        namespace=None)
            async with env.session(task=task) as session:
                out = await session.call_tool("act", {"text": c})
                assert out.finished
                return bits(out.metadata["final_reward"])
        try:
            return await _gather([one(*row) for row in data], limit=16)
        finally:
            await client.environments.aclose()
    return asyncio.run(go())


def _openrlhf(url, data):
    out = []
    with httpx.Client(timeout=120) as client:
        for start in range(0, len(data), 100):
            chunk = data[start:start + 100]
            reply = client.post(url + "/get_reward", json={
                "query": [p + c for p, c, _ in chunk], "prompts": [p for p, _, _ in chunk],
                "labels": [g for _, _, g in chunk]}).json()
            for r, s, masked in zip(reply["rewards"], reply["scores"],
                                    reply["extra_logs"]["reward/abstained"]):
                assert (s == MASK_SCORE) == (masked == 1.0)
                out.append(None if masked else bits(r))
    return out


async def _gather(calls, limit=32):
    gate = asyncio.Semaphore(limit)

    async def one(call):
        async with gate:
            return await call

    return await asyncio.gather(*(one(c) for c in calls))


def _nemo_gym(url, data):
    async def go():
        async with httpx.AsyncClient(timeout=120) as client:
            async def one(p, c, g):
                reward, masked = nemo_gym_read(
                    (await client.post(url + "/verify",
                                       json=nemo_gym_verify_body(p, c, g))).json())
                return None if masked else bits(reward)
            return await _gather([one(*row) for row in data])
    return asyncio.run(go())


def _slime(url, data):
    """Plain `remote_rm` has no mask: the abstained rows are the abstain value (0.0) there,
    so they are compared as such and the mask is checked through `remote_reward`."""
    import aiohttp

    async def go():
        async with aiohttp.ClientSession() as session:
            return await _gather([slime_remote_rm(url + slime.ROUTE, p, c, g, session)
                                  for p, c, g in data])
    got = asyncio.run(go())
    return [None if g is None and r == 0.0 else bits(r) for (_, _, g), r in zip(data, got)]


def _slime_custom(url, data):
    samples = [SimpleNamespace(prompt=p, response=c, label=g, remove_sample=False)
               for p, c, g in data]
    got = asyncio.run(slime.remote_reward(SimpleNamespace(rm_url=url + slime.ROUTE), samples))
    return [None if s.remove_sample else bits(r) for s, r in zip(samples, got)]


def _roll(url, data):
    import requests

    with requests.Session() as session, ThreadPoolExecutor(16) as pool:
        got = list(pool.map(lambda row: roll_get_reward(
            url + roll.SUBMIT_ROUTE, url + roll.RESULT_ROUTE, row[0], row[1],
            {"ground_truth": row[2]} if row[2] is not None else {}, session=session), data))
    return [bits(r) for r in got]


def _openenv(url, data):
    from openenv.core.generic_client import GenericEnvClient

    async def worker(part):
        out = []
        async with GenericEnvClient(base_url=url) as env:
            for i, (p, c, g) in part:
                await env.reset(sample={"prompt": p, "reference": g, "domain": "math"})
                result = await env.step({"text": c})
                assert result.done
                out.append((i, bits(result.observation["final_reward"])))
        return out

    async def go():
        parts = [list(enumerate(data))[k::8] for k in range(8)]
        return [x for part in await asyncio.gather(*(worker(p) for p in parts)) for x in part]
    return [b for _, b in sorted(asyncio.run(go()))]
