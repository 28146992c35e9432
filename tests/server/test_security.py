"""The host's security promises: each test reproduces an audit finding
against a real server on loopback and checks it does no harm. What the host promises is written
in docs/security.md."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from dennou.client import run_bot
from dennou.client.testing import HarnessBot
from dennou.core import record as rec
from dennou.games import REGISTRY
from dennou.server.hub import Hub
from dennou.server.records import REDACTED
from dennou.server.table import TableRandomness
from dennou.server.testing import (
    RawSocket,
    drop_postgres_database,
    fresh_postgres_database,
    postgres_url,
    rss_mib,
)

from .checks import quick_rules
from .conftest import WS, LiveServer, ServerProcess


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def wait_status(http: str, table: str, statuses: set[str], timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        info: dict[str, Any] = httpx.get(f"{http}/api/tables/{table}", timeout=10).json()
        if info["status"] in statuses or time.monotonic() > deadline:
            return info
        time.sleep(0.05)


def fetch_record(http: str, table: str, token: str | None = None) -> rec.Record:
    reply = httpx.get(
        f"{http}/api/tables/{table}/record", headers=auth(token) if token else None, timeout=30
    )
    assert reply.status_code == 200, reply.text
    [record] = rec.loads(reply.text)
    return record


# --- 12.1 seeds -----------------------------------------------------------------------------
def test_a_client_seed_is_refused_where_another_person_could_sit(live: LiveServer) -> None:
    """A creator who chose the seed could compute every other player's hand."""
    ann = live.connect(live.register("ann"))
    for seats in (["me", "open"], ["open", "open"], ["open", "open", "bot:random"]):
        reply = ann.request(
            {"type": "create_table", "game": "daifugo", "seats": seats, "options": {"seed": 7}}
        )
        assert reply["type"] == "error" and reply["code"] == "forbidden", reply
    assert ann.request({"type": "list_tables"})["tables"] == []  # nothing was stored


def test_a_practice_table_takes_a_seed_is_marked_and_admits_only_its_creator(
    live: LiveServer,
) -> None:
    """Bot practice may be seeded (tests, reproducible training), but nobody else sits."""
    ann, ben = live.register("ann"), live.register("ben")
    made = httpx.post(
        f"{live.http}/api/tables",
        json={"game": "numeron", "seats": ["open", "bot:random"], "options": {"seed": 7}},
        headers=auth(ann),
    )
    assert made.status_code == 201, made.text
    info = made.json()
    assert info["seeded"] is True and info["owner"] == "ann" and "seed" not in info
    taken = httpx.post(f"{live.http}/api/tables/{info['id']}/join", json={}, headers=auth(ben))
    assert taken.status_code == 403 and taken.json()["code"] == "forbidden"
    assert (
        httpx.post(
            f"{live.http}/api/tables/{info['id']}/join", json={}, headers=auth(ann)
        ).status_code
        == 200
    )
    plain = httpx.post(
        f"{live.http}/api/tables", json={"game": "numeron"}, headers=auth(ann)
    ).json()
    assert plain["seeded"] is False


def test_the_operator_seeds_any_table_and_the_seed_is_published_only_after_the_end(
    tmp_path: Path,
) -> None:
    """The host's operator (dennou serve --operator NAME) may seed a table of people; the
    seed is in the record, which exists only once the game is over."""
    server = ServerProcess(tmp_path / "data", operators=("op",))
    server.start()
    try:
        op, ann, ben = (server.register(n) for n in ("op", "ann", "ben"))
        made = httpx.post(
            f"{server.http}/api/tables",
            json={"game": "numeron", "seats": ["open", "open"], "options": {"seed": 424242}},
            headers=auth(op),
        )
        assert made.status_code == 201, made.text
        table = made.json()["id"]
        assert "424242" not in made.text
        assert httpx.get(f"{server.http}/api/tables/{table}/record").status_code == 409

        async def play() -> None:
            await asyncio.gather(
                run_bot(HarnessBot, server.ws, ann, table=table, seed=1),
                run_bot(HarnessBot, server.ws, ben, table=table, seed=2),
            )

        asyncio.run(play())
        assert fetch_record(server.http, table).seed == 424242
    finally:
        server.stop()


def test_unseeded_deals_come_from_fresh_server_randomness(live: LiveServer) -> None:
    """With no seed, two identical tables deal differently and no seed exists to leak."""
    token = live.register("ann")
    tables = []
    for _ in range(2):
        made = httpx.post(
            f"{live.http}/api/tables",
            json={
                "game": "daifugo",
                "rules": quick_rules("daifugo"),
                "seats": ["bot:random"] * 4,
            },
            headers=auth(token),
        )
        assert made.status_code == 201, made.text
        tables.append(made.json()["id"])
    records = [fetch_record_when_over(live.http, t) for t in tables]
    deals = [[s.action for s in r.steps if s.seat == -1] for r in records]
    assert deals[0][0] != deals[1][0]
    assert all(r.seed is None for r in records)
    # every draw and every bot decision: 256 fresh bits, never the same twice
    randomness = TableRandomness(None)
    assert randomness.chance(0).random() != randomness.chance(0).random()
    seeds = {randomness.bot(0, 1) for _ in range(50)}
    assert len(seeds) == 50 and max(seeds) > 2**128


def fetch_record_when_over(http: str, table: str) -> rec.Record:
    info = wait_status(http, table, {"finished", "aborted"}, timeout=120)
    assert info["status"] == "finished", info
    return fetch_record(http, table)


def test_server_side_seeds_give_duplicate_deals(live: LiveServer) -> None:
    """The tournaments' API: a seed from server-side code (never a client) gives every table
    the same deals, whoever plays and whatever happens between the deals."""
    live.register("td")

    async def create(hub: Hub, bot: str) -> str:
        from dennou.server.protocol import TableOptions

        actor, _ = await hub.create_table(
            "td", "daifugo", quick_rules("daifugo"), [f"bot:{bot}"] * 4, TableOptions(), seed=99
        )
        return actor.id

    first = live.call(lambda hub: create(hub, "random"))
    second = live.call(lambda hub: create(hub, "greedy"))
    records = [fetch_record_when_over(live.http, t) for t in (first, second)]
    deals = [[s.action for s in r.steps if s.seat == -1] for r in records]
    assert len(deals[0]) >= 2 and deals[0] == deals[1][: len(deals[0])]
    plays = [[s.action for s in r.steps if s.seat is not None and s.seat >= 0] for r in records]
    assert plays[0] != plays[1]  # different bots, different games, the same cards
    assert records[0].seed == records[1].seed == 99


# --- 12.2 HTTP bodies -----------------------------------------------------------------------
@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path / "data", limits={"body_timeout": 1.0})
    proc.start()
    yield proc
    proc.stop()


def test_a_body_announced_too_large_is_refused_before_it_is_read(server: ServerProcess) -> None:
    """A request announcing 1 GB is answered 413 at once, without waiting for the body."""
    with RawSocket(server.port) as raw:
        started = time.monotonic()
        raw.send(
            b"POST /api/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000000000\r\n\r\n{"
        )
        status, data = raw.read_response(timeout=5)
        assert status == 413 and b'"too_large"' in data
        assert time.monotonic() - started < 2


def test_a_body_that_stops_arriving_is_cut_off(server: ServerProcess) -> None:
    """A body that goes silent holds the connection only until the body deadline."""
    with RawSocket(server.port) as raw:
        started = time.monotonic()
        raw.send(b'POST /api/accounts HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"na')
        status, data = raw.read_response(timeout=10)
        assert status == 408 and b'"too_slow"' in data
        assert time.monotonic() - started < 5
        assert raw.closed_by_server(5)


def test_streamed_bodies_are_cut_at_the_limit_and_memory_stays_flat(
    server: ServerProcess,
) -> None:
    """Four 50 MB chunked uploads: each refused after 16 KiB, the server's memory flat."""
    assert server.proc is not None
    httpx.get(f"{server.http}/api/games", timeout=60)  # every game imported: not the bodies
    before = rss_mib(server.proc.pid)
    chunk = b"x" * 65536
    frame = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    for _ in range(4):
        with RawSocket(server.port, timeout=5) as raw:
            raw.send(
                b"POST /api/accounts HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                b"Content-Type: application/json\r\n\r\n"
            )
            sent = 0
            while sent < 50 << 20 and raw.send(frame):
                sent += len(chunk)
            status, _ = raw.read_response(timeout=5)
            assert status in (413, 0)  # 0: the server answered and closed before we read it
    assert rss_mib(server.proc.pid) - before < 40
    assert httpx.get(f"{server.http}/api", timeout=30).status_code == 200


# --- 12.3 slow consumers --------------------------------------------------------------------
def test_a_client_that_never_reads_is_dropped_and_its_memory_is_freed(tmp_path: Path) -> None:
    """A client asks and asks and never reads: past the byte cap it is dropped."""
    server = ServerProcess(tmp_path / "data", limits={"send_queue_bytes": 262144})
    server.start()
    try:
        assert server.proc is not None
        httpx.get(f"{server.http}/api/games", timeout=60)  # every game imported: not the queue
        before = rss_mib(server.proc.pid)
        with RawSocket(server.port, timeout=5) as raw:
            raw.websocket()
            raw.send_text(json.dumps({"type": "hello"}))
            for _ in range(3000):  # each answer is ~10 KB: 30 MB asked for, never read
                if not raw.send_text(json.dumps({"type": "list_games"})):
                    break
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                if httpx.get(f"{server.http}/api/stats", timeout=30).json()["connections"] == 0:
                    break
                time.sleep(0.1)
            assert httpx.get(f"{server.http}/api/stats", timeout=30).json()["connections"] == 0
            assert rss_mib(server.proc.pid) - before < 15  # 256 KiB queued at most, then freed
    finally:
        server.stop()


# --- 12.5 talk ------------------------------------------------------------------------------
def seated_numeron(live: LiveServer, name: str = "ann") -> tuple[WS, str]:
    ws = live.connect(live.register(name))
    table = str(
        ws.request({"type": "create_table", "game": "numeron", "seats": ["me", "bot:random"]})[
            "table"
        ]["id"]  # type: ignore[index]
    )
    ws.wait_for("turn", table=table)
    return ws, table


def test_guests_cannot_talk(live: LiveServer) -> None:
    """Talk needs an account (a guest may still watch)."""
    _, table = seated_numeron(live)
    guest = live.connect(None)
    assert guest.request({"type": "spectate", "table": table})["type"] == "joined"
    assert guest.request({"type": "talk", "table": table, "text": "hi"})["code"] == "unauthorized"


def test_talk_is_limited_per_account_across_connections(tmp_path: Path) -> None:
    """The limit follows the account, not the socket."""
    live = LiveServer(tmp_path / "data", limits={"talk_rate_account": 0.5, "talk_burst_account": 3})
    try:
        token = live.register("ann")
        ann = live.connect(token)
        table = str(
            ann.request({"type": "create_table", "game": "numeron", "seats": ["me", "bot:random"]})[
                "table"
            ]["id"]  # type: ignore[index]
        )
        ann.wait_for("turn", table=table)
        second = live.connect(token)
        second.request({"type": "join", "table": table})  # the same seat, a second connection
        codes = [
            ws.request({"type": "talk", "table": table, "text": "hello"}).get("code")
            for ws in [ann, second] * 3
        ]
        assert codes[:3] == [None, None, None] and codes[3:] == ["rate_limited"] * 3
    finally:
        live.stop()


def test_talk_is_limited_per_table(tmp_path: Path) -> None:
    """Many accounts each under their own limit still cannot flood one table."""
    live = LiveServer(tmp_path / "data", limits={"talk_rate_table": 0.5, "talk_burst_table": 4})
    try:
        _, table = seated_numeron(live)
        codes = []
        for i in range(6):
            ws = live.connect(live.register(f"fan{i}"))
            ws.request({"type": "spectate", "table": table})
            line = {"type": "talk", "table": table, "text": "go", "channel": "spectators"}
            codes.append(ws.request(line).get("code"))
        assert codes.count("rate_limited") == 2 and codes[:4] == [None] * 4
    finally:
        live.stop()


# --- 12.8 leave -----------------------------------------------------------------------------
def test_leave_by_someone_without_a_seat_takes_no_seat(live: LiveServer) -> None:
    """Leave used to seat the caller (and could start the game)."""
    ann, ben = live.register("ann"), live.register("ben")
    table = httpx.post(
        f"{live.http}/api/tables",
        json={"game": "numeron", "seats": ["open", "bot:random"]},
        headers=auth(ann),
    ).json()["id"]
    left = httpx.post(f"{live.http}/api/tables/{table}/leave", headers=auth(ben))
    assert left.status_code == 403 and left.json()["code"] == "forbidden"
    info = httpx.get(f"{live.http}/api/tables/{table}").json()
    assert info["status"] == "waiting" and [s["kind"] for s in info["seats"]] == ["open", "bot"]
    # a seat of one's own is given up as before
    two = httpx.post(
        f"{live.http}/api/tables",
        json={"game": "numeron", "seats": ["open", "open"]},
        headers=auth(ann),
    ).json()["id"]
    httpx.post(f"{live.http}/api/tables/{two}/join", json={}, headers=auth(ben))
    back = httpx.post(f"{live.http}/api/tables/{two}/leave", headers=auth(ben))
    assert back.status_code == 200 and back.json()["seats"][0]["kind"] == "open"


# --- 12.9 input details ---------------------------------------------------------------------
def test_nan_and_infinity_are_refused_and_nothing_is_stored(tmp_path: Path) -> None:
    """NaN used to be stored in a table row that then failed for ever."""
    server = ServerProcess(tmp_path / "data")
    server.start()
    try:
        token = server.register("ann")
        ws = WS(server.ws)
        ws.request({"type": "hello", "token": token})
        for bad in ("NaN", "Infinity", "-Infinity", "1e400"):
            ws.send(
                '{"type": "create_table", "game": "numeron", "options": {"time_limit": '
                + bad
                + "}}"
            )
            assert ws.wait_for("error")["code"] == "bad_message", bad
            reply = httpx.post(
                f"{server.http}/api/tables",
                content='{"game": "numeron", "rules": {"digits": ' + bad + "}}",
                headers={**auth(token), "content-type": "application/json"},
            )
            assert reply.status_code == 400 and reply.json()["code"] == "bad_message", bad
        assert ws.request({"type": "list_tables"})["tables"] == []
        ws.close()
        server.stop()
        server.start()  # starts again; nothing half-stored
        assert httpx.get(f"{server.http}/api/tables").json()["total"] == 0
    finally:
        server.stop()


def test_one_bad_row_never_stops_start_up(tmp_path: Path) -> None:
    """A table row that cannot be read is skipped (and logged); the others resume."""
    server = ServerProcess(tmp_path / "data")
    server.start()
    token = server.register("ann")
    good = httpx.post(
        f"{server.http}/api/tables", json={"game": "numeron"}, headers=auth(token)
    ).json()["id"]
    server.stop()
    db = sqlite3.connect(tmp_path / "data" / "dennou.sqlite3")
    with db:
        db.execute(
            "INSERT INTO tables (id, game, version, rules, seats, options, status, created_at) "
            "VALUES ('tbad', 'numeron', 1, '\"not rules\"', '[]', '{}', 'waiting', 1.0)"
        )
        db.execute(
            "INSERT INTO tables (id, game, version, rules, seats, options, status, created_at) "
            "VALUES ('tworse', 'numeron', 1, '{\"digits\": 99}', '[{\"kind\": \"open\"}]', '{}', "
            "'waiting', 2.0)"
        )
    db.close()
    try:
        server.start()
        tables = httpx.get(f"{server.http}/api/tables").json()["tables"]
        assert [t["id"] for t in tables] == [good]
        log = server.log.read_text()
        assert "tbad" in log and "tworse" in log
    finally:
        server.stop()


def test_deep_nesting_is_malformed_json_and_the_connection_stays(live: LiveServer) -> None:
    """Deeply nested JSON raised an uncaught error."""
    ws = live.connect(None)
    for depth in (40, 5000):
        ws.send("[" * depth + "]" * depth)
        assert ws.wait_for("error")["code"] == "malformed_json"
        ws.send('{"type": "ping", "id": ' + "[" * depth + "]" * depth + "}")
        assert ws.wait_for("error")["code"] == "malformed_json"
    assert ws.request({"type": "ping"})["type"] == "pong"


def test_the_size_limit_counts_bytes_not_characters(live: LiveServer) -> None:
    """6,000 'あ' are 18,000 bytes: over 16 KiB."""
    ws, table = seated_numeron(live)
    ws.send(json.dumps({"type": "talk", "table": table, "text": "あ" * 6000}, ensure_ascii=False))
    assert ws.wait_for("error")["code"] == "too_large"
    reply = httpx.post(
        f"{live.http}/api/accounts",
        content=json.dumps({"name": "あ" * 6000}, ensure_ascii=False).encode(),
    )
    assert reply.status_code == 413


def test_names_are_exact_normalised_and_unique_without_regard_to_case(live: LiveServer) -> None:
    """'ann\\n' was a name, and ALICE/alice were two accounts."""

    def post(name: str) -> httpx.Response:
        return httpx.post(f"{live.http}/api/accounts", json={"name": name})

    assert post("ann\n").status_code == 400
    assert post(" ann").status_code == 400
    assert post("alice").status_code == 201
    for twin in ("ALICE", "Alice", "ａｌｉｃｅ"):
        reply = post(twin)
        assert reply.status_code == 409 and reply.json()["code"] == "conflict", twin
    wide = post("ｂｏｂ")  # full-width letters are normalised to the name they look like
    assert wide.status_code == 201 and wide.json()["name"] == "bob"
    assert httpx.get(f"{live.http}/api/accounts/alice").status_code == 200
    assert httpx.get(f"{live.http}/api/accounts/ALICE").status_code == 404


def test_talk_loses_control_and_bidi_characters(live: LiveServer) -> None:
    """Talk kept NULs, newlines and right-to-left overrides; invalid Unicode is refused."""
    ws, table = seated_numeron(live)
    said = ws.request({"type": "talk", "table": table, "text": "he\u202ell\x00o\n\tthere\u2066!"})
    assert said["events"][0]["data"]["text"] == "hello there!"  # type: ignore[index]
    ws.send('{"type": "talk", "table": "' + table + '", "text": "bad \\ud800 half"}')
    assert ws.wait_for("error")["code"] == "bad_message"
    assert ws.request({"type": "talk", "table": table, "text": "\x00\u202e"})["code"] == (
        "bad_message"
    )


def test_private_talk_stays_out_of_the_public_record(live: LiveServer) -> None:
    """Team talk appeared in the public record after the game."""
    token = live.register("ann")
    ws = live.connect(token)
    table = str(
        ws.request(
            {
                "type": "create_table",
                "game": "smuggling",
                "rules": quick_rules("smuggling"),
                "seats": ["me", "bot:random"],
            }
        )["table"]["id"]  # type: ignore[index]
    )
    turn = ws.wait_for("turn", table=table)
    team = next(c for c in turn["channels"] if c.startswith("team:"))  # type: ignore[attr-defined]
    for channel, text in ((team, "our secret plan"), ("public", "hello all")):
        said = ws.request({"type": "talk", "table": table, "channel": channel, "text": text})
        assert said["type"] == "event", said
    assert ws.request({"type": "resign", "table": table})["type"] == "event"
    public = fetch_record(live.http, table)
    mine = fetch_record(live.http, table, token)
    public_text, mine_text = public.dumps(), mine.dumps()
    assert "our secret plan" not in public_text and REDACTED in public_text
    assert "hello all" in public_text
    assert "our secret plan" in mine_text
    for record in (public, mine):  # both still replay, step for step
        frames = list(rec.replay(record, REGISTRY["smuggling"]))
        assert len(frames) == len(record.steps) + 1
        assert record.steps[-1].end == "resign"


def test_store_failures_answer_store(tmp_path: Path) -> None:
    """A database failure is `store` (as documented), not `internal`; nothing is applied
    and the table goes on once the database is back."""
    import sqlalchemy as sa

    url = postgres_url()
    assert url is not None
    fresh, name = fresh_postgres_database(url)
    live = LiveServer(tmp_path / "data", db=fresh)
    try:
        ann = live.connect(live.register("ann"))
        ben = live.connect(live.register("ben"))
        table = str(
            ann.request({"type": "create_table", "game": "numeron", "seats": ["me", "open"]})[
                "table"
            ]["id"]  # type: ignore[index]
        )
        ben.request({"type": "join", "table": table})
        ann.wait_for("turn", table=table)
        admin = sa.create_engine(fresh.replace("postgresql://", "postgresql+psycopg://"))
        with admin.begin() as conn:
            conn.execute(sa.text("ALTER TABLE steps RENAME TO steps_away"))
        refused = ann.request({"type": "act", "table": table, "action": "set 012"})
        assert refused["code"] == "store" and refused["error"] == "StoreError", refused
        with admin.begin() as conn:
            conn.execute(sa.text("ALTER TABLE steps_away RENAME TO steps"))
        admin.dispose()
        done = ann.request({"type": "act", "table": table, "action": "set 012"})
        assert done["type"] == "event" and done["version"] == 1
    finally:
        live.stop()
        drop_postgres_database(url, name)
