"""The race against a plain reference implementation, and its invariants (hypothesis)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dennou.games.chairs.race import TOTEM, resolve_race

Point = tuple[int, int]
Runner = tuple[int, float, tuple[int, ...]]
Case = tuple[dict[int, Point], frozenset[int], list[Runner], float]


def reference_race(
    positions: Mapping[int, Point],
    blocked: frozenset[int],
    runners: Sequence[Runner],
    speed: float,
    time_limit: float,
) -> dict[int, tuple[int | None, list[tuple[int, str]]]]:
    """Oracle: scan all runners for the next event (arrivals first, then the lower seat)."""
    orders = {seat: list(order) for seat, _, order in runners}
    pos = {seat: TOTEM for seat, _, _ in runners}
    nxt = {seat: 0 for seat, _, _ in runners}
    # (time, kind, chair): kind 1 = choose the next chair, 0 = arrive at ``chair``
    event: dict[int, tuple[float, int, int | None] | None] = {
        seat: (start, 1, None) for seat, start, _ in runners
    }
    legs: dict[int, list[tuple[int, str]]] = {seat: [] for seat, _, _ in runners}
    taken: dict[int, int] = {}
    while True:
        live = [(e[0], e[1], seat) for seat, e in event.items() if e is not None]
        if not live:
            break
        t, kind, seat = min(live)
        if t > time_limit:
            break
        here = event[seat]
        assert here is not None
        chair = here[2]
        event[seat] = None
        if kind == 1:
            free = [c for c in orders[seat][nxt[seat] :] if c not in taken]
            if free:
                target = free[0]
                nxt[seat] = orders[seat].index(target) + 1
                event[seat] = (t + math.dist(pos[seat], positions[target]) / speed, 0, target)
            continue
        assert chair is not None
        pos[seat] = positions[chair]
        if chair in blocked or chair in taken:
            legs[seat].append((chair, "blocked" if chair in blocked else "taken"))
            event[seat] = (t, 1, None)
        else:
            taken[chair] = seat
            legs[seat].append((chair, "seated"))
    owner = {s: c for c, s in taken.items()}
    return {seat: (owner.get(seat), legs[seat]) for seat in orders}


spots = st.lists(
    st.tuples(st.integers(-500, 500), st.integers(-500, 500)).filter(lambda p: p != (0, 0)),
    min_size=2,
    max_size=7,
    unique=True,
)


@st.composite
def races(draw: Any) -> Case:
    points = draw(spots)
    chairs = list(range(1, len(points) + 1))
    positions = dict(zip(chairs, points, strict=True))
    blocked = frozenset(draw(st.lists(st.sampled_from(chairs), max_size=2)))
    n = draw(st.integers(1, 6))
    runners = []
    for seat in range(n):
        start = draw(st.sampled_from([0.0, 0.5, 1.0, 60.0, 120.0]))
        order = draw(st.lists(st.sampled_from(chairs), unique=True, max_size=4))
        runners.append((seat, start, tuple(order)))
    limit = draw(st.sampled_from([50.0, 200.0, 600.0]))
    return positions, blocked, runners, limit


@settings(max_examples=100, deadline=None)
@given(races())
def test_race_matches_the_reference(case: Case) -> None:
    positions, blocked, runners, limit = case
    runs = resolve_race(positions, blocked, runners, speed=5.0, time_limit=limit)
    expected = reference_race(positions, blocked, runners, 5.0, limit)
    got = {r.seat: (r.chair, [(leg.chair, leg.result) for leg in r.legs]) for r in runs}
    assert got == expected


@settings(max_examples=100, deadline=None)
@given(races())
def test_race_invariants(case: Case) -> None:
    positions, blocked, runners, limit = case
    runs = resolve_race(positions, blocked, runners, speed=5.0, time_limit=limit)
    seated = [r.chair for r in runs if r.chair is not None]
    assert len(seated) == len(set(seated))  # a chair holds one person
    assert not set(seated) & blocked  # nobody sits on a blocked chair
    for run, (_, start, order) in zip(runs, runners, strict=True):
        assert [leg.chair for leg in run.legs] == [
            c for c in order if c in {leg.chair for leg in run.legs}
        ]
        assert all(start <= leg.time <= limit for leg in run.legs)
        if run.chair is not None:
            assert run.legs[-1].result == "seated" and run.legs[-1].chair == run.chair
