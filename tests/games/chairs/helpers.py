"""Helpers for the Musical Chairs tests: drive a small game step by step."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dennou.core.actions import Action
from dennou.core.game import CHANCE
from dennou.games.chairs import GAME, ChairsRules
from dennou.games.chairs.actions import Jitter, Map, NoBlock, Order, Ready, Vote
from dennou.games.chairs.state import ChairsState

# Chair 1 is 100 m east of the totem, chair 2 200 m north, chair 3 300 m west, chair 4 400 m
# south: at 5 m/s they are 20, 40, 60 and 80 seconds away.
SPOTS = ((100, 0), (0, 200), (-300, 0), (0, -400))


def rules(**options: object) -> ChairsRules:
    """Small-table rules: 2 players of 4 people, 4 chairs, no jitter unless asked."""
    base: dict[str, object] = {"starting_players": 2, "chairs": 4, "medals": 3, "jitter": 30}
    base.update(options)
    return GAME.make_rules(base)


def start(
    people: int = 4, spots: Sequence[tuple[int, int]] = SPOTS, **options: object
) -> ChairsState:
    """A game past its map draw, in period 1's free phase."""
    r = rules(chairs=len(spots), **options)
    state = GAME.new(r, [f"p{i}" for i in range(people)])
    state, _ = GAME.apply(state, CHANCE, Map(tuple(v for p in spots for v in p)))
    return state


def act(state: ChairsState, seat: int, action: Action) -> ChairsState:
    """Apply one action."""
    new, _ = GAME.apply(state, seat, action)
    return new


def all_ready(state: ChairsState) -> ChairsState:
    """Everyone ends the free phase."""
    for seat in sorted(GAME.to_act(state)):
        state = act(state, seat, Ready())
    assert state.phase == "go"
    return state


def go(
    state: ChairsState,
    orders: Mapping[int, Sequence[int]],
    blocks: Mapping[int, Action] | None = None,
) -> ChairsState:
    """Seal every order (players not named: empty) and block (not named: none)."""
    blocks = blocks or {}
    for seat in range(state.n):
        if state.blocks[seat] is None:
            state = act(state, seat, blocks.get(seat, NoBlock()))
        if state.playing[seat] and state.orders[seat] is None:
            state = act(state, seat, Order(tuple(orders.get(seat, ()))))
    assert state.phase == "race"
    return state


def race(state: ChairsState, tenths: Sequence[int] | None = None) -> ChairsState:
    """Draw the jitter (default: none for anyone)."""
    runners = len(state.remaining())
    state, _ = GAME.apply(state, CHANCE, Jitter(tuple(tenths or (0,) * runners)))
    return state


def period(
    state: ChairsState,
    orders: Mapping[int, Sequence[int]],
    blocks: Mapping[int, Action] | None = None,
    tenths: Sequence[int] | None = None,
) -> ChairsState:
    """Free phase, go and race."""
    return race(go(all_ready(state), orders, blocks), tenths)


def vote(state: ChairsState, ballots: Mapping[int, int]) -> ChairsState:
    """Everyone votes as given (others abstain)."""
    from dennou.games.chairs.actions import Abstain

    for seat in range(state.n):
        choice = ballots.get(seat)
        state = act(state, seat, Abstain() if choice is None else Vote(choice))
    return state
