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
from rewards.errors import ConfigError

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
    tasks = Tasks(max_tasks=2, keep_s=0.0, max_bytes=100)  # one task per client
    a, b = tasks.add(10, "192.0.2.1"), tasks.add(10, "192.0.2.2")
    assert a and b and tasks.add(10, "192.0.2.3") is None  # both running
    tasks.finish(a, {"errcode": 0, "reward_score": 1.0})
    time.sleep(0.01)  # past keep_s
    c = tasks.add(10, "192.0.2.3")
    assert c and a not in tasks.held and b in tasks.held
    assert tasks.read(a)["errcode"] == 3
    big = Tasks(max_tasks=10, keep_s=600.0, max_bytes=100)
    first = big.add(90)
    assert first and big.add(20) is None  # 110 bytes of running tasks
    big.finish(first, {"errcode": 0})
    assert big.add(500)  # alone, any body that passed the body bound runs


def test_one_client_holds_at_most_its_share_of_the_tasks():
    """By default one client holds half the table: past it, its own oldest finished task
    makes room (a fresh one of another client's never does), else it is busy (None) while
    another client still finds room; `per_client` raises the share up to the whole table."""
    tasks = Tasks(max_tasks=4, keep_s=600.0, max_bytes=1000)
    mine = [tasks.add(10, "loopback") for _ in range(2)]
    assert all(mine) and tasks.add(10, "loopback") is None  # its two running: busy
    theirs = [tasks.add(10, "192.0.2.7") for _ in range(2)]
    assert all(theirs) and tasks.add(10, "192.0.2.7") is None
    for task_id in theirs:  # finished, unread, fresh: only their own client may drop them
        tasks.finish(task_id, {"errcode": 0, "reward_score": 1.0})
    assert tasks.add(10, "loopback") is None
    third = tasks.add(10, "192.0.2.7")
    assert third and theirs[0] not in tasks.held and theirs[1] in tasks.held
    assert tasks.shares.count == {"loopback": 2, "192.0.2.7": 2}
    assert tasks.read(theirs[1])["errcode"] == 0 and tasks.shares.count["192.0.2.7"] == 1
    one = Tasks(max_tasks=4, keep_s=600.0, max_bytes=1000, per_client=4)
    assert all(one.add(10, "loopback") for _ in range(4))
    assert one.add(10, "loopback") is None
    for bad in (0, 5, True):
        with pytest.raises(ConfigError, match="max_tasks_per_client"):
            Tasks(max_tasks=4, keep_s=600.0, max_bytes=1000, per_client=bad)


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
