"""The model zoo on the host: ``zoo`` is a built-in bot of every game, seated and rated by name."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from dennou.client import run_bot
from dennou.core.bot import RandomBot

from .conftest import LiveServer


def get(live: LiveServer, path: str) -> Any:
    reply = httpx.get(live.http + path, timeout=30)
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_the_host_lists_seats_and_rates_the_zoo_bot_by_name(live: LiveServer) -> None:
    games = {g["name"]: g for g in get(live, "/api/games")}
    assert all("zoo" in games[name]["bots"] for name in games)
    ann = live.register("ann")
    created = httpx.post(
        live.http + "/api/tables",
        json={
            "game": "hilo",
            "seats": ["open", "bot:zoo"],
            "options": {"rated": True, "time_limit": 30},
        },
        headers={"authorization": f"Bearer {ann}"},
        timeout=30,
    )
    assert created.status_code == 201, created.text
    asyncio.run(
        asyncio.wait_for(
            run_bot(RandomBot(), live.ws_url, ann, table=created.json()["id"], seed=3), 120
        )
    )
    deadline = time.time() + 60
    while not (boards := get(live, "/api/leaderboard/hilo")["boards"]):
        assert time.time() < deadline, "the table was rated"
        time.sleep(0.05)
    assert {r["name"]: r["games"] for r in boards[0]["ratings"]} == {"ann": 1, "bot:zoo": 1}
