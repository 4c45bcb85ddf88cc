"""The same rows, scored through every entry point, give the same results: `rewards score`,
the TRL, veRL (batch and async), OpenRLHF, verifiers (the classic Rubric of 0.3.1 in a child
process, and the 0.4 Task API) and AReaL adapters, `rewards serve` and a real Celery worker
(test_equal_scores.py holds the normalize modes). The rows name no domain (routed by `rewards.mixing.route_domain`,
under a one-domain and a multi-domain config), carry the gold under each column name
`integrations._common.REFERENCE_COLUMNS` accepts, and some abstain (an unreadable gold, none,
the prompt's instruction as the gold, which only the prompt tells, so every entry point must
hand the reward the prompt: veRL's rows carry it in `extra_info["question"]`; a judge that
does not answer): each entry point shows the abstention in its own form (None, a
masked score, an error naming the cause), never as a 0."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from integration_helpers import HERE, REPO, write_config  # type: ignore[import-not-found]

from integrations._common import REFERENCE_COLUMNS
from rewards import Sample, build_reward
from rewards.errors import RewardsError
from rewards.scoring import abstention_cause

Outcome = tuple[float | None, str | None]
"""(value, None) for a scored row; (None, cause) for one that abstained."""

CONFIGS = {
    "one-domain": """
domains:
  math:
    rewards:
      - {use: math, workers: 1}
      - {use: format, weight: 0.0}   # logged only: an unreadable gold leaves no value
normalize: none
""",
    "multi-domain": """
domains:
  math:
    rewards:
      - {use: math, workers: 1}
      - {use: format, weight: 0.0}
  default: {rewards: [{use: format}]}
  judged: {rewards: [{use: "integration_rewards:judge_stand_in", name: judge}]}
normalize: none
""",
}

# (prompt, completion, gold column or None, gold, domain or None)
ROWS: list[tuple[str, str, str | None, str | None, str | None]] = [
    ("48 + 24?", "<think>add</think> The answer is \\boxed{72}.", "answer", "72", None),
    ("7 * 10?", "It is \\boxed{71}.", "answer", "70", "math"),
    ("3 + 3?", "<think>3 + 3</think> \\boxed{6}", "answer", "\\frac{", "math"),
    ("Half of 1?", "<think>1/2</think> \\boxed{0.5}", "solution", "\\frac{1}{2}", None),
    ("2 * 4?", "\\boxed{8}", "solution", "8", "math"),
    ("9 - 4?", "<think>take</think> \\boxed{5}", "ground_truth", "5", "math"),
    ("2 + 3?", "<think>hmm</think> no idea", "ground_truth", "5", None),
    ("5 + 5?", "\\boxed{10}", "reference", "10", "math"),
    ("6 + 1?", "<think>x</think>\\boxed{8}", "reference", "7", None),
    ("1 + 1?", "\\boxed{2}", None, None, "math"),
    ("4 + 4?", "\\boxed{8}", "label", "8", "math"),
    ("3 * 3?", "<think>x</think> \\boxed{9}", "label", "9", None),
    # the prompt's instruction mapped as the gold: read with the prompt, it is no answer
    ("What is 2+2? Show your work.", "\\boxed{Show your work.}", "answer", "Show your work.",
     "math"),
]
JUDGED = [("Say yes", "yes", "reference", "yes", "judged"),
          ("Say yes", "yes [judge down]", "reference", "yes", "judged")]

EXPECTED = {  # the causes local scoring gives (None: scored), the table's own check
    "one-domain": [None, None, "bad_reference:unparseable", None, None, None, None, None,
                   None, "bad_reference:missing", None, None, "bad_reference:unparseable"],
    "multi-domain": [None, None, "bad_reference:unparseable", None, None, None, None, None,
                     None, "bad_reference:missing", None, None, "bad_reference:unparseable",
                     None, "timeout"],
}
COLUMNS = (*REFERENCE_COLUMNS, "domain")
"""The dataset's columns: a dataset of these rows has each, null where a row has none."""


def _rows(name: str) -> list[tuple[str, str, str | None, str | None, str | None]]:
    return ROWS + (JUDGED if name == "multi-domain" else [])


def _row(prompt: str, completion: str, column: str | None, gold: str | None,
         domain: str | None) -> dict[str, Any]:
    """One JSONL row, with only the columns it has."""
    row: dict[str, Any] = {"prompt": prompt, "completion": completion}
    if column is not None:
        row[column] = gold
    if domain is not None:
        row["domain"] = domain
    return row


def _columns(row: dict[str, Any]) -> dict[str, Any]:
    """The row's columns as a dataset hands them over: every column, null where absent."""
    return {c: row.get(c) for c in COLUMNS}


def _samples(name: str) -> list[Sample]:
    """The samples, written out by hand (no adapter's rule): local scoring's input."""
    return [Sample(p, c, reference=g, domain=d or "default", group=p)
            for p, c, _, g, d in _rows(name)]


def _cause(error: BaseException) -> str:
    """The cause an adapter's abstention error names."""
    found = re.search(r"abstained(?: \(|: )([a-z_:]+)", str(error))
    assert found, f"not an abstention: {error!r}"
    return found.group(1)


# ---- the entry points ----------------------------------------------------------------------

def _local(name: str, config: Path) -> list[Outcome]:
    samples = _samples(name)
    scores = build_reward(config).score(samples)
    return [(s.value, abstention_cause(x, s)) for x, s in zip(samples, scores)]


def _cli(name: str, config: Path, tmp_path: Path) -> list[Outcome]:
    """`rewards score` on all the rows in one file, each gold under its own column: the CLI
    reads the gold column by the adapters' rule (`rewards.io.REFERENCE_COLUMNS`), unmapped."""
    from rewards_cli import main

    rows = _rows(name)
    src, dst = tmp_path / f"{name}.jsonl", tmp_path / f"{name}.out.jsonl"
    src.write_text("".join(json.dumps(_row(*row)) + "\n" for row in rows))
    assert main(["score", str(src), "--config", str(config), "--out", str(dst)]) == 0
    results = [json.loads(line) for line in dst.read_text().splitlines()]
    assert len(results) == len(rows)
    return [(r["score"], r.get("cause", r["reason"]) if r["score"] is None else None)
            for r in results]


def _trl(name: str, config: Path) -> list[Outcome]:
    from integrations.trl import trl_rewards

    rows = [_row(*r) for r in _rows(name)]
    (func,) = trl_rewards(config, per_component=False).funcs
    reasons: list[str] = []
    values = func([r["prompt"] for r in rows], [r["completion"] for r in rows],
                  log_extra=lambda key, value: reasons.extend(value),
                  **{c: [_columns(r)[c] for r in rows] for c in COLUMNS})
    return [(v, None if v is not None else why) for v, why in zip(values, reasons)]


def _verl(name: str, config: Path) -> list[Outcome]:
    from integrations.verl import compute_score_batch

    rows = _rows(name)
    results = compute_score_batch(["rows"] * len(rows), [c for _, c, *_ in rows],
                                  [g for *_, g, _ in rows],
                                  [{"domain": d, "index": i, "question": p}
                                   for i, (p, *_, d) in enumerate(rows)],
                                  reward_config=config)
    return [(None, r["cause"]) if r["abstained"] else (r["score"], None) for r in results]


def _verl_async(name: str, config: Path) -> list[Outcome]:
    """veRL's reward loop (its default path): `compute_score_async` awaited for every rollout
    at once; an abstention fails its rollout (veRL needs a number per rollout)."""
    from integrations.verl import compute_score_async

    rows = _rows(name)

    async def score_all() -> list[Any]:
        return await asyncio.gather(*(
            compute_score_async("rows", c, g, {"domain": d, "index": i, "question": p},
                                reward_config=config)
            for i, (p, c, _, g, d) in enumerate(rows)), return_exceptions=True)

    return [(None, _cause(r)) if isinstance(r, BaseException) else (r["score"], None)
            for r in asyncio.run(score_all())]


def _openrlhf_reply(reply: dict[str, Any]) -> list[Outcome]:
    """OpenRLHF's form: a number in `rewards` for every row; an abstention's `scores` entry is
    `MASK_SCORE` (dynamic filtering leaves it out) and `reward/abstained` logs it; the server
    names its cause too."""
    from integrations.openrlhf import MASK_SCORE

    causes = reply.get("causes") or ["abstained" if a else None
                                     for a in reply["extra_logs"]["reward/abstained"]]
    out: list[Outcome] = []
    for reward, score, cause in zip(reply["rewards"], reply["scores"], causes):
        if cause is not None:
            assert score == MASK_SCORE
        out.append((None, cause) if cause is not None else (float(reward), None))
    return out


def _openrlhf(name: str, config: Path) -> list[Outcome]:
    from integrations.openrlhf import reward_func

    rows = _rows(name)
    reply = reward_func([p + c for p, c, *_ in rows], [p for p, *_ in rows],
                        [{"reference": g, "domain": d} for *_, g, d in rows],
                        reward_config=config)
    plain = {"rewards": reply["rewards"].tolist(), "scores": reply["scores"].tolist(),
             "extra_logs": {k: v.tolist() for k, v in reply["extra_logs"].items()}}
    # float32 tensors: compared at float32 precision
    return [(None if v is None else round(v, 5), c) for v, c in _openrlhf_reply(plain)]


def _server(name: str, url: str) -> list[Outcome]:
    """`rewards serve` (a subprocess), asked as OpenRLHF asks it."""
    import httpx

    rows = _rows(name)
    body = {"query": [p + c for p, c, *_ in rows], "prompts": [p for p, *_ in rows],
            "labels": [g for *_, g, _ in rows], "domains": [d for *_, d in rows]}
    reply = httpx.post(f"{url}/get_reward", json=body, timeout=60)
    assert reply.status_code == 200, reply.text
    return _openrlhf_reply(reply.json())


def _areal(name: str, config: Path) -> list[Outcome]:
    """As AReaL's RLVRWorkflow calls its reward_fn: `(prompt, completion, prompt_ids,
    completion_ids, **row)` (AReaL need not be installed: the call is the signature)."""
    from integrations.areal import AReaLReward

    reward_fn = AReaLReward(config)  # abstain: mask, an abstention is an error
    out: list[Outcome] = []
    for p, c, column, gold, domain in _rows(name):
        try:
            out.append((reward_fn(p, c, [1, 2], [3], **_columns(_row(p, c, column, gold,
                                                                       domain))), None))
        except RewardsError as exc:
            out.append((None, _cause(exc)))
    return out


def _verifiers_v1(name: str, config: Path) -> list[Outcome]:
    vf = pytest.importorskip("verifiers.v1", reason="the verifiers 0.4 Task API")
    from test_verifiers_v1 import _trace  # type: ignore[import-not-found]

    from integrations.verifiers import task_reward

    class RowData(vf.TaskData):  # a taskset of these rows: every column, null where absent
        answer: str | None = None
        solution: str | None = None
        ground_truth: str | None = None
        reference: str | None = None
        label: str | None = None
        domain: str | None = None

    class RowTask(vf.Task[RowData]):
        rewards = vf.reward(task_reward(config))

    pairs = []
    for p, c, column, gold, domain in _rows(name):
        task = RowTask(RowData(prompt=p, **_columns(_row(p, c, column, gold, domain))))
        pairs.append((task, _trace(task, c)))

    async def score_all() -> list[Any]:
        return await asyncio.gather(*(t.score(trace) for t, trace in pairs),
                                    return_exceptions=True)

    out: list[Outcome] = []
    for (_, trace), result in zip(pairs, asyncio.run(score_all())):
        if isinstance(result, BaseException):
            assert isinstance(result, vf.TaskError) and trace.rewards == {"rewards": None}
            out.append((None, _cause(result)))
        else:
            out.append((trace.rewards["rewards"].score, None))
    return out


CLASSIC_RUN = r'''
import asyncio, json, re, sys
import verifiers as vf
from integrations.verifiers import rubric

rows = json.loads(sys.argv[2])
scorer = rubric(sys.argv[1], per_component=False)

async def one(prompt, completion, gold, domain):
    # a rollout's state as verifiers 0.3 fills it from a dataset row (answer, info)
    state = {"prompt": [{"role": "user", "content": prompt}],
             "completion": [{"role": "assistant", "content": completion}],
             "answer": gold if gold is not None else "",
             "info": {} if domain is None else {"domain": domain},
             "task": "default", "trajectory": []}
    try:
        await scorer.score_group([state])
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    return {"reward": state["reward"]}

async def main():
    return await asyncio.gather(*(one(p, c, g, d) for p, c, _, g, d in rows))

print(json.dumps({"version": vf.__version__, "results": asyncio.run(main())}))
'''


def _verifiers_classic(name: str, config: Path, tmp_path: Path) -> list[Outcome]:
    """verifiers 0.3.1's own Rubric (`score_group`, as its environment scores a group), in a
    child process (the current verifiers has no classic Rubric)."""
    classic = REPO / "build" / "verifiers-0.3.1"
    if not (classic / "verifiers").is_dir():
        pytest.skip(f"{classic} holds no verifiers 0.3.1 (scripts/test.sh installs it there)")
    script = tmp_path / "classic_run.py"
    script.write_text(CLASSIC_RUN)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(classic), str(HERE), str(REPO)])}
    done = subprocess.run([sys.executable, str(script), str(config), json.dumps(_rows(name))],
                          capture_output=True, text=True, env=env, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["version"].startswith("0.3")
    return [(None, _cause(RuntimeError(r["error"]))) if "error" in r else (r["reward"], None)
            for r in result["results"]]


# ---- the servers: a `rewards serve` and a real Celery worker per config ----------------------

@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[Path, str, Any]]]:
    """Per config: its file, the URL of a `rewards serve` on it, and a Celery client of a
    `rewards worker` on it (the workers boot while the servers start)."""
    pytest.importorskip("fastapi", reason="the server needs pip install -e '.[server]'")
    pytest.importorskip("celery", reason="needs the celery extra: pip install -e '.[celery]'")
    sys.path.insert(0, str(REPO / "tests" / "celery"))
    from celery_cluster import REDIS_URL, make_cluster, reachable  # type: ignore[import-not-found]
    from integration_helpers import Server  # type: ignore[import-not-found]

    if not reachable(6379):
        pytest.skip("needs Redis on 127.0.0.1:6379")
    import redis

    store = redis.Redis.from_url(REDIS_URL)
    # the workers import integration_rewards (the judge stand-in) from here
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(HERE), str(REPO),
                                                      os.environ.get("PYTHONPATH", "")]))
    clusters = {name: make_cluster(tmp_path_factory, REDIS_URL, f"agree{i}", text)
                for i, (name, text) in enumerate(CONFIGS.items())}
    servers: list[Any] = []
    try:
        workers = [c.start(queues="cpu,gpu,sandbox") for c in clusters.values()]
        servers += [Server(c.config) for c in clusters.values()]
        for worker in workers:
            worker.wait_ready(timeout=120)
        yield {name: (c.config, server.url, c.client(chunk_size=5))
               for (name, c), server in zip(clusters.items(), servers)}
    finally:
        for server in servers:
            server.stop()
        for cluster in clusters.values():
            cluster.stop_all()
            for kind in ("cpu", "sandbox", "gpu"):
                store.delete(f"{cluster.prefix}{kind}")
        monkeypatch.undo()


# ---- the test ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(CONFIGS))
def test_every_entry_point_scores_the_rows_as_local_scoring(
        name: str, tmp_path: Path, served: dict[str, tuple[Path, str, Any]]) -> None:
    config, url, celery = served[name]
    local = _local(name, config)
    assert [cause for _, cause in local] == EXPECTED[name]
    assert {v for v, _ in local} >= {0.0, 1.0}  # right and wrong rows both score

    samples = _samples(name)
    scores = celery.score(samples)
    got: dict[str, list[Outcome]] = {
        "rewards score": _cli(name, config, tmp_path),
        "trl": _trl(name, config),
        "verl batch": _verl(name, config),
        "verl async": _verl_async(name, config),
        "openrlhf": _openrlhf(name, config),
        "rewards serve": _server(name, url),
        "areal": _areal(name, config),
        "verifiers 0.4": _verifiers_v1(name, config),
        "verifiers 0.3.1": _verifiers_classic(name, config, tmp_path),
        "celery": [(s.value, abstention_cause(x, s)) for x, s in zip(samples, scores)],
    }
    wants = {entry: local for entry in got}
    # TRL logs the reason, which does not split bad_reference
    wants["trl"] = [(v, None if c is None else c.split(":")[0]) for v, c in local]
    # float32 tensors, and a flag where the server names a cause
    wants["openrlhf"] = [(None, "abstained") if v is None else (round(v, 5), None)
                         for v, _ in local]
    differ = {entry: [(i, o, w) for i, (o, w) in enumerate(zip(got[entry], wants[entry]))
                      if o != w] for entry in got if got[entry] != wants[entry]}
    assert not differ, f"entry points that differ from local scoring (row, got, local): {differ}"


def test_the_rows_other_columns_reach_every_row_adapter_as_meta(tmp_path: Path) -> None:
    """The adapters that see a row's columns (TRL, AReaL, verifiers; veRL's `extra_info`)
    carry the other columns in `Sample.meta` by one rule (`integrations._common.row_sample`),
    as `rewards score` does: a tool schema (`tools`) reaches the reward through each."""
    from integrations.areal import AReaLReward
    from integrations.trl import trl_rewards
    from integrations.verifiers import reward_funcs, task_reward
    from rewards_cli import main

    config = write_config(tmp_path / "meta.yaml", 'domains:\n  tools: {rewards: '
                                                  '[{use: "integration_rewards:has_tools"}]}\n')
    tools = [{"name": "area", "parameters": {}}]
    src, dst = tmp_path / "rows.jsonl", tmp_path / "out.jsonl"
    src.write_text(json.dumps({"prompt": "p", "completion": "c", "tools": tools}) + "\n")
    assert main(["score", str(src), "--config", str(config), "--out", str(dst)]) == 0
    assert json.loads(dst.read_text())["score"] == 1.0

    (func,) = trl_rewards(config, per_component=False).funcs
    assert func(["p"], ["c"], tools=[tools], answer=["x"]) == [1.0]
    assert AReaLReward(config)("p", "c", [1], [2], tools=tools, answer="x") == 1.0
    from integrations.verl import compute_score

    assert [compute_score("tools", "c", "x", info, reward_config=config)["score"]
            for info in ({"tools": tools, "index": 0}, {"index": 0})] == [1.0, 0.0]
    (classic,), _ = reward_funcs(config)

    async def classic_both() -> list[float]:  # one loop: the second is no memo of the first
        return [await classic(prompt="p", completion="c", answer="x", info={"tools": tools}),
                await classic(prompt="p", completion="c", answer="x", info={})]

    assert asyncio.run(classic_both()) == [1.0, 0.0]
    v1 = task_reward(config)
    vf = pytest.importorskip("verifiers.v1", reason="the verifiers 0.4 Task API")
    from test_verifiers_v1 import _trace  # type: ignore[import-not-found]

    class ToolData(vf.TaskData):
        tools: list[dict[str, Any]]

    with_tools = vf.Task(ToolData(prompt="p", tools=tools))
    # verifiers' own fields (prompt, system_prompt, id ...) are not the row's data
    without = vf.Task(vf.TaskData(prompt="p"))

    async def v1_both() -> list[float]:
        return [await v1(with_tools.data, _trace(with_tools, "c")),
                await v1(without.data, _trace(without, "c"))]

    assert asyncio.run(v1_both()) == [1.0, 0.0]
