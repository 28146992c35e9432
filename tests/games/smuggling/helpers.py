"""Drive a Smuggling Game to the situations the rule tests need."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from dennou.games.smuggling import GAME
from dennou.games.smuggling.actions import Doubt, Nominate, Pass, Ready, Trunk
from dennou.games.smuggling.state import SmugglingState

M = 1_000_000
OKU = 100_000_000


def start(team_size: int = 1, **options: Any) -> SmugglingState:
    rules = GAME.make_rules({"team_size": team_size, **options})
    return GAME.new(rules, [f"p{i}" for i in range(2 * team_size)])


def nominate_first(state: SmugglingState) -> SmugglingState:
    """Every member nominates the first member of their team."""
    for seat in sorted(GAME.to_act(state)):
        first = state.members(state.team_of(seat))[0]
        state, _ = GAME.apply(state, seat, Nominate(first))
    return state


def play_small_game(state: SmugglingState, amount: int, doubt: int) -> SmugglingState:
    """Nominate (if needed), pack ``amount``, smuggler ready, verdict (0 = pass)."""
    if state.phase == "nominate":
        state = nominate_first(state)
    assert state.phase == "trunk"
    smuggler, inspector = state.smuggler, state.inspector
    assert smuggler is not None and inspector is not None
    state, _ = GAME.apply(state, smuggler, Trunk(amount))
    state, _ = GAME.apply(state, smuggler, Ready())
    verdict = Pass() if doubt == 0 else Doubt(doubt)
    state, _ = GAME.apply(state, inspector, verdict)
    return state


def with_balances(
    state: SmugglingState,
    *,
    home: tuple[int, ...] | None = None,
    third: tuple[int, ...] | None = None,
) -> SmugglingState:
    return replace(state, home=home or state.home, third=third or state.third)
