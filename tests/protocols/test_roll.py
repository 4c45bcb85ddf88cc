"""ROLL: `rewards serve`'s submit and poll routes driven with the calls ROLL's
`RewardSystemHandler` makes (recorded: ROLL needs ray, torch and its own tree;
`protocol_clients`), on 127.0.0.1; tasks are the server's and bounded."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("fastapi")
requests = pytest.importorskip("requests")

from protocol_clients import roll_get_reward  # type: ignore[import-not-found]
from protocol_helpers import serving  # type: ignore[import-not-found]

from integrations.roll import RESULT_ROUTE, SUBMIT_ROUTE, Tasks
from integrations.server import create_app
from rewards.config import parse_config

CONFIG = {"domains": {"math": {"rewards": ["math"]}}}


def app(**options):
    return create_app(parse_config(CONFIG), **options)


def test_submit_then_poll_gives_roll_its_reward_and_none_for_an_abstention():
    """ground_truth in reward_info (ROLL's own adapter), or a mapping with a reference and a
    domain: 1.0 right, 0.0 wrong; an abstention is a null `reward_score` (ROLL's no reward),
    or the abstain value under `abstain="zero"`; a result is read once."""
    with serving(app()) as url:
        submit, result = url + SUBMIT_ROUTE, url + RESULT_ROUTE
        assert roll_get_reward(submit, result, "2+2?", "\\boxed{4}",
                               {"ground_truth": "4"}) == 1.0
        assert roll_get_reward(submit, result, "2+2?", "\\boxed{5}",
                               {"reference": "4", "domain": "math"}) == 0.0
        assert roll_get_reward(submit, result, "2+2?", "\\boxed{4}", {}) is None
        task = requests.post(submit, json={"prompt": "q", "response": "\\boxed{4}",
                                           "reward_info": {"ground_truth": "4"}}).json()
        body = {"reward_request_id": task["reward_request_id"]}
        deadline = time.monotonic() + 60
        while (first := requests.get(result, json=body).json())["errcode"] == 1:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert first["reward_score"] == 1.0 and first["dimention_reward_score"] == {
            "math": {"score": 1.0}}
        assert requests.get(result, json=body).json()["errcode"] == 3  # read once
    with serving(app(abstain="zero", abstain_value=-1.0)) as url:
        assert roll_get_reward(url + SUBMIT_ROUTE, url + RESULT_ROUTE, "q", "\\boxed{4}",
                               {}) == -1.0


def test_a_client_cannot_name_or_read_anothers_task():
    """The server picks each id (a submit's own `reward_request_id` is ignored); a made-up
    id is errcode 3, never another's result; a task id is read with it only."""
    with serving(app()) as url:
        submitted = requests.post(url + SUBMIT_ROUTE, json={
            "prompt": "q", "response": "\\boxed{4}", "reward_info": {"ground_truth": "4"},
            "reward_request_id": "mine"}).json()
        assert submitted["errcode"] == 0 and submitted["reward_request_id"] != "mine"
        assert len(submitted["reward_request_id"]) >= 24
        for guess in ("mine", "", None, 0, ["x"]):
            out = requests.get(url + RESULT_ROUTE, json={"reward_request_id": guess}).json()
            assert out["errcode"] == 3


def test_tasks_are_bounded_and_running_ones_never_give_way():
    """At most `max_tasks`; a finished task unread past `keep_s` makes room, a running one
    never does; the bytes of running tasks are bounded (one always runs)."""
    tasks = Tasks(max_tasks=2, keep_s=0.0, max_bytes=100)
    a, b = tasks.add(10), tasks.add(10)
    assert a and b and tasks.add(10) is None  # both running
    tasks.finish(a, {"errcode": 0, "reward_score": 1.0})
    c = tasks.add(10)
    assert c and a not in tasks.held and b in tasks.held
    assert tasks.read(a)["errcode"] == 3
    big = Tasks(max_tasks=10, keep_s=600.0, max_bytes=100)
    first = big.add(90)
    assert first and big.add(20) is None  # 110 bytes of running tasks
    big.finish(first, {"errcode": 0})
    assert big.add(500)  # alone, any body that passed the body bound runs


def test_bad_submits_are_named_the_token_rides_in_the_urls():
    """ROLL sends its key as XRL-Authorization, which ours do not read: the URLs carry
    `?access_token=`; without it 401. A submit without a response is a 422 naming it."""
    with serving(app(token="roll-token")) as url:
        q = "?access_token=roll-token"
        with pytest.raises(requests.HTTPError, match="401"):
            roll_get_reward(url + SUBMIT_ROUTE, url + RESULT_ROUTE, "q", "4", {})
        assert roll_get_reward(url + SUBMIT_ROUTE + q, url + RESULT_ROUTE + q, "q",
                               "\\boxed{4}", {"ground_truth": "4"}) == 1.0
        bad = requests.post(url + SUBMIT_ROUTE + q, json={"prompt": "q"})
        assert bad.status_code == 422 and bad.json()["field"] == "response"
