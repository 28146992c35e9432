"""Host tournaments over the HTTP API (docs/protocol.md, "Tournaments"; docs/tournaments.md).

A real server on loopback (in-process uvicorn), real SDK clients over the WebSocket.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest

from dennou.client import run_bot
from dennou.client.tournament import play_tournament
from dennou.core import record as rec
from dennou.core.bot import RandomBot

from .conftest import LiveServer


def post(live: LiveServer, path: str, token: str | None, body: Any = None) -> httpx.Response:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    return httpx.post(live.http + path, json=body, headers=headers, timeout=30)


def get(live: LiveServer, path: str) -> Any:
    reply = httpx.get(live.http + path, timeout=30)
    assert reply.status_code == 200, reply.text
    return reply.json()


def wait_until(check: Any, timeout: float = 60, what: str = "") -> Any:
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or check}")


def daifugo(entrants: list[str], **extra: Any) -> dict[str, Any]:
    return {
        "game": "daifugo",
        "entrants": entrants,
        "rules": {"games": 2},
        "games": 6,
        "options": {"tables": 2, "absent_grace": 60},
        **extra,
    }


def test_a_remote_program_and_bots_play_a_tournament_to_its_standings(live: LiveServer) -> None:
    alice = live.register("alice")
    owner = live.register("olga")
    created = post(live, "/api/tournaments", owner, daifugo(["@alice", "greedy", "random"]))
    assert created.status_code == 201, created.text
    info = created.json()
    tid = info["id"]
    assert info["status"] == "created" and info["seed"] is None
    assert [e["name"] for e in info["entrants"]] == ["alice", "greedy", "random"]
    assert post(live, f"/api/tournaments/{tid}/accept", alice).status_code == 200
    assert post(live, f"/api/tournaments/{tid}/start", owner).json()["status"] == "running"

    # its tables are ordinary tables in the lobby, watchable by anyone
    playing = wait_until(lambda: get(live, f"/api/tournaments/{tid}")["playing"], what="tables")
    lobby = {t["id"] for t in get(live, "/api/tables")["tables"]}
    assert playing[0]["table"] in lobby
    watcher = live.connect(None)
    joined = watcher.request({"type": "spectate", "table": playing[0]["table"]})
    assert joined["type"] == "joined" and joined["seat"] is None
    watcher.close()

    played = asyncio.run(
        asyncio.wait_for(play_tournament(RandomBot(), live.ws_url, alice, tid, seed=1), 120)
    )
    assert len(played) == 6, "alice plays every match"
    info = wait_until(
        lambda: (i := get(live, f"/api/tournaments/{tid}"))["status"] == "finished" and i
    )
    assert info["finished"] == 6 and isinstance(info["seed"], int), "the seed is published"

    standings = get(live, f"/api/tournaments/{tid}/standings")
    assert standings["complete"] and standings["seed"] == info["seed"]
    rows = {r["name"]: r for r in standings["standings"]}
    assert set(rows) == {"alice", "greedy", "random"}
    # the points are the sets' points, read back from the published records
    tables = get(live, f"/api/tournaments/{tid}/tables")
    points = dict.fromkeys(rows, 0.0)
    for t in tables:
        reply = httpx.get(f"{live.http}/api/tables/{t['table']}/record", timeout=10)
        assert reply.status_code == 200, reply.text
        [record] = rec.loads(reply.text)
        assert record.outcome is not None
        for seat, name in enumerate(t["entrants"]):
            points[name] += record.outcome["scores"][seat]
        assert record.players[0].startswith("0.") and record.players[2].startswith("2.")
    assert {n: r["points"] for n, r in rows.items()} == points

    board = get(live, "/api/leaderboard/daifugo")["boards"]
    assert [b["preset"] for b in board] == ["games=2"]
    names = {r["name"]: r for r in board[0]["ratings"]}
    assert set(names) == {"alice", "bot:greedy", "bot:random"}
    assert names["alice"]["games"] == 6
    assert get(live, "/api/leaderboard/daifugo?preset=default")["boards"] == []


def test_only_the_owner_changes_a_tournament_and_pause_holds_new_tables(live: LiveServer) -> None:
    owner = live.register("olga")
    other = live.register("mallory")
    # 12 matches: far more than can finish between the first table and the pause (the two
    # tables playing then, and none after)
    body = {**daifugo(["greedy", "random", "g2=greedy"]), "games": 12}
    tid = post(live, "/api/tournaments", owner, body).json()["id"]
    for action in ("start", "pause", "cancel"):
        refused = post(live, f"/api/tournaments/{tid}/{action}", other)
        assert refused.status_code == 403 and "only the owner" in refused.json()["message"]
        assert post(live, f"/api/tournaments/{tid}/{action}", None).status_code == 401
    assert get(live, f"/api/tournaments/{tid}")["status"] == "created"
    assert post(live, f"/api/tournaments/{tid}/resume", owner).status_code == 409
    assert post(live, f"/api/tournaments/{tid}/explode", owner).status_code == 404

    assert post(live, f"/api/tournaments/{tid}/start", owner).status_code == 200
    wait_until(lambda: get(live, f"/api/tournaments/{tid}")["playing"], what="a table")
    assert post(live, f"/api/tournaments/{tid}/pause", owner).json()["status"] == "paused"
    # the tables already playing finish; no new one starts while paused
    info = wait_until(
        lambda: not (i := get(live, f"/api/tournaments/{tid}"))["playing"] and i, what="drain"
    )
    held = info["finished"]
    assert 1 <= held < 12
    time.sleep(1.0)
    assert get(live, f"/api/tournaments/{tid}")["finished"] == held
    assert post(live, f"/api/tournaments/{tid}/resume", owner).json()["status"] == "running"
    wait_until(lambda: get(live, f"/api/tournaments/{tid}")["status"] == "finished", what="the end")
    assert post(live, f"/api/tournaments/{tid}/cancel", owner).status_code == 409


def test_cancel_stops_scheduling_and_publishes_the_seed(live: LiveServer) -> None:
    owner = live.register("olga")
    body = {**daifugo(["greedy", "random", "g2=greedy"], start=True), "games": 30}
    tid = post(live, "/api/tournaments", owner, body).json()["id"]
    assert post(live, f"/api/tournaments/{tid}/cancel", owner).json()["status"] == "cancelled"
    info = wait_until(lambda: not (i := get(live, f"/api/tournaments/{tid}"))["playing"] and i)
    assert info["status"] == "cancelled" and info["finished"] < 30
    assert isinstance(info["seed"], int)


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (daifugo(["@nobody", "greedy", "random"]), 400, "unknown entrant '@nobody'"),
        (daifugo(["greedy", "bogus", "random"]), 400, "unknown entrant 'bogus'"),
        (daifugo(["greedy", "os.path:join", "random"]), 400, "built-in bots and remote"),
        (daifugo(["greedy", "random"], seats=3), 400, "too few entrants: 2 for 3 seats"),
        ({**daifugo(["a=greedy", "b=random", "c=greedy"]), "format": "swiss"}, 400, "swiss"),
        ({**daifugo(["greedy", "random"]), "game": "go"}, 404, "no game 'go'"),
        ({**daifugo(["greedy", "random"]), "rules": {"games": 0}}, 400, "invalid rules"),
        ({**daifugo(["greedy", "random"]), "seed": 5}, 400, "unknown field"),
        ({**daifugo(["greedy", "random"]), "options": {"tables": 0}}, 400, "tables"),
    ],
)
def test_bad_tournaments_are_refused_and_nothing_is_stored(
    live: LiveServer, body: dict[str, Any], status: int, message: str
) -> None:
    owner = live.register("olga")
    reply = post(live, "/api/tournaments", owner, body)
    assert reply.status_code == status, reply.text
    assert message in reply.json()["message"]
    assert get(live, "/api/tournaments") == []
    assert post(live, "/api/tournaments", None, daifugo(["greedy", "random"])).status_code == 401


def test_an_entrant_that_never_connects_forfeits_by_recorded_defaults(live: LiveServer) -> None:
    owner = live.register("olga")
    ghost = live.register("ghost")
    body = daifugo(["@ghost", "greedy", "random"], start=True)
    body["options"]["absent_grace"] = 1
    body["games"] = 3
    tid = post(live, "/api/tournaments", owner, body).json()["id"]
    assert post(live, f"/api/tournaments/{tid}/accept", ghost).json()["status"] == "running"
    wait_until(lambda: get(live, f"/api/tournaments/{tid}")["status"] == "finished", 120, "the end")
    rows = {r["name"]: r for r in get(live, f"/api/tournaments/{tid}/standings")["standings"]}
    assert rows["ghost"]["games"] == 3 and rows["ghost"]["defaults"] > 0
    assert rows["greedy"]["defaults"] == rows["random"]["defaults"] == 0
    table = get(live, f"/api/tournaments/{tid}/tables")[0]
    [record] = rec.loads(httpx.get(f"{live.http}/api/tables/{table['table']}/record").text)
    seat = table["entrants"].index("ghost")
    reasons = {s.default for s in record.steps if s.seat == seat and s.default}
    assert reasons == {"absent"}, "the forfeit is in the record, not hidden"


def test_duplicate_records_wait_for_their_whole_group(live: LiveServer) -> None:
    # alice is in both tables of the group and nothing moves until her program plays: pause
    # while table 1 waits for her, let her play table 1 only, and its record must wait
    alice = live.register("alice")
    owner = live.register("olga")
    body = daifugo(["@alice", "greedy"], seats=2, duplicate=True, start=True)
    body["options"]["tables"] = 1
    body["games"] = 2
    tid = post(live, "/api/tournaments", owner, body).json()["id"]
    post(live, f"/api/tournaments/{tid}/accept", alice)
    first = wait_until(lambda: get(live, f"/api/tournaments/{tid}")["playing"])[0]["table"]
    assert post(live, f"/api/tournaments/{tid}/pause", owner).status_code == 200
    asyncio.run(asyncio.wait_for(run_bot(RandomBot(), live.ws_url, alice, table=first), 120))
    wait_until(lambda: get(live, f"/api/tournaments/{tid}")["finished"] == 1, what="table 1")
    assert get(live, f"/api/tournaments/{tid}")["playing"] == [], "paused: no second table"
    withheld = httpx.get(f"{live.http}/api/tables/{first}/record", timeout=10)
    assert withheld.status_code == 409 and "duplicate group" in withheld.json()["message"]
    post(live, f"/api/tournaments/{tid}/resume", owner)
    asyncio.run(asyncio.wait_for(play_tournament(RandomBot(), live.ws_url, alice, tid), 120))
    wait_until(lambda: get(live, f"/api/tournaments/{tid}")["status"] == "finished")
    assert httpx.get(f"{live.http}/api/tables/{first}/record", timeout=10).status_code == 200


def test_a_rated_table_moves_the_leaderboard_and_an_unrated_one_does_not(
    live: LiveServer,
) -> None:
    ann = live.register("ann")

    async def play(rated: bool) -> None:
        created = post(
            live,
            "/api/tables",
            ann,
            {
                "game": "numeron",
                "rules": {"digits": 3},
                # the solver ends a game in a few calls (random against random takes hundreds)
                "seats": ["open", "bot:solver"],
                "options": {"rated": rated, "time_limit": 30},
            },
        )
        assert created.status_code == 201, created.text
        await run_bot(RandomBot(), live.ws_url, ann, table=created.json()["id"], seed=3)

    asyncio.run(play(False))
    time.sleep(1.0)
    assert get(live, "/api/leaderboard/numeron")["boards"] == []
    asyncio.run(play(True))
    boards = wait_until(lambda: get(live, "/api/leaderboard/numeron")["boards"], what="rating")
    # a time limit does not change the game: the default rules' board
    assert [b["preset"] for b in boards] == ["default"]
    assert {r["name"]: r["games"] for r in boards[0]["ratings"]} == {"ann": 1, "bot:solver": 1}


def test_openapi_lists_the_tournament_api(live: LiveServer) -> None:
    paths = get(live, "/openapi.json")["paths"]
    for path in (
        "/api/tournaments",
        "/api/tournaments/{tournament}",
        "/api/tournaments/{tournament}/standings",
        "/api/tournaments/{tournament}/seats",
        "/api/tournaments/{tournament}/{action}",
        "/api/leaderboard/{game}",
    ):
        assert path in paths, path


def test_the_command_line_runs_and_watches_a_host_tournament(live: LiveServer) -> None:
    from typer.testing import CliRunner

    from dennou.cli import app

    owner = live.register("olga")
    runner = CliRunner()
    args = ["tournament", "daifugo", "--entrants", "greedy,random,g2=greedy", "--rules"]
    args += ["games=2", "--games", "3", "--server", live.http, "--token", owner]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "3 matches" in result.output and "ordinal" in result.output
    assert "finished; seed" in result.output
    seeded = runner.invoke(app, [*args, "--seed", "3"])
    assert seeded.exit_code != 0 and "server draws the seed" in str(seeded.exception)
    board = runner.invoke(app, ["leaderboard", "daifugo", "--server", live.http])
    assert board.exit_code == 0, board.output
    assert "games=2" in board.output and "bot:greedy" in board.output


def test_the_readme_contestant_plays_with_bot_run_tournament(live: LiveServer) -> None:
    import os
    import re
    import subprocess
    import sys
    from pathlib import Path

    from dennou.server.testing import SRC

    root = Path(__file__).resolve().parents[2]
    alice = live.register("alice")
    owner = live.register("olga")
    body = daifugo(["@alice", "greedy", "random"], start=True)
    body["games"] = 3
    body["options"]["absent_grace"] = 120  # the program starts up in its own time
    tid = post(live, "/api/tournaments", owner, body).json()["id"]
    cmd = [sys.executable, "-m", "dennou", "bot", "run", "examples.daifugo_bot:BigGroupsFirst"]
    done = subprocess.run(
        [*cmd, "--tournament", tid, "--server", live.ws_url, "--token", alice],
        cwd=root,
        env={**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{root}"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # what a person reads: one line per table as it is given and as it ends, no raw JSON
    assert "{" not in done.stdout, done.stdout
    ended = re.findall(r"^table (\w+): seat \d, rank \d of 3, score \S+$", done.stdout, re.M)
    assert len(set(ended)) == 3, done.stdout
    assert done.stdout.count(f"tournament {tid}: playing table ") == 3
    assert f"tournament {tid} is over: 3 of your games played" in done.stdout
    rows = {r["name"]: r for r in get(live, f"/api/tournaments/{tid}/standings")["standings"]}
    assert rows["alice"]["games"] == 3 and rows["alice"]["defaults"] == 0
