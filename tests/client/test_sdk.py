"""The Python SDK and `bot run` against a real server process."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from dennou.arena.bots import load_bot
from dennou.client import Client, ServerError, run_bot
from dennou.client.testing import HarnessBot
from dennou.core import record as rec
from dennou.core.errors import ConfigError
from dennou.games import REGISTRY
from dennou.server.testing import SRC, LiveServer, ServerProcess


@pytest.fixture
def live(tmp_path: Path):  # type: ignore[no-untyped-def]
    server = LiveServer(tmp_path / "data", rate=1000.0, burst=2000.0)
    yield server
    server.stop()


def test_run_bot_joins_by_game_and_two_bots_meet(live: LiveServer) -> None:
    tokens = [live.register("ann"), live.register("ben")]

    async def both() -> list[object]:
        first = asyncio.create_task(
            run_bot(HarnessBot, live.ws_url, tokens[0], join="numeron", seed=1)
        )
        await asyncio.sleep(0.5)  # ann has opened a table; ben finds it
        second = run_bot(HarnessBot, live.ws_url, tokens[1], join="numeron", seed=2)
        return list(await asyncio.gather(first, second))

    a, b = asyncio.run(both())
    assert a.table == b.table and {a.seat, b.seat} == {0, 1}  # type: ignore[attr-defined]
    assert a.outcome == b.outcome  # type: ignore[attr-defined]
    record = rec.loads(httpx.get(f"{live.http}/api/tables/{a.table}/record").text)[0]  # type: ignore[attr-defined]
    assert record.outcome == a.outcome  # type: ignore[attr-defined]


def test_client_errors_are_raised(live: LiveServer) -> None:
    async def go() -> None:
        with pytest.raises(ServerError, match="unknown token"):
            await Client.open(live.ws_url, "nope")
        async with await Client.open(live.ws_url, live.register("cy")) as client:
            with pytest.raises(ServerError) as info:
                await client.create_table("chess")
            assert info.value.code == "not_found"

    asyncio.run(go())


def test_load_bot_targets() -> None:
    assert load_bot("dennou.client.testing:HarnessBot") is HarnessBot
    factory = load_bot("random")
    assert callable(factory) and factory(REGISTRY["numeron"]).name == "random"
    with pytest.raises(ConfigError):
        load_bot("dennou.nothing_here:Bot")
    with pytest.raises(ConfigError):
        load_bot("dennou.client.testing:Nope")


@pytest.mark.slow
def test_bot_run_command_plays_a_game(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data")
    server.start()
    try:
        token = server.register("ann")

        async def make() -> str:
            async with await Client.open(server.ws, token) as client:
                info = await client.create_table("numeron", ["open", "bot:random"])
                return str(info["id"])

        table = asyncio.run(make())
        cmd = [sys.executable, "-m", "dennou.server", "bot-run"]
        cmd += ["dennou.client.testing:HarnessBot", "--server", server.ws, "--token", token]
        cmd += ["--table", table, "--seed", "3", "--json"]
        env = {**os.environ, "PYTHONPATH": SRC}
        done = subprocess.run(
            cmd, capture_output=True, text=True, env=env, timeout=120, check=False
        )
        assert done.returncode == 0, done.stderr
        line = json.loads(done.stdout.strip().splitlines()[-1])
        assert line["table"] == table and line["seat"] == 0
        assert set(line["outcome"]) >= {"scores", "ranks"}
    finally:
        server.stop()
