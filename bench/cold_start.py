"""Cold start: every bot's first decision in a fresh process, with Numba's caches cleared first.

    python bench/cold_start.py [--game daifugo] [--warm]

For every game and every bot it lists (``random``, the game's own), a new Python process with an
empty Numba cache directory (``NUMBA_CACHE_DIR``, so nothing compiled earlier is reused) imports
dennou, makes the game, draws chance up to the first decision a seat owes, builds the bot and
times its first ``act``. Printed per bot: import + set-up seconds, first-decision seconds, and
their sum (the target: the first decision within 1 s of asking for the bot). ``--warm`` keeps
one cache directory for all runs (a second start after installing).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = r"""
import json, random, sys, time
t0 = time.perf_counter()
from dennou.arena.bots import make_bot
from dennou.core.game import CHANCE
from dennou.games import get
game = get(sys.argv[1])
rules = game.make_rules({})
n = game.default_players(rules)
state = game.new(rules, [f"p{i}" for i in range(n)])
rng = random.Random(0)
while True:
    acting = game.to_act(state)
    if CHANCE in acting:
        state, _ = game.apply(state, CHANCE, game.sample_chance(state, rng))
        continue
    seat = min(acting)
    break
bot = make_bot(game, sys.argv[2])
bot.reset(seat=seat, rules=rules, players=[f"p{i}" for i in range(n)])
view = game.view(state, seat)
legal = game.legal_actions(state, seat)
t1 = time.perf_counter()
bot.act(view, legal, rng)
t2 = time.perf_counter()
print(json.dumps({"setup": t1 - t0, "first": t2 - t1}))
"""


def bots_of(game: str) -> list[str]:
    sys.path.insert(0, str(ROOT / "src"))
    from dennou.arena.bots import available_bots
    from dennou.games import get

    return sorted(available_bots(get(game)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--warm", action="store_true", help="one cache for every run")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    from dennou.games import REGISTRY

    games = args.game or sorted(REGISTRY)
    print("| game | bot | import + set-up s | first decision s | total s |")
    print("|---|---|---|---|---|")
    shared = tempfile.mkdtemp(prefix="numba-cache-")
    worst = 0.0
    for game in games:
        for bot in bots_of(game):
            if bot == "policy":
                continue  # needs a trained policy file
            cache = shared if args.warm else tempfile.mkdtemp(prefix="numba-cache-")
            env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT / "src")}
            done = subprocess.run(
                [sys.executable, "-c", PROBE, game, bot],
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            if done.returncode != 0:
                print(f"| {game} | {bot} | failed: {done.stderr.strip().splitlines()[-1]} | | |")
                continue
            got = json.loads(done.stdout.strip().splitlines()[-1])
            total = got["setup"] + got["first"]
            worst = max(worst, got["first"])
            print(
                f"| {game} | {bot} | {got['setup']:.2f} | {got['first']:.2f} | {total:.2f} |",
                flush=True,
            )
    print(f"\nslowest first decision: {worst:.2f} s (target < 1 s)")


if __name__ == "__main__":
    main()
