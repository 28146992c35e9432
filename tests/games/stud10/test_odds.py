"""Odds from face-up cards (rules: docs/games/stud10.md, Odds)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dennou.games.stud10 import evaluate, odds, odds_command
from dennou.games.stud10.odds import completions

# Late in a hand: few hole cards left, so exact enumeration is cheap.
LATE = [
    ["As", "Kd", "Qh", "Jc", "9s", "2s", "3s", "4d", "5d"],
    ["2c", "2d", "7h", "8s", "9d", "6h", "6c", "6d", "8c"],
    ["Ah", "Ad", "3c", "4c", "5c", "Jh", "Qc", "8d", "7c"],
    ["Ks", "Kh", "Kc", "6s", "Js", "Qs", "Ts", "9c", "8h"],
    ["Tc", "Td", "Th", "3h", "4h", "5h", "7s", "7d"],
]


def brute_force(face_up: list[list[str]]) -> list[float]:
    """Every placement of the unseen cards, plainly (the oracle for small cases)."""
    seen = {c for p in face_up for c in p}
    unseen = [r + s for r in "23456789TJQKA" for s in "cdhs" if r + s not in seen]
    holes = [10 - len(p) for p in face_up]
    wins = [0.0] * len(face_up)
    total = 0

    def place(i: int, pool: list[str], hands: list[list[str]]) -> None:
        nonlocal total
        if i == len(face_up):
            scores = [evaluate(h) for h in hands]
            best = max(scores)
            tied = [s for s, x in enumerate(scores) if x == best]
            for s in tied:
                wins[s] += 1 / len(tied)
            total += 1
            return
        for combo in itertools.combinations(pool, holes[i]):
            rest = [c for c in pool if c not in combo]
            place(i + 1, rest, [*hands, [*face_up[i], *combo]])

    place(0, unseen, [])
    return [w / total for w in wins]


def test_exact_matches_brute_force() -> None:
    late = [LATE[0][:8], LATE[1], LATE[2], LATE[3] + ["2h"], LATE[4] + ["Ac"]]
    got = odds(late)
    assert got.method == "exact"
    assert got.samples == got.completions == completions([2, 1, 1, 0, 1], 52 - 45)
    assert got.win == pytest.approx(brute_force(late))
    assert sum(got.win) == pytest.approx(1.0)


@pytest.mark.parametrize("seed", [1, 2])
def test_exact_and_monte_carlo_agree_within_4_se(seed: int) -> None:
    exact = odds(LATE)
    mc = odds(LATE, exact_limit=0, samples=50_000, seed=seed)
    assert exact.method == "exact" and mc.method == "monte_carlo"
    assert mc.samples == 50_000 and mc.completions == exact.completions
    assert sum(mc.win) == pytest.approx(1.0)
    for e, m, se in zip(exact.win, mc.win, mc.se, strict=True):
        assert abs(e - m) <= 4 * se + 1e-12


def test_exact_and_monte_carlo_agree_mid_hand() -> None:
    mid = [LATE[0][:8], LATE[1][:8], LATE[2], LATE[3], LATE[4]]
    exact = odds(mid)
    assert exact.method == "exact" and exact.completions == 226_800
    mc = odds(mid, exact_limit=0, samples=40_000, seed=5)
    for e, m, se in zip(exact.win, mc.win, mc.se, strict=True):
        assert abs(e - m) <= 4 * se + 1e-12


def test_hand_checked_positions() -> None:
    # Everything up: the best hand wins for sure.
    final = [
        ["As", "Ks", "Qs", "Js", "Ts", "2c", "3c", "4c", "5c", "7d"],
        ["Ah", "Kh", "Qh", "Jh", "9h", "2d", "3d", "4d", "5d", "7c"],
    ]
    assert odds(final).win == (1.0, 0.0)
    # A royal flush face up cannot lose and can only tie another royal flush: here impossible
    # (player 1 shows the ace of hearts and the ace of diamonds, so no other royal remains
    # except in clubs and player 1 has 5 hole cards...). One hole card each, hand checked:
    # player 1 shows four hearts to the king and needs the Ah among the 3 unseen cards to tie.
    pos = [
        ["As", "Ks", "Qs", "Js", "Ts", "2c", "3c", "4c", "5c"],
        ["Kh", "Qh", "Jh", "Th", "2d", "3d", "4d", "5d", "7c"],
    ]
    # unseen: 52 - 18 = 34 cards; player 1 ties only with the Ah (a royal): P = 1/34, half pot.
    got = odds(pos)
    assert got.method == "exact"
    assert got.win[1] == pytest.approx(0.5 / 34)
    assert got.win[0] == pytest.approx(1 - 0.5 / 34)


def test_opening_position_monte_carlo() -> None:
    opening = [
        ["As", "Kd", "Qh", "Jc", "9s"],
        ["2c", "2d", "7h", "8s", "9d"],
        ["Ah", "Ad", "3c", "4c", "5c"],
        ["Ks", "Kh", "Kc", "6d", "6s"],
        ["Tc", "Td", "Th", "3s", "4s"],
    ]
    got = odds(opening, samples=20_000, seed=1)
    assert got.method == "monte_carlo" and got.samples == 20_000
    assert got.completions > 10**17
    assert sum(got.win) == pytest.approx(1.0)
    assert max(got.win) == got.win[3]  # the full house leads
    assert all(0 < se < 0.01 for se in got.se)
    assert odds(opening, samples=20_000, seed=1) == got


def test_odds_command_text() -> None:
    text = odds_command("As Kd Qh Jc 9s|2c 2d 7h 8s 9d|Ah Ad 3c 4c 5c", samples=2000, seed=1)
    assert "Monte Carlo: 2,000 deals" in text
    assert "one pair, aces" in text
    assert len(text.splitlines()) == 5


@pytest.mark.parametrize(
    "face_up",
    [
        [["As", "Kd", "Qh", "Jc", "9s"]],
        [["As", "Kd", "Qh", "Jc", "9s"], ["As", "2d", "3h", "4c", "5s"]],
        [["As", "Kd", "Qh", "Jc"], ["2c", "2d", "3h", "4c", "5s"]],
        [["As", "Kd", "Qh", "Jc", "xx"], ["2c", "2d", "3h", "4c", "5s"]],
    ],
)
def test_bad_positions_raise(face_up: list[list[str]]) -> None:
    with pytest.raises(ValueError):
        odds(face_up)


@settings(max_examples=25, deadline=None)
@given(st.permutations(list(range(52))), st.lists(st.integers(0, 1), min_size=5, max_size=5))
def test_property_exact_equals_brute_force_late(deck: list[int], holes: list[int]) -> None:
    """Odds: exact enumeration is every placement of the unseen cards, ties as shares."""
    cards = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    face_up = [[cards[c] for c in deck[10 * i : 10 * i + 10 - holes[i]]] for i in range(5)]
    got = odds(face_up)
    assert got.method == "exact"
    assert sum(got.win) == pytest.approx(1.0)
    assert got.win == pytest.approx(brute_force(face_up))


@settings(max_examples=10, deadline=None)
@given(st.permutations(list(range(52))), st.integers(2, 5), st.integers(0, 1000))
def test_property_monte_carlo_sums_to_one(deck: list[int], players: int, seed: int) -> None:
    cards = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    face_up = [[cards[c] for c in deck[10 * i : 10 * i + 5]] for i in range(players)]
    got = odds(face_up, samples=500, exact_limit=0, seed=seed)
    assert got.method == "monte_carlo" and got.samples == 500
    assert sum(got.win) == pytest.approx(1.0)
    assert all(0 <= w <= 1 for w in got.win) and all(se >= 0 for se in got.se)
