"""The host's tournaments and leaderboards in the store.

Five tables (created by migrations ``0003`` and ``0006``; ``tests/store`` checks they match this
metadata):

- ``tournaments``: one row per tournament: its owner, status, configuration and host options,
  and its seed (drawn by the server; published only once the tournament is over);
- ``tournament_matches``: one row per match given a table: the table's id is chosen and stored
  *before* the table is created, so a restart finds a missing table and creates it, never a
  second one; ``result`` is set when the table has finished;
- ``ratings``: the leaderboard: μ, σ and rated games per game, rules preset and player;
- ``rated_tables``: the tables whose result has been rated, so that no table counts twice;
- ``rating_history``: each player's rating after each table that moved it (a player's chart).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
import sqlalchemy as sa

from dennou.store.schema import metadata
from dennou.store.store import Store

tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("owner", sa.String(64), nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("config", sa.JSON, nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("started_at", sa.Float, nullable=True),
    sa.Column("finished_at", sa.Float, nullable=True),
)
"""Tournaments: ``created`` -> ``running`` <-> ``paused`` -> ``finished`` (or ``cancelled``)."""

tournament_matches = sa.Table(
    "tournament_matches",
    metadata,
    sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("match", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("table_id", sa.String(32), nullable=False),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("finished_at", sa.Float, nullable=True),
)
"""The matches of a tournament that have a table, and their results once finished."""

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("game", sa.String(64), primary_key=True),
    sa.Column("preset", sa.String(255), primary_key=True),
    sa.Column("player", sa.String(96), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)
"""The leaderboards: one rating per game, rules preset and player (``bot:<spec>`` for bots)."""

rated_tables = sa.Table(
    "rated_tables",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("preset", sa.String(255), nullable=False),
    sa.Column("rated_at", sa.Float, nullable=False),
)
"""Tables already rated (a table's result moves the leaderboard once)."""

rating_history = sa.Table(
    "rating_history",
    metadata,
    sa.Column("player", sa.String(96), primary_key=True),
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("preset", sa.String(255), nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("rated_at", sa.Float, nullable=False, index=True),
)
"""A player's rating just after each table that moved it, written with the move itself."""


class TournamentRow(msgspec.Struct):
    """A stored tournament (see :data:`tournaments`)."""

    id: str
    game: str
    owner: str
    status: str
    config: dict[str, Any]
    options: dict[str, Any]
    seed: int
    created_at: float
    started_at: float | None = None
    finished_at: float | None = None


class MatchRow(msgspec.Struct):
    """A tournament match that has a table (see :data:`tournament_matches`)."""

    tournament_id: str
    match: int
    table_id: str
    result: dict[str, Any] | None = None
    finished_at: float | None = None


RatingRow = tuple[float, float, int]
"""``(mu, sigma, games)``."""


class RatingPoint(msgspec.Struct):
    """A player's rating just after one rated table (see :data:`rating_history`)."""

    game: str
    preset: str
    table_id: str
    mu: float
    sigma: float
    games: int
    rated_at: float


class TournamentStore:
    """Tournament and rating queries on a :class:`~dennou.store.Store`.

    The same engine and the same thread rules: the server calls these through its
    ``AsyncStore``.

    Args:
        store: The store.
    """

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    # --- tournaments ----------------------------------------------------------------------
    def create(self, row: TournamentRow) -> None:
        """Insert a tournament."""
        with self.engine.begin() as conn:
            conn.execute(tournaments.insert().values(**msgspec.structs.asdict(row)))

    def update(self, tournament_id: str, **fields: Any) -> None:
        """Update some columns of a tournament."""
        with self.engine.begin() as conn:
            conn.execute(
                tournaments.update().where(tournaments.c.id == tournament_id).values(**fields)
            )

    def get(self, tournament_id: str) -> TournamentRow | None:
        """A tournament by id, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(tournaments).where(tournaments.c.id == tournament_id)
            ).first()
        return None if row is None else TournamentRow(**row._asdict())

    def all(self, statuses: Sequence[str] | None = None, limit: int = 200) -> list[TournamentRow]:
        """Tournaments, newest first."""
        query = sa.select(tournaments).order_by(tournaments.c.created_at.desc()).limit(limit)
        if statuses is not None:
            query = query.where(tournaments.c.status.in_(list(statuses)))
        with self.engine.connect() as conn:
            return [TournamentRow(**r._asdict()) for r in conn.execute(query)]

    # --- matches --------------------------------------------------------------------------
    def add_match(self, tournament_id: str, match: int, table_id: str) -> None:
        """Note that ``match`` is played at ``table_id`` (before the table is created)."""
        with self.engine.begin() as conn:
            conn.execute(
                tournament_matches.insert().values(
                    tournament_id=tournament_id, match=match, table_id=table_id
                )
            )

    def finish_match(self, tournament_id: str, match: int, result: dict[str, Any]) -> None:
        """Store a match's result."""
        tm = tournament_matches
        with self.engine.begin() as conn:
            conn.execute(
                tm.update()
                .where((tm.c.tournament_id == tournament_id) & (tm.c.match == match))
                .values(result=result, finished_at=time.time())
            )

    def matches(self, tournament_id: str) -> list[MatchRow]:
        """Every match of a tournament that has a table, in match order."""
        tm = tournament_matches
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(tm).where(tm.c.tournament_id == tournament_id).order_by(tm.c.match)
            )
            return [MatchRow(**r._asdict()) for r in rows]

    # --- ratings --------------------------------------------------------------------------
    def rate_table(
        self,
        table_id: str,
        game: str,
        preset: str,
        players: Sequence[str],
        update: Callable[[dict[str, RatingRow]], dict[str, RatingRow]],
    ) -> bool:
        """Rate one finished table, once: read the players' ratings, ``update`` them, write.

        All in one transaction with the table's mark, so a table is rated exactly once even
        if the server dies in the middle. Returns whether it was rated now (``False``: it had
        been already).
        """
        with self.engine.begin() as conn:
            done = conn.execute(
                sa.select(rated_tables.c.table_id).where(rated_tables.c.table_id == table_id)
            ).first()
            if done is not None:
                return False
            where = (ratings.c.game == game) & (ratings.c.preset == preset)
            current = _ratings_of(conn, game, preset, players)
            new = update(current)
            now = time.time()
            for player, (mu, sigma, games) in new.items():
                values = {"mu": mu, "sigma": sigma, "games": games, "updated_at": now}
                if player in current:
                    conn.execute(
                        ratings.update()
                        .where(where & (ratings.c.player == player))
                        .values(**values)
                    )
                else:
                    conn.execute(
                        ratings.insert().values(game=game, preset=preset, player=player, **values)
                    )
                conn.execute(
                    rating_history.insert().values(
                        player=player,
                        table_id=table_id,
                        game=game,
                        preset=preset,
                        mu=mu,
                        sigma=sigma,
                        games=games,
                        rated_at=now,
                    )
                )
            conn.execute(
                rated_tables.insert().values(
                    table_id=table_id, game=game, preset=preset, rated_at=now
                )
            )
        return True

    def rated_among(self, table_ids: Sequence[str]) -> set[str]:
        """Which of these tables have been rated."""
        found: set[str] = set()
        with self.engine.connect() as conn:
            for start in range(0, len(table_ids), 500):
                chunk = list(table_ids[start : start + 500])
                query = sa.select(rated_tables.c.table_id).where(rated_tables.c.table_id.in_(chunk))
                found.update(row.table_id for row in conn.execute(query))
        return found

    def is_rated(self, table_id: str) -> bool:
        """Whether a table has been rated."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(rated_tables.c.table_id).where(rated_tables.c.table_id == table_id)
            ).first()
        return row is not None

    def rating_history(self, player: str, limit: int) -> list[RatingPoint]:
        """A player's ratings after each rated table, oldest first: the last ``limit`` of them."""
        h = rating_history
        query = (
            sa.select(h)
            .where(h.c.player == player)
            .order_by(h.c.rated_at.desc(), h.c.table_id.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = [
                RatingPoint(
                    game=r.game,
                    preset=r.preset,
                    table_id=r.table_id,
                    mu=r.mu,
                    sigma=r.sigma,
                    games=r.games,
                    rated_at=r.rated_at,
                )
                for r in conn.execute(query)
            ]
        rows.reverse()
        return rows

    def ratings_of(self, game: str, preset: str, players: Sequence[str]) -> dict[str, RatingRow]:
        """The current ratings of these players at one game and rules preset (unrated: absent)."""
        with self.engine.connect() as conn:
            return _ratings_of(conn, game, preset, players)

    def leaderboard(
        self, game: str, preset: str | None = None, limit: int = 1000
    ) -> dict[str, list[tuple[str, float, float, int]]]:
        """Per preset: ``(player, mu, sigma, games)`` rows (unsorted; callers sort)."""
        query = sa.select(ratings).where(ratings.c.game == game)
        if preset is not None:
            query = query.where(ratings.c.preset == preset)
        out: dict[str, list[tuple[str, float, float, int]]] = {}
        with self.engine.connect() as conn:
            for r in conn.execute(query.limit(limit)):
                out.setdefault(r.preset, []).append((r.player, r.mu, r.sigma, r.games))
        return out


def _ratings_of(
    conn: sa.Connection, game: str, preset: str, players: Sequence[str]
) -> dict[str, RatingRow]:
    """The players' ratings at one game and rules preset, read on ``conn`` (unrated: absent)."""
    where = (ratings.c.game == game) & (ratings.c.preset == preset)
    return {
        r.player: (r.mu, r.sigma, r.games)
        for r in conn.execute(sa.select(ratings).where(where & ratings.c.player.in_(list(players))))
    }


__all__ = [
    "MatchRow",
    "RatingPoint",
    "RatingRow",
    "TournamentRow",
    "TournamentStore",
    "rated_tables",
    "rating_history",
    "ratings",
    "tournament_matches",
    "tournaments",
]
