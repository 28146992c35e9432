"""Ratings with openskill: Plackett–Luce over a game's ranks, draws and teams handled.

Every finished match updates its players' ratings once, from the game's ranks (``Outcome.ranks``:
shared ranks are draws). In a team game (an outcome with ``teams`` and ``detail["team_of"]``) the
teams are rated by their results and each member's rating moves with its team. A rating is shown
as μ (the estimate), σ (its uncertainty) and the conservative *ordinal* μ − 3σ, which leaderboards
sort by: a player is ranked by what it has shown with high confidence.

The model is openskill's ``PlackettLuce`` with its defaults (μ 25, σ 25/3, β 25/6, τ 25/300).
Ratings depend on the order of games: a tournament rates its matches in schedule order, so the
same results give the same ratings however they arrived.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec
from openskill.models import PlackettLuce, PlackettLuceRating

Z = 3.0
"""The ordinal is μ − Z σ."""


class Rating(msgspec.Struct, frozen=True):
    """One player's rating.

    Attributes:
        mu: The skill estimate.
        sigma: Its uncertainty (one standard deviation).
        games: Rated matches played.
    """

    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate μ − 3σ."""
        return self.mu - Z * self.sigma


def model() -> PlackettLuce:
    """The rating model every dennou rating uses."""
    return PlackettLuce()


class Ratings:
    """Ratings of a set of players, updated game by game.

    Args:
        start: Ratings to start from (a stored leaderboard); others start at the model's prior.
    """

    def __init__(self, start: Mapping[str, Rating] | None = None) -> None:
        self.model = model()
        self._players: dict[str, PlackettLuceRating] = {}
        self._games: dict[str, int] = {}
        for name, rating in (start or {}).items():
            self._players[name] = self.model.rating(mu=rating.mu, sigma=rating.sigma, name=name)
            self._games[name] = rating.games

    def _get(self, name: str) -> PlackettLuceRating:
        if name not in self._players:
            self._players[name] = self.model.rating(name=name)
            self._games[name] = 0
        return self._players[name]

    def rate(self, groups: Sequence[Sequence[str]], ranks: Sequence[float]) -> None:
        """One game: ``groups`` are the teams (one name each in a free-for-all), ranks 1 best.

        Raises:
            ValueError: Groups and ranks differ in length, or a player is in two groups.
        """
        if len(groups) != len(ranks):
            raise ValueError(f"{len(groups)} groups but {len(ranks)} ranks")
        names = [n for g in groups for n in g]
        if len(set(names)) != len(names):
            raise ValueError(f"a player is in two groups: {names}")
        if len(groups) < 2:
            return  # nobody to compare with
        teams = [[self._get(n) for n in g] for g in groups]
        rated = self.model.rate(teams, ranks=[float(r) for r in ranks])  # copies, returns new
        for group, new in zip(groups, rated, strict=True):
            for n, rating in zip(group, new, strict=True):
                self._players[n] = rating
                self._games[n] += 1

    def rate_outcome(
        self,
        players: Sequence[str],
        ranks: Sequence[int],
        *,
        team_of: Sequence[str] | None = None,
        teams: Mapping[str, float] | None = None,
    ) -> None:
        """One game from its outcome: seats by rank, or teams by result in a team game."""
        groups, group_ranks = outcome_groups(players, ranks, team_of=team_of, teams=teams)
        self.rate(groups, group_ranks)

    def get(self, name: str) -> Rating:
        """A player's rating (the prior for a player never rated)."""
        r = self._get(name)
        return Rating(r.mu, r.sigma, self._games[name])

    def table(self) -> list[tuple[str, Rating]]:
        """Every player, best ordinal first (ties by name)."""
        rows = [(n, self.get(n)) for n in self._players]
        return sorted(rows, key=lambda row: (-row[1].ordinal, row[0]))

    def to_json(self) -> list[dict[str, Any]]:
        """The table as JSON rows (``name``, ``mu``, ``sigma``, ``ordinal``, ``games``)."""
        return [
            {
                "name": n,
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": r.ordinal,
                "games": r.games,
            }
            for n, r in self.table()
        ]


def outcome_groups(
    players: Sequence[str],
    ranks: Sequence[int],
    *,
    team_of: Sequence[str] | None = None,
    teams: Mapping[str, float] | None = None,
) -> tuple[list[list[str]], list[int]]:
    """The rating groups of a game and their ranks.

    A free-for-all: one group per seat with the seat's rank. A team game (``team_of`` per seat
    and ``teams`` results): one group per team, ranked by result, highest first (ties share).
    """
    if team_of is None or not teams:
        return [[p] for p in players], list(ranks)
    names = sorted({t for t in team_of if t in teams})
    groups = [[p for p, t in zip(players, team_of, strict=True) if t == name] for name in names]
    results = [teams[name] for name in names]
    group_ranks = [1 + sum(1 for other in results if other > r) for r in results]
    return groups, group_ranks


def rate_all(
    games: Iterable[tuple[Sequence[str], Sequence[int], Sequence[str] | None, Any]],
    start: Mapping[str, Rating] | None = None,
) -> Ratings:
    """Ratings after ``games`` in order: ``(players, ranks, team_of, teams)`` each."""
    ratings = Ratings(start)
    for players, ranks, team_of, teams in games:
        ratings.rate_outcome(players, ranks, team_of=team_of, teams=teams)
    return ratings


__all__ = ["Rating", "Ratings", "model", "outcome_groups", "rate_all"]
