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


def test_the_host_never_reads_a_policy_file_a_client_names(live: LiveServer, tmp_path: Any) -> None:
    """A client must not make the host read a file it names (``policy:path=``): the host seats
    the zoo, not a path; refused at the table and in a host tournament, absent from the lists."""
    games = {g["name"]: g for g in get(live, "/api/games")}
    assert not any("policy" in g["bots"] for g in games.values())
    mallory = live.register("mallory")
    headers = {"authorization": f"Bearer {mallory}"}
    for path in ("/dev/zero", str(tmp_path / "missing.npz")):
        table = httpx.post(
            live.http + "/api/tables",
            json={"game": "hilo", "seats": ["open", f"bot:policy:path={path}"]},
            headers=headers,
            timeout=30,
        )
        assert table.status_code == 400, table.text
        assert "only on your machine" in table.text
        tournament = httpx.post(
            live.http + "/api/tournaments",
            json={"game": "hilo", "entrants": ["random", f"policy:path={path}"]},
            headers=headers,
            timeout=30,
        )
        assert tournament.status_code == 400, tournament.text
        assert "only on your machine" in tournament.text
    assert get(live, "/api/tables")["tables"] == []


def test_a_zoo_seat_at_a_table_its_policy_was_not_trained_for_is_refused_when_made(
    live: LiveServer,
) -> None:
    """The zoo's Smuggling policy plays 1 v 1 (``zoo.json``): a table of other seats is refused
    at once, saying what the policy plays, rather than seated to play by defaults."""
    ann = live.register("ann")
    headers = {"authorization": f"Bearer {ann}"}
    made = httpx.post(
        live.http + "/api/tables",
        json={"game": "smuggling", "seats": ["open"] * 3 + ["bot:zoo"]},
        headers=headers,
        timeout=30,
    )
    assert made.status_code == 400, made.text
    assert "the zoo's smuggling policy plays 2 seats" in made.text
    assert get(live, "/api/tables")["tables"] == []
    fits = httpx.post(
        live.http + "/api/tables",
        json={
            "game": "smuggling",
            "seats": ["open", "bot:zoo"],
            "rules": {"team_size": 1, "small_games": 10},
        },
        headers=headers,
        timeout=30,
    )
    assert fits.status_code == 201, fits.text
