"""Numeron head to head: ``race`` against ``optimal``, items against none, item margins.

Usage::

    PYTHONPATH=src python bench/numeron_race.py fast --digits 3 --deals 10000
    PYTHONPATH=src python bench/numeron_race.py engine --digits 3 --deals 1000 \\
        --first race --second optimal
    PYTHONPATH=src python bench/numeron_race.py engine --digits 4 --deals 1000 \\
        --first race --second race:items=false
    PYTHONPATH=src python bench/numeron_race.py sweep --deals 500

Every comparison is on **duplicate deals**: each deal (both secret numbers, who calls first, the
bots' random streams) is played twice with the bots' seats swapped, so luck of the deal cancels.
The win rate of the first bot is reported with a 95% Wilson interval over all games (a draw,
possible only with ``equal_turns``, counts half).

* ``fast``: the no-item race simulated directly with the bots' own call logic
  (``Planner.choose``: the same code the bots run, minus the engine's views and events, which
  add nothing to a game without items but judging). Fast enough for the tens of thousands of
  games a 1% edge needs.
* ``engine``: real games through ``dennou.arena.play`` (any rules, items included); the deal is
  duplicated by the seed (seat ``s`` draws its number from its own seeded stream, the coin
  from the chance stream, whichever bot sits there).
* ``sweep``: the item margins (``keep`` for attack items, ``guard`` for defence items): each
  variant against the default ``race`` bot with 4 digits and items, ``engine`` games.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from dennou.arena.bots import make_bot
from dennou.arena.match import wilson
from dennou.arena.play import play
from dennou.games.numeron import GAME
from dennou.games.numeron.plain import hit_code
from dennou.games.numeron.race import Planner, warm
from dennou.games.numeron.rules import NumeronRules
from dennou.games.numeron.solver import judge_table


def fast_game(
    digits: int, secrets: tuple[int, int], first: int, objectives: tuple[str, str], seed: int
) -> int:
    """One no-item game; returns the winner's seat. Seat ``s`` holds ``secrets[s]``."""
    tab = judge_table(digits)
    hit = hit_code(digits)
    n = tab.shape[0]
    planners = [Planner(digits, random.Random(seed * 2 + s)) for s in (0, 1)]
    sets = [np.arange(n, dtype=np.int64), np.arange(n, dtype=np.int64)]  # each seat's candidates
    rngs = [random.Random(seed * 2 + 100 + s) for s in (0, 1)]
    attacker = first
    for _ in range(64):
        mine, theirs = sets[attacker], sets[1 - attacker]
        g = planners[attacker].choose(
            mine, theirs, objectives[attacker], rngs[attacker], time.perf_counter() + 5.0
        )
        code = tab[g, secrets[1 - attacker]]
        if code == hit:
            return attacker
        sets[attacker] = mine[tab[g][mine] == code]
        attacker = 1 - attacker
    raise RuntimeError("no hit in 64 turns")


def run_fast(digits: int, deals: int, seed: int) -> None:
    warm(digits)
    rng = random.Random(seed)
    n = judge_table(digits).shape[0]
    wins = 0
    games = 0
    started = time.perf_counter()
    for d in range(deals):
        secrets = (rng.randrange(n), rng.randrange(n))
        first = rng.randrange(2)
        for race_seat in (0, 1):
            objectives = ("win", "calls") if race_seat == 0 else ("calls", "win")
            wins += fast_game(digits, secrets, first, objectives, seed * 1_000_003 + d) == race_seat
            games += 1
    p = wins / games
    lo, hi = wilson(p, games)
    print(
        f"fast, {digits} digits, no items: race vs optimal {p:.4f} [{lo:.4f}, {hi:.4f}] "
        f"over {games} games ({deals} duplicate deals), {time.perf_counter() - started:.0f} s"
    )


def run_engine(
    rules: NumeronRules, first: str, second: str, deals: int, seed: int
) -> tuple[float, float, float, int, list[float]]:
    """(win rate of ``first``, low, high, games, decision times of ``first`` in ms)."""
    warm(rules.digits)
    score = 0.0
    games = 0
    times: list[float] = []
    for d in range(deals):
        for seat in (0, 1):
            specs = [first, second] if seat == 0 else [second, first]
            record = play(GAME, rules, [make_bot(GAME, s) for s in specs], seed + d)
            assert record.outcome is not None
            ranks = record.outcome["ranks"]
            score += 1.0 if ranks[seat] < ranks[1 - seat] else 0.5 if ranks[0] == ranks[1] else 0
            games += 1
            times.extend(s.ms for s in record.steps if s.seat == seat and s.ms is not None)
    p = score / games
    lo, hi = wilson(p, games)
    return p, lo, hi, games, times


def report_engine(rules: NumeronRules, first: str, second: str, deals: int, seed: int) -> None:
    started = time.perf_counter()
    p, lo, hi, games, times = run_engine(rules, first, second, deals, seed)
    items = "items" if rules.item_set() else "no items"
    arr = np.array(times)
    print(
        f"engine, {rules.digits} digits, {items}: {first} vs {second} {p:.4f} [{lo:.4f}, {hi:.4f}]"
        f" over {games} games ({deals} duplicate deals); {first}'s decisions: median "
        f"{statistics.median(times):.1f} ms, p99 {np.percentile(arr, 99):.0f} ms, max "
        f"{arr.max():.0f} ms; {time.perf_counter() - started:.0f} s"
    )


SWEEP = [
    "race:keep=0:guard=0",
    "race:keep=0.03:guard=0.01",
    "race:keep=0.01:guard=0.03",
    "race:keep=0.05:guard=0.05",
    "race:keep=0.1:guard=0.1",
    "race:keep=0.01:guard=1",
    "race:keep=1:guard=0.01",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=("fast", "engine", "sweep"))
    parser.add_argument("--digits", type=int, default=3)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", default="race")
    parser.add_argument("--second", default="optimal")
    parser.add_argument("--items", default=None, help="'none' to play 4-5 digits without items")
    args = parser.parse_args()
    if args.mode == "fast":
        run_fast(args.digits, args.deals, args.seed)
        return
    if args.mode == "engine":
        items = () if args.items == "none" else None
        report_engine(
            NumeronRules(digits=args.digits, items=items),
            args.first,
            args.second,
            args.deals,
            args.seed,
        )
        return
    rules = NumeronRules(digits=4)
    for variant in SWEEP:
        report_engine(rules, variant, "race", args.deals, args.seed)


if __name__ == "__main__":
    main()
