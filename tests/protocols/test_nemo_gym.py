"""NeMo Gym: `rewards serve` as a resources server (`/seed_session`, `/verify`), driven with
the request NeMo Gym sends and its reply read as NeMo Gym reads it (recorded shapes: the
package needs Python >= 3.12; `protocol_clients`), on 127.0.0.1."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
pytest.importorskip("openai")

from protocol_clients import nemo_gym_read, nemo_gym_verify_body  # type: ignore[import-not-found]
from protocol_helpers import serving  # type: ignore[import-not-found]

from integrations.server import create_app
from rewards.config import parse_config

CONFIG = {"domains": {"math": {"rewards": ["math"]}}}


def app(**options):
    return create_app(parse_config(CONFIG), **options)


def test_seed_session_then_verify_with_reward_components_and_the_mask():
    """A right answer 1.0, a wrong one 0.0 (the reasoning item's `\\boxed{0}` is not the
    completion), each with `reward_components` and the request echoed; an abstention
    (no gold) is `mask_sample: true`; under `abstain="zero"` it is not masked."""
    with serving(app()) as url:
        assert httpx.post(url + "/seed_session", json={}).json() == {}
        rows = [("What is 2+2?", "So \\boxed{4}.", "4", (1.0, False)),
                ("What is 2+2?", "So \\boxed{5}.", "4", (0.0, False)),
                ("What is 2+2?", "So \\boxed{4}.", None, (0.0, True))]
        for prompt, completion, gold, expected in rows:
            body = nemo_gym_verify_body(prompt, completion, gold)
            reply = httpx.post(url + "/verify", json=body)
            assert reply.status_code == 200, reply.text
            out = reply.json()
            assert nemo_gym_read(out) == expected
            assert out["response"] == body["response"]  # the request echoed, as NeMo Gym's
            assert out["expected_answer"] == gold
            if not expected[1]:
                assert out["reward_components"] == {"math": expected[0]}
            else:
                assert out["reason"].startswith("bad_reference")
    with serving(app(abstain="zero", abstain_value=-1.0)) as url:
        out = httpx.post(url + "/verify", json=nemo_gym_verify_body("q", "4", None)).json()
        assert nemo_gym_read(out) == (-1.0, False)


def test_bad_verify_bodies_are_named_and_bounded():
    """A body without the response output or the input is a 422 naming the field; one that
    is not JSON a 400; the body bounds of every route hold here (values: 413)."""
    with serving(app()) as url:
        body = nemo_gym_verify_body("q", "4", "4")
        no_output = {**body, "response": {"id": "x"}}
        reply = httpx.post(url + "/verify", json=no_output)
        assert reply.status_code == 422 and reply.json()["field"] == "response.output"
        no_input = {**body, "responses_create_params": {}}
        reply = httpx.post(url + "/verify", json=no_input)
        assert reply.status_code == 422
        assert reply.json()["field"] == "responses_create_params.input"
        assert httpx.post(url + "/verify", content=b"{nope").status_code == 400
        many = httpx.post(url + "/verify", json={**body, "pad": [0] * 100_001})
        assert many.status_code == 413


def test_the_token_guards_the_nemo_gym_routes():
    with serving(app(token="gym-token")) as url:
        body = nemo_gym_verify_body("q", "\\boxed{4}", "4")
        assert httpx.post(url + "/verify", json=body).status_code == 401
        assert httpx.post(url + "/seed_session", json={}).status_code == 401
        ok = httpx.post(url + "/verify", json=body,
                        headers={"Authorization": "Bearer gym-token"})
        assert nemo_gym_read(ok.json()) == (1.0, False)
