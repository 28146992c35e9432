"""Nothing lost: a real server process is SIGKILLed mid-game, restarted, and the games finish
exactly as they would have without the crash."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from dennou.client import Client, GameResult, run_bot
from dennou.client.testing import HarnessBot
from dennou.core import record as rec
from dennou.core.game import Game
from dennou.core.jsondata import to_json
from dennou.games import REGISTRY
from dennou.server.testing import drop_postgres_database, fresh_postgres_database, postgres_url

from .checks import check_seen_against_replay, quick_rules
from .conftest import ServerProcess


def fetch_record(server: ServerProcess, table: str) -> rec.Record:
    reply = httpx.get(f"{server.http}/api/tables/{table}/record", timeout=10)
    assert reply.status_code == 200, reply.text
    [record] = rec.loads(reply.text)
    return record


def steps_without_timing(record: rec.Record) -> list[dict[str, Any]]:
    out = []
    for step in record.steps:
        data = to_json(step)
        data.pop("ms", None)
        out.append(data)
    return out


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServerProcess]:
    if request.param == "sqlite":
        proc = ServerProcess(tmp_path / "data")
        proc.start()
        yield proc
        proc.stop()
        return
    url = postgres_url()
    assert url is not None
    fresh, name = fresh_postgres_database(url)
    proc = ServerProcess(tmp_path / "data", db=fresh)
    proc.start()
    yield proc
    proc.stop()
    drop_postgres_database(url, name)


def carries_accounts(game: str) -> bool:
    """Whether the game keeps something in its players' accounts from table to table."""
    return type(REGISTRY[game]).host_accounts_in is not Game.host_accounts_in


def as_cy(outcome: Any) -> Any:
    """The reference outcome with the reference player's name ("dee") read as "cy"."""
    return json.loads(json.dumps(outcome).replace('"dee"', '"cy"'))


@pytest.mark.slow
def test_sigkill_mid_game_then_restart_finishes_identically(server: ServerProcess) -> None:
    tokens = {name: server.register(name) for name in ("ann", "ben", "cy", "dee")}
    games = [name for name in REGISTRY if REGISTRY[name].spec.max_players >= 2]
    assert "numeron" in games
    seed = 11

    async def make(game: str, seats: list[str], token: str, *, seeded: bool = True) -> str:
        # A seed makes the reference and the interrupted game deal alike; a client may seed only
        # a practice table (one player, built-in bots), so the duel plays unseeded.
        # a long clock: this test is about the crash, not about a loaded machine's timeouts
        options: dict[str, Any] = {"absent_grace": 60, "time_limit": 300}
        if seeded:
            options["seed"] = seed
        async with await Client.open(server.ws, token) as client:
            rules = {k: v for k, v in quick_rules(game).items() if k != "time_limit"}
            info = await client.create_table(game, seats, rules, **options)
            return str(info["id"])

    async def reference(game: str) -> rec.Record:
        players = REGISTRY[game].spec.min_players
        # In games with persistent accounts (Star Hi-Lo's 口座) "dee" plays the reference, so
        # that "cy" comes to the interrupted game with the same (empty) account.
        who = "dee" if carries_accounts(game) else "cy"
        table = await make(game, ["open"] + ["bot:random"] * (players - 1), tokens[who])
        await run_bot(HarnessBot, server.ws, tokens[who], table=table, seed=5)
        return fetch_record(server, table)

    references = {game: asyncio.run(reference(game)) for game in games}

    async def interrupted() -> tuple[dict[str, GameResult], dict[str, str], list[GameResult]]:
        killed = asyncio.Event()
        loop = asyncio.get_running_loop()

        started: set[str] = set()
        far_enough = asyncio.Event()

        def watcher(name: str) -> Any:
            # Kill only once every client has joined (a client that never connected has no
            # game to resume) and some game is a few steps in.
            def watch(msg: dict[str, Any]) -> None:
                started.add(name)
                if msg["type"] == "event" and msg["version"] >= 6:
                    far_enough.set()
                if far_enough.is_set() and len(started) == len(games) + 2:
                    killed.set()

            return watch

        solo: dict[str, str] = {}
        tasks = []
        for game in games:
            players = REGISTRY[game].spec.min_players
            # the same table as the reference: one remote seat, built-in bots elsewhere
            solo[game] = await make(game, ["open"] + ["bot:random"] * (players - 1), tokens["cy"])
            tasks.append(
                asyncio.create_task(
                    run_bot(
                        HarnessBot,
                        server.ws,
                        tokens["cy"],
                        table=solo[game],
                        seed=5,
                        keep_messages=True,
                        on_message=watcher(game),
                    )
                )
            )
        # a table of remote players only (numeron: two seats)
        duel = await make("numeron", ["open", "open"], tokens["ann"], seeded=False)
        duel_tasks = [
            asyncio.create_task(
                run_bot(
                    HarnessBot,
                    server.ws,
                    tokens[n],
                    table=duel,
                    seed=i,
                    keep_messages=True,
                    on_message=watcher(f"duel-{n}"),
                )
            )
            for i, n in enumerate(("ann", "ben"))
        ]
        await killed.wait()
        await loop.run_in_executor(None, server.kill)
        await loop.run_in_executor(None, server.start)
        results = await asyncio.wait_for(asyncio.gather(*tasks), 120)
        duel_results = await asyncio.wait_for(asyncio.gather(*duel_tasks), 120)
        return dict(zip(games, results, strict=True)), {**solo, "duel": duel}, duel_results

    results, tables, duel_results = asyncio.run(interrupted())
    assert any(r.reconnects for r in results.values()), "the kill did not interrupt a game"
    for game, result in results.items():
        record = fetch_record(server, tables[game])
        assert steps_without_timing(record) == steps_without_timing(references[game]), game
        assert record.outcome == as_cy(references[game].outcome)
        assert result.outcome == record.outcome
        check_seen_against_replay(record, result)
        assert rec.final_state(record, REGISTRY[game]) is not None
    duel = fetch_record(server, tables["duel"])
    numeron = REGISTRY["numeron"]
    assert to_json(numeron.outcome(rec.final_state(duel, numeron))) == duel.outcome
    for result in duel_results:
        assert result.outcome == duel.outcome
        check_seen_against_replay(duel, result)
    assert not any(s.default for s in duel.steps), "a seat was defaulted across the restart"
