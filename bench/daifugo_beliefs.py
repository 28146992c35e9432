"""How right are ``ismcts``'s sampled hidden hands? Samplers compared at the same positions.

    python bench/daifugo_beliefs.py
    python bench/daifugo_beliefs.py --seed 1000 --deals 1 --sets 2 --variants ismcts:mcmc=0 ismcts

The hero (``--hero``, an ``ismcts`` spec) plays sets of 10 games against 4 ``--field`` bots on
``--deals`` deal seeds from ``--seed``, a set in each of the first ``--sets`` seats of each. At
each of its plays with two or more opponents still holding cards, every ``--variants`` spec
draws its determinizations from the hero's own knowledge (the same observed decisions and
opponent evidence), and each is scored against the true deal: the share of the opponents'
unseen cards it puts with the right seat (all positions, and those with 15 or fewer unseen
cards left), how many of the samples are distinct deals, and the milliseconds the drawing
took. A measurement, never how bots play (docs/games/daifugo.md, "How strong are the bots").
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import numpy as np

from dennou.arena.bots import make_bot
from dennou.arena.play import GameRun
from dennou.core.game import JSON
from dennou.games.daifugo import GAME
from dennou.games.daifugo import cards as C
from dennou.games.daifugo.ismcts import IsmctsBot
from dennou.games.daifugo.search import Context
from dennou.games.daifugo.views import known_holdings

DEFAULT_VARIANTS = [
    "ismcts:belief=0:model_opponents=false:mcmc=0",
    "ismcts:model_opponents=false:mcmc=0",
    "ismcts:candidates=64:model_opponents=false:mcmc=0",
    "ismcts:candidates=64:mcmc=0",
    "ismcts",
]
"""Uniform hands; the earlier defaults; 64 candidates; with the opponent models; the defaults."""

LATE = 15
"""Positions with at most this many unseen cards count as late."""


class Probe:
    """Scores every variant's samples at the hero's decisions."""

    def __init__(self, hero: IsmctsBot, variants: list[IsmctsBot]) -> None:
        self.hero = hero
        self.variants = variants
        self.truth: Any = None
        self.rows: list[list[tuple[float, int, int, float]]] = [[] for _ in variants]
        self.sample = hero.beliefs

    def keep(self, _step: Any, state: Any) -> None:
        """The play loop's state after each step (the true hands)."""
        self.truth = state

    def beliefs(self, view: JSON, ctx: Context, seed: int) -> np.ndarray:
        """The hero's own draw, after every variant's has been scored."""
        true = [int(h) for h in self.truth.hands]
        me = ctx.seat
        others = [x for x, k in enumerate(view["counts"]) if k and x != me]
        known = known_holdings(view)
        unseen = sum(C.size(true[x]) - len(known.get(x, ())) for x in others)
        if len(others) >= 2 and unseen > 0:
            for bot, rows in zip(self.variants, self.rows, strict=True):
                bot.tracker, bot.evidence = self.hero.tracker, self.hero.evidence
                bot.seat, bot.rules, bot.template = me, self.hero.rules, ctx.base
                started = time.perf_counter()
                hands = bot.beliefs(view, ctx, seed)
                ms = (time.perf_counter() - started) * 1000
                right = statistics.fmean(
                    sum(
                        C.size(int(h[x]) & true[x] & C.NATURALS) - len(known.get(x, ()))
                        for x in others
                    )
                    for h in hands
                )
                distinct = len({tuple(h) for h in hands.tolist()})
                rows.append((right / unseen, unseen, distinct, ms))
        return self.sample(view, ctx, seed)


def main() -> None:
    """Parse the arguments, play the sets, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hero", default="ismcts")
    parser.add_argument("--field", default="greedy")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--sets", type=int, default=5, choices=range(1, 6))
    parser.add_argument("--variants", nargs="+", default=DEFAULT_VARIANTS)
    args = parser.parse_args()
    hero = make_bot(GAME, args.hero)
    variants = [make_bot(GAME, v) for v in args.variants]
    if not all(isinstance(b, IsmctsBot) for b in [hero, *variants]):
        parser.error("--hero and --variants must be ismcts specs")
    rules = GAME.make_rules({"games": 10, "final_points": (0, 0, 0, 0, 0)})
    probes = []
    for seed, seat in (
        (d, x) for d in range(args.seed, args.seed + args.deals) for x in range(args.sets)
    ):
        bots = [make_bot(GAME, args.hero if i == seat else args.field) for i in range(5)]
        probe = Probe(bots[seat], variants)  # type: ignore[arg-type]
        bots[seat].beliefs = probe.beliefs  # type: ignore[attr-defined]
        run = GameRun(GAME, rules, bots, seed, players=[f"p{i}" for i in range(5)])
        probe.truth = run.state
        run.play(on_step=probe.keep)
        probes.append(probe)
    last = args.seed + args.deals - 1
    where = f"deal seeds {args.seed}-{last}, {args.sets} seats"
    print(f"hero {args.hero} against 4 x {args.field}: {where}")
    print("| variant | cards with the right seat | late (<= 15 unseen) | distinct of "
          f"{hero.samples} | ms median | positions |")  # type: ignore[attr-defined]  # fmt: skip
    print("|---|---|---|---|---|---|")
    for k, spec in enumerate(args.variants):
        rows = [r for p in probes for r in p.rows[k]]
        late = [r[0] for r in rows if r[1] <= LATE]
        print(
            f"| `{spec}` | {statistics.fmean(r[0] for r in rows):.3f} | "
            f"{statistics.fmean(late) if late else float('nan'):.3f} | "
            f"{statistics.fmean(r[2] for r in rows):.1f} | "
            f"{statistics.median(r[3] for r in rows):.1f} | {len(rows)} |"
        )


if __name__ == "__main__":
    main()
