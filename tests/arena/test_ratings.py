"""Ratings: openskill's Plackett–Luce checked against the algorithm worked by hand.

Weng & Lin (2011), Algorithm 4 (Plackett–Luce), as docs/tournaments.md states it: τ is added to
every σ first; c² = Σ_teams (σ_q² + β²); for team i, with C_q = Σ_{s: r_s ≥ r_q} e^{μ_s/c} and
A_q the number of teams ranked r_q,
  Ω_i = σ_i²/c · Σ_{q: r_q ≤ r_i} (δ_iq − e^{μ_i/c}/C_q) / A_q,
  Δ_i = γ_i σ_i²/c² · Σ_{q: r_q ≤ r_i} (e^{μ_i/c}/C_q)(1 − e^{μ_i/c}/C_q) / A_q, γ_i = σ_i/c;
a member j of team i moves by μ_j += (σ_j²/σ_i²) Ω_i and σ_j *= sqrt(max(1 − (σ_j²/σ_i²) Δ_i, κ)).
A draw is a shared rank: the teams that share it each count in the other's sums through C_q and
A_q.
"""

from __future__ import annotations

import math

import pytest

from dennou.arena.ratings import Rating, Ratings, outcome_groups

MU, SIGMA, BETA, TAU, KAPPA = 25.0, 25 / 3, 25 / 6, 25 / 300, 0.0001


def by_hand(
    teams: list[list[tuple[float, float]]], ranks: list[int]
) -> list[list[tuple[float, float]]]:
    """The algorithm above, written out (players as (μ, σ))."""
    teams = [[(mu, math.sqrt(s * s + TAU * TAU)) for mu, s in t] for t in teams]
    mus = [sum(mu for mu, _ in t) for t in teams]
    s2s = [sum(s * s for _, s in t) for t in teams]
    c = math.sqrt(sum(s2 + BETA * BETA for s2 in s2s))
    k = len(teams)
    big_c = [sum(math.exp(mus[s] / c) for s in range(k) if ranks[s] >= ranks[q]) for q in range(k)]
    a = [sum(1 for s in range(k) if ranks[s] == ranks[q]) for q in range(k)]
    out = []
    for i in range(k):
        e = math.exp(mus[i] / c)
        omega = delta = 0.0
        for q in range(k):
            if ranks[q] <= ranks[i]:
                p = e / big_c[q]
                omega += ((1.0 if q == i else 0.0) - p) / a[q]
                delta += p * (1 - p) / a[q]
        omega *= s2s[i] / c
        delta *= (math.sqrt(s2s[i]) / c) * s2s[i] / c**2
        out.append(
            [
                (
                    mu + (s * s / s2s[i]) * omega,
                    s * math.sqrt(max(1 - (s * s / s2s[i]) * delta, KAPPA)),
                )
                for mu, s in teams[i]
            ]
        )
    return out


def test_two_players_one_win_matches_the_numbers_worked_by_hand() -> None:
    # equal priors: each had a 1/2 chance; c² = 2(σ² + τ² + β²) = 173.625
    s2 = SIGMA**2 + TAU**2
    c = math.sqrt(2 * (s2 + BETA**2))
    assert c == pytest.approx(13.1766840), "c"
    ratings = Ratings()
    ratings.rate([["a"], ["b"]], [1, 2])
    a, b = ratings.get("a"), ratings.get("b")
    assert a.mu == pytest.approx(25 + s2 / c * 0.5) == pytest.approx(27.6353895, abs=1e-7)
    assert b.mu == pytest.approx(25 - s2 / c * 0.5) == pytest.approx(22.3646105, abs=1e-7)
    assert a.sigma == b.sigma == pytest.approx(8.0659014, abs=1e-7)
    assert a.ordinal == pytest.approx(a.mu - 3 * a.sigma)
    assert (a.games, b.games) == (1, 1)


def test_three_players_with_a_draw_match_the_algorithm_by_hand() -> None:
    start = {"a": Rating(30.0, 6.0), "b": Rating(25.0, SIGMA), "c": Rating(20.0, 5.0)}
    ratings = Ratings(start)
    ratings.rate([["a"], ["b"], ["c"]], [2, 1, 2])  # b wins, a and c share second
    want = by_hand([[(30.0, 6.0)], [(25.0, SIGMA)], [(20.0, 5.0)]], [2, 1, 2])
    for name, ((mu, sigma),) in zip("abc", want, strict=True):
        got = ratings.get(name)
        assert got.mu == pytest.approx(mu, abs=1e-9), name
        assert got.sigma == pytest.approx(sigma, abs=1e-9), name
    # the winner gains; the favourite beaten by a weaker player loses
    assert ratings.get("b").mu > 25.0 and ratings.get("a").mu < 30.0


def test_teams_move_with_their_team_result() -> None:
    ratings = Ratings({"x": Rating(27.0, 7.0), "y": Rating(23.0, 8.0)})
    ratings.rate([["x", "y"], ["z"]], [2, 1])  # a lone player beats a pair
    want = by_hand([[(27.0, 7.0), (23.0, 8.0)], [(MU, SIGMA)]], [2, 1])
    for name, (mu, sigma) in zip("xyz", [*want[0], *want[1]], strict=True):
        got = ratings.get(name)
        assert got.mu == pytest.approx(mu, abs=1e-9), name
        assert got.sigma == pytest.approx(sigma, abs=1e-9), name
    assert ratings.get("z").mu > MU and ratings.get("x").mu < 27.0


def test_team_games_group_seats_by_team_and_rank_teams_by_result() -> None:
    groups, ranks = outcome_groups(
        ["p0", "p1", "p2", "p3"],
        [1, 4, 2, 3],
        team_of=["north", "south", "north", "south"],
        teams={"north": 0.0, "south": 1.0},
    )
    assert groups == [["p0", "p2"], ["p1", "p3"]]
    assert ranks == [2, 1]
    free, free_ranks = outcome_groups(["a", "b"], [1, 1])
    assert free == [["a"], ["b"]] and free_ranks == [1, 1]


def test_a_player_in_two_groups_is_refused() -> None:
    with pytest.raises(ValueError, match="two groups"):
        Ratings().rate([["a"], ["a"]], [1, 2])


def test_table_sorts_by_ordinal() -> None:
    ratings = Ratings()
    for _ in range(5):
        ratings.rate([["strong"], ["weak"], ["middle"]], [1, 3, 2])
    assert [n for n, _ in ratings.table()] == ["strong", "middle", "weak"]
