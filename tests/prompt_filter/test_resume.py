"""Kill-and-resume: a run killed with `kill -9` at any point and started again with the same
arguments ends with exactly the output of an uninterrupted run."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from filter_helpers import REPO, cli, outputs, read_jsonl, write_config, write_jsonl

from prompt_filter import FilterJob, run_filter
from rewards.config import load_config

N_PROMPTS, N = 100, 16


def _dataset(tmp_path: Path, use: str = "filter_rewards:slow_exact") -> tuple[Path, Path, Path]:
    """100 prompts x 16 rollouts; prompt i has (i * 7) % 17 correct rollouts; a few bad rows."""
    prompts = write_jsonl(tmp_path / "prompts.jsonl",
                          [{"id": f"p{i}", "prompt": f"q{i}", "reference": "1"}
                           for i in range(N_PROMPTS)] + ['{"id": "broken"'])
    rows = []
    for i in range(N_PROMPTS):
        solved = (i * 7) % 17
        rows += [{"id": f"p{i}", "completion": "1" if j < solved else "0"} for j in range(N)]
        if i % 25 == 0:
            rows += [{"id": "nope", "completion": "1"}, "garbage"]
    rollouts = write_jsonl(tmp_path / "rollouts.jsonl", rows)
    config = write_config(tmp_path / "cfg.yaml", use)
    return prompts, rollouts, config


def _journal_chunks(out: Path) -> int:
    path = out / "journal.jsonl"
    if not path.exists():
        return 0
    return max(path.read_bytes().count(b"\n") - 1, 0)


def _start(args) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "rewards", "filter-prompts", *map(str, args)],
                            cwd=REPO, env=os.environ.copy(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _kill_when(proc: subprocess.Popen, ready, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not ready() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    assert proc.poll() is None, "the run finished before the kill: make it slower"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL


def test_kill_9_at_several_points_then_resume_gives_identical_output(tmp_path):
    prompts, rollouts, config = _dataset(tmp_path)
    args = [prompts, "--rollouts", rollouts, "--config", config, "--chunk-size", "37"]
    total_chunks = -(-(N_PROMPTS * N + 8) // 37)  # 1608 rollout rows

    reference = tmp_path / "reference"
    run_filter(FilterJob(prompts=prompts, out=reference, rollouts=rollouts, chunk_size=37),
               load_config(config))

    out = tmp_path / "out"
    # 1: killed during start-up, before or right after the journal exists
    _kill_when(_start([*args, "--out", out]), lambda: (out / "journal.jsonl").exists())
    # 2, 3: killed mid-scoring, at two journal depths
    for depth in (5, 20):
        proc = _start([*args, "--out", out])
        _kill_when(proc, lambda depth=depth: _journal_chunks(out) >= depth)
        assert depth <= _journal_chunks(out) < total_chunks
    # 4: killed at a moment chosen by time alone, wherever it lands
    proc = _start([*args, "--out", out])
    time.sleep(1.5)
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()

    final = cli(*args, "--out", out, "--progress", "on")
    assert final.returncode == 0, final.stderr
    assert "resuming:" in final.stderr  # it picked up the journal, it did not start over
    assert outputs(out) == outputs(reference)
    assert set(outputs(out)) == {"kept.jsonl", "dropped.jsonl", "errors.jsonl", "stats.json",
                                 "pass_rates.png", "journal.jsonl"}
    # no prompt lost or duplicated: every valid prompt is kept or dropped exactly once
    ids = [r["id"] for r in read_jsonl(out / "kept.jsonl") + read_jsonl(out / "dropped.jsonl")]
    assert sorted(ids) == sorted(f"p{i}" for i in range(N_PROMPTS))
    stats = json.loads((out / "stats.json").read_text())
    assert stats["rollouts"]["used"] == N_PROMPTS * N
    assert stats["rollouts"]["errors"] == 8 and stats["prompts"]["errors"] == 1
    # hand count: pass rate (i * 7 % 17) / 16 is kept for 2..14 correct, i.e. 13 of 17 residues
    kept = {f"p{i}" for i in range(N_PROMPTS) if 2 <= (i * 7) % 17 <= 14}
    assert {r["id"] for r in read_jsonl(out / "kept.jsonl")} == kept


def test_kill_during_the_final_writes_is_repaired_by_a_rerun(tmp_path):
    prompts, rollouts, config = _dataset(tmp_path, use="filter_rewards:exact")
    job = FilterJob(prompts=prompts, out=tmp_path / "out", rollouts=rollouts, chunk_size=400)
    cfg = load_config(config)
    run_filter(job, cfg)
    done = outputs(job.out)
    # as if killed between the renames: one output stale, one missing, one temp file left
    (job.out / "kept.jsonl").write_text('{"stale": true}\n')
    (job.out / "stats.json").unlink()
    (job.out / "dropped.jsonl.tmp").write_text("half a fi")
    run_filter(job, cfg)
    assert outputs(job.out) == done
    assert not (job.out / "dropped.jsonl.tmp").exists()


class FakePolicy:
    """A deterministic stand-in for `rewards.engines`: prompt `k:<c>` gets c correct ("1")
    completions of n. Records its calls; can be told to fail after some calls."""

    def __init__(self, fail_after: int | None = None):
        self.calls = []
        self.fail_after = fail_after

    def generate(self, prompts, *, n=1, max_tokens=256, temperature=1.0, top_p=1.0, seed=None,
                 logprobs=False):
        from rewards.errors import EngineError

        if self.fail_after is not None and len(self.calls) >= self.fail_after:
            raise EngineError("model server went away")
        self.calls.append((list(prompts), n, seed))

        class Gen:
            def __init__(self, text):
                self.text, self.finish_reason = text, "stop"

        return [[Gen("1" if j < int(p.split(":")[1]) else "0") for j in range(n)]
                for p in prompts]


def test_policy_mode_generates_scores_and_resumes_after_an_engine_failure(tmp_path):
    solved = [0, 1, 2, 4, 6, 7, 8, 8, 3, 5]
    prompts = write_jsonl(tmp_path / "prompts.jsonl",
                          [{"id": f"p{i}", "prompt": f"k:{c}", "reference": "1"}
                           for i, c in enumerate(solved)])
    cfg = load_config(write_config(tmp_path / "cfg.yaml", "filter_rewards:exact"))
    from prompt_filter import GenerationOptions

    def job(out):
        return FilterJob(prompts=prompts, out=out, policy="fake", n=8,
                         generation=GenerationOptions(prompts_per_round=3, seed=10))

    whole = FakePolicy()
    run_filter(job(tmp_path / "whole"), cfg, engine=whole)
    assert [(len(p), n, seed) for p, n, seed in whole.calls] == [
        (3, 8, 10), (3, 8, 34), (3, 8, 58), (1, 8, 82)]  # seed + n * index of the chunk's first

    from rewards.errors import EngineError

    with pytest.raises(EngineError, match="went away"):  # fails on its third call
        run_filter(job(tmp_path / "resumed"), cfg, engine=FakePolicy(fail_after=2))
    resumed = FakePolicy()
    run_filter(job(tmp_path / "resumed"), cfg, engine=resumed)
    assert [seed for _, _, seed in resumed.calls] == [58, 82]  # only the unfinished chunks
    assert outputs(tmp_path / "resumed", names=("kept.jsonl", "dropped.jsonl", "stats.json",
                                                 "rollouts.jsonl", "pass_rates.png")) == \
        outputs(tmp_path / "whole", names=("kept.jsonl", "dropped.jsonl", "stats.json",
                                           "rollouts.jsonl", "pass_rates.png"))
    kept = read_jsonl(tmp_path / "whole" / "kept.jsonl")
    # 8 rollouts: kept for 1..7 correct (0.125 .. 0.875), 0 and 8 of 8 dropped
    assert [(r["id"], r["pass_rate"]) for r in kept] == [
        ("p1", 0.125), ("p2", 0.25), ("p3", 0.5), ("p4", 0.75), ("p5", 0.875), ("p8", 0.375),
        ("p9", 0.625)]
    generated = read_jsonl(tmp_path / "whole" / "rollouts.jsonl")
    assert len(generated) == 80 and generated[0] == {
        "id": "p0", "completion": "0", "score": 0.0, "reason": "wrong", "finish_reason": "stop"}


def test_worker_processes_write_the_same_journal_and_outputs(tmp_path):
    prompts, rollouts, config = _dataset(tmp_path, use="filter_rewards:explode_on_boom")
    cfg = load_config(config)
    one = FilterJob(prompts=prompts, out=tmp_path / "one", rollouts=rollouts, chunk_size=100)
    two = FilterJob(prompts=prompts, out=tmp_path / "two", rollouts=rollouts, chunk_size=100,
                    workers=2)
    assert run_filter(one, cfg) == run_filter(two, cfg)
    assert outputs(tmp_path / "two") == outputs(tmp_path / "one")
    assert _journal_chunks(tmp_path / "two") == 17  # 1,608 rows in chunks of 100


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_kill_9_with_worker_processes_leaves_no_orphans_and_resumes(tmp_path):
    prompts, rollouts, config = _dataset(tmp_path)
    args = [prompts, "--rollouts", rollouts, "--config", config, "--chunk-size", "50",
            "--workers", "2"]
    out = tmp_path / "out"
    proc = _start([*args, "--out", out])
    deadline = time.monotonic() + 120
    while _journal_chunks(out) < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    workers = _children(proc.pid)
    _kill_when(proc, lambda: True)
    assert len(workers) >= 2  # the two scoring workers (and multiprocessing's tracker)
    deadline = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [w for w in workers if _alive(w)], "workers outlived their killed parent"
    assert 2 <= _journal_chunks(out) < 33  # 1,608 rows in chunks of 50

    final = cli(*args, "--out", out)
    assert final.returncode == 0, final.stderr
    reference = tmp_path / "reference"
    run_filter(FilterJob(prompts=prompts, out=reference, rollouts=rollouts, chunk_size=50),
               load_config(config))
    assert outputs(out) == outputs(reference)
