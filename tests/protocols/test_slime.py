"""slime: `rewards serve`'s `/slime/reward` driven by slime's `remote_rm` request (recorded:
slime is not on PyPI; `protocol_clients`), and `integrations.slime.remote_reward` (the
`--custom-rm-path` function) setting slime's own mask, on 127.0.0.1."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("aiohttp")
httpx = pytest.importorskip("httpx")

from protocol_clients import run, slime_remote_rm  # type: ignore[import-not-found]
from protocol_helpers import serving  # type: ignore[import-not-found]

from integrations.server import create_app
from integrations.slime import ROUTE, remote_reward
from rewards.config import parse_config

CONFIG = {"domains": {"math": {"rewards": ["math"]}}}


@dataclass
class SlimeSample:
    """The fields of slime's `Sample` (`slime/utils/types.py`) the reward path reads and
    sets."""

    prompt: str | list[dict[str, str]] = ""
    response: str = ""
    label: Any = None
    reward: Any = None
    remove_sample: bool = False
    metadata: dict[str, Any] = field(default_factory=dict)


def app(**options):
    return create_app(parse_config(CONFIG), **options)


def test_remote_rm_gets_the_reward_as_the_reply():
    """slime takes the reply's JSON as the reward: a number (1.0 right, 0.0 wrong; a chat
    prompt and a label mapping with a domain read as every protocol reads them); an
    abstention is the abstain value, since the plain reply has no mask."""
    with serving(app(abstain_value=0.0)) as url:
        async def rewards():
            return await asyncio.gather(
                slime_remote_rm(url + ROUTE, "What is 2+2?", "\\boxed{4}", "4"),
                slime_remote_rm(url + ROUTE, [{"role": "user", "content": "2+2?"}],
                                "\\boxed{5}", {"reference": "4", "domain": "math"}),
                slime_remote_rm(url + ROUTE, "What is 2+2?", "\\boxed{4}", None))
        assert run(rewards()) == [1.0, 0.0, 0.0]


def test_the_custom_rm_function_sets_slimes_mask_one_sample_or_a_batch():
    """`remote_reward(args, sample)` as slime's `async_rm` calls it, and `(args, samples)` as
    `batched_async_rm` does: the rewards, and `remove_sample` set only on the abstention;
    under `abstain="zero"` nothing is removed."""
    with serving(app()) as url:
        args = SimpleNamespace(rm_url=url + ROUTE)
        one = SlimeSample("What is 2+2?", "\\boxed{4}", "4")
        assert run(remote_reward(args, one)) == 1.0 and not one.remove_sample
        batch = [SlimeSample("q", "\\boxed{4}", "4"), SlimeSample("q", "\\boxed{4}", None),
                 SlimeSample("q", "\\boxed{3}", "4")]
        assert run(remote_reward(args, batch)) == [1.0, 0.0, 0.0]
        assert [s.remove_sample for s in batch] == [False, True, False]
    with serving(app(abstain="zero", abstain_value=-1.0)) as url:
        kept = SlimeSample("q", "\\boxed{4}", None)
        assert run(remote_reward(SimpleNamespace(rm_url=url + ROUTE), kept)) == -1.0
        assert not kept.remove_sample


def test_bad_requests_are_named_and_the_token_rides_in_rm_url():
    """A request without a response is a 422 naming it (slime's `raise_for_status` raises);
    with a token, `--rm-url` carries it as `?access_token=`; without it 401."""
    with serving(app(token="slime-token")) as url:
        with pytest.raises(Exception, match="401"):
            run(slime_remote_rm(url + ROUTE, "q", "\\boxed{4}", "4"))
        guarded = f"{url}{ROUTE}?access_token=slime-token"
        assert run(slime_remote_rm(guarded, "q", "\\boxed{4}", "4")) == 1.0
        bad = httpx.post(guarded, json={"prompt": "q", "label": "4"})
        assert bad.status_code == 422 and bad.json()["field"] == "response"
        sample = SlimeSample("q", "\\boxed{4}", "4")
        assert run(remote_reward(SimpleNamespace(rm_url=guarded), sample)) == 1.0
