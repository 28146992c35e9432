"""Fuzzed messages never crash the server, never close it for one bad message, and never change
a table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dennou.server.protocol import BY_TYPE

from .conftest import LiveServer

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = [
    "id",
    "table",
    "action",
    "version",
    "seat",
    "token",
    "game",
    "rules",
    "seats",
    "options",
    "text",
    "channel",
    "protocol",
    "status",
]


@st.composite
def messages(draw: st.DrawFn, table: str) -> str:
    kind = draw(st.sampled_from(["raw", "json", "typed", "typed"]))
    if kind == "raw":
        return draw(st.text(max_size=200))
    if kind == "json":
        return json.dumps(draw(json_values))
    message: dict[str, Any] = {"type": draw(st.sampled_from([*BY_TYPE, "nope", ""]))}
    for name in draw(st.lists(st.sampled_from(FIELDS), max_size=5, unique=True)):
        message[name] = draw(json_values)
    if draw(st.booleans()):
        message["table"] = table
    if message["type"] in ("leave", "talk"):
        message["table"] = "other"  # a guest's valid talk or leave is a legitimate change
    return json.dumps(message)


@pytest.mark.slow
def test_fuzzed_messages_never_crash_or_change_a_table(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "fuzz", rate=10_000.0, burst=10_000.0)
    try:
        ann = live.connect(live.register("ann"))
        table = ann.request(
            {"type": "create_table", "game": "numeron", "seats": ["me", "bot:random"]}
        )["table"]["id"]  # type: ignore[index]
        # built-in bots decide before a remote seat's turn is sent: the bot has set its number
        ann.wait_for("turn", table=table)
        guest = live.connect(None)
        guest.request({"type": "spectate", "table": table})
        before = guest.request({"type": "get_view", "table": table})

        @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
        @given(messages(str(table)))
        def fuzz(raw: str) -> None:
            guest.send(raw)
            now = guest.request({"type": "get_view", "table": table})
            assert now["type"] == "view", now
            assert now["version"] == before["version"] and now["view"] == before["view"]

        fuzz()
        assert ann.request({"type": "get_view", "table": table})["version"] == before["version"]
    finally:
        live.stop()
