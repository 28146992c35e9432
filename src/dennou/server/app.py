"""The ASGI app: the web app at ``/``, the WebSocket at ``/ws``, the HTTP API at ``/api``, docs.

Each part brings its own routes (:mod:`dennou.web`, :mod:`~dennou.server.http_api`,
:mod:`~dennou.server.pages`, :mod:`~dennou.server.websocket`); this module only assembles them
around one :class:`Hub` and its store, under the web app's security headers. The HTTP API's
endpoints (the lobby's and the web app's, and any passed in ``extra_endpoints``) are kept in
``app.state.endpoints``: ``/api`` and ``/openapi.json`` are generated from that list.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, WebSocketRoute

from dennou.core.registry import Registry
from dennou.server import http_api, pages, tournaments
from dennou.server.hub import Hub
from dennou.server.limits import Limits
from dennou.server.security import SecurityHeaders
from dennou.server.websocket import websocket
from dennou.store import AsyncStore, Store, database_url
from dennou.web import api as web_api
from dennou.web import routes as web_routes

if TYPE_CHECKING:
    from dennou.uecda.listener import UecdaOptions

UecdaListenerConfig = tuple[str, int, "UecdaOptions"]
"""Where the UECda listener listens (interface, port) and how it seats clients."""

ENDPOINTS: tuple[http_api.Endpoint, ...] = (
    *http_api.ENDPOINTS,
    *tournaments.ENDPOINTS,
    *web_api.ENDPOINTS,
)
"""Every HTTP API route of the host: the lobby's, the tournaments' and the web app's."""


def create_app(
    db: str | None = None,
    data_dir: str = "./data",
    *,
    games: Registry | None = None,
    limits: Limits | None = None,
    operators: Sequence[str] = (),
    quiet: bool = False,
    extra_routes: Sequence[BaseRoute] = (),
    extra_endpoints: Sequence[http_api.Endpoint] = (),
    on_start: Callable[[Hub], None] | None = None,
    rate: float | None = None,
    burst: float | None = None,
    check_messages: str | None = None,
    uecda: UecdaListenerConfig | None = None,
    secure_cookies: bool = False,
    broker: str | None = None,
    site: str = "dennou",
    remote_bots: bool = False,
) -> Starlette:
    """Build the app; the store opens (and migrates) when the app starts.

    Args:
        db: A database URL (``postgresql://...``); ``None``: SQLite in ``data_dir``.
        data_dir: Where the SQLite file lives.
        games: The games to host (default: the registry).
        limits: The host's limits (``docs/security.md``).
        operators: Accounts that are the host's operators (may seed any table).
        quiet: Do not log to stderr.
        extra_routes: More routes (mounted before the lobby's own).
        extra_endpoints: More HTTP API endpoints (mounted, and in ``/api`` and the OpenAPI
            document).
        on_start: Called with the hub once it runs (``dennou serve`` prints where it is).
        rate: Shorthand for ``limits.rate``.
        burst: Shorthand for ``limits.burst``.
        check_messages: Test mode: a file where every sent message that does not validate
            against the protocol's schemas is noted (:mod:`dennou.server.checking`).
        uecda: Also accept UECda protocol 20070 clients on a TCP port
            (:mod:`dennou.uecda.listener`): ``(host, port, options)``.
        secure_cookies: The host is served over HTTPS (behind a proxy that terminates TLS): the
            session cookie is always ``Secure`` and every response carries HSTS.
        broker: A Redis URL: this process is one of a cluster sharing ``db`` (PostgreSQL)
            and that Redis (:mod:`dennou.server.cluster`); ``None``: a lone host.
        site: The cluster's name (its keys and channels in Redis start with it).
        remote_bots: In a cluster, the built-in bots think in ``dennou cluster bots``
            processes fed from the broker (:mod:`dennou.server.cluster.bots`), not in worker
            processes of this one.
    """
    limits = limits or Limits()
    if rate is not None or burst is not None:
        limits = limits.with_options({"rate": rate or limits.rate, "burst": burst or limits.burst})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = AsyncStore(Store(database_url(db, data_dir)))
        hub = Hub(store, games, limits=limits, operators=frozenset(operators), quiet=quiet)
        if check_messages is not None:
            from dennou.server.checking import MessageChecker

            hub.check = MessageChecker(check_messages)
        app.state.hub = hub
        cluster = None
        if broker is not None:
            from dennou.server.cluster import Cluster

            cluster = hub.cluster = Cluster(hub, broker, site=site)
            await cluster.start()
            if remote_bots:
                from dennou.server.cluster.bots import RemoteBots

                hub.bots = RemoteBots(cluster, limits.bot_queue)  # type: ignore[assignment]
        await hub.start()
        app.state.tournaments = host = tournaments.TournamentHost(hub)
        await host.start()  # in a cluster: each tournament where its lease is
        listener = None
        if uecda is not None:
            from dennou.uecda.listener import UecdaListener

            where, port, options = uecda
            listener = UecdaListener(hub, host=where, port=port, options=options)
            await listener.start()
            hub.uecda = listener
        if on_start is not None:
            on_start(hub)
        try:
            yield
        finally:
            if listener is not None:
                await listener.stop()
            await host.stop()
            await hub.stop()
            if cluster is not None:
                await cluster.stop()
            hub.log(
                f"store: {store.commits} commits, {store.steps_written} steps, "
                f"{store.busy:.2f} s writing on the loop, slowest {store.slowest * 1000:.0f} ms"
            )
            store.close()

    endpoints = (*ENDPOINTS, *extra_endpoints)
    routes: list[BaseRoute] = [
        *extra_routes,
        *web_routes.routes(),
        *pages.routes(),
        *http_api.routes(endpoints),
        WebSocketRoute("/ws", websocket),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(SecurityHeaders, hsts=secure_cookies)],
    )
    app.state.endpoints = endpoints
    app.state.secure_cookies = secure_cookies
    return app


__all__ = ["ENDPOINTS", "create_app"]
