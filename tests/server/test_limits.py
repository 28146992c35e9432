"""Every resource a client can make the host spend is bounded: accounts per
address, connections, open tables per account, abandoned tables, list pages, hello. The limits
are documented in docs/security.md and set with `dennou serve --limit NAME=VALUE`."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from dennou.server.limits import Limits, describe, parse_limits
from dennou.server.testing import RawSocket

from .conftest import WS, LiveServer

DOCS = Path(__file__).resolve().parents[2] / "docs"


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


@pytest.fixture
def tight(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(
        tmp_path / "data",
        limits={
            "accounts_per_address": 3,
            "tables_per_account": 2,
            "connections_per_address": 4,
            "connections_per_account": 2,
            "page_size": 2,
            "page_max": 3,
            "hello_timeout": 0.5,
            "waiting_table_ttl": 1.0,
        },
    )
    yield server
    server.stop()


def test_accounts_per_address_are_limited(tight: LiveServer) -> None:
    """300 accounts in 1.7 s from one address."""
    codes = [
        httpx.post(f"{tight.http}/api/accounts", json={"name": f"a{i}"}).status_code
        for i in range(5)
    ]
    assert codes == [201, 201, 201, 429, 429]
    reply = httpx.post(f"{tight.http}/api/accounts", json={"name": "late"})
    assert reply.json()["code"] == "limit_reached"


def test_open_tables_per_account_are_limited(tmp_path: Path) -> None:
    """2,000 tables from one account in 8 s."""
    server = LiveServer(tmp_path / "data", limits={"tables_per_account": 2})
    try:
        token = server.register("ann")
        made = [
            httpx.post(f"{server.http}/api/tables", json={"game": "numeron"}, headers=auth(token))
            for _ in range(3)
        ]
        assert [r.status_code for r in made] == [201, 201, 429]
        assert made[2].json()["code"] == "limit_reached"
        ws = server.connect(token)
        assert ws.request({"type": "create_table", "game": "numeron"})["code"] == "limit_reached"
    finally:
        server.stop()


def test_abandoned_waiting_tables_expire(tight: LiveServer) -> None:
    """A waiting table nobody is connected to closes after the time to live, and no
    longer counts toward its creator's open tables."""
    token = tight.register("ann")
    for _ in range(2):
        made = httpx.post(f"{tight.http}/api/tables", json={"game": "numeron"}, headers=auth(token))
        assert made.status_code == 201
    table = made.json()["id"]
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if httpx.get(f"{tight.http}/api/tables/{table}").json()["status"] == "aborted":
            break
        time.sleep(0.2)
    assert httpx.get(f"{tight.http}/api/tables/{table}").json()["status"] == "aborted"
    assert httpx.get(f"{tight.http}/api/tables", params={"status": "waiting"}).json()["total"] == 0
    again = httpx.post(f"{tight.http}/api/tables", json={"game": "numeron"}, headers=auth(token))
    assert again.status_code == 201
    # a table with someone at it is not abandoned
    ws = tight.connect(token)
    kept = ws.request({"type": "create_table", "game": "numeron", "seats": ["me", "open"]})
    time.sleep(2.5)
    info = httpx.get(f"{tight.http}/api/tables/{kept['table']['id']}").json()  # type: ignore[index]
    assert info["status"] == "waiting"


def test_tables_are_listed_a_page_at_a_time(tight: LiveServer) -> None:
    """GET /api/tables answered 3.3 MB at once."""
    tokens = [tight.register(f"p{i}") for i in range(3)]
    made = []
    for token in tokens:
        for _ in range(2):
            reply = httpx.post(
                f"{tight.http}/api/tables", json={"game": "numeron"}, headers=auth(token)
            )
            made.append(reply.json()["id"])
    pages, offset = [], 0
    while offset is not None:
        page = httpx.get(f"{tight.http}/api/tables", params={"offset": offset}).json()
        assert len(page["tables"]) <= 2 and page["total"] == 6
        pages.append([t["id"] for t in page["tables"]])
        offset = page["next"]
    assert [t for p in pages for t in p] == made[::-1]  # newest first, each once
    big = httpx.get(f"{tight.http}/api/tables", params={"limit": 100}).json()
    assert len(big["tables"]) == 3 and big["next"] == 3  # page_max
    ws = tight.connect(None)
    reply = ws.request({"type": "list_tables", "limit": 1, "offset": 5})
    assert [t["id"] for t in reply["tables"]] == [made[0]] and reply["next"] is None
    assert httpx.get(f"{tight.http}/api/tables", params={"limit": "x"}).status_code == 400


def test_a_socket_that_never_says_hello_is_closed(tight: LiveServer) -> None:
    """400 sockets that never said hello stayed open."""
    with RawSocket(tight.port) as raw:
        raw.websocket()
        started = time.monotonic()
        assert raw.closed_by_server(5)
        assert time.monotonic() - started < 3


def test_connections_per_address_and_per_account_are_limited(tight: LiveServer) -> None:
    token = tight.register("ann")
    first = tight.connect(token)
    second = tight.connect(token)
    third = WS(tight.ws_url)
    assert third.request({"type": "hello", "token": token})["code"] == "limit_reached"
    assert third.request({"type": "hello"})["type"] == "welcome"  # as a guest it may watch
    fourth = tight.connect(None)
    fifth = WS(tight.ws_url)  # the fifth from this address
    assert fifth.recv()["code"] == "limit_reached"
    for ws in (first, second, third, fourth):
        assert ws.request({"type": "ping"})["type"] == "pong"


def test_limits_are_documented_and_set_on_the_command_line() -> None:
    text = (DOCS / "security.md").read_text(encoding="utf-8")
    for name, default, description in describe():
        row = re.search(rf"^\| `{name}` \| ([^|]+) \|", text, re.M)
        assert row, f"docs/security.md has no row for the limit {name}"
        expected = f"{default:g}" if isinstance(default, float) else str(default)
        assert row.group(1).strip() == expected, name
        assert description
    limits = parse_limits(["tables_per_account=3", "rate=5"])
    assert limits.tables_per_account == 3 and limits.rate == 5.0
    assert Limits().tables_per_account == 10


def test_tournament_listings_polls_and_pages_follow_the_hosts_limits(tmp_path: Path) -> None:
    """Listings, seats polls, pages of games and replay windows are bounded by ``Limits``."""
    server = LiveServer(
        tmp_path / "data",
        limits={
            "tournaments_listed": 1,
            "seats_known": 2,
            "seats_wait": 0.2,
            "page_max": 3,
            "replay_frames": 2,
        },
    )
    try:
        token = server.register("ann")
        body = {"game": "numeron", "entrants": ["random", "random"], "games": 2}
        made = [
            httpx.post(f"{server.http}/api/tournaments", json=body, headers=auth(token))
            for _ in range(2)
        ]
        assert [r.status_code for r in made] == [201, 201], made[0].text
        listed = httpx.get(f"{server.http}/api/tournaments").json()
        assert [t["id"] for t in listed] == [made[1].json()["id"]]
        seats = f"{server.http}/api/tournaments/{made[0].json()['id']}/seats"
        reply = httpx.get(seats, params={"known": "a,b,c"}, headers=auth(token))
        assert reply.status_code == 400 and "at most 2" in reply.json()["message"]
        started = time.monotonic()
        reply = httpx.get(seats, params={"wait": "20"}, headers=auth(token), timeout=30)
        assert reply.status_code == 200 and time.monotonic() - started < 10
        reply = httpx.get(f"{server.http}/api/games-over", params={"limit": "4"})
        assert reply.status_code == 400 and "1..3" in reply.json()["message"]
        spec = httpx.get(f"{server.http}/openapi.json").json()
        known = spec["paths"]["/api/tournaments/{tournament}/seats"]["get"]["parameters"]
        assert any("at most 2" in q.get("description", "") for q in known)
    finally:
        server.stop()
