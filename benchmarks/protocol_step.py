"""What an environment step costs over each protocol, and how many sessions one server holds.

The environment server (`python -m integrations.env_server`, `number_guess` scored by the math
reward) runs as its own process. The same `--episodes` games (guesses 1, 2, ... up to the
answer) are played three ways: in this process (`rewards.envs.Episode`, no server), over
HTTP (`POST /reset`, `POST /step`, one keep-alive connection) and over OpenEnv's WebSocket
(`/ws`, one connection, the messages openenv-core's `EnvClient` sends). Per step it prints
the p50 and p99 latency of each, and the added latency and the ratio of each protocol
against the local step (the peer: the same step with no server);
the trajectory rewards of all three must agree (a verdict). Then `--sessions` WebSocket
connections are opened at once, each holding a live episode, and it prints how many the
server held, and its memory per session (RSS growth over the sessions). A measurement: no
target.

    python benchmarks/protocol_step.py                 # 200 episodes, 1,000 sessions
    python benchmarks/protocol_step.py --quick         # 50 episodes, 200 sessions
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import Report
from _servers import free_port, memory_mb, wait_ready

ENV = "environment: {use: number_guess, max_turns: 10}\n"
REWARD = "domains:\n  default: {rewards: [{use: math}]}\n"


def games(n: int) -> list[int]:
    return [1 + (i * 5) % 8 for i in range(n)]  # number_guess answers are 1 to 8


def local(answers: list[int]) -> tuple[list[float], list[float]]:
    """Step seconds and trajectory rewards of the games in this process."""
    from rewards.build import build_reward
    from rewards.config import parse_config
    from rewards.envs import EnvConfig, Episode, env_factory, score_trajectories
    from rewards.options import load_options
    from rewards.types import Sample

    config = load_options(EnvConfig, {"use": "number_guess", "max_turns": 10}, where="bench")
    reward = build_reward(parse_config({"domains": {"default": {"rewards": ["math"]}}}))
    make = env_factory(config)
    seconds, rewards = [], []
    for answer in answers:
        episode = Episode(make(), Sample("Guess", "", reference=answer), config)
        episode.start()
        for guess in range(1, answer + 1):
            start = time.perf_counter()
            episode.step(str(guess))
            if episode.done:
                trajectory, = score_trajectories([episode], reward)
            seconds.append(time.perf_counter() - start)
        rewards.append(trajectory.reward)
    return seconds, rewards


def over_http(url: str, answers: list[int]) -> tuple[list[float], list[float]]:
    import httpx

    seconds, rewards = [], []
    with httpx.Client(timeout=60) as client:
        for answer in answers:
            out = client.post(url + "/reset", json={"sample": {"prompt": "Guess",
                                                               "reference": answer}}).json()
            episode_id = out["observation"]["episode_id"]
            for guess in range(1, answer + 1):
                start = time.perf_counter()
                out = client.post(url + "/step", json={"episode_id": episode_id,
                                                       "action": {"text": str(guess)}}).json()
                seconds.append(time.perf_counter() - start)
            rewards.append(out["observation"]["trajectory_reward"])
    return seconds, rewards


async def over_ws(url: str, answers: list[int]) -> tuple[list[float], list[float]]:
    from websockets.asyncio.client import connect

    seconds, rewards = [], []
    async with connect(url.replace("http://", "ws://") + "/ws") as ws:
        for answer in answers:
            await ws.send(json.dumps({"type": "reset", "data": {"sample": {
                "prompt": "Guess", "reference": answer}}}))
            json.loads(await ws.recv())
            for guess in range(1, answer + 1):
                start = time.perf_counter()
                await ws.send(json.dumps({"type": "step", "data": {"text": str(guess)}}))
                out = json.loads(await ws.recv())
                seconds.append(time.perf_counter() - start)
            rewards.append(out["data"]["observation"]["trajectory_reward"])
    return seconds, rewards


async def hold(url: str, sessions: int) -> tuple[int, list]:
    """Open `sessions` connections, each with a live episode; (how many the server took,
    the open connections)."""
    from websockets.asyncio.client import connect

    async def one():
        ws = await connect(url.replace("http://", "ws://") + "/ws")
        await ws.send(json.dumps({"type": "reset", "data": {"sample": {"prompt": "Guess",
                                                                       "reference": 5}}}))
        reply = json.loads(await ws.recv())
        return ws, reply["type"] == "observation"

    opened = []
    for start in range(0, sessions, 100):  # a hundred handshakes at a time
        opened += await asyncio.gather(*(one() for _ in range(min(100, sessions - start))))
    return sum(ok for _, ok in opened), [ws for ws, _ in opened]


def quantiles(seconds: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(seconds, n=100)
    return statistics.median(seconds) * 1e3, cuts[98] * 1e3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="50 episodes, 200 sessions")
    args = parser.parse_args()
    if args.quick:
        args.episodes, args.sessions = 50, 200
    report = Report()
    answers = games(args.episodes)
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "env.yaml").write_text(ENV)
        Path(folder, "reward.yaml").write_text(REWARD)
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        episodes = str(max(4096, args.sessions + 10))  # all from loopback: one client,
        proc = subprocess.Popen(                       # so its share is the whole table
            [sys.executable, "-m", "integrations.env_server", "--environment",
             f"{folder}/env.yaml", "--reward-config", f"{folder}/reward.yaml", "--port",
             str(port), "--max-episodes", episodes, "--max-episodes-per-client", episodes,
             "--log-level", "warning"], env=dict(os.environ))
        try:
            wait_ready(proc, url + "/health")
            paths = {"local": local(answers), "HTTP": over_http(url, answers),
                     "WebSocket": asyncio.run(over_ws(url, answers))}
            base = quantiles(paths["local"][0])
            print(f"{'path':<12}{'steps':>8}{'p50 ms':>10}{'p99 ms':>10}{'added p50 ms':>14}"
                  f"{'p50 / local':>13}")
            for name, (seconds, _) in paths.items():
                p50, p99 = quantiles(seconds)
                print(f"{name:<12}{len(seconds):>8}{p50:>10.2f}{p99:>10.2f}"
                      f"{p50 - base[0]:>14.2f}{p50 / base[0]:>12.2f}x")
            same = sum(paths["local"][1][i] == paths["HTTP"][1][i] == paths["WebSocket"][1][i]
                       for i in range(len(answers)))
            report.verdict("trajectory rewards equal on the three paths", same, len(answers))

            before = memory_mb(proc.pid, "VmRSS")

            async def sessions():
                held, sockets = await hold(url, args.sessions)
                after = memory_mb(proc.pid, "VmRSS")
                for ws in sockets:
                    await ws.close()
                return held, after

            held, after = asyncio.run(sessions())
            print(f"\nWebSocket sessions held at once: {held:,} of {args.sessions:,} opened; "
                  f"server RSS {before} -> {after} MiB "
                  f"({(after - before) * 1024 / max(held, 1):.1f} KiB a session)")
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
