"""The fast simulator against the readable engine: same legal moves, same results."""

from __future__ import annotations

import random

import numpy as np

from dennou.core.game import CHANCE
from dennou.games.daifugo import GAME, DaifugoRules
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.actions import Pass, Play


def test_masks_roundtrip() -> None:
    hand = C.parse_cards(["3s", "10h", "JK", "JK", "2c"]) or ()
    assert S.cards_of(S.mask_of(hand)) == hand


def test_sim_matches_engine_on_random_positions() -> None:
    """From every position of 60 random games: the same legal plays (incl. pass), the same turn
    after every move (forced passes, flushes, 8-cuts, finishing), the same finishing order."""
    rng = random.Random(7)
    positions = 0
    for _ in range(60):
        n = rng.choice([2, 3, 4, 5, 6, 8])
        rules = DaifugoRules(
            games=1,
            revolution_size=rng.choice([4, 4, 3]),
            max_group=rng.choice([6, 6, 4]),
            eight_cut=rng.random() < 0.8,
            spade3_return=rng.random() < 0.8,
            revolution=rng.random() < 0.8,
        )
        state = GAME.new(rules, [f"p{i}" for i in range(n)])
        state, _ = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
        sim = S.Sim(state)
        over = False
        while not over:
            seat = state.turn
            assert sim.turn == seat
            engine = {g.cards for g in GAME.legal_combos(state, seat)}
            if state.field:
                engine.add(0)
            masks = sim.legal_masks()
            assert len(masks) == len(set(masks))
            assert set(masks) == engine
            positions += 1
            m = rng.choice(sorted(masks))
            action = Pass() if m == 0 else Play(tuple(C.cards_str(S.cards_of(m))))
            state, _ = GAME.apply(state, seat, action)
            over = sim.step(m)
            if not over:
                assert state.revolution == bool(sim.st[S.REVOLUTION])
                assert list(state.hands) == [sim.hand(x) for x in range(n)]
        assert list(state.results[-1].finish) == sim.finish()
    assert positions > 1500


def test_playouts_batch_shapes_and_permutations() -> None:
    rng = random.Random(1)
    state = GAME.new(DaifugoRules(games=1), [f"p{i}" for i in range(5)])
    state, _ = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
    sim = S.Sim(state)
    hands = np.array([list(state.hands)] * 20, dtype=np.int64)
    moves = sim.legal_masks()[:3]
    out = S.playouts(sim, hands, moves, seed=3)
    assert out.shape == (20, 3, 5)
    for row in out.reshape(-1, 5):
        assert sorted(row.tolist()) == [0, 1, 2, 3, 4]
    finish = sim.copy().playout(seed=1)
    assert sorted(finish) == [0, 1, 2, 3, 4]
