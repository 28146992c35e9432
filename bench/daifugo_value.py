"""Fit the ``ismcts`` value model: a seat's reward from a position, learned from real games.

    python bench/daifugo_value.py --deals 24 --seed 1016 --save data.npz   # play, keep, fit
    python bench/daifugo_value.py --load data.npz                          # fit kept positions
    python bench/daifugo_value.py --load data.npz --dry-run                # nothing written

A hero bot (``--hero``, default ``ismcts``) plays sets of 10 games against 4 ``--field`` bots
(default ``greedy``) on duplicate deals as ``bench/daifugo_strength.py`` does (each deal seed with
the hero in each of the 5 seats, seed rules, no final bonus). Every play-phase position in which
the hero still holds cards is kept (the simulator vector: every hand, whose turn, the field's
state) with the hero's finishing place in that game. The model is a logistic regression of the
reward (the place's share of the points, 1 for 大富豪 down to 0 for 大貧民) on the features of the
position for the hero (:data:`.ismcts.VALUE_FEATURES`), fitted on the sets of 80% of the deals
(L2-regularised cross-entropy, L-BFGS) and scored on the rest (mean squared error beside a
constant). It writes ``value.json`` beside the module unless ``--dry-run``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import numpy as np
from scipy.optimize import minimize

from dennou.arena.bots import make_bot
from dennou.arena.play import play
from dennou.games.daifugo import GAME
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.policy import NV, VALUE_FEATURES, VALUE_FILE, value_features

NAMES = ["p0", "p1", "p2", "p3", "p4"]
KEEP = S.HEAD + 4 * 5
"""The part of a 5-player simulator vector the features read (scalars, order, finish, hands)."""


def rules_of(games: int) -> Any:
    """The seed rules with ``games`` games a set and no final bonus (as the strength bench)."""
    return GAME.make_rules({"games": games, "final_points": (0, 0, 0, 0, 0)})


class Keeper:
    """An ``on_step`` hook keeping the play-phase positions in which ``seat`` holds cards."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.rows: list[tuple[int, np.ndarray]] = []
        self.last: Any = None

    def __call__(self, step: Any, state: Any) -> None:
        self.last = state
        if state.phase == "play" and state.follow_up is None and state.hands[self.seat]:
            self.rows.append((state.game_no, S.pack(state)[:KEEP].copy()))


def one_deal(
    hero: str, field: str, seed: int, games: int
) -> tuple[list[np.ndarray], list[int], list[int]]:
    """The hero's positions, places and seats over the 5 rotations of one deal seed."""
    rules = rules_of(games)
    vecs: list[np.ndarray] = []
    places: list[int] = []
    seats: list[int] = []
    for seat in range(5):
        bots = [make_bot(GAME, hero if i == seat else field) for i in range(5)]
        keeper = Keeper(seat)
        play(GAME, rules, bots, seed, players=NAMES, on_step=keeper)
        rows = keeper.rows
        results = keeper.last.results
        place = {r.number: r.finish.index(seat) for r in results if seat in r.finish}
        for game, vec in rows:
            if game in place:
                vecs.append(vec)
                places.append(place[game])
                seats.append(seat)
    return vecs, places, seats


def features(vecs: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """The value features of each kept position for its hero."""
    fl = S.flags_of_rules(rules_of(10))
    out = np.zeros((len(vecs), NV))
    full = np.zeros(S.size_of(5), dtype=np.int64)
    for i, v in enumerate(vecs):
        full[:KEEP] = v
        value_features(full, fl, int(seats[i]), out[i])
    return out


def fit(x: np.ndarray, y: np.ndarray, l2: float) -> np.ndarray:
    """Logistic regression of the rewards ``y`` (0-1) on ``x``: cross-entropy plus L2."""

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = x @ w
        p = 1.0 / (1.0 + np.exp(-z))
        eps = 1e-9
        ce = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))
        grad = x.T @ (p - y) / len(y)
        reg = l2 * np.sum(w[1:] ** 2) / 2
        g_reg = l2 * np.concatenate([[0.0], w[1:]])
        return float(ce + reg), grad + g_reg

    got = minimize(loss, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B")
    return np.asarray(got.x)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hero", default="ismcts")
    parser.add_argument("--field", default="greedy")
    parser.add_argument("--deals", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1016)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--save", default=None, help="keep the positions in this .npz")
    parser.add_argument("--load", action="append", help="fit positions kept before (repeatable)")
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    if args.load:
        parts = [np.load(p) for p in args.load]
        vecs = np.concatenate([p["vecs"] for p in parts])
        places = np.concatenate([p["places"] for p in parts])
        seats = np.concatenate([p["seats"] for p in parts])
        deal = np.concatenate([p["deal"] for p in parts])
    else:
        started = time.perf_counter()
        all_v: list[np.ndarray] = []
        all_p: list[int] = []
        all_s: list[int] = []
        all_d: list[int] = []
        for d in range(args.deals):
            v, p, h = one_deal(args.hero, args.field, args.seed + d, args.games)
            all_v += v
            all_p += p
            all_s += h
            all_d += [args.seed + d] * len(v)
            took = time.perf_counter() - started
            print(f"  deal {d + 1}/{args.deals}: {len(all_v)} positions, {took:.0f} s",
                  file=sys.stderr, flush=True)  # fmt: skip
        vecs, places = np.array(all_v), np.array(all_p)
        seats, deal = np.array(all_s), np.array(all_d)
        if args.save:
            np.savez_compressed(args.save, vecs=vecs, places=places, seats=seats, deal=deal)
    x = features(vecs, seats)
    y = (4 - places) / 4.0
    test = deal % 5 == 4
    w = fit(x[~test], y[~test], args.l2)
    p = 1.0 / (1.0 + np.exp(-(x[test] @ w)))
    base = float(np.mean((y[test] - y[~test].mean()) ** 2))
    mse = float(np.mean((y[test] - p) ** 2))
    print(f"{len(y)} positions ({int(test.sum())} held out): MSE {mse:.4f} (constant {base:.4f})")
    for name, wi in zip(VALUE_FEATURES, w, strict=True):
        print(f"  {name:20s} {wi:+.3f}")
    w = fit(x, y, args.l2)
    if not args.dry_run:
        how = (
            f"bench/daifugo_value.py: {len(y)} positions of {args.hero} against 4 {args.field} "
            f"(deal seeds {deal.min()}-{deal.max()}); held-out MSE {mse:.4f} (constant {base:.4f})"
        )
        out = {"features": list(VALUE_FEATURES), "weights": [round(float(v), 4) for v in w],
               "how": how}  # fmt: skip
        VALUE_FILE.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {VALUE_FILE}")


if __name__ == "__main__":
    main()
