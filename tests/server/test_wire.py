"""What the wire carries is what the docs say: pushed seats, rate limits that never close a
socket, legal descriptions, listings across restarts, clocks, versions and number ranges."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from .conftest import LiveServer


def test_rate_limiting_alone_never_closes_the_connection(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "rl", rate=5.0, burst=5.0)
    try:
        ws = live.connect(None)
        for _ in range(40):  # 5 pass, 35 refused in a row: far past ten protocol errors
            ws.send({"type": "ping"})
        codes = [m.get("code") for m in ws.drain(0.5)]
        assert codes.count("rate_limited") >= 30
        time.sleep(1.2)
        assert ws.request({"type": "ping"})["type"] == "pong", "the socket is still open"
    finally:
        live.stop()


def _unlisted_turns(game_name: str, max_steps: int = 300) -> list[tuple[str, Any, Any]]:
    """(phase, description, sample) of every turn without a list, over the conformance games."""
    import random

    from dennou.core.game import CHANCE
    from dennou.games import REGISTRY
    from dennou.server.work import turn_parts

    game = REGISTRY[game_name]
    out = []
    for i, rules in enumerate(game.conformance_rules()):
        rng = random.Random(i)
        n = game.default_players(rules)
        state = game.new(rules, [f"p{k}" for k in range(n)])
        for version in range(max_steps):
            if game.is_over(state):
                break
            acting = sorted(game.to_act(state))
            seat = acting[0]
            if seat == CHANCE:
                state, _ = game.apply(state, seat, game.sample_chance(state, rng))
                continue
            view, listed, _count, description, sample = turn_parts(game, state, seat, version)
            if listed is None:
                out.append((str(view.get("phase")), description, sample))
            legal = game.legal_actions(state, seat)
            action = game.conformance_action(state, seat, legal, rng)
            state, _ = game.apply(state, seat, action)
    return out


def test_every_turn_without_a_list_carries_its_description_in_every_game_and_phase() -> None:
    from dennou.games import REGISTRY

    seen = {}
    for name in REGISTRY:
        for phase, description, sample in _unlisted_turns(name):
            assert description is not None, (name, phase)
            assert isinstance(description.get("form"), dict | str) or "kind" in description, (
                name,
                phase,
                description,
            )
            for listed in description.get("also", []):
                assert listed in sample, (name, phase, "the actions outside the forms are sampled")
            seen[name, phase] = description
    hilo = seen["hilo", "turn"]
    assert {"form", "text"} <= set(hilo) and {"type": "random_guess"} in hilo["also"]
    doubts = [d for (g, p), d in seen.items() if g == "smuggling" and p == "room"]
    assert doubts and {"type": "pass"} in doubts[0]["also"], seen.keys()
    assert {"min", "max", "step"} <= set(doubts[0])


def _tournament(live: LiveServer) -> tuple[str, str, str]:
    """A running Daifugo tournament of alice and two bots, one table at a time (alice absent)."""
    import httpx

    alice = live.register("alice")
    owner = live.register("olga")
    body = {
        "game": "daifugo",
        "entrants": ["@alice", "greedy", "random"],
        "rules": {"games": 1},
        "games": 3,
        "options": {"tables": 1, "absent_grace": 60},
        "start": True,
    }
    created = httpx.post(
        live.http + "/api/tournaments",
        json=body,
        headers={"authorization": f"Bearer {owner}"},
        timeout=30,
    )
    assert created.status_code == 201, created.text
    return created.json()["id"], alice, owner


def _seats(live: LiveServer, tid: str, token: str, **params: Any) -> tuple[float, Any]:
    import httpx

    started = time.monotonic()
    reply = httpx.get(
        f"{live.http}/api/tournaments/{tid}/seats",
        params=params,
        headers={"authorization": f"Bearer {token}"},
        timeout=60,
    )
    assert reply.status_code == 200, reply.text
    return time.monotonic() - started, reply.json()


def test_the_seats_long_poll_waits_for_a_seat_the_caller_does_not_know(live: LiveServer) -> None:
    import httpx

    tid, alice, _ = _tournament(live)
    ws = live.connect(alice)
    assert (
        httpx.post(
            f"{live.http}/api/tournaments/{tid}/accept",
            headers={"authorization": f"Bearer {alice}"},
            timeout=30,
        ).status_code
        == 200
    )
    pushed = ws.wait_for("seat", timeout=30)
    assert pushed["tournament"] == tid and isinstance(pushed["table"], str)
    assert pushed["seat"] in (0, 1, 2) and isinstance(pushed["match"], int)
    # the poll answers at once with a seat the caller does not know yet...
    took, first = _seats(live, tid, alice, wait=10)
    assert took < 5 and [s["table"] for s in first["seats"]] == [pushed["table"]]
    # ...and waits while every seat it lists is one the caller knows
    took, again = _seats(live, tid, alice, wait=2, known=pushed["table"])
    assert took >= 1.8, "a docs-following loop must not be a busy loop"
    assert again["seats"] == first["seats"] and again["status"] == "running"
    bad = httpx.get(
        f"{live.http}/api/tournaments/{tid}/seats",
        params={"known": ",".join(f"t{i}" for i in range(2000))},
        headers={"authorization": f"Bearer {alice}"},
        timeout=30,
    )
    assert bad.status_code == 400 and bad.json()["code"] == "bad_message"


def test_play_tournament_takes_pushed_seats_and_never_busy_polls(
    live: LiveServer, monkeypatch: Any
) -> None:
    import asyncio

    import httpx

    from dennou.client.tournament import play_tournament
    from dennou.core.bot import RandomBot

    polls: list[float] = []
    real_get = httpx.AsyncClient.get

    async def counted(self: httpx.AsyncClient, url: Any, **kwargs: Any) -> httpx.Response:
        if str(url).endswith("/seats"):
            polls.append(time.monotonic())
        return await real_get(self, url, **kwargs)

    monkeypatch.setattr(httpx.AsyncClient, "get", counted)
    tid, alice, _ = _tournament(live)
    seated: list[dict[str, Any]] = []
    played = asyncio.run(
        asyncio.wait_for(
            play_tournament(RandomBot(), live.ws_url, alice, tid, seed=1, on_table=seated.append),
            120,
        )
    )
    assert len(played) == 3 and len(seated) == 3
    # one poll answered per new seat (or per push it races with) and one for the end at most
    assert len(polls) <= 2 * len(seated) + 2, len(polls)


def test_listing_is_the_same_before_and_after_a_restart(tmp_path: Path) -> None:
    import httpx

    def listing(live: LiveServer) -> tuple[list[Any], list[Any]]:
        over = httpx.get(f"{live.http}/api/tables", params={"status": "finished"}, timeout=30)
        ws = live.connect(None)
        listed: Any = ws.request({"type": "list_tables"})
        ws.close()
        tables = [(t["id"], t["status"]) for t in listed["tables"]]
        return [t["id"] for t in over.json()["tables"]], tables

    live = LiveServer(tmp_path / "data")
    try:
        ws = live.connect(live.register("ann"))
        made = ws.request(
            {"type": "create_table", "game": "numeron", "seats": ["bot:random", "bot:random"]}
        )
        table = made["table"]["id"]  # type: ignore[index]
        deadline = time.time() + 60
        while httpx.get(f"{live.http}/api/tables/{table}").json()["status"] != "finished":
            assert time.time() < deadline
            time.sleep(0.1)
        ws.close()
        before = listing(live)
        assert before[0] == [table] and before[1] == [(table, "finished")]
    finally:
        live.stop()
    live = LiveServer(tmp_path / "data")
    try:
        assert listing(live) == before
    finally:
        live.stop()


def test_welcome_names_the_server_and_engine_versions_and_schemas_the_protocol(
    live: LiveServer,
) -> None:
    import json

    import dennou
    from dennou.games import REGISTRY
    from dennou.server import protocol as p

    ws = live.connect(None)
    welcome: Any = ws.request({"type": "hello", "protocol": p.PROTOCOL})
    assert welcome["server"] == "dennou" and welcome["server_version"] == dennou.__version__
    assert welcome["engines"] == {name: REGISTRY[name].spec.version for name in REGISTRY}
    docs = Path(__file__).resolve().parents[2] / "docs"
    for path in (docs / "schema").glob("*.json"):
        schema = json.loads(path.read_text())
        assert schema["$id"] == f"{p.SCHEMA_BASE}/{p.PROTOCOL}/{path.name}", path.name
    text = (docs / "protocol.md").read_text()
    policy = text.split("## 12.", 1)[1]
    assert "Compatibility" in policy and f"| {p.PROTOCOL} |" in policy and "`seat`" in policy


def _integers(node: Any, path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every integer schema under ``node`` with where it is."""
    found = []
    if isinstance(node, dict):
        kinds = node.get("type")
        if kinds == "integer" or (isinstance(kinds, list) and "integer" in kinds):
            found.append((path, node))
        for key, value in node.items():
            found.extend(_integers(value, f"{path}/{key}"))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found.extend(_integers(value, f"{path}/{i}"))
    return found


def test_every_integer_field_states_its_range_and_big_seeds_travel_as_strings(
    live: LiveServer,
) -> None:
    import httpx

    from dennou.server import protocol as p

    for name, schema in p.schemas().items():
        for where, node in _integers(schema):
            assert "minimum" in node and "maximum" in node, (name, where)
    turn = p.schemas()["server.turn.json"]["$defs"]["Turn"]["properties"]
    assert turn["legal_count"]["maximum"] >= 2**53 and "2^53" in turn["legal_count"]["description"]
    # a seed above 2^53 from a JavaScript client: as a decimal string, read exactly
    ws = live.connect(live.register("ann"))
    big = str(2**53 + 1)
    made: Any = ws.request(
        {
            "type": "create_table",
            "game": "numeron",
            "seats": ["me", "bot:random"],
            "options": {"seed": big},
        }
    )
    assert made["type"] == "table" and made["table"]["seeded"], made
    for bad in (str(2**63), "-1", "12a"):
        refused: Any = ws.request(
            {
                "type": "create_table",
                "game": "numeron",
                "seats": ["me", "bot:random"],
                "options": {"seed": bad},
            }
        )
        assert refused["type"] == "error" and refused["code"] == "bad_message", bad
    # a published tournament seed comes as a decimal string too
    owner = live.register("olga")
    headers = {"authorization": f"Bearer {owner}"}
    body = {"game": "numeron", "entrants": ["random", "mc=random"], "games": 2}
    tid = httpx.post(f"{live.http}/api/tournaments", json=body, headers=headers).json()["id"]
    httpx.post(f"{live.http}/api/tournaments/{tid}/cancel", headers=headers)
    info = httpx.get(f"{live.http}/api/tournaments/{tid}").json()
    assert info["status"] == "cancelled" and info["seed_text"] == str(info["seed"])


def test_errors_say_their_rules_section_once_and_a_practice_table_is_forbidden(
    live: LiveServer,
) -> None:
    ann = live.connect(live.register("ann"))
    made: Any = ann.request(
        {
            "type": "create_table",
            "game": "numeron",
            "seats": ["me", "bot:random"],
            "options": {"seed": 7},
        }
    )
    table = made["table"]["id"]
    turn = ann.wait_for("turn", table=table)
    refused: Any = ann.request(
        {
            "type": "act",
            "table": table,
            "action": {"type": "set", "number": "112"},
            "version": turn["version"],
        }
    )
    assert refused["code"] == "illegal_action"
    assert refused["message"].count("— rules:") == 1, refused["message"]
    # the docs: joining someone's practice table is forbidden (it has started: still forbidden)
    ben = live.connect(live.register("ben"))
    joined: Any = ben.request({"type": "join", "table": table})
    assert joined["type"] == "error" and joined["code"] == "forbidden", joined


def test_every_bot_list_games_names_is_on_its_game_page_and_the_generic_ones_in_the_readme() -> (
    None
):
    import re

    from dennou.arena.bots import GENERIC_BOTS, available_bots
    from dennou.games import REGISTRY

    root = Path(__file__).resolve().parents[2]
    for name in REGISTRY:
        page = (root / "docs" / "games" / f"{name}.md").read_text(encoding="utf-8")
        bots = re.split(r"\n## Bots[^\n]*\n", page, maxsplit=1)[1].split("\n## ", 1)[0]
        for bot in available_bots(REGISTRY[name]):
            assert f"`{bot}`" in bots, (name, bot)
    readme = (root / "README.md").read_text(encoding="utf-8")
    for bot in GENERIC_BOTS:
        assert f"`{bot}`" in readme, bot


def test_the_clock_is_one_table_option_with_one_wording_everywhere(live: LiveServer) -> None:
    from typer.testing import CliRunner

    from dennou.cli import app
    from dennou.games import REGISTRY
    from dennou.server.lobby import has_host_clock

    ws = live.connect(live.register("ann"))
    games: Any = ws.request({"type": "list_games"})
    root = Path(__file__).resolve().parents[2]
    clocked = [name for name in REGISTRY if has_host_clock(REGISTRY[name])]
    assert set(clocked) == {"numeron", "daifugo", "smuggling", "pandemic"}
    for info in games["games"]:
        assert not [o for o in info["rules"] if o["description"].rstrip().endswith("(host)")]
        if info["name"] in clocked:
            assert "time_limit" not in {o["name"] for o in info["rules"]}, info["name"]
            page = (root / "docs" / "games" / f"{info['name']}.md").read_text(encoding="utf-8")
            assert not [line for line in page.splitlines() if line.startswith("| `time_limit` |")]
            assert "the table's clock (`options.time_limit`" in page, info["name"]
            shown = CliRunner().invoke(app, ["games", info["name"]]).output
            assert "the table's clock (options.time_limit" in shown, info["name"]
    refused: Any = ws.request(
        {"type": "create_table", "game": "numeron", "rules": {"time_limit": 30}, "seats": ["me"]}
    )
    assert refused["code"] == "config" and "options.time_limit" in refused["message"]


def test_play_tournament_gives_its_push_connection_up_when_a_table_needs_it(
    tmp_path: Path,
) -> None:
    import asyncio

    import httpx

    from dennou.client.tournament import play_tournament
    from dennou.core.bot import RandomBot

    live = LiveServer(tmp_path / "data", limits={"connections_per_account": 2})
    try:
        alice = live.register("alice")
        owner = live.register("olga")
        body = {
            "game": "daifugo",
            "entrants": ["@alice", "greedy", "random"],
            "rules": {"games": 1},
            "games": 4,
            "options": {"tables": 2, "absent_grace": 60},
            "start": True,
        }
        headers = {"authorization": f"Bearer {owner}"}
        tid = httpx.post(f"{live.http}/api/tournaments", json=body, headers=headers).json()["id"]
        played = asyncio.run(
            asyncio.wait_for(play_tournament(RandomBot(), live.ws_url, alice, tid, seed=1), 120)
        )
        info = httpx.get(f"{live.http}/api/tournaments/{tid}").json()
        assert info["status"] == "finished"
        assert len(played) == info["matches"], "two tables at once and the listener: two sockets"
    finally:
        live.stop()


def test_entrants_accepting_at_once_are_all_accepted(live: LiveServer) -> None:
    import asyncio

    import httpx

    tokens = {name: live.register(name) for name in ("alice", "bob", "carol", "olga")}
    body = {
        "game": "daifugo",
        "entrants": ["@alice", "@bob", "@carol", "random"],
        "rules": {"games": 1},
        "seats": 4,
        "games": 4,
        "options": {"tables": 1, "absent_grace": 60},
    }
    headers = {"authorization": f"Bearer {tokens['olga']}"}
    tid = httpx.post(f"{live.http}/api/tournaments", json=body, headers=headers).json()["id"]

    async def accept_all() -> list[int]:
        async with httpx.AsyncClient(timeout=30) as http:
            replies = await asyncio.gather(
                *(
                    http.post(
                        f"{live.http}/api/tournaments/{tid}/accept",
                        headers={"authorization": f"Bearer {tokens[name]}"},
                    )
                    for name in ("alice", "bob", "carol")
                )
            )
        return [r.status_code for r in replies]

    assert asyncio.run(accept_all()) == [200, 200, 200]
    invitations = httpx.get(f"{live.http}/api/tournaments/{tid}").json()["invitations"]
    assert invitations == dict.fromkeys(("alice", "bob", "carol"), "accepted")
