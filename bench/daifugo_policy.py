"""Fit the ``ismcts`` playout policy to the choices of ``montecarlo`` bots in self-play.

    python bench/daifugo_policy.py                    # 40 sets, writes the package's policy.json
    python bench/daifugo_policy.py --sets 8 --dry-run # a quick look, nothing written
    python bench/daifugo_policy.py --sets 30 --teacher ismcts --workers 1 --dry-run
    python bench/daifugo_policy.py --teacher greedy --out /tmp/greedy.json  # elsewhere

Five ``montecarlo`` bots (or five of ``--teacher``, a bot spec: ``ismcts`` fits the policy to the
choices of the search that uses it) play sets of 10 games (two sets in three under the seed rules,
one under the ``uecda`` preset). At every play decision with two or more candidate plays (one per
kind of play, as ``ismcts`` lists them) the features of each candidate (:data:`.ismcts.FEATURES`)
and the one chosen are kept. The policy is a softmax over ``w . features``; ``w`` maximises the
log-likelihood of the choices (a conditional logit, L2-regularised, L-BFGS), fitted on 80% of the
decisions and scored on the other 20% (log-loss and top-1 agreement beside the hand-set weights).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import numpy as np
from scipy.optimize import minimize

from dennou.arena.bots import make_bot
from dennou.arena.play import play
from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON, Event
from dennou.games.daifugo import GAME
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import fast as F
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.actions import Pass, Play
from dennou.games.daifugo.bots import MonteCarloBot
from dennou.games.daifugo.policy import (
    DEFAULT_WEIGHTS,
    FEATURES,
    NF,
    POLICY_FILE,
    WEIGHTS,
    move_features,
)
from dennou.games.daifugo.search import Context, candidate_moves


class Recorder(Bot):
    """A teacher bot, keeping the features of its candidates and its choice at each play."""

    def __init__(self, teacher: Bot) -> None:
        self.teacher = teacher
        self.rows: list[tuple[np.ndarray, int]] = []

    def reset(self, *, seat: int, rules: Any, players: Sequence[str]) -> None:
        self.teacher.reset(seat=seat, rules=rules, players=players)

    def observe(self, events: Sequence[Event]) -> None:
        self.teacher.observe(events)

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        action = self.teacher.act(view, legal, rng)
        if view["phase"] == "play" and view["follow_up"] is None:
            row = features_of(view, legal, action)
            if row is not None:
                self.rows.append(row)
        return action


def features_of(
    view: JSON, legal: Sequence[Action], chosen: Action
) -> tuple[np.ndarray, int] | None:
    """The candidates' features and the index of the chosen one (``None``: one candidate)."""
    candidates = candidate_moves(view, legal)
    if len(candidates) < 2:
        return None
    ctx = Context(view, WEIGHTS)
    seat = view["seat"]
    hand = np.uint64(ctx.base[S.HEAD + 3 * len(view["players"]) + seat])
    feats = np.zeros((len(candidates), NF))
    for i, (move, _) in enumerate(candidates):
        move_features(ctx.base, ctx.fl, hand, np.uint64(move), feats[i])
    rules = view["rules"]
    if isinstance(chosen, Pass):
        pick = next(i for i, (m, _) in enumerate(candidates) if m == 0)
    else:
        assert isinstance(chosen, Play)
        got = F.readings(chosen.cards, rules["max_group"], rules["suit_lock"], rules["sequences"])
        assert got
        combo = got[0]
        want = (combo.kind, combo.rank, combo.size, C.jokers_in(combo.cards), combo.cards & 1)
        pick = -1
        for i, (move, _) in enumerate(candidates):
            if move == S.move_of(combo):
                pick = i
                break
            if move:
                c = S.combo_of(move)
                if (c.kind, c.rank, c.size, C.jokers_in(c.cards), c.cards & 1) == want:
                    pick = i
        if pick < 0:
            return None
    return feats, pick


def one_set(job: tuple[int, str | None, int, str | None]) -> list[tuple[np.ndarray, int]]:
    """The decisions of one self-play set."""
    seed, preset, playouts, teacher = job
    options: dict[str, Any] = {"games": 10}
    if preset:
        options["preset"] = preset
    rules = GAME.make_rules(options)
    bots = [
        Recorder(make_bot(GAME, teacher) if teacher else MonteCarloBot(playouts=playouts))
        for _ in range(5)
    ]
    play(GAME, rules, bots, seed)
    return [row for b in bots for row in b.rows]


def loss_and_grad(
    w: np.ndarray, data: list[tuple[np.ndarray, int]], l2: float
) -> tuple[float, np.ndarray]:
    """Mean negative log-likelihood of the choices (plus ``l2 |w|^2``) and its gradient."""
    total = 0.0
    grad = np.zeros_like(w)
    for feats, pick in data:
        z = feats @ w
        z -= z.max()
        p = np.exp(z)
        p /= p.sum()
        total -= float(np.log(p[pick]))
        grad -= feats[pick] - p @ feats
    n = max(len(data), 1)
    return total / n + l2 * float(w @ w), grad / n + 2 * l2 * w


def agreement(w: np.ndarray, data: list[tuple[np.ndarray, int]]) -> float:
    """How often the policy's most likely candidate is the one chosen."""
    return sum(int(np.argmax(f @ w) == k) for f, k in data) / max(len(data), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", type=int, default=40)
    parser.add_argument("--playouts", type=int, default=400, help="montecarlo's per decision")
    parser.add_argument(
        "--teacher", default=None, help="bot spec whose choices are fitted (default: montecarlo)"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--l2", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dry-run", action="store_true", help="do not write the weights")
    parser.add_argument(
        "--out", type=Path, default=POLICY_FILE, help="where to write them (default: policy.json)"
    )
    args = parser.parse_args()
    if not args.dry_run and not args.out.parent.is_dir():
        parser.error(f"--out: no such directory: {args.out.parent}")  # before minutes of play
    started = time.perf_counter()
    jobs = [
        (args.seed + i, "uecda" if i % 3 == 2 else None, args.playouts, args.teacher)
        for i in range(args.sets)
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        data = [row for rows in pool.map(one_set, jobs) for row in rows]
    print(f"{len(data)} decisions from {args.sets} sets in {time.perf_counter() - started:.0f} s")
    random.Random(args.seed).shuffle(data)
    cut = len(data) * 4 // 5
    train, test = data[:cut], data[cut:]
    start = np.array(DEFAULT_WEIGHTS, dtype=np.float64)
    fit = minimize(loss_and_grad, start, args=(train, args.l2), jac=True, method="L-BFGS-B")
    w = fit.x
    for name, weights in (("hand-set", start), ("fitted", w)):
        loss = loss_and_grad(weights, test, 0.0)[0]
        print(
            f"{name}: held-out log-loss {loss:.4f}, top-1 agreement {agreement(weights, test):.3f}"
        )
    for f, v in zip(FEATURES, w, strict=True):
        print(f"  {f:<16} {v:+.3f}")
    if not args.dry_run:
        out = {
            "features": list(FEATURES),
            "weights": [round(float(v), 4) for v in w],
            "how": (
                f"bench/daifugo_policy.py --sets {args.sets} "
                # --playouts is montecarlo's budget: it plays no part under a --teacher
                + (f"--teacher {args.teacher} " if args.teacher else f"--playouts {args.playouts} ")
                + f"--l2 {args.l2} --seed {args.seed}: {len(data)} "
                f"{(args.teacher or 'montecarlo').split(':')[0]} decisions, held-out "
                f"top-1 agreement {agreement(w, test):.3f}"
            ),
        }
        args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
