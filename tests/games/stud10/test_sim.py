"""The Numba simulation path against the engine (rules: docs/games/stud10.md)."""

from __future__ import annotations

import numpy as np

from dennou.core.game import CHANCE
from dennou.games.stud10 import GAME, Stud10Rules
from dennou.games.stud10.actions import Deal, Reveal
from dennou.games.stud10.cards import DECK
from dennou.games.stud10.sim import play_decks, simulate

PLAYERS = ["a", "b", "c", "d", "e"]


def test_simulation_agrees_with_engine() -> None:
    """Same decks, hole cards revealed in the order dealt: same steps, scores and winners."""
    rng = np.random.default_rng(11)
    decks = np.argsort(rng.random((300, 52)), axis=1).astype(np.int8)
    winners, steps, scores = play_decks(decks)
    rules = Stud10Rules(view_odds=False)
    for g, deck in enumerate(decks.tolist()):
        state = GAME.new(rules, PLAYERS)
        state, _ = GAME.apply(state, CHANCE, Deal(tuple(DECK[c] for c in deck)))
        while state.phase == "reveal":
            # Reveal each revealing seat's first remaining hole card (the order dealt).
            pick = Reveal(tuple(DECK[state.hole[s][0]] for s in state.revealing()))
            state, _ = GAME.apply(state, CHANCE, pick)
        showdown = next(e for e in state.log if e.kind == "showdown")
        assert steps[g] == state.reveals
        assert scores[g].tolist() == showdown.data["scores"]
        mask = sum(1 << s for s in showdown.data["winners"])
        assert winners[g] == mask


def test_simulate_totals() -> None:
    stats = simulate(20_000, seed=3)
    assert stats.games == 20_000
    assert sum(stats.win_share) == np.float64(20_000) or abs(sum(stats.win_share) - 20_000) < 1e-6
    assert sum(stats.steps) == 20_000 and sum(stats.winning_category) == 20_000
    assert all(stats.steps[k] == 0 for k in range(5))
    # Five symmetric seats: each wins about a fifth (binomial sd ~ 57 hands).
    assert all(abs(w - 4_000) < 400 for w in stats.win_share)
    assert simulate(1000, seed=9) == simulate(1000, seed=9)
