"""Cold start: every bot's first decision in a fresh process, with Numba's caches cleared first.

    python bench/cold_start.py [--game daifugo ...]

For every game and every bot it lists (``random``, the game's own), a new Python process with an
empty Numba cache directory (``NUMBA_CACHE_DIR``, so nothing compiled earlier is reused) imports
dennou, makes the game, draws chance up to the first decision a seat owes, builds the bot and
times its first ``act`` ("cold": a fresh install). Then ``dennou warm`` runs once on that cache
and the same probe runs again ("after warm": what a host gives its bots, since ``dennou serve``
warms in the background at start). Printed per bot: bot set-up (``make_bot``, ``reset``) plus
first decision, cold and after warm; the target is under 1 s.
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
    if not acting:
        print(json.dumps({"none": True}))  # nobody decides (stud10: the cards play)
        sys.exit(0)
    if CHANCE in acting:
        state, _ = game.apply(state, CHANCE, game.sample_chance(state, rng))
        continue
    seat = min(acting)
    break
view = game.view(state, seat)
legal = game.legal_actions(state, seat)
t1 = time.perf_counter()
bot = make_bot(game, sys.argv[2])
bot.reset(seat=seat, rules=rules, players=[f"p{i}" for i in range(n)])
t2 = time.perf_counter()
bot.act(view, legal, rng)
t3 = time.perf_counter()
print(json.dumps({"setup": t1 - t0, "make": t2 - t1, "first": t3 - t2}))
"""


def bots_of(game: str) -> list[str]:
    sys.path.insert(0, str(ROOT / "src"))
    from dennou.arena.bots import available_bots
    from dennou.games import get

    return sorted(available_bots(get(game)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    from dennou.games import REGISTRY

    games = args.game or sorted(REGISTRY)
    print("| game | bot | cold: bot set-up + first decision s | after `dennou warm` s |")
    print("|---|---|---|---|")
    worst = {"cold": 0.0, "warm": 0.0}
    for game in games:
        cold = {bot: probe(game, bot, fresh_env()) for bot in bots_of(game) if bot != "policy"}
        env = fresh_env()
        subprocess.run(
            [sys.executable, "-m", "dennou", "warm", "--quiet", game], env=env, check=True
        )
        for bot, first in cold.items():
            warm = probe(game, bot, env)
            if first is None or warm is None:
                print(f"| {game} | {bot} | nobody decides in this game | |")
                continue
            worst["cold"] = max(worst["cold"], first)
            worst["warm"] = max(worst["warm"], warm)
            print(f"| {game} | {bot} | {first:.2f} | {warm:.2f} |", flush=True)
    print(
        f"\nslowest first decision: cold {worst['cold']:.2f} s, after warm-up "
        f"{worst['warm']:.2f} s (target < 1 s)"
    )


def fresh_env() -> dict[str, str]:
    """The environment of a process with an empty Numba cache of its own."""
    cache = tempfile.mkdtemp(prefix="numba-cache-")
    return {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT / "src")}


def probe(game: str, bot: str, env: dict[str, str]) -> float | None:
    """Seconds from asking for the bot to its first decision, in a new process."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, game, bot],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    got = json.loads(done.stdout.strip().splitlines()[-1])
    if got.get("none"):
        return None
    return float(got["make"] + got["first"])


if __name__ == "__main__":
    main()
