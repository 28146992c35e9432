"""Star Hi-Lo benchmark: series win rate and series length of ``bayes``.

Each row plays whole series (the seed's rules: first to 3 game stars) with ``dennou.arena.play``;
the bot under test takes each seat in turn (series i: seat i mod players) so the rotating first
seat favours nobody. Win = rank 1 alone (a shared first counts as half). Intervals are 95%:
Wilson for win rates, normal for means.

    PYTHONPATH=src python bench/hilo.py --series 200
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable

from dennou.arena import play
from dennou.arena.match import proportion_ci
from dennou.core.bot import Bot
from dennou.games.hilo import GAME
from dennou.games.hilo.bayes import BayesBot, HiloRandomBot

Z = 1.96


def mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and the half width of its 95% normal interval."""
    if len(values) < 2:
        return (values[0] if values else 0.0, 0.0)
    return statistics.fmean(values), Z * statistics.stdev(values) / math.sqrt(len(values))


def run(
    label: str, others: Callable[[], Bot], players: int, series: int, seed: int
) -> dict[str, object]:
    wins = 0.0
    games: list[float] = []
    turns: list[float] = []
    ms: list[float] = []
    started = time.perf_counter()
    for i in range(series):
        me = i % players
        bots: list[Bot] = [BayesBot() if s == me else others() for s in range(players)]
        record = play(GAME, None, bots, seed * 1_000_003 + i)
        assert record.outcome is not None
        ranks = record.outcome["ranks"]
        if ranks[me] == 1:
            wins += 1 / ranks.count(1)
        history = record.outcome["detail"]["games"]
        games.append(len(history))
        turns.append(sum(g["turns"] for g in history))
        ms.extend(s.ms for s in record.steps if s.seat == me and s.ms is not None)
    lo, hi = proportion_ci(wins, series)
    g, g_half = mean_ci(games)
    t, t_half = mean_ci(turns)
    return {
        "opponents": label,
        "players": players,
        "series": series,
        "win": wins / series,
        "lo": lo,
        "hi": hi,
        "chance": 1 / players,
        "games": g,
        "games_half": g_half,
        "turns": t,
        "turns_half": t_half,
        "ms": statistics.fmean(ms) if ms else 0.0,
        "seconds": time.perf_counter() - started,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--series", type=int, default=200, help="series per row")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = [
        run("2 x random", HiloRandomBot, 3, args.series, args.seed),
        run("4 x random", HiloRandomBot, 5, args.series, args.seed),
        run("1 x bayes (copy)", BayesBot, 2, args.series, args.seed),
        run("2 x bayes (copies)", BayesBot, 3, args.series, args.seed),
    ]
    print(f"bayes in Star Hi-Lo series (seed rules: first to 3 game stars), seed {args.seed}")
    print(
        "| opponents | players | series | bayes win rate [95%] | chance | games/series [95%] "
        "| turns/series [95%] | ms/decision |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['opponents']} | {r['players']} | {r['series']} "
            f"| {r['win']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}] | {r['chance']:.3f} "
            f"| {r['games']:.2f} ± {r['games_half']:.2f} "
            f"| {r['turns']:.0f} ± {r['turns_half']:.0f} | {r['ms']:.2f} |"
        )
    print(f"(wall time: {sum(float(r['seconds']) for r in rows):.0f} s)")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
