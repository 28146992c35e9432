"""Build the Smuggling Game's whole-game plan (``plan.npz``) and report its exploitability.

Usage: ``PYTHONPATH=src python bench/smuggling_plan.py [--games 50] [--write]``

Solves the abstraction of ``dennou.games.smuggling.planner`` backwards (one small LP per state),
then measures, by backward induction over the same states, the best-response values of each
side against the plan's strategies. Prints the equilibrium value for the team that smuggles
first, both best-response values, the exploitability (their gains, in win probability), how
settled the table's edges are, and the time. ``--write`` stores the table in the package.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from dennou.games.smuggling.planner import build, exploitability, save

TARGET = Path(__file__).resolve().parent.parent / "src/dennou/games/smuggling/plan.npz"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--write", action="store_true", help="store the table in the package")
    parser.add_argument("--no-exploit", action="store_true", help="skip the best responses")
    args = parser.parse_args()
    started = time.perf_counter()
    plan = build(args.games)
    built = time.perf_counter() - started
    states = sum(len(v) for v in plan.values)
    edge = max(max(float(v[0]), 1.0 - float(v[-1])) for v in plan.values[1:])
    print(f"abstraction: {args.games} small games, {plan.levels} levels, {states} states")
    print(f"built in {built:.0f} s; largest distance from 0/1 at a table edge: {edge:.2e}")
    for k in (args.games, args.games - 1):
        print(f"W({k}, 0) = {plan.w(k, 0.0):.6f} (the team that smuggles next, level score)")
    if args.write:
        TARGET.write_bytes(save(plan))
        print(f"wrote {TARGET} ({TARGET.stat().st_size} bytes)")
    if not args.no_exploit:
        started = time.perf_counter()
        value, br_smuggler, br_inspector = exploitability(plan)
        print(
            f"exploitability on the abstraction ({time.perf_counter() - started:.0f} s): "
            f"value {value:.9f}; first smuggler best-responds: {br_smuggler:.9f} "
            f"(gain {br_smuggler - value:.2e}); the other team best-responds: "
            f"{1 - br_inspector:.9f} (gain {value - br_inspector:.2e}); "
            f"NashConv {br_smuggler - br_inspector:.2e}"
        )


if __name__ == "__main__":
    main()
