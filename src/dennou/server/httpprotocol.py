"""The HTTP protocol the host runs under uvicorn: uvicorn's own, with a deadline on request heads.

uvicorn waits for a request's head (its request line and headers) as long as bytes keep coming:
a client that trickles one header line every few seconds holds its socket, and a file
descriptor, forever; a few hundred such sockets lock everyone else out, WebSockets included (a
WebSocket begins as an HTTP request). The protocol here is uvicorn's ``httptools`` protocol with
two bounds from the host's :class:`~dennou.server.limits.Limits`:

- ``header_timeout``: a connection waiting for a request head, its first or the next one on a
  kept-alive connection, is closed once that many seconds pass without the whole head;
- ``pending_per_address``: an IP address may have at most that many connections waiting for a
  head at once; a connection over it is closed as soon as it is accepted.

A connection stops counting once its head is complete: the request is then the app's (its body
has ``body_timeout``) or a WebSocket (``hello_timeout``, ``connections_per_address``).
:func:`host_http_protocol` binds the limits; ``dennou serve`` and
:class:`~dennou.server.testing.LiveServer` run it.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from dennou.server.limits import Limits


class HostHttpProtocol(HttpToolsProtocol):
    """uvicorn's ``httptools`` protocol with a head deadline and a per-address cap.

    Use :func:`host_http_protocol` to get one bound to the host's limits.
    """

    limits: ClassVar[Limits] = Limits()
    waiting: ClassVar[Counter[str]] = Counter()
    """Per address, connections waiting for a request head (one count per server)."""

    _address = ""
    _counted = False
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Accept the connection (or close it at once, over ``pending_per_address``)."""
        super().connection_made(transport)
        self._address = self.client[0] if self.client else ""
        if self.waiting[self._address] >= self.limits.pending_per_address:
            transport.close()
            return
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        """Release the connection's count, then close as uvicorn does."""
        self._head_done()
        super().connection_lost(exc)

    def on_headers_complete(self) -> None:
        """The head is here: it no longer counts, and its deadline is off."""
        self._head_done()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        """A kept-alive connection waits for its next head: under the deadline again."""
        super().on_response_complete()
        if not self.transport.is_closing() and not self.pipeline:
            self._await_head()

    def _await_head(self) -> None:
        if not self._counted:
            self._counted = True
            self.waiting[self._address] += 1
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.limits.header_timeout, self._head_too_slow)

    def _head_done(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        if self._counted:
            self._counted = False
            self.waiting[self._address] -= 1
            if self.waiting[self._address] <= 0:
                del self.waiting[self._address]

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()


def host_http_protocol(limits: Limits) -> type[HostHttpProtocol]:
    """The host's HTTP protocol class for uvicorn (``http=``), bound to ``limits``."""
    attributes: dict[str, Any] = {"limits": limits, "waiting": Counter()}
    return type("BoundHostHttpProtocol", (HostHttpProtocol,), attributes)


__all__ = ["HostHttpProtocol", "host_http_protocol"]
