"""Final standings (``docs/games/hilo.md``, End of the series and ranking (5))."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dennou.games.hilo import full_standings, ranked, standings

SEED_ROWS = [
    ("player1", 3, 10),
    ("player2", 1, 3),
    ("player3", 2, 35),
    ("player4", 2, 67),
    ("player5", 0, 55),
]


def test_5_1_the_seeds_worked_example() -> None:
    """rules: 5 — player1, player4, player3, player5, player2."""
    assert standings(SEED_ROWS) == ["player1", "player4", "player3", "player5", "player2"]
    lines = {s.name: s for s in full_standings(SEED_ROWS)}
    assert (lines["player4"].stars_total, lines["player4"].points_left) == (3.0, 17)
    # The rules page corrects the source: player3 keeps 35 - 25 = 10, not 15.
    assert (lines["player3"].stars_total, lines["player3"].points_left) == (2.5, 10)
    assert (lines["player5"].stars_total, lines["player5"].points_left) == (1.0, 5)
    assert (lines["player2"].stars_total, lines["player2"].points_left) == (1.0, 3)
    assert [r for _, r in ranked(SEED_ROWS)] == [1, 2, 3, 4, 5]


def test_5_1_three_game_stars_rank_first_over_more_stars_from_points() -> None:
    """rules: 5 — who reached 3 game stars is first even with fewer stars in total."""
    rows = [("rich", 2, 500), ("winner", 3, -30)]
    assert standings(rows) == ["winner", "rich"]


def test_5_1_half_stars_take_full_25s_only_and_never_from_a_negative_account() -> None:
    """rules: 5 — k = floor(max(account, 0) / 25); points_left = account - 25 k."""
    lines = {
        s.name: s for s in full_standings([("a", 0, 24), ("b", 0, 25), ("c", 0, 100), ("d", 1, -7)])
    }
    assert (lines["a"].half_stars, lines["a"].points_left) == (0, 24)
    assert (lines["b"].half_stars, lines["b"].points_left) == (1, 0)
    assert (lines["c"].stars_total, lines["c"].points_left) == (2.0, 0)
    assert (lines["d"].stars_total, lines["d"].points_left) == (1.0, -7)


def test_5_1_ties_share_a_rank() -> None:
    """rules: 5 — equal on all counts share a rank; the list keeps the rows' order for them."""
    rows = [("a", 1, 30), ("b", 0, 5), ("c", 1, 30), ("d", 2, 5), ("e", 1, 5)]
    # a and c: 1.5 stars, 5 left; e: 1 star... d: 2 stars, 5 left.
    assert ranked(rows) == [("d", 1), ("a", 2), ("c", 2), ("e", 4), ("b", 5)]
    assert standings(rows) == ["d", "a", "c", "e", "b"]
    # A game star and 50 account points are worth the same.
    assert ranked([("x", 1, 3), ("y", 0, 53)]) == [("x", 1), ("y", 1)]
    assert ranked([("p", 0, 0), ("q", 0, 0), ("r", 0, 0)]) == [("p", 1), ("q", 1), ("r", 1)]


rows_strategy = st.lists(
    st.tuples(st.integers(0, 5), st.integers(-200, 300)), min_size=1, max_size=8
).map(lambda rows: [(f"p{i}", s, a) for i, (s, a) in enumerate(rows)])


@given(rows_strategy)
def test_standings_match_a_plain_oracle(rows: list[tuple[str, int, int]]) -> None:
    """rules: 5 — against a direct reading of the rule (exact halves in integers)."""

    def key(row: tuple[str, int, int]) -> tuple[bool, int, int]:
        _, stars, account = row
        k = max(account, 0) // 25
        return (stars >= 3, 2 * stars + k, account - 25 * k)

    result = ranked(rows)
    assert sorted(n for n, _ in result) == sorted(n for n, _, _ in rows)
    by_name = {r[0]: r for r in rows}
    for name, rank in result:
        better = sum(1 for other in rows if key(other) > key(by_name[name]))
        assert rank == better + 1
    ranks = [r for _, r in result]
    assert ranks == sorted(ranks)
    assert standings(rows) == [n for n, _ in result]
