"""Cold start: every bot's set-up and first three decisions in a new process, beside a busy core.

    python bench/cold_start.py [--game numeron ...] [--cache DIR | --cache installed] [--cold]
        [--neighbours 1]

The README's set-up (``pip install`` then ``dennou serve``, which runs ``dennou warm`` in the
background) leaves Numba's cache filled; this bench fills a cache the same way (``dennou warm
GAME`` with ``NUMBA_CACHE_DIR`` set to a new directory, or to ``--cache DIR``, warmed once and then
reused; ``--cache installed``: Numba's own cache beside this checkout's sources, where ``dennou
warm`` puts it without ``NUMBA_CACHE_DIR``, warmed by ``dennou warm GAME`` at once if already
filled) and then, for every game and every bot it lists (``random``, the game's own), starts a new
Python process that imports dennou, makes the game, plays it (chance drawn, the other seats
random) and times the bot's set-up (``make_bot``, ``reset``) and its first three decisions
(Numeron's first is the secret; its second, a call, is the first that searches); the load before
(importing dennou and the game, the game's first moves) is shown apart, in parentheses: a bot
whose code is imported with the game has part of its set-up there. All the while
``--neighbours`` processes (1) spin on the CPU, as another program would on the machine. Printed
per bot, set-up plus the three decisions, in seconds:

* **warm, library**: the library's default mode (:mod:`dennou.core.native` ``wait``): the bot
  loads its compiled code before it decides, and plays at full strength from the first decision;
* **warm, host**: as the host's bot workers and ``dennou bot run`` run bots (``play-on``): while
  the code loads in the background, the bot decides by its fallback;
* with ``--cold``, the same two on an empty cache (a fresh install, nothing warmed): slow.

The target is at most 0.5 s for every bot.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ENV = "DENNOU_WHILE_COMPILING"  # dennou.core.native.ENV (not imported: the probes import)
TARGET = 0.5
INSTALLED = "installed"
"""``--cache installed``: Numba's own cache (beside the sources), as ``dennou warm`` fills it."""

PROBE = r"""
import time
t0 = time.perf_counter()
import json, random, sys
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
        loaded = t1 - t0
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
    print(json.dumps({"load": loaded, "make": made, "decisions": times}))
"""

SPIN = "import time\nend = time.monotonic() + 3600\nwhile time.monotonic() < end: pass"


def bots_of(game: str) -> list[str]:
    sys.path.insert(0, str(ROOT / "src"))
    from dennou.arena.bots import available_bots
    from dennou.games import get

    return sorted(available_bots(get(game)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument(
        "--cache", help="Numba cache directory to warm once and reuse ('installed': Numba's own)"
    )
    parser.add_argument("--cold", action="store_true", help="also time an empty cache (slow)")
    parser.add_argument("--neighbours", type=int, default=1, help="CPU-bound processes beside")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    from dennou.games import REGISTRY

    games = args.game or sorted(REGISTRY)
    cache = args.cache or tempfile.mkdtemp(prefix="numba-cache-")
    columns = ["warm, library", "warm, host"] + (
        ["cold, library", "cold, host"] if args.cold else []
    )
    print(
        f"| game | bot | {' | '.join(f'{c} s' for c in columns)} | host (load) set-up + decisions |"
    )
    print("|---|---|" + "---|" * len(columns) + "---|")
    neighbours = [
        subprocess.Popen([sys.executable, "-c", SPIN], stdin=subprocess.DEVNULL)
        for _ in range(args.neighbours)
    ]
    worst = dict.fromkeys(columns, 0.0)
    try:
        for game in games:
            warm(game, cache)
            for bot in bots_of(game):
                if bot == "policy":  # needs a trained policy file: nothing to compile
                    continue
                runs = {
                    "warm, library": probe(game, bot, env(cache, "wait")),
                    "warm, host": probe(game, bot, env(cache, "play-on")),
                }
                if args.cold:
                    runs["cold, library"] = probe(game, bot, env(None, "wait"))
                    runs["cold, host"] = probe(game, bot, env(None, "play-on"))
                if any(run is None for run in runs.values()):
                    print(f"| {game} | {bot} | nobody decides in this game |")
                    continue
                cells = []
                for column in columns:
                    run = runs[column]
                    assert run is not None
                    total = run["make"] + sum(run["decisions"])
                    worst[column] = max(worst[column], total)
                    cells.append(f"{total:.2f}")
                host = runs["warm, host"]
                assert host is not None
                parts = " + ".join(f"{t:.2f}" for t in [host["make"], *host["decisions"]])
                parts = f"({host['load']:.2f}) {parts}"
                print(f"| {game} | {bot} | {' | '.join(cells)} | {parts} |", flush=True)
    finally:
        for process in neighbours:
            process.kill()
            process.wait()
    slowest = "; ".join(f"{column} {value:.2f} s" for column, value in worst.items())
    print(f"\nslowest (set-up + first 3 decisions): {slowest} (target ≤ {TARGET} s)")


def warm(game: str, cache: str) -> None:
    """Run ``dennou warm GAME`` on ``cache`` once (a marker file remembers it)."""
    marker = Path(cache) / f".warmed-{game}"
    if cache != INSTALLED and marker.exists():
        return
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "dennou", "warm", "--quiet", game],
        env=env(cache, "wait"),
        check=True,
    )
    if cache != INSTALLED:
        marker.touch()
    print(f"(dennou warm {game}: {time.perf_counter() - started:.1f} s)", file=sys.stderr)


def env(cache: str | None, mode: str) -> dict[str, str]:
    """The environment of a probe: Numba's cache (``None``: a new empty one) and the mode."""
    out = {**os.environ, "PYTHONPATH": str(ROOT / "src"), ENV: mode}
    # An install compiles the modules once (pip writes their bytecode); without the bytecode
    # every new process compiles dennou's sources again (0.1-0.5 s of a bot's set-up).
    out.pop("PYTHONDONTWRITEBYTECODE", None)
    if cache == INSTALLED:
        out.pop("NUMBA_CACHE_DIR", None)
    else:
        out["NUMBA_CACHE_DIR"] = cache or tempfile.mkdtemp(prefix="numba-cache-")
    return out


def probe(game: str, bot: str, environment: dict[str, str]) -> dict[str, Any] | None:
    """The bot's set-up (``make``) and first decisions' seconds, in a new process."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, game, bot],
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    got = json.loads(done.stdout.strip().splitlines()[-1])
    if got.get("none"):
        return None
    return {"load": got["load"], "make": got["make"], "decisions": list(got["decisions"])}


if __name__ == "__main__":
    main()
