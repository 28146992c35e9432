"""Time at a table: bounded clocks shown to everyone, one
clock for every game, resign, abort, claim; tables of bots start at once; versions from the
future are refused. Every ending is a step in the record, which still replays."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from dennou.core import record as rec
from dennou.games import REGISTRY

from .checks import quick_rules
from .conftest import WS, LiveServer


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def duel(live: LiveServer, **options: Any) -> tuple[WS, WS, str]:
    """ann (seat 0) and ben (seat 1) at a started Numeron table."""
    ann = live.connect(live.register("ann"))
    ben = live.connect(live.register("ben"))
    reply = ann.request(
        {"type": "create_table", "game": "numeron", "seats": ["me", "open"], "options": options}
    )
    table = str(reply["table"]["id"])  # type: ignore[index]
    ben.request({"type": "join", "table": table})
    ann.wait_for("turn", table=table)
    ben.wait_for("turn", table=table)
    return ann, ben, table


def record_of(live: LiveServer, table: str) -> rec.Record:
    reply = httpx.get(f"{live.http}/api/tables/{table}/record")
    assert reply.status_code == 200, reply.text
    [record] = rec.loads(reply.text)
    return record


def test_clock_settings_are_bounded_and_shown(live: LiveServer) -> None:
    """``time_limit`` 1e300 held a table for ever; absent_grace 0 was accepted and hidden."""
    ann = live.connect(live.register("ann"))
    cases = [
        ({"time_limit": 1e300}, "bad_message"),
        ({"time_limit": 0}, "bad_message"),
        ({"time_limit": 7200}, "config"),  # over the host's 3600 s
        ({"absent_grace": 0}, "bad_message"),
        ({"absent_grace": 0.01}, "config"),  # under the host's minimum
        ({"absent_grace": 86400}, "config"),
    ]
    for options, code in cases:
        reply = ann.request({"type": "create_table", "game": "numeron", "options": options})
        assert reply["type"] == "error" and reply["code"] == code, (options, reply)
    options = {"time_limit": 30, "absent_grace": 7}
    made = ann.request({"type": "create_table", "game": "numeron", "options": options})["table"]
    assert made["time_limit"] == 30 and made["absent_grace"] == 7  # type: ignore[index]
    assert made["rules"]["time_limit"] == 30  # type: ignore[index]
    listed = ann.request({"type": "list_tables"})["tables"][0]  # type: ignore[index]
    assert listed["absent_grace"] == 7 and listed["time_limit"] == 30


def test_one_clock_for_every_game(live: LiveServer) -> None:
    """``options.time_limit`` was silently ignored for Daifugo; now it is the clock of every
    game, and a rules option that would be ignored is refused."""
    ann = live.connect(live.register("ann"))
    made = ann.request(
        {
            "type": "create_table",
            "game": "daifugo",
            "rules": quick_rules("daifugo") | {"time_limit": 3},
            "seats": ["me", "bot:random", "bot:random"],
            "options": {"time_limit": 3},
        }
    )
    table = made["table"]
    assert table["time_limit"] == 3 and table["rules"]["time_limit"] == 3  # type: ignore[index]
    turn = ann.wait_for("turn", table=table["id"])  # type: ignore[index]
    assert 0 < turn["time_limit"] <= 3  # type: ignore[operator]
    refused = ann.request({"type": "create_table", "game": "daifugo", "rules": {"time_limit": 20}})
    assert refused["code"] == "config" and "options.time_limit" in refused["message"]  # type: ignore[operator]
    listed: list[dict[str, Any]] = ann.request({"type": "list_games"})["games"]  # type: ignore[assignment]
    games = {g["name"]: g for g in listed}
    assert games["daifugo"]["time_limit"] == 10 and games["numeron"]["time_limit"] == 60
    # a game whose rules say nothing of the host's clock takes it from the table the same way
    chairs = ann.request({"type": "create_table", "game": "chairs", "options": {"time_limit": 5}})[
        "table"
    ]
    assert chairs["time_limit"] == 5 and chairs["rules"]["time_limit"] == 600  # type: ignore[index]


def test_a_table_of_only_bots_starts_at_once(live: LiveServer) -> None:
    """A table of bots starts at once (it stayed waiting at version 0)."""
    token = live.register("ann")
    made = httpx.post(
        f"{live.http}/api/tables",
        json={"game": "numeron", "seats": ["bot:random", "bot:random"]},
        headers=auth(token),
    )
    table = made.json()["id"]
    deadline = time.monotonic() + 20
    info = made.json()
    while info["status"] == "waiting" and time.monotonic() < deadline:
        time.sleep(0.05)
        info = httpx.get(f"{live.http}/api/tables/{table}").json()
    assert info["status"] in ("playing", "finished")
    guest = live.connect(None)  # spectators watch it live
    guest.request({"type": "spectate", "table": table})
    seen = guest.wait_for("view", table=table)
    if seen["status"] == "playing":
        assert guest.wait_for("event", table=table)["version"] > seen["version"]  # type: ignore[operator]


def test_an_act_from_the_future_is_refused(live: LiveServer) -> None:
    """``act.version`` ahead of the table's was accepted."""
    ann, _, table = duel(live)
    reply = ann.request({"type": "act", "table": table, "action": "set 012", "version": 5})
    assert reply["code"] == "stale_version"
    assert "the table is at version 0" in reply["message"]  # type: ignore[operator]
    assert ann.request({"type": "get_view", "table": table})["version"] == 0


def test_resign_ends_the_game_and_the_record_holds_it(live: LiveServer) -> None:
    """No resign."""
    ann, ben, table = duel(live, rated=True)  # rated: the result enters the history
    ann.request({"type": "act", "table": table, "action": "set 012"})
    event = ben.request({"type": "resign", "table": table})
    assert event["type"] == "event" and event["step"] == "end" and event["reason"] == "resign"
    for ws in (ann, ben):
        end = ws.wait_for("end", table=table)
        assert end["status"] == "finished"
        assert end["outcome"]["ranks"] == [1, 2]  # type: ignore[index]
        assert end["outcome"]["detail"]["end"] == "resign"  # type: ignore[index]
    record = record_of(live, table)
    assert record.steps[-1].end == "resign" and record.steps[-1].seat == 1
    assert len(list(rec.replay(record, REGISTRY["numeron"]))) == len(record.steps) + 1
    history = httpx.get(f"{live.http}/api/accounts/ben").json()["history"]
    assert [h["result"] for h in history] == ["loss"]
    assert ann.request({"type": "resign", "table": table})["code"] == "game_over"


def test_abort_only_before_the_first_move_and_nobody_s_history_counts_it(
    live: LiveServer,
) -> None:
    """No abort; an aborted game must not enter anyone's history."""
    ann, ben, table = duel(live)
    reply = ann.request({"type": "abort", "table": table})
    assert reply["step"] == "end" and reply["reason"] == "abort"
    end = ben.wait_for("end", table=table)
    assert end["status"] == "aborted" and end["outcome"] is None
    info = httpx.get(f"{live.http}/api/tables/{table}").json()
    assert info["status"] == "aborted"
    assert httpx.get(f"{live.http}/api/accounts/ann").json()["history"] == []
    record = record_of(live, table)
    assert record.steps[-1].end == "abort" and record.outcome is None
    # after a move it is too late
    cy = live.connect(live.register("cy"))
    other = str(
        cy.request({"type": "create_table", "game": "numeron", "seats": ["me", "bot:random"]})[
            "table"
        ]["id"]  # type: ignore[index]
    )
    cy.wait_for("turn", table=other)
    cy.request({"type": "act", "table": other, "action": "set 012"})
    assert cy.request({"type": "abort", "table": other})["code"] == "conflict"


def test_claim_the_win_after_the_opponent_is_gone_past_the_grace(tmp_path: Path) -> None:
    """No claim when the other player is gone."""
    # the claim grace down to the absent grace (test_fair_play checks the host's grace)
    limits = {"rate": 1000.0, "burst": 2000.0, "claim_grace_min": 0.5, "claim_grace_clocks": 0}
    live = LiveServer(tmp_path / "data", limits=limits)
    try:
        claim_after_the_grace(live)
    finally:
        live.stop()


def claim_after_the_grace(live: LiveServer) -> None:
    ann, ben, table = duel(live, absent_grace=0.5)
    assert ann.request({"type": "claim", "table": table})["code"] == "conflict"  # ben is here
    ben.close()
    time.sleep(0.1)
    assert ann.request({"type": "claim", "table": table})["code"] == "conflict"  # too soon
    time.sleep(0.8)
    reply = ann.request({"type": "claim", "table": table})
    assert reply["step"] == "end" and reply["reason"] == "claim", reply
    end = ann.wait_for("end", table=table)
    assert end["outcome"]["ranks"] == [1, 2]  # type: ignore[index]
    assert end["outcome"]["detail"]["losers"] == [1]  # type: ignore[index]
    assert record_of(live, table).steps[-1].end == "claim"
