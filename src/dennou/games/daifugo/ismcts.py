"""Daifugo ``ismcts``: belief-weighted determinized search with a learned playout policy.

The approach of the UECda champions (``docs/games/daifugo.md``, Bots):

- **Hidden hands by likelihood.** Candidate deals of the unseen cards are drawn consistently with
  the view (card counts, every card seen, the cards the seat gave, a tribute's rank cap), then
  weighted by how likely each opponent's plays and passes this game were under the policy model
  below (the hand a seat held at each decision is its sampled hand plus what it played since).
  Under ``auto_pass`` a pass says exactly whether the seat could play (the host passes for a seat
  that cannot); a gift received in the exchange says the giver holds few weaker cards. The
  determinizations are drawn from the candidates in proportion to their weights (importance
  resampling; ``belief`` tempers the weights, 0 is uniform). With ``mcmc`` each determinization
  then walks by Metropolis swaps of two cards between opponents under the same likelihood
  (:func:`move_deals`), which keeps the samples apart where resampling would repeat a few deals.
- **Opponent models** (``model_opponents``): after each game of a set, every opponent that went
  out is judged by its decisions (its hands then are known), and its hand is weighed from then
  on by whichever of :data:`OPPONENT_MODELS` explains it best: the playout policy, that policy
  fitted to the weakest-first rule, or the rule itself (:func:`weakest_first`, the ``greedy``
  bot's and UECda's sample client's). With ``model_playouts`` the seats the rule explains also
  play by it in the playouts.
- **UCB1 at the root** over the candidate plays (and, as 大富豪 / 富豪, over the cards to give
  back): each playout takes the next determinization of the arm and plays to the end of the
  game in the Numba simulator (:mod:`.sim`) with the policy; the reward is the title's points.
- **The policy** is a softmax over a few hand-built features of each play (:data:`FEATURES`);
  its weights (``policy.json`` beside this module) are fitted by ``bench/daifugo_policy.py`` to
  the choices of ``montecarlo`` bots in self-play.
- **An exact solver when two players remain**: the seat then knows the other hand (every unseen
  card), and a win/loss search with a transposition table (:class:`TwoPlayerSolver`) plays a winning
  move when there is one.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections import Counter
from collections.abc import Collection, Sequence
from functools import cached_property
from itertools import combinations
from pathlib import Path
from typing import Annotated, Any

import numpy as np
from msgspec import Meta
from numba import njit

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON, Event, Seat
from dennou.core.native import Native
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import fast as F
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.actions import Discard, Give, Pass, Play
from dennou.games.daifugo.greedy import greedy_choice
from dennou.games.daifugo.rules import DaifugoRules, titles_for
from dennou.games.daifugo.views import determinize, known_holdings, tribute_caps

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
explains its decisions in the set's earlier games best (:meth:`IsmctsBot.observe`)."""

OPPONENT_RULES = np.array([False, False, True])
"""Which of :data:`OPPONENT_MODELS` are the rule rather than a policy."""

_NAT = np.uint64((1 << 52) - 1)
_CARDS = np.uint64((1 << 54) - 1)
_SEQ = np.uint64(1 << 58)
_ZERO = np.uint64(0)
_TINY = 1e-4
"""The likelihood of an observation the model says is impossible (robust to local rules)."""
_EPS = 0.05
"""The weight of a uniform choice mixed into a policy model's likelihood (robustness)."""
_RULE_EPS = 0.01
"""The same for the rule (:func:`weakest_first`), which explains the bots that follow it all but
exactly."""


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
    """
    k = S.gen_moves(hand, st, fl, buf)
    can_pass = st[S.TOP] != 0 or fl[S.F_LEADPASS] != 0
    total = k + (1 if can_pass else 0)
    best = -1e300
    for i in range(total):
        m = buf[i] if i < k else _ZERO
        move_features(st, fl, hand, m, feats)
        z = 0.0
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
    cards = buf[first] & _CARDS
    for i in range(k):
        if probs[i] == best and (buf[i] & _CARDS) < cards:
            cards = buf[i] & _CARDS
    ties = 0
    for i in range(k):
        if probs[i] == best and (buf[i] & _CARDS) == cards:
            ties += 1
    for i in range(k):
        probs[i] = play / ties if probs[i] == best and (buf[i] & _CARDS) == cards else 0.0
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
def _playout(
    st: np.ndarray,
    fl: np.ndarray,
    w: np.ndarray,
    rule: np.ndarray,
    buf: np.ndarray,
    probs: np.ndarray,
    feats: np.ndarray,
) -> None:
    for _ in range(100_000):
        if st[S.OVER]:
            return
        if S.step(st, _choose(st, fl, w, rule, buf, probs, feats), fl, buf):
            return


@S.no_alloc
def _playout_cut(
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
    """:func:`_playout` stopped after ``moves`` moves while ``seat`` still holds cards.

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

    A logistic of :func:`value_features` with the weights ``v`` (``feats``: scratch space).
    """
    value_features(st, fl, seat, feats)
    z = 0.0
    for i in range(NV):
        z += v[i] * feats[i]
    return 1.0 / (1.0 + math.exp(-z))


# --- the root search ----------------------------------------------------------------------------
@njit(cache=True)
def search(
    base: np.ndarray,
    hands: np.ndarray,
    first: np.ndarray,
    use_first: int,
    diamond3: int,
    fl: np.ndarray,
    w: np.ndarray,
    rule: np.ndarray,
    vw: np.ndarray,
    blend: float,
    cutoff: int,
    value: np.ndarray,
    seat: int,
    budget: int,
    explore: float,
    seed: int,
    visits: np.ndarray,
    totals: np.ndarray,
) -> None:
    """UCB1 over ``K`` arms for ``budget`` playouts; adds to ``visits`` and ``totals``.

    Args:
        base: The position (a simulator vector; its hands are replaced).
        hands: ``[K or 1, D, seats]`` hands per arm and determinization; arm ``k`` takes its
            determinizations in turn (common random numbers across arms).
        first: ``[K]`` the arms' first moves, played when ``use_first`` (else the arms differ
            by their hands: exchange choices, play starting at ``base``).
        use_first: Whether to play ``first[k]`` first.
        diamond3: The holder of the 3 of diamonds leads (a game's start under UECda).
        fl: Rule flags.
        w: Policy weights.
        rule: ``[seats]`` the seats that play by :func:`weakest_first` instead.
        vw: The value model's weights (:func:`position_value`).
        blend: The value model's share of the reward, judged after the first move (0: the
            playout's result alone).
        cutoff: Moves after which a playout stops and the value model judges the position
            while ``seat`` still holds cards (0: to the end of the game).
        value: The reward of each finishing place (0-1).
        seat: Whose reward.
        budget: Playouts.
        explore: The UCB1 constant.
        seed: Seed of the playouts' random stream.
        visits: ``[K]`` playouts per arm (updated).
        totals: ``[K]`` summed rewards per arm (updated).
    """
    np.random.seed(seed)
    n = base[S.N]
    arms = visits.shape[0]
    dets = hands.shape[1]
    shared = hands.shape[0] == 1
    buf = np.zeros(S.MAXMOVES, dtype=np.uint64)
    probs = np.zeros(S.MAXMOVES + 1)
    feats = np.zeros(NF)
    vfeats = np.zeros(NV)
    done = 0
    for k in range(arms):
        done += visits[k]
    for _ in range(budget):
        pick = -1
        for k in range(arms):
            if visits[k] == 0:
                pick = k
                break
        if pick < 0:
            best = -1e300
            logn = math.log(done)
            for k in range(arms):
                u = totals[k] / visits[k] + explore * math.sqrt(logn / visits[k])
                if u > best:
                    best = u
                    pick = k
        d = visits[pick] % dets
        row = 0 if shared else pick
        st = base.copy()
        for x in range(n):
            st[S.HEAD + 3 * n + x] = hands[row, d, x]
        if diamond3:
            for x in range(n):
                if hands[row, d, x] >> C.DIAMOND3 & 1:
                    st[S.TURN] = x
                    st[S.LAST] = x
        elif S._hand(st, st[S.TURN]) == 0:
            x = S._next_active(st, st[S.TURN])
            st[S.TURN] = x
            st[S.LAST] = x
        over = False
        if use_first:
            over = S.step(st, first[pick], fl, buf)
        judged = -1.0
        if blend > 0 and not over and S._hand(st, seat) != 0:
            judged = position_value(st, fl, seat, vw, vfeats)
        if (
            not over
            and cutoff > 0
            and _playout_cut(st, fl, w, rule, seat, cutoff, buf, probs, feats)
        ):
            visits[pick] += 1
            totals[pick] += position_value(st, fl, seat, vw, vfeats)
            done += 1
            continue
        if not over:
            _playout(st, fl, w, rule, buf, probs, feats)
        place = 0
        for p in range(n):
            if st[S.HEAD + 2 * n + p] == seat:
                place = p
        reward = value[place]
        if judged >= 0:
            reward = (1.0 - blend) * reward + blend * judged
        visits[pick] += 1
        totals[pick] += reward
        done += 1


# --- hidden hands ---------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _card_bits(c: int) -> np.uint64:
    """The card set of one card code (jokers as 52)."""
    if c == 52:
        return np.uint64(1 << 52)
    return np.uint64(1) << np.uint64(c)


@njit(cache=True, inline="always")
def _over_cap(c: int, cap: int) -> int:
    """Whether card ``c`` breaks a tribute cap (a cap below 13: no joker, no rank above it)."""
    return 1 if cap < 13 and (c == 52 or (c >> 2) > cap) else 0


@njit(cache=True)
def deal_samples(
    pool: np.ndarray,
    need: np.ndarray,
    fixed: np.ndarray,
    cap: np.ndarray,
    count: int,
    seed: int,
) -> np.ndarray:
    """``count`` deals ``[sample, seat]`` of the card codes in ``pool`` (jokers as 52).

    Seat ``x`` gets ``fixed[x]`` (a card set) and ``need[x]`` cards of the pool; a seat with
    ``cap[x] < 13`` takes only cards of rank at most ``cap[x]`` when there are enough.
    """
    np.random.seed(seed)
    n = need.shape[0]
    out = np.zeros((count, n), dtype=np.int64)
    cards = pool.copy()
    used = np.zeros(pool.shape[0], dtype=np.bool_)
    for g in range(count):
        np.random.shuffle(cards)
        used[:] = False
        hands = np.zeros(n, dtype=np.uint64)
        for x in range(n):
            hands[x] = np.uint64(fixed[x])
        for phase in range(2):
            for x in range(n):
                if (cap[x] < 13) != (phase == 0):
                    continue
                want = need[x]
                if phase == 0:
                    fits = 0
                    for i in range(cards.shape[0]):
                        if not used[i] and not _over_cap(cards[i], cap[x]):
                            fits += 1
                    if fits < want:
                        continue  # not enough: filled without the cap below
                for i in range(cards.shape[0]):
                    if want == 0:
                        break
                    c = cards[i]
                    if used[i] or (phase == 0 and _over_cap(c, cap[x])):
                        continue
                    used[i] = True
                    want -= 1
                    hands[x] = S._add_cards(hands[x], _card_bits(c))
                need_left = want
                if phase == 0:
                    need_left = 0
                for i in range(cards.shape[0]):
                    if need_left == 0:
                        break
                    c = cards[i]
                    if used[i]:
                        continue
                    used[i] = True
                    need_left -= 1
                    hands[x] = S._add_cards(hands[x], _card_bits(c))
        # seats with a cap that could not be met take any cards now
        for x in range(n):
            got = S._popcount(hands[x]) - S._popcount(np.uint64(fixed[x]))
            left = need[x] - got
            for i in range(cards.shape[0]):
                if left <= 0:
                    break
                if used[i]:
                    continue
                used[i] = True
                left -= 1
                c = cards[i]
                hands[x] = S._add_cards(hands[x], _card_bits(c))
        for x in range(n):
            out[g, x] = np.int64(hands[x])
    return out


PLAY, PASS, AUTO_PASS, GIFT = 0, 1, 2, 3
"""Kinds of observation weighed by :func:`log_weights`."""


@njit(cache=True)
def seat_log_likelihood(
    hand_now: np.uint64,
    x: int,
    seats: np.ndarray,
    kinds: np.ndarray,
    context: np.ndarray,
    moves: np.ndarray,
    later: np.ndarray,
    st: np.ndarray,
    fl: np.ndarray,
    w: np.ndarray,
    rule: bool,
    eps: float,
    buf: np.ndarray,
    probs: np.ndarray,
    feats: np.ndarray,
) -> float:
    """The log-likelihood of seat ``x``'s observed decisions if it holds ``hand_now`` now.

    The arrays are those of :func:`log_weights`; ``st`` is a simulator vector the field is
    written into, ``w`` the seat's policy weights, ``rule`` whether the seat is modelled by
    :func:`weakest_first` instead, the last three scratch space.
    """
    total = 0.0
    auto = fl[S.F_AUTO] != 0
    for d in range(seats.shape[0]):
        if seats[d] != x:
            continue
        hand = S._add_cards(hand_now, np.uint64(later[d]))
        if kinds[d] == GIFT:
            weaker = S._popcount(hand & np.uint64(context[d, 0]))
            total += weaker * math.log(0.35)
            continue
        st[S.TOP] = context[d, 0]
        st[S.RETURNED] = context[d, 1]
        st[S.TKIND] = context[d, 2]
        st[S.TLOW] = context[d, 3]
        st[S.TSIZE] = context[d, 4]
        st[S.REVOLUTION] = context[d, 5]
        st[S.BACK] = context[d, 6]
        st[S.LOCK] = context[d, 7]
        e = eps
        if rule:
            k, can_pass = weakest_first(st, fl, hand, buf, probs)
            e = _RULE_EPS
        else:
            k, can_pass = policy(st, fl, hand, w, buf, probs, feats)
        options = k + (1 if can_pass else 0)
        p = _TINY
        if kinds[d] == AUTO_PASS:
            p = 1.0 if k == 0 else _TINY
        elif kinds[d] == PASS and k == 0:
            p = _TINY if auto else 1.0
        elif kinds[d] == PASS:
            p = (1.0 - e) * probs[k] + e / options
        else:
            want = np.uint64(moves[d])
            q = 0.0
            found = False
            for i in range(k):
                mv = buf[i]
                if (mv & _CARDS) == (want & _CARDS) and (mv & _SEQ) == (want & _SEQ):
                    q += probs[i]
                    found = True
            if found:
                p = (1.0 - e) * q + e / options
        total += math.log(p)
    return total


@njit(cache=True)
def _acted(seats: np.ndarray, n: int) -> np.ndarray:
    """``[n]`` whether each seat has an observed decision in ``seats``."""
    acted = np.zeros(n, dtype=np.bool_)
    for d in range(seats.shape[0]):
        acted[seats[d]] = True
    return acted


@njit(cache=True)
def log_weights(
    deals: np.ndarray,
    seats: np.ndarray,
    kinds: np.ndarray,
    context: np.ndarray,
    moves: np.ndarray,
    later: np.ndarray,
    template: np.ndarray,
    fl: np.ndarray,
    w: np.ndarray,
    rule: np.ndarray,
    eps: float,
) -> np.ndarray:
    """The log-likelihood of every deal under the policy model, observation by observation.

    Args:
        deals: ``[M, seats]`` candidate hands (card sets) now.
        seats: ``[D]`` who acted.
        kinds: ``[D]`` :data:`PLAY`, :data:`PASS`, :data:`AUTO_PASS` (the host passed for the
            seat) or :data:`GIFT` (an exchange gift received: ``context[d, 0]`` holds the
            ranks below the gift's strongest card, as a card set).
        context: ``[D, 8]`` the field then: top move, returned, top kind, low, size,
            revolution, 11-back, lock.
        moves: ``[D]`` the move played (plays).
        later: ``[D]`` the cards that seat played at that decision or after (its hand then is
            its hand now plus these).
        template: A simulator vector to write the field into.
        fl: Rule flags.
        w: Policy weights of each seat, ``[seats, features]``.
        rule: ``[seats]`` whether a seat is modelled by :func:`weakest_first` instead.
        eps: Weight of a uniform choice mixed into the policy (robustness; the rule's is
            :data:`_RULE_EPS`).
    """
    count, n = deals.shape
    out = np.zeros(count)
    st = template.copy()
    buf = np.zeros(S.MAXMOVES, dtype=np.uint64)
    probs = np.zeros(S.MAXMOVES + 1)
    feats = np.zeros(NF)
    acted = _acted(seats, n)
    for g in range(count):
        for x in range(n):
            if acted[x]:
                out[g] += seat_log_likelihood(
                    np.uint64(deals[g, x]), x, seats, kinds, context, moves, later, st, fl,
                    w[x], rule[x], eps, buf, probs, feats,
                )  # fmt: skip
    return out


@njit(cache=True)
def move_deals(
    deals: np.ndarray,
    pool: np.ndarray,
    fixed: np.ndarray,
    cap: np.ndarray,
    seats: np.ndarray,
    kinds: np.ndarray,
    context: np.ndarray,
    moves: np.ndarray,
    later: np.ndarray,
    template: np.ndarray,
    fl: np.ndarray,
    w: np.ndarray,
    rule: np.ndarray,
    eps: float,
    belief: float,
    steps: int,
    seed: int,
) -> np.ndarray:
    """Each deal after ``steps`` Metropolis moves that swap two unseen cards between seats.

    The target is the likelihood of :func:`log_weights` (to the power ``belief``) times
    :data:`_TINY` per card that breaks a tribute cap, so the chains stay on deals the opponents'
    play makes likely but keep moving among them: importance resampling alone leaves a handful
    of distinct deals once a game has run a while. A swap of two cards between seats ``a`` and
    ``b`` is a symmetric proposal and only those two seats' likelihoods change.

    Args:
        deals: ``[M, seats]`` starting deals of :meth:`Context.deals` (card sets).
        pool: The unseen card codes the deals share out (jokers as 52).
        fixed: Each seat's known cards (card sets; not moved).
        cap: Each seat's tribute cap (13: none).
        seats: As :func:`log_weights`.
        kinds: As :func:`log_weights`.
        context: As :func:`log_weights`.
        moves: As :func:`log_weights`.
        later: As :func:`log_weights`.
        template: As :func:`log_weights`.
        fl: As :func:`log_weights`.
        w: As :func:`log_weights`.
        rule: As :func:`log_weights`.
        eps: As :func:`log_weights`.
        belief: Exponent of the likelihood.
        steps: Proposals per deal.
        seed: Random stream.
    """
    np.random.seed(seed)
    count, n = deals.shape
    size = pool.shape[0]
    out = deals.copy()
    owner = np.zeros(size, dtype=np.int64)
    hands = np.zeros(n, dtype=np.uint64)
    rest = np.zeros(n, dtype=np.uint64)
    ll = np.zeros(n)
    acted = _acted(seats, n)
    st = template.copy()
    buf = np.zeros(S.MAXMOVES, dtype=np.uint64)
    probs = np.zeros(S.MAXMOVES + 1)
    feats = np.zeros(NF)
    tiny = math.log(_TINY)
    if size < 2:
        return out
    for g in range(count):
        for x in range(n):
            hands[x] = np.uint64(out[g, x])
            rest[x] = S._remove(hands[x], np.uint64(fixed[x]))
        # which seat holds each pool card in this deal (-1: none, in a view the model lacks)
        for i in range(size):
            c = pool[i]
            bit = _card_bits(c)
            owner[i] = -1
            for x in range(n):
                has = S._jokers(rest[x]) > 0 if c == 52 else (rest[x] & bit) != _ZERO
                if has:
                    owner[i] = x
                    rest[x] = S._remove(rest[x], bit)
                    break
        for x in range(n):
            ll[x] = 0.0
            if acted[x]:
                ll[x] = belief * seat_log_likelihood(
                    hands[x], x, seats, kinds, context, moves, later, st, fl, w[x], rule[x], eps,
                    buf, probs, feats,
                )  # fmt: skip
        for _ in range(steps):
            i = np.random.randint(size)
            j = np.random.randint(size)
            a = owner[i]
            b = owner[j]
            if a < 0 or b < 0 or a == b or pool[i] == pool[j]:
                continue
            ci = _card_bits(pool[i])
            cj = _card_bits(pool[j])
            ha = S._add_cards(S._remove(hands[a], ci), cj)
            hb = S._add_cards(S._remove(hands[b], cj), ci)
            la = 0.0
            lb = 0.0
            if acted[a]:
                la = belief * seat_log_likelihood(
                    ha, a, seats, kinds, context, moves, later, st, fl, w[a], rule[a], eps,
                    buf, probs, feats,
                )  # fmt: skip
            if acted[b]:
                lb = belief * seat_log_likelihood(
                    hb, b, seats, kinds, context, moves, later, st, fl, w[b], rule[b], eps,
                    buf, probs, feats,
                )  # fmt: skip
            caps = (
                _over_cap(pool[i], cap[b]) + _over_cap(pool[j], cap[a])
                - _over_cap(pool[i], cap[a]) - _over_cap(pool[j], cap[b])
            )  # fmt: skip
            change = la + lb - ll[a] - ll[b] + caps * tiny
            if change >= 0 or np.random.random() < math.exp(change):
                hands[a] = ha
                hands[b] = hb
                ll[a] = la
                ll[b] = lb
                owner[i] = b
                owner[j] = a
        for x in range(n):
            out[g, x] = np.int64(hands[x])
    return out


# --- the two-player solver ---------------------------------------------------------------------
_M5 = 0x5555555555555
_M3 = 0x3333333333333


def _rank_counts(hand: int) -> int:
    """The cards of each rank (a nibble per rank) of a hand's naturals."""
    m = hand & C.NATURALS
    c = m - ((m >> 1) & _M5)
    return (c & _M3) + ((c >> 2) & _M3)


class TwoPlayerSolver:
    """Exact win/loss search of a game's end between two players, both hands known.

    Wins are what matters: the first of the two out takes the better title. Passing on an empty
    field (``lead_pass``) is left out (it only hands the lead over); a 千日手 is left out too.
    When suits play no part (no suit lock, no sequences) hands and plays are compared by rank
    counts, plus the 3 of spades (it answers a joker).

    Args:
        fl: Rule flags.
        me: The seat whose win is asked.
        other: The other seat still holding cards.
        budget: Positions to visit at most (:meth:`solve` gives up past it).
    """

    def __init__(self, fl: np.ndarray, me: int, other: int, budget: int) -> None:
        self.fl = fl.copy()
        self.fl[S.F_STALE] = 0
        self.me = me
        self.other = other
        self.budget = budget
        self.nodes = 0
        self.memo: dict[tuple[int, ...], bool] = {}
        self.buf = np.zeros(S.MAXMOVES, dtype=np.uint64)
        self.by_rank = not (self.fl[S.F_LOCK] or self.fl[S.F_SEQS])

    def _key(self, st: np.ndarray) -> tuple[int, ...]:
        n = int(st[S.N])
        hands = st[S.HEAD + 3 * n : S.HEAD + 4 * n]
        key = [int(st[i]) for i in (S.TURN, S.LAST, S.PASSED, S.REVOLUTION, S.BACK, S.LOCK)]
        key += [int(st[S.TOP]) & ((1 << 54) - 1), int(st[S.TOP]) >> 58, int(st[S.RETURNED])]
        if self.by_rank and st[S.TOP]:
            key[6] = int(st[S.TLOW]) << 8 | int(st[S.TSIZE])
        for h in hands:
            h = int(h)
            key.append(_rank_counts(h) << 3 | (h & 1) << 2 | h >> 52 if self.by_rank else h)
        return tuple(key)

    def moves(self, st: np.ndarray) -> list[int]:
        """The moves searched at ``st`` (plays, then a pass where allowed), best guesses first."""
        n = int(st[S.N])
        hand = int(st[S.HEAD + 3 * n + int(st[S.TURN])])
        k = S.gen_moves(np.uint64(hand), st, self.fl, self.buf)
        plays = [int(m) for m in self.buf[:k]]
        if self.by_rank:
            seen: set[tuple[int, int, int]] = set()
            kept = []
            for m in plays:
                sig = (_rank_counts(m), m >> 52 & 3, m & 1)
                if sig not in seen:
                    seen.add(sig)
                    kept.append(m)
            plays = kept
        cards = (1 << 54) - 1
        plays.sort(key=lambda m: (-((m & cards) == hand), -(m & cards).bit_count()))
        if st[S.TOP] != 0:
            plays.append(0)
        return plays

    def wins(self, st: np.ndarray) -> bool:
        """Whether :attr:`me` wins from ``st`` with best play on both sides.

        Raises:
            TimeoutError: The budget of positions ran out.
        """
        if st[S.OVER]:
            n = int(st[S.N])
            order = [int(x) for x in st[S.HEAD + 2 * n : S.HEAD + 2 * n + st[S.NFIN]]]
            return order.index(self.me) < order.index(self.other)
        key = self._key(st)
        got = self.memo.get(key)
        if got is not None:
            return got
        self.nodes += 1
        if self.nodes > self.budget:
            raise TimeoutError
        mine = int(st[S.TURN]) == self.me
        result = not mine
        for m in self.moves(st):
            child = st.copy()
            S.step(child, np.uint64(m), self.fl, self.buf)
            if self.wins(child) == mine:
                result = mine
                break
        self.memo[key] = result
        return result

    def solve(self, st: np.ndarray, moves: Sequence[int]) -> tuple[bool, int] | None:
        """Search the root: the first winning move among ``moves`` at ``st``.

        Returns ``(True, move)``, ``(False, moves[0])`` if none wins, or ``None`` when the budget
        runs out.
        """
        try:
            for m in moves:
                child = st.copy()
                S.step(child, np.uint64(m), self.fl, self.buf)
                if self.wins(child):
                    return True, m
        except (TimeoutError, RecursionError):
            return None
        return False, moves[0]


# --- what the seat saw this game ----------------------------------------------------------------
class Tracker:
    """The public course of the current game, from the events the seat observes.

    Each opponent decision is kept with the field it was made on; each seat's plays with their
    decision index (to rebuild the hand it held then).
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """A new game."""
        self.top = 0
        self.returned = 0
        self.revolution = 0
        self.back = 0
        self.lock = 0
        self.decisions: list[tuple[int, int, tuple[int, ...], int]] = []
        self.played: list[tuple[int, int, int]] = []  # (decision index, seat, cards)
        self.out: list[int] = []  # seats out, in order

    def _context(self) -> tuple[int, ...]:
        if not self.top:
            return (0, 0, 0, 0, 0, self.revolution, self.back, self.lock)
        kind, low, size, _ = S.move_info(np.uint64(self.top))
        return (
            self.top,
            self.returned,
            int(kind),
            int(low),
            int(size),
            self.revolution,
            self.back,
            self.lock,
        )

    def see(self, event: Event, rules: DaifugoRules) -> None:
        """Take one event into account."""
        kind = event.kind
        data = event.data
        if kind in ("deal", "game_end", "void"):
            self.reset()
        elif kind == "play":
            readings = C.combo_from(
                data["cards"], suit_jokers=rules.suit_lock, sequences=rules.sequences
            )
            want = C.SEQUENCE if data.get("kind") == "sequence" else C.GROUP
            combo = next((c for c in readings or () if c.kind == want), None)
            if combo is None:
                return
            move = S.move_of(combo)
            self.decisions.append((int(data["seat"]), PLAY, self._context(), move))
            self.played.append((len(self.decisions) - 1, int(data["seat"]), combo.cards))
            self.top = move
            self.returned = int(bool(data.get("returned")))
            self.revolution = int(bool(data.get("revolution")))
            self.back = int(bool(data.get("back", False)))
            self.lock = C.suit_set(data.get("lock", ""))
        elif kind == "pass":
            how = AUTO_PASS if data.get("auto") else PASS
            self.decisions.append((int(data["seat"]), how, self._context(), 0))
        elif kind == "flush":
            self.top = self.returned = self.back = self.lock = 0
        elif kind == "out":
            self.out.append(int(data["seat"]))
        elif kind == "discard10":
            cards = C.parse_cards(data["cards"]) or ()
            self.played.append((len(self.decisions), int(data["seat"]), C.card_set(cards)))


# --- the bot -------------------------------------------------------------------------------------
class IsmctsBot(Bot):
    """Belief-weighted determinized search: UCB1 at the root, policy playouts, exact endings.

    Args:
        playouts: Playouts per decision (used when ``ms`` is 0); the exchange search gets twice.
        ms: Time budget per decision in milliseconds, the drawing of the hands included (0:
            use ``playouts``; not reproducible).
        samples: Determinizations drawn per decision (the arms take them in turn).
        candidates: Candidate deals weighed per determinization (importance resampling).
        belief: Exponent of the likelihood weights of the deals (0: uniform sampling).
        explore: The UCB1 exploration constant (rewards are 0-1).
        solver_nodes: Positions the two-player solver may visit (0: no solver).
        exchange: Search the cards to give back as 大富豪 / 富豪 (else the weakest).
        seed: Mixed into the random stream (different bots with the same game seed).
        model_playouts: In the playouts, the opponents that :data:`OPPONENT_MODELS`' rule
            explains best play by that rule (with ``model_opponents``).
        mcmc: Metropolis swaps of two opponents' cards run on each drawn determinization,
            under the same likelihood (:func:`move_deals`; 0: none).
        model_opponents: Weigh each opponent's hidden hand by the model of
            :data:`OPPONENT_MODELS` that explains its decisions in the set's finished games best
            (else by the playout policy).
        blend: The value model's share of each playout's reward (:func:`position_value`;
            experimental).
        cutoff: Stop each playout after this many moves and let the value model judge
            (experimental; 0: play to the end).
    """

    name = "ismcts"

    def __init__(
        self,
        playouts: Annotated[int, Meta(ge=1, le=1_000_000)] = 3000,
        ms: Annotated[float, Meta(ge=0, le=60_000)] = 0.0,
        samples: Annotated[int, Meta(ge=1, le=4096)] = 48,
        candidates: Annotated[int, Meta(ge=1, le=64)] = 4,
        belief: Annotated[float, Meta(ge=0, le=8)] = 1.0,
        explore: Annotated[float, Meta(ge=0, le=10)] = 0.6,
        solver_nodes: Annotated[int, Meta(ge=0, le=10_000_000)] = 5_000,
        exchange: bool = True,
        seed: Annotated[int, Meta(ge=0, le=2**31 - 1)] = 0,
        model_opponents: bool = True,
        mcmc: Annotated[int, Meta(ge=0, le=100_000)] = 200,
        model_playouts: bool = True,
        blend: Annotated[float, Meta(ge=0, le=1)] = 0.0,
        cutoff: Annotated[int, Meta(ge=0, le=1000)] = 0,
    ) -> None:
        self.playouts = playouts
        self.ms = ms
        self.samples = samples
        self.candidates = candidates
        self.belief = belief
        self.explore = explore
        self.solver_nodes = solver_nodes
        self.exchange = exchange
        self.seed = seed
        self.model_opponents = model_opponents
        self.mcmc = mcmc
        self.model_playouts = model_playouts
        self.seat = -1
        self.evidence = np.zeros((0, len(OPPONENT_MODELS)))
        self.template: np.ndarray | None = None
        self.blend = blend
        self.cutoff = cutoff
        self.value_weights = VALUE
        self.weights = WEIGHTS
        self.tracker = Tracker()
        self.rules: DaifugoRules | None = None

    def reset(self, *, seat: Seat, rules: Any, players: Sequence[str]) -> None:
        """A new set: forget the last one."""
        self.tracker.reset()
        self.rules = rules if isinstance(rules, DaifugoRules) else None
        self.seat = seat
        self.evidence = np.zeros((len(players), len(OPPONENT_MODELS)))
        self.template = None

    def observe(self, events: Sequence[Event]) -> None:
        """Follow the game's public course (plays, passes, flushes)."""
        if self.rules is None:
            return
        for e in events:
            if e.kind == "game_end" and self.model_opponents:
                self._weigh_models()
            self.tracker.see(e, self.rules)

    def _weigh_models(self) -> None:
        """Add the game's evidence for each model of each opponent that went out.

        Once a seat is out, every card it held at each of its decisions is known: the cards it
        played then or later.
        """
        tr, rules, base = self.tracker, self.rules, self.template
        if rules is None or base is None:
            return
        fl = S.flags_of_rules(rules)
        n = len(self.evidence)
        for x in tr.out:
            if x == self.seat or x >= n:
                continue
            rows = _decision_rows(tr, (x,))[::-1]  # oldest first
            if not rows:
                continue
            args = (np.zeros((1, n), dtype=np.int64), *_as_arrays(rows), base, fl)
            for k, w in enumerate(OPPONENT_MODELS):
                rule = np.full(n, OPPONENT_RULES[k])
                self.evidence[x, k] += log_weights(*args, np.tile(w, (n, 1)), rule, _EPS)[0]

    def opponent_models(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The model each seat's hidden hand is weighed by (:data:`OPPONENT_MODELS`).

        Returns:
            ``[seat, feature]`` policy weights and ``[seat]`` whether it is the rule instead.
        """
        w = np.tile(self.weights, (n, 1))
        rule = np.zeros(n, dtype=np.bool_)
        if not self.model_opponents or len(self.evidence) != n:
            return w, rule
        for x in range(n):
            ev = self.evidence[x]
            if ev.any():
                k = int(np.argmax(ev))
                w[x], rule[x] = OPPONENT_MODELS[k], OPPONENT_RULES[k]
        return w, rule

    def playout_rules(self, n: int) -> np.ndarray:
        """``[seat]`` the seats that play by the rule in the playouts (``model_playouts``)."""
        if not self.model_playouts:
            return np.zeros(n, dtype=np.bool_)
        return self.opponent_models(n)[1]

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose: exchange and follow-ups by rule or search, plays by search or the solver."""
        started = time.perf_counter()  # ``ms`` counts the whole decision, the hands' too
        seed = rng.randrange(2**31) ^ self.seed
        if not SEARCH.ready():  # compiling on a fresh install (dennou.core.native): play on
            return greedy_choice(view, legal)
        if view["phase"] == "exchange":
            return self._exchange(view, legal, seed, started)
        if view["phase"] != "play":
            return legal[0]
        if view["follow_up"] is not None:
            return _follow_up_choice(view)
        candidates = candidate_moves(view, legal)
        if len(candidates) == 1:
            return candidates[0][1]
        ctx = Context(view, self.weights)
        self.template = ctx.base
        solved = self._solve(view, ctx, candidates)
        if solved is not None:
            return solved
        hands = self.beliefs(view, ctx, seed)
        moves = np.array([m for m, _ in candidates], dtype=np.uint64)
        visits, totals = self._search(ctx, ctx.base, hands[None], moves, True, False, seed, started)
        return candidates[_best(visits, totals)][1]

    # the parts
    def beliefs(self, view: JSON, ctx: Context, seed: int) -> np.ndarray:
        """``[samples, seats]`` hidden hands drawn by their likelihood (see the module)."""
        want = self.samples
        pool = ctx.deals(want * (self.candidates if self.belief > 0 else 1), seed)
        if self.belief <= 0 or (self.candidates <= 1 and not self.mcmc):
            return pool[:want]
        obs = self._observations(view, ctx)
        if obs is None:
            return pool[:want]
        w, rule = self.opponent_models(pool.shape[1])
        if self.candidates <= 1:
            return self._moved(ctx, pool, obs, w, rule, seed)
        logw = log_weights(pool, *obs, ctx.base, ctx.fl, w, rule, _EPS)
        logw *= self.belief
        p = np.exp(logw - logw.max())
        p /= p.sum()
        # systematic resampling: evenly spaced draws through the cumulative weights
        start = float(np.random.default_rng(seed).random()) / want
        points = start + np.arange(want) / want
        idx = np.searchsorted(np.cumsum(p), points, side="right")
        hands = pool[np.minimum(idx, len(pool) - 1)]
        return self._moved(ctx, hands, obs, w, rule, seed) if self.mcmc else hands

    def _moved(
        self,
        ctx: Context,
        hands: np.ndarray,
        obs: _Arrays,
        w: np.ndarray,
        rule: np.ndarray,
        seed: int,
    ) -> np.ndarray:
        """The determinizations after :attr:`mcmc` swaps each (:func:`move_deals`)."""
        cards, _, fixed, cap = ctx.shares
        args = (*obs, ctx.base, ctx.fl, w, rule, _EPS, self.belief, self.mcmc, seed)
        return move_deals(hands, cards, fixed, cap, *args)

    def _observations(self, view: JSON, ctx: Context) -> _Arrays | None:
        tr = self.tracker
        me = view["seat"]
        counts = view["counts"]
        rows = _decision_rows(tr, [x for x, count in enumerate(counts) if x != me and count])
        for x, mask in ctx.gifts.items():
            if counts[x]:
                everything = 0
                for _, y, cards in tr.played:
                    if y == x:
                        everything = C.add(everything, cards)
                rows.append((x, GIFT, (mask, 0, 0, 0, 0, 0, 0, 0), 0, everything))
        if not rows:
            return None
        return _as_arrays(rows)

    def _search(
        self,
        ctx: Context,
        base: np.ndarray,
        hands: np.ndarray,
        moves: np.ndarray,
        use_first: bool,
        diamond3: bool,
        seed: int,
        started: float,
        scale: int = 1,
    ) -> tuple[np.ndarray, np.ndarray]:
        """UCB1 over the arms.

        ``playouts`` of them, or as many as ``ms`` leaves after ``started`` (at least a round).
        """
        arms = len(moves)
        visits = np.zeros(arms, dtype=np.int64)
        totals = np.zeros(arms)
        args = (
            base, hands, moves, int(use_first), int(diamond3), ctx.fl, self.weights,
            self.playout_rules(len(ctx.view["players"])), self.value_weights,
            self.blend, self.cutoff,
        )  # fmt: skip
        if not self.ms:
            search(*args, ctx.value, ctx.seat, self.playouts * scale, self.explore, seed,
                   visits, totals)  # fmt: skip
            return visits, totals
        chunk = max(arms * 2, 64)
        i = 0
        while i == 0 or (time.perf_counter() - started) * 1000 < self.ms * 0.85 * scale:
            search(*args, ctx.value, ctx.seat, chunk, self.explore, seed + i, visits, totals)
            i += 1
        return visits, totals

    def _solve(
        self, view: JSON, ctx: Context, candidates: list[tuple[int, Action]]
    ) -> Action | None:
        if not self.solver_nodes or not ctx.two_left():
            return None
        rules = ctx.rules
        if rules.seven_pass or rules.ten_discard:
            return None
        st = ctx.known_position()
        if st is None:
            return None
        other = next(x for x, k in enumerate(view["counts"]) if k and x != ctx.seat)
        solver = TwoPlayerSolver(ctx.fl, ctx.seat, other, self.solver_nodes)
        plays = [m for m, _ in candidates if m != 0 or st[S.TOP] != 0]
        if not plays:
            return None
        got = solver.solve(st, plays)
        if got is None or not got[0]:
            return None
        return next(a for m, a in candidates if m == got[1])

    def _exchange(self, view: JSON, legal: Sequence[Action], seed: int, started: float) -> Action:
        step = next(st for st in view["exchange"] if not st["done"])
        hand = C.parse_cards(view["hand"]) or ()
        if step["kind"] == "tribute":
            return Give(tuple(C.cards_str(C.strongest(hand, step["count"]))))
        count = step["count"]
        weakest = C.weakest(hand, count)
        if not self.exchange or count == 0:
            return Give(tuple(C.cards_str(weakest)))
        options = gift_options(hand, count)
        if len(options) == 1:
            return Give(tuple(C.cards_str(options[0])))
        ctx = Context(view, self.weights)
        base, hands = exchange_arms(view, ctx, options, seed, self.samples)
        diamond3 = ctx.rules.first_lead == "diamond3"
        moves = np.zeros(len(options), dtype=np.uint64)
        visits, totals = self._search(ctx, base, hands, moves, False, diamond3, seed, started, 2)
        return Give(tuple(C.cards_str(options[_best(visits, totals)])))


_Row = tuple[int, int, tuple[int, ...], int, int]
"""An observed decision: seat, kind, field context, move, and the cards the seat played then or
later (its hand at the decision = its hand now + these)."""


def _decision_rows(tr: Tracker, seats: Collection[int]) -> list[_Row]:
    """The decisions of ``seats``, newest first (``_Row``)."""
    later_by_seat: dict[int, int] = {}
    rows: list[_Row] = []
    plays = sorted(tr.played, reverse=True)
    j = 0
    for d in range(len(tr.decisions) - 1, -1, -1):
        while j < len(plays) and plays[j][0] >= d:
            _, x, cards = plays[j]
            later_by_seat[x] = C.add(later_by_seat.get(x, 0), cards)
            j += 1
        x, kind, context, move = tr.decisions[d]
        if x in seats:
            rows.append((x, kind, context, move, later_by_seat.get(x, 0)))
    return rows


_Arrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _as_arrays(rows: Sequence[_Row]) -> _Arrays:
    """The rows as :func:`log_weights` takes them: seats, kinds, contexts, moves, later."""
    return (
        np.array([r[0] for r in rows], dtype=np.int64),
        np.array([r[1] for r in rows], dtype=np.int64),
        np.array([r[2] for r in rows], dtype=np.int64),
        np.array([r[3] for r in rows], dtype=np.uint64),
        np.array([r[4] for r in rows], dtype=np.int64),
    )


def _best(visits: np.ndarray, totals: np.ndarray) -> int:
    """The most visited arm (ties: the best mean)."""
    means = totals / np.maximum(visits, 1)
    return int(max(range(len(visits)), key=lambda k: (visits[k], means[k], -k)))


def _follow_up_choice(view: JSON) -> Action:
    """7 pass / 10 discard: the weakest cards in the current order, jokers last."""
    due = view["follow_up"]
    hand = C.parse_cards(view["hand"]) or ()
    rev = bool(view["reverse"])

    def key(c: int) -> tuple[int, int]:
        r = C.rank_of(c)
        return (c == C.JOKER, 12 - r if rev else r)

    cards = tuple(C.cards_str(sorted(hand, key=key)[: due["count"]]))
    return Give(cards) if due["kind"] == "give" else Discard(cards)


def candidate_moves(view: JSON, legal: Sequence[Action]) -> list[tuple[int, Action]]:
    """The legal plays as simulator moves, one per kind of play (and pass, as 0).

    Plays that differ only in suits are one candidate unless suits matter (the suit lock or
    sequences); a play with the 3 of spades is apart (it answers a joker).
    """
    rules = view["rules"]
    suits_matter = rules.get("suit_lock", False) or rules.get("sequences", False)
    out: list[tuple[int, Action]] = []
    seen: set[tuple[int, ...]] = set()
    for a in legal:
        if isinstance(a, Pass):
            out.append((0, a))
            continue
        assert isinstance(a, Play)
        got = F.readings(a.cards, rules["max_group"], rules["suit_lock"], rules["sequences"])
        assert got, a
        combo = got[0]
        key = (
            combo.kind,
            combo.rank,
            combo.size,
            C.jokers_in(combo.cards),
            combo.cards & 1,
            combo.cards if suits_matter else 0,
        )
        if key in seen:
            continue
        seen.add(key)
        out.append((S.move_of(combo), a))
    return out


def gift_options(hand: Sequence[int], count: int, pool: int = 7) -> list[tuple[int, ...]]:
    """Gifts searched: every ``count`` of the ``pool`` weakest cards (jokers never given)."""
    naturals = sorted(c for c in hand if c != C.JOKER)
    if len(naturals) < count:
        return [C.weakest(hand, count)]
    return sorted(set(combinations(naturals[: max(pool, count)], count)))


class Context:
    """What one decision needs from the view: the rules, flags, the base vector, the rewards."""

    def __init__(self, view: JSON, weights: np.ndarray) -> None:
        self.view = view
        self.seat: int = view["seat"]
        self.state = determinize(view, self.seat, random.Random(0))
        self.rules = self.state.rules
        self.fl = S.flags_of_rules(self.rules)
        n = len(view["players"])
        final = view["game_no"] == self.rules.games
        points = [self.rules.title_points(t, final=final) for t in titles_for(n)]
        lo, hi = min(points), max(points)
        self.value = np.array([(p - lo) / ((hi - lo) or 1) for p in points], dtype=np.float64)
        self.base = S.pack(self.state) if view["phase"] == "play" else np.zeros(0, np.int64)
        self.gifts = self._gifts()

    def _gifts(self) -> dict[int, int]:
        """Gifts the seat received: the giver's ranks below the gift's strongest card."""
        out: dict[int, int] = {}
        for st in self.view["exchange"]:
            if st["receiver"] != self.seat or st["kind"] != "gift" or not st["done"]:
                continue
            if st["cheated"] or not st["cards"]:
                continue
            given = C.parse_cards(st["cards"]) or ()
            top = max(C.rank_of(c) for c in given)
            below = sum(15 << (4 * r) for r in range(min(top, 13)))
            out[st["giver"]] = below & ~C.card_set(c for c in given if c != C.JOKER)
        return out

    def unseen(self) -> tuple[list[int], dict[int, list[int]], list[int], list[int]]:
        """The unseen cards (pool), known holdings, and each seat's cards to draw and cap."""
        view = self.view
        counts: list[int] = view["counts"]
        n = len(counts)
        pool = Counter(C.deck(self.rules.jokers))
        for c in C.parse_cards(view["discards"]) or ():
            pool[c] -= 1
        for p in view["field"]:
            for c in C.parse_cards(p["cards"]) or ():
                pool[c] -= 1
        for c in C.parse_cards(view["hand"]) or ():
            pool[c] -= 1
        known = known_holdings(view)
        for cs in known.values():
            for c in cs:
                pool[c] -= 1
        need = [0 if x == self.seat else counts[x] - len(known.get(x, ())) for x in range(n)]
        caps = tribute_caps(view)
        cap = [caps.get(x, 13) for x in range(n)]
        return [c for c, k in sorted(pool.items()) for _ in range(k)], known, need, cap

    @cached_property
    def shares(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The unseen card codes, each seat's count of them, known cards (sets) and cap."""
        pool, known, need, cap = self.unseen()
        n = len(need)
        fixed = [C.card_set(known.get(x, ())) for x in range(n)]
        fixed[self.seat] = C.card_set(C.parse_cards(self.view["hand"]) or ())
        if sum(need) != len(pool):  # a view this model does not cover: plain shares
            need = [max(0, k) for k in need]
            while sum(need) > len(pool):
                need[need.index(max(need))] -= 1
        return (
            np.array(pool, dtype=np.int64),
            np.array(need, dtype=np.int64),
            np.array(fixed, dtype=np.int64),
            np.array(cap, dtype=np.int64),
        )

    def deals(self, count: int, seed: int) -> np.ndarray:
        """``[count, seats]`` deals of the unseen cards consistent with the view."""
        return deal_samples(*self.shares, count, seed)

    def two_left(self) -> bool:
        """Whether the seat and exactly one other still hold cards."""
        counts = self.view["counts"]
        return counts[self.seat] > 0 and sum(1 for k in counts if k) == 2

    def known_position(self) -> np.ndarray | None:
        """The simulator vector with both remaining hands (the other one is every unseen card)."""
        pool, _, _, _ = self.unseen()
        counts = self.view["counts"]
        other = next(x for x, k in enumerate(counts) if k and x != self.seat)
        if len(pool) != counts[other]:
            return None
        st = self.base.copy()
        n = len(counts)
        st[S.HEAD + 3 * n + other] = C.card_set(pool)
        return st


def exchange_arms(
    view: JSON, ctx: Context, options: Sequence[tuple[int, ...]], seed: int, samples: int
) -> tuple[np.ndarray, np.ndarray]:
    """The start of play after each gift: ``(base vector, hands [gift, sample, seat])``.

    The steps after the seat's are made as the host would by default (the strongest cards for a
    tribute, the weakest for a gift).
    """
    me = ctx.seat
    steps = view["exchange"]
    mine = next(i for i, st in enumerate(steps) if not st["done"])
    receiver = steps[mine]["receiver"]
    deals = ctx.deals(samples, seed)
    n = deals.shape[1]
    out = np.zeros((len(options), len(deals), n), dtype=np.int64)
    for d, row in enumerate(deals):
        held = [list(C.cards_in(int(h))) for h in row]
        for k, gift in enumerate(options):
            hands = [list(h) for h in held]
            for c in gift:
                hands[me].remove(c)
            hands[receiver].extend(gift)
            for st in steps[mine + 1 :]:
                g, r, cnt = st["giver"], st["receiver"], st["count"]
                if not hands[g]:
                    continue
                pick = C.strongest if st["kind"] == "tribute" else C.weakest
                moved = pick(hands[g], min(cnt, len(hands[g])))
                for c in moved:
                    hands[g].remove(c)
                hands[r].extend(moved)
            for x in range(n):
                out[k, d, x] = C.card_set(hands[x])
    state = ctx.state.copy()
    state.phase = "play"
    state.steps = ()
    state.turn = state.last = view["order"][0]
    base = S.pack(state)
    return base, out


def _build_search() -> None:
    """Run every search kernel once (:data:`SEARCH`'s build).

    A self-play game of small ``ismcts`` bots (search, sampling and the swaps of
    :func:`move_deals`, the two-player ending; the exchange searches with the same kernels)
    and a batch of ``montecarlo``'s playouts.
    """
    from dennou.games.daifugo.engine import DaifugoEngine
    from dennou.games.daifugo.views import DaifugoViews

    game = DaifugoEngine(views=DaifugoViews, bots={})
    rules = game.make_rules({"games": 1})
    players = [f"p{i}" for i in range(5)]
    bots = [IsmctsBot(playouts=10, samples=4, mcmc=2) for _ in players]
    for seat, bot in enumerate(bots):
        bot.reset(seat=seat, rules=rules, players=players)
    rng = random.Random(0)
    state = game.new(rules, players)
    playouts_left = True
    for _ in range(5_000):  # a game takes a few hundred steps
        acting = game.to_act(state)
        if not acting:
            break
        seat = min(acting)
        if seat < 0:
            state, events = game.apply(state, seat, game.sample_chance(state, rng))
        else:
            view = game.view(state, seat)
            action = bots[seat].act(view, game.legal_actions(state, seat), rng)
            state, events = game.apply(state, seat, action)
        for x, bot in enumerate(bots):
            bot.observe([e for e in events if e.visible_to(x)])
        if playouts_left and state.phase == "play" and state.follow_up is None:
            playouts_left = False
            sim = S.Sim(state)
            hands = np.array([list(state.hands)] * 2, dtype=np.int64)
            S.playouts(sim, hands, sim.legal_moves()[:2], seed=1)


SEARCH = Native("daifugo search", _build_search)
"""The compiled code of the ``montecarlo`` and ``ismcts`` bots (:mod:`dennou.core.native`)."""


__all__ = [
    "FEATURES",
    "SEARCH",
    "VALUE_FEATURES",
    "IsmctsBot",
    "TwoPlayerSolver",
    "candidate_moves",
    "deal_samples",
    "load_value",
    "log_weights",
    "move_features",
    "policy",
    "position_value",
    "search",
    "value_features",
]
