"""Tournament and rating tables on SQLite and a real PostgreSQL (migration 0002)."""

from __future__ import annotations

import time

import pytest
import sqlalchemy as sa

from dennou.store import Store
from dennou.store.tournaments import (
    RatingRow,
    TournamentRow,
    TournamentStore,
    rated_tables,
    ratings,
    tournament_matches,
    tournaments,
)


def test_migration_creates_exactly_the_tournament_tables(store: Store) -> None:
    inspector = sa.inspect(store.engine)
    for table in (tournaments, tournament_matches, ratings, rated_tables):
        assert {c["name"] for c in inspector.get_columns(table.name)} == set(table.columns.keys())


def test_tournaments_and_matches_round_trip(store: Store) -> None:
    db = TournamentStore(store)
    row = TournamentRow(
        id="u1",
        game="daifugo",
        owner="olga",
        status="created",
        config={"game": "daifugo", "entrants": []},
        options={"tables": 2},
        seed=2**63 - 1,  # the largest seed the server draws
        created_at=time.time(),
    )
    db.create(row)
    db.update("u1", status="running", started_at=1.0)
    got = db.get("u1")
    assert got is not None and got.status == "running" and got.seed == 2**63 - 1
    assert [r.id for r in db.all(["running"])] == ["u1"] and db.all(["finished"]) == []
    db.add_match("u1", 1, "tb")
    db.add_match("u1", 0, "ta")
    db.finish_match("u1", 0, {"match": 0, "ranks": [1, 2]})
    matches = db.matches("u1")
    assert [(m.match, m.table_id) for m in matches] == [(0, "ta"), (1, "tb")]
    assert matches[0].result == {"match": 0, "ranks": [1, 2]} and matches[1].result is None
    with pytest.raises(sa.exc.IntegrityError):
        db.add_match("u1", 0, "tc")  # a match never gets a second table


def test_a_table_is_rated_once(store: Store) -> None:
    db = TournamentStore(store)
    calls: list[dict[str, RatingRow]] = []

    def update(current: dict[str, RatingRow]) -> dict[str, RatingRow]:
        calls.append(dict(current))
        return {p: (current.get(p, (25.0, 8.0, 0))[0] + 1, 7.0, 1) for p in ("a", "b")}

    assert db.rate_table("t1", "numeron", "default", ["a", "b"], update)
    assert not db.rate_table("t1", "numeron", "default", ["a", "b"], update)
    assert db.rate_table("t2", "numeron", "default", ["a", "b"], update)
    assert calls == [{}, {"a": (26.0, 7.0, 1), "b": (26.0, 7.0, 1)}]
    assert db.is_rated("t1") and not db.is_rated("t3")
    board = db.leaderboard("numeron")
    assert sorted(board["default"]) == [("a", 27.0, 7.0, 1), ("b", 27.0, 7.0, 1)]
    assert db.leaderboard("numeron", "digits=4") == {}

    def broken(current: dict[str, RatingRow]) -> dict[str, RatingRow]:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        db.rate_table("t4", "numeron", "default", ["a"], broken)
    assert not db.is_rated("t4"), "a failed update leaves no mark"
