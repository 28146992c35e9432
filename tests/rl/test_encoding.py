"""Encodings: nothing a seat may not see leaks; numbers and actions round-trip; masks are exact.

Leak property (docs/rl.md): two states that differ only in what a seat may not see give it
byte-identical observations and masks. The second state is the game's own ``determinize`` of
the seat's view, which redraws every hidden part (hands, numbers, targets, statuses...).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

import dennou.rl as rl
from dennou.core.encoding import NotEncodable
from tests.rl.conftest import CASE_IDS, CASES, PRESETS, random_states, split

STATES = 200
"""Random states per preset for the round trips (two presets per game, six games: 2,400)."""


def _table(game: str, i: int) -> rl.Table:
    players, rules = split(PRESETS[game][i])
    return rl.Table(game, players=players, rules=rules)


@pytest.mark.parametrize(("game", "i"), CASES, ids=CASE_IDS)
def test_observations_do_not_leak_what_the_seat_may_not_see(game: str, i: int) -> None:
    table = _table(game, i)
    g, enc = table.game, table.encoding
    rng = random.Random(7)
    differs = 0
    for state, seat in random_states(table, STATES // 2, seed=100 + i):
        for observer in range(table.n):
            other = g.determinize(g.view(state, observer), observer, rng)
            differs += other != state
            a, b = enc.observe(state, observer), enc.observe(other, observer)
            assert a.dtype == np.float32 and a.shape == (enc.size,)
            if not table.passive:  # an encoding that reads the state reads what the view shows
                via_view = enc.encode_view(g.view(state, observer))
                assert a.tobytes() == via_view.tobytes(), f"{game}: observe != encode_view"
            assert a.tobytes() == b.tobytes(), f"{game}: seat {observer} sees a hidden part"
            if observer == seat and not table.passive:
                assert enc.legal_indices(state, seat) == enc.legal_indices(other, seat)
            assert np.all(a >= enc.low) and np.all(a <= enc.high)
    if g.spec.hidden_information:
        assert differs > 0, "determinize never changed a hidden part: the check was vacuous"


@pytest.mark.parametrize(("game", "i"), CASES, ids=CASE_IDS)
def test_every_legal_number_round_trips_and_the_mask_is_the_legal_set(game: str, i: int) -> None:
    table = _table(game, i)
    g, enc = table.game, table.encoding
    checked = 0
    for state, seat in random_states(table, STATES, seed=200 + i):
        legal = g.legal_actions(state, seat)
        mask = enc.action_mask(state, seat)
        numbers = enc.legal_indices(state, seat)
        assert list(np.flatnonzero(mask)) == numbers
        if table.passive:
            assert numbers == []
            continue
        assert numbers, "a seat that must act has a legal number"
        numset = set(numbers)
        seen: set[Any] = set()
        rng = random.Random(checked)
        every: Sequence[int] = range(enc.num_actions)
        if enc.num_actions > 2000:
            # Numeron's 5,040 numbers, Daifugo's plays and card sets: a sample of the big blocks,
            # every number of the small ones, and every legal number (so that each is checked,
            # and the first number of an action is seen before any later one)
            small = [b for b in enc.blocks if b.size <= 200]
            every = sorted(
                set(rng.sample(every, 1000))
                | {i for b in small for i in range(b.start, b.start + b.size)}
                | numset
            )
        for index in every:  # mask = the legal actions, each once
            try:
                action = enc.action(state, seat, index)
            except NotEncodable:
                assert index not in numset
                continue
            expected = action in legal and action not in seen
            assert (index in numset) == expected, (game, index, str(action))
            if expected:
                seen.add(action)
                assert enc.index(state, seat, action) == index  # number -> action -> number
                checked += 1
        if not enc.abstraction and every == range(enc.num_actions):  # exact: each has a number
            assert len(seen) == len(legal)
        sample = [legal[k] for k in rng.sample(range(len(legal)), min(50, len(legal)))]
        for action in sample:  # action -> number -> action, wherever the numbering covers it
            try:
                index = enc.index(state, seat, action)
            except NotEncodable:
                assert enc.abstraction, f"{game}: exact numbering misses {action}"
                continue
            assert enc.action(state, seat, index) == action
            assert mask[index] == 1
    assert table.passive or checked > STATES


def test_every_game_has_an_encoding_with_a_documented_layout() -> None:
    assert set(PRESETS) == set(rl.games())
    for game, presets in PRESETS.items():
        players, rules = split(presets[0])
        enc = rl.encoding_for(game, rules, players)
        doc = enc.describe()
        assert doc["size"] == sum(f["size"] for f in doc["observation"])
        assert doc["num_actions"] == sum(b["size"] for b in doc["actions"])
        starts = [b["start"] for b in doc["actions"]]
        assert starts == sorted(starts) and starts[0] == 0
        assert all(f["doc"] for f in doc["observation"]) and all(b["doc"] for b in doc["actions"])
