"""Daifugo bot strength: a hero against 4 copies of a field bot, duplicate deals, seats rotated.

    python bench/daifugo_strength.py                  # the two rows below, 4 deals (200 games each)
    python bench/daifugo_strength.py --deals 40       # the full run: 2,000 games per row
    python bench/daifugo_strength.py --hero ismcts:ms=150 --field montecarlo:ms=150
    python bench/daifugo_strength.py --hero ismcts --field greedy --hero-sees-hands

Default rows: ``ismcts:ms=100`` against 4 ``montecarlo:ms=100`` (equal thinking time), and
``ismcts`` (its default budget, 3000 playouts) against 4 ``greedy``.

Every deal seed is played once with the hero in each of the 5 seats (the same cards: the chance
stream depends on the seed only), as sets of ``--games`` games under the seed rules with the
set's final bonus off, so that a game's points are the titles' 2, 1, 0, -1, -2 (games 2.. start
with the exchange). A deal's figure is the hero's mean points per game over its rotations; the
table gives their mean with a 95% interval (normal, over deals), and the hero's median and
largest decision times.

``--hero-sees-hands`` measures what the hidden hands are worth to an ``ismcts`` hero: its
determinizations are the true deal of the moment (a measurement only: bots are never given
hidden state in play).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import numpy as np

from dennou.arena.bots import make_bot
from dennou.arena.play import GameRun, play
from dennou.games.daifugo import GAME
from dennou.games.daifugo.ismcts import IsmctsBot
from dennou.games.daifugo.search import Context

NAMES = ["p0", "p1", "p2", "p3", "p4"]


def rules_of(games: int, preset: str | None) -> Any:
    """The seed rules (or a preset) with ``games`` games a set and no final bonus."""
    options: dict[str, Any] = {"games": games, "final_points": (0, 0, 0, 0, 0)}
    if preset:
        options["preset"] = preset
    return GAME.make_rules(options)


class TrueHands:
    """For ``--hero-sees-hands``: the game's state as the play loop leaves it, and the hero."""

    state: Any = None
    seat = -1

    @staticmethod
    def keep(_step: Any, state: Any) -> None:
        TrueHands.state = state


_SAMPLED = Context.deals


def true_deals(ctx: Context, count: int, seed: int) -> np.ndarray:
    """The hero's deals are the true one; anybody else's are sampled as usual."""
    if ctx.seat != TrueHands.seat:
        return _SAMPLED(ctx, count, seed)
    return np.array([list(TrueHands.state.hands)] * count, dtype=np.int64)


def one_deal(job: tuple[str, str, int, int, str | None, bool]) -> tuple[float, list[float]]:
    """The hero's mean points per game over the 5 rotations of one deal, and its decision ms."""
    hero, field, seed, games, preset, sees = job
    rules = rules_of(games, preset)
    total = 0.0
    times: list[float] = []
    if sees:
        setattr(Context, "deals", true_deals)  # noqa: B010 (a measurement's patch)
    for seat in range(5):
        bots = [make_bot(GAME, hero if i == seat else field) for i in range(5)]
        if sees:
            run = GameRun(GAME, rules, bots, seed, players=NAMES)
            TrueHands.state, TrueHands.seat = run.state, seat
            record = run.play(on_step=TrueHands.keep)
        else:
            record = play(GAME, rules, bots, seed, players=NAMES)
        assert record.outcome is not None
        assert not [s for s in record.steps if s.default is not None]
        total += record.outcome["scores"][seat] / games
        times += [s.ms for s in record.steps if s.seat == seat and s.ms is not None]
    return total / 5, times


def measure(
    hero: str,
    field: str,
    deals: int,
    games: int,
    workers: int,
    seed: int,
    preset: str | None,
    sees: bool = False,
) -> None:
    """Print one row of the table."""
    started = time.perf_counter()
    jobs = [(hero, field, seed + d, games, preset, sees) for d in range(deals)]
    results: list[tuple[float, list[float]]] = []

    def seen(result: tuple[float, list[float]]) -> None:
        # A long run shows its progress (and what a cut-short run had) on stderr.
        results.append(result)
        so_far = statistics.fmean(r[0] for r in results)
        print(
            f"  deal {len(results)}/{deals}: {result[0]:+.3f} (mean {so_far:+.3f}, "
            f"{time.perf_counter() - started:.0f} s)",
            file=sys.stderr,
            flush=True,
        )

    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            for result in pool.map(one_deal, jobs):
                seen(result)
    else:
        for job in jobs:
            seen(one_deal(job))
    per_deal = [r[0] for r in results]
    times = sorted(t for r in results for t in r[1][1:])  # the first decision may compile
    mean = statistics.fmean(per_deal)
    sd = statistics.stdev(per_deal) if len(per_deal) > 1 else float("nan")
    half = 1.96 * sd / math.sqrt(len(per_deal))
    label = f"{hero} (sees every hand)" if sees else hero
    print(
        f"| {label} | 4 x {field} | {mean:+.3f} | [{mean - half:+.3f}, {mean + half:+.3f}] | "
        f"{deals * 5 * games} | {statistics.median(times):.0f} / {times[-1]:.0f} | "
        f"{time.perf_counter() - started:.0f} s |",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hero", default=None, help="hero bot spec (default: the two rows)")
    parser.add_argument("--field", action="append", help="field bot spec (repeatable)")
    parser.add_argument("--deals", type=int, default=4, help="deal seeds (x 5 seats x games)")
    parser.add_argument("--games", type=int, default=10, help="games per set")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--preset", default=None, help="rules preset (default: the seed rules)")
    parser.add_argument(
        "--hero-sees-hands",
        action="store_true",
        help="an ismcts hero searches the true deal (what the hidden hands are worth)",
    )
    args = parser.parse_args()
    rows = [("ismcts:ms=100", "montecarlo:ms=100"), ("ismcts", "greedy")]
    if args.hero or args.field:
        hero = args.hero or "ismcts"
        rows = [(hero, field) for field in args.field or ["greedy"]]
    if args.hero_sees_hands and not isinstance(make_bot(GAME, rows[0][0]), IsmctsBot):
        parser.error("--hero-sees-hands needs an ismcts hero (--hero ismcts...)")
    print(f"\n{args.deals} deals x 5 seats x {args.games} games; points per game 2 1 0 -1 -2\n")
    print("| hero | field | mean points/game | 95% CI | games | hero ms median / max | time |")
    print("|---|---|---|---|---|---|---|")
    for hero, field in rows:
        measure(
            hero,
            field,
            args.deals,
            args.games,
            args.workers,
            args.seed,
            args.preset,
            args.hero_sees_hands,
        )


if __name__ == "__main__":
    main()
