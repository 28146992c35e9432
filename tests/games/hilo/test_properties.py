"""Invariants of whole series under random play and random rules (hypothesis)."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dennou.core.game import CHANCE
from dennou.games.hilo import GAME, HiloRules
from dennou.games.hilo.knowledge import belief_of

rules_strategy = st.builds(
    HiloRules,
    max_number=st.integers(1, 60),
    start_points=st.integers(-3, 8),
    floor=st.integers(-12, -4),
    fee=st.integers(0, 3),
    fee_above=st.integers(0, 10),
    guess_right=st.integers(0, 4),
    guess_wrong=st.integers(-4, 0),
    check_min=st.integers(0, 12),
    check_miss=st.integers(-8, 0),
    random_check_max=st.integers(-12, 3),
    secret_guess_3_cost=st.integers(0, 4),
    secret_guess_2_cost=st.integers(0, 4),
    stars_to_win=st.integers(1, 3),
    max_games=st.integers(1, 4),
    max_rounds=st.integers(1, 12),  # so that every game ends whatever the other options
)


@settings(max_examples=25, deadline=None)
@given(rules_strategy, st.integers(2, 5), st.integers(0, 2**32))
def test_series_invariants(rules: HiloRules, n: int, seed: int) -> None:
    """rules: Objects, A turn, End of a game, End of the series — at every step of a series."""
    rng = random.Random(seed)
    state = GAME.new(rules, [f"p{i}" for i in range(n)])
    steps = 0
    while GAME.to_act(state) and steps < 2_000:
        (seat,) = GAME.to_act(state)
        if seat == CHANCE:
            action = GAME.sample_chance(state, rng)
        else:
            legal = GAME.legal_actions(state, seat)
            action = GAME.conformance_action(state, seat, legal, rng)
            assert action in legal
        before = copy.deepcopy(state)
        new, _ = GAME.apply(state, seat, action)
        assert state == before  # never mutates its input
        state = new
        steps += 1
        # The floor holds.
        assert all(p >= rules.floor for p in state.points)
        # Accounts are exactly the archived points; stars exactly the games' stars.
        for s in range(n):
            assert state.accounts[s] == sum(g.points[s] for g in state.history)
            assert state.stars[s] == sum(g.stars for g in state.history if g.winner == s)
        if state.phase in ("turn", "pick", "draw"):
            # Turns go round from the game's first seat, one per seat per round.
            assert state.turn == (state.first + state.turns) % n
            assert state.target is not None
            # The true target is always consistent with what every seat knows.
            for s in [*range(n), None]:
                assert state.target in belief_of(GAME.view(state, s)["log"], rules.max_number, s)
        # Games rotate the first seat.
        assert state.first == (state.game_no - 1) % n
    assert not GAME.to_act(state), "a series with max_games must end"
    assert len(state.history) <= rules.max_games  # type: ignore[operator]
    last = state.history[-1]
    assert max(state.stars) >= rules.stars_to_win or len(state.history) == rules.max_games, last
    outcome = GAME.outcome(state)
    assert sorted(outcome.ranks)[0] == 1
