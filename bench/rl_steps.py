"""Step cost as an episode grows, and the batched env's first run, each beside its peer.

    python bench/rl_steps.py                  # everything, 3 interleaved repeats (~1 minute)
    python bench/rl_steps.py --only numeron --steps 3000 --repeats 2
    python bench/rl_steps.py --only batched

1. **Numeron, long episodes.** One episode of ``--steps`` AEC steps (``last()``, a uniform legal
   number that misses when it is a call, ``step``) with 3 digits and with 4 (items), the CPU
   time of each step; then the acting seat's view of each of those states in order
   (``GAME.view``, as the host builds it). Printed: the median µs of each tenth of the episode
   and last tenth / first tenth (target: ≤ 1.1 for the env and for views).
2. **Numeron against PettingZoo's ``leduc_holdem_v4``.** Steps per CPU second of random episodes
   (``bench/rl.py``'s loop: resets counted), in alternating runs, with the ratio of each repeat
   (target: ≥ 1×).
3. **Batched Daifugo, first env of a fresh process.** A new Python process per run builds one
   ``DaifugoBatchEnv`` (1,024 rows, seed rules) and steps it for ``--seconds`` CPU seconds: the
   default (output buffers reused) and ``copy=True`` (new arrays every step, the behaviour
   before buffers were reused), alternating (target: ≥ 1.2 M steps/s).

Times are CPU time (``time.process_time``) of this process, so other work on the machine counts
less than in wall time, but it still shares caches and memory bandwidth: compare within a run.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import dennou.rl as rl
from dennou.games.numeron import GAME
from dennou.games.numeron.actions import Call

FIRST_ENV = """
import sys, time
import numpy as np
from dennou.rl.batch import DaifugoBatchEnv
env = DaifugoBatchEnv(1024, {}, seed=0, copy=sys.argv[1] == "copy")
rng = np.random.default_rng(0)
env.step(env.sample_actions(rng))  # compiled (or loaded from Numba's cache) off the clock
env.reset()
steps = 0
start = time.process_time()
while time.process_time() - start < float(sys.argv[2]):
    env.step(env.sample_actions(rng))
    steps += 1024
print(steps / (time.process_time() - start))
"""


def long_episode(digits: int, steps: int, seed: int = 1) -> tuple[list[float], list[float]]:
    """CPU seconds of each AEC step of one long Numeron episode, then of each state's view."""
    env = rl.env("numeron", digits=digits)
    env.reset(seed=seed)
    table = env.table
    enc = table.encoding
    rng = random.Random(seed)
    costs: list[float] = []
    states: list[tuple[Any, int]] = []
    clock = time.process_time
    for agent in env.agent_iter():
        t0 = clock()
        obs, _, term, trunc, _ = env.last()
        spent = clock() - t0
        if term or trunc:
            break
        seat = table.players.index(agent)
        legal = obs["action_mask"].nonzero()[0]
        target = table.state.numbers[1 - seat]
        while True:  # a call that would hit ends the episode: choose again
            index = int(legal[rng.randrange(len(legal))])
            action = enc.action(table.state, seat, index) if table.state.phase == "call" else None
            if not (isinstance(action, Call) and action.number == target):
                break
        t0 = clock()
        env.step(index)
        costs.append(spent + clock() - t0)  # the policy's choice left out
        states.append((table.state, table.acting()[0] if table.acting() else seat))
        if len(costs) >= steps:
            break
    views: list[float] = []
    for state, seat in states:
        t0 = clock()
        GAME.view(state, seat)
        views.append(clock() - t0)
    return costs, views


def deciles(costs: list[float]) -> list[float]:
    """Median µs of each tenth of ``costs`` (the median: a loaded machine's pauses left out)."""
    n = len(costs) // 10
    return [statistics.median(costs[i * n : (i + 1) * n]) * 1e6 for i in range(10)]


def show_deciles(label: str, costs: list[float]) -> None:
    d = deciles(costs)
    cells = " ".join(f"{x:7.1f}" for x in d)
    print(f"| {label:<28} | {cells} | {d[-1] / d[0]:5.2f} |")


def numeron_rows(steps: int, repeats: int) -> None:
    print(f"## Numeron: median µs a step by tenth of a {steps}-step episode (CPU time)")
    print(f"| {'row':<28} | {'tenths 1..10':<79} | last/first |")
    for r in range(repeats):
        for digits in (3, 4):
            costs, views = long_episode(digits, steps, seed=1 + r)
            show_deciles(f"env, {digits} digits (run {r + 1})", costs)
            show_deciles(f"view, {digits} digits (run {r + 1})", views)


def peer_rows(seconds: float, repeats: int) -> None:
    from pettingzoo.classic import leduc_holdem_v4

    from rl import aec_steps_per_s

    print(f"\n## AEC steps per CPU second, random episodes, {seconds:g} s a row, alternating")
    print("| run | leduc_holdem_v4 | numeron 3 digits | ratio | numeron 4 digits (items) | ratio |")
    for r in range(repeats):
        leduc, _ = aec_steps_per_s(leduc_holdem_v4.env, seconds, seed=r)
        three, _ = aec_steps_per_s(lambda: rl.env("numeron", digits=3), seconds, seed=r)
        four, _ = aec_steps_per_s(lambda: rl.env("numeron", digits=4), seconds, seed=r)
        print(
            f"| {r + 1} | {leduc:,.0f} | {three:,.0f} | {three / leduc:.2f}x | {four:,.0f} | "
            f"{four / leduc:.2f}x |"
        )


def batched_rows(seconds: float, repeats: int) -> None:
    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {**os.environ, "PYTHONPATH": src}

    def run(mode: str) -> float:
        out = subprocess.run(
            [sys.executable, "-c", FIRST_ENV, mode, str(seconds)],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        )
        return float(out.stdout.strip().splitlines()[-1])

    run("reuse")  # compile (or load Numba's cache) before the measured processes
    print(f"\n## Batched Daifugo, first env of a fresh process (1,024 rows, {seconds:g} s)")
    print("| run | buffers reused (default) | copy=True (new arrays) | ratio |")
    for r in range(repeats):
        reuse, fresh = run("reuse"), run("copy")
        print(f"| {r + 1} | {reuse:,.0f} | {fresh:,.0f} | {reuse / fresh:.2f}x |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["numeron", "peer", "batched"], default=None)
    parser.add_argument("--steps", type=int, default=3000, help="Numeron episode length")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds a row")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if args.only in (None, "numeron"):
        numeron_rows(args.steps, min(args.repeats, 2))
    if args.only in (None, "peer"):
        peer_rows(args.seconds, args.repeats)
    if args.only in (None, "batched"):
        batched_rows(args.seconds, args.repeats)


if __name__ == "__main__":
    main()
