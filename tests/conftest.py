"""Helpers every game's tests share (import them: ``from tests.conftest import refused``).

Each game's own forced positions are in ``tests/games/<game>/helpers.py``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from hypothesis import settings

from dennou.core.actions import Action
from dennou.core.errors import DennouError, IllegalActionError
from dennou.core.game import Event, Game, Seat

# No test asserts a speed: hypothesis's per-example deadline would fail a correct test on a
# loaded machine (the first example also pays for compiling native code).
settings.register_profile("dennou", deadline=None)
settings.load_profile("dennou")


def apply_all(
    game: Game[Any, Any], state: Any, moves: Iterable[tuple[Seat, Action | str]]
) -> tuple[Any, list[Event]]:
    """Apply ``(seat, action or its text form)`` moves in order: the final state, every event."""
    events: list[Event] = []
    for seat, action in moves:
        state, step = game.apply(state, seat, game.parse_action(action))
        events += step
    return state, events


def kinds(events: Sequence[Event]) -> list[str]:
    """The kinds of ``events``, in order."""
    return [e.kind for e in events]


def of_kind(events: Sequence[Event], kind: str) -> list[Event]:
    """The events of one kind, in order."""
    return [e for e in events if e.kind == kind]


def refused(
    game: Game[Any, Any],
    state: Any,
    seat: Seat,
    action: Action | str,
    error: type[DennouError] = IllegalActionError,
    match: str | None = None,
) -> str:
    """Assert the action is refused with ``error`` and nothing changes; return the message.

    Text that is no action of the game is refused by ``parse_action`` (``InvalidActionError``).

    A refused action of the right kind is never among the legal actions either (the harness's
    "legal exactly when accepted").
    """
    before = copy.deepcopy(state)
    parsed: Action | None = None
    with pytest.raises(error, match=match) as info:
        parsed = game.parse_action(action)
        game.apply(state, seat, parsed)
    assert state == before
    if parsed is not None and seat in game.to_act(state):
        assert parsed not in game.legal_actions(state, seat)
    return str(info.value)
