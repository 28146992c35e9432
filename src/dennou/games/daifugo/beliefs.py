"""Daifugo ``ismcts``'s beliefs: the hidden hands, drawn and weighed by likelihood.

Candidate deals of the unseen cards are drawn consistently with the view (card counts, every
card seen, the cards the seat gave, a tribute's rank cap: :func:`deal_samples`), then weighted
by how likely each opponent's plays and passes this game were under a model of its play
(:func:`log_weights`; the hand a seat held at each decision is its sampled hand plus what it
played since). Under ``auto_pass`` a pass says exactly whether the seat could play (the host
passes for a seat that cannot); a gift received in the exchange says the giver holds few weaker
cards. :func:`move_deals` walks a deal by Metropolis swaps of two cards between opponents under
the same likelihood. :class:`Tracker` keeps the decisions the seat observed this game.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

import numpy as np
from numba import njit

from dennou.core.game import Event
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.policy import MOVE_CARDS, MOVE_SEQ, NF, policy, weakest_first
from dennou.games.daifugo.rules import DaifugoRules

_ZERO = np.uint64(0)
TINY = 1e-4
"""The likelihood of an observation the model says is impossible (robust to local rules)."""
EPS = 0.05
"""The weight of a uniform choice mixed into a policy model's likelihood (robustness)."""
RULE_EPS = 0.01
"""The same for the rule (:func:`weakest_first`), which explains the bots that follow it all but
exactly."""


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
            e = RULE_EPS
        else:
            k, can_pass = policy(st, fl, hand, w, buf, probs, feats)
        options = k + (1 if can_pass else 0)
        p = TINY
        if kinds[d] == AUTO_PASS:
            p = 1.0 if k == 0 else TINY
        elif kinds[d] == PASS and k == 0:
            p = TINY if auto else 1.0
        elif kinds[d] == PASS:
            p = (1.0 - e) * probs[k] + e / options
        else:
            want = np.uint64(moves[d])
            q = 0.0
            found = False
            for i in range(k):
                mv = buf[i]
                if (mv & MOVE_CARDS) == (want & MOVE_CARDS) and (mv & MOVE_SEQ) == (
                    want & MOVE_SEQ
                ):
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
            :data:`RULE_EPS`).
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
    :data:`TINY` per card that breaks a tribute cap, so the chains stay on deals the opponents'
    play makes likely but keep moving among them: importance resampling alone leaves a handful
    of distinct deals once a game has run a while. A swap of two cards between seats ``a`` and
    ``b`` is a symmetric proposal and only those two seats' likelihoods change.

    Args:
        deals: ``[M, seats]`` starting deals (card sets) of
            :meth:`~dennou.games.daifugo.search.Context.deals`.
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
    tiny = math.log(TINY)
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


Row = tuple[int, int, tuple[int, ...], int, int]
"""An observed decision: seat, kind, field context, move, and the cards the seat played then or
later (its hand at the decision = its hand now + these)."""


def decision_rows(tr: Tracker, seats: Collection[int]) -> list[Row]:
    """The decisions of ``seats``, newest first (``Row``)."""
    later_by_seat: dict[int, int] = {}
    rows: list[Row] = []
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


Arrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def as_arrays(rows: Sequence[Row]) -> Arrays:
    """The rows as :func:`log_weights` takes them: seats, kinds, contexts, moves, later."""
    return (
        np.array([r[0] for r in rows], dtype=np.int64),
        np.array([r[1] for r in rows], dtype=np.int64),
        np.array([r[2] for r in rows], dtype=np.int64),
        np.array([r[3] for r in rows], dtype=np.uint64),
        np.array([r[4] for r in rows], dtype=np.int64),
    )
