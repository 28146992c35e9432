"""The store fails for a while under a running table: the table waits for it and goes on by
itself once it is back (docs/security.md, "What the host promises")."""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from dennou.core import record as rec
from dennou.games import REGISTRY
from dennou.server.hub import Hub
from dennou.server.testing import (
    ServerProcess,
    drop_postgres_database,
    fresh_postgres_database,
    postgres_url,
)
from dennou.store import AsyncStore, Store, database_url


def _info(server: ServerProcess, table: str) -> dict[str, Any]:
    found: dict[str, Any] = httpx.get(f"{server.http}/api/tables/{table}", timeout=10).json()
    return found


def _until(check: Any, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_bots_only_table_waits_out_a_store_failure_and_finishes_by_itself(
    tmp_path: Path,
) -> None:
    """The steps table vanishes for 3 s mid-set: the table logs once that it waits for the store,
    goes on by itself once it is back (no restart), and its record has every version once. A
    table of bots made during the outage (its deal cannot be written) starts by itself too."""
    url = postgres_url()
    assert url is not None
    fresh, name = fresh_postgres_database(url)
    server = ServerProcess(tmp_path / "data", db=fresh)
    admin = sa.create_engine(fresh.replace("postgresql://", "postgresql+psycopg://"))
    try:
        server.start()
        token = server.register("ann")

        def bots_table(games: int) -> str:
            created = httpx.post(
                server.http + "/api/tables",
                json={"game": "daifugo", "rules": {"games": games}, "seats": ["bot:greedy"] * 5},
                headers={"authorization": f"Bearer {token}"},
                timeout=10,
            )
            assert created.status_code in (200, 201), created.text
            return str(created.json()["id"])

        table = bots_table(15)
        _until(lambda: _info(server, table)["version"] > 20, 60)
        with admin.begin() as conn:
            conn.execute(sa.text("ALTER TABLE steps RENAME TO steps_away"))
        second = bots_table(1)  # its first step (the deal) cannot be written

        def lines(table: str, text: str) -> list[str]:
            log = server.log.read_text(errors="replace").splitlines()
            return [line for line in log if table in line and text in line]

        _until(lambda: all(lines(t, "waits for the store") for t in (table, second)), 30)
        stuck = _info(server, table)
        assert stuck["status"] == "playing", stuck  # the outage came mid-set
        time.sleep(2.5)  # several tries (0.1 s, 0.2 s, 0.4 s ...), all refused
        assert _info(server, table)["version"] == stuck["version"]  # nothing half-applied
        assert _info(server, second)["version"] == 0
        for t in (table, second):
            assert len(lines(t, "waits for the store")) == 1  # one line, not one per try
        with admin.begin() as conn:
            conn.execute(sa.text("ALTER TABLE steps_away RENAME TO steps"))
        _until(lambda: _info(server, table)["status"] == "finished", 120)
        _until(lambda: _info(server, second)["status"] == "finished", 60)
        for t in (table, second):
            assert len(lines(t, "the store is back")) == 1, lines(t, "")
        end = _info(server, table)
        with admin.begin() as conn:
            stored = [
                int(i)
                for (i,) in conn.execute(
                    sa.text("SELECT idx FROM steps WHERE table_id = :t ORDER BY idx"), {"t": table}
                )
            ]
        assert stored == list(range(end["version"]))  # no gap, no duplicate
        reply = httpx.get(f"{server.http}/api/tables/{table}/record", timeout=30)
        [record] = rec.loads(reply.text)
        game = REGISTRY["daifugo"]
        assert game.is_over(list(rec.replay(record, game))[-1].state)
        assert len(end["outcome"]["detail"]["games"]) == 15
    finally:
        server.stop()
        admin.dispose()
        drop_postgres_database(url, name)


def test_a_log_line_the_full_disk_cannot_take_is_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log on the full disk too (``/dev/full`` answers every write with ENOSPC): the line is
    lost, and whoever logged it (a table saying it waits for the store) goes on."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    store = AsyncStore(Store(database_url(None, str(tmp_path))), threaded=False)
    try:
        hub = Hub(store)
        full = open("/dev/full", "w")  # noqa: SIM115 - its close fails too (the line is kept)
        monkeypatch.setattr(sys, "stderr", full)
        hub.log("table t1 waits for the store")  # not raised
        hub.log("table t1: the store is back")
        monkeypatch.undo()
        with contextlib.suppress(OSError):
            full.close()
    finally:
        store.close()
