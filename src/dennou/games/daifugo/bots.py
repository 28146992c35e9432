"""Daifugo bots: ``random``, ``greedy`` and ``montecarlo`` (determinized, Numba playouts).

Bots see only views (what a remote client sees). ``greedy`` plays its weakest group and keeps its
jokers, strongest rank and 8s for when they take the field; ``montecarlo`` samples hidden hands
consistent with its view and scores each candidate play by playouts of the fast simulator.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from dennou.core.actions import Action
from dennou.core.bot import Bot, RandomBot
from dennou.core.game import JSON
from dennou.games.daifugo import cards as C
from dennou.games.daifugo.actions import Give, Pass, Play
from dennou.games.daifugo.rules import TITLES, titles_for


def _strength(rank: int, revolution: bool) -> int:
    if rank == C.JOKER_RANK:
        return 100
    return 12 - rank if revolution else rank


def _exchange_choice(view: JSON) -> Action:
    step = next(st for st in view["exchange"] if not st["done"])
    hand = C.parse_cards(view["hand"]) or ()
    pick = C.strongest if step["kind"] == "tribute" else C.weakest
    return Give(tuple(C.cards_str(pick(hand, step["count"]))))


def greedy_choice(view: JSON, legal: Sequence[Action]) -> Action:
    """The greedy policy on a view (exchange: strongest tribute, weakest gift)."""
    if view["phase"] == "exchange":
        return _exchange_choice(view)
    rev = bool(view["revolution"])
    hand = C.parse_cards(view["hand"]) or ()
    lead = view["layout"] is None
    plays = [a for a in legal if isinstance(a, Play)]
    can_pass = any(isinstance(a, Pass) for a in legal)
    seen = set(C.parse_cards(view["discards"]) or ())
    top_rank = 12 if not rev else 0

    def key(a: Play) -> tuple[int, int, int, int]:
        cards = C.parse_cards(a.cards) or ()
        rank = _rank(a)
        jokers = sum(1 for c in cards if c == C.JOKER)
        precious = rank in (C.JOKER_RANK, top_rank) or (rank == C.EIGHT) or jokers > 0
        natural_left = sum(1 for c in hand if c != C.JOKER and c >> 2 == rank) - (
            len(cards) - jokers
        )
        # Weakest first; on a lead, the biggest group of the rank; avoid splitting a rank.
        return (int(precious), _strength(rank, rev), natural_left, -len(cards) if lead else 0)

    plays.sort(key=key)
    if not plays:
        return Pass()
    best = plays[0]
    cards = C.parse_cards(best.cards) or ()
    rank = _rank(best)
    precious = key(best)[0]
    if not precious or lead or not can_pass:
        return best
    # Only precious plays remain: an 8 cuts (takes the field); a joker-only play or the top rank
    # wins the field when nothing can beat it; otherwise keep them unless the hand is short.
    if rank == C.EIGHT:
        return best
    if rank == C.JOKER_RANK and (len(cards) > 1 or C.SPADE3 in seen or C.SPADE3 in hand):
        return best
    if len(hand) <= len(cards) + 2:
        return best
    if rank == top_rank and sum(1 for c in cards if c == C.JOKER) == 0:
        return best
    return Pass()


class GreedyBot(Bot):
    """Plays its weakest legal group; keeps jokers, its strongest rank and 8s for later.

    They are played when they take the field (an 8 cuts; a joker pair or a joker with the 3 of
    spades gone cannot be beaten) or when the hand is nearly out. In the exchange it gives the
    strongest cards it must and its weakest otherwise.
    """

    name = "greedy"

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose by the greedy rule."""
        return greedy_choice(view, legal)


class MonteCarloBot(Bot):
    """Determinized Monte Carlo: sample hidden hands, score each candidate by playouts.

    Args:
        playouts: Playouts per decision (used when ``ms`` is 0).
        ms: Time budget per decision in milliseconds (0: use ``playouts``).
        samples: Hidden-hand samples per batch (each is played out once per candidate).
        eps: Random-move rate of the greedy default policy in playouts.
    """

    name = "montecarlo"

    def __init__(
        self, playouts: int = 2000, ms: float = 0.0, samples: int = 32, eps: float = 0.1
    ) -> None:
        self.playouts = playouts
        self.ms = ms
        self.samples = samples
        self.eps = eps

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Pick the candidate with the best mean title points over the playouts."""
        if view["phase"] != "play":
            return _exchange_choice(view) if view["phase"] == "exchange" else legal[0]
        candidates = _candidates(legal)
        if len(candidates) == 1:
            return candidates[0][1]
        from dennou.games.daifugo import sim as S
        from dennou.games.daifugo.views import determinize, sample_hands

        seat: int = view["seat"]
        n = len(view["players"])
        rules = view["rules"]
        titles = titles_for(n)
        value = np.array([rules["points"][TITLES.index(t)] for t in titles], dtype=np.float64)
        base = S.Sim(determinize(view, seat, rng))
        masks = [m for m, _ in candidates]
        totals = np.zeros(len(masks))
        count = 0
        started = time.perf_counter()
        budget = self.playouts
        while True:
            rows = max(
                1, min(self.samples, -(-budget // len(masks)) if not self.ms else self.samples)
            )
            hands = np.array(
                [[C.card_set(h) for h in sample_hands(view, rng)] for _ in range(rows)],
                dtype=np.int64,
            )
            pos = S.playouts(base, hands, masks, eps=self.eps, seed=rng.randrange(2**31))
            totals += value[pos[:, :, seat]].sum(axis=0)
            count += rows
            if self.ms:
                if (time.perf_counter() - started) * 1000 >= self.ms * 0.8:
                    break
            elif count * len(masks) >= budget:
                break
        return candidates[int(np.argmax(totals))][1]


def _rank(play: Play) -> int:
    """The rank of a listed play (its first reading)."""
    readings = C.combo_from(play.cards)
    assert readings, play
    return readings[0].rank


def _candidates(legal: Sequence[Action]) -> list[tuple[int, Action]]:
    """Candidate moves as simulator masks, one per (rank, size, jokers, 3 of spades) choice."""
    out: list[tuple[int, Action]] = []
    seen: set[tuple[int, int, int, bool]] = set()
    for a in legal:
        if isinstance(a, Pass):
            out.append((0, a))
            continue
        assert isinstance(a, Play)
        cards = C.parse_cards(a.cards) or ()
        k = (_rank(a), len(cards), sum(1 for c in cards if c == C.JOKER), C.SPADE3 in cards)
        if k in seen:
            continue
        seen.add(k)
        out.append((C.card_set(cards), a))
    return out


BOTS: dict[str, Callable[..., Any]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "montecarlo": MonteCarloBot,
}
"""The bots of this game by name."""
