"""Every engine's speed through the public checked API, and the cost of a view per decision.

    python bench/engines.py                 # every game, 3 CPU seconds per measurement
    python bench/engines.py --seconds 1 numeron hilo

For each game, full games are played to the end with the rules below (short enough that a game
ends in well under a second): chance by ``sample_chance``, every other seat by the game's own
test driver (``conformance_action``: uniform over the legal actions, except where a game biases
it so that games end, e.g. Numeron hits one call in eight). Two figures per game:

- **engine**: games per CPU second with ``to_act`` + ``legal_actions`` + ``apply`` only;
- **+ views**: the same games, also building a view before each step (the acting seat's, what
  the host and every bot do; a spectator's before a chance step).

Speeds are per CPU second (``time.process_time``); the last line gives this machine's speed on a
fixed pure-Python loop so runs on a busy machine can be compared. The games have no outside peer
here (Daifugo's peers are in ``bench/daifugo.py``, 10-card stud's in ``bench/stud10.py``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import timeit
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from dennou.core.game import CHANCE
from dennou.games import REGISTRY

# Rules and player counts for one measured game (options as on the command line).
SETUPS: dict[str, tuple[dict[str, Any], int]] = {
    "numeron": ({"digits": 4}, 2),
    "daifugo": ({"games": 1}, 5),
    "stud10": ({"view_odds": False}, 5),
    "hilo": ({"max_games": 1, "max_rounds": 40}, 4),
    "smuggling": ({"team_size": 3, "small_games": 10}, 6),
    "pandemic": ({}, 12),
    "chairs": ({"chairs": 9}, 10),
}


def games_per_s(name: str, seconds: float, views: bool) -> tuple[float, float]:
    """Games and decisions per CPU second for ``name`` (with a view per decision or not)."""
    game = REGISTRY[name]
    options, n = SETUPS[name]
    rules = game.make_rules(options)
    players = [f"p{i}" for i in range(n)]
    rng = random.Random(0)
    games = decisions = 0
    start = time.process_time()
    warm = True  # the first game compiles and fills caches: not measured
    while time.process_time() - start < seconds or warm:
        if warm and games == 1:
            warm, games, decisions, start = False, 0, 0, time.process_time()
        state = game.new(rules, players)
        while True:
            acting = game.to_act(state)
            if not acting:
                break
            seat = min(acting)
            if views:
                game.view(state, None if seat == CHANCE else seat)
            if seat == CHANCE:
                state, _ = game.apply(state, CHANCE, game.sample_chance(state, rng))
                continue
            legal = game.legal_actions(state, seat)
            action = game.conformance_action(state, seat, legal, rng)
            state, _ = game.apply(state, seat, action)
            decisions += 1
        games += 1
    spent = time.process_time() - start
    return games / spent, decisions / spent


def reference_loop_us() -> float:
    """CPU µs of a fixed pure-Python loop, to compare machines and loads between runs."""
    times = timeit.repeat("sum(range(1000))", repeat=5, number=2000, timer=time.process_time)
    return min(times) / 2000 * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=list(SETUPS), help="games to measure")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per figure")
    args = parser.parse_args()
    print("| game | setup | engine games/s | decisions/s | + views games/s | decisions/s |")
    print("|---|---|---|---|---|---|")
    for name in args.games:
        options, n = SETUPS[name]
        setup = f"{n} players " + " ".join(f"{k}={v}" for k, v in options.items())
        g, d = games_per_s(name, args.seconds, views=False)
        gv, dv = games_per_s(name, args.seconds, views=True)
        print(f"| {name} | {setup} | {g:,.1f} | {d:,.0f} | {gv:,.1f} | {dv:,.0f} |", flush=True)
    print(f"\n(this machine now: `sum(range(1000))` takes {reference_loop_us():.1f} µs of CPU)")


if __name__ == "__main__":
    main()
