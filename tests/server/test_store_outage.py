"""The store fails for a while under a running table: the table waits for it and goes on by
itself once it is back (docs/security.md, "What the host promises")."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

from dennou.core import record as rec
from dennou.games import REGISTRY
from dennou.server.testing import (
    ServerProcess,
    drop_postgres_database,
    fresh_postgres_database,
    postgres_url,
)


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
    goes on by itself once it is back (no restart), and its record has every version once."""
    url = postgres_url()
    assert url is not None
    fresh, name = fresh_postgres_database(url)
    server = ServerProcess(tmp_path / "data", db=fresh)
    admin = sa.create_engine(fresh.replace("postgresql://", "postgresql+psycopg://"))
    try:
        server.start()
        token = server.register("ann")
        created = httpx.post(
            server.http + "/api/tables",
            json={"game": "daifugo", "rules": {"games": 30}, "seats": ["bot:greedy"] * 5},
            headers={"authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert created.status_code in (200, 201), created.text
        table = created.json()["id"]
        _until(lambda: _info(server, table)["version"] > 20, 60)
        with admin.begin() as conn:
            conn.execute(sa.text("ALTER TABLE steps RENAME TO steps_away"))
        time.sleep(0.5)
        stuck = _info(server, table)
        assert stuck["status"] == "playing", stuck  # the outage came mid-set
        time.sleep(2.5)
        assert _info(server, table)["version"] == stuck["version"]  # nothing half-applied
        log = server.log.read_text(errors="replace")
        waiting = [
            line for line in log.splitlines() if table in line and "waits for the store" in line
        ]
        assert len(waiting) == 1, log[-3000:]  # one line, not one per retry
        with admin.begin() as conn:
            conn.execute(sa.text("ALTER TABLE steps_away RENAME TO steps"))
        _until(lambda: _info(server, table)["status"] == "finished", 120)
        log = server.log.read_text(errors="replace")
        back = [line for line in log.splitlines() if table in line and "the store is back" in line]
        assert len(back) == 1, log[-3000:]
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
        assert len(end["outcome"]["detail"]["games"]) == 30
    finally:
        server.stop()
        admin.dispose()
        drop_postgres_database(url, name)
