"""Long sweeps of checks whose tests run a sample: the same checks on many more games or cases.

The tests keep a sample that reaches every rule and branch the sweep reaches; a sweep is for
hunting rare cases after a change to an engine, its views or its kernel. Each prints what it
covered and fails (exit status 1, the assertion's message) at the first breach.

    PYTHONPATH=src python bench/sweeps.py                      # every sweep
    PYTHONPATH=src python bench/sweeps.py daifugo-moves --scale 4

Sweeps (the test that runs the sample in brackets):

- ``pandemic-conformance``: the conformance harness on 12 Pandemic games of 4, 12 and 24
  players (``tests/games/pandemic/test_conformance.py``).
- ``hilo-conformance``: 30 Star Hi-Lo games of 2, 3, 5 and 8 players, two determinizations
  per check (``tests/games/hilo/test_conformance.py``).
- ``numeron-conformance``: 60 Numeron games on each of the seeds 0-3
  (``tests/games/numeron/test_conformance.py``).
- ``daifugo-moves``: the kernel's move list against the readable rules on 40,000 random hands
  and fields (``tests/games/daifugo/test_kernel_moves.py``).

``--scale`` multiplies the number of games or cases of each sweep.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from dennou.core.conformance import check_game  # noqa: E402


def pandemic(scale: int) -> object:
    from dennou.games.pandemic import GAME

    report = check_game(GAME, games=12 * scale, player_counts=[4, 12, 24], seed=4, leak_every=4)
    assert report.games == 12 * scale
    return report


def hilo(scale: int) -> object:
    from dennou.games.hilo import GAME

    report = check_game(GAME, games=30 * scale, seed=7, player_counts=[2, 3, 5, 8])
    assert report.games == 30 * scale and report.steps > 1_000 * scale
    assert report.determinized_differs > 2_000 * scale
    return report


def numeron(scale: int) -> object:
    from dennou.games.numeron import GAME

    reports = []
    for seed in range(4 * scale):
        report = check_game(GAME, games=60, seed=seed, leak_every=2)
        assert report.games == 60 and report.leak_checks > 1000 and report.junk_rejected > 1000
        assert report.determinized_differs > 0 and report.mutations_checked > 100
        assert report.defaults_applied > 0 and report.talk_lines > 0
        reports.append(report)
    return reports


def daifugo_moves(scale: int) -> object:
    from tests.games.daifugo.test_kernel_moves import compare_moves

    return compare_moves(40_000 * scale)


SWEEPS: dict[str, Callable[[int], object]] = {
    "pandemic-conformance": pandemic,
    "hilo-conformance": hilo,
    "numeron-conformance": numeron,
    "daifugo-moves": daifugo_moves,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sweeps", nargs="*", help=f"of {', '.join(SWEEPS)} (default: all)")
    parser.add_argument("--scale", type=int, default=1, help="times the games or cases")
    args = parser.parse_args()
    unknown = set(args.sweeps) - set(SWEEPS)
    if unknown:
        parser.error(f"unknown sweeps: {', '.join(sorted(unknown))}")
    for name in args.sweeps or list(SWEEPS):
        start = time.perf_counter()
        result = SWEEPS[name](args.scale)
        print(f"{name}: passed in {time.perf_counter() - start:.1f} s: {result}", flush=True)


if __name__ == "__main__":
    main()
