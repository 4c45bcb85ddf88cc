"""slime: its remote reward (`--rm-type remote_rm --rm-url URL`) served by `rewards serve`, and
a `--custom-rm-path` function that carries abstentions as slime's own mask.

slime's `remote_rm` (`slime/rollout/rm_hub/__init__.py`) POSTs, one sample per request,

    {"prompt": sample.prompt, "response": sample.response, "label": sample.label}

to `--rm-url` and takes the reply's JSON as the sample's reward (with `--reward-key K`, the
reward is the reply's `K`). So `POST /slime/reward` answers a bare JSON number. slime has no
field for "leave this sample out" in that reply: its mask is `Sample.remove_sample`, which
only code running in slime can set. `remote_reward` below is that code: point
`--custom-rm-path integrations.slime.remote_reward` and `--rm-url` at the same route; it
sends the same request with `"detail": true`, gets `{"reward", "abstained", "reason",
"parts"}`, and sets `remove_sample` on a sample that abstained (`abstain="mask"`). Through
plain `remote_rm`, an abstention is the abstain value (0.0 unless set).

The label is read by the one label rule (`integrations._common.labelled_sample`): the
reference, or a mapping with `reference` (and `domain`)."""

from __future__ import annotations

import asyncio
from typing import Any

from integrations._common import ResolvedReward, labelled_sample, prompt_and_response
from rewards.deps import require
from rewards.errors import EngineError
from rewards.types import Sample, Score

__all__ = ["CONCURRENCY", "ROUTE", "remote_reward", "reward_reply", "sample_from_request"]

ROUTE = "/slime/reward"
"""The route `rewards serve` answers slime's remote reward on."""
CONCURRENCY = 64
"""Requests `remote_reward` has in flight at once for a batch of samples."""


def sample_from_request(resolved: ResolvedReward, body: Any) -> tuple[Sample, bool]:
    """(the `Sample`, whether the detailed reply was asked for) of a slime request;
    `InputError` naming the field."""
    prompt, response = prompt_and_response(body)
    return labelled_sample(resolved, prompt, response, body.get("label")), \
        body.get("detail") is True


def reward_reply(score: Score, *, abstain_value: float, detail: bool, mask: bool) -> Any:
    """The reply: the reward as a bare number (what `remote_rm` takes as the reward), or,
    when `detail`, `{"reward", "abstained", "reason", "parts"}` for `remote_reward`
    (`abstained`: the sample abstained and the server masks abstentions)."""
    reward = abstain_value if score.value is None else float(score.value)
    if not detail:
        return reward
    return {"reward": reward, "abstained": score.value is None and mask, "reason": score.reason,
            "parts": {k: float(v) for k, v in score.parts.items() if isinstance(v, (int, float))}}


async def remote_reward(args: Any, sample: Any, **kwargs: Any) -> Any:
    """slime's `--custom-rm-path` function: the reward of `sample` (or of each of a list of
    samples, as slime's batched call passes them) from the `rewards serve` at
    `args.rm_url`; a sample whose reward abstained gets `remove_sample = True`, slime's own
    mask. `args.rm_url` may carry the token as `?access_token=`."""
    httpx = require("httpx", extra="server", feature="slime's remote reward client")
    async with httpx.AsyncClient(timeout=120.0) as client:
        if not isinstance(sample, list):
            return await _one(client, args.rm_url, sample)
        gate = asyncio.Semaphore(CONCURRENCY)  # httpx's pool slows down past its size
        return list(await asyncio.gather(*(_one(client, args.rm_url, s, gate)
                                           for s in sample)))


async def _one(client: Any, url: str, sample: Any,
               gate: asyncio.Semaphore | None = None) -> float:
    if gate is not None:
        async with gate:
            return await _one(client, url, sample)
    payload = {"prompt": sample.prompt, "response": sample.response, "label": sample.label,
               "detail": True}
    reply = await client.post(url, json=payload)
    if reply.status_code != 200:
        raise EngineError(f"reward server {url}: {reply.status_code} {reply.text[:300]}")
    out = reply.json()
    if out["abstained"]:
        sample.remove_sample = True
    return float(out["reward"])
