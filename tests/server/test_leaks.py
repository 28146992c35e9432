"""No message carries another seat's hidden information: checked over the wire, every game."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx
import pytest

from dennou.client import Client, run_bot
from dennou.client.testing import HarnessBot
from dennou.core import record as rec
from dennou.games import REGISTRY

from .checks import check_seen_against_replay, check_turn, check_view, quick_rules, texts_sent
from .conftest import WS, LiveServer


@pytest.mark.parametrize("game_name", list(REGISTRY))
def test_every_message_passes_the_leak_property(live: LiveServer, game_name: str) -> None:
    game = REGISTRY[game_name]
    n = game.spec.min_players
    tokens = [live.register(f"p{i}") for i in range(n)]

    async def make() -> str:
        async with await Client.open(live.ws_url, tokens[0]) as client:
            info = await client.create_table(game_name, ["open"] * n, quick_rules(game_name))
            return str(info["id"])

    table = asyncio.run(make())
    watcher = live.connect(None)
    watcher.request({"type": "spectate", "table": table})
    spectator_views: list[dict[str, Any]] = []
    done = threading.Event()

    def watch() -> None:
        # the spectator asks for its view after every event it sees
        while not done.is_set():
            try:
                msg = watcher.recv(timeout=0.5)
            except TimeoutError:
                continue
            except Exception:
                return
            if msg["type"] == "event":
                watcher.send({"type": "get_view", "table": table})
            elif msg["type"] == "view":
                spectator_views.append(msg)
            elif msg["type"] == "end":
                return

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()

    async def play() -> list[Any]:
        return list(
            await asyncio.gather(
                *(
                    run_bot(
                        HarnessBot, live.ws_url, tokens[i], table=table, seed=i, keep_messages=True
                    )
                    for i in range(n)
                )
            )
        )

    results = asyncio.run(play())
    thread.join(10)
    done.set()
    reply = httpx.get(f"{live.http}/api/tables/{table}/record")
    [record] = rec.loads(reply.text)
    turns = 0
    for result in results:
        check_seen_against_replay(record, result)
        for k, msg in enumerate(result.messages):
            if msg["type"] == "turn":
                turns += 1
                check_turn(game, msg, k)
            elif msg["type"] == "view":
                check_view(game, msg["view"], result.seat, k)
            assert msg.get("seat") in (None, result.seat) or msg["type"] == "event"
    decisions = sum(1 for s in record.steps if s.seat is not None and s.seat >= 0 and not s.talk)
    assert turns >= min(2, decisions)  # stud10's players never decide
    assert len(spectator_views) >= (2 if decisions else 1)
    for k, msg in enumerate(spectator_views):
        if msg["view"] is not None and msg["status"] == "playing":
            check_view(game, msg["view"], None, k)


def test_a_seat_never_sees_the_other_secret_during_play(live: LiveServer) -> None:
    """Numeron: the opponent's number appears in no message before the game ends."""
    ann = live.connect(live.register("ann"))
    ben = live.connect(live.register("ben"))
    table = ann.request({"type": "create_table", "game": "numeron", "seats": ["me", "open"]})[
        "table"
    ]["id"]  # type: ignore[index]
    ben.request({"type": "join", "table": table})
    ann.request({"type": "act", "table": table, "action": "set 987"})
    ben.request({"type": "act", "table": table, "action": "set 123"})
    seen_by_ben = texts_sent(ben.drain(0.3))
    seen_by_ann = texts_sent(ann.drain(0.3))
    assert not [t for t in seen_by_ben if "987" in t]
    assert not [t for t in seen_by_ann if "123" in t]
    assert _holder(ann) and _holder(ben)


def _holder(ws: WS) -> bool:
    return ws.request({"type": "ping"})["type"] == "pong"
