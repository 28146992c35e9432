"""Daifugo benchmarks: engine speed beside peers, playout speed, and bot strength.

    python bench/daifugo.py                     # everything, default sizes
    python bench/daifugo.py --only speed        # engine + peers + playouts
    python bench/daifugo.py --only ratios --seconds 1 --repeats 3   # beside OpenSpiel
    python bench/daifugo.py --only strength --deals 10 --mc-ms 200

Tables:
1. Full 5-player random games/s through the public checked API (``legal_actions`` + ``apply``,
   one game = one ``games=1`` set, deal included), under the source's rules and the ``uecda``
   preset, beside RLCard ``doudizhu`` and OpenSpiel ``dou_dizhu`` random games/s measured in the
   same run (the closest public climbing games).
2. Monte Carlo playouts/s (5 players, from fresh deals) of the Numba simulator, both rules.
3. Strength with duplicate deals: each deal seed is played once per seat rotation of the hero, and
   the hero's mean points per game (per deal, averaged over rotations) get a 95% CI.

Speeds are per CPU second (``time.process_time``) so that a busy machine does not skew them.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
import timeit
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import numpy as np

from dennou.arena.play import play
from dennou.core.bot import Bot, RandomBot
from dennou.core.game import CHANCE
from dennou.games.daifugo import GAME
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.batch import Batch
from dennou.games.daifugo.bots import GreedyBot, MonteCarloBot

RULES: dict[str, dict[str, Any]] = {
    "source": {"games": 1},
    "uecda": {"preset": "uecda", "games": 1},
}
"""The rules measured: the source's (the defaults) and the UECda preset, one game per set."""


def engine_games_per_s(
    seconds: float, options: dict[str, Any], *, read: bool = False
) -> tuple[float, int, float]:
    """Random games per CPU second through the public API, games played, decisions per game.

    ``read``: every event of every step is read (its kind, text and data), as the host does.
    """
    rules = GAME.make_rules(options)
    rng = random.Random(0)
    players = ["a", "b", "c", "d", "e"]

    def one_game() -> int:
        s = GAME.new(rules, players)
        decisions = 0
        while True:
            acting = GAME.to_act(s)
            if not acting:
                return decisions
            (seat,) = acting
            if seat == CHANCE:
                s, events = GAME.apply(s, CHANCE, GAME.sample_chance(s, rng))
            else:
                legal = GAME.legal_actions(s, seat)
                s, events = GAME.apply(s, seat, legal[rng.randrange(len(legal))])
                decisions += 1
            if read:
                for e in events:
                    e.kind, e.text, e.data  # noqa: B018 - what a reader touches

    one_game()  # compiles the kernel on a fresh install: not what is measured
    games = 0
    decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        decisions += one_game()
        games += 1
    return games / (time.process_time() - start), games, decisions / max(games, 1)


def rlcard_games_per_s(seconds: float) -> str:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except Exception as exc:  # pragma: no cover - optional peer
        return f"not installed ({type(exc).__name__})"
    env = rlcard.make("doudizhu", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.run(is_training=False)
        games += 1
    return f"{games / (time.process_time() - start):,.0f}"


def ratios(seconds: float, repeats: int) -> None:
    """The public API (events read and not) and ``Batch`` beside OpenSpiel, interleaved.

    Each repeat measures OpenSpiel and every one of ours back to back, so that a neighbour's
    load weighs on both sides alike; the ratios are per repeat (median and range printed).
    """
    spiel0 = openspiel_games_per_s(0.1)
    if not spiel0.replace(",", "").isdigit():
        print(f"\n(OpenSpiel {spiel0}: no ratios)")
        return
    rows: dict[str, list[float]] = {}
    for _ in range(repeats):
        peer = float(openspiel_games_per_s(seconds).replace(",", ""))
        rows.setdefault("OpenSpiel dou_dizhu games/s", []).append(peer)
        for name, options in RULES.items():
            plain = engine_games_per_s(seconds, options)[0]
            read = engine_games_per_s(seconds, options, read=True)[0]
            batched = batch_games_per_s(seconds, options)
            rows.setdefault(f"public API, {name}, events not read / OpenSpiel", []).append(
                plain / peer
            )
            rows.setdefault(f"public API, {name}, events read / OpenSpiel (target >= 1.0)", [])
            rows[f"public API, {name}, events read / OpenSpiel (target >= 1.0)"].append(read / peer)
            rows.setdefault(f"public API, {name}, cost of reading events (target <= 1.3)", [])
            rows[f"public API, {name}, cost of reading events (target <= 1.3)"].append(plain / read)
            rows.setdefault(f"Batch, {name} / OpenSpiel (target >= 10)", []).append(batched / peer)
    print(f"\n## Ratios, {repeats} interleaved repeats of {seconds:g} CPU s each\n")
    print("| measure | median | range |")
    print("|---|---|---|")
    for label, values in rows.items():
        lo, hi, mid = min(values), max(values), statistics.median(values)
        print(f"| {label} | {mid:,.2f} | {lo:,.2f}-{hi:,.2f} |")


def openspiel_games_per_s(seconds: float) -> str:
    try:
        import pyspiel
    except Exception as exc:  # pragma: no cover - optional peer
        return f"not installed ({type(exc).__name__})"
    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(0)
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        games += 1
    return f"{games / (time.process_time() - start):,.0f}"


def batch_games_per_s(seconds: float, options: dict[str, Any], size: int = 1024) -> float:
    """Whole games per CPU second through :class:`Batch` in a steady state.

    Every step: the legal moves, a uniform pick per game, the checked step; games that ended
    are dealt again at once (``redeal``), so no row idles while the longest game finishes.
    """
    games = Batch(size, options, seed=1)
    rng = np.random.default_rng(1)
    done = 0
    t = time.process_time()
    for step in range(1 << 30):
        if step == 200:  # compiled and past the first games' lockstep: start the clock
            done, t = 0, time.process_time()
        flat, offsets = games.legal()
        counts = np.diff(offsets)
        pick = offsets[:-1] + (rng.random(size) * counts).astype(np.int64)
        games.step(flat[pick])
        ended = games.done
        done += int(ended.sum())
        games.redeal(ended)
        if step > 200 and time.process_time() - t >= seconds:
            break
    return done / (time.process_time() - t)


def playouts_per_s(policy: int, seconds: float, options: dict[str, Any]) -> float:
    rng = random.Random(1)
    rules = GAME.make_rules(options)
    done = 0
    total = 0.0
    warm = True
    while total < seconds:
        s = GAME.new(rules, ["a", "b", "c", "d", "e"])
        s, _ = GAME.apply(s, CHANCE, GAME.sample_chance(s, rng))
        sim = S.Sim(s)
        hands = np.array([list(s.hands)] * 500, dtype=np.int64)
        moves = sim.legal_moves()[:4]
        t = time.process_time()
        S.playouts(sim, hands, moves, policy=policy, seed=rng.randrange(2**31))
        if warm:  # the first call may compile
            warm = False
            continue
        total += time.process_time() - t
        done += 500 * len(moves)
    return done / total


def reference_loop_us() -> float:
    """CPU µs of a fixed pure-Python loop, to compare machines and loads between runs."""
    times = timeit.repeat("sum(range(1000))", repeat=5, number=2000, timer=time.process_time)
    return min(times) / 2000 * 1e6


def speed(seconds: float) -> None:
    print("\n## Full random games per CPU second (one core, same run)\n")
    print("| engine | game | games/s | decisions/game |")
    print("|---|---|---|---|")
    ours = {}
    for name, options in RULES.items():
        rate, _, per_game = engine_games_per_s(seconds, options)
        ours[name] = rate
        print(
            f"| dennou daifugo (public checked API) | 5-player game, {name} rules | "
            f"{rate:,.0f} | {per_game:.0f} |"
        )
    print(f"| RLCard 1.2 | doudizhu (3 players) | {rlcard_games_per_s(seconds)} | |")
    spiel = openspiel_games_per_s(seconds)
    print(f"| OpenSpiel (C++ via pyspiel) | dou_dizhu (3 players) | {spiel} | |")
    batched = {}
    for name, options in RULES.items():
        batched[name] = batch_games_per_s(seconds, options)
        print(
            f"| dennou daifugo `Batch` (1,024 games stepped together, checked moves) | "
            f"5-player game, {name} rules | {batched[name]:,.0f} | |"
        )
    if spiel.replace(",", "").isdigit():
        peer = float(spiel.replace(",", ""))
        ratios = ", ".join(f"{name} {rate / peer:.2f}x" for name, rate in ours.items())
        print(f"\n(dennou / OpenSpiel: {ratios}; target >= 1.0x)")
        ratios = ", ".join(f"{name} {rate / peer:.1f}x" for name, rate in batched.items())
        print(f"(dennou Batch / OpenSpiel: {ratios}; target >= 10x)")
    print(
        f"(this machine now: `sum(range(1000))` takes {reference_loop_us():.1f} µs of CPU; "
        "pure-Python speeds scale with it)"
    )
    print("\n## Monte Carlo playouts per second (Numba simulator, 5 players, from a fresh deal)\n")
    print("| rules | default policy | playouts/s |")
    print("|---|---|---|")
    for name, options in RULES.items():
        for policy, label in ((0, "uniform random"), (1, "ε-greedy (montecarlo's)")):
            print(f"| {name} | {label} | {playouts_per_s(policy, seconds, options):,.0f} |")
    print("\n(target 20,000 playouts/s)")


def duplicate(
    hero: Any,
    field: Any,
    deals: int,
    games: int,
    seed: int,
    options: dict[str, Any] | None = None,
) -> tuple[float, float, float, int]:
    """Mean points per game of ``hero()`` against 4 ``field()``, with a 95% CI.

    ``options``: rules options (default: the source's rules), ``games`` set from ``games``.
    """
    rules = GAME.make_rules({**(options or {}), "games": games})
    names = ["p0", "p1", "p2", "p3", "p4"]
    per_deal: list[float] = []
    for d in range(deals):
        total = 0.0
        for seat in range(5):
            bots: list[Bot] = [hero() if i == seat else field() for i in range(5)]
            record = play(GAME, rules, bots, seed + d, players=names)
            assert record.outcome is not None
            total += record.outcome["scores"][seat] / games
        per_deal.append(total / 5)
    mean = statistics.fmean(per_deal)
    sd = statistics.stdev(per_deal) if len(per_deal) > 1 else float("nan")
    half = 1.96 * sd / math.sqrt(len(per_deal))
    return mean, mean - half, mean + half, len(per_deal)


def strength(deals: int, games: int, mc_ms: float, mc_playouts: int) -> None:
    mc_name = f"montecarlo:ms={mc_ms:g}" if mc_ms else f"montecarlo:playouts={mc_playouts}"
    print("\n## Strength, duplicate deals (every deal replayed with the hero in each seat)\n")
    print(f"{deals} deal seeds x 5 rotations; sets of {games} games; points per game\n")
    print("| hero | field | mean points/game | 95% CI | deals |")
    print("|---|---|---|---|---|")
    rows = [
        ("greedy", "4 x random", GreedyBot, RandomBot),
        (
            mc_name,
            "4 x greedy",
            lambda: MonteCarloBot(playouts=mc_playouts, ms=mc_ms),
            GreedyBot,
        ),
    ]
    for name, field_name, hero, field in rows:
        t = time.perf_counter()
        mean, lo, hi, k = duplicate(hero, field, deals, games, seed=1000)
        print(
            f"| {name} | {field_name} | {mean:+.3f} | [{lo:+.3f}, {hi:+.3f}] | {k} "
            f"({time.perf_counter() - t:.0f} s) |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=["speed", "ratios", "strength"], default=None)
    parser.add_argument("--repeats", type=int, default=3, help="interleaved repeats (ratios)")
    parser.add_argument("--seconds", type=float, default=5.0, help="per speed measurement")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--games", type=int, default=10, help="games per set in strength runs")
    parser.add_argument("--mc-ms", type=float, default=0.0, help="montecarlo ms per decision")
    parser.add_argument("--mc-playouts", type=int, default=1000)
    args = parser.parse_args()
    if args.only in (None, "speed"):
        speed(args.seconds)
    if args.only in (None, "ratios"):
        ratios(args.seconds, args.repeats)
    if args.only in (None, "strength"):
        strength(args.deals, args.games, args.mc_ms, args.mc_playouts)


if __name__ == "__main__":
    main()
