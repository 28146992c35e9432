"""A tournament on a cluster: three ``dennou serve --broker`` processes share one PostgreSQL and
one Redis; the tournament's tables are spread over the processes, its entrants' programs and
its routes are on processes other than the one driving it, and that process is SIGKILLed
mid-way: another process takes the driver over from the store, and the tournament finishes with
the standings of an undisturbed run on a lone host."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from dennou.client.tournament import play_tournament
from dennou.core.bot import RandomBot
from dennou.server.testing import ClusterProcesses, postgres_url, redis_url
from dennou.server.tournaments import SEED_ENV

from .conftest import ServerProcess
from .test_cluster import warm
from .test_tournament_crash import greedy

pytestmark = pytest.mark.slow

BODY = {
    "game": "daifugo",
    "entrants": ["@alice", "@bob", "greedy", "random"],
    "rules": {"games": 1},
    "seats": 4,
    "games": 8,
    "options": {"tables": 2, "absent_grace": 60},
    "start": True,
}
MATCHES = 8


async def mid_game(http: httpx.AsyncClient, playing: list[dict[str, Any]]) -> bool:
    for t in playing:
        table = (await http.get(f"api/tables/{t['table']}")).json()
        if table["status"] == "playing" and table["version"] >= 10:
            return True
    return False


@pytest.fixture
def cluster(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ClusterProcesses]:
    monkeypatch.setenv(SEED_ENV, "20240501")  # the operator's seed: both runs deal alike
    pg, broker = postgres_url(), redis_url()
    assert pg is not None and broker is not None
    procs = ClusterProcesses(tmp_path / "cluster", pg, broker, 3)
    try:
        procs.start()
        warm(procs)
        yield procs
    finally:
        procs.stop()


def leases(cluster: ClusterProcesses) -> dict[str, str]:
    """Every lease held now: name -> owner."""
    engine = sa.create_engine(cluster.db.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                sa.text("SELECT name, owner FROM cluster_leases WHERE expires_at > :now"),
                {"now": time.time()},
            ).all()
    finally:
        engine.dispose()
    return {str(name): str(owner) for name, owner in rows}


def undisturbed(tmp_path: Path) -> dict[str, Any]:
    """The tournament played to its end on a lone host."""
    server = ServerProcess(tmp_path / "calm")
    try:
        server.start()
        tokens = {name: server.register(name) for name in ("alice", "bob", "olga")}
        reply = httpx.post(
            f"{server.http}/api/tournaments",
            json=BODY,
            headers={"authorization": f"Bearer {tokens['olga']}"},
            timeout=30,
        )
        assert reply.status_code == 201, reply.text
        tid = reply.json()["id"]

        async def play() -> None:
            clients = [
                play_tournament(bot, server.ws, tokens[name], tid, seed=seed)
                for bot, name, seed in ((greedy, "alice", 1), (RandomBot(), "bob", 2))
            ]
            await asyncio.wait_for(asyncio.gather(*clients), 300)

        asyncio.run(play())
        standings: dict[str, Any] = httpx.get(
            f"{server.http}/api/tournaments/{tid}/standings", timeout=30
        ).json()
        return standings
    finally:
        server.stop()


def test_a_tournament_continues_when_the_process_driving_it_is_killed(
    cluster: ClusterProcesses, tmp_path: Path
) -> None:
    calm = undisturbed(tmp_path)
    tokens = {name: cluster[0].register(name) for name in ("alice", "bob", "olga")}
    olga = {"authorization": f"Bearer {tokens['olga']}"}
    reply = httpx.post(
        f"{cluster[0].http}/api/tournaments",
        json={**BODY, "start": False},
        headers=olga,
        timeout=30,
    )
    assert reply.status_code == 201, reply.text
    tid = reply.json()["id"]
    owners_seen: set[str] = set()
    at_kill: list[int] = []

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        # the entrants' programs and their seat long polls are on the other two processes
        clients = [
            asyncio.create_task(play_tournament(bot, cluster[i].ws, tokens[name], tid, seed=seed))
            for bot, name, seed, i in ((greedy, "alice", 1, 1), (RandomBot(), "bob", 2, 2))
        ]
        driver, begun = None, time.monotonic()
        async with httpx.AsyncClient(timeout=30) as http:
            # the entrants accept on processes 1 and 2 (each its own copy of the tournament);
            # the owner starts it on process 0, which drives it
            while set(
                (await http.get(f"{cluster[0].http}/api/tournaments/{tid}"))
                .json()["invitations"]
                .values()
            ) != {"accepted"}:
                assert time.monotonic() - begun < 120, "the entrants never accepted"
                await asyncio.sleep(0.1)
            started = await http.post(
                f"{cluster[0].http}/api/tournaments/{tid}/start", headers=olga
            )
            assert started.status_code == 200, started.text
        async with httpx.AsyncClient(base_url=cluster[2].http + "/", timeout=30) as http:
            while True:  # kill with some matches finished and a table well into its set
                held = await loop.run_in_executor(None, leases, cluster)
                driver = held.get(f"tournament:{tid}", driver)
                info = (await http.get(f"api/tournaments/{tid}")).json()
                assert info["status"] != "finished", "over before the kill"
                owners_seen.update(held[t["table"]] for t in info["playing"] if t["table"] in held)
                if info["finished"] >= 2 and await mid_game(http, info["playing"]):
                    break
                await asyncio.sleep(0.05)
        first = cluster[0].proc
        assert first is not None and driver is not None
        assert driver.split(":")[1] == str(first.pid), f"driven by {driver}"
        at_kill.append(info["finished"])
        await loop.run_in_executor(None, cluster[0].kill)
        await asyncio.wait_for(asyncio.gather(*clients), 300)

    asyncio.run(scenario())
    assert 2 <= at_kill[0] < MATCHES, "killed mid-way"
    assert len(owners_seen) >= 2, f"the tournament's tables were all on {owners_seen}"
    for proc in (cluster[1], cluster[2]):  # every living process answers alike
        stormy = httpx.get(f"{proc.http}/api/tournaments/{tid}/standings", timeout=30).json()
        assert stormy["complete"] and stormy["finished"] == MATCHES
        for key in ("standings", "ratings", "pairwise"):
            assert stormy[key] == calm[key], key
        tables = httpx.get(f"{proc.http}/api/tournaments/{tid}/tables", timeout=30).json()
        assert sorted(t["match"] for t in tables) == list(range(MATCHES)), "one table per match"
    rows = {r["name"]: r for r in stormy["standings"]}
    assert rows["alice"]["defaults"] == rows["bob"]["defaults"] == 0, "nobody forfeited"
    log = cluster[1].log.read_text(errors="replace") + cluster[2].log.read_text(errors="replace")
    assert f"tournament {tid}: driven here" in log, log[-3000:]
    # tournaments per account count on the whole site: three more (not started) made on the
    # two living processes, the fourth refused
    small = {**BODY, "start": False}
    for i in range(3):
        made = httpx.post(
            f"{cluster[(i % 2) + 1].http}/api/tournaments", json=small, headers=olga, timeout=30
        )
        assert made.status_code == 201, made.text
    refused = httpx.post(f"{cluster[1].http}/api/tournaments", json=small, headers=olga, timeout=30)
    assert refused.status_code == 429 and refused.json()["code"] == "limit_reached", refused.text
