"""Bots that think in processes of their own: the site's queue of bot decisions in Redis serves
accounts fairly, and a host started with ``--remote-bots`` plays its bots' seats through a
``dennou cluster bots`` process."""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from dennou.client import Client
from dennou.server.cluster.bots import SiteFairQueue
from dennou.server.testing import SRC, ClusterProcesses, postgres_url, redis_url

from .test_cluster import warm


def test_the_sites_bot_queue_serves_the_least_served_account_first() -> None:
    import redis.asyncio as aioredis

    url = redis_url()
    assert url is not None

    async def check() -> None:
        client = aioredis.Redis.from_url(url)
        prefix = f"dennou-test-{secrets.token_hex(4)}:"
        queue = SiteFairQueue(client, prefix)
        try:
            for i in range(4):
                assert await queue.put("heavy", b"h%d" % i, 10)
            assert await queue.put("light", b"l0", 10)
            assert await queue.put("light", b"l1", 10)
            order = []
            while (taken := await queue.take()) is not None:
                account, item = taken
                order.append(item.decode())
                await queue.charge(account, 1.0 if account == "heavy" else 0.1)
            # each served by the seconds it used: light's short decisions go by heavy's long one
            assert order == ["h0", "l0", "l1", "h1", "h2", "h3"], order
            # an account's line is bounded: its tables wait
            for _ in range(3):
                assert await queue.put("busy", b"b", 3)
            assert not await queue.put("busy", b"b", 3)
            while await queue.take() is not None:
                await queue.charge("busy", 5.0)
            # an account that comes back after a pause starts level with the work served so
            # far, not ahead by its idle time: it alternates with one that kept working
            await queue.put("heavy", b"h4", 10)
            await queue.put("heavy", b"h5", 10)
            await queue.put("newcomer", b"n0", 10)
            await queue.put("newcomer", b"n1", 10)
            order = []
            while (taken := await queue.take()) is not None:
                account, item = taken
                order.append(item.decode())
                await queue.charge(account, 1.0)
            assert order[:2] in (["h4", "n0"], ["n0", "h4"]) and sorted(order) == [
                "h4",
                "h5",
                "n0",
                "n1",
            ], order
        finally:
            keys = [k async for k in client.scan_iter(match=prefix + "*")]
            if keys:
                await client.delete(*keys)
            await client.aclose()

    asyncio.run(check())


@pytest.fixture
def remote(tmp_path: Path) -> Iterator[ClusterProcesses]:
    pg, broker = postgres_url(), redis_url()
    assert pg is not None and broker is not None
    procs = ClusterProcesses(tmp_path, pg, broker, 2, args=["--remote-bots"])
    try:
        procs.start()
        warm(procs)
        yield procs
    finally:
        procs.stop()


def start_bots(cluster: ClusterProcesses, log: Path) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "dennou", "cluster", "bots", "--broker", cluster.redis]
    cmd += ["--site", cluster.site, "--workers", "1"]
    with log.open("ab") as out:
        return subprocess.Popen(cmd, env={**os.environ, "PYTHONPATH": SRC}, stdout=out, stderr=out)


@pytest.mark.slow
def test_a_hosts_bots_think_in_a_bot_process_of_their_own(
    remote: ClusterProcesses, tmp_path: Path
) -> None:
    token = remote[0].register("ann")

    async def make() -> str:
        async with await Client.open(remote[0].ws, token, timeout=60) as client:
            info = await client.create_table(
                "numeron", ["bot:solver", "bot:random"], {"digits": 3}, time_limit=60
            )
            return str(info["id"])

    def table(table_id: str) -> dict[str, object]:
        reply = httpx.get(f"{remote[1].http}/api/tables/{table_id}", timeout=10)
        return dict(reply.json())

    table_id = asyncio.run(make())
    time.sleep(1.0)
    before = table(table_id)
    time.sleep(2.0)
    assert table(table_id) == before, "a bot decided with no bot process running"
    assert before["status"] == "playing", before
    bots = start_bots(remote, tmp_path / "bots.log")
    try:
        deadline = time.monotonic() + 120
        while table(table_id)["status"] != "finished":
            assert bots.poll() is None, (tmp_path / "bots.log").read_text()
            assert time.monotonic() < deadline, "the bots' table never finished"
            time.sleep(0.2)
    finally:
        bots.terminate()
        bots.wait(10)
    record = httpx.get(f"{remote[1].http}/api/tables/{table_id}/record", timeout=10)
    assert record.status_code == 200
    assert not any('"default"' in line for line in record.text.splitlines()[1:]), record.text
