"""The fast simulator (``sim.py``) against the readable engine, under every rules option.

From random positions of random rule combinations: the same legal plays (pass included), the
same state after every move (hands, turn, field top, passes, revolution, 11-back, lock, the 7
pass / 10 discard owed, finishers), the same finishing order; 千日手 is drawn by both.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from dennou.core.game import CHANCE
from dennou.games.daifugo import GAME
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.actions import Discard, Give, Pass, Places, Play
from dennou.games.daifugo.state import DaifugoState


def test_masks_and_moves_roundtrip() -> None:
    hand = C.parse_cards(["3s", "10h", "JK", "JK", "2c"]) or ()
    assert S.cards_of(S.mask_of(hand)) == hand
    for texts in (
        ["5s", "JK=6s", "7s"],
        ["JK=Ls", "3s", "4s"],
        ["7s", "JK=7h"],
        ["8s", "8h", "JK"],
    ):
        for combo in C.combo_from(texts, suit_jokers=True, sequences=True) or []:
            assert S.combo_of(S.move_of(combo)) == combo


def random_options(rng: random.Random) -> dict[str, Any]:
    pick = rng.choice
    return {
        "games": 2,
        "jokers": pick([0, 1, 2, 2]),
        "max_group": pick([6, 6, 4]),
        "sequences": rng.random() < 0.6,
        "suit_lock": rng.random() < 0.5,
        "revolution_size": pick([4, 4, 3]),
        "sequence_revolution_size": pick([5, 5, 4, 0]),
        "eight_cut": rng.random() < 0.8,
        "spade3_return": rng.random() < 0.8,
        "spade3_flush": rng.random() < 0.5,
        "eleven_back": rng.random() < 0.4,
        "five_skip": rng.random() < 0.4,
        "seven_pass": rng.random() < 0.4,
        "ten_discard": rng.random() < 0.4,
        "miyako_ochi": rng.random() < 0.5,
        "first_lead": pick(["order", "diamond3"]),
        "turn_order": pick(["finish", "seats"]),
        "lead_pass": rng.random() < 0.5,
        "flush_on": pick(["others_passed", "all_passed"]),
        "auto_pass": rng.random() < 0.5,
        "stalemate_passes": pick([0, 0, 8, 20]),
    }


def same(state: DaifugoState, sim: S.Sim) -> None:
    """The simulator holds what the engine holds."""
    st = sim.st
    assert list(state.hands) == [sim.hand(x) for x in range(sim.n)]
    assert state.turn == sim.turn
    assert state.revolution == bool(st[S.REVOLUTION]) and state.back == bool(st[S.BACK])
    assert state.lock == st[S.LOCK] and state.pass_run == st[S.PASS_RUN]
    assert sum(1 << x for x in state.passed) == st[S.PASSED] and state.last == st[S.LAST]
    top = state.top
    assert (S.move_of(top.combo) if top else 0) == st[S.TOP]
    assert (top.returned if top else False) == bool(st[S.RETURNED])
    due = state.follow_up
    assert (None if due is None else (due.kind, due.count, due.to)) == sim.follow_up()
    assert list(state.finished) == sim.finish() and state.fallen == st[S.FALLEN]


def start(state: DaifugoState, rng: random.Random, game: int) -> DaifugoState:
    """Random moves (and the host's defaults in the exchange) until game ``game`` is in play."""
    while not (state.phase == "play" and state.game_no == game) and state.phase != "over":
        (seat,) = GAME.to_act(state)
        if seat == CHANCE:
            state, _ = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
        elif state.phase == "exchange":
            state, _ = GAME.apply_default(state, seat)
        else:
            legal = GAME.legal_actions(state, seat)
            state, _ = GAME.apply(state, seat, legal[rng.randrange(len(legal))])
    return state


def test_sim_matches_engine_under_every_option() -> None:
    """Every position of random games (game 1, or game 2 after an exchange) of random rule
    combinations (rules page, every option)."""
    rng = random.Random(7)
    seen = {"positions": 0, "stalemates": 0, "follow_ups": 0, "falls": 0}
    for _ in range(120):
        n = rng.choice([2, 3, 4, 5, 5, 6, 8])
        rules = GAME.make_rules(random_options(rng))
        state = start(GAME.new(rules, [f"p{i}" for i in range(n)]), rng, rng.choice([1, 2]))
        if state.phase != "play":
            continue
        sim = S.Sim(state)
        for _ in range(5000):
            seat = state.turn
            same(state, sim)
            seen["positions"] += 1
            due = state.follow_up
            if due is None:
                engine = {S.move_of(c) for c in GAME.legal_combos(state, seat)}
                if GAME.may_pass(state):
                    engine.add(0)
                moves = sim.legal_moves()
                assert len(moves) == len(set(moves)) and set(moves) == engine
                m = rng.choice(sorted(moves))
                action: Any = Pass() if m == 0 else Play(S.combo_of(m).strs())
            else:
                seen["follow_ups"] += 1
                legal = GAME.legal_actions(state, seat)
                action = legal[rng.randrange(len(legal))]
                assert isinstance(action, Give | Discard)
                m = C.card_set(C.parse_cards(action.cards) or ())
            state, _ = GAME.apply(state, seat, action)
            over = sim.step(m)
            seen["falls"] += state.fallen >= 0 and m == 0
            if state.phase == "stalemate":
                seen["stalemates"] += 1
                assert over
                drawn = [x for x in sim.finish()[len(state.finished) :] if x != state.fallen]
                state, _ = GAME.apply(state, CHANCE, Places(tuple(drawn)))
            if state.phase != "play":
                assert over and list(state.results[-1].finish) == sim.finish()
                break
            assert not over
    assert seen["positions"] > 5000
    assert seen["stalemates"] and seen["follow_ups"] > 100 and seen["falls"]


def test_playouts_batch_shapes_and_permutations() -> None:
    rng = random.Random(1)
    for options in ({"games": 1}, {"preset": "uecda", "games": 1}):
        state = GAME.new(GAME.make_rules(options), [f"p{i}" for i in range(5)])
        state, _ = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
        sim = S.Sim(state)
        hands = np.array([list(state.hands)] * 20, dtype=np.int64)
        moves = sim.legal_moves()[:3]
        out = S.playouts(sim, hands, moves, seed=3)
        assert out.shape == (20, 3, 5)
        for row in out.reshape(-1, 5):
            assert sorted(row.tolist()) == [0, 1, 2, 3, 4]
        for policy in (0, 1):
            finish = sim.copy().playout(policy=policy, seed=1)
            assert sorted(finish) == [0, 1, 2, 3, 4]
