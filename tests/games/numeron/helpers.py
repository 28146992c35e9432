"""Forced Numeron positions for rule tests."""

from __future__ import annotations

from typing import Any

from dennou.core.game import CHANCE, Event
from dennou.games.numeron import GAME, NumeronRules
from dennou.games.numeron.actions import Coin, SetNumber
from dennou.games.numeron.state import NumeronState
from tests.conftest import apply_all, of_kind

G = GAME


def start(a: str, b: str, *, coin: int = 0, **rules: Any) -> NumeronState:
    """Both numbers set and the coin flipped for ``coin`` (the first caller)."""
    state = G.new(NumeronRules(**rules), ["alice", "bob"])
    state, _ = G.apply(state, 0, SetNumber(a))
    state, _ = G.apply(state, 1, SetNumber(b))
    if state.phase == "coin":
        state, _ = G.apply(state, CHANCE, Coin(coin))
    return state


def run(state: NumeronState, *moves: tuple[int, Any]) -> tuple[NumeronState, list[Event]]:
    """Apply moves in order; return the final state and every event."""
    new, events = apply_all(G, state, moves)
    assert isinstance(new, NumeronState)
    return new, events


kinds = of_kind
