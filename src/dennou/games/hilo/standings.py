"""Final standings of a Star Hi-Lo series (rules 5.1): game stars, half stars from the account.

Every full ``half_star_points`` (25) account points give half a star and leave the account for
ranking: ``k = floor(max(account, 0) / 25)``, ``stars_total = game_stars + k / 2``,
``points_left = account - 25 k``. A player who reached the series' star goal (3 game stars)
ranks first; then ``stars_total``, then ``points_left``, both descending. Players equal on all
three share a rank (competition ranking: 1, 2, 2, 4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Row = tuple[str, int, int]
"""``(name, game_stars, account_points)``."""


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings.

    Attributes:
        name: The player.
        rank: 1 for the best; equal players share a rank (1, 2, 2, 4).
        game_stars: Stars won by checks.
        account: Account points before conversion.
        half_stars: Half stars bought by the account (``k``).
        stars_total: ``game_stars + half_stars / 2``.
        points_left: ``account - half_star_points * half_stars``.
        reached: Whether the player reached the star goal with game stars.
    """

    name: str
    rank: int
    game_stars: int
    account: int
    half_stars: int
    stars_total: float
    points_left: int
    reached: bool

    def key(self) -> tuple[bool, float, int]:
        """What the ranking compares, best highest."""
        return (self.reached, self.stars_total, self.points_left)


def full_standings(
    rows: Sequence[Row], *, stars_to_win: int = 3, half_star_points: int = 25
) -> list[Standing]:
    """The full standings, best first; tied players keep their order in ``rows``.

    Args:
        rows: ``(name, game_stars, account_points)`` per player.
        stars_to_win: Game stars that rank a player first (rules 5.1: 3).
        half_star_points: Account points per half star (rules 5.1: 25).
    """
    lines = []
    for name, game_stars, account in rows:
        k = max(account, 0) // half_star_points
        lines.append(
            Standing(
                name=name,
                rank=0,
                game_stars=game_stars,
                account=account,
                half_stars=k,
                stars_total=game_stars + k / 2,
                points_left=account - half_star_points * k,
                reached=game_stars >= stars_to_win,
            )
        )
    keys = [line.key() for line in lines]
    ranked = [
        Standing(**{**line.__dict__, "rank": 1 + sum(1 for other in keys if other > line.key())})
        for line in lines
    ]
    order = sorted(range(len(ranked)), key=lambda i: (ranked[i].rank, i))
    return [ranked[i] for i in order]


def standings(
    rows: Sequence[Row], *, stars_to_win: int = 3, half_star_points: int = 25
) -> list[str]:
    """The names in rank order (rules 5.1).

    Players sharing a rank appear next to each other in the order of ``rows``; use
    :func:`ranked` to see which ranks are shared.

    >>> standings([("player1", 3, 10), ("player2", 1, 3), ("player3", 2, 35),
    ...            ("player4", 2, 67), ("player5", 0, 55)])
    ['player1', 'player4', 'player3', 'player5', 'player2']
    """
    return [
        s.name
        for s in full_standings(rows, stars_to_win=stars_to_win, half_star_points=half_star_points)
    ]


def ranked(
    rows: Sequence[Row], *, stars_to_win: int = 3, half_star_points: int = 25
) -> list[tuple[str, int]]:
    """``(name, rank)`` in rank order; equal players share a rank (1, 2, 2, 4).

    >>> ranked([("a", 1, 30), ("b", 1, 30), ("c", 0, 0)])
    [('a', 1), ('b', 1), ('c', 3)]
    """
    return [
        (s.name, s.rank)
        for s in full_standings(rows, stars_to_win=stars_to_win, half_star_points=half_star_points)
    ]
