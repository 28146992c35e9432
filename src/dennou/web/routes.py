"""The web app's pages and static files.

Pages are one HTML shell per page that loads that page's ES module from ``/static``; everything
else happens in the browser over the protocol (WebSocket ``/ws``, the HTTP API: the lobby's and
the web app's own, :mod:`dennou.web.api`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

STATIC = Path(__file__).with_name("static")
"""The browser's files (shipped as package data)."""

PAGES = ("lobby", "table", "replay", "player", "leaderboard", "account", "reports")
"""One ES module per page: ``static/pages/<page>.js``."""

_SHELL = (STATIC / "shell.html").read_text(encoding="utf-8")


def _page(name: str) -> Callable[[Request], Awaitable[Response]]:
    assert name in PAGES
    body = _SHELL.replace("{{page}}", name)

    async def page(request: Request) -> Response:
        return HTMLResponse(body, headers={"cache-control": "no-cache"})

    page.__name__ = f"page_{name}"
    page.__doc__ = f"The {name} page."
    return page


def routes() -> list[BaseRoute]:
    """The pages and the static files (the API routes are :data:`dennou.web.api.ENDPOINTS`)."""
    return [
        Route("/", _page("lobby")),
        Route("/tables/{table}", _page("table")),
        Route("/games/{table}", _page("replay")),
        Route("/replay", _page("replay")),
        Route("/players/{name}", _page("player")),
        Route("/leaderboard", _page("leaderboard")),
        Route("/leaderboard/{game}", _page("leaderboard")),
        Route("/account", _page("account")),
        Route("/reports", _page("reports")),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]


__all__ = ["PAGES", "STATIC", "routes"]
