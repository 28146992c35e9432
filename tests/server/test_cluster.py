"""Many host processes, one site: three real ``dennou serve --broker`` processes on loopback
ports share one PostgreSQL and one Redis; clients on different processes play and watch one
table, and a process SIGKILLed mid-game loses nothing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from dennou.client import Client, GameResult, ServerError, run_bot
from dennou.client.testing import HarnessBot
from dennou.core import record as rec
from dennou.games import REGISTRY
from dennou.server.testing import ClusterProcesses, postgres_url, redis_url

from .checks import check_seen_against_replay, quick_rules
from .test_crash_recovery import fetch_record

pytestmark = pytest.mark.slow


def started_cluster(tmp_path: Path) -> Iterator[ClusterProcesses]:
    pg, broker = postgres_url(), redis_url()
    assert pg is not None and broker is not None
    procs = ClusterProcesses(tmp_path, pg, broker, 3)
    try:
        procs.start()
        warm(procs)
        yield procs
    finally:
        procs.stop()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClusterProcesses]:
    """One site for the tests that leave its three processes running (each signs up accounts
    of its own: :func:`names`)."""
    yield from started_cluster(tmp_path_factory.mktemp("cluster"))


@pytest.fixture
def fresh_cluster(tmp_path: Path) -> Iterator[ClusterProcesses]:
    """A site of its own, for a test that kills one of its processes."""
    yield from started_cluster(tmp_path)


def names(cluster: ClusterProcesses, test: str, *people: str) -> dict[str, str]:
    """Person -> token of new accounts, named after the test (tests share one site)."""
    return {n: cluster[0].register(f"{n}-{test}") for n in people}


def warm(cluster: ClusterProcesses) -> None:
    """Say hello to each process once: a host's first hello loads what it needs (seconds on a
    loaded machine), and the tests' clients wait 10 s for theirs."""

    async def hello(url: str) -> None:
        client = await Client.open(url, None, timeout=120)
        await client.close()

    for proc in cluster.procs:
        asyncio.run(hello(proc.ws))


def lease_owner(cluster: ClusterProcesses, table: str) -> str | None:
    engine = sa.create_engine(cluster.db.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            owner = conn.execute(
                sa.text("SELECT owner FROM cluster_leases WHERE name = :t AND expires_at > :now"),
                {"t": table, "now": time.time()},
            ).scalar_one_or_none()
    finally:
        engine.dispose()
    return None if owner is None else str(owner)


async def make_table(url: str, token: str, game: str, seats: list[str]) -> str:
    async with await Client.open(url, token, timeout=60) as client:
        rules = {k: v for k, v in quick_rules(game).items() if k != "time_limit"}
        # long clocks: these tests are about the cluster, not about a loaded machine's timeouts
        info = await client.create_table(game, seats, rules, absent_grace=60, time_limit=300)
        return str(info["id"])


async def spectate(
    urls: Sequence[str], token: str, table: str, seen: list[int], on_event: Any = None
) -> dict[str, Any]:
    """Watch ``table`` to its end, reconnecting to the next URL after a lost connection."""
    version: int | None = None
    tries = 0
    while True:
        url = urls[tries % len(urls)]
        tries += 1
        try:
            async with await Client.open(url, token, timeout=60) as client:
                await client.request({"type": "spectate", "table": table, "version": version})
                while True:
                    msg = await client.messages.get()
                    if msg is None:
                        break
                    if msg["type"] == "view":
                        version = msg["version"]
                    elif msg["type"] == "event":
                        seen.append(msg["version"])
                        version = msg["version"]
                        if on_event is not None:
                            on_event(msg)
                    elif msg["type"] == "end":
                        return msg
        except (OSError, ServerError, ConnectionError, TimeoutError):
            await asyncio.sleep(0.2)
        except Exception as exc:  # the websockets library's ConnectionClosed
            if "ConnectionClosed" not in type(exc).__name__:
                raise
            await asyncio.sleep(0.2)


def urls(cluster: ClusterProcesses, *order: int) -> list[str]:
    return [cluster[i].ws for i in order]


def check_spectator(record: rec.Record, seen: list[int]) -> None:
    assert seen, "the spectator saw no event"
    assert seen == list(range(seen[0], len(record.steps) + 1)), "versions skipped or repeated"


@pytest.mark.parametrize(
    ("game", "seats"),
    [("numeron", ["open", "open"]), ("daifugo", ["open", "open", "bot:random", "bot:random"])],
)
def test_players_on_two_processes_and_a_spectator_on_a_third_share_one_listed_table(
    cluster: ClusterProcesses, game: str, seats: list[str]
) -> None:
    tokens = names(cluster, game, "ann", "ben", "eve")

    async def play() -> tuple[str, list[GameResult], list[int]]:
        table = await make_table(cluster[0].ws, tokens["ann"], game, seats)
        # the lobby of every process lists it (its owner publishes its tables every second)
        async with await Client.open(cluster[2].ws, tokens["eve"]) as lobby:
            deadline = time.monotonic() + 10
            while table not in {t["id"] for t in await lobby.list_tables(game, "waiting")}:
                assert time.monotonic() < deadline, "another process's lobby never listed it"
                await asyncio.sleep(0.2)
        seen: list[int] = []
        watcher = asyncio.create_task(spectate(urls(cluster, 2), tokens["eve"], table, seen))
        players = [
            run_bot(HarnessBot, cluster[i].ws, tokens[n], table=table, seed=i, keep_messages=True)
            for i, n in enumerate(("ann", "ben"))
        ]
        results = await asyncio.wait_for(asyncio.gather(*players), 120)
        await asyncio.wait_for(watcher, 60)
        return table, list(results), seen

    table, results, seen = asyncio.run(play())
    record = fetch_record(cluster[1], table)
    assert lease_owner(cluster, table) is not None
    for result in results:
        assert result.outcome == record.outcome
        assert result.reconnects == 0
        check_seen_against_replay(record, result)
    check_spectator(record, seen)


def test_a_process_killed_mid_game_loses_nothing_and_its_tables_finish_elsewhere(
    fresh_cluster: ClusterProcesses,
) -> None:
    cluster = fresh_cluster
    tokens = {name: cluster[0].register(name) for name in ("ann", "ben", "cy", "eve")}
    failover: dict[str, float] = {}

    async def play() -> tuple[dict[str, str], list[GameResult], list[int]]:
        tables = {
            "numeron": await make_table(cluster[0].ws, tokens["ann"], "numeron", ["open"] * 2),
            "daifugo": await make_table(
                cluster[0].ws, tokens["cy"], "daifugo", ["open", "open", "bot:random", "bot:random"]
            ),
        }
        far_enough = asyncio.Event()
        killed_at: list[float] = []

        last_seen: dict[str, int] = {}

        def watch(msg: dict[str, Any]) -> None:
            if msg["type"] != "event":
                return
            if msg["version"] >= 4:
                far_enough.set()
            table = str(msg["table"])
            if not killed_at:
                last_seen[table] = max(last_seen.get(table, 0), msg["version"])
            elif msg["version"] > last_seen.get(table, 0) and "moves" not in failover:
                failover["moves"] = time.monotonic() - killed_at[0]  # a new step, elsewhere

        seen: list[int] = []
        watcher = asyncio.create_task(
            spectate(urls(cluster, 2, 1), tokens["eve"], tables["numeron"], seen, watch)
        )
        # each client's "load balancer" sends it to the next process when its own is lost
        players = [
            run_bot(
                HarnessBot,
                urls(cluster, *order),
                tokens[name],
                table=tables[game],
                seed=i,
                keep_messages=True,
                on_message=watch,
            )
            for i, (name, game, order) in enumerate(
                [
                    ("ann", "numeron", (0, 1, 2)),
                    ("ben", "numeron", (1, 2)),
                    ("cy", "daifugo", (0, 2, 1)),
                    ("eve", "daifugo", (2, 1)),
                ]
            )
        ]
        running = asyncio.gather(*players)
        await asyncio.wait_for(far_enough.wait(), 180)  # a loaded machine compiles slowly
        owners = {lease_owner(cluster, t) for t in tables.values()}
        assert len(owners) == 1 and None not in owners  # the creator's process owns both
        killed_at.append(time.monotonic())
        await asyncio.get_running_loop().run_in_executor(None, cluster[0].kill)
        while any(lease_owner(cluster, t) in owners | {None} for t in tables.values()):
            assert time.monotonic() - killed_at[0] < 30, "nobody took the tables over"
            await asyncio.sleep(0.05)
        failover["lease"] = time.monotonic() - killed_at[0]
        results = await asyncio.wait_for(running, 180)
        await asyncio.wait_for(watcher, 60)
        return tables, list(results), seen

    tables, results, seen = asyncio.run(play())
    print(f"failover: {failover}")
    assert failover["lease"] <= 5.0, failover
    assert any(r.reconnects for r in results), "the kill did not interrupt a game"
    for result in results:
        record = fetch_record(cluster[1], result.table)
        assert result.outcome == record.outcome
        check_seen_against_replay(record, result)
        assert rec.final_state(record, REGISTRY[record.game]) is not None
        assert not any(s.default for s in record.steps), "a seat was defaulted across the kill"
    check_spectator(fetch_record(cluster[1], tables["numeron"]), seen)


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[ClusterProcesses]:
    pg, broker = postgres_url(), redis_url()
    assert pg is not None and broker is not None
    limits = {
        "connections_per_account": 2,
        "connections_per_address": 6,
        "tables_per_account": 2,
        "accounts_per_address": 4,
        "talk_rate_account": 0.01,
        "talk_burst_account": 3,
    }
    procs = ClusterProcesses(tmp_path, pg, broker, 3, limits=limits)
    try:
        procs.start()
        warm(procs)
        yield procs
    finally:
        procs.stop()


def test_limits_hold_across_the_processes_of_a_site(limited: ClusterProcesses) -> None:
    cluster = limited
    # sign-ups per address: four on three processes, the fifth refused wherever it asks
    tokens = [cluster[i % 3].register(f"user{i}") for i in range(4)]
    reply = httpx.post(cluster[1].http + "/api/accounts", json={"name": "user4"}, timeout=10)
    assert reply.status_code == 429 and reply.json()["code"] == "limit_reached"

    async def check() -> None:
        # connections per account: one on each of two processes, the third refused
        first = await Client.open(cluster[0].ws, tokens[0])
        second = await Client.open(cluster[1].ws, tokens[0])
        with pytest.raises(ServerError) as refused:
            await Client.open(cluster[2].ws, tokens[0])
        assert refused.value.code == "limit_reached"
        await first.close()
        deadline = time.monotonic() + 10  # the closed connection's count is given back
        while True:
            try:
                third = await Client.open(cluster[2].ws, tokens[0])
                break
            except ServerError:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.1)
        # open tables per account: two on two processes, the third refused on a third
        await second.create_table("numeron", ["open", "open"], absent_grace=60)
        await third.create_table("numeron", ["open", "open"], absent_grace=60)
        other = await Client.open(cluster[0].ws, tokens[1])
        with pytest.raises(ServerError) as refused:
            await other.create_table("numeron", ["open", "open"])  # another account may
            await third.create_table("numeron", ["open", "open"])
        assert refused.value.code == "limit_reached"
        # talk per account: a burst of three lines, said at tables of two processes
        fourth = await Client.open(cluster[1].ws, tokens[3])
        tables = [
            (await maker.create_table("numeron", ["open", "open"], absent_grace=60))["id"]
            for maker in (other, fourth)  # owned by processes 0 and 1
        ]
        watchers = [await Client.open(cluster[i].ws, tokens[2]) for i in (1, 2)]
        for watcher, table in zip(watchers, tables, strict=True):
            await watcher.request({"type": "spectate", "table": table})
        said = []
        for i in range(4):
            line = {"type": "talk", "table": tables[i % 2], "text": "go", "channel": "spectators"}
            try:
                said.append((await watchers[i % 2].request(line))["type"])
            except ServerError as exc:
                said.append(exc.code)
        assert said[3] == "rate_limited" and "rate_limited" not in said[:3], said
        for client in (second, third, other, fourth, *watchers):
            await client.close()

    asyncio.run(check())


def test_the_http_table_routes_answer_on_every_process(cluster: ClusterProcesses) -> None:
    tokens = names(cluster, "routes", "ann", "ben")
    made = httpx.post(
        f"{cluster[0].http}/api/tables",
        json={"game": "daifugo", "seats": ["open"] * 4, "options": {"absent_grace": 60}},
        headers={"authorization": f"Bearer {tokens['ann']}"},
        timeout=30,
    )
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    ann = {"authorization": f"Bearer {tokens['ann']}"}
    mine = httpx.post(
        f"{cluster[0].http}/api/tables/{table}/join", json={}, headers=ann, timeout=30
    )
    assert mine.status_code == 200, mine.text
    ben = {"authorization": f"Bearer {tokens['ben']}"}
    # the table is run by process 0; process 1 shows it, seats ben, and process 2 unseats him
    shown = httpx.get(f"{cluster[1].http}/api/tables/{table}", timeout=30)
    assert shown.status_code == 200 and shown.json()["status"] == "waiting", shown.text
    joined = httpx.post(
        f"{cluster[1].http}/api/tables/{table}/join", json={"seat": 1}, headers=ben, timeout=30
    )
    assert joined.status_code == 200, joined.text
    assert joined.json()["seats"][1]["name"] == "ben-routes"
    again = httpx.post(
        f"{cluster[2].http}/api/tables/{table}/join", json={"seat": 1}, headers=ben, timeout=30
    )
    assert again.status_code == 200 and again.json()["seats"][1]["name"] == "ben-routes", again.text
    left = httpx.post(f"{cluster[2].http}/api/tables/{table}/leave", headers=ben, timeout=30)
    assert left.status_code == 200, left.text
    assert left.json()["seats"][1]["kind"] == "open"
    refused = httpx.post(f"{cluster[2].http}/api/tables/{table}/leave", headers=ben, timeout=30)
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden", refused.text
    assert httpx.get(f"{cluster[1].http}/api/tables/nope", timeout=30).status_code == 404
