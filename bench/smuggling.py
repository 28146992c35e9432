"""Smuggling Game benchmark: planner and equilibrium teams against greedy and random teams.

Each pairing plays ``--games`` games; the first team's bots sit North in even-numbered games and
South in odd ones (so each side smuggles first equally often). Reported per pairing: the first
team's win rate (a draw counts half) with a 95% Wilson interval, the mean individual money of its
members and of the opponents' (yen, millions; normal 95% intervals over games), and the time.

    PYTHONPATH=src python bench/smuggling.py --games 40
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from dennou.arena import make_bot, play
from dennou.arena.match import proportion_ci
from dennou.games.smuggling import GAME

PAIRINGS = [
    ("equilibrium", "greedy"),
    ("equilibrium", "random"),
    ("equilibrium:objective=self", "greedy"),
    ("equilibrium:objective=self", "equilibrium"),
    ("greedy", "random"),
    ("equilibrium", "equilibrium"),
    ("equilibrium:exploit=true", "greedy"),
    ("equilibrium:exploit=true", "random"),
    ("equilibrium:exploit=true", "equilibrium"),
    ("planner", "greedy"),
    ("planner", "equilibrium"),
    ("planner", "equilibrium:exploit=true"),
    ("planner:exploit=false", "greedy"),
    ("planner:exploit=false", "equilibrium"),
]


def mean_ci(xs: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return mean, half


def run(first: str, second: str, games: int, team_size: int, small_games: int) -> dict[str, object]:
    rules = GAME.make_rules({"team_size": team_size, "small_games": small_games})
    wins = 0.0
    mine: list[float] = []
    theirs: list[float] = []
    started = time.perf_counter()
    for g in range(games):
        north_first = g % 2 == 0
        a = [make_bot(GAME, first) for _ in range(team_size)]
        b = [make_bot(GAME, second) for _ in range(team_size)]
        record = play(GAME, rules, a + b if north_first else b + a, seed=g)
        assert record.outcome is not None
        teams = record.outcome["teams"]
        scores = record.outcome["scores"]
        my_team = "north" if north_first else "south"
        wins += teams[my_team]
        north, south = scores[:team_size], scores[team_size:]
        own, other = (north, south) if north_first else (south, north)
        mine.append(statistics.fmean(own) / 1e6)
        theirs.append(statistics.fmean(other) / 1e6)
    lo, hi = proportion_ci(wins, games)
    return {
        "pairing": f"{first} vs {second}",
        "win": wins / games,
        "ci": (lo, hi),
        "mine": mean_ci(mine),
        "theirs": mean_ci(theirs),
        "sec": time.perf_counter() - started,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per pairing")
    parser.add_argument("--team-size", type=int, default=9)
    parser.add_argument("--small-games", type=int, default=50)
    parser.add_argument("--only", default="", help="run pairings whose text contains this")
    args = parser.parse_args()
    print(
        f"smuggling: {args.games} games per pairing, {args.team_size} v {args.team_size}, "
        f"{args.small_games} small games; sides alternate"
    )
    header = (
        f"{'pairing (first vs second)':<44} {'first team wins':>22} "
        f"{'first: money/player (M)':>24} {'second: money/player (M)':>25} {'s':>6}"
    )
    print(header)
    print("-" * len(header))
    for first, second in PAIRINGS:
        if args.only and args.only not in f"{first} vs {second}":
            continue
        r = run(first, second, args.games, args.team_size, args.small_games)
        lo, hi = r["ci"]  # type: ignore[misc]
        (m, mh), (t, th) = r["mine"], r["theirs"]  # type: ignore[misc]
        print(
            f"{r['pairing']:<44} {r['win']:>7.1%} [{lo:5.1%}, {hi:5.1%}] "
            f"{m:>12.1f} ± {mh:<8.1f} {t:>13.1f} ± {th:<8.1f} {r['sec']:>6.0f}"
        )


if __name__ == "__main__":
    main()
