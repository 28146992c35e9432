"""Cold start: every bot's first decisions in a fresh process, with Numba's caches cleared first.

    python bench/cold_start.py [--game daifugo ...]

For every game and every bot it lists (``random``, the game's own), a new Python process with an
empty Numba cache directory (``NUMBA_CACHE_DIR``, so nothing compiled earlier is reused) imports
dennou, makes the game, plays it (chance drawn, the other seats random) and times the bot's
set-up (``make_bot``, ``reset``) and its first three decisions (Numeron's first is the secret;
its second, a call, is the first that searches). Printed per bot: set-up plus the slowest of
those decisions, in three runs:

* **cold, wait**: a fresh install in the library's default mode (:mod:`dennou.core.native`):
  the first search waits for its code to compile;
* **cold, play-on**: a fresh install as the host's bot workers and ``dennou bot run`` run bots:
  while the code compiles in the background, the bot decides by its fallback;
* **after warm**: ``dennou warm`` has run once on that cache (``dennou serve`` runs it in the
  background at start), default mode.

The target is under 1 s.
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
ENV = "DENNOU_WHILE_COMPILING"  # dennou.core.native.ENV (not imported: the probes import)

PROBE = r"""
import json, random, sys, time
t0 = time.perf_counter()
from dennou.arena.bots import make_bot
from dennou.core.game import CHANCE
from dennou.games import get
game = get(sys.argv[1])
rules = game.make_rules({})
n = game.default_players(rules)
players = [f"p{i}" for i in range(n)]
state = game.new(rules, players)
rng = random.Random(0)
hero = None
times = []
for _ in range(10_000):
    acting = game.to_act(state)
    if not acting:
        break
    if CHANCE in acting:
        state, _ = game.apply(state, CHANCE, game.sample_chance(state, rng))
        continue
    seat = min(acting)
    if hero is None:
        hero, t1 = seat, time.perf_counter()
        bot = make_bot(game, sys.argv[2])
        bot.reset(seat=seat, rules=rules, players=players)
        made = time.perf_counter() - t1
    legal = game.legal_actions(state, seat)
    if seat == hero:
        view = game.view(state, seat)
        t2 = time.perf_counter()
        action = bot.act(view, legal, rng)
        times.append(time.perf_counter() - t2)
        if len(times) == 3:
            break
    else:
        action = legal[rng.randrange(len(legal))]
    state, events = game.apply(state, seat, action)
    if hero is not None:
        bot.observe([e for e in events if e.visible_to(hero)])
if hero is None:
    print(json.dumps({"none": True}))  # nobody decides (stud10: the cards play)
else:
    print(json.dumps({"make": made, "decisions": times}))
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
    print("| game | bot | cold, wait s | cold, play-on s | after `dennou warm` s |")
    print("|---|---|---|---|---|")
    worst = {"wait": 0.0, "play-on": 0.0, "warm": 0.0}
    for game in games:
        names = [bot for bot in bots_of(game) if bot != "policy"]
        cold = {bot: probe(game, bot, fresh_env()) for bot in names}
        play_on = {bot: probe(game, bot, fresh_env({ENV: "play-on"})) for bot in names}
        env = fresh_env()
        subprocess.run(
            [sys.executable, "-m", "dennou", "warm", "--quiet", game], env=env, check=True
        )
        for bot in names:
            row = {"wait": cold[bot], "play-on": play_on[bot], "warm": probe(game, bot, env)}
            if any(value is None for value in row.values()):
                print(f"| {game} | {bot} | nobody decides in this game | | |")
                continue
            for key, value in row.items():
                assert value is not None
                worst[key] = max(worst[key], value)
            cells = " | ".join(f"{value:.2f}" for value in row.values())
            print(f"| {game} | {bot} | {cells} |", flush=True)
    print(
        f"\nslowest (set-up + slowest of the first 3 decisions): cold, wait {worst['wait']:.2f} s; "
        f"cold, play-on {worst['play-on']:.2f} s; after warm-up {worst['warm']:.2f} s "
        "(target < 1 s)"
    )


def fresh_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a process with an empty Numba cache of its own (and ``extra``)."""
    cache = tempfile.mkdtemp(prefix="numba-cache-")
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT / "src")}
    env.pop(ENV, None)
    return {**env, **(extra or {})}


def probe(game: str, bot: str, env: dict[str, str]) -> float | None:
    """Seconds of the bot's set-up plus its slowest of its first decisions, in a new process."""
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
    return float(got["make"] + max(got["decisions"], default=0.0))


if __name__ == "__main__":
    main()
