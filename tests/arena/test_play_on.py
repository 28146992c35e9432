"""Bots whose compiled code is not built yet play on by their fallback (a cold start).

``dennou.core.native``: in ``play-on`` mode (the host's bot workers, ``dennou bot run``) a
search bot asked to decide while its code compiles answers at once by its documented fallback:
Daifugo's ``montecarlo`` and ``ismcts`` play as ``greedy``; Numeron's ``solver``, ``race`` and
``optimal`` call a number still possible and use no item. In ``wait`` mode they wait.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from dennou.arena.bots import make_bot
from dennou.arena.warmup import first_decision
from dennou.core import native
from dennou.core.game import CHANCE
from dennou.core.native import Native
from dennou.games.daifugo import GAME as DAIFUGO
from dennou.games.daifugo import bots as daifugo_bots
from dennou.games.daifugo import ismcts
from dennou.games.daifugo.greedy import greedy_choice
from dennou.games.numeron import GAME as NUMERON
from dennou.games.numeron import judge, plain, race, solver
from dennou.games.numeron.actions import Call, NoItem, SetNumber
from dennou.games.numeron.knowledge import knowledge
from dennou.games.numeron.plain import tree
from dennou.games.numeron.rules import NumeronRules
from dennou.games.numeron.state import all_numbers


@pytest.fixture
def compiling(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Play-on mode, every search bot's code 'compiling' until the returned event is set."""
    gate = threading.Event()
    monkeypatch.setattr(native, "_ALL", [])  # dennou warm elsewhere must not build this one
    code = Native("gated", lambda: gate.wait(60), budget=0.05)
    monkeypatch.setattr(ismcts, "SEARCH", code)
    monkeypatch.setattr(daifugo_bots, "SEARCH", code)
    monkeypatch.setattr(solver, "native", lambda digits: code)
    monkeypatch.setattr(race, "native", lambda digits: code)
    before = native.mode()
    native.set_mode("play-on")
    yield gate
    gate.set()
    native.set_mode(before)


def daifugo_choice_point() -> tuple[Any, int]:
    """A Daifugo state where the seat to play has several kinds of play."""
    rules = DAIFUGO.make_rules({})
    names = [f"p{i}" for i in range(5)]
    for seed in range(50):
        found = first_decision(DAIFUGO, rules, names, random.Random(seed))
        assert found is not None
        state, seat = found
        if len(DAIFUGO.legal_actions(state, seat)) > 3:
            return state, seat
    raise AssertionError("no deal with a choice")


@pytest.mark.parametrize("spec", ["montecarlo", "ismcts"])
def test_daifugo_search_bots_play_greedy_while_compiling(
    compiling: threading.Event, spec: str
) -> None:
    state, seat = daifugo_choice_point()
    rules = DAIFUGO.make_rules({})
    bot = make_bot(DAIFUGO, spec)
    bot.reset(seat=seat, rules=rules, players=[f"p{i}" for i in range(5)])
    view = DAIFUGO.view(state, seat)
    legal = DAIFUGO.legal_actions(state, seat)
    started = time.perf_counter()
    action = bot.act(view, legal, random.Random(1))
    assert time.perf_counter() - started < 5
    assert action == greedy_choice(view, legal)


def numeron_call_point() -> tuple[Any, int]:
    """A 3-digit Numeron state at a call, after a few calls (so some numbers are ruled out)."""
    rules = NUMERON.make_rules({"digits": 3, "items": "none"})
    state = NUMERON.new(rules, ["a", "b"])
    rng = random.Random(3)
    calls = 0
    for _ in range(200):
        acting = NUMERON.to_act(state)
        if CHANCE in acting:
            state, _ = NUMERON.apply(state, CHANCE, NUMERON.sample_chance(state, rng))
            continue
        seat = min(acting)
        if state.phase == "call":
            if calls == 4:
                return state, seat
            calls += 1
        legal = NUMERON.legal_actions(state, seat)
        state, _ = NUMERON.apply(state, seat, legal[rng.randrange(len(legal))])
    raise AssertionError("no call reached")


@pytest.mark.parametrize("spec", ["solver", "race", "optimal"])
def test_numeron_solvers_call_a_possible_number_while_compiling(
    compiling: threading.Event, spec: str
) -> None:
    state, seat = numeron_call_point()
    rules = state.rules
    bot = make_bot(NUMERON, spec)
    bot.reset(seat=seat, rules=rules, players=["a", "b"])
    view = NUMERON.view(state, seat)
    legal = NUMERON.legal_actions(state, seat)
    started = time.perf_counter()
    action = bot.act(view, legal, random.Random(1))
    assert time.perf_counter() - started < 5
    assert isinstance(action, Call)
    possible = knowledge(view["log"], 3, 1 - seat)
    assert possible.count < 720  # the earlier calls ruled numbers out
    assert possible.mask[all_numbers(3).index(action.number)]


@pytest.mark.parametrize(("spec", "calls"), [("optimal", 7), ("race", 2)])
def test_numeron_tree_bots_make_the_tree_calls_while_compiling(
    compiling: threading.Event, spec: str, calls: int
) -> None:
    """``optimal`` and ``race`` follow the shipped tree with NumPy alone: while their compiled code
    loads they still make the tree's calls, not the fallback's (``optimal`` every call of a game
    without items; ``race`` those of sets too large for its race scoring)."""
    tr = tree(3)
    assert tr is not None
    pool = all_numbers(3)
    secret = "735"  # no digit of the tree's first call: its part after it is large
    rules = NumeronRules(digits=3, first="seat0")
    bot = make_bot(NUMERON, f"{spec}:relabel=false")
    bot.reset(seat=0, rules=rules, players=["a", "b"])
    state = NUMERON.new(rules, ["a", "b"])
    state, _ = NUMERON.apply(state, 0, SetNumber(pool[0]))
    state, _ = NUMERON.apply(state, 1, SetNumber(secret))
    node, made, rng = 0, 0, random.Random(2)
    while state.phase != "over" and made < calls:
        seat = min(NUMERON.to_act(state))
        if seat == 0:
            action = bot.act(NUMERON.view(state, 0), NUMERON.legal_actions(state, 0), rng)
            call = pool[int(tr.calls[node])]
            assert action == Call(call)
            eat, bite = judge(secret, call)
            node = int(tr.children[node, eat * 4 + bite]) if eat < 3 else -1
            made += 1
        else:
            action = Call(pool[1])
        state, _ = NUMERON.apply(state, seat, action)
    assert made == calls or state.phase == "over"
    assert not compiling.is_set()  # the code never loaded


def test_numeron_solvers_use_no_item_while_compiling(compiling: threading.Event) -> None:
    view = {"phase": "attack_item", "seat": 0, "rules": {"digits": 4}, "log": []}
    assert plain.play_on(view, [NoItem()], random.Random(0)) == NoItem()


def test_the_bots_search_once_the_code_is_built(compiling: threading.Event) -> None:
    state, seat = daifugo_choice_point()
    view = DAIFUGO.view(state, seat)
    legal = DAIFUGO.legal_actions(state, seat)
    compiling.set()
    bot = make_bot(DAIFUGO, "montecarlo:playouts=200")
    ismcts.SEARCH.start()
    deadline = time.monotonic() + 30
    while not ismcts.SEARCH.built and time.monotonic() < deadline:
        time.sleep(0.01)
    assert ismcts.SEARCH.ready()
    searched = bot.act(view, legal, random.Random(1))
    native.set_mode("wait")
    assert searched == make_bot(DAIFUGO, "montecarlo:playouts=200").act(
        view, legal, random.Random(1)
    )
