"""Helpers for the Star Hi-Lo tests: states built to order."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from dennou.core.actions import Action
from dennou.core.errors import DennouError
from dennou.core.game import CHANCE, Event
from dennou.games.hilo import GAME, HiloRules
from dennou.games.hilo.actions import Target
from dennou.games.hilo.state import HiloState
from tests.conftest import kinds, refused

PLAYERS = ("ann", "bob", "cid")


def start(
    n: int = 2, *, target: int = 1_000, points: tuple[int, ...] | None = None, **options: Any
) -> HiloState:
    """A series with ``n`` players whose first target is drawn; optionally set the points.

    Setting the points here bypasses the first turn's fee (it was paid on the old points).
    """
    rules = HiloRules(**options)
    state = GAME.new(rules, [*PLAYERS, "dee", "eve", "fay", "gus", "hal"][:n])
    state, _ = GAME.apply(state, CHANCE, Target(target))
    if points is not None:
        state = replace(state, points=points)
    return state


def act(
    state: HiloState, action: Action | str, seat: int | None = None
) -> tuple[HiloState, list[Event]]:
    """Apply ``action`` (or its text form) for ``seat`` (default: whoever is to act)."""
    if isinstance(action, str):
        action = GAME.parse_action(action)
    if seat is None:
        (seat,) = GAME.to_act(state)
    return GAME.apply(state, seat, action)


def rejected(
    state: HiloState, action: Action | str, error: type[DennouError], seat: int | None = None
) -> str:
    """Assert ``action`` raises ``error`` and leaves ``state`` as it was; return the message."""
    if seat is None:
        (seat,) = GAME.to_act(state)
    return refused(GAME, state, seat, action, error)


__all__ = ["act", "kinds", "rejected", "start"]
