"""The parts of the Celery integration that need no broker: wire format, routing, app settings,
worker arguments, the missing-extra message."""

from __future__ import annotations

import math
import sys

import pytest

from rewards import ConfigError, Sample, Score, parse_config

pytest.importorskip("celery", reason="needs the celery extra: pip install -e '.[celery]'")

from integrations.celery._routing import domain_queues
from integrations.celery._wire import (
    decode_sample,
    decode_score,
    encode_sample,
    encode_score,
)


def test_samples_and_scores_survive_json_exactly() -> None:
    import json

    sample = Sample([{"role": "user", "content": "2+2?"}], "4", reference={"answer": "4"},
                    domain="math", group="g1", meta={"id": 7})
    assert decode_sample(json.loads(json.dumps(encode_sample(sample)))) == sample
    turns = Sample("p", [{"role": "assistant", "content": "a"},  # type: ignore[arg-type]
                         {"role": "assistant", "content": "b"}])
    assert decode_sample(json.loads(json.dumps(encode_sample(turns)))).turns == ("a", "b")
    for score in (Score(0.1 + 0.2, "ok", {"rule": 1 / 3}), Score(None, "bad_reference"),
                  Score(float("inf"), "ok"), Score(-0.0, "wrong", {"x": None})):
        back = decode_score(json.loads(json.dumps(encode_score(score))))
        assert back == score and math.copysign(1, back.value or 1) == math.copysign(
            1, score.value or 1)
    nan = decode_score(json.loads(json.dumps(encode_score(Score(float("nan"))))))
    assert nan.value is not None and math.isnan(nan.value)


@pytest.mark.parametrize(("components", "queue"), [
    ([{"use": "math"}], "cpu"),
    ([{"use": "pkg.mod:rule"}], "cpu"),
    ([{"use": "rtv"}], "sandbox"),
    ([{"use": "math"}, {"use": "rtv"}], "sandbox"),
    ([{"use": "rm"}], "gpu"),
    ([{"use": "rtv"}, {"use": "genrm"}], "gpu"),
    ([{"use": "pkg.mod:judge", "kind": "learned"}], "gpu"),
    # a component built around another needs what the inner one needs (read as written
    # they went to cpu, where no worker runs the sandbox)
    ([{"use": "cosine", "of": "rtv"}], "sandbox"),
    ([{"use": "length", "of": {"use": "rtv", "gate": True}}], "sandbox"),
    ([{"use": "cosine", "of": "math"}], "cpu"),
])
def test_a_domain_goes_to_the_queue_its_most_demanding_component_needs(components, queue) -> None:
    config = parse_config({"domains": {"d": {"rewards": components}}})
    assert domain_queues(config) == {"d": queue}


def test_queue_overrides_are_checked() -> None:
    config = parse_config({"domains": {"d": {"rewards": [{"use": "math"}]}}})
    assert domain_queues(config, {"d": "gpu"}) == {"d": "gpu"}
    with pytest.raises(ConfigError, match="lacks"):
        domain_queues(config, {"nope": "cpu"})
    with pytest.raises(ConfigError, match="must be one of"):
        domain_queues(config, {"d": "tpu"})


def test_the_app_accepts_json_only_and_redelivers_lost_work() -> None:
    from integrations.celery import make_app

    app = make_app(broker="redis://127.0.0.1:6379/13", backend="redis://127.0.0.1:6379/13",
                   queue_prefix="p-")
    conf = app.conf
    assert conf.accept_content == ["json"] and conf.result_accept_content == ["json"]
    assert conf.task_serializer == conf.result_serializer == "json"
    assert conf.task_acks_late and conf.task_reject_on_worker_lost
    assert conf.worker_prefetch_multiplier == 1
    assert conf.worker_send_task_events and conf.task_send_sent_event
    assert conf.result_expires > conf.broker_transport_options["visibility_timeout"]
    assert [(q.name, q.exchange.name, q.routing_key) for q in app.amqp.queues.values()] == [
        (name, name, name) for name in ("p-cpu", "p-sandbox", "p-gpu")]  # no fan-out
    task = app.tasks["rewards.score_chunk"]
    assert task.acks_late and task.reject_on_worker_lost


def test_the_app_reads_the_environment_and_refuses_an_unshared_result_store(monkeypatch) -> None:
    from integrations.celery import make_app

    monkeypatch.setenv("REWARDS_BROKER_URL", "amqp://guest:guest@127.0.0.1:5672//")
    monkeypatch.setenv("REWARDS_QUEUE_PREFIX", "env-")
    app = make_app()
    assert app.conf.broker_url.startswith("amqp://")
    assert app.conf.result_backend == "redis://127.0.0.1:6379/0"
    assert app.conf.task_default_queue == "env-cpu"
    with pytest.raises(ConfigError, match="share the result store"):
        make_app(backend="rpc://")


def test_worker_arguments_are_checked() -> None:
    from integrations.celery import WorkerConfig
    from integrations.celery._worker import worker_argv
    from rewards.options import load_options

    worker = load_options(WorkerConfig, {"queues": ["cpu", "sandbox"], "concurrency": 3,
                                         "hostname": "h@host"}, where="worker")
    argv = worker_argv(worker, queue_prefix="x-")
    assert "--queues=x-cpu,x-sandbox" in argv and "--concurrency=3" in argv
    assert "--task-events" in argv and "--pool=prefork" in argv
    with pytest.raises(ConfigError, match="worker: queues\\[1\\]: must be one of 'cpu', "
                                          "'sandbox', 'gpu', not 'tpu'"):
        load_options(WorkerConfig, {"queues": ["cpu", "tpu"]}, where="worker")
    with pytest.raises(ConfigError, match="concurrency: must be >= 1"):
        WorkerConfig(queues=("cpu",), concurrency=0)
    with pytest.raises(ConfigError, match="queues: name at least one"):
        WorkerConfig(queues=())
    with pytest.raises(ConfigError, match="unknown key 'concurency' \\(did you mean "
                                          "'concurrency'\\?\\)"):
        load_options(WorkerConfig, {"concurency": 2}, where="worker")


def test_the_celery_modules_import_in_one_direction() -> None:
    """No import circle among the Celery modules, at module level or deferred into a
    function: the task module is the bottom, the app builds on it."""
    import ast
    from pathlib import Path

    import integrations.celery as package

    folder = Path(package.__file__).parent
    graph = {}
    for path in folder.glob("*.py"):
        module = f"integrations.celery.{path.stem}" if path.stem != "__init__" else \
            "integrations.celery"
        tree = ast.parse(path.read_text())
        graph[module] = {node.module for node in ast.walk(tree)
                         if isinstance(node, ast.ImportFrom) and node.module
                         and node.module.startswith("integrations.celery.")}
    assert "integrations.celery._app" in graph["integrations.celery._routing"]
    assert "integrations.celery._tasks" in graph["integrations.celery._app"]

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(n == goal or (n not in seen and reaches(n, goal, seen | {n}))
                   for n in graph.get(start, ()))

    circles = [m for m in graph if reaches(m, m, set())]
    assert circles == []


def test_the_worker_subcommand_is_registered() -> None:
    from rewards_cli import build_parser

    args = build_parser().parse_args(["worker", "--config", "c.yaml", "--queues", "cpu,gpu",
                                      "--concurrency", "2"])
    assert (args.config, args.queues, args.concurrency) == ("c.yaml", "cpu,gpu", 2)


def test_celery_reward_is_the_registered_celery_component(tmp_path) -> None:
    from integrations.celery import CeleryReward
    from rewards.registry import resolve

    assert resolve("celery") is CeleryReward


def test_a_missing_celery_names_the_extra(monkeypatch, tmp_path) -> None:
    from integrations.celery import CeleryReward

    config = tmp_path / "c.yaml"
    config.write_text("domains: {d: {rewards: [{use: math}]}}\n")
    monkeypatch.setitem(sys.modules, "celery", None)  # import celery -> ImportError
    with pytest.raises(ConfigError, match=r"pip install (-e )?'[^']*\[celery\]'"):
        CeleryReward(config)


def test_client_options_are_checked(tmp_path) -> None:
    from integrations.celery import CeleryReward

    config = tmp_path / "c.yaml"
    config.write_text("domains: {d: {rewards: [{use: math}]}}\n")
    with pytest.raises(ConfigError, match="celery reward: chunk_size: must be >= 1"):
        CeleryReward(config, chunk_size=0)
    with pytest.raises(ConfigError, match="celery reward: unknown key 'chunk_sise' \\(did you "
                                          "mean 'chunk_size'\\?\\)"):
        CeleryReward(config, chunk_sise=8)
    with pytest.raises(ConfigError, match="celery reward: queues.d: must be one of"):
        CeleryReward(config, queues={"d": "tpu"})
    with pytest.raises(ConfigError, match="lost_after_s"):
        CeleryReward(config, heartbeat_s=2.0, lost_after_s=1.0)
    with pytest.raises(ConfigError, match="heartbeat_s"):
        CeleryReward(config, heartbeat_s=0)


def test_the_worker_command_refuses_a_bad_config_or_queue(tmp_path, capsys) -> None:
    from rewards_cli import main

    assert main(["worker", "--config", str(tmp_path / "missing.yaml")]) == 2
    assert "cannot read reward config" in capsys.readouterr().err
    config = tmp_path / "c.yaml"
    config.write_text("domains: {d: {rewards: [{use: no.such.module:reward}]}}\n")
    assert main(["worker", "--config", str(config)]) == 2
    assert "cannot import module 'no.such.module'" in capsys.readouterr().err
    config.write_text("domains: {d: {rewards: [{use: math}]}}\n")
    assert main(["worker", "--config", str(config), "--queues", "cpu,tpu"]) == 2
    assert "worker: queues[1]: must be one of 'cpu', 'sandbox', 'gpu', not 'tpu'" in \
        capsys.readouterr().err


@pytest.mark.parametrize("domains, domain, queue", [
    ("{d: {rewards: [{use: rtv}]}}", "default", "sandbox"),  # no domain: the only one
    ("{d: {rewards: [{use: rtv}]}, default: {rewards: [{use: math}]}}", "x", "cpu"),
    ("{d: {rewards: [{use: rtv}]}, e: {rewards: [{use: math}]}}", "default", None),
])
def test_the_client_routes_a_sample_by_the_one_routing_rule(tmp_path, domains, domain,
                                                            queue) -> None:
    """`rewards.mixing.route_domain` picks the queue: a sample that names no domain under a
    one-domain config goes to that domain's queue (it abstained unknown_domain here while the
    worker and local scoring scored it)."""
    from integrations.celery import CeleryReward

    config = tmp_path / "c.yaml"
    config.write_text(f"domains: {domains}\n")
    client = CeleryReward(config, queue_prefix="t-")
    results: list[Score | None] = [None]
    chunks = client._chunk([Sample("p", "c", domain=domain)], results, "b", 0.0)
    assert [c.queue for c in chunks] == ([] if queue is None else [f"t-{queue}"])
    assert results == ([Score(None, "unknown_domain")] if queue is None else [None])


@pytest.mark.parametrize("groups, chunk_size, chunks", [
    # no groups: dealt in turn, each chunk takes from the whole batch
    ([None] * 7, 3, [[0, 3, 6], [1, 4], [2, 5]]),
    # groups whole in one chunk, wherever their members sit in the batch
    (["a", "b", "a", "b", None, "a"], 3, [[0, 2, 5], [1, 3, 4]]),
    # a group larger than a chunk travels whole; the others fill the emptier chunks
    (["a", "a", "a", "a", "b", None], 2, [[0, 1, 2, 3], [4], [5]]),
    # one sample, one chunk
    ([None], 64, [[0]]),
])
def test_chunks_are_dealt_and_keep_each_group_whole(groups, chunk_size, chunks) -> None:
    from integrations.celery import deal_chunks

    samples = [Sample("p", f"c{i}", group=g) for i, g in enumerate(groups)]
    assert deal_chunks(samples, range(len(samples)), chunk_size) == chunks


def test_dealt_chunks_cover_every_sample_once_and_share_a_clustered_cost() -> None:
    """Every index lands in exactly one chunk; a stretch of expensive samples (a hard
    problem's rollouts together) is shared among the chunks instead of filling one."""
    from integrations.celery import deal_chunks

    samples = [Sample("p", "c", group=None if i % 5 else f"g{i // 10}") for i in range(500)]
    indices = [i for i in range(500) if i % 7]
    chunks = deal_chunks(samples, indices, 16)
    assert sorted(i for c in chunks for i in c) == indices
    for group in {s.group for s in samples} - {None}:
        holding = [c for c in chunks if any(samples[i].group == group for i in c)]
        assert len(holding) <= 1
    expensive = set(indices[100:164])  # 64 costly samples in a row: cut, 4 full chunks
    assert len(chunks) == 27
    assert max(len(expensive.intersection(c)) for c in chunks) <= 4  # 64 / 27 and a pair
