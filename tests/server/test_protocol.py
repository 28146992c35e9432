"""Every message and every error of the protocol, against a real server on loopback."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from dennou.core.bot import RandomBot
from dennou.games import REGISTRY

from .checks import texts_sent
from .conftest import WS, LiveServer


def start_duel(
    live: LiveServer, time_limit: float | None = None, **rules: Any
) -> tuple[WS, WS, str]:
    """Two players at a fresh Numeron table (seat 0: ann, seat 1: ben), started."""
    ann = live.connect(live.register("ann"))
    ben = live.connect(live.register("ben"))
    reply = ann.request(
        {
            "type": "create_table",
            "game": "numeron",
            "rules": rules,
            "seats": ["me", "open"],
            "options": {"absent_grace": 30, "time_limit": time_limit},
        }
    )
    table = str(reply["table"]["id"])  # type: ignore[index]
    ann.wait_for("joined", table=table, seat=0)
    joined = ben.request({"type": "join", "table": table})
    assert joined == {"type": "joined", "id": joined["id"], "table": table, "seat": 1}
    return ann, ben, table


def test_hello_ping_and_guest(live: LiveServer) -> None:
    guest = live.connect(None)
    assert guest.request({"type": "ping"})["type"] == "pong"
    token = live.register("ann")
    ws = WS(live.ws_url)
    welcome = ws.request({"type": "hello", "protocol": 1, "token": token})
    assert welcome["account"] == "ann"


def test_must_say_hello_first_and_unknown_token_is_refused(live: LiveServer) -> None:
    ws = live.connect(hello=False)
    reply = ws.request({"type": "ping"})
    assert reply["code"] == "hello_first"
    reply = ws.request({"type": "hello", "token": "not-a-token"})
    assert reply["code"] == "unauthorized"
    reply = ws.request({"type": "hello", "protocol": 99})
    assert reply["code"] == "bad_message"
    assert ws.request({"type": "hello"})["type"] == "welcome"


def test_list_games_lists_every_registered_game(live: LiveServer) -> None:
    ws = live.connect(None)
    games = ws.request({"type": "list_games"})["games"]
    assert [g["name"] for g in games] == list(REGISTRY)  # type: ignore[attr-defined]
    numeron = next(g for g in games if g["name"] == "numeron")  # type: ignore[attr-defined]
    assert any(r["name"] == "digits" and r["default"] == 3 for r in numeron["rules"])
    assert "random" in numeron["bots"]


def test_create_table_errors(live: LiveServer) -> None:
    guest = live.connect(None)
    assert guest.request({"type": "create_table", "game": "numeron"})["code"] == "unauthorized"
    ws = live.connect(live.register("ann"))
    cases = [
        ({"game": "nope"}, "not_found"),
        ({"game": "numeron", "rules": {"digits": 9}}, "config"),
        ({"game": "numeron", "rules": {"colour": "red"}}, "config"),
        ({"game": "numeron", "seats": ["open"]}, "config"),
        ({"game": "numeron", "seats": ["open", "bot:nosuchbot"]}, "config"),
        ({"game": "numeron", "seats": ["open", "chair"]}, "config"),
        ({"game": "numeron", "options": {"time_limit": -1}}, "bad_message"),
        ({"game": "numeron", "options": {"time_limit": 1e300}}, "bad_message"),
        ({"game": "numeron", "options": {"time_limit": 5000}}, "config"),
        ({"game": "numeron", "options": {"speed": 1}}, "bad_message"),
    ]
    for fields, code in cases:
        reply = ws.request({"type": "create_table", **fields})  # type: ignore[dict-item]
        assert reply["type"] == "error" and reply["code"] == code, (fields, reply)
        assert reply["message"]
    assert ws.request({"type": "list_tables"})["tables"] == []


def test_create_join_start_turn_and_view(live: LiveServer) -> None:
    ann, ben, table = start_duel(live)
    for ws, seat in ((ann, 0), (ben, 1)):
        view = ws.wait_for("view", table=table)
        assert view["seat"] == seat and view["version"] == 0 and view["status"] == "playing"
        turn = ws.wait_for("turn", table=table)
        assert turn["seat"] == seat and turn["version"] == 0
        assert turn["legal"] is None and turn["legal_count"] == 720  # numbers: too many to list
        assert turn["legal_description"] and len(turn["legal_sample"]) == 20  # type: ignore[arg-type]
        assert 55 < turn["time_limit"] <= 60  # type: ignore[operator]
        assert turn["deadline"] > time.time() + 50  # type: ignore[operator]
        assert turn["view"]["my_number"] is None  # type: ignore[index]
    tables = ann.request({"type": "list_tables", "game": "numeron"})["tables"]
    assert [t["status"] for t in tables] == ["playing"]  # type: ignore[attr-defined]


def test_act_accepted_is_acked_and_broadcast_with_version(live: LiveServer) -> None:
    ann, ben, table = start_duel(live)
    reply = ann.request({"type": "act", "table": table, "action": "set 012", "version": 0})
    assert reply["type"] == "event" and reply["version"] == 1 and reply["seat"] == 0
    other = ben.wait_for("event", table=table)
    assert other["version"] == 1 and not [t for t in texts_sent(other) if "012" in t]
    view = ann.request({"type": "get_view", "table": table})
    assert view["view"]["my_number"] == "012"  # type: ignore[index]


def test_illegal_invalid_stale_and_not_your_turn_leave_the_table_unchanged(
    live: LiveServer,
) -> None:
    ann, ben, table = start_duel(live)
    before = ann.request({"type": "get_view", "table": table})
    cases = [
        ({"type": "set", "number": "011"}, "illegal_action", "IllegalActionError"),
        ({"type": "call", "number": "012"}, "illegal_action", "IllegalActionError"),
        ({"type": "fly"}, "invalid_action", "InvalidActionError"),
        ("set", "invalid_action", "InvalidActionError"),
        (17, "invalid_action", "InvalidActionError"),
    ]
    for action, code, error in cases:
        reply = ann.request({"type": "act", "table": table, "action": action})
        assert reply["type"] == "error" and reply["code"] == code, (action, reply)
        assert reply["error"] == error and reply["table"] == table
    ann.request({"type": "act", "table": table, "action": "set 012"})
    reply = ann.request({"type": "act", "table": table, "action": "set 345"})
    assert reply["code"] == "not_your_turn"
    assert (
        ben.request({"type": "act", "table": table, "action": "set 345", "version": -1})["code"]
        == "stale_version"
    )
    after = ann.request({"type": "get_view", "table": table})
    assert after["version"] == before["version"] + 1  # type: ignore[operator]  # one good action


def test_spectators_get_spectator_views_and_cannot_act(live: LiveServer) -> None:
    ann, ben, table = start_duel(live)
    ann.request({"type": "act", "table": table, "action": "set 012"})
    ben.request({"type": "act", "table": table, "action": "set 345"})
    guest = live.connect(None)
    joined = guest.request({"type": "spectate", "table": table})
    assert joined["seat"] is None
    view = guest.wait_for("view", table=table)
    assert view["seat"] is None and "my_number" not in view["view"]  # type: ignore[operator]
    assert not [t for t in texts_sent(view) if "012" in t or "345" in t]
    assert guest.request({"type": "act", "table": table, "action": "call 345"})["code"] == (
        "forbidden"
    )
    assert guest.request({"type": "join", "table": table})["code"] == "unauthorized"
    cy = live.connect(live.register("cy"))
    assert cy.request({"type": "join", "table": table})["code"] == "conflict"
    assert cy.request({"type": "act", "table": table, "action": "call 345"})["code"] == "forbidden"


def test_talk_through_the_games_channels(live: LiveServer) -> None:
    ann, ben, table = start_duel(live)
    reply = ann.request({"type": "talk", "table": table, "text": "good luck"})
    assert reply["type"] == "event" and reply["step"] == "talk" and reply["version"] == 1
    heard = ben.wait_for("event", table=table, step="talk")
    assert heard["events"][0]["data"]["text"] == "good luck"  # type: ignore[index]
    assert (
        ann.request({"type": "talk", "table": table, "channel": "team:x", "text": "hi"})["code"]
        == "illegal_action"
    )
    watcher = live.connect(live.register("cy"))
    watcher.request({"type": "spectate", "table": table})
    # spectators talk in their own room, never in the players' channels
    refused = watcher.request({"type": "talk", "table": table, "text": "it is 012"})
    assert refused["code"] == "forbidden", refused
    room = {"type": "talk", "table": table, "text": "nice", "channel": "spectators"}
    ok = watcher.request(room)
    assert ok["type"] == "event" and ok["seat"] is None
    assert ann.request({"type": "talk", "table": table, "text": "x" * 501})["code"] == (
        "bad_message"
    )
    # talk does not change whose decision it is, nor its version
    turn_version = ann.request({"type": "act", "table": table, "action": "set 012", "version": 0})
    assert turn_version["type"] == "event"


def test_timeout_applies_the_default_and_everyone_is_told(live: LiveServer) -> None:
    ann, ben, table = start_duel(live, time_limit=0.5)
    guest = live.connect(None)
    guest.request({"type": "spectate", "table": table})
    for ws in (ann, ben, guest):
        event = ws.wait_for("event", table=table, step="default", timeout=5)
        assert event["reason"] == "timeout"
        assert event["events"][0]["kind"] == "timeout"  # type: ignore[index]


def test_absent_seat_defaults_until_it_returns(live: LiveServer) -> None:
    ann = live.connect(live.register("ann"))
    reply = ann.request(
        {
            "type": "create_table",
            "game": "numeron",
            "seats": ["me", "bot:random"],
            "options": {"absent_grace": 0.3},
        }
    )
    table = reply["table"]["id"]  # type: ignore[index]
    ann.wait_for("turn", table=table)
    ann.close()
    time.sleep(1.0)
    back = live.connect(live.register("ben"))
    back.request({"type": "spectate", "table": table})
    view = back.wait_for("view", table=table)
    assert view["version"] >= 2  # type: ignore[operator]  # ann's setup was defaulted
    ann = WS(live.ws_url)
    token_reply = httpx.get(f"{live.http}/api/tables/{table}").json()
    assert token_reply["seats"][0]["connected"] is False


def test_resume_sends_missed_events_or_a_fresh_view(live: LiveServer) -> None:
    ann, ben, table = start_duel(live)
    ann.request({"type": "act", "table": table, "action": "set 012"})
    ann.request({"type": "talk", "table": table, "text": "one"})
    ann.request({"type": "talk", "table": table, "text": "two"})
    ben.wait_for("event", table=table, version=3)  # everything seen live first
    assert ben.request({"type": "resume", "table": table, "version": 1})["type"] == "resumed"
    missed = [ben.wait_for("event", table=table)["version"] for _ in range(2)]
    assert missed == [2, 3]
    ben.send({"type": "resume", "table": table, "version": 99})
    fresh = ben.wait_for("view", table=table)
    assert fresh["version"] == 3
    # a reconnecting player names the last version it saw when it joins again
    ben.close()
    ben2 = live.connect(live_token(live, "ben2"))  # another account cannot take ben's seat
    assert ben2.request({"type": "join", "table": table})["code"] == "conflict"


def live_token(live: LiveServer, name: str) -> str:
    return live.register(name)


def test_rejoin_with_version_resumes(live: LiveServer) -> None:
    token_ann = live.register("ann")
    token_ben = live.register("ben")
    ann = live.connect(token_ann)
    ben = live.connect(token_ben)
    reply = ann.request(
        {"type": "create_table", "game": "numeron", "seats": ["me", "open"], "options": {}}
    )
    table = reply["table"]["id"]  # type: ignore[index]
    ben.request({"type": "join", "table": table})
    ann.request({"type": "act", "table": table, "action": "set 012"})
    ann.close()
    ben.request({"type": "talk", "table": table, "text": "where did you go"})
    again = live.connect(token_ann)
    assert again.request({"type": "join", "table": table, "version": 1})["seat"] == 0
    event = again.wait_for("event", table=table)
    assert event["version"] == 2 and event["step"] == "talk"


def test_leave_before_start_frees_the_seat(live: LiveServer) -> None:
    ann = live.connect(live.register("ann"))
    reply = ann.request({"type": "create_table", "game": "numeron", "seats": ["me", "open"]})
    table = reply["table"]["id"]  # type: ignore[index]
    ann.wait_for("joined")
    left = ann.request({"type": "leave", "table": table})
    assert left["type"] == "left"
    info = httpx.get(f"{live.http}/api/tables/{table}").json()
    assert [s["kind"] for s in info["seats"]] == ["open", "open"]
    assert ann.request({"type": "leave", "table": table})["code"] == "forbidden"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("{not json", "malformed_json"),
        ("[1, 2]", "not_an_object"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"kind": "ping"}', "unknown_type"),
        ('{"type": "join"}', "bad_message"),
        ('{"type": "join", "table": 5}', "bad_message"),
        ('{"type": "ping", "extra": 1}', "bad_message"),
        ('{"type": "act", "table": "nope", "action": "x"}', "not_found"),
    ],
)
def test_malformed_messages_get_specific_errors(live: LiveServer, raw: str, code: str) -> None:
    ws = live.connect(None)
    ws.send(raw)
    reply = ws.wait_for("error")
    assert reply["code"] == code, reply
    assert ws.request({"type": "ping"})["type"] == "pong"  # the connection stays


def test_too_large_message(live: LiveServer) -> None:
    ws = live.connect(None)
    ws.send(json.dumps({"type": "ping", "pad": "x" * 20_000}))
    assert ws.wait_for("error")["code"] == "too_large"
    assert ws.request({"type": "ping"})["type"] == "pong"


def test_persistent_garbage_is_closed_with_policy_violation(live: LiveServer) -> None:
    ws = live.connect(None)
    for _ in range(10):
        ws.send("garbage")
    with pytest.raises(ConnectionClosed) as info:
        for _ in range(20):
            ws.recv(timeout=5)
    assert info.value.rcvd is not None and info.value.rcvd.code == 1008


def test_rate_limit(tmp_path: Any) -> None:
    live = LiveServer(tmp_path / "rl", rate=5.0, burst=5.0)
    try:
        ws = live.connect(None)
        for _ in range(12):  # 5 pass, 7 refused
            ws.send({"type": "ping"})
        codes = [m.get("code") for m in ws.drain(0.3)]
        assert "rate_limited" in codes
        time.sleep(1.2)
        assert ws.request({"type": "ping"})["type"] == "pong"
    finally:
        live.stop()


def test_http_lobby_openapi_and_status_page(live: LiveServer) -> None:
    http = live.http
    assert httpx.post(f"{http}/api/accounts", json={"name": "bad name!"}).status_code == 400
    token = live.register("ann")
    assert httpx.post(f"{http}/api/accounts", json={"name": "ann"}).status_code == 409
    auth = {"authorization": f"Bearer {token}"}
    assert httpx.post(f"{http}/api/tables", json={"game": "numeron"}).status_code == 401
    bad = httpx.post(
        f"{http}/api/tables", json={"game": "numeron"}, headers={"authorization": "Bearer x"}
    )
    assert bad.status_code == 401
    made = httpx.post(
        f"{http}/api/tables",
        json={"game": "numeron", "seats": ["open", "bot:random"]},
        headers=auth,
    )
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    assert httpx.get(f"{http}/api/tables/{table}/record").status_code == 409
    joined = httpx.post(f"{http}/api/tables/{table}/join", json={}, headers=auth)
    # a seat taken over HTTP is played over a WebSocket: the game waits for its player
    assert joined.status_code == 200 and joined.json()["status"] == "waiting"
    assert httpx.get(f"{http}/api/tables/nope").status_code == 404
    player = live.connect(token)
    try:
        assert player.request({"type": "join", "table": table})["type"] == "joined"
        assert player.wait_for("view", table=table)["status"] == "playing"
    finally:
        player.close()
    listed = httpx.get(f"{http}/api/tables", params={"status": "playing"}).json()
    assert [t["id"] for t in listed["tables"]] == [table] and listed["next"] is None
    spec = httpx.get(f"{http}/openapi.json").json()
    assert spec["openapi"].startswith("3.") and "/api/tables" in spec["paths"]
    page = httpx.get(f"{http}/status")
    assert page.status_code == 200 and table in page.text
    account = httpx.get(f"{http}/api/accounts/ann").json()
    assert account["name"] == "ann" and account["history"] == []


def test_finished_tables_leave_memory_and_reload_on_demand(live: LiveServer) -> None:
    import asyncio

    from dennou.client import run_bot
    from dennou.client.testing import HarnessBot

    hub = live.app.state.hub
    hub.keep_finished = 0.2
    token = live.register("ann")
    ws = live.connect(token)
    table = ws.request(
        {"type": "create_table", "game": "numeron", "seats": ["open", "bot:random"]}
    )["table"]["id"]  # type: ignore[index]
    result = asyncio.run(run_bot(HarnessBot, live.ws_url, token, table=str(table), seed=1))
    time.sleep(0.6)
    assert table not in hub.tables
    guest = live.connect(None)
    assert guest.request({"type": "spectate", "table": table})["type"] == "joined"
    view = guest.wait_for("view", table=table)
    assert view["status"] == "finished" and view["version"] == result.version
    assert guest.wait_for("end", table=table)["outcome"] == result.outcome


def test_an_absent_seat_keeps_defaulting_and_returns(live: LiveServer) -> None:
    token = live.register("ann")
    ann = live.connect(token)
    reply = ann.request(
        {
            "type": "create_table",
            "game": "numeron",
            "seats": ["me", "bot:random"],
            "options": {"absent_grace": 0.2},
        }
    )
    table = reply["table"]["id"]  # type: ignore[index]
    ann.wait_for("turn", table=table)
    ann.close()
    started = time.time()
    info = httpx.get(f"{live.http}/api/tables/{table}").json()
    while info["version"] <= 6 and time.time() - started < 10:
        time.sleep(0.1)
        info = httpx.get(f"{live.http}/api/tables/{table}").json()
    # many decisions defaulted, not one per grace period
    assert info["version"] > 6 and time.time() - started < 0.2 * 6 + 3
    back = live.connect(token)
    assert back.request({"type": "join", "table": table})["seat"] == 0
    # the game may end (ann's defaults and the bot's moves) before she is back
    turn = back.wait_for(("turn", "end"), table=table)
    if turn["type"] == "turn":
        assert turn["time_limit"] > 50  # type: ignore[operator]  # back: the full time again


class Chatty(RandomBot):
    """Says hello (and a line in a channel that does not exist) before every move."""

    name = "chatty"

    def chat(
        self, view: Any, channels: frozenset[str], rng: random.Random
    ) -> Sequence[tuple[str, str]]:
        return [("public", "hello there"), ("nowhere", "dropped")]


def test_built_in_bots_talk_through_the_channels(tmp_path: Any) -> None:
    """A built-in bot's chat lines are steps like any other (stored, versioned, broadcast)."""
    from dennou.arena import bots as arena_bots

    arena_bots.GENERIC_BOTS["chatty"] = Chatty
    live = LiveServer(tmp_path / "chat")
    try:
        ann = live.connect(live.register("ann"))
        table = ann.request(
            {"type": "create_table", "game": "numeron", "seats": ["me", "bot:chatty"]}
        )["table"]["id"]  # type: ignore[index]
        talk = ann.wait_for("event", table=table, step="talk")
        assert talk["seat"] == 1 and talk["events"][0]["data"]["text"] == "hello there"  # type: ignore[index]
    finally:
        del arena_bots.GENERIC_BOTS["chatty"]
        live.stop()


def test_auth_only_your_own_seat_with_your_own_token(live: LiveServer) -> None:
    ann, ben, table = start_duel(live, first="seat0")
    ann.request({"type": "act", "table": table, "action": "set 012"})
    ben.request({"type": "act", "table": table, "action": "set 345"})
    ann.wait_for("turn", table=table, version=2)  # ann (seat 0) calls first
    # ben cannot act in ann's place: an action always acts for the sender's own seat
    before = ann.request({"type": "get_view", "table": table})
    assert ben.request({"type": "act", "table": table, "action": "call 012"})["code"] == (
        "not_your_turn"
    )
    # a wrong token gets nothing; a player of another table cannot act here
    impostor = WS(live.ws_url)
    assert impostor.request({"type": "hello", "token": "ann"})["code"] == "unauthorized"
    assert impostor.request({"type": "act", "table": table, "action": "call 345"})["code"] == (
        "hello_first"
    )
    cy = live.connect(live.register("cy"))
    cy.request({"type": "create_table", "game": "numeron", "seats": ["me", "open"]})
    assert cy.request({"type": "act", "table": table, "action": "call 345"})["code"] == "forbidden"
    guest = live.connect(None)
    guest.request({"type": "spectate", "table": table})
    assert guest.request({"type": "act", "table": table, "action": "call 345"})["code"] == (
        "forbidden"
    )
    after = ann.request({"type": "get_view", "table": table})
    assert after["version"] == before["version"] and after["view"] == before["view"]


def test_resume_answers_with_its_id_then_what_was_missed(live: LiveServer) -> None:
    """Resume got no reply carrying the request's id."""
    ann, ben, table = start_duel(live)
    ann.request({"type": "act", "table": table, "action": "set 012"})
    ben.drain()
    reply = ben.request({"type": "resume", "table": table, "version": 0})
    assert reply == {"type": "resumed", "id": reply["id"], "table": table, "version": 1}
    missed = ben.wait_for("event", table=table)
    assert missed["version"] == 1  # already seen live: clients drop it (docs/protocol.md §3)


def test_talk_at_a_game_without_talk_has_its_own_code(live: LiveServer) -> None:
    """Talk at a game without talk was an illegal_action like any other."""
    ann = live.connect(live.register("ann"))
    table = ann.request({"type": "create_table", "game": "hilo", "seats": ["me", "bot:random"]})[
        "table"
    ]["id"]  # type: ignore[index]
    ann.wait_for("turn", table=table)
    assert ann.request({"type": "talk", "table": table, "text": "hi"})["code"] == "no_talk"


def _turn(view: dict[str, Any]) -> bytes:
    from dennou.server import protocol as p

    return p.encode(
        p.Turn(
            table="t",
            version=1,
            seat=0,
            view=view,
            legal=None,
            legal_count=0,
            legal_description=None,
            legal_sample=None,
            channels=[],
            deadline=0.0,
            time_limit=0.0,
            time_bank=0.0,
        )
    )


def _view_msg(view: dict[str, Any]) -> bytes:
    from dennou.server import protocol as p

    return p.encode(
        p.ViewMsg(table="t", version=1, seat=0, status="playing", view=view, to_act=[], channels=[])
    )


@pytest.mark.parametrize("game_name", ["numeron", "stud10"])
def test_turn_and_view_messages_copy_a_views_kept_log_encoding_byte_for_byte(
    game_name: str,
) -> None:
    """A view's log keeps its JSON encoding (``LogJSON``); the message carrying the view is the
    same bytes as encoding the log event by event, and a log changed since is sent as it is."""
    import copy

    from dennou.core.game import CHANCE
    from dennou.core.views import LogJSON

    game = REGISTRY[game_name]
    rng = random.Random(5)
    state = game.new(game.make_rules(), [f"p{i}" for i in range(game.spec.min_players)])
    compared = 0
    while game.to_act(state) and compared < 300:
        for who in (0, None):
            view = game.view(state, who)
            assert isinstance(view["log"], LogJSON) or not view["log"]
            plain = {**copy.deepcopy(view), "log": list(view["log"])}
            assert _turn(view) == _turn(plain)
            assert _view_msg(view) == _view_msg(plain)
            compared += 1
        seat = min(game.to_act(state))
        if seat == CHANCE:
            state = game.apply(state, CHANCE, game.sample_chance(state, rng))[0]
        else:
            legal = game.legal_actions(state, seat)
            state = game.apply(state, seat, legal[rng.randrange(len(legal))])[0]
    view = game.view(state, 0)
    view["log"].append({"kind": "edited", "text": "<b>x</b>", "data": {}})
    assert json.loads(_view_msg(view))["view"]["log"][-1]["kind"] == "edited"
    assert compared > 20
