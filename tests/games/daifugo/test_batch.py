"""``dennou.games.daifugo.batch.Batch`` (N games stepped together) against the engine's rules.

Every game of random batch play is replayed through the public API (``GAME.apply`` of the
kernel move's ``Play``, the kernel's 7 pass / 10 discard, a 千日手's drawn places): the legal
moves must be the engine's at every step, and each game's finishing order the engine's
(docs/games/daifugo.md, "Fast simulator"; rules: ../shared/rules/daifugo.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from dennou.core.game import CHANCE
from dennou.games.daifugo import GAME
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.actions import Pass, Places, Play
from dennou.games.daifugo.batch import Batch
from dennou.games.daifugo.rules import LOCAL_RULES
from dennou.games.daifugo.state import DaifugoState

from .helpers import dealt_like_a_row, made_for_the_player

CONFIGS: dict[str, tuple[int, dict[str, Any]]] = {
    "seed rules": (5, {}),
    "uecda": (5, {"preset": "uecda"}),
    "local rules": (4, LOCAL_RULES),
    "local rules, lead pass, 千日手": (
        3,
        {**LOCAL_RULES, "lead_pass": True, "stalemate_passes": 6},
    ),
}
GAMES = 12


def _engine_moves(state: DaifugoState) -> set[int]:
    """The engine's legal plays of the seat to act as kernel moves (0: pass)."""
    out = {S.move_of(c) for c in GAME.legal_combos(state, state.turn)}
    if GAME.may_pass(state):
        out.add(0)
    return out


@pytest.mark.parametrize("config", list(CONFIGS))
def test_batch_games_follow_the_engine_move_for_move(config: str) -> None:
    players, rules = CONFIGS[config]
    games = Batch(GAMES, rules, players, seed=5)
    rng = np.random.default_rng(5)
    states = [dealt_like_a_row(games.rules, games.hands[g]) for g in range(GAMES)]
    for _ in range(2000):  # bounded: every game ends well within it
        if games.done.all():
            break
        flat, offsets = games.legal()
        turn = games.turn
        moves = np.zeros(GAMES, dtype=np.uint64)
        for g in range(GAMES):
            row = flat[offsets[g] : offsets[g + 1]]
            if turn[g] < 0:
                assert len(row) == 0
                continue
            state = states[g]
            assert turn[g] == state.turn
            assert set(row.tolist()) == _engine_moves(state), g
            moves[g] = row[rng.integers(len(row))]
        games.step(moves)
        hands = games.hands
        for g in range(GAMES):
            if turn[g] < 0:
                continue
            state = states[g]
            action = Pass() if moves[g] == 0 else Play(S.combo_of(int(moves[g])).strs())
            state, _ = GAME.apply(state, state.turn, action)
            state = made_for_the_player(state)
            if state.phase == "stalemate":
                placed = games.places[g]
                left = sorted(
                    (s for s in range(players) if state.hands[s]), key=lambda s: placed[s]
                )
                state, _ = GAME.apply(state, CHANCE, Places(tuple(left)))
            if state.game_no == 1:
                assert [int(h) for h in hands[g]] == list(state.hands), g
            states[g] = state
    assert games.done.all()
    for g in range(GAMES):
        finish = states[g].results[0].finish
        assert games.places[g].tolist() == [finish.index(s) for s in range(players)]


def test_a_move_that_is_not_legal_is_refused_and_nothing_moves() -> None:
    games = Batch(4, {"sequences": True}, seed=1)
    before = games.states.copy()
    flat, offsets = games.legal()
    ok = flat[offsets[:-1]].copy()  # each game's first legal move
    leader = games.turn
    hand = int(games.hands[1, leader[1]]) & ((1 << 52) - 1)  # no jokers: they would pair
    low = hand & -hand
    high = 1 << (hand.bit_length() - 1)
    assert (low.bit_length() - 1) >> 2 != (high.bit_length() - 1) >> 2  # two ranks
    for g, bad in [
        (1, low | high),  # two cards that form no group or sequence
        (2, 0),  # a pass on an empty field (lead_pass is off)
        (3, 1 << 60),  # a move with no cards
        (0, 1 << 51 if not hand >> 51 & 1 else 1),  # a card the leader may not hold
    ]:
        moves = ok.copy()
        moves[g] = bad
        assert bad not in flat[offsets[g] : offsets[g + 1]].tolist()
        with pytest.raises(ValueError, match=f"game {g}"):
            games.step(moves)
        assert np.array_equal(games.states, before)
    with pytest.raises(ValueError, match="one move per game"):
        games.step(ok[:2])
    with pytest.raises(ValueError, match="read-only"):
        flat[0] = low | high  # the list step() checks against cannot be edited
    games.step(ok)
    assert not np.array_equal(games.states, before)
    # without a list made first, step() generates the legal moves itself
    fresh = Batch(4, {"sequences": True}, seed=1)
    moves = ok.copy()
    moves[1] = low | high
    with pytest.raises(ValueError, match="game 1"):
        fresh.step(moves)
    assert np.array_equal(fresh.states, before)


def test_redeal_deals_only_the_chosen_rows() -> None:
    games = Batch(6, seed=2)
    before = games.states.copy()
    chosen = np.array([True, False, False, True, False, False])
    games.redeal(chosen)
    assert np.array_equal(games.states[~chosen], before[~chosen])
    assert not np.array_equal(games.hands[0], before[0, S.HEAD + 15 : S.HEAD + 20])
    assert not np.array_equal(games.hands[3], before[3, S.HEAD + 15 : S.HEAD + 20])
    with pytest.raises(ValueError, match="bool array"):
        games.redeal([0, 3])


@pytest.mark.parametrize("rules", [{}, {"lead_pass": True, "stalemate_passes": 6}])
def test_batches_side_by_side_keep_their_own_deals(rules: dict[str, Any]) -> None:
    """Deals and 千日手 draws come from each batch's own generator (the second rules end many
    games in a 千日手, whose order is drawn when a step may make one)."""
    a, b = Batch(6, rules, seed=3), Batch(6, rules, seed=3)
    other = Batch(6, rules, seed=4)
    assert np.array_equal(a.hands, b.hands)
    assert not np.array_equal(a.hands, other.hands)
    rng_a, rng_b = np.random.default_rng(0), np.random.default_rng(0)
    ended = 0
    for _ in range(3000):  # bounded: several games a row, dealt again as they end
        places = {}
        for games, rng in ((a, rng_a), (other, np.random.default_rng(9)), (b, rng_b)):
            flat, offsets = games.legal()
            counts = np.diff(offsets)
            pick = offsets[:-1] + (rng.random(6) * np.maximum(counts, 1)).astype(np.int64)
            games.step(np.where(counts > 0, flat[np.minimum(pick, len(flat) - 1)], 0))
            places[id(games)] = games.places
            if games.done.any():
                ended += int(games.done.sum()) if games is a else 0
                games.redeal(games.done)
        assert np.array_equal(places[id(a)], places[id(b)])
        assert np.array_equal(a.states, b.states)
    assert ended > 100
    a.reset(seed=8)
    b.reset(seed=8)
    assert np.array_equal(a.hands, b.hands)


@pytest.mark.parametrize(
    ("args", "message"),
    [((0, None, 5), "1\\+ games"), ((4, None, 9), "2-8 players"), ((4, {"games": -1}, 5), "rules")],
)
def test_a_bad_batch_is_refused(args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Batch(*args)
