"""Train ``ismcts``'s small networks (``net.npz``): a playout policy and a value, from self-play.

    python bench/daifugo_net.py play --sets 24 --seed 20000 --out /tmp/net-a.npz   # record
    python bench/daifugo_net.py fit --load /tmp/net-a.npz                          # write net.npz
    python bench/daifugo_net.py fit --load /tmp/net-a.npz --dry-run                # scores only
    python bench/daifugo_net.py duel --deals 1000 --seed 3000      # the policy alone, no search

``play``: five teacher bots (``--teacher``, default ``ismcts``, its default 3000 playouts) play
sets of 10 games by self-play from deal seeds ``--seed`` .. ``--seed + --sets - 1`` (two sets in
three under the seed rules, one under the ``uecda`` preset). At every play decision with two or
more candidate plays (as ``ismcts`` lists them) the mover's position as it sees it (the
simulator vector of a determinization: its own hand and the field are exact), the candidates and
the one chosen are kept; after every step the true position (every hand) is kept with the place
each seat finished that game in.

``fit``: the policy (:mod:`dennou.games.daifugo.net`) scores each candidate by the linear policy's
features plus a one-hidden-layer network over those features and the position's context; it
maximises the likelihood of the teacher's choices (softmax over the candidates, L2, L-BFGS). The
value is a logistic of the value features plus a hidden layer, fitted by cross-entropy to the
seat's reward (1 for the first place down to 0). Both are fitted on the sets whose seed is not 3
modulo 4 and scored on those that are (held-out log-loss / top-1 agreement; mean squared error),
then refitted on everything and written with their metadata (version, command, seeds, scores).

``duel``: the policy network plays one seat of fresh deals without search, against 4 linear
policies or 4 of ``greedy``'s rule (:func:`.policy.weakest_first`), each deal with it in every
seat; mean points a game (2 .. -2) with a 95% interval over deals. The strength of ``ismcts``
with the networks: ``bench/daifugo_strength.py --hero ismcts:net=true`` (or
``net_value=true:cutoff=15``).
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
from numba import njit
from scipy.optimize import minimize

from dennou.arena.bots import make_bot
from dennou.arena.play import play
from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import CHANCE, JSON, Event
from dennou.games.daifugo import GAME
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import fast as F
from dennou.games.daifugo import net as N
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.actions import Pass, Play
from dennou.games.daifugo.policy import (
    NF,
    NV,
    VALUE,
    WEIGHTS,
    _choose,
    move_features,
    value_features,
)
from dennou.games.daifugo.search import Context, candidate_moves

PRESETS = ("", "uecda")
SIZE = S.size_of(5)


def rules_of(preset: str) -> Any:
    """The rules of a recorded set (10 games)."""
    options: dict[str, Any] = {"games": 10}
    if preset:
        options["preset"] = preset
    return GAME.make_rules(options)


def chosen_index(view: JSON, candidates: list[tuple[int, Action]], chosen: Action) -> int:
    """The candidate the teacher's action is (-1: none)."""
    if isinstance(chosen, Pass):
        return next((i for i, (m, _) in enumerate(candidates) if m == 0), -1)
    assert isinstance(chosen, Play)
    rules = view["rules"]
    got = F.readings(chosen.cards, rules["max_group"], rules["suit_lock"], rules["sequences"])
    if not got:
        return -1
    combo = got[0]
    want = (combo.kind, combo.rank, combo.size, C.jokers_in(combo.cards), combo.cards & 1)
    pick = -1
    for i, (move, _) in enumerate(candidates):
        if move == S.move_of(combo):
            return i
        if move:
            c = S.combo_of(move)
            if (c.kind, c.rank, c.size, C.jokers_in(c.cards), c.cards & 1) == want:
                pick = i
    return pick


class Recorder(Bot):
    """A teacher bot keeping, at each play decision, its position, candidates and choice."""

    def __init__(self, teacher: Bot) -> None:
        self.teacher = teacher
        self.rows: list[tuple[np.ndarray, int, list[int], int]] = []

    def reset(self, *, seat: int, rules: Any, players: Sequence[str]) -> None:
        self.teacher.reset(seat=seat, rules=rules, players=players)

    def observe(self, events: Sequence[Event]) -> None:
        self.teacher.observe(events)

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        action = self.teacher.act(view, legal, rng)
        if view["phase"] == "play" and view["follow_up"] is None:
            candidates = candidate_moves(view, legal)
            if len(candidates) >= 2:
                pick = chosen_index(view, candidates, action)
                if pick >= 0:
                    base = Context(view, WEIGHTS).base
                    self.rows.append((base, view["seat"], [m for m, _ in candidates], pick))
        return action


def one_set(job: tuple[int, int, str]) -> dict[str, Any]:
    """The teacher's decisions and the true positions of one self-play set."""
    seed, preset, teacher = job
    rules = rules_of(PRESETS[preset])
    bots = [Recorder(make_bot(GAME, teacher)) for _ in range(5)]
    kept: list[tuple[int, np.ndarray]] = []
    last: list[Any] = [None]

    def keep(_step: Any, state: Any) -> None:
        last[0] = state
        if state.phase == "play" and state.follow_up is None:
            kept.append((state.game_no, S.pack(state)))

    play(GAME, rules, bots, seed, on_step=keep)
    place = {r.number: r.finish for r in last[0].results}
    vecs, seats, places = [], [], []
    for game, vec in kept:
        finish = place.get(game)
        if finish is None or len(finish) != 5:
            continue
        for x in range(5):
            if vec[S.HEAD + 15 + x] != 0:  # the seat still holds cards
                vecs.append(vec)
                seats.append(x)
                places.append(finish.index(x))
    rows = [r for b in bots for r in b.rows]
    return {
        "seed": seed,
        "preset": preset,
        "p_base": [r[0] for r in rows],
        "p_seat": [r[1] for r in rows],
        "p_moves": [r[2] for r in rows],
        "p_pick": [r[3] for r in rows],
        "v_vec": vecs,
        "v_seat": seats,
        "v_place": places,
    }


def record(args: argparse.Namespace) -> None:
    """The ``play`` command."""
    started = time.perf_counter()
    jobs = [(args.seed + i, 1 if i % 3 == 2 else 0, args.teacher) for i in range(args.sets)]
    p_base: list[np.ndarray] = []
    p_seat: list[int] = []
    p_moves: list[int] = []
    p_off = [0]
    p_pick: list[int] = []
    p_set: list[int] = []
    p_preset: list[int] = []
    v_vec: list[np.ndarray] = []
    v_seat: list[int] = []
    v_place: list[int] = []
    v_set: list[int] = []
    v_preset: list[int] = []

    def save() -> None:
        np.savez_compressed(
            args.out,
            p_base=np.array(p_base, dtype=np.int64).reshape(-1, SIZE),
            p_seat=np.array(p_seat, dtype=np.int64),
            p_moves=np.array(p_moves, dtype=np.uint64),
            p_off=np.array(p_off, dtype=np.int64),
            p_pick=np.array(p_pick, dtype=np.int64),
            p_set=np.array(p_set, dtype=np.int64),
            p_preset=np.array(p_preset, dtype=np.int64),
            v_vec=np.array(v_vec, dtype=np.int64).reshape(-1, SIZE),
            v_seat=np.array(v_seat, dtype=np.int64),
            v_place=np.array(v_place, dtype=np.int64),
            v_set=np.array(v_set, dtype=np.int64),
            v_preset=np.array(v_preset, dtype=np.int64),
            teacher=np.array(args.teacher),
        )

    with ProcessPoolExecutor(args.workers) as pool:
        for got in pool.map(one_set, jobs):
            for b, s, ms, k in zip(
                got["p_base"], got["p_seat"], got["p_moves"], got["p_pick"], strict=True
            ):
                p_base.append(b)
                p_seat.append(s)
                p_moves.extend(ms)
                p_off.append(len(p_moves))
                p_pick.append(k)
                p_set.append(got["seed"])
                p_preset.append(got["preset"])
            v_vec.extend(got["v_vec"])
            v_seat.extend(got["v_seat"])
            v_place.extend(got["v_place"])
            v_set.extend([got["seed"]] * len(got["v_seat"]))
            v_preset.extend([got["preset"]] * len(got["v_seat"]))
            save()  # after every set: a run cut short by its time bound keeps what it played
            took = time.perf_counter() - started
            done = f"{len(p_pick)} decisions, {len(v_seat)} positions"
            print(f"set {got['seed']}: {done}, {took:.0f} s", flush=True)


# --- the networks' playout policy against the linear one, without search -----------------------
@njit
def _duel_game(
    st: np.ndarray, fl: np.ndarray, wa: np.ndarray, wb: np.ndarray, hero: int, by_rule: bool
) -> int:
    """Play ``st`` to the end, ``hero`` by ``wa`` and the others by ``wb`` (or, ``by_rule``,
    by the weakest-first rule); the hero's place."""
    buf = np.zeros(S.MAXMOVES, dtype=np.uint64)
    probs = np.zeros(S.MAXMOVES + 1)
    feats = np.zeros(NF + N.SCRATCH)
    rule = np.zeros(st[S.N], dtype=np.bool_)
    if by_rule:
        rule[:] = True
        rule[hero] = False
    for _ in range(100_000):
        if st[S.OVER]:
            break
        w = wa if st[S.TURN] == hero else wb
        if S.step(st, _choose(st, fl, w, rule, buf, probs, feats), fl, buf):
            break
    n = st[S.N]
    place = n - 1
    for p in range(n):
        if st[S.HEAD + 2 * n + p] == hero:
            place = p
    return int(place)


def duel(args: argparse.Namespace) -> None:
    """The ``duel`` command: the policy network's playouts against the linear policy's."""
    nets = N.load(args.net)
    rows = (
        ("network policy", nets.policy, "4 linear policies", False),
        ("network policy", nets.policy, "4 weakest-first rules", True),
        ("linear policy", WEIGHTS, "4 weakest-first rules", True),
    )
    for preset in PRESETS:
        rules = rules_of(preset)
        fl = S.flags_of_rules(rules)
        for hero, wa, field, by_rule in rows:
            rng = random.Random(args.seed)  # the same deals for every row
            per_deal = []
            for _ in range(args.deals):
                state = GAME.new(rules, [f"p{i}" for i in range(5)])
                state, _ = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
                base = S.pack(state)
                np.random.seed(rng.randrange(2**31))
                places = [_duel_game(base.copy(), fl, wa, WEIGHTS, h, by_rule) for h in range(5)]
                per_deal.append(sum(2 - p for p in places) / 5)
            m = float(np.mean(per_deal))
            half = 1.96 * float(np.std(per_deal, ddof=1)) / len(per_deal) ** 0.5
            print(
                f"{preset or 'seed rules'}: {hero} among {field}: {m:+.3f} "
                f"[{m - half:+.3f}, {m + half:+.3f}] points a game over {args.deals} deals",
                flush=True,
            )


# --- fitting -------------------------------------------------------------------------------------
def policy_inputs(d: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per candidate: move features ``[M, NF]``; per decision: context ``[D, NC]``."""
    fls = [S.flags_of_rules(rules_of(p)) for p in PRESETS]
    base, seat, moves, off = d["p_base"], d["p_seat"], d["p_moves"], d["p_off"]
    preset = d["p_preset"]
    mf = np.zeros((len(moves), NF))
    ctx = np.zeros((len(seat), N.NC))
    n = 5
    for i in range(len(seat)):
        st, fl = base[i], fls[int(preset[i])]
        hand = np.uint64(st[S.HEAD + 3 * n + int(seat[i])])
        N.context_features(st, int(seat[i]), ctx[i])
        for j in range(off[i], off[i + 1]):
            move_features(st, fl, hand, np.uint64(moves[j]), mf[j])
    return mf, ctx, off, d["p_pick"]


def unpack_policy(theta: np.ndarray, hidden: int) -> tuple[np.ndarray, ...]:
    """``(linear [NF], W [H, NF + NC], b [H], v [H])`` from the flat parameters."""
    ni = NF + N.NC
    lin = theta[:NF]
    w = theta[NF : NF + hidden * ni].reshape(hidden, ni)
    b = theta[NF + hidden * ni : NF + hidden * ni + hidden]
    v = theta[NF + hidden * ni + hidden :]
    return lin, w, b, v


def policy_loss(
    theta: np.ndarray,
    mf: np.ndarray,
    ctx_rows: np.ndarray,
    seg: np.ndarray,
    picks: np.ndarray,
    hidden: int,
    l2: float,
) -> tuple[float, np.ndarray]:
    """Mean negative log-likelihood of the picks (``picks``: flat candidate indices) + L2."""
    lin, w, b, v = unpack_policy(theta, hidden)
    x = np.concatenate([mf, ctx_rows], axis=1)  # [M, NI]
    pre = x @ w.T + b  # [M, H]
    h = np.maximum(pre, 0.0)
    z = mf @ lin + h @ v  # [M]
    dsum = len(picks)
    zmax = np.full(dsum, -np.inf)
    np.maximum.at(zmax, seg, z)
    e = np.exp(z - zmax[seg])
    tot = np.zeros(dsum)
    np.add.at(tot, seg, e)
    p = e / tot[seg]
    loss = -float(np.mean(np.log(p[picks] + 1e-12)))
    g = p.copy()
    g[picks] -= 1.0
    g /= dsum  # dL/dz
    g_lin = mf.T @ g
    g_v = h.T @ g
    g_pre = np.outer(g, v) * (pre > 0)
    g_w = g_pre.T @ x
    g_b = g_pre.sum(axis=0)
    grad = np.concatenate([g_lin, g_w.ravel(), g_b, g_v])
    reg = theta.copy()
    reg[:NF] = 0.0  # the linear part starts at the fitted linear policy; keep it free
    return loss + l2 * float(reg @ reg), grad + 2 * l2 * reg


def fit_policy(
    mf: np.ndarray, ctx: np.ndarray, off: np.ndarray, picks: np.ndarray, rows: np.ndarray,
    hidden: int, l2: float, seed: int,
) -> np.ndarray:  # fmt: skip
    """Fit on the decisions ``rows``; returns the flat parameters."""
    mf2, ctx2, seg, flat = select(mf, ctx, off, picks, rows)
    rng = np.random.default_rng(seed)
    ni = NF + N.NC
    theta = np.concatenate(
        [WEIGHTS, rng.normal(0, 0.3, hidden * ni), np.full(hidden, 0.1), rng.normal(0, 0.1, hidden)]
    )
    got = minimize(
        policy_loss, theta, args=(mf2, ctx2, seg, flat, hidden, l2), jac=True,
        method="L-BFGS-B", options={"maxiter": 400},
    )  # fmt: skip
    return np.asarray(got.x)


def select(
    mf: np.ndarray, ctx: np.ndarray, off: np.ndarray, picks: np.ndarray, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The candidates of the decisions ``rows``: features, context per candidate, segment, picks."""
    idx = np.concatenate([np.arange(off[i], off[i + 1]) for i in rows])
    counts = off[rows + 1] - off[rows]
    seg = np.repeat(np.arange(len(rows)), counts)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    return mf[idx], ctx[rows][seg], seg, starts + picks[rows]


def policy_scores(
    theta: np.ndarray | None, mf: np.ndarray, ctx: np.ndarray, off: np.ndarray,
    picks: np.ndarray, rows: np.ndarray, hidden: int,
) -> tuple[float, float]:  # fmt: skip
    """Held-out log-loss and top-1 agreement (``theta`` None: the linear policy)."""
    mf2, ctx2, seg, flat = select(mf, ctx, off, picks, rows)
    if theta is None:
        theta = np.concatenate([WEIGHTS, np.zeros(hidden * (NF + N.NC) + 2 * hidden)])
    loss = policy_loss(theta, mf2, ctx2, seg, flat, hidden, 0.0)[0]
    lin, w, b, v = unpack_policy(theta, hidden)
    z = mf2 @ lin + np.maximum(np.concatenate([mf2, ctx2], axis=1) @ w.T + b, 0) @ v
    hits = 0
    counts = np.bincount(seg, minlength=len(rows))
    start = 0
    for i, c in enumerate(counts):
        hits += int(np.argmax(z[start : start + c]) == flat[i] - start)
        start += c
    return loss, hits / max(len(rows), 1)


def value_inputs(d: Any) -> tuple[np.ndarray, np.ndarray]:
    """Value features and rewards of the kept true positions."""
    fls = [S.flags_of_rules(rules_of(p)) for p in PRESETS]
    vec, seat, place, preset = d["v_vec"], d["v_seat"], d["v_place"], d["v_preset"]
    x = np.zeros((len(seat), NV))
    for i in range(len(seat)):
        value_features(vec[i], fls[int(preset[i])], int(seat[i]), x[i])
    return x, (4 - place) / 4.0


def value_loss(
    theta: np.ndarray, x: np.ndarray, y: np.ndarray, hidden: int, l2: float
) -> tuple[float, np.ndarray]:
    """Cross-entropy of the rewards under the value network, plus L2 (the bias unregularised)."""
    lin = theta[:NV]
    w = theta[NV : NV + hidden * NV].reshape(hidden, NV)
    b = theta[NV + hidden * NV : NV + hidden * NV + hidden]
    v = theta[NV + hidden * NV + hidden :]
    pre = x @ w.T + b
    h = np.maximum(pre, 0.0)
    z = x @ lin + h @ v
    p = 1.0 / (1.0 + np.exp(-z))
    eps = 1e-9
    ce = -float(np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))
    g = (p - y) / len(y)
    g_pre = np.outer(g, v) * (pre > 0)
    grad = np.concatenate([x.T @ g, (g_pre.T @ x).ravel(), g_pre.sum(axis=0), h.T @ g])
    reg = theta.copy()
    reg[0] = 0.0
    return ce + l2 * float(reg @ reg), grad + 2 * l2 * reg


def fit_value(x: np.ndarray, y: np.ndarray, hidden: int, l2: float, seed: int) -> np.ndarray:
    """The value network's flat parameters fitted to ``(x, y)``."""
    rng = np.random.default_rng(seed)
    theta = np.concatenate(
        [VALUE, rng.normal(0, 0.3, hidden * NV), np.full(hidden, 0.1), rng.normal(0, 0.1, hidden)]
    )
    got = minimize(
        value_loss, theta, args=(x, y, hidden, l2), jac=True, method="L-BFGS-B",
        options={"maxiter": 400},
    )  # fmt: skip
    return np.asarray(got.x)


def value_mse(theta: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    """Mean squared error of the network's value (Numba inference, as the search runs it)."""
    out = np.array([N.value_of(theta, x[i]) for i in range(len(x))])
    return float(np.mean((out - y) ** 2))


def fit(args: argparse.Namespace) -> None:
    """The ``fit`` command."""
    parts = [dict(np.load(p)) for p in args.load]
    d: dict[str, Any] = {}
    for key in parts[0]:
        if key == "teacher":
            continue
        if key == "p_off":
            offs, total = [], 0
            for p in parts:
                offs.append(p["p_off"][:-1] + total)
                total += int(p["p_off"][-1])
            d[key] = np.concatenate([*offs, [total]])
        else:
            d[key] = np.concatenate([p[key] for p in parts])
    teacher = str(parts[0]["teacher"])
    sets = sorted(set(d["p_set"].tolist()))
    mf, ctx, off, picks = policy_inputs(d)
    held = d["p_set"] % 4 == 3
    train_rows, test_rows = np.flatnonzero(~held), np.flatnonzero(held)
    theta = fit_policy(mf, ctx, off, picks, train_rows, args.hidden, args.l2, args.seed)
    lin_loss, lin_top = policy_scores(None, mf, ctx, off, picks, test_rows, args.hidden)
    loss, top = policy_scores(theta, mf, ctx, off, picks, test_rows, args.hidden)
    print(
        f"policy: {len(picks)} decisions ({len(test_rows)} held out): log-loss {loss:.4f} "
        f"top-1 {top:.3f} (linear policy.json: {lin_loss:.4f}, {lin_top:.3f})"
    )
    x, y = value_inputs(d)
    vheld = d["v_set"] % 4 == 3
    vtheta = fit_value(x[~vheld], y[~vheld], args.hidden, args.l2_value, args.seed)
    mse = value_mse(vtheta, x[vheld], y[vheld])
    lin_mse = value_mse(np.asarray(VALUE), x[vheld], y[vheld])
    const = float(np.mean((y[vheld] - y[~vheld].mean()) ** 2))
    print(
        f"value: {len(y)} positions ({int(vheld.sum())} held out): MSE {mse:.4f} "
        f"(linear value.json {lin_mse:.4f}, constant {const:.4f})"
    )
    if args.dry_run:
        return
    theta = fit_policy(mf, ctx, off, picks, np.arange(len(picks)), args.hidden, args.l2, args.seed)
    vtheta = fit_value(x, y, args.hidden, args.l2_value, args.seed)
    meta = {
        "version": args.version,
        "hidden": args.hidden,
        "policy_inputs": [*N.POLICY_INPUTS],
        "value_inputs": [*N.VALUE_INPUTS],
        "teacher": teacher,
        "train_set_seeds": f"{sets[0]}-{sets[-1]} ({len(sets)} sets, two in three seed rules, "
        "one in three uecda)",
        "command": f"bench/daifugo_net.py play --sets {len(sets)} --seed {sets[0]} "
        f"--teacher {teacher} --out F; "
        f"bench/daifugo_net.py fit --hidden {args.hidden} --l2 {args.l2} "
        f"--l2-value {args.l2_value} --seed {args.seed} --version {args.version} --load F",
        "policy_heldout": f"{len(test_rows)} decisions: log-loss {loss:.4f}, top-1 {top:.3f} "
        f"(policy.json {lin_loss:.4f}, {lin_top:.3f})",
        "value_heldout": f"{int(vheld.sum())} positions: MSE {mse:.4f} (value.json "
        f"{lin_mse:.4f}, constant {const:.4f})",
        "decisions": len(picks),
        "positions": len(y),
    }
    N.save(args.out, theta, vtheta, meta)
    print(f"wrote {args.out}: {json.dumps(meta, indent=1)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="record self-play of the teacher")
    p.add_argument("--sets", type=int, default=24)
    p.add_argument("--seed", type=int, default=20000, help="first deal seed (a set each)")
    p.add_argument("--teacher", default="ismcts")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit", help="fit the networks to recorded play and write them")
    f.add_argument("--load", action="append", required=True)
    f.add_argument("--hidden", type=int, default=8)
    f.add_argument("--l2", type=float, default=1e-4)
    f.add_argument("--l2-value", type=float, default=1e-5)
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--version", default="1")
    f.add_argument("--out", type=Path, default=N.NET_FILE)
    f.add_argument("--dry-run", action="store_true")
    d = sub.add_parser("duel", help="the network's playout policy among 4 linear ones")
    d.add_argument("--deals", type=int, default=2000)
    d.add_argument("--seed", type=int, default=3000)
    d.add_argument("--net", type=Path, default=N.NET_FILE)
    args = parser.parse_args()
    if args.command == "play":
        record(args)
    elif args.command == "duel":
        duel(args)
    else:
        fit(args)


if __name__ == "__main__":
    main()
