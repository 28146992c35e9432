"""Daifugo ``ismcts``'s models: the playout policy and the value of a position.

- **The policy** is a softmax over a few hand-built features of each play (:data:`FEATURES`);
  its weights (``policy.json`` beside this module) are fitted by ``bench/daifugo_policy.py`` to
  the choices of ``montecarlo`` bots in self-play. :func:`weakest_first` is the rule of the
  ``greedy`` bot and of UECda's sample client, as a distribution over the same moves.
- **Playouts** (:func:`playout`, :func:`playout_cut`) play a simulator vector (:mod:`.sim`) to
  the end of the game (or for some moves) with the policy.
- **The value of a position** (:func:`position_value`) is a logistic model over
  :data:`VALUE_FEATURES` (``value.json``, fitted by ``bench/daifugo_value.py``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from dennou.games.daifugo import net as N
from dennou.games.daifugo import sim as S

FEATURES = (
    "pass",
    "pass_on_lead",
    "pass_short",
    "strength_follow",
    "strength_lead",
    "size",
    "size_lead",
    "jokers",
    "eight_cut",
    "top_rank",
    "split",
    "finish",
    "revolution",
    "sequence",
    "controls_left",
    "short_after",
)
"""The policy's features of a move (see :func:`move_features`)."""

NF = len(FEATURES)

DEFAULT_WEIGHTS = (
    -1.0, -3.0, -2.0, -4.0, -4.0, 0.5, 1.5, -1.5, -0.5, -1.0, -1.0, 5.0, 2.0, 0.5, 0.5, 1.0,
)  # fmt: skip
"""Hand-set weights (greedy-like), used when no fitted weights are shipped."""

POLICY_FILE = Path(__file__).with_name("policy.json")
"""The fitted weights: ``{"features": [...], "weights": [...], "how": "..."}``."""


def load_weights(path: Path = POLICY_FILE) -> np.ndarray:
    """The policy's weights from ``path`` (the defaults if it is missing or stale)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return np.array(DEFAULT_WEIGHTS, dtype=np.float64)
    if list(data.get("features", [])) != list(FEATURES):
        return np.array(DEFAULT_WEIGHTS, dtype=np.float64)
    return np.array(data["weights"], dtype=np.float64)


WEIGHTS = load_weights()
"""The shipped policy weights."""

WEAKEST_FIRST_FILE = Path(__file__).with_name("policy_weakest_first.json")
"""The same policy fitted to the weakest-first rule's choices (``greedy``; UECda's sample
client plays by this rule): ``bench/daifugo_policy.py --teacher greedy --out ...``."""

OPPONENT_MODELS = np.stack([WEIGHTS, load_weights(WEAKEST_FIRST_FILE), WEIGHTS])
"""The models an opponent's hidden hand is weighed by, ``[model, feature]``: the search's choices
(as in the playouts), the policy fitted to the weakest-first rule's choices, and that rule
itself (:func:`weakest_first`; its row of weights is unused). Each opponent gets the one that
explains its decisions in the set's earlier games best
(:meth:`~dennou.games.daifugo.ismcts.IsmctsBot.observe`)."""

OPPONENT_RULES = np.array([False, False, True])
"""Which of :data:`OPPONENT_MODELS` are the rule rather than a policy."""

_NAT = np.uint64((1 << 52) - 1)
MOVE_CARDS = np.uint64((1 << 54) - 1)
MOVE_SEQ = np.uint64(1 << 58)
_ZERO = np.uint64(0)


# --- the policy ----------------------------------------------------------------------------------
@S.no_alloc
def move_features(st: np.ndarray, fl: np.ndarray, hand: np.uint64, m: np.uint64, out: Any) -> None:
    """Fill ``out`` (``NF`` floats) with the features of move ``m`` (0: pass) of ``hand``.

    Strength is in the current order, 0 (weakest) to 1; a sequence counts by its weakest end.
    ``controls_left``: jokers, top-rank cards and (with the 8-cut) 8s kept after the play.
    ``revolution``: the play reverses the order, signed by how weak the rest of the hand is now.
    """
    for i in range(NF):
        out[i] = 0.0
    lead = st[S.TOP] == 0
    rev = st[S.REVOLUTION] != st[S.BACK]
    count = S._popcount(hand)
    if m == _ZERO:
        out[0] = 1.0
        if lead:
            out[1] = 1.0
        out[2] = 1.0 / (count if count > 0 else 1)
        return
    kind, low, size, _ = S.move_info(m)
    jk = S._jokers(m)
    after = S._remove(hand, m)
    left = S._popcount(after)
    r = low
    if kind == 1:
        r = low + size - 1 if rev else low
        r = min(max(r, 0), 12)
    strength = 1.0 if r == 13 else ((12 - r) if rev else r) / 12.0
    if lead:
        out[4] = strength
        out[6] = size / 4.0
    else:
        out[3] = strength
    out[5] = size / 4.0
    out[7] = jk
    if fl[S.F_CUT] and S._count_of(kind, low, size, S.EIGHT) > 0:
        out[8] = 1.0
    top_rank = 0 if rev else 12
    if r != 13 and S._count_of(kind, low, size, top_rank) > 0:
        out[9] = 1.0
    if kind == 0 and low != 13:
        out[10] = S._popcount((after >> np.uint64(4 * low)) & np.uint64(15)) / 3.0
    if left == 0:
        out[11] = 1.0
    big = (0 < fl[S.F_SEQREV] <= size) if kind == 1 else (size >= fl[S.F_REVSIZE] and low != 13)
    returned = st[S.TOP] != 0 and st[S.TLOW] == 13 and m == np.uint64(1)
    revolts = fl[S.F_REV] != 0 and big and not returned
    if revolts and left > 0:
        total = 0.0
        nat: Any = 0
        for q in range(13):
            c = S._popcount((after >> np.uint64(4 * q)) & np.uint64(15))
            total += c * (((12 - q) if rev else q) / 12.0)
            nat += c
        if nat > 0:
            out[12] = (0.5 - total / nat) * 2.0
    if kind == 1:
        out[13] = 1.0
    controls = S._jokers(after) + S._popcount((after >> np.uint64(4 * top_rank)) & np.uint64(15))
    if fl[S.F_CUT]:
        controls += S._popcount((after >> np.uint64(4 * S.EIGHT)) & np.uint64(15))
    out[14] = controls / 4.0
    out[15] = 1.0 / (left + 1)


@S.no_alloc
def policy(
    st: np.ndarray,
    fl: np.ndarray,
    hand: np.uint64,
    w: np.ndarray,
    buf: np.ndarray,
    probs: np.ndarray,
    feats: np.ndarray,
) -> Any:
    """The policy's distribution over the moves of ``hand`` on ``st``'s field.

    Fills ``buf`` with the plays (:func:`.sim.gen_moves`) and ``probs`` with their
    probabilities, passing last (at index ``k``) when allowed. Returns ``(k, can_pass)``.
    ``w`` longer than :data:`NF` is a policy network (:mod:`.net`); ``feats`` then holds
    ``NF + net.SCRATCH`` floats.
    """
    k = S.gen_moves(hand, st, fl, buf)
    can_pass = st[S.TOP] != 0 or fl[S.F_LEADPASS] != 0
    total = k + (1 if can_pass else 0)
    best = -1e300
    net = w.shape[0] > NF
    if net:
        N.prepare(st, st[S.TURN], w, feats[NF:])
    for i in range(total):
        m = buf[i] if i < k else _ZERO
        move_features(st, fl, hand, m, feats)
        z = 0.0
        if net:
            z = N.logit(w, feats, feats[NF:])
        else:
            for f in range(NF):
                z += w[f] * feats[f]
        probs[i] = z
        if z > best:
            best = z
    s = 0.0
    for i in range(total):
        probs[i] = math.exp(probs[i] - best)
        s += probs[i]
    for i in range(total):
        probs[i] /= s
    return k, can_pass


@S.no_alloc
def weakest_first(
    st: np.ndarray, fl: np.ndarray, hand: np.uint64, buf: np.ndarray, probs: Any
) -> Any:
    """The ``greedy`` bot's rule (:func:`.greedy.greedy_choice`) as a distribution.

    Like :func:`policy` it fills ``buf`` with the plays and ``probs`` with their probabilities,
    passing last, and returns ``(k, can_pass)``. Among plays of the same key the rule takes the
    first the engine lists, the lowest cards; a lone joker and the pass share the probability
    where the rule asks whether the 3 of spades has been seen, which the field does not say.
    """
    k = S.gen_moves(hand, st, fl, buf)
    can_pass = st[S.TOP] != 0 or fl[S.F_LEADPASS] != 0
    for i in range(k + 1):
        probs[i] = 0.0
    if k == 0:
        probs[0] = 1.0
        return k, can_pass
    lead = st[S.TOP] == 0
    rev = st[S.REVOLUTION] != st[S.BACK]
    top_rank = 0 if rev else 12
    best: Any = 1 << 40
    first = 0
    for i in range(k):
        kind, low, size, _ = S.move_info(buf[i])
        jk = S._jokers(buf[i])
        left: Any = 0
        if kind == 1:
            r = max(low + size - 1 if rev else low, 0)
            precious = jk > 0 or S._count_of(kind, low, size, top_rank) > 0
            precious = precious or S._count_of(kind, low, size, S.EIGHT) > 0
            strength: Any = 12 - r if rev else r
        else:
            precious = low == 13 or low == top_rank or low == S.EIGHT or jk > 0
            strength = 100 if low == 13 else (12 - low if rev else low)
            if low != 13:
                left = S._popcount((hand >> np.uint64(4 * low)) & np.uint64(15)) - (size - jk)
        key = (int(precious) << 20) + (strength << 10) + (left << 5) + (16 - size if lead else 0)
        probs[i] = key
        if key < best:
            best = key
            first = i
    play = 1.0
    if best >= 1 << 20 and not lead and can_pass:  # only precious plays: the rule may keep them
        kind, low, size, _ = S.move_info(buf[first])
        if S._count_of(kind, low, size, S.EIGHT) > 0 or S._popcount(hand) <= size + 2:
            play = 1.0
        elif kind == 0 and low == 13:
            play = 1.0 if size > 1 or hand & np.uint64(1) else 0.5
        elif kind == 0 and low == top_rank and S._jokers(buf[first]) == 0:
            play = 1.0
        else:
            play = 0.0
    # among equal keys the engine lists the lowest cards first: the rule plays those
    cards = buf[first] & MOVE_CARDS
    for i in range(k):
        if probs[i] == best and (buf[i] & MOVE_CARDS) < cards:
            cards = buf[i] & MOVE_CARDS
    ties = 0
    for i in range(k):
        if probs[i] == best and (buf[i] & MOVE_CARDS) == cards:
            ties += 1
    for i in range(k):
        probs[i] = play / ties if probs[i] == best and (buf[i] & MOVE_CARDS) == cards else 0.0
    probs[k] = 1.0 - play
    return k, can_pass


@S.no_alloc
def _choose(
    st: np.ndarray,
    fl: np.ndarray,
    w: np.ndarray,
    rule: np.ndarray,
    buf: np.ndarray,
    probs: np.ndarray,
    feats: np.ndarray,
) -> np.uint64:
    """A move drawn from the policy, or by :func:`weakest_first` for a seat ``rule`` marks.

    A 7 pass or 10 discard gives the weakest cards.
    """
    seat = st[S.TURN]
    hand = S._hand(st, seat)
    if st[S.FU_KIND]:
        return S._weakest(hand, st[S.FU_COUNT], 1 if st[S.REVOLUTION] != st[S.BACK] else 0)
    if rule[seat]:
        k, can_pass = weakest_first(st, fl, hand, buf, probs)
    else:
        k, can_pass = policy(st, fl, hand, w, buf, probs, feats)
    total = k + (1 if can_pass else 0)
    if total == 0:
        return _ZERO
    u = np.random.random()
    acc = 0.0
    for i in range(total):
        acc += probs[i]
        if u < acc:
            return buf[i] if i < k else _ZERO
    return buf[total - 1] if total - 1 < k else _ZERO


@S.no_alloc
def playout(
    st: np.ndarray,
    fl: np.ndarray,
    w: np.ndarray,
    rule: np.ndarray,
    buf: np.ndarray,
    probs: np.ndarray,
    feats: np.ndarray,
) -> None:
    """Play ``st`` to the end of the game, each seat by the policy ``w`` (or the rule)."""
    for _ in range(100_000):
        if st[S.OVER]:
            return
        if S.step(st, _choose(st, fl, w, rule, buf, probs, feats), fl, buf):
            return


@S.no_alloc
def playout_cut(
    st: np.ndarray,
    fl: np.ndarray,
    w: np.ndarray,
    rule: np.ndarray,
    seat: int,
    moves: int,
    buf: np.ndarray,
    probs: np.ndarray,
    feats: np.ndarray,
) -> bool:
    """:func:`playout` stopped after ``moves`` moves while ``seat`` still holds cards.

    Returns whether it was cut (the seat's place is then not known).
    """
    for _ in range(moves):
        if st[S.OVER] or S._hand(st, seat) == 0:
            break
        if S.step(st, _choose(st, fl, w, rule, buf, probs, feats), fl, buf):
            return False
    return not (st[S.OVER] or S._hand(st, seat) == 0)


# --- the value of a position ------------------------------------------------------------------
VALUE_FEATURES = (
    "bias",
    "cards",
    "ranks",
    "jokers",
    "top_rank",
    "eights",
    "weak_singles",
    "strength",
    "fewest_other",
    "mean_other",
    "controls_other",
    "most_controls_other",
    "players",
    "my_lead",
    "my_follow",
    "shortest",
    "first_out_taken",
    "finished",
)
"""Features of a position for the seat whose value it is (see :func:`value_features`)."""

NV = len(VALUE_FEATURES)

VALUE_FILE = Path(__file__).with_name("value.json")
"""The fitted value weights: ``{"features": [...], "weights": [...], "how": "..."}``."""


def load_value(path: Path = VALUE_FILE) -> np.ndarray:
    """The value model's weights from ``path`` (zeros, a value of 0.5, if missing or stale)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return np.zeros(NV)
    if list(data.get("features", [])) != list(VALUE_FEATURES):
        return np.zeros(NV)
    return np.array(data["weights"], dtype=np.float64)


VALUE = load_value()
"""The shipped value weights."""


@S.no_alloc
def _hand_counts(hand: np.uint64, rev: bool, cut: bool) -> tuple[Any, Any, Any, Any, Any, Any]:
    """A hand's counts: cards, ranks held, jokers, top-rank cards, 8s, and the rest.

    8s count 0 without the 8-cut; the rest is (singles of the weaker half, summed strength of
    the naturals), in the current order.
    """
    cards = S._popcount(hand)
    jk = S._jokers(hand)
    ranks = 0
    weak = 0
    total = 0.0
    for q in range(13):
        c = S._popcount((hand >> np.uint64(4 * q)) & np.uint64(15))
        if c > 0:
            ranks += 1
        strength = ((12 - q) if rev else q) / 12.0
        total += c * strength
        if c == 1 and strength < 0.5:
            weak += 1
    top = S._popcount((hand >> np.uint64(4 * (0 if rev else 12))) & np.uint64(15))
    eights = S._popcount((hand >> np.uint64(4 * S.EIGHT)) & np.uint64(15)) if cut else 0
    return cards, ranks, jk, top, eights, (weak, total)


@S.no_alloc
def value_features(st: np.ndarray, fl: np.ndarray, seat: int, out: Any) -> None:
    """Fill ``out`` (``NV`` floats) with the features of position ``st`` for ``seat``.

    Every hand is read (the simulator vector of a determinization or a finished game). The
    seat's own hand: cards, ranks held (about the plays it needs), jokers, top-rank cards, 8s
    (with the 8-cut), singles of the weaker half and mean strength in the current order; the
    others still in: the fewest and the mean cards, their controls (jokers, top rank, 8s) in all
    and the most one holds; players still in; whether the seat leads or follows now; whether
    it holds the fewest cards; whether someone is already out (the first title is gone).
    """
    n = st[S.N]
    rev = st[S.REVOLUTION] != st[S.BACK]
    cut = fl[S.F_CUT] != 0
    for i in range(NV):
        out[i] = 0.0
    out[0] = 1.0
    mine = np.uint64(st[S.HEAD + 3 * n + seat])
    cards, ranks, jk, top, eights, rest = _hand_counts(mine, rev, cut)
    weak, total = rest
    out[1] = cards / 13.0
    out[2] = ranks / 13.0
    out[3] = jk
    out[4] = top / 4.0
    out[5] = eights / 4.0
    out[6] = weak / 5.0
    naturals = cards - jk
    out[7] = total / naturals if naturals > 0 else 1.0
    fewest = 99
    others = 0
    summed = 0.0
    controls = 0.0
    most = 0.0
    for x in range(n):
        if x == seat:
            continue
        h = np.uint64(st[S.HEAD + 3 * n + x])
        if h == 0:
            continue
        c2, _, jk2, top2, e2, _ = _hand_counts(h, rev, cut)
        others += 1
        summed += c2
        fewest = min(fewest, c2)
        ctl = jk2 + top2 + e2
        controls += ctl
        most = max(most, float(ctl))
    if others > 0:
        out[8] = fewest / 13.0
        out[9] = summed / others / 13.0
        out[15] = 1.0 if cards <= fewest else 0.0
    out[10] = controls / 8.0
    out[11] = most / 4.0
    out[12] = (others + 1) / n
    if st[S.TURN] == seat:
        if st[S.TOP] == 0:
            out[13] = 1.0
        else:
            out[14] = 1.0
    if st[S.NFIN] > 0:
        out[16] = 1.0
    out[17] = st[S.NFIN] / (n - 1)


@S.no_alloc
def position_value(st: np.ndarray, fl: np.ndarray, seat: int, v: np.ndarray, feats: Any) -> Any:
    """The value model's estimate (0-1) of the seat's reward from ``st``.

    A logistic of :func:`value_features` with the weights ``v`` (``feats``: scratch space), or
    the value network (:func:`.net.value_of`) when ``v`` is longer than :data:`NV`.
    """
    value_features(st, fl, seat, feats)
    if v.shape[0] > NV:
        return N.value_of(v, feats)
    z = 0.0
    for i in range(NV):
        z += v[i] * feats[i]
    return 1.0 / (1.0 + math.exp(-z))
