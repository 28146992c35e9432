"""Daifugo ``ismcts``'s root search: the arms of a decision and UCB1 over them.

:class:`Context` is what one decision needs from the view (rules, flags, the position, the
rewards, the unseen cards); the arms are the candidate plays (:func:`candidate_moves`, one per
kind of play) or, as 大富豪 / 富豪, the cards to give back (:func:`gift_options`,
:func:`exchange_arms`). :func:`search` runs UCB1 over the arms: each playout takes the arm's
next determinization and plays to the end of the game in the simulator with the policy
(:mod:`.policy`); the reward is the title's points.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from functools import cached_property
from itertools import combinations

import numpy as np
from numba import njit

from dennou.core.actions import Action
from dennou.core.game import JSON
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import fast as F
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.actions import Pass, Play
from dennou.games.daifugo.beliefs import deal_samples
from dennou.games.daifugo.net import SCRATCH
from dennou.games.daifugo.policy import NF, NV, playout, playout_cut, position_value
from dennou.games.daifugo.rules import titles_for
from dennou.games.daifugo.views import determinize, known_holdings, tribute_caps


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
        rule: ``[seats]`` the seats that play by
            :func:`~dennou.games.daifugo.policy.weakest_first` instead.
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
    feats = np.zeros(NF + SCRATCH)  # a policy network's scratch space after the features
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
            and playout_cut(st, fl, w, rule, seat, cutoff, buf, probs, feats)
        ):
            visits[pick] += 1
            totals[pick] += position_value(st, fl, seat, vw, vfeats)
            done += 1
            continue
        if not over:
            playout(st, fl, w, rule, buf, probs, feats)
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


def best_arm(visits: np.ndarray, totals: np.ndarray) -> int:
    """The most visited arm (ties: the best mean)."""
    means = totals / np.maximum(visits, 1)
    return int(max(range(len(visits)), key=lambda k: (visits[k], means[k], -k)))


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
