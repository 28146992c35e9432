"""Schedule properties of every format (docs/tournaments.md, "Formats"), as property tests."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from dennou.arena.schedule import (
    MatchResult,
    games_per_round,
    round_robin_round,
    scheduled,
    swiss_schedule,
    total_matches,
)

from .conftest import config


@st.composite
def groups(draw: st.DrawFn) -> tuple[int, int]:
    n = draw(st.integers(2, 8))
    k = draw(st.integers(2, min(n, 5)))
    return n, k


@settings(max_examples=60, deadline=None)
@given(groups(), st.integers(1, 3), st.integers(0, 2**32), st.booleans())
def test_round_robin_every_pair_meets_equally_often_and_every_seat_is_balanced(
    nk: tuple[int, int], rounds: int, seed: int, duplicate: bool
) -> None:
    n, k = nk
    conf = config(n, k, rounds=rounds, seed=seed, duplicate=duplicate)
    matches = scheduled(conf, [])
    assert len(matches) == total_matches(conf) == rounds * math.comb(n, k) * k
    assert [m.id for m in matches] == list(range(len(matches)))
    meets: Counter[tuple[int, int]] = Counter()
    seats: Counter[tuple[int, int]] = Counter()
    for m in matches:
        assert len(set(m.seats)) == k, "an entrant sits once per match"
        for a, b in itertools.combinations(sorted(m.seats), 2):
            meets[(a, b)] += 1
        for s, e in enumerate(m.seats):
            seats[(e, s)] += 1
    # every pair: C(n-2, k-2) groups a round, k rotations each
    assert set(meets) == set(itertools.combinations(range(n), 2))
    assert set(meets.values()) == {rounds * math.comb(n - 2, k - 2) * k}
    # every entrant in every seat: C(n-1, k-1) groups a round, once each
    assert set(seats) == {(e, s) for e in range(n) for s in range(k)}
    assert set(seats.values()) == {rounds * math.comb(n - 1, k - 1)}


@settings(max_examples=40, deadline=None)
@given(groups(), st.integers(0, 2**32), st.booleans())
def test_duplicate_groups_share_one_seed_and_rotate_the_seats(
    nk: tuple[int, int], seed: int, duplicate: bool
) -> None:
    n, k = nk
    conf = config(n, k, seed=seed, duplicate=duplicate)
    by_group: dict[tuple[int, int], list[tuple[int, ...]]] = {}
    seeds: dict[tuple[int, int], set[int]] = {}
    for m in round_robin_round(conf, 0):
        by_group.setdefault((m.round, m.group), []).append(m.seats)
        seeds.setdefault((m.round, m.group), set()).add(m.seed)
    for key, seatings in by_group.items():
        assert len(seatings) == k
        first = seatings[0]
        for turn, seating in enumerate(seatings):
            assert seating == tuple(first[(s + turn) % k] for s in range(k))
        # duplicate: one deal for the whole group; otherwise every match its own
        assert len(seeds[key]) == (1 if duplicate else k)
    all_seeds = [s for group in seeds.values() for s in group]
    assert len(set(all_seeds)) == len(all_seeds), "groups never share a deal"


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 6), st.integers(0, 2**32))
def test_round_robin_schedule_is_a_function_of_the_seed(n: int, seed: int) -> None:
    a = scheduled(config(n, 2, rounds=2, seed=seed), [])
    b = scheduled(config(n, 2, rounds=2, seed=seed), [])
    assert a == b
    c = scheduled(config(n, 2, rounds=2, seed=seed + 1), [])
    assert [m.seed for m in a] != [m.seed for m in c]


def play_swiss(n: int, rounds: int, seed: int, duplicate: bool = False) -> list[MatchResult]:
    """Play a Swiss tournament with random results (draws included), round by round."""
    conf = config(n, 2, fmt="swiss", rounds=rounds, seed=seed, duplicate=duplicate)
    rng = random.Random(seed)
    results: list[MatchResult] = []
    while True:
        finished = {r.match for r in results}
        todo = [m for m in scheduled(conf, results) if m.id not in finished]
        if not todo:
            return results
        for m in todo:
            ranks = rng.choice([(1, 2), (2, 1), (1, 1)])
            scores = tuple(1.0 if r == 1 else 0.0 for r in ranks)
            results.append(MatchResult(m.id, m.round, m.seats, m.seed, scores, ranks, (0, 0), 1))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 11), st.integers(1, 6), st.integers(0, 2**32))
def test_swiss_rounds_pair_everyone_once_without_rematches_while_possible(
    n: int, rounds: int, seed: int
) -> None:
    conf = config(n, 2, fmt="swiss", rounds=rounds, seed=seed)
    results = play_swiss(n, rounds, seed)
    assert len(results) == total_matches(conf) == rounds * games_per_round(conf)
    plan = swiss_schedule(conf, results)
    assert len(plan) == rounds
    met: set[tuple[int, ...]] = set()
    byes: list[int] = []
    for rnd, sr in enumerate(plan):
        pairs = [tuple(sorted(m.seats)) for m in sr.matches]
        # a pairing plays both seatings
        for i in range(0, len(sr.matches), 2):
            a, b = sr.matches[i], sr.matches[i + 1]
            assert a.seats == b.seats[::-1] and a.group == b.group
        players = [e for m in sr.matches[::2] for e in m.seats]
        assert sorted(players + ([sr.bye] if sr.bye is not None else [])) == list(range(n))
        assert (sr.bye is not None) == (n % 2 == 1)
        fresh = [p for p in pairs[::2] if p not in met]
        if rnd < n // 2:
            # each has met at most rnd others, so the graph of pairs not yet met has minimum
            # degree >= half the field (Dirac): a fresh perfect pairing exists and must be found
            assert len(fresh) == len(pairs[::2]), f"round {rnd} repeats a pairing"
        met.update(pairs)
        if sr.bye is not None:
            byes.append(sr.bye)
    assert len(set(byes[:n])) == len(byes[:n]), "a second bye before everyone had one"


def test_swiss_pairs_winners_with_winners() -> None:
    # round 0: four pairings, each won twice by one side; round 1 must pair the four 2-0
    # winners among themselves and the four 0-2 losers among themselves (no rematch needed)
    conf = config(8, 2, fmt="swiss", rounds=2, seed=5)
    round0 = swiss_schedule(conf, [])[0].matches
    results = []
    for m in round0:
        winner = min(m.seats)
        ranks = tuple(1 if e == winner else 2 for e in m.seats)
        scores = tuple(1.0 if r == 1 else 0.0 for r in ranks)
        results.append(MatchResult(m.id, 0, m.seats, m.seed, scores, ranks, (0, 0), 1))
    winners = {min(m.seats) for m in round0}
    round1 = swiss_schedule(conf, results)[1].matches
    for m in round1:
        a, b = m.seats
        assert (a in winners) == (b in winners), f"{a} and {b} have different points"
        assert (min(a, b), max(a, b)) not in {tuple(sorted(r.seats)) for r in results}


def test_swiss_same_results_in_any_order_give_the_same_pairings() -> None:
    conf = config(7, 2, fmt="swiss", rounds=4, seed=11)
    results = play_swiss(7, 4, 11)
    shuffled = list(results)
    random.Random(1).shuffle(shuffled)
    assert swiss_schedule(conf, results) == swiss_schedule(conf, shuffled)
