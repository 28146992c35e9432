"""What a person or a program finds by looking around: ``/status``, ``/api``, ``/docs``.

``/status`` is a plain status page (``/`` is the web app, :mod:`dennou.web`), ``/api`` an index
of the endpoints, ``/openapi.json`` the OpenAPI document and ``/docs`` interactive API
documentation. The endpoints are the app's (``app.state.endpoints``: the lobby's and the web
app's).

``/docs`` is Swagger UI served from the files of the ``swagger-ui-py`` package (PyPI, installed
with ``dennou[server]``): nothing is fetched from another host, so it works offline.
"""

from __future__ import annotations

import html
import importlib.util
import time
from collections.abc import Sequence
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from dennou.server import protocol as p
from dennou.server.http_api import ENDPOINTS, Endpoint, described
from dennou.server.hub import Hub
from dennou.server.limits import Limits
from dennou.server.openapi import document


def swagger_ui_files() -> Path | None:
    """The directory of Swagger UI's files, or ``None`` without the package."""
    spec = importlib.util.find_spec("swagger_ui")
    if spec is None or not spec.submodule_search_locations:
        return None
    static = Path(next(iter(spec.submodule_search_locations))) / "static"
    return static if (static / "swagger-ui-bundle.js").is_file() else None


_DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>dennou API (電脳)</title>
<link rel="stylesheet" href="/docs/static/swagger-ui.css">
<link rel="icon" href="/docs/static/favicon-32x32.png"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/static/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>
"""

# validatorUrl: null keeps Swagger UI from sending the document to an outside validator.
_DOCS_INIT = """window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  persistAuthorization: false
});
"""


async def docs_page(request: Request) -> Response:
    """Interactive API documentation (Swagger UI over ``/openapi.json``)."""
    if swagger_ui_files() is None:
        return HTMLResponse(
            "<p>Interactive docs need the swagger-ui-py package: "
            "<code>pip install 'dennou[server]'</code>. The document itself is at "
            '<a href="/openapi.json">/openapi.json</a>.</p>',
            status_code=503,
        )
    return HTMLResponse(_DOCS_PAGE)


async def docs_init(request: Request) -> Response:
    """The few lines that start Swagger UI on our document."""
    return Response(_DOCS_INIT, media_type="text/javascript")


def endpoints(request: Request) -> Sequence[Endpoint]:
    """The HTTP API routes of the app that serves ``request``."""
    found: Sequence[Endpoint] = getattr(request.app.state, "endpoints", ENDPOINTS)
    return found


def _limits(request: Request) -> Limits:
    hub: Hub | None = getattr(request.app.state, "hub", None)
    return hub.limits if hub is not None else Limits()


async def openapi(request: Request) -> Response:
    """The OpenAPI 3.1 document of the HTTP API."""
    return JSONResponse(document(endpoints(request), _limits(request)))


async def api_index(request: Request) -> Response:
    """An index of the endpoints: HTTP routes, the WebSocket, the documents."""
    base = str(request.base_url).rstrip("/")
    ws = base.replace("http", "ws", 1) + "/ws"
    limits = _limits(request)
    return JSONResponse(
        {
            "server": "dennou",
            "protocol": p.PROTOCOL,
            "websocket": ws,
            "openapi": base + "/openapi.json",
            "docs": base + "/docs",
            "protocol_docs": "docs/protocol.md",
            "endpoints": [
                {"method": e.method, "path": e.path, "summary": described(e.summary, limits)}
                for e in endpoints(request)
            ],
        }
    )


async def status_page(request: Request) -> Response:
    """A plain page listing the tables and recent results."""
    hub: Hub = request.app.state.hub
    esc = html.escape
    rows = []
    page, _, _ = hub.table_infos(limit=hub.limits.page_max)
    for t in page:
        if t.status in ("finished", "aborted"):
            continue
        seats = ", ".join(esc(s.name or "open") for s in t.seats)
        rows.append(
            f"<tr><td>{esc(t.id)}</td><td>{esc(t.game)}</td><td>{esc(t.status)}</td>"
            f"<td>{seats}</td><td>{t.version}</td><td>{t.spectators}</td></tr>"
        )
    results = []
    for t in list(hub.recent)[:30]:
        names = [s.name or "?" for s in t.seats]
        ranks = (t.outcome or {}).get("ranks", [])
        line = ", ".join(f"{esc(n)} ({r})" for n, r in zip(names, ranks, strict=False))
        results.append(
            f'<tr><td><a href="/api/tables/{esc(t.id)}/record">{esc(t.id)}</a></td>'
            f"<td>{esc(t.game)}</td><td>{line or esc(t.status)}</td></tr>"
        )
    body = f"""<!doctype html><html><head><meta charset="utf-8"><title>dennou 電脳</title>
<style>body{{font-family:sans-serif;margin:2em}}td,th{{padding:2px 10px;text-align:left}}</style>
</head><body><h1>dennou 電脳</h1>
<p>Games: {esc(", ".join(hub.games))}. Up {time.time() - hub.started:.0f} s.
The web app is at <a href="/">/</a>.
Protocol: WebSocket at <code>/ws</code>; the lobby API at <a href="/api">/api</a>
(<a href="/docs">interactive docs</a>, <a href="/openapi.json">OpenAPI</a>).</p>
<h2>Tables</h2><table><tr><th>id</th><th>game</th><th>status</th><th>seats</th>
<th>version</th><th>spectators</th></tr>{"".join(rows) or "<tr><td>none</td></tr>"}</table>
<h2>Recent results</h2><table><tr><th>record</th><th>game</th><th>players (rank)</th></tr>
{"".join(results) or "<tr><td>none yet</td></tr>"}</table></body></html>"""
    return HTMLResponse(body)


def routes() -> list[BaseRoute]:
    """``/status``, ``/api``, ``/openapi.json``, ``/docs`` and Swagger UI's files."""
    out: list[BaseRoute] = [
        Route("/status", status_page),
        Route("/api", api_index),
        Route("/openapi.json", openapi),
        Route("/docs", docs_page),
        Route("/docs/init.js", docs_init),
    ]
    files = swagger_ui_files()
    if files is not None:
        out.append(Mount("/docs/static", StaticFiles(directory=files), name="swagger-ui"))
    return out


__all__ = ["endpoints", "routes", "swagger_ui_files"]
