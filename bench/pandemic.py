"""Pandemic Game: the ``belief`` bot's qualification rate against ``random``, with 95% intervals.

Each line plays ``--games`` games of 12 players (default rules) with ``k`` belief bots and the
rest random, the belief bots' seats drawn afresh each game (seat order matters: in the arena,
lower seats seal first). Reported: the qualification rate of the belief seats and of the random
seats in the same games, with Wilson 95% intervals, and the time per game. The first line (k=0)
is the baseline: every seat random (6 of 12 qualify unless more than 6 end infected).

Then: the belief bot's time per decision, and the cost of ``determinize`` with a cold world
filter (16 resolved ticks) and of ``view``.

Run: ``PYTHONPATH=src python bench/pandemic.py --games 200``.
"""

from __future__ import annotations

import argparse
import random
import time

from dennou.arena.bots import make_bot
from dennou.arena.match import proportion_ci
from dennou.arena.play import play
from dennou.games import get
from dennou.games.pandemic.belief import BeliefBot

DECISIONS = [0, 0.0]  # belief decisions made, seconds spent in them


def _timed_choose() -> None:
    original = BeliefBot.choose

    def choose(self: BeliefBot, view: dict[str, object]) -> object:
        started = time.perf_counter()
        try:
            return original(self, view)
        finally:
            DECISIONS[0] += 1
            DECISIONS[1] += time.perf_counter() - started

    BeliefBot.choose = choose  # type: ignore[assignment,method-assign]


def determinize_cost(games: int, seed: int) -> tuple[float, float]:
    """Milliseconds per ``determinize`` of a player's view at the end of round 2, and per view."""
    game = get("pandemic")
    det_s = view_s = 0.0
    calls = 0
    for g in range(games):
        rng = random.Random(seed + g)
        bots = [make_bot(game, "belief" if s < 6 else "random") for s in range(12)]
        states: list[object] = []
        record = play(
            game,
            None,
            bots,
            seed=rng.randrange(2**32),
            on_step=lambda st, s, keep=states: keep.append(s),
        )
        mid = next(s for s in states if getattr(s, "round", 0) == 3)
        for seat in range(12):
            started = time.perf_counter()
            view = game.view(mid, seat)
            view_s += time.perf_counter() - started
            started = time.perf_counter()
            game.determinize(view, seat, rng)
            det_s += time.perf_counter() - started
            calls += 1
        assert record.outcome is not None
    return det_s / calls * 1000, view_s / calls * 1000


def run(
    k: int, games: int, seed: int, hero: str = "belief", field: str = "random"
) -> tuple[list[float], list[float], float]:
    """``k`` seats of ``hero`` (drawn afresh each game), the rest ``field``: their scores."""
    game = get("pandemic")
    belief: list[float] = []
    rand: list[float] = []
    started = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + k * 10_007 + g)
        seats = set(rng.sample(range(12), k))
        specs = [hero if s in seats else field for s in range(12)]
        bots = [make_bot(game, spec) for spec in specs]
        record = play(game, None, bots, seed=rng.randrange(2**32))
        assert record.outcome is not None
        scores = record.outcome["scores"]
        for s in range(12):
            (belief if s in seats else rand).append(scores[s])
    return belief, rand, (time.perf_counter() - started) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--belief", type=int, nargs="*", default=[0, 1, 6, 11], help="hero seats per line"
    )
    parser.add_argument("--hero", default="belief", help="the bot measured")
    parser.add_argument("--field", default="random", help="the other seats' bot")
    args = parser.parse_args()
    _timed_choose()
    print(f"Pandemic Game, 12 players, default rules, {args.games} games per line")
    hero, field = args.hero, args.field
    print(
        f"{hero + ' bots':>11} | {hero + ' qualified':>24} | {field + ' qualified':>24} | "
        f"{'s/game':>6}"
    )
    print("-" * 76)
    for k in args.belief:
        belief, rand, per_game = run(k, args.games, args.seed, hero, field)

        def cell(xs: list[float]) -> str:
            if not xs:
                return "-"
            lo, hi = proportion_ci(sum(xs), len(xs))
            return f"{sum(xs) / len(xs):.3f} [{lo:.3f}, {hi:.3f}]"

        print(f"{k:>11} | {cell(belief):>24} | {cell(rand):>24} | {per_game:6.2f}")
    if DECISIONS[0]:
        print(f"belief bot: {DECISIONS[1] / DECISIONS[0] * 1000:.1f} ms per decision")
    det_ms, view_ms = determinize_cost(5, args.seed)
    print(
        f"determinize (cold world filter, start of round 3): {det_ms:.1f} ms; "
        f"view: {view_ms:.2f} ms"
    )


if __name__ == "__main__":
    main()
