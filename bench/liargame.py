"""LIAR GAME round 4: the ``belief`` and ``heuristic`` bots against ``random``.

Runs the two halves in one go and prints both tables:

- Pandemic Game: ``belief`` bots' qualification rate against random seats (``bench/pandemic.py``);
- Musical Chairs: ``heuristic``'s win rate against random players (``bench/chairs.py``).

Run: ``PYTHONPATH=src python bench/liargame.py --games 200``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import chairs
import pandemic


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per line")
    args = parser.parse_args()
    sys.argv = [sys.argv[0], "--games", str(args.games), "--belief", "0", "1", "6"]
    pandemic.main()
    print()
    sys.argv = [sys.argv[0], str(args.games)]
    chairs.main()


if __name__ == "__main__":
    main()
