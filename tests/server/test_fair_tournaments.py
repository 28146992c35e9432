"""Fair host tournaments (docs/security.md, "Tournaments"): duplicate deals stay hidden until
their whole group has finished, entrants accept before they play, and tournaments obey the
host's limits like any table.

A real server on loopback (in-process uvicorn), real SDK clients over the WebSocket.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

import httpx

from dennou.client import run_bot
from dennou.client.tournament import play_tournament
from dennou.core import record as rec
from dennou.core.bot import RandomBot

from .conftest import LiveServer
from .test_tournaments import daifugo, get, post, wait_until


def test_a_duplicate_group_shows_nothing_of_its_deals_until_the_whole_group_has_finished(
    live: LiveServer,
) -> None:
    # alice sits at every rotation of the group's one deal: she plays the first rotation, and
    # while the second waits for her, nothing of the first may reach anyone but its players
    alice = live.register("alice")
    owner = live.register("olga")
    body = daifugo(["@alice", "greedy", "random"], seats=3, duplicate=True, start=True)
    body["options"]["tables"] = 3
    body["games"] = 3
    tid = post(live, "/api/tournaments", owner, body).json()["id"]
    assert post(live, f"/api/tournaments/{tid}/accept", alice).status_code == 200
    playing = wait_until(lambda: get(live, f"/api/tournaments/{tid}")["playing"], what="table")
    assert len(playing) == 1, "one remote entrant never holds two rotations of a deal at once"
    first = playing[0]["table"]
    asyncio.run(asyncio.wait_for(run_bot(RandomBot(), live.ws_url, alice, table=first), 120))
    wait_until(lambda: get(live, f"/api/tournaments/{tid}")["finished"] == 1, what="rotation 1")
    second = wait_until(lambda: get(live, f"/api/tournaments/{tid}")["playing"], what="rot. 2")
    assert len(second) == 1 and second[0]["table"] != first

    # the tables list: no result (the seed of the group's deal was in it), and who met it before
    tables = {t["table"]: t for t in get(live, f"/api/tournaments/{tid}/tables")}
    assert tables[first]["result"] is None and "duplicate group" in tables[first]["withheld"]
    assert tables[second[0]["table"]]["met_deal_before"] == ["alice"]
    assert tables[first]["met_deal_before"] == []
    # standings count the group only once it is over
    assert all(r["games"] == 0 for r in get(live, f"/api/tournaments/{tid}/standings")["standings"])
    # record, replay, the table's outcome, the games-over list
    for path in (f"/api/tables/{first}/record", f"/api/tables/{first}/replay?seat=0"):
        reply = httpx.get(live.http + path, timeout=10)
        assert reply.status_code == 409 and "duplicate group" in reply.json()["message"], path
    assert get(live, f"/api/tables/{first}")["outcome"] is None
    over = {g["id"]: g for g in get(live, "/api/games-over")["games"]}
    assert over[first]["outcome"] is None
    # spectating: the finished rotation from version 0, and the one still playing
    watcher = live.connect(live.register("eve"))
    for table in (first, second[0]["table"]):
        refused = watcher.request({"type": "spectate", "table": table, "version": 0})
        assert refused["type"] == "error" and refused["code"] == "forbidden", refused
        assert "duplicate group" in str(refused["message"])
    assert not [m for m in watcher.drain() if m.get("type") == "event"], "no card was streamed"
    watcher.close()

    asyncio.run(asyncio.wait_for(play_tournament(RandomBot(), live.ws_url, alice, tid), 180))
    wait_until(lambda: get(live, f"/api/tournaments/{tid}")["status"] == "finished")
    tables = {t["table"]: t for t in get(live, f"/api/tournaments/{tid}/tables")}
    seeds = {t["result"]["seed"] for t in tables.values()}
    assert len(seeds) == 1, "one deal for the group, published once it is over"
    reply = httpx.get(f"{live.http}/api/tables/{first}/record", timeout=10)
    assert reply.status_code == 200
    [record] = rec.loads(reply.text)
    assert record.seed is not None
    assert get(live, f"/api/tables/{first}")["outcome"] is not None
    assert sum(r["games"] for r in get(live, f"/api/tournaments/{tid}/standings")["standings"])


def test_an_account_plays_in_a_tournament_only_once_it_has_accepted(live: LiveServer) -> None:
    owner = live.register("olga")
    bob = live.register("bob")
    mallory = live.register("mallory")
    tid = post(live, "/api/tournaments", owner, daifugo(["@bob", "greedy", "random"])).json()["id"]
    info = get(live, f"/api/tournaments/{tid}")
    assert info["invitations"] == {"bob": "invited"}
    refused = post(live, f"/api/tournaments/{tid}/start", owner)
    assert refused.status_code == 409 and "bob (invited)" in refused.json()["message"]
    assert post(live, f"/api/tournaments/{tid}/accept", mallory).status_code == 403
    assert post(live, f"/api/tournaments/{tid}/accept", None).status_code == 401
    assert post(live, f"/api/tournaments/{tid}/decline", bob).status_code == 200
    refused = post(live, f"/api/tournaments/{tid}/start", owner)
    assert refused.status_code == 409 and "bob (declined)" in refused.json()["message"]
    assert get(live, f"/api/tournaments/{tid}")["playing"] == []
    assert post(live, f"/api/tournaments/{tid}/accept", bob).status_code == 200
    assert post(live, f"/api/tournaments/{tid}/start", owner).json()["status"] == "running"
    refused = post(live, f"/api/tournaments/{tid}/decline", bob)
    assert refused.status_code == 409, "entrants are set once it runs"
    post(live, f"/api/tournaments/{tid}/cancel", owner)

    # created with start: it starts by itself when the last invited entrant accepts
    body = daifugo(["@bob", "@olga", "greedy"], start=True)
    tid = post(live, "/api/tournaments", owner, body).json()["id"]
    info = get(live, f"/api/tournaments/{tid}")
    assert info["status"] == "created" and info["invitations"] == {
        "bob": "invited",
        "olga": "accepted",
    }, "the owner entering itself has accepted"
    assert post(live, f"/api/tournaments/{tid}/accept", bob).json()["status"] == "running"
    post(live, f"/api/tournaments/{tid}/cancel", owner)

    # a bot may not be listed under a person's name
    refused = post(live, "/api/tournaments", owner, daifugo(["bob=greedy", "random", "@olga"]))
    assert refused.status_code == 400 and "named like the account 'bob'" in refused.text


def test_tournament_tables_obey_the_host_limits_like_any_table(live: LiveServer) -> None:
    owner = live.register("olga")
    bad: list[tuple[dict[str, Any], str]] = [
        ({"time_limit": 0.001}, "options.time_limit must be"),
        ({"time_limit": 1e308}, "options.time_limit must be"),
        ({"absent_grace": 0}, "absent_grace must be"),
        ({"absent_grace": 1e308}, "absent_grace must be"),
        ({"tables": 65}, "tables is 1-"),
    ]
    for options, message in bad:
        body = daifugo(["greedy", "random"], options=options)
        reply = post(live, "/api/tournaments", owner, body)
        assert reply.status_code == 400 and message in reply.json()["message"], reply.text
    assert get(live, "/api/tournaments") == []

    # tournaments not over, per account: counted before any await, so concurrent requests
    # cannot pass the limit together
    def create(_: int) -> int:
        body = daifugo(["greedy", "random"])
        return post(live, "/api/tournaments", owner, body).status_code

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        codes = sorted(pool.map(create, range(8)))
    limit = 3  # the default tournaments_per_account
    assert codes == [201] * limit + [429] * (8 - limit), codes


def test_the_owners_tables_share_one_limit_across_its_tournaments(tmp_path: Any) -> None:
    live = LiveServer(
        tmp_path / "data",
        rate=1000.0,
        burst=2000.0,
        limits={"tables_per_account": 3, "tournaments_per_account": 3},
    )
    try:
        owner = live.register("olga")
        ghost = live.register("ghost")  # accepts, never connects: its tables stay open
        tids = []
        for _ in range(2):
            body = daifugo(["@ghost", "greedy", "random"], start=True)
            body["options"] = {"tables": 3, "absent_grace": 600}
            tid = post(live, "/api/tournaments", owner, body).json()["id"]
            post(live, f"/api/tournaments/{tid}/accept", ghost)
            tids.append(tid)
        wait_until(
            lambda: sum(len(get(live, f"/api/tournaments/{t}")["playing"]) for t in tids) == 3,
            what="three tables",
        )
        refused = post(
            live, "/api/tables", owner, {"game": "numeron", "seats": ["open", "bot:random"]}
        )
        assert refused.status_code == 429, "the tournaments' tables count as the owner's"
        open_tables = sum(len(get(live, f"/api/tournaments/{t}")["playing"]) for t in tids)
        assert open_tables == 3

        # cancel ends the tournament's tables too: nobody wins, the record says why
        playing = [p["table"] for p in get(live, f"/api/tournaments/{tids[0]}")["playing"]]
        assert post(live, f"/api/tournaments/{tids[0]}/cancel", owner).status_code == 200
        for table in playing:
            info = wait_until(
                lambda t=table: (i := get(live, f"/api/tables/{t}"))["status"] == "aborted" and i,
                what="the table ended",
            )
            assert info["outcome"] is None
            [record] = rec.loads(httpx.get(f"{live.http}/api/tables/{table}/record").text)
            assert record.steps[-1].end == "cancel"
    finally:
        live.stop()


def test_equal_runs_give_equal_leaderboards_rated_in_match_order(
    tmp_path: Any, monkeypatch: Any
) -> None:
    # three tables at once: tables finish in whatever order the machine gives, but the
    # leaderboard moves in match order, as the tournament's own ratings do
    monkeypatch.setenv("DENNOU_TOURNAMENT_SEED", "20261128")
    boards = []
    for run in ("first", "second"):
        live = LiveServer(tmp_path / run, rate=1000.0, burst=2000.0)
        try:
            owner = live.register("olga")
            body = daifugo(["greedy", "random", "mc=montecarlo:playouts=8"], seats=2, start=True)
            body["options"]["tables"] = 3
            tid = post(live, "/api/tournaments", owner, body).json()["id"]
            wait_until(
                lambda t=tid, at=live: get(at, f"/api/tournaments/{t}")["status"] == "finished",
                what="the end",
            )
            standings = get(live, f"/api/tournaments/{tid}/standings")
            [board] = get(live, "/api/leaderboard/daifugo")["boards"]
        finally:
            live.stop()
        own = {r["name"]: (r["mu"], r["sigma"]) for r in standings["standings"]}
        rated = {r["name"]: (r["mu"], r["sigma"]) for r in board["ratings"]}
        assert rated == {
            "bot:greedy": own["greedy"],
            "bot:random": own["random"],
            "bot:montecarlo:playouts=8": own["mc"],
        }, "the leaderboard moved as the tournament's own ratings"
        boards.append(rated)
    assert boards[0] == boards[1]


def test_a_tournament_with_a_start_time_starts_then_and_plays_the_absent_as_absent(
    live: LiveServer,
) -> None:
    import time

    owner = live.register("olga")
    live.register("ghost")  # invited, never accepts
    body = daifugo(["@ghost", "greedy", "random"], start=True)
    body["options"] = {"tables": 1, "absent_grace": 1, "start_at": time.time() + 1.5}
    tid = post(live, "/api/tournaments", owner, body).json()["id"]
    info = get(live, f"/api/tournaments/{tid}")
    assert info["status"] == "created" and info["invitations"] == {"ghost": "invited"}
    assert get(live, f"/api/tournaments/{tid}/standings")["invitations"] == {"ghost": "invited"}
    wait_until(lambda: get(live, f"/api/tournaments/{tid}")["status"] == "running", 30, "start")
    table = wait_until(lambda: get(live, f"/api/tournaments/{tid}")["playing"])[0]["table"]
    seat = get(live, f"/api/tables/{table}")["seats"]
    assert any(s["name"] == "ghost" for s in seat), "its seat is held and defaults as absent"
    post(live, f"/api/tournaments/{tid}/cancel", owner)
    late = daifugo(["greedy", "random"], options={"start_at": time.time() + 40 * 86400})
    refused = post(live, "/api/tournaments", owner, late)
    assert refused.status_code == 400 and "start_at" in refused.json()["message"]


def test_a_tournament_match_cannot_be_aborted(live: LiveServer) -> None:
    owner = live.register("olga")
    alice = live.register("alice")
    body = daifugo(["@alice", "greedy", "random"], start=True)
    body["options"]["tables"] = 1
    tid = post(live, "/api/tournaments", owner, body).json()["id"]
    post(live, f"/api/tournaments/{tid}/accept", alice)
    table = wait_until(lambda: get(live, f"/api/tournaments/{tid}")["playing"])[0]["table"]
    ws = live.connect(alice)
    joined = ws.request({"type": "join", "table": table})
    assert joined["type"] == "joined", joined
    refused = ws.request({"type": "abort", "table": table})
    assert refused["type"] == "error" and refused["code"] == "forbidden", refused
    assert "tournament" in str(refused["message"])
    ws.close()
    assert get(live, f"/api/tables/{table}")["status"] == "playing"
    post(live, f"/api/tournaments/{tid}/cancel", owner)


def test_invitations_accepted_at_the_same_moment_all_count(live: LiveServer) -> None:
    owner = live.register("olga")
    tokens = {name: live.register(name) for name in ("ann", "ben", "cal")}
    for _ in range(3):
        body = daifugo(["@ann", "@ben", "@cal", "greedy"], start=True)
        tid = post(live, "/api/tournaments", owner, body).json()["id"]
        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            codes = list(
                pool.map(
                    lambda t, i=tid: post(live, f"/api/tournaments/{i}/accept", t).status_code,
                    tokens.values(),
                )
            )
        assert codes == [200, 200, 200]
        info = get(live, f"/api/tournaments/{tid}")
        assert set(info["invitations"].values()) == {"accepted"}, info["invitations"]
        assert info["status"] == "running", "the last acceptance started it"
        post(live, f"/api/tournaments/{tid}/cancel", owner)
