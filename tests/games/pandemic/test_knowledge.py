"""The world filter against a brute-force oracle built on the engine itself.

Rules: docs/games/pandemic.md (What each player sees). The oracle enumerates every starting
infected set and every hidden cure (branching only where a cure would work, as the filter's model
says), plays each world through the engine, keeps the worlds whose view for the observer equals
the real one, and compares the posterior with the filter's.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from dennou.core.actions import Action
from dennou.core.game import CHANCE
from dennou.games.pandemic import GAME, PandemicRules
from dennou.games.pandemic.actions import Check, Contact, Cure, Idle, Infect
from dennou.games.pandemic.knowledge import WorldFilter, filter_for, observations
from dennou.games.pandemic.state import PandemicState
from tests.games.pandemic.helpers import tick

C = 0.25

# Tick by tick: the seen contacts and the observer's (seat 0) own action.
SCRIPT: list[tuple[list[tuple[int, int]], Action]] = [
    ([(1, 2), (3, 4)], Idle()),
    ([(2, 3)], Check()),
    ([(1, 4)], Contact(3)),
    ([(0, 3)], Contact(3)),
    ([(2, 4)], Check()),
    ([(0, 1)], Contact(1)),
    ([], Cure()),
    ([(3, 4)], Check()),
]


def _orders(k: int) -> dict[int, Action]:
    contacts, mine = SCRIPT[k]
    orders: dict[int, Action] = {0: mine}
    for a, b in contacts:
        orders[a], orders[b] = Contact(b), Contact(a)
    return orders


def _start(rules: PandemicRules, infected: tuple[int, ...]) -> PandemicState:
    state = GAME.new(rules, [f"p{i}" for i in range(5)])
    return GAME.apply(state, CHANCE, Infect(infected))[0]


def _oracle(rules: PandemicRules, real_view: dict[str, object]) -> dict[tuple[bool, ...], float]:
    posterior: dict[tuple[bool, ...], float] = {}

    def walk(state: PandemicState, k: int, weight: float) -> None:
        if k == len(SCRIPT):
            v = GAME.view(state, 0)
            if v["checks"] == real_view["checks"] and (
                v["announcements"] == real_view["announcements"]
            ):
                posterior[state.infected] = posterior.get(state.infected, 0.0) + weight
            return
        base = _orders(k)
        able = [
            s for s in range(1, 5) if s not in base and state.infected[s] and state.vaccines[s] > 0
        ]
        for r in range(len(able) + 1):
            for chosen in combinations(able, r):
                orders = dict(base)
                orders.update({s: Cure() for s in chosen})
                w = weight * C**r * (1 - C) ** (len(able) - r)
                walk(tick(state, orders)[0], k + 1, w)

    for infected in combinations(range(5), rules.infected):
        walk(_start(rules, infected), 0, 1.0)
    total = sum(posterior.values())
    return {k: v / total for k, v in posterior.items()}


@pytest.mark.parametrize(
    ("options", "truth"),
    [
        ({"infected": 2, "rounds": 2, "ticks": 4}, (1, 3)),
        ({"infected": 1, "rounds": 1, "ticks": 8, "transfer": True}, (2,)),
        ({"infected": 2, "rounds": 4, "ticks": 2, "pair_rule": "first_contact"}, (0, 4)),
    ],
)
def test_filter_matches_brute_force_oracle(
    options: dict[str, object], truth: tuple[int, ...]
) -> None:
    rules = PandemicRules(**options)  # type: ignore[arg-type]
    state = _start(rules, truth)
    for k in range(len(SCRIPT)):
        state = tick(state, _orders(k))[0]
    view = GAME.view(state, 0)
    expected = _oracle(rules, view)
    f = WorldFilter(rules, 5, 0, cure_prob=C)
    for obs in observations(view):
        f.update(obs)
    assert f.exact
    got: dict[tuple[bool, ...], float] = {}
    for w in f.worlds:
        key = tuple(bool(w.infected >> s & 1) for s in range(5))
        got[key] = got.get(key, 0.0) + w.weight
    # EPS-weighted contradicting worlds may remain; they must be negligible.
    got = {k: v for k, v in got.items() if v > 1e-6}
    assert got.keys() == expected.keys()
    for key, p in expected.items():
        assert got[key] == pytest.approx(p, abs=1e-9)


def test_filter_cache_gives_the_same_answer_as_a_fresh_filter() -> None:
    rules = PandemicRules(infected=2, rounds=2, ticks=4)
    state = _start(rules, (1, 3))
    for k in range(len(SCRIPT)):
        state = tick(state, _orders(k))[0]
        view = GAME.view(state, 0)
        cached = filter_for(view, rules)
        fresh = WorldFilter(rules, 5, 0)
        for obs in observations(view):
            fresh.update(obs)
        assert cached.p_infected() == pytest.approx(fresh.p_infected())


def test_determinize_agrees_with_own_checks_and_announcements() -> None:
    """What each player sees: determinized states agree with what the seat was told."""
    rules = PandemicRules(infected=2, rounds=2, ticks=4)
    state = _start(rules, (1, 3))
    for k in range(4):
        state = tick(state, _orders(k))[0]
    # Tick 2 was a check by seat 0; tick 3-4 were contacts; end of round 1: an announcement.
    view = GAME.view(state, 0)
    rng = random.Random(5)
    announced = view["announcements"][-1]["infected"]
    seen = set()
    for _ in range(30):
        det = GAME.determinize(view, 0, rng)
        assert GAME.view(det, 0) == view
        assert sum(det.infected) == announced
        seen.add(det.initially_infected)
        # Replaying the determinized history from its start gives its own statuses.
        replay = _start(rules, det.initially_infected)
        for orders in det.history:
            replay = tick(replay, dict(enumerate(orders)))[0]
        assert replay.infected == det.infected and replay.vaccines == det.vaccines
        # Seat 0 checked at tick 2: the determinized history agrees with the result.
        check = GAME.view(replay, 0)["checks"]
        assert check == view["checks"]
    assert len(seen) > 1
