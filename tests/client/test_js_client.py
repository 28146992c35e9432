"""The JavaScript client (Node + ws) plays whole games against a real server."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import httpx

from dennou.core import record as rec
from dennou.core.jsondata import to_json
from dennou.games import REGISTRY
from dennou.server.testing import LiveServer
from tests.services import JS_CLIENT, require_node


def play_with_js(
    live: LiveServer, game: str, seats: str, *args: str, timeout: float
) -> list[tuple[dict[str, Any], rec.Record]]:
    """Run the JavaScript client to the end; each game's printed line and stored record.

    Checks every record's outcome against a replay and that the client never defaulted.
    """
    token = live.register("js")
    cmd = ["node", str(JS_CLIENT / "client.js"), "--server", live.ws_url, "--token", token]
    cmd += ["--join", game, "--seats", seats, *args]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, done.stderr
    games = []
    for text in done.stdout.splitlines():
        line = json.loads(text)
        reply = httpx.get(f"{live.http}/api/tables/{line['table']}/record")
        [record] = rec.loads(reply.text)
        engine = REGISTRY[record.game]
        final = rec.final_state(record, engine)
        assert to_json(engine.outcome(final)) == record.outcome == line["outcome"]
        assert not any(s.default for s in record.steps if s.seat == line["seat"])
        games.append((line, record))
    return games


def test_js_client_plays_a_set_of_games(tmp_path: Path) -> None:
    require_node()
    live = LiveServer(tmp_path / "data")
    try:
        games = play_with_js(live, "numeron", "open,bot:random", "--games", "3", timeout=120)
        assert len(games) == 3 and len({line["table"] for line, _ in games}) == 3
        over = httpx.get(f"{live.http}/api/games-over").json()["games"]
        assert len(over) == 3  # stored (unrated: no one's history counts them)
    finally:
        live.stop()


def test_js_client_plays_a_whole_daifugo_set(tmp_path: Path) -> None:
    """A JavaScript client plays a whole Daifugo set (10 games) against the host."""
    require_node()
    live = LiveServer(tmp_path / "data")
    try:
        seats = "open,bot:greedy,bot:greedy,bot:random,bot:random"
        [(_, record)] = play_with_js(live, "daifugo", seats, timeout=600)
        assert record.game == "daifugo" and record.rules["games"] == 10
        final = rec.final_state(record, REGISTRY["daifugo"])
        assert len(final.results) >= 10  # every counted game of the set was played
    finally:
        live.stop()
