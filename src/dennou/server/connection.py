"""Connections: how the hub and the tables reach a client, whatever carries the messages.

:class:`Connection` is what tables and the hub know of a client: who it is, which tables it is
at, and ``send``. It carries no transport: a seat taken over HTTP uses it as it is (messages
are dropped; the caller reads the table instead). :class:`QueuedConnection` adds an outgoing
queue drained by a writer task, bounded in bytes, for a transport given as two coroutines
(a raw TCP socket's for the UECda adapter, a WebSocket's under a plain ASGI server), or writes
at once through a transport that buffers by itself (the host's WebSocket protocol,
:mod:`dennou.server.wsprotocol`), bounded the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

from dennou.server import protocol as p
from dennou.server.bucket import TokenBucket


class Connection:
    """A client as the hub and the tables see it.

    Args:
        account: The account (``None``: a guest, or not said hello yet).
        address: The client's address (for per-address limits).
    """

    structured = False
    """Whether it takes every message as an object (:meth:`send`), never encoded JSON: an
    adapter of another protocol translates them (:mod:`dennou.uecda.seat`)."""

    def __init__(self, account: str | None = None, address: str = "") -> None:
        self.account = account
        self.address = address
        self.session_token: str | None = None
        """A browser's session token (its cookie, same-origin handshakes only): a ``hello``
        without a token signs in with it (``docs/protocol.md``, "Browser sessions")."""
        self.hello = False
        self.tables: dict[str, Any] = {}
        """The tables it is at, by id (each a :class:`~dennou.server.table.TableActor`, which
        imports this module, so the type is not named here)."""
        self.closed = False
        self.strikes = 0

    def send(self, message: p.ServerMessage) -> None:
        """Queue a message (this base class drops it)."""

    def send_raw(self, data: bytes) -> None:
        """Queue an encoded message (this base class drops it)."""

    async def close(self, code: int, reason: str) -> None:
        """Close the connection."""
        self.closed = True


Check = Callable[[bytes], None]


class QueuedConnection(Connection):
    """A connection with an outgoing queue that a writer task drains.

    Sending never blocks a table. A client that stops reading lets its queue grow; past
    ``max_bytes`` queued it is dropped (closed with 1008) and the queue is freed at once.

    Given ``write``, there is no queue and no writer task (which woke for every message): each
    message is written at once and the transport's own buffer is what grows (and is bounded by
    ``max_bytes`` the same way).

    Args:
        send_bytes: Sends one message on the transport.
        close: Closes the transport with a code and reason.
        max_bytes: Bytes queued at most.
        rate: Messages per second the client may send, on average.
        burst: Messages the client may send at once.
        account: As for :class:`Connection`.
        address: As for :class:`Connection`.
        check: Test mode: called with every message before it is queued (see
            :mod:`dennou.server.checking`).
        write: Writes one message at once and returns the bytes the transport still holds
            unsent, or -1 if it is closed
            (:meth:`~dennou.server.wsprotocol.HostWebSocketProtocol.send_text_now`);
            ``send_bytes`` is then unused.
    """

    def __init__(
        self,
        send_bytes: Callable[[bytes], Coroutine[Any, Any, None]],
        close: Callable[[int, str], Coroutine[Any, Any, None]],
        *,
        max_bytes: int = 4 << 20,
        rate: float = 50.0,
        burst: float = 100.0,
        account: str | None = None,
        address: str = "",
        check: Check | None = None,
        write: Callable[[bytes], int] | None = None,
    ) -> None:
        super().__init__(account, address)
        self.check = check
        self._send_bytes = send_bytes
        self._close = close
        self.max_bytes = max_bytes
        self.queued = 0
        """Bytes queued and not yet written."""
        self._queue: deque[bytes] = deque()
        self._ready = asyncio.Event()
        self._stopping = False
        self.bucket = TokenBucket(rate, burst)
        self.rate = rate
        self.dropped = False
        """Whether the connection was dropped for not reading."""
        self._direct = write
        self._writer = asyncio.create_task(self._write()) if write is None else None
        self._closing: asyncio.Task[None] | None = None

    def send(self, message: p.ServerMessage) -> None:
        """Queue a message."""
        if not self.closed:
            self.send_raw(p.encode(message))

    def send_raw(self, data: bytes) -> None:
        """Queue an encoded message (drops a client whose queue is over its byte limit)."""
        if self.closed:
            return
        if self.check is not None:
            self.check(data)
        if self._direct is not None:
            waiting = self._direct(data)
            if waiting < 0:
                self.closed = True
            elif waiting > self.max_bytes:
                self._drop()
            else:
                self.queued = waiting
            return
        if self.queued + len(data) > self.max_bytes:
            self._drop()
            return
        self._queue.append(data)
        self.queued += len(data)
        self._ready.set()

    @property
    def writes_at_once(self) -> bool:
        """Whether messages are written at once (no queue, no writer task)."""
        return self._direct is not None

    def _drop(self) -> None:
        self.dropped = True
        self._closing = asyncio.create_task(
            self.close(1008, f"too slow: more than {self.max_bytes} bytes waiting")
        )
        self.closed = True  # nothing more is read from it or queued for it
        self._free()

    def allow(self) -> bool:
        """Whether one more incoming message is within the rate limit."""
        return self.bucket.take()

    async def _write(self) -> None:
        while True:
            if not self._queue:
                if self._stopping:
                    return
                self._ready.clear()
                await self._ready.wait()
                continue
            data = self._queue.popleft()
            try:
                await self._send_bytes(data)
            except Exception:
                self.closed = True
                self._free()
                return
            self.queued = max(0, self.queued - len(data))

    def _free(self) -> None:
        self._queue.clear()
        self.queued = 0

    async def close(self, code: int, reason: str) -> None:
        """Close now: what is still queued is dropped (and its memory freed)."""
        if (
            (self._writer is None or self._writer.done())
            and self._closing is not None
            and self._closing.done()
        ):
            return
        self.closed = True
        self._free()
        # The writer may be blocked on a client that does not read: stop it, don't wait for it.
        if self._writer is not None:
            self._writer.cancel()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(self._close(code, reason), 2)

    async def drain(self, timeout: float = 5) -> None:
        """Let queued messages be written (for up to ``timeout`` seconds), then stop the writer."""
        self._stopping = True
        self._ready.set()
        # Written at once: what the transport holds goes out before any closing frame.
        if self._writer is not None and not self._writer.done():
            try:
                await asyncio.wait_for(asyncio.shield(self._writer), timeout)
            except (TimeoutError, asyncio.CancelledError):
                self._writer.cancel()
        self._free()


__all__ = ["Connection", "QueuedConnection"]
