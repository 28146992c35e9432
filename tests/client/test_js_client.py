"""The JavaScript client (Node + ws) plays whole games against a real server."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from dennou.core import record as rec
from dennou.games import REGISTRY
from dennou.server.testing import LiveServer

JS = Path(__file__).resolve().parents[2] / "examples" / "js-client"


def node_ready() -> None:
    missing = None
    if shutil.which("node") is None:
        missing = "node is not installed"
    elif not (JS / "node_modules" / "ws").is_dir():
        missing = "run scripts/ci-services.sh (npm install in examples/js-client)"
    if missing:
        if os.environ.get("DENNOU_REQUIRE_POSTGRES") == "1":  # CI: services must be there
            pytest.fail(missing)
        pytest.skip(missing)


def test_js_client_plays_a_set_of_games(tmp_path: Path) -> None:
    node_ready()
    live = LiveServer(tmp_path / "data")
    try:
        token = live.register("js")
        cmd = [
            "node",
            str(JS / "client.js"),
            "--server",
            live.ws_url,
            "--token",
            token,
            "--join",
            "numeron",
            "--seats",
            "open,bot:random",
            "--games",
            "3",
        ]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        lines = [json.loads(line) for line in done.stdout.splitlines()]
        assert len(lines) == 3 and len({line["table"] for line in lines}) == 3
        for line in lines:
            reply = httpx.get(f"{live.http}/api/tables/{line['table']}/record")
            [record] = rec.loads(reply.text)
            game = REGISTRY[record.game]
            final = rec.final_state(record, game)
            assert rec.to_json(game.outcome(final)) == record.outcome == line["outcome"]
            assert not any(s.default for s in record.steps if s.seat == line["seat"])
        history = httpx.get(f"{live.http}/api/accounts/js").json()["history"]
        assert len(history) == 3
    finally:
        live.stop()


def test_js_client_plays_a_whole_daifugo_set(tmp_path: Path) -> None:
    """Issue 8: a JavaScript client plays a whole Daifugo set (10 games) against the host."""
    node_ready()
    live = LiveServer(tmp_path / "data")
    try:
        token = live.register("js")
        cmd = [
            "node",
            str(JS / "client.js"),
            "--server",
            live.ws_url,
            "--token",
            token,
            "--join",
            "daifugo",
            "--seats",
            "open,bot:greedy,bot:greedy,bot:random,bot:random",
        ]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
        assert done.returncode == 0, done.stderr
        [line] = [json.loads(text) for text in done.stdout.splitlines()]
        reply = httpx.get(f"{live.http}/api/tables/{line['table']}/record")
        [record] = rec.loads(reply.text)
        assert record.game == "daifugo" and record.rules["games"] == 10
        game = REGISTRY["daifugo"]
        final = rec.final_state(record, game)
        assert len(final.results) >= 10  # every counted game of the set was played
        assert rec.to_json(game.outcome(final)) == record.outcome == line["outcome"]
        assert not any(s.default for s in record.steps if s.seat == line["seat"])
    finally:
        live.stop()
