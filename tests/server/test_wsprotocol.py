"""The host's WebSocket protocol: messages written at once, framed as ``websockets`` frames them.

``dennou serve`` and ``LiveServer`` run :class:`~dennou.server.wsprotocol.HostWebSocketProtocol`;
every other server test goes through it too, these check its own parts on a real socket.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec
from uvicorn.config import Config
from uvicorn.server import ServerState

from dennou.server import protocol as p
from dennou.server.connection import QueuedConnection
from dennou.server.hub import Hub
from dennou.server.testing import LiveServer
from dennou.server.wsprotocol import HostWebSocketProtocol


def padded_error(length: int) -> bytes:
    """An ``error`` message whose encoding is exactly ``length`` bytes."""
    empty = p.encode(
        p.Error(code="bad_message", message="", error="ProtocolError", table=None, context={})
    )
    message = "é" * ((length - len(empty)) // 2) + "x" * ((length - len(empty)) % 2)
    data = p.encode(
        p.Error(code="bad_message", message=message, error="ProtocolError", table=None, context={})
    )
    assert len(data) == length
    return data


def test_a_connection_writes_every_message_at_once_in_order_whatever_its_length(
    live: LiveServer,
) -> None:
    """Lengths on each side of the frame header's 7-, 16- and 64-bit forms arrive intact."""
    assert_sent_in_order(live, at_once=True)


def test_under_another_server_protocol_the_socket_falls_back_to_its_queue(
    tmp_path: Path,
) -> None:
    """uvicorn's own protocol (no extension): the queue and its writer task, the same messages."""
    live = LiveServer(tmp_path / "data", rate=1000.0, burst=2000.0, ws="websockets-sansio")
    try:
        assert_sent_in_order(live, at_once=False)
    finally:
        live.stop()


def assert_sent_in_order(live: LiveServer, *, at_once: bool) -> None:
    """Messages of many lengths sent to a seated client arrive whole and in order."""
    ann = live.connect(live.register("ann"))
    table = ann.request({"type": "create_table", "game": "numeron", "seats": ["me", "bot:random"]})
    table_id = str(table["table"]["id"])  # type: ignore[index]
    ann.wait_for("turn", table=table_id)
    lengths = [125, 126, 65535, 65536, 300_000, 200]
    sent = [padded_error(n) for n in lengths]

    async def send_them(hub: Hub) -> bool:
        conn = next(iter(hub.tables[table_id].conns))
        assert isinstance(conn, QueuedConnection)
        for data in sent:
            conn.send_raw(data)
        return conn.writes_at_once

    assert live.call(send_them) is at_once
    got: list[dict[str, Any]] = []
    while len(got) < len(sent):
        message = ann.recv()
        if message["type"] == "error":
            got.append(message)
    assert got == [msgspec.json.decode(data) for data in sent]


def test_the_direct_send_writes_nothing_before_the_handshake() -> None:
    """Before ``websocket.accept`` (or after closing) nothing is framed: -1."""

    async def app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover
        """Never called."""

    loop = asyncio.new_event_loop()
    try:
        proto = HostWebSocketProtocol(Config(app), ServerState(), {}, _loop=loop)
        assert proto.send_text_now(b'{"type":"x"}') == -1
    finally:
        loop.close()
