"""Numeron benchmark: the ``solver`` bot's calls over all secrets, and its decision times.

Usage: ``PYTHONPATH=src python bench/numeron.py [--games 20] [--quick]``

1. Calls to finish, no items, over **every** secret (720 for 3 digits, 5040 for 4): the
   solver's calls are replayed as a tree (its choice depends only on the candidate set), so
   the mean and worst case are exact, not sampled. Beside it, the optimum: 26274/5040 =
   5.2131 for 4 digits (Tanaka 1996), and 3575/720 = 4.9653 for 3 digits (computed by
   ``bench/numeron_optimum.py``, an exact search over strategies).
2. Decision times of ``solver`` in self-play with the default rules (items with 4 and 5
   digits), every decision of every phase, after one warm-up game (Numba compilation and the
   judgment table are one-off costs, measured separately as "first decision").
3. ``solver`` against ``random``: wins out of games played.
4. Views: the acting seat's view at turn 5, 60 and 300 of random 4-digit games (median µs),
   as the engine builds it (the log's JSON extended step by step) and from scratch (the whole
   log converted for every view): a view at turn 60 within 2x of turn 5.
   ``--only views`` prints this table alone (a few seconds).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from dennou.arena.bots import make_bot
from dennou.arena.play import play
from dennou.core.game import CHANCE
from dennou.core.jsondata import to_json
from dennou.games.numeron import GAME
from dennou.games.numeron.knowledge import Candidates
from dennou.games.numeron.plain import hit_code
from dennou.games.numeron.rules import NumeronRules
from dennou.games.numeron.solver import CallChooser, judgment_codes
from dennou.games.numeron.state import all_numbers

OPTIMUM = {
    3: (3575 / 720, "3575/720, exact search (bench/numeron_optimum.py)"),
    4: (26274 / 5040, "26274/5040, Tanaka 1996"),
}


def calls_over_all_secrets(digits: int, chooser: CallChooser) -> list[int]:
    """Calls the chooser needs for each secret (no items), by walking its decision tree."""
    size = len(all_numbers(digits))
    hit = hit_code(digits)
    out = np.zeros(size, dtype=np.int64)
    rng = random.Random(0)

    def walk(mask: np.ndarray, depth: int) -> None:
        call = chooser.choose(mask, rng)
        cands = np.flatnonzero(mask).astype(np.int64)
        codes = judgment_codes(digits, call, cands)
        for r in np.unique(codes):
            part = cands[codes == r]
            if r == hit:
                out[part] = depth + 1
                continue
            sub = np.zeros(size, dtype=np.bool_)
            sub[part] = True
            walk(sub, depth + 1)

    walk(Candidates(digits).mask, 0)
    return out.tolist()


def decision_times(digits: int, games: int) -> tuple[float, list[float]]:
    """(first decision ms, the other decisions' ms) of solver self-play, default rules."""
    rules = NumeronRules(digits=digits)
    first = play(GAME, rules, [make_bot(GAME, "solver"), make_bot(GAME, "solver")], 10_000)
    first_ms = max(s.ms or 0.0 for s in first.steps)
    times: list[float] = []
    for seed in range(games):
        rec = play(GAME, rules, [make_bot(GAME, "solver"), make_bot(GAME, "solver")], seed)
        times.extend(
            s.ms for s in rec.steps if s.ms is not None and s.seat is not None and s.seat >= 0
        )
    return first_ms, times


def versus_random(digits: int, games: int) -> int:
    wins = 0
    for seed in range(games):
        bots = [make_bot(GAME, "solver"), make_bot(GAME, "random")]
        solver = seed % 2
        if solver:
            bots.reverse()
        rec = play(GAME, NumeronRules(digits=digits), bots, 500 + seed)
        wins += rec.outcome is not None and rec.outcome["ranks"][solver] == 1
    return wins


def view_costs(
    turns: tuple[int, ...], seeds: int = 3, window: int = 40
) -> dict[int, tuple[float, float]]:
    """Median µs of the acting seat's view near each turn: (as built, from scratch)."""
    built: dict[int, list[float]] = {t: [] for t in turns}
    scratch: dict[int, list[float]] = {t: [] for t in turns}
    for seed in range(seeds):
        rng = random.Random(seed)
        state = GAME.new(GAME.make_rules({"digits": 4, "forfeit_after": 0}), ["a", "b"])
        while any(len(built[t]) < window * (seed + 1) for t in turns):
            (seat,) = sorted(GAME.to_act(state))[:1]
            if seat == CHANCE:
                state, _ = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
                continue
            started = time.perf_counter()
            GAME.view(state, seat)
            took = time.perf_counter() - started
            started = time.perf_counter()
            to_json([e for e in state.log if e.visible_to(seat)])
            whole = time.perf_counter() - started
            for t in turns:
                if state.turn >= t and len(built[t]) < window * (seed + 1):
                    built[t].append(took * 1e6)
                    scratch[t].append(whole * 1e6)
            legal = GAME.legal_actions(state, seat)
            action = legal[rng.randrange(len(legal))]
            if state.phase == "call" and getattr(action, "number", None) == state.numbers[1 - seat]:
                continue  # keep the game going: no hits
            state, _ = GAME.apply(state, seat, action)
    return {t: (float(np.median(built[t])), float(np.median(scratch[t]))) for t in turns}


def views_table() -> None:
    costs = view_costs((5, 60, 300))
    base = costs[5][0]
    print("## Views: the acting seat's view in random 4-digit games (median µs, 3 games)")
    print()
    print("| turn | view as built | vs turn 5 | view with the log converted from scratch |")
    print("|---|---|---|---|")
    for turn, (built, whole) in costs.items():
        print(f"| {turn} | {built:.1f} | {built / base:.2f}x | {built + whole:.1f} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description="Numeron solver benchmark")
    parser.add_argument("--games", type=int, default=20, help="self-play games per length")
    parser.add_argument("--quick", action="store_true", help="3 digits only for the calls")
    parser.add_argument("--only", choices=["views"], default=None)
    args = parser.parse_args()
    views_table()
    if args.only == "views":
        return

    print("## Calls to finish over every secret, no items")
    print()
    print("| digits | secrets | solver mean | solver worst | optimum | gap | time |")
    print("|---|---|---|---|---|---|---|")
    for digits in (3,) if args.quick else (3, 4):
        started = time.perf_counter()
        calls = calls_over_all_secrets(digits, CallChooser(digits))
        spent = time.perf_counter() - started
        mean = sum(calls) / len(calls)
        best, source = OPTIMUM[digits]
        print(
            f"| {digits} | {len(calls)} | {mean:.4f} ({sum(calls)}) | {max(calls)} | "
            f"{best:.4f} ({source}) | {100 * (mean / best - 1):+.2f}% | {spent:.0f} s |"
        )
    print()
    print(f"## Decision times, solver self-play, default rules ({args.games} games each)")
    print()
    print("| digits | items | decisions | mean ms | p99 ms | max ms | first decision ms |")
    print("|---|---|---|---|---|---|---|")
    for digits in (3, 4, 5):
        first_ms, times = decision_times(digits, args.games)
        arr = np.array(times)
        items = "yes" if NumeronRules(digits=digits).item_set() else "no"
        print(
            f"| {digits} | {items} | {len(arr)} | {arr.mean():.2f} | "
            f"{np.percentile(arr, 99):.2f} | {arr.max():.2f} | {first_ms:.0f} |"
        )
    print()
    print(f"## solver against random, default rules ({args.games} games each, seats alternate)")
    print()
    print("| digits | solver wins |")
    print("|---|---|")
    for digits in (3, 4, 5):
        print(f"| {digits} | {versus_random(digits, args.games)}/{args.games} |")


if __name__ == "__main__":
    main()
