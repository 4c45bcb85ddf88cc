"""ORS (the Open Reward Standard) for the environment server (`integrations.env_server`):
the routes and shapes the `openreward` SDK's client speaks (`openreward.api.environments`,
0.1.167), on the server's own reset and step, so its `Session` drives our episodes.

    POST /create_session            -> SSE: task_id <sid>, end      (the server picks the sid)
    POST /create   {"split", "index"} | {"task_spec": {...}}   (X-Session-ID: sid) -> {"sid"}
    GET  /tools                     -> {"tools": [{"name": "act", ...}]}  (also /task_tools)
    GET  /prompt                    -> [{"type": "text", "text"}]   the task's prompt and
                                       the environment's opening observation (/messages: by role)
    POST /call     {"name": "act", "input": {"text"}}  -> SSE: task_id, end
                   {"ok": true, "output": {"blocks", "metadata", "reward", "finished"}}
    POST /ping, /delete, /delete_session;  GET /splits, /version;
    POST /tasks, /num_tasks, /task, /task_range  {"split", ...}

One tool, `act`, takes the model's turn as text, as OpenEnv's `/step` does: its `reward` is
the step's reward of `/step` (the weighted step reward; the step that ends the episode adds
the final reward), `finished` is `done`, and `metadata` carries the observation's other
fields (`trajectory_reward`, `final_reward`, `reason`, `info`). Splits are the server's
task lists (`--ors-split NAME=FILE.jsonl`, rows as `/reset`'s `sample`); a session names a
row by split and index, or sends its own `task_spec` (a `sample`).

Sessions: the server chooses every sid (`secrets.token_urlsafe`: unguessable), so a `/create`
naming a sid it did not issue is a 404 and none names another client's; a sid holds one
episode, created once (a second `/create`, even one racing the first, is a 409). At most
`max_sessions` sids are held, `per_client` of them by one client (`integrations._http.Shares`,
the client read from the socket's peer): issuing one past the client's share forgets the
client's own oldest sid that never created an episode and was issued more than
`SESSION_GRACE_S` (60 s; `idle_s` if shorter) ago, then its own whose episode is finished,
idle or gone; past `max_sessions`, anyone's in the same order. A sid younger than that
between `/create_session` and `/create` is live and never gives way (a flood of
`/create_session` cannot evict another client's sid before it creates its episode): when none
may give way, `/create_session` is a 503 (`Retry-After`) to that client, while other clients
still find room.

A `/create` names its task by exactly one of (`split`, `index`) or `task_spec` (ORS's
`CreateSession`, a 422 otherwise). A `task_spec` is a `/reset` sample and may carry its own
`reference`, as ORS's reference server (`openreward.environments.server`) builds its
environment from the task_spec the client sends, and as `/reset` takes a client's sample:
the token is the trust boundary (whoever holds it is the trainer, which owns the gold); the
policy's text reaches only `act`, which never changes the task. An episode that could not
start (its environment's reset failed: it abstains) answers its first `act` as finished with
`reward: null` and the reason in `metadata`, as one that abstains later does; ORS's
`episode_finished` after that. `/delete` drops the episode.
Bodies and the token are the server's (`integrations._http.guard`); the SDK sends the token as `X-API-Key`,
which the guard takes (`integrations._auth`). The work of `/call` runs in a thread."""

# No `from __future__ import annotations` here: FastAPI reads the endpoint annotations.
import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from integrations._env_ws import Refused, StepRunning
from integrations._http import Shares, peer_key
from rewards.deps import require
from rewards.errors import InputError

__all__ = ["ORS_ROUTES", "ORS_TOOL", "add_ors"]

ORS_TOOL = {
    "name": "act",
    "description": "Take one turn in the environment: your text, as you would answer.",
    "input_schema": {"type": "object",
                     "properties": {"text": {"type": "string", "description": "the turn"}},
                     "required": ["text"]},
}
"""The one tool of every ORS session: a turn as text (OpenEnv's `/step` action)."""

ORS_ROUTES = ("POST /create_session", "POST /create", "POST /call", "POST /tasks",
              "POST /num_tasks", "POST /task", "POST /task_range", "GET /tools", "GET /prompt",
              "GET /splits")
"""The ORS routes that the start-up line names (besides /messages, /task_tools, /ping,
/delete, /delete_session, /version and /list_environments, which take no body)."""


SESSION_GRACE_S = 60.0
"""How long a sid without an episode is live: the SDK says `/create` right after
`/create_session`, so a sid older than this without one belongs to a client that left, and
may give way to a new one; a younger one never does (a flood of new sids gets 503s)."""

_CREATING = ""
"""What a sid holds while its `/create` runs (no episode id is empty): claimed, not yet bound."""


class _Sessions:
    """sid -> episode id (None until `/create`), at most `limit`, `per_client` of them by
    one client (the module docstring)."""

    def __init__(self, limit: int, per_client: int, spent: Callable[[str], bool],
                 drop: Callable[[str], None], idle_s: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.clock = limit, clock
        self.grace_s = min(idle_s, SESSION_GRACE_S)
        self.spent, self.drop = spent, drop
        self.shares = Shares(limit, per_client)
        self.held: OrderedDict[str, str | None] = OrderedDict()
        self.issued: dict[str, float] = {}
        self.owner: dict[str, str] = {}  # sid -> its client (`client_key`)
        self.messages: dict[str, list[dict[str, Any]]] = {}
        self.ended: dict[str, dict[str, Any]] = {}
        """sid -> the metadata of its episode that could not start, until a call hears it."""
        self.lock = threading.Lock()

    def issue(self, client: str) -> str:
        """A new sid of `client`, making room as the module docstring says."""
        with self.lock:
            # first a sid that never created an episode and was issued more than grace_s
            # ago (a client between /create_session and /create is live: a flood of new sids
            # never evicts it), then one whose episode is finished, idle or already gone
            now = self.clock()
            room = self.shares.room(
                client, self.owner.items(),
                lambda s: self.held[s] is None and now - self.issued[s] > self.grace_s)
            if room is Shares.FULL:
                room = self.shares.room(client, self.owner.items(), self._spent)
            if room is Shares.FULL:
                raise Refused(503, InputError(
                    f"{self.limit} sessions are held, or {self.shares.per_client} of this "
                    "client's (its share): retry later"), headers={"Retry-After": "1"})
            if room is not Shares.NOTHING:
                episode_id = self._forget(room)
                if episode_id:
                    self.drop(episode_id)
            sid = secrets.token_urlsafe(18)
            self.held[sid] = None
            self.issued[sid] = self.clock()
            self.owner[sid] = client
            self.shares.add(client)
            return sid

    def _spent(self, sid: str) -> bool:
        episode_id = self.held[sid]  # (`_CREATING` while its /create runs: never spent)
        return episode_id is not None and episode_id != _CREATING and self.spent(episode_id)

    def _forget(self, sid: str) -> str | None:
        """Forget `sid` (held); its episode id, if it has one."""
        self.messages.pop(sid, None)
        self.issued.pop(sid, None)
        self.ended.pop(sid, None)
        self.shares.remove(self.owner.pop(sid))
        return self.held.pop(sid)

    def claim(self, sid: str | None) -> str:
        """`sid`, checked (it was issued and holds no episode yet) and marked as creating
        one, so that a second `/create` on it is a 409 and no new sid evicts it meanwhile."""
        with self.lock:
            if not isinstance(sid, str) or sid not in self.held:
                raise Refused(404, InputError("no session with this id: get one from "
                                              "/create_session", field="X-Session-ID"))
            if self.held[sid] is not None:
                raise Refused(409, InputError("the session has an episode already",
                                              field="X-Session-ID"))
            self.held[sid] = _CREATING
            return sid

    def unclaim(self, sid: str) -> None:
        """The `/create` that claimed `sid` failed: it holds no episode again."""
        with self.lock:
            if self.held.get(sid) == _CREATING:
                self.held[sid] = None
                self.issued[sid] = self.clock()

    def bind(self, sid: str, episode_id: str, messages: list[dict[str, Any]]) -> bool:
        """Hold `episode_id` under the claimed `sid`; False when the sid was deleted while
        its `/create` ran (the caller drops the episode)."""
        with self.lock:
            if self.held.get(sid) != _CREATING:
                return False
            self.held[sid] = episode_id
            self.messages[sid] = messages
            return True

    def episode(self, sid: Any) -> str:
        with self.lock:
            episode_id = self.held.get(sid) if isinstance(sid, str) else None
        if not episode_id:
            raise Refused(404, InputError("no session with an episode under this id",
                                          field="X-Session-ID"))
        return episode_id

    def forget(self, sid: Any) -> str | None:
        with self.lock:
            if not isinstance(sid, str) or sid not in self.held:
                return None
            return self._forget(sid) or None

    def hear_ended(self, sid: Any) -> dict[str, Any] | None:
        """Once: the metadata of `sid`'s episode if it could not start, else None."""
        with self.lock:
            return self.ended.pop(sid, None) if isinstance(sid, str) else None


def _messages(prompt: Any, opening: str) -> list[dict[str, Any]]:
    """The episode's opening conversation in ORS's shape (`role`, text `blocks`): the
    sample's prompt (text: one user message; chat messages: each as it is, their content as
    text), then the environment's opening observation, if any, as a user message."""
    turns = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else [
        {"role": m.get("role", "user") if isinstance(m, dict) else "user",
         "content": m.get("content", "") if isinstance(m, dict) else str(m)} for m in prompt]
    if opening:
        turns.append({"role": "user", "content": opening})
    roles = ("system", "user", "assistant")
    return [{"role": t["role"] if t["role"] in roles else "user",
             "blocks": [{"type": "text", "text": t["content"] if isinstance(t["content"], str)
                         else json.dumps(t["content"])}]} for t in turns]


def _sse(events: Sequence[tuple[str, str]]) -> Any:
    from fastapi.responses import StreamingResponse

    # one `data:` line per event: json.dumps writes no newline, a sid has none
    text = "".join(f"event: {event}\ndata: {data}\n\n" for event, data in events)
    return StreamingResponse(iter([text.encode()]), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache"})


def add_ors(app: Any, *, start: Callable[[Any, str], dict[str, Any]],
            advance: Callable[[Any, Any], dict[str, Any]], drop: Callable[[str], None],
            spent: Callable[[str], bool],
            splits: Mapping[str, Sequence[Mapping[str, Any]]], env_name: str,
            max_sessions: int, per_client: int, version: str, idle_s: float = 3600.0) -> None:
    """Add the ORS routes to the FastAPI `app`: `start(body, client)` and `advance(episode_id,
    action)` answer as `/reset` and `/step` do (raising `Refused`), `drop(id)` forgets an
    episode, `spent(id)` says whether it may give way (finished, idle or gone); `splits`
    are the task lists by split name; a sid without an episode gives way after
    `SESSION_GRACE_S` (or `idle_s`, if shorter)."""
    require("fastapi", extra="server", feature="the environment server")
    from fastapi import Request  # here: an endpoint's annotation is read at its def
    from fastapi.responses import JSONResponse

    from integrations._body import parsed_body

    sessions = _Sessions(max_sessions, per_client, spent, drop, idle_s)
    app.state.ors_sessions = sessions

    def refusal(refused: Refused) -> Any:
        field = refused.error.field
        return JSONResponse({"detail": str(refused.error), **({"field": field} if field else {})},
                            status_code=refused.status, headers=refused.headers)

    def body_of(request: Any) -> dict[str, Any]:
        body = parsed_body(request.scope)
        if not isinstance(body, dict):
            raise Refused(422, InputError("the body must be a JSON object", field="body"))
        return body

    def rows(body: dict[str, Any]) -> Sequence[Mapping[str, Any]]:
        split = body.get("split")
        if not isinstance(split, str) or split not in splits:
            raise Refused(400, InputError(f"no split {split!r}: the splits are "
                                          f"{sorted(splits)}", field="split"))
        return splits[split]

    def row(body: dict[str, Any]) -> Mapping[str, Any]:
        tasks, index = rows(body), body.get("index")
        if isinstance(index, bool) or not isinstance(index, int) \
                or not -len(tasks) <= index < len(tasks):
            raise Refused(400, InputError(f"no task {index!r} in split {body['split']!r} "
                                          f"({len(tasks)} tasks)", field="index"))
        return tasks[index]

    def answer(work: Callable[[], Any]) -> Any:
        try:
            return work()
        except InputError as exc:
            return refusal(Refused(422, exc))
        except Refused as refused:
            return refusal(refused)

    @app.get("/version")
    def ors_version() -> dict[str, Any]:
        return {"version": version, "build_sha": None}

    @app.get("/list_environments")
    def ors_environments() -> list[str]:
        return [env_name]

    @app.get("/splits")
    def ors_splits() -> list[dict[str, str]]:
        return [{"name": name, "type": name if name in ("train", "validation", "test")
                 else "train"} for name in splits]

    @app.post("/tasks")
    def ors_tasks(request: Request) -> Any:
        return answer(lambda: {"tasks": list(rows(body_of(request))), "env_name": env_name})

    @app.post("/num_tasks")
    def ors_num_tasks(request: Request) -> Any:
        return answer(lambda: {"num_tasks": len(rows(body_of(request)))})

    @app.post("/task")
    def ors_task(request: Request) -> Any:
        return answer(lambda: {"task": row(body_of(request)), "env_name": env_name})

    @app.post("/task_range")
    def ors_task_range(request: Request) -> Any:
        def work() -> dict[str, Any]:
            body = body_of(request)
            bounds = [body.get("start"), body.get("stop")]
            for name, b in zip(("start", "stop"), bounds):
                if b is not None and (isinstance(b, bool) or not isinstance(b, int)):
                    raise Refused(400, InputError("must be an integer", field=name))
            return {"tasks": list(rows(body)[slice(*bounds)]), "env_name": env_name}
        return answer(work)

    @app.get("/tools")
    @app.get("/task_tools")
    def ors_tools() -> dict[str, Any]:
        return {"tools": [ORS_TOOL]}

    @app.post("/create_session")
    def ors_create_session(request: Request) -> Any:
        def work() -> Any:
            body_of(request)  # the SDK sends {} (or {"env": ...}, which no episode reads)
            return _sse([("task_id", sessions.issue(peer_key(request.scope))), ("end", "")])
        return answer(work)

    @app.post("/create")
    def ors_create(request: Request) -> Any:
        def work() -> dict[str, Any]:
            body = body_of(request)
            has_spec = body.get("task_spec") is not None
            if has_spec == (body.get("split") is not None or body.get("index") is not None):
                # ORS's CreateSession: exactly one of task_spec or (split, index)
                raise Refused(422, InputError("give either task_spec or split and index, not "
                                              "both or neither", field="task_spec"))
            sample = body["task_spec"] if has_spec else row(body)
            sid = sessions.claim(request.headers.get("x-session-id"))
            try:  # the sample checked as /reset checks it; the episode counts against the client
                reply = start({"sample": sample}, peer_key(request.scope))
            except BaseException:
                sessions.unclaim(sid)
                raise
            observation = reply["observation"]
            if not sessions.bind(sid, observation["episode_id"],
                                 _messages(sample["prompt"], observation["text"])):
                drop(observation["episode_id"])
                raise Refused(404, InputError("the session was deleted while its episode "
                                              "was created", field="X-Session-ID"))
            if reply["done"]:  # it could not start: the first call hears the abstention
                with sessions.lock:
                    sessions.ended[sid] = {k: observation.get(k) for k in (
                        "trajectory_reward", "final_reward", "reason")}
            return {"sid": sid}
        return answer(work)

    def conversation(request: Any) -> list[dict[str, Any]]:
        sid = request.headers.get("x-session-id")
        sessions.episode(sid)
        return sessions.messages.get(sid, [])

    @app.get("/prompt")
    def ors_prompt(request: Request) -> Any:
        return answer(lambda: [b for m in conversation(request) for b in m["blocks"]])

    @app.get("/messages")
    def ors_messages(request: Request) -> Any:
        return answer(lambda: conversation(request))

    @app.post("/call")
    def ors_call(request: Request) -> Any:
        def work() -> Any:
            body = body_of(request)
            episode_id = sessions.episode(request.headers.get("x-session-id"))
            if body.get("task_id") is not None:  # a resumed stream: every call is answered
                return _sse([("error", "unknown task_id")])  # whole, none is kept to resume
            if body.get("name") != ORS_TOOL["name"]:
                return _sse([("task_id", secrets.token_urlsafe(8)), ("end", json.dumps({
                    "ok": False, "reason": "not_found",
                    "error": f"no tool {body.get('name')!r}: the tool is 'act'"}))])
            ended = sessions.hear_ended(request.headers.get("x-session-id"))
            if ended is not None:  # the episode abstained before any turn: say so, once
                return _sse([("task_id", secrets.token_urlsafe(8)), ("end", json.dumps({
                    "ok": True, "output": {"blocks": [{"type": "text", "text": ""}],
                                           "metadata": ended, "reward": None,
                                           "finished": True}}))])
            tool_input = body.get("input")
            try:
                reply = advance(episode_id, tool_input)
            except Refused as refused:
                if refused.status == 409 and not isinstance(refused.error, StepRunning):
                    # the episode is over: ORS's own reason (a step still running is a
                    # plain 409 with Retry-After: the episode goes on)
                    return _sse([("task_id", secrets.token_urlsafe(8)), ("end", json.dumps({
                        "ok": False, "reason": "episode_finished", "error": str(refused.error)}))])
                if refused.status == 422:
                    return _sse([("task_id", secrets.token_urlsafe(8)), ("end", json.dumps({
                        "ok": False, "reason": "input_validation",
                        "error": str(refused.error)}))])
                raise
            observation = dict(reply["observation"])
            text = observation.pop("text")
            observation.pop("episode_id", None)
            output = {"blocks": [{"type": "text", "text": text}], "metadata": observation,
                      "reward": reply["reward"], "finished": bool(reply["done"])}
            return _sse([("task_id", secrets.token_urlsafe(8)),
                         ("end", json.dumps({"ok": True, "output": output}))])
        return answer(work)

    @app.post("/ping")
    def ors_ping(request: Request) -> Any:
        return answer(lambda: (sessions.episode(request.headers.get("x-session-id")),
                               {"status": "ok"})[1])

    @app.post("/delete")
    def ors_delete(request: Request) -> Any:
        sid = request.headers.get("x-session-id")
        episode_id = sessions.forget(sid)
        if episode_id is not None:
            drop(episode_id)
        return {"sid": sid}

    @app.post("/delete_session")
    def ors_delete_session(request: Request) -> Any:
        sid = request.headers.get("x-session-id")
        episode_id = sessions.forget(sid)
        if episode_id is not None:
            drop(episode_id)
        return {"sid": sid}
