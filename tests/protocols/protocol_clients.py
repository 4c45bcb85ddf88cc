"""The peers' clients, for the protocols whose package does not install here: each sends the
request its framework sends and reads the reply as its framework reads it, recorded from
the framework's own code (the commit named per client). Written here, not copied: the
conformance tests drive `rewards serve` with them, and the cross-protocol test compares
what each hands its trainer.

- NeMo Gym (NVIDIA-NeMo/Gym 07d6b0d, `nemo_gym/base_resources_server.py`): needs Python
  >= 3.12 (this machine has 3.11). The response is built and validated with `openai`'s own
  `Response` model, the type NeMo Gym's `NeMoGymResponse` extends.
- slime (THUDM/slime 624b824, `slime/rollout/rm_hub/__init__.py::remote_rm`): not on PyPI.
  aiohttp, as slime posts.
- ROLL (alibaba/ROLL 8eb27cc, `roll/pipeline/rlvr/rewards/remote_reward_system_worker.py::
  RewardSystemHandler`): needs ray, torch and its own tree. `requests`, as ROLL calls.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any


def nemo_gym_verify_body(prompt: str, completion: str, reference: Any) -> dict[str, Any]:
    """A `/verify` body as NeMo Gym sends it: `responses_create_params` (its input as
    Responses API messages) and `response` (an OpenAI `Response`, dumped as JSON), plus the
    resources server's own field for the gold (`expected_answer`, as its math servers)."""
    from openai.types.responses import Response

    response = Response.model_validate({
        "id": "resp_0", "created_at": 0.0, "model": "policy", "object": "response",
        "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
        "output": [
            {"id": "rs_0", "type": "reasoning", "summary": [
                {"type": "summary_text", "text": "thinking about \\boxed{0}"}]},
            {"id": "msg_0", "type": "message", "role": "assistant", "status": "completed",
             "content": [{"type": "output_text", "text": completion, "annotations": []}]}]})
    return {"responses_create_params": {"input": [
                {"role": "user", "content": prompt, "type": "message"}]},
            "response": response.model_dump(mode="json"),
            "expected_answer": reference}


def nemo_gym_read(reply: dict[str, Any]) -> tuple[float, bool]:
    """What NeMo Gym hands its trainer: (`reward`, `mask_sample`), validated as its
    `BaseMultiRewardVerifyResponse` (reward: float, reward_components: {str: float})."""
    from pydantic import BaseModel, ConfigDict

    class VerifyResponse(BaseModel):  # the fields NeMo Gym's base response declares
        model_config = ConfigDict(extra="allow")
        responses_create_params: dict[str, Any]
        response: dict[str, Any]
        reward: float
        reward_components: dict[str, float]

    parsed = VerifyResponse.model_validate(reply)
    return parsed.reward, bool(reply.get("mask_sample", False))


async def slime_remote_rm(url: str, prompt: Any, response: str, label: Any,
                          session: Any = None) -> Any:
    """slime's `remote_rm`: POST {"prompt", "response", "label"}, raise on a non-2xx
    status, the reply's JSON is the reward."""
    import aiohttp

    payload = {"prompt": prompt, "response": response, "label": label}
    own = session is None
    session = session or aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=120))
    try:
        async with session.post(url, json=payload) as resp:
            resp.raise_for_status()
            return await resp.json()
    finally:
        if own:
            await session.close()


def roll_get_reward(submit_url: str, result_url: str, prompt: str, response: str,
                    reward_info: dict[str, Any], *, session: Any = None,
                    retry_delay: float = 0.05, timeout_s: float = 60.0) -> Any:
    """ROLL's `RewardSystemHandler.get_reward`: submit (its payload and headers, errcode 0
    and a `reward_request_id` required), then GET the result with a JSON body until
    errcode 0 (1: running, poll again); returns `reward_score` (None: ROLL's no reward)."""
    import requests

    http = session or requests
    headers = {"Content-Type": "application/json", "XRL-Authorization": "Bearer roll-key",
               "BusinessType": "online"}
    payload = {"priority": 1, "project_id": "p", "experiment_id": "e", "global_step": 0,
               "data_id": "d", "rollout_id": "r", "prompt": prompt, "response": response,
               "reward_info": reward_info, "reward_manager": [], "timeout": 300}
    submitted = http.post(submit_url, headers=headers, json=payload, timeout=20)
    submitted.raise_for_status()
    out = submitted.json()
    assert int(out.get("errcode", -1)) == 0, out
    request_id = out["reward_request_id"]
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        polled = http.get(result_url, headers=headers,
                          json={"reward_request_id": request_id}, timeout=20)
        polled.raise_for_status()
        result = polled.json()
        if int(result.get("errcode", -1)) == 0:
            for value in (result.get("dimention_reward_score") or {}).values():
                value.get("debug_info", {})  # as ROLL reads each dimension's timings
            return result.get("reward_score")
        assert int(result.get("errcode", -1)) == 1, result
        time.sleep(retry_delay)
    raise TimeoutError(f"no result for {request_id}")


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)
