"""The WebSocket protocol the host runs under uvicorn: uvicorn's own, plus a direct write.

Through ASGI, every message a table sends would wake the connection's writer task, pass three
``send`` wrappers (Starlette's socket, its exception handler, uvicorn's protocol) and be decoded
to ``str`` only to be encoded again, before the frame is written: writing at once takes 7-9%
off the host's CPU per action (docs/architecture.md, "What an action costs the host"). The protocol
here is uvicorn's sans-I/O WebSocket protocol (``websockets``' frames, uvicorn's handshake,
keep-alive and closing) with one ASGI extension, :data:`SEND_TEXT`: a plain function that frames
already-encoded UTF-8 JSON as one text message and hands it to the transport at once, in the
order of every other frame. Everything else (accepting, receiving, closing) stays ASGI.

``dennou serve`` and :class:`~dennou.server.testing.LiveServer` run it; the ``/ws`` endpoint
falls back to plain ASGI sends under any other server.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.http11 import Request

SEND_TEXT = "dennou.send_text"
"""The scope extension's name: ``scope["extensions"][SEND_TEXT]["send"]`` is
:meth:`HostWebSocketProtocol.send_text_now` (an ASGI extension's value is a dict)."""


class HostWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol with the :data:`SEND_TEXT` extension."""

    def handle_connect(self, event: Request) -> None:
        """Start the handshake as uvicorn does, and offer the direct send to the app."""
        super().handle_connect(event)
        # The scope exists only for an upgrade (101); the app's task has not run yet.
        if not self.close_sent and self.response.status_code == 101:
            self.scope["extensions"][SEND_TEXT] = {"send": self.send_text_now}

    def send_text_now(self, data: bytes) -> int:
        """Frame ``data`` (UTF-8 text) as one message and write it to the transport now.

        Args:
            data: The message, already encoded (valid UTF-8: it is not checked again).

        Returns:
            The bytes the transport still holds unsent after this write (a client that does
            not read lets this grow), or -1 if the socket is not open (not accepted yet,
            closing or closed): nothing was written.
        """
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.transport.is_closing()
        ):
            return -1
        try:
            self.conn.send_text(data)
        except InvalidState:
            return -1
        self.transport.write(b"".join(self.conn.data_to_send()))
        return self.transport.get_write_buffer_size()


__all__ = ["SEND_TEXT", "HostWebSocketProtocol"]
