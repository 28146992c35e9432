"""Nothing lost, nothing played twice: a host tournament with two remote SDK clients and bots
is SIGKILLed mid-way, restarted, and finishes with the standings of an undisturbed run."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from dennou.arena.bots import make_bot
from dennou.client.tournament import play_tournament
from dennou.core.bot import RandomBot
from dennou.core.game import Game
from dennou.server.testing import drop_postgres_database, fresh_postgres_database, postgres_url
from dennou.server.tournaments import SEED_ENV

from .conftest import ServerProcess

BODY = {
    "game": "daifugo",
    "entrants": ["@alice", "@bob", "greedy", "random"],
    "rules": {"games": 2},
    "seats": 4,
    "games": 8,
    "options": {"tables": 2, "absent_grace": 60},
    "start": True,
}
MATCHES = 8
SEED = "20240501"


def greedy(game: Game[Any, Any]) -> Any:
    return make_bot(game, "greedy")


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest) -> Iterator[str | None]:
    if request.param == "sqlite":
        yield None
        return
    url = postgres_url()
    assert url is not None
    fresh, name = fresh_postgres_database(url)
    yield fresh
    drop_postgres_database(url, name)


async def mid_set(http: httpx.AsyncClient, playing: list[dict[str, Any]]) -> bool:
    for t in playing:
        table = (await http.get(f"{http.base_url}api/tables/{t['table']}")).json()
        if table["status"] == "playing" and table["version"] >= 30:
            return True
    return False


def run(server: ServerProcess, kill_after: int | None) -> tuple[dict[str, Any], list[int]]:
    """Play the tournament (killing the server once ``kill_after`` matches finished)."""
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
    finished_at_kill: list[int] = []

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        clients = [
            asyncio.create_task(play_tournament(bot, server.ws, tokens[name], tid, seed=seed))
            for bot, name, seed in ((greedy, "alice", 1), (RandomBot(), "bob", 2))
        ]
        if kill_after is not None:
            async with httpx.AsyncClient(base_url=server.http + "/", timeout=30) as http:
                # kill with some matches finished and a table well into its set
                while True:
                    info = (await http.get(f"{server.http}/api/tournaments/{tid}")).json()
                    if info["finished"] >= kill_after and await mid_set(http, info["playing"]):
                        break
                    await asyncio.sleep(0.02)
            await loop.run_in_executor(None, server.kill)
            finished_at_kill.append(info["finished"])
            await loop.run_in_executor(None, server.start)
        await asyncio.wait_for(asyncio.gather(*clients), 300)

    asyncio.run(scenario())
    standings = httpx.get(f"{server.http}/api/tournaments/{tid}/standings", timeout=30).json()
    tables = httpx.get(f"{server.http}/api/tournaments/{tid}/tables", timeout=30).json()
    assert sorted(t["match"] for t in tables) == list(range(MATCHES)), "one table per match"
    return standings, finished_at_kill


@pytest.fixture(scope="module")
def calm(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The undisturbed tournament's standings: played once (on SQLite), compared with each
    database's crashed run."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(SEED_ENV, SEED)
        undisturbed = ServerProcess(tmp_path_factory.mktemp("calm"))
        try:
            standings, _ = run(undisturbed, None)
        finally:
            undisturbed.stop()
    return standings


@pytest.mark.slow
def test_sigkill_mid_tournament_then_restart_gives_the_undisturbed_standings(
    tmp_path: Path, db: str | None, calm: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the operator fixes the seed (a client never can): both runs deal the same cards
    monkeypatch.setenv(SEED_ENV, SEED)
    crashed = ServerProcess(tmp_path / "crash", db=db)
    try:
        stormy, at_kill = run(crashed, 3)
        log = crashed.log.read_text(errors="replace")
    finally:
        crashed.stop()
    assert at_kill and 3 <= at_kill[0] < MATCHES, "killed mid-way"
    assert "resumed" in log, log[-2000:]
    assert stormy["complete"] and stormy["finished"] == MATCHES
    for key in ("standings", "ratings", "pairwise"):
        assert stormy[key] == calm[key], key
    assert stormy["seed"] == calm["seed"] == 20240501
    rows = {r["name"]: r for r in stormy["standings"]}
    assert rows["alice"]["defaults"] == rows["bob"]["defaults"] == 0, "nobody forfeited"
