"""UECda benchmarks: the ``uecda`` preset through the engine and through protocol 20070.

    python bench/uecda.py                          # everything, default sizes
    python bench/uecda.py --only speed --games 200
    python bench/uecda.py --only strength --sets 100 --set-games 10 --mc-playouts 200

Tables:
1. 5-player random games/s: through the engine's public API (``legal_actions`` + ``apply``, one
   CPU), and through TCP: ``dennou uecda-serve`` with five ``dennou uecda-client random``
   processes on loopback playing one set of ``--games`` games (wall clock, from the clients'
   own timing: the host stores every step, each client mirrors the game).
2. Strength under the ``uecda`` preset: ``greedy`` and ``montecarlo`` against 4 ``random``,
   duplicate deals (each deal seed replayed with the hero in every seat), mean UECda points per
   game (5 大富豪 ... 1 大貧民; 3 is the average) with a 95% interval over deal seeds.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from daifugo import duplicate, engine_games_per_s  # noqa: E402  (bench/daifugo.py)
from dennou.core.bot import RandomBot  # noqa: E402
from dennou.games.daifugo.bots import GreedyBot, MonteCarloBot  # noqa: E402

UECDA = {"preset": "uecda"}


def tcp_games_per_s(games: int) -> tuple[float, float]:
    """Games/s of one set over loopback TCP, and the set's seconds (the slowest client's)."""
    with tempfile.TemporaryDirectory() as data:
        serve = ["uecda-serve", "--port", "0", "--games", str(games), "--data-dir", data]
        server = subprocess.Popen(
            [sys.executable, "-m", "dennou", *serve],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert server.stdout is not None
        found = re.search(r":(\d+):", server.stdout.readline())
        assert found, "uecda-serve did not start"
        port = found.group(1)
        client = ["uecda-client", "random", "--port", port, "--name"]
        clients = [
            subprocess.Popen(
                [sys.executable, "-m", "dennou", *client, f"r{i}", "--seed", str(i)],
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            for i in range(5)
        ]
        seconds = 0.0
        for client in clients:
            out, _ = client.communicate(timeout=3600)
            took = re.search(r"games in ([\d.]+) s", out)
            assert took, out
            seconds = max(seconds, float(took.group(1)))
        server.communicate(timeout=60)
    return games / seconds, seconds


def speed(seconds: float, games: int) -> None:
    print("## Speed: 5-player random games under the uecda preset\n")
    print("| path | games/s | note |")
    print("|---|---|---|")
    rate, played, decisions = engine_games_per_s(seconds, {"preset": "uecda", "games": 1})
    print(
        f"| engine public API (1 CPU) | {rate:,.0f} | {played} games, {decisions:.0f} decisions"
        " per game |",
        flush=True,
    )
    rate, took = tcp_games_per_s(games)
    print(
        f"| protocol 20070 over loopback TCP (server + 5 clients) | {rate:,.1f} | one set of "
        f"{games} games in {took:.1f} s wall |",
        flush=True,
    )


def strength(sets: int, set_games: int, mc_playouts: int) -> None:
    games = sets * 5 * set_games
    print("\n## Strength under the uecda preset: hero vs 4 x random, duplicate deals\n")
    print(f"{sets} deal seeds x 5 seat rotations x {set_games}-game sets = {games} games\n")
    print("| hero | mean points/game | 95% interval | seconds |")
    print("|---|---|---|---|")
    heroes: list[tuple[str, Any]] = [
        ("random", RandomBot),
        ("greedy", GreedyBot),
        (f"montecarlo:playouts={mc_playouts}", lambda: MonteCarloBot(playouts=mc_playouts)),
    ]
    for name, hero in heroes:
        t = time.perf_counter()
        mean, lo, hi, _ = duplicate(hero, RandomBot, sets, set_games, 7000, UECDA)
        print(
            f"| {name} | {mean:.3f} | [{lo:.3f}, {hi:.3f}] | {time.perf_counter() - t:.0f} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=["speed", "strength"], default=None)
    parser.add_argument("--seconds", type=float, default=3.0, help="engine speed measurement")
    parser.add_argument("--games", type=int, default=200, help="games of the TCP set")
    parser.add_argument("--sets", type=int, default=20, help="deal seeds in strength runs")
    parser.add_argument("--set-games", type=int, default=10, help="games per set")
    parser.add_argument("--mc-playouts", type=int, default=200)
    args = parser.parse_args()
    if args.only in (None, "speed"):
        speed(args.seconds, args.games)
    if args.only in (None, "strength"):
        strength(args.sets, args.set_games, args.mc_playouts)


if __name__ == "__main__":
    main()
