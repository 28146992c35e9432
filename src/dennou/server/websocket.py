"""The WebSocket transport at ``/ws``: one :class:`QueuedConnection` per socket, fed to the hub.

A socket must say ``hello`` within the host's ``hello_timeout`` or it is closed; a socket over
the per-address limit is told why (``limit_reached``) and closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from starlette.websockets import WebSocket, WebSocketDisconnect

from dennou.core.errors import DennouError
from dennou.core.jsondata import to_json
from dennou.server import protocol as p
from dennou.server.connection import QueuedConnection
from dennou.server.errors import error_body
from dennou.server.hub import Hub
from dennou.server.security import session_token
from dennou.server.wsprotocol import SEND_TEXT


async def websocket(ws: WebSocket) -> None:
    """One client: receive messages in order and hand them to the hub."""
    hub: Hub = ws.app.state.hub
    await ws.accept()

    async def send(data: bytes) -> None:
        await ws.send_text(data.decode())

    async def close(code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await ws.close(code, reason)

    limits = hub.limits
    address = ws.client.host if ws.client is not None else ""
    conn = QueuedConnection(
        send,
        close,
        max_bytes=limits.send_queue_bytes,
        rate=limits.rate,
        burst=limits.burst,
        address=address,
        check=hub.check,
        # under the host's own protocol (dennou serve, LiveServer) messages are written at once
        write=ws.scope.get("extensions", {}).get(SEND_TEXT, {}).get("send"),
    )
    conn.session_token = session_token(ws)
    try:
        hub.connect(conn)
    except DennouError as exc:
        conn.send(p.Error(table=None, **to_json(error_body(exc))))
        await conn.drain(2)
        await close(1008, "too many connections")
        return
    hello_by = time.monotonic() + limits.hello_timeout
    try:
        while not conn.closed:
            if conn.hello:
                message = await ws.receive()
            else:
                try:
                    message = await asyncio.wait_for(
                        ws.receive(), max(0.0, hello_by - time.monotonic())
                    )
                except TimeoutError:
                    await conn.close(1008, f"no hello within {limits.hello_timeout:g} s")
                    break
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            await hub.handle(conn, raw)
    except WebSocketDisconnect:
        pass
    finally:
        await hub.disconnected(conn)
        await conn.drain(2)


__all__ = ["websocket"]
