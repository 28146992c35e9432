"""Answer at once, start behind: the ASGI app ``dennou serve`` runs while the host starts.

Opening the store (SQLAlchemy, a new database's schema) and loading the host's modules take
longer than a web page needs. :class:`Booting` answers the web app's pages and static files
(which need neither the store nor a game) as soon as the socket listens, builds and starts the
host's own app on a thread and the event loop meanwhile, and hands every other request to it once
it has started: a request that needs the host waits for it, and gets the same answer as if the
host had been up before it came. A host that cannot start is logged as uvicorn logs a failed
start, answers 503 to what waited, and the process exits with uvicorn's start-up failure code.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import traceback
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.routing import Match
from starlette.types import Receive, Scope, Send

STARTUP_FAILURE = 3
"""The exit code of a host that could not start (uvicorn's own for a failed start)."""

logger = logging.getLogger("uvicorn.error")


class Booting:
    """An ASGI app serving ``pages`` at once and the app ``build`` makes once it has started.

    Args:
        build: Makes the host's app (run on a thread: it imports the host's modules).
        pages: What is served before the host is up (only the requests its routes match fully).
        on_failure: Called when the host could not start (``dennou serve`` stops the server).
    """

    def __init__(
        self,
        build: Callable[[], Starlette],
        pages: Starlette,
        on_failure: Callable[[], None],
    ) -> None:
        self.build = build
        self.pages = pages
        self.on_failure = on_failure
        self.app: Starlette | None = None
        self.failed = False
        self._ready = asyncio.Event()
        self._boot: asyncio.Task[None] | None = None
        self._lifespan: contextlib.AbstractAsyncContextManager[Any] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI connection (or the lifespan)."""
        if scope["type"] == "lifespan":
            await self._run_lifespan(receive, send)
            return
        if self.app is None:
            if scope["type"] == "http" and self._is_page(scope):
                await self.pages(scope, receive, send)
                return
            await self._ready.wait()
            if self.app is None:
                await _unavailable(scope, send)
                return
        await self.app(scope, receive, send)

    def _is_page(self, scope: Scope) -> bool:
        return any(route.matches(scope)[0] == Match.FULL for route in self.pages.router.routes)

    async def _run_lifespan(self, receive: Receive, send: Send) -> None:
        await receive()  # lifespan.startup
        self._boot = asyncio.create_task(self._start(), name="dennou-boot")
        await send({"type": "lifespan.startup.complete"})
        await receive()  # lifespan.shutdown
        await self._boot
        if self._lifespan is not None:
            try:
                await self._lifespan.__aexit__(None, None, None)
            except BaseException:
                await send({"type": "lifespan.shutdown.failed", "message": traceback.format_exc()})
                return
        await send({"type": "lifespan.shutdown.complete"})

    async def _start(self) -> None:
        try:
            app = await asyncio.to_thread(self.build)
            lifespan = app.router.lifespan_context(app)
            await lifespan.__aenter__()
        except Exception:
            logger.error(traceback.format_exc())
            logger.error("Application startup failed. Exiting.")
            self.failed = True
            self._ready.set()
            self.on_failure()
            return
        self._lifespan = lifespan
        self.app = app
        self._ready.set()


async def _unavailable(scope: Scope, send: Send) -> None:
    """Refuse a request the host did not live to answer (it is stopping: it could not start)."""
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1011})
        return
    body = b"the host could not start"
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


__all__ = ["STARTUP_FAILURE", "Booting"]
