"""10-card stud benchmarks: evaluator, whole-hand simulation, odds. Prints one table.

Run: ``PYTHONPATH=src python bench/stud10.py`` (one core; Numba compiles on the first run and
caches). The engine rows compare ``view_odds`` off and on with no view asking (odds unread cost
nothing: within 10% is the target), and the view row times a spectator view with odds, each
position shown for the first time (target: 20 ms). Peers are measured in the same run on the
same hands: treys and phevaluator have no best-5-of-10, so they brute-force it (treys over the
252 five-card subsets, phevaluator over the 120 seven-card subsets with its native 7-card
evaluator).
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable

import numpy as np
from phevaluator import _pheval
from treys import Card, Evaluator

from dennou.core.game import CHANCE
from dennou.games.stud10 import GAME, Stud10Rules, evaluate_batch, odds
from dennou.games.stud10.cards import DECK
from dennou.games.stud10.sim import simulate

ROWS: list[tuple[str, str, float, str]] = []


def rate(
    fn: Callable[[], object],
    count: int,
    repeat: int = 3,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = clock()
        fn()
        best = min(best, clock() - t)
    return count / best


def hands(n: int, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.int8)


def bench_eval(k: int) -> None:
    big = hands(2_000_000, k, k)
    evaluate_batch(big[:10])
    ROWS.append(
        (
            f"best 5 of {k}",
            "dennou (Numba batch)",
            rate(lambda: evaluate_batch(big), len(big)),
            "2M hands",
        )
    )
    small = big[:2000].tolist()
    ev = Evaluator()
    treys_cards = [[Card.new(DECK[c][0] + DECK[c][1]) for c in h] for h in small]
    if k == 7:

        def treys_run() -> None:
            for h in treys_cards:
                ev.evaluate(h[:2], h[2:])

        def phe_run() -> None:
            for h in small:
                _pheval.evaluate_7cards(*h)

        note = "native 7-card"
    else:

        def treys_run() -> None:
            for h in treys_cards:
                min(ev.evaluate(list(s[:2]), list(s[2:])) for s in itertools.combinations(h, 5))

        def phe_run() -> None:
            for h in small:
                min(_pheval.evaluate_7cards(*s) for s in itertools.combinations(h, 7))

        note = "brute force"
    ROWS.append((f"best 5 of {k}", f"treys ({note})", rate(treys_run, len(small), 1), "2k hands"))
    ROWS.append(
        (f"best 5 of {k}", f"phevaluator ({note})", rate(phe_run, len(small), 1), "2k hands")
    )


def bench_games() -> None:
    simulate(10)
    n = 1_000_000
    ROWS.append(
        ("5-player hands", "dennou sim (Numba)", rate(lambda: simulate(n, 1), n, 2), "1M hands")
    )
    for view_odds, note in ((False, "odds off"), (True, "odds on, no view asks")):
        rules = Stud10Rules(view_odds=view_odds)
        rng = random.Random(1)

        def engine_run(rules: Stud10Rules = rules, rng: random.Random = rng) -> None:
            for _ in range(200):
                state = GAME.new(rules, ["a", "b", "c", "d", "e"])
                while GAME.to_act(state):
                    state, _ = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))

        ROWS.append(
            (
                "5-player hands",
                "dennou engine (Python)",
                rate(engine_run, 200, clock=time.process_time),
                f"200 hands, {note}",
            )
        )


def bench_views() -> None:
    """A spectator view with odds on a 5-player table, each position shown for the first time."""
    rules = Stud10Rules()
    rng = random.Random(2)
    times: list[float] = []
    for _ in range(12):
        state = GAME.new(rules, ["a", "b", "c", "d", "e"])
        while GAME.to_act(state):
            state, _ = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
            started = time.process_time()
            GAME.view(state, None)
            times.append(time.process_time() - started)
    times = times[1:]  # the very first view loads the compiled kernels
    median = float(np.median(times))
    ROWS.append(
        (
            "spectator view with odds",
            "dennou (first view of a position)",
            1 / median,
            f"median {median * 1000:.1f} ms, max {max(times) * 1000:.1f} ms of CPU (target 20)",
        )
    )


def bench_odds() -> None:
    opening = [
        ["As", "Kd", "Qh", "Jc", "9s"],
        ["2c", "2d", "7h", "8s", "9d"],
        ["Ah", "Ad", "3c", "4c", "5c"],
        ["Ks", "Kh", "Kc", "6d", "6s"],
        ["Tc", "Td", "Th", "3s", "4s"],
    ]
    odds(opening, samples=100, seed=0)
    seeds = iter(range(1, 100))
    t = min(_time(lambda: odds(opening, samples=100_000, seed=next(seeds))) for _ in range(3))
    ROWS.append(
        ("odds, opening position", "dennou Monte Carlo", 1 / t, f"100k samples: {t * 1000:.0f} ms")
    )
    late = [
        ["As", "Kd", "Qh", "Jc", "9s", "2s", "3s", "4d"],
        ["2c", "2d", "7h", "8s", "9d", "6h", "6c", "6d"],
        ["Ah", "Ad", "3c", "4c", "5c", "Jh", "Qc", "8d", "7c"],
        ["Ks", "Kh", "Kc", "6s", "Js", "Qs", "Ts", "9c", "8h"],
        ["Tc", "Td", "Th", "3h", "4h", "5h", "7s", "7d"],
    ]
    r = odds(late)
    t = _time(lambda: odds(late, exact_limit=10**8, samples=1 + next(seeds)))
    ROWS.append(
        (
            "odds, 8 hole cards left",
            "dennou exact",
            1 / t,
            f"{r.completions:,} completions: {t * 1000:.0f} ms",
        )
    )


def _time(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    for k in (10, 7):
        bench_eval(k)
    bench_games()
    bench_views()
    bench_odds()
    print(f"{'task':<26} {'implementation':<30} {'per second':>14}  note")
    for task, impl, per_s, note in ROWS:
        print(f"{task:<26} {impl:<30} {per_s:>14,.0f}  {note}")


if __name__ == "__main__":
    main()
