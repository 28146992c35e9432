"""10-card stud's odds: computed only when a view asks, cached per position.

The oracle computes the odds straight from a state's face-up and hole cards, with no cache, to
compare with the view after every deal and reveal.
"""

from __future__ import annotations

import random

import pytest

from dennou.core.game import CHANCE, JSON
from dennou.core.rng import derive_seed
from dennou.games.stud10 import GAME, Stud10Rules
from dennou.games.stud10 import views as stud10_views
from dennou.games.stud10.odds import odds_masks
from dennou.games.stud10.state import Stud10State, mask_of


def oracle_odds(state: Stud10State) -> JSON | None:
    """The odds of the hand on the table, computed from the state alone (no cache)."""
    rules = state.rules
    if not rules.view_odds or not state.in_hand:
        return None
    masks = [mask_of(state.up[s]) for s in state.in_hand]
    holes = [len(state.hole[s]) for s in state.in_hand]
    seed = derive_seed("stud10-odds", *masks, *holes) & 0x7FFFFFFF
    result = odds_masks(
        masks, holes, samples=rules.odds_samples, exact_limit=rules.odds_exact_limit, seed=seed
    )
    n = len(state.players)
    win: list[float | None] = [None] * n
    se: list[float | None] = [None] * n
    for i, s in enumerate(state.in_hand):
        win[s] = round(result.win[i], 6)
        se[s] = round(result.se[i], 6)
    return {
        "win": win,
        "se": se,
        "method": result.method,
        "samples": result.samples,
        "completions": result.completions,
    }


def test_view_odds_equal_the_former_engine_s_at_every_step_of_random_sessions() -> None:
    rng = random.Random(31)
    rules = [
        Stud10Rules(hands=3, stack=3, odds_samples=400, odds_exact_limit=3_000),
        Stud10Rules(odds_samples=1_000, odds_exact_limit=0),
        Stud10Rules(hands=2, odds_samples=300, odds_exact_limit=50_000),
    ]
    checked = 0
    for r in rules * 2:
        state = GAME.new(r, ["a", "b", "c", "d", "e"])
        while GAME.to_act(state):
            state, _ = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
            for seat in (None, rng.randrange(5)):
                assert GAME.view(state, seat)["odds"] == oracle_odds(state)
                checked += 1
    assert checked > 100


def test_apply_never_computes_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Odds unread cost nothing: the engine plays whole sessions without computing any."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("odds computed")

    monkeypatch.setattr(stud10_views, "odds_masks", refuse)
    stud10_views.position_odds.cache_clear()
    state = GAME.new(Stud10Rules(hands=2), ["a", "b", "c", "d", "e"])
    rng = random.Random(2)
    while GAME.to_act(state):
        state, events = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
        assert all(e.kind != "odds" for e in events)
    # A view is what asks for them.
    with pytest.raises(AssertionError, match="odds computed"):
        GAME.view(state, None)


def test_odds_are_computed_once_per_position() -> None:
    rng = random.Random(4)
    state = GAME.new(Stud10Rules(odds_samples=500), ["a", "b", "c", "d", "e"])
    state, _ = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
    stud10_views.position_odds.cache_clear()
    first = GAME.view(state, None)["odds"]
    for seat in (None, 0, 1, 2, 3, 4):
        assert GAME.view(state, seat)["odds"] == first
    info = stud10_views.position_odds.cache_info()
    assert info.misses == 1 and info.hits == 6
