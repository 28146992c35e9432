"""Shared helpers of the Daifugo tests: forced deals and short moves."""

from __future__ import annotations

from typing import Any

from dennou.core.game import CHANCE
from dennou.games.daifugo import GAME, DaifugoRules
from dennou.games.daifugo import cards as C
from dennou.games.daifugo.actions import Pass, Play
from dennou.games.daifugo.engine import forced_deal
from dennou.games.daifugo.state import DaifugoState


def new(n: int = 4, **opts: Any) -> DaifugoState:
    """A new set of ``n`` players ``p0``.. with these rules options."""
    return GAME.new(DaifugoRules(**opts), [f"p{i}" for i in range(n)])


def dealt(hands: dict[int, str], n: int = 4, **opts: Any) -> DaifugoState:
    """A forced deal, then each listed seat keeps exactly its listed cards (play phase).

    Seats not listed hold nothing; every other card goes to the discards, so every card stays
    accounted for.
    """
    state = new(n, **opts)
    spec = {s: h.split() for s, h in hands.items()}
    state, _ = GAME.apply(state, CHANCE, forced_deal(state, spec))
    s = state.copy()
    keep = {seat: C.card_set(C.parse_cards(h.split()) or ()) for seat, h in hands.items()}
    rest = 0
    for seat in range(n):
        rest = C.add(rest, C.remove(s.hands[seat], keep.get(seat, 0)))
    s.hands = tuple(keep.get(seat, 0) for seat in range(n))
    s.discards = C.add(s.discards, rest)
    return s


def play(state: DaifugoState, seat: int, cards: str) -> DaifugoState:
    """``seat`` plays ``cards`` (space-separated wire forms)."""
    new_state, _ = GAME.apply(state, seat, Play(tuple(cards.split())))
    return new_state


def pass_(state: DaifugoState, seat: int) -> DaifugoState:
    """``seat`` passes."""
    new_state, _ = GAME.apply(state, seat, Pass())
    return new_state


def top(state: DaifugoState) -> list[str]:
    """The top play's cards in wire form."""
    assert state.top is not None
    return list(state.top.combo.strs())


def hand(state: DaifugoState, seat: int) -> list[str]:
    """A seat's hand in wire form."""
    return C.cards_str(state.hand(seat))
