"""Helpers for the Pandemic tests: start a game with chosen infected, play ticks by dict."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from dennou.core.actions import Action
from dennou.core.game import CHANCE, Event
from dennou.games.pandemic import GAME, PandemicRules
from dennou.games.pandemic.actions import Idle, Infect
from dennou.games.pandemic.state import PandemicState


def start(infected: tuple[int, ...] = (0, 1), n: int = 12, **options: Any) -> PandemicState:
    """A game of ``n`` players after the host's draw infected ``infected``."""
    rules = PandemicRules(**{"infected": len(infected), **options})
    state = GAME.new(rules, [f"p{i}" for i in range(n)])
    state, _ = GAME.apply(state, CHANCE, Infect(tuple(sorted(infected))))
    return state


def with_status(state: PandemicState, statuses: dict[int, tuple[bool, int]]) -> PandemicState:
    """The state with some players' (infected, vaccines) set directly (for table tests)."""
    infected, vaccines = list(state.infected), list(state.vaccines)
    for s, (i, v) in statuses.items():
        infected[s], vaccines[s] = i, v
    return replace(state, infected=tuple(infected), vaccines=tuple(vaccines))


def tick(state: PandemicState, orders: dict[int, Action]) -> tuple[PandemicState, list[Event]]:
    """Play one tick: ``orders`` by seat, everyone else idles; returns all events."""
    events: list[Event] = []
    for s in range(state.n):
        state, ev = GAME.apply(state, s, orders.get(s, Idle()))
        events.extend(ev)
    return state, events


def run_ticks(state: PandemicState, count: int) -> PandemicState:
    """Idle ``count`` ticks."""
    for _ in range(count):
        state, _ = tick(state, {})
    return state
