"""Musical Chairs benchmark: the ``heuristic`` bot's win rate and payout against ``random``.

Each game seats one bot under test at a player seat (rotating over the starting players) and
``random`` everywhere else (players and gaya); the baseline is ``random`` in that same seat over
the same seeds. Win = the seat is the last player left. Intervals are 95% Wilson intervals (win
rate) and normal intervals (mean payout, in units of 100M). Usage::

    PYTHONPATH=src python bench/chairs.py [games] [people] [bot spec ...] [--gaya SPEC]

The default rows are ``random`` (the baseline), ``heuristic``, and ``heuristic:helper_weight=0``
(the same bot without medal buying, to show what the gifts are worth against ``random``).
``--gaya heuristic`` seats that bot in the gaya seats instead of ``random`` (voters who reward
the medals they are given), the other players staying ``random``; ``--field SPEC`` seats SPEC
at the other player seats (``--field heuristic``: against the current best).

Head to head (``--versus FIELD``): half the player seats ``spec``, half ``FIELD`` (alternating),
each seed played twice with the halves swapped (duplicate seats); the figure is ``spec``'s share
of the games a player won, with its 95% Wilson interval (50%: as strong as ``FIELD``)::

    PYTHONPATH=src python bench/chairs.py 500 24 adaptive --versus heuristic
"""

from __future__ import annotations

import math
import statistics
import sys
import time

from dennou.arena.bots import make_bot
from dennou.arena.match import proportion_ci
from dennou.arena.play import play
from dennou.games import get


def run(
    spec: str, games: int, people: int, gaya: str = "random", field: str = "random"
) -> dict[str, float]:
    """``spec`` at one player seat (rotating), ``field`` at the others, ``gaya`` in the gaya."""
    game = get("chairs")
    rules = game.make_rules()
    k = rules.n_players(people)
    wins = 0
    payouts: list[float] = []
    nobody = 0
    started = time.perf_counter()
    for g in range(games):
        seat = g % k
        bots = [
            make_bot(game, spec if i == seat else field if i < k else gaya) for i in range(people)
        ]
        record = play(game, rules, bots, seed=10_000 + g)
        assert record.outcome is not None
        detail = record.outcome["detail"]
        wins += detail["winner"] == seat
        nobody += detail["winner"] is None
        payouts.append(record.outcome["scores"][seat] / rules.medal_value)
    lo, hi = proportion_ci(wins, games)
    mean = statistics.fmean(payouts)
    half = 1.96 * statistics.stdev(payouts) / math.sqrt(games) if games > 1 else 0.0
    return {
        "win": wins / games,
        "lo": lo,
        "hi": hi,
        "pay": mean,
        "pay_half": half,
        "nobody": nobody / games,
        "sec": (time.perf_counter() - started) / games,
    }


def versus(spec: str, field: str, seeds: int, people: int, gaya: str = "random") -> None:
    """Print ``spec``'s share of the wins, half the player seats each, seats swapped per seed."""
    game = get("chairs")
    rules = game.make_rules()
    k = rules.n_players(people)
    won = {spec: 0, field: 0}
    nobody = 0
    started = time.perf_counter()
    for g in range(seeds):
        for flip in (0, 1):
            kinds = [(spec, field)[(i + flip) % 2] if i < k else gaya for i in range(people)]
            record = play(game, rules, [make_bot(game, b) for b in kinds], seed=20_000 + g)
            assert record.outcome is not None
            winner = record.outcome["detail"]["winner"]
            if winner is None:
                nobody += 1
            else:
                won[kinds[winner]] += 1
    decided = won[spec] + won[field]
    lo, hi = proportion_ci(won[spec], decided)
    print(
        f"{spec} vs {field}, {k // 2} player seats each ({people} people, {gaya} gaya), "
        f"{seeds} seeds x 2 (seats swapped): {spec} won {won[spec]}, {field} {won[field]}, "
        f"nobody {nobody}; {spec}'s share of the wins {won[spec] / max(decided, 1):.3f} "
        f"[{lo:.3f}, {hi:.3f}]; {(time.perf_counter() - started) / (2 * seeds):.2f} s/game"
    )


def _take(args: list[str], flag: str) -> str | None:
    """The value after ``flag`` (both removed from ``args``), or None without the flag."""
    if flag not in args:
        return None
    i = args.index(flag)
    value = args[i + 1]
    del args[i : i + 2]
    return value


def main() -> None:
    args = sys.argv[1:]
    rival = _take(args, "--versus")
    if rival is not None:
        seeds = int(args[0]) if args else 200
        people = int(args[1]) if len(args) > 1 else 24
        versus(args[2] if len(args) > 2 else "adaptive", rival, seeds, people)
        return
    gaya = _take(args, "--gaya") or "random"
    field = _take(args, "--field") or "random"
    games = int(args[0]) if args else 200
    people = int(args[1]) if len(args) > 1 else 24
    k = get("chairs").make_rules().n_players(people)
    print(
        f"Musical Chairs: one bot at a player seat, {field} players, {gaya} gaya; {people} people, "
        f"{k} players, {games} games (same seeds per row)"
    )
    head = ("bot", "win rate", "95% CI", "payout x100M", "nobody won", "s/game")
    print(f"{head[0]:<28}{head[1]:>10}{head[2]:>18}{head[3]:>16}{head[4]:>12}{head[5]:>8}")
    specs = args[2:] or ["random", "heuristic", "heuristic:helper_weight=0"]
    for spec in specs:
        r = run(spec, games, people, gaya, field)
        ci = f"[{r['lo']:.3f}, {r['hi']:.3f}]"
        pay = f"{r['pay']:.2f} ± {r['pay_half']:.2f}"
        print(f"{spec:<28}{r['win']:>10.3f}{ci:>18}{pay:>16}{r['nobody']:>12.3f}{r['sec']:>8.2f}")


if __name__ == "__main__":
    main()
