"""Numeron's views, built incrementally, equal the views built from scratch (the oracle).

The engine extends the log's JSON step by step (``dennou.core.views.EventLog``) and grows the
log itself without copying (``dennou.core.immutable.Log``), so a view costs the same at any
length of game. The oracle below converts the whole log for every view, with the bound on
recent talk applied: slow (quadratic over a game) but plain.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import msgspec

from dennou.core.game import CHANCE, JSON, Seat
from dennou.core.immutable import Log
from dennou.core.jsondata import to_json
from dennou.core.talk import recent
from dennou.games.numeron import GAME, NumeronRules
from dennou.games.numeron.state import NumeronState


def oracle_view(state: NumeronState, seat: Seat | None) -> JSON:
    """The view built from scratch: the whole log converted for this view."""
    over = state.phase == "over"
    out: JSON = {
        "game": "numeron",
        "rules": to_json(state.rules),
        "players": list(state.players),
        "seat": seat,
        "phase": state.phase,
        "to_act": sorted(GAME.to_act(state)),
        "set": [n is not None for n in state.numbers],
        "host_draw": sorted(state.host_draw),
        "first": state.first,
        "attacker": state.attacker,
        "turn": state.turn,
        "calls_left": state.calls_left,
        "lost_call": state.lost_call,
        "items": [list(state.items[0]), list(state.items[1])],
        "strikes": list(state.strikes),
        "last_turn": state.last_turn,
        "pending_winner": state.pending_winner,
        "winner": state.winner,
        "end": state.end,
        "log": to_json([e for e in state.log if over or e.visible_to(seat)]),
        "talk": to_json(recent(state.talk)),
    }
    if seat is not None:
        out["my_number"] = state.numbers[seat]
        out["my_numbers"] = list(state.histories[seat])
    if over:
        out["numbers"] = list(state.numbers)
        out["histories"] = [list(h) for h in state.histories]
    return out


def _step(state: NumeronState, rng: random.Random, hit: float = 0.3) -> NumeronState:
    (seat, *_) = sorted(GAME.to_act(state))
    if seat == CHANCE:
        return GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))[0]
    legal = GAME.legal_actions(state, seat)
    action = GAME.conformance_action(state, seat, legal, rng) if rng.random() < hit else None
    if action is None:
        action = legal[rng.randrange(len(legal))]
    if rng.random() < 0.05:
        state = GAME.talk(state, seat, "public", f"line {rng.random():.3f}")[0]
    return GAME.apply(state, seat, action)[0]


def test_incremental_views_equal_the_views_built_from_scratch_on_random_branching_games() -> None:
    rng = random.Random(15)
    checked = 0
    for game_no in range(24):
        rules = [NumeronRules(digits=3), NumeronRules(digits=4), NumeronRules(digits=5)][
            game_no % 3
        ]
        state = GAME.new(rules, ["a", "b"])
        kept: list[NumeronState] = []
        while GAME.to_act(state):
            for seat in (0, 1, None):
                view = GAME.view(state, seat)
                assert view == oracle_view(state, seat)
                assert view["log"].encoded() == msgspec.json.encode(view["log"])
                checked += 1
            if rng.random() < 0.1:
                kept.append(state)
            if kept and rng.random() < 0.05:
                # A search going back to a past state branches off another line of play.
                branch = rng.choice(kept)
                for _ in range(rng.randrange(1, 6)):
                    if not GAME.to_act(branch):
                        break
                    branch = _step(branch, rng, hit=0.0)
                    seat = rng.choice([0, 1, None])
                    view = GAME.view(branch, seat)
                    assert view == oracle_view(branch, seat)
                    assert view["log"].encoded() == msgspec.json.encode(view["log"])
                    checked += 1
            if rng.random() < 0.02:
                state = copy.deepcopy(state)  # fresh events: views rebuilt from scratch
            state = _step(state, rng)
        for seat in (0, 1, None):
            view = GAME.view(state, seat)
            assert view == oracle_view(state, seat)
            assert view["log"].encoded() == msgspec.json.encode(view["log"])
    assert checked > 1_000


def test_a_views_log_gives_its_encoding_only_while_unchanged_and_pickles_as_a_list() -> None:
    """The host copies a log's kept encoding into a message instead of encoding every event
    (``dennou.core.views.LogJSON``); a list someone changed is encoded as it is now."""
    import pickle

    rng = random.Random(8)
    state = GAME.new(NumeronRules(digits=3), ["a", "b"])
    assert GAME.view(state, 0)["log"].encoded() == b"[]"
    for _ in range(12):
        state = _step(state, rng, hit=0.0)
    log = GAME.view(state, 0)["log"]
    assert log.encoded() == msgspec.json.encode(list(log))
    again = pickle.loads(pickle.dumps(log))
    assert type(again) is list and again == log
    log.append({"kind": "x", "text": "added", "data": {}})
    assert log.encoded() is None
    log.pop()
    log[-1] = dict(log[-1])  # the same content, another object: not the kept entry
    assert log.encoded() is None
    assert GAME.view(state, None)["log"].encoded() == msgspec.json.encode(
        GAME.view(state, None)["log"]
    )


def test_a_view_does_not_change_when_the_game_goes_on() -> None:
    rng = random.Random(3)
    state = GAME.new(NumeronRules(digits=4), ["a", "b"])
    for _ in range(30):
        state = _step(state, rng)
    before = GAME.view(state, 0)
    frozen = copy.deepcopy(before)
    later = state
    for _ in range(30):
        if GAME.to_act(later):
            later = _step(later, rng)
    GAME.view(later, 0)
    assert before == frozen and GAME.view(state, 0) == frozen


def test_the_log_grows_without_copying_and_stays_a_snapshot() -> None:
    a: Log[Any] = Log([1, 2])
    b = a + (3,)  # noqa: RUF005 - a Log grows by +
    c = a + (4, 5)  # noqa: RUF005 - a branch from an older log copies it first
    assert (list(a), list(b), list(c)) == ([1, 2], [1, 2, 3], [1, 2, 4, 5])
    assert b == (1, 2, 3) and b[1:] == (2, 3) and b[-1] == 3 and hash(b) == hash((1, 2, 3))
    assert copy.deepcopy(c) == c and a + () is a  # noqa: RUF005


def test_the_game_pickles_for_the_host_worker_processes_and_views_alike() -> None:
    """The host sends a game to its bot and engine worker processes by pickling it: the views'
    cache of logs (and its lock) stays behind, and the copy's views are the same."""
    import pickle

    from dennou.games import REGISTRY

    rng = random.Random(4)
    state = GAME.new(NumeronRules(digits=3), ["a", "b"])
    for _ in range(12):
        state = _step(state, rng)
    GAME.view(state, 0)  # the cache holds logs now
    for name, game in REGISTRY.items():
        copy_ = pickle.loads(pickle.dumps(game))
        assert type(copy_) is type(game), name
    again = pickle.loads(pickle.dumps(GAME))
    for seat in (None, 0, 1):
        assert again.view(state, seat) == GAME.view(state, seat)
