"""Daifugo bots: ``random``, ``greedy``, ``montecarlo`` and ``ismcts`` (``ismcts.py``).

Bots see only views (what a remote client sees) and play under every rules option. ``greedy``
plays its weakest group or sequence and keeps its jokers, strongest rank and 8s for when they
take the field; ``montecarlo`` samples hidden hands consistent with its view and scores each
candidate play by playouts of the fast simulator (:mod:`.sim`, which plays every option too);
``ismcts`` weighs its samples by what the opponents did, searches with UCB1 and a learned
playout policy, and solves the last two players' ending exactly.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import numpy as np
from msgspec import Meta

from dennou.core.actions import Action
from dennou.core.bot import Bot, RandomBot
from dennou.core.game import JSON
from dennou.games.daifugo import cards as C
from dennou.games.daifugo.actions import Pass, Play
from dennou.games.daifugo.greedy import (
    exchange_choice,
    follow_up_choice,
    greedy_choice,
    reading,
)
from dennou.games.daifugo.ismcts import SEARCH, IsmctsBot
from dennou.games.daifugo.rules import TITLES, titles_for


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
        self,
        playouts: Annotated[int, Meta(ge=1, le=1_000_000)] = 2000,
        ms: Annotated[float, Meta(ge=0, le=60_000)] = 0.0,
        samples: Annotated[int, Meta(ge=1, le=4096)] = 32,
        eps: Annotated[float, Meta(ge=0, le=1)] = 0.1,
    ) -> None:
        self.playouts = playouts
        self.ms = ms
        self.samples = samples
        self.eps = eps

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Pick the candidate with the best mean title points over the playouts."""
        if view["phase"] != "play":
            return exchange_choice(view) if view["phase"] == "exchange" else legal[0]
        if view["follow_up"] is not None:
            return follow_up_choice(view)
        candidates = _candidates(view, legal)
        if len(candidates) == 1:
            return candidates[0][1]
        if not SEARCH.ready():  # compiling on a fresh install (dennou.core.native): play on
            return greedy_choice(view, legal)
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


def _candidates(view: JSON, legal: Sequence[Action]) -> list[tuple[int, Action]]:
    """Candidate moves as simulator moves, one per kind of play.

    Plays that differ only in which suits they use are one candidate (the first listed), unless
    suits matter (the suit lock); a play with the 3 of spades is apart (it answers a joker).
    """
    from dennou.games.daifugo.sim import move_of

    suits_matter = view["rules"].get("suit_lock", False)
    out: list[tuple[int, Action]] = []
    seen: set[tuple[int, int, int, int, bool, int]] = set()
    for a in legal:
        if isinstance(a, Pass):
            out.append((0, a))
            continue
        assert isinstance(a, Play)
        combo = reading(view, a)
        spade3 = bool(combo.cards & 1 << C.SPADE3)
        k = (
            combo.kind,
            combo.rank,
            combo.size,
            C.jokers_in(combo.cards),
            spade3,
            combo.suits if suits_matter else 0,
        )
        if k in seen:
            continue
        seen.add(k)
        out.append((move_of(combo), a))
    return out


BOTS: dict[str, Callable[..., Any]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "montecarlo": MonteCarloBot,
    "ismcts": IsmctsBot,
}
"""The bots of this game by name."""
