"""Invariants over random games (hypothesis picks the rules and the random seed)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dennou.core.game import CHANCE
from dennou.games.chairs import GAME


@settings(max_examples=25, deadline=None)
@given(
    people=st.integers(2, 9),
    chairs=st.integers(2, 8),
    medals=st.integers(0, 4),
    seed=st.integers(0, 10**6),
)
def test_random_games_keep_the_invariants(people: int, chairs: int, medals: int, seed: int) -> None:
    rules = GAME.make_rules({"chairs": chairs, "medals": medals, "max_choices": 3})
    state = GAME.new(rules, [f"p{i}" for i in range(people)])
    rng = random.Random(seed)
    players_before = sum(state.playing)
    while not GAME.is_over(state):
        acting = sorted(GAME.to_act(state))
        seat = acting[rng.randrange(len(acting))]
        if seat == CHANCE:
            action = GAME.sample_chance(state, rng)
        else:
            legal = GAME.legal_actions(state, seat)
            action = legal[rng.randrange(len(legal))]
        state, _ = GAME.apply(state, seat, action)
        # Medals are only ever moved: every name's medals still add up.
        for name in range(people):
            assert sum(row[name] for row in state.holdings) == medals
        assert all(v >= 0 for row in state.holdings for v in row)
        # Players only ever become gaya; a chair is removed once per finished period.
        assert sum(state.playing) <= players_before
        players_before = sum(state.playing)
        if state.positions:
            removed = sum(1 for h in state.history if h.removed is not None)
            assert len(state.in_play) == chairs - removed
        for s in range(people):
            if state.last_chair[s] is not None:
                assert state.playing[s]
        assert state.period <= chairs - 1
    out = GAME.outcome(state)
    if state.winner is None:
        assert set(out.scores) == {0.0}
    else:
        assert sum(out.scores) == medals * rules.medal_value
        assert len(state.remaining()) == 1
