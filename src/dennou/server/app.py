"""The ASGI app: the WebSocket at ``/ws``, the lobby over HTTP at ``/api``, a status page at ``/``.

HTTP requests that act for a player carry ``Authorization: Bearer <token>``. The OpenAPI spec is
served at ``/openapi.json``.
"""

from __future__ import annotations

import contextlib
import html
import time
from collections.abc import AsyncIterator
from typing import Any

import msgspec
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from dennou.core.errors import DennouError
from dennou.core.jsondata import to_json
from dennou.core.registry import Registry
from dennou.server import protocol as p
from dennou.server.hub import Conn, Hub
from dennou.server.table import Refused, error_code
from dennou.store import AsyncStore, Store, database_url
from dennou.web import SecurityHeaders, session_account
from dennou.web import routes as web_routes

_STATUS = {
    "unauthorized": 401,
    "forbidden": 403,
    "not_found": 404,
    "conflict": 409,
    "rate_limited": 429,
    "too_large": 413,
}


def create_app(
    db: str | None = None,
    data_dir: str = "./data",
    *,
    games: Registry | None = None,
    rate: float = 50.0,
    burst: float = 100.0,
    quiet: bool = False,
) -> Starlette:
    """Build the app; the store opens (and migrates) when the app starts.

    Args:
        db: A database URL (``postgresql://...``); ``None``: SQLite in ``data_dir``.
        data_dir: Where the SQLite file lives.
        games: The games to host (default: the registry).
        rate: Per-connection messages per second.
        burst: Per-connection burst.
        quiet: Do not log to stderr.
    """

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = AsyncStore(Store(database_url(db, data_dir)))
        hub = Hub(store, games, rate=rate, burst=burst, quiet=quiet)
        app.state.hub = hub
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            hub.log(
                f"store: {store.commits} commits, {store.steps_written} steps, "
                f"{store.busy:.2f} s writing on the loop, slowest {store.slowest * 1000:.0f} ms"
            )
            store.close()

    routes = [
        *web_routes(),  # the web app (dennou.web): pages at /, /tables/..., static files
        Route("/status", status_page),
        Route("/openapi.json", openapi),
        Route("/api/games", api_games),
        Route("/api/stats", api_stats),
        Route("/api/accounts", api_register, methods=["POST"]),
        Route("/api/accounts/{name}", api_account),
        Route("/api/tables", api_tables, methods=["GET", "POST"]),
        Route("/api/tables/{table}", api_table),
        Route("/api/tables/{table}/join", api_join, methods=["POST"]),
        Route("/api/tables/{table}/leave", api_leave, methods=["POST"]),
        Route("/api/tables/{table}/record", api_record),
        WebSocketRoute("/ws", websocket),
    ]
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(SecurityHeaders)])


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _error(exc: DennouError) -> JSONResponse:
    code = error_code(exc)
    body = {"code": code, **exc.to_json()}
    if isinstance(exc, Refused):
        body["error"] = "ProtocolError"
    return JSONResponse(to_json(body), status_code=_STATUS.get(code, 400))


async def _account(request: Request, required: bool = True) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        account = await _hub(request).authenticate(auth[7:].strip())
        if account is None:
            raise Refused("unauthorized", "unknown token")
        return account
    if required:
        raise Refused("unauthorized", "send Authorization: Bearer <token>")
    return None


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > p.MAX_MESSAGE:
        raise Refused("too_large", f"a request body has at most {p.MAX_MESSAGE} bytes")
    if not raw.strip():
        return {}
    try:
        data = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise Refused("malformed_json", f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise Refused("not_an_object", "the body is a JSON object")
    return data


def _json(value: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(to_json(value), status_code=status)


def _api(handler: Any) -> Any:
    async def wrapped(request: Request) -> Response:
        try:
            response: Response = await handler(request)
            return response
        except DennouError as exc:
            return _error(exc)

    wrapped.__name__ = handler.__name__
    wrapped.__doc__ = handler.__doc__
    return wrapped


@_api
async def api_games(request: Request) -> Response:
    """Every hosted game with its rules options and bots."""
    return _json(_hub(request).games_info())


@_api
async def api_stats(request: Request) -> Response:
    """Counters for operators and benchmarks: tables, connections, the store's work."""
    hub = _hub(request)
    store = hub.store
    return _json(
        {
            "tables": len(hub.tables),
            "playing": sum(1 for a in hub.tables.values() if a.status == "playing"),
            "connections": hub.connections,
            "steps": sum(a.actions for a in hub.tables.values()),
            "store": {
                "commits": store.commits,
                "steps_written": store.steps_written,
                "seconds_writing_on_loop": round(store.busy, 3),
                "slowest_write_ms": round(store.slowest * 1000, 1),
                "threaded": store.threaded,
            },
            "uptime_s": round(time.time() - hub.started, 1),
        }
    )


@_api
async def api_register(request: Request) -> Response:
    """Register ``{"name": ...}``; the token in the answer is shown only this once."""
    body = await _body(request)
    name = body.get("name")
    if not isinstance(name, str):
        raise Refused("bad_message", "send {'name': '<your name>'}")
    token = await _hub(request).register(name)
    return _json({"name": name, "token": token}, 201)


@_api
async def api_account(request: Request) -> Response:
    """A player's history and per-game accounts (public)."""
    hub = _hub(request)
    name = request.path_params["name"]
    store = hub.store.store
    if not await hub.store.call(store.account_exists, name):
        raise Refused("not_found", f"no account {name!r}")
    history = await hub.store.call(store.history, name)
    accounts = await hub.store.call(store.game_accounts, name)
    return _json({"name": name, "history": history, "accounts": accounts})


@_api
async def api_tables(request: Request) -> Response:
    """GET: list tables (``?game=&status=``). POST: create one (as in ``create_table``)."""
    hub = _hub(request)
    if request.method == "GET":
        q = request.query_params
        return _json(hub.table_infos(q.get("game"), q.get("status")))
    account = await _account(request)
    body = await _body(request)
    try:
        msg = msgspec.convert({**body, "type": "create_table"}, p.CreateTable)
    except msgspec.ValidationError as exc:
        raise Refused("bad_message", f"invalid table: {exc}") from None
    if msg.seats and "me" in msg.seats:
        raise Refused("bad_message", "'me' is for WebSocket clients; use 'open' and join")
    actor, _ = await hub.create_table(account, msg.game, msg.rules, msg.seats, msg.options)
    return _json(actor.info(), 201)


@_api
async def api_table(request: Request) -> Response:
    """One table."""
    actor = await _hub(request).actor(request.path_params["table"])
    return _json(actor.info())


class _HttpConn:
    """Stands in for a connection when a seat is taken over HTTP (nothing is sent)."""

    def __init__(self, account: str | None) -> None:
        self.account = account
        self.tables: dict[str, Any] = {}

    def send(self, message: p.ServerMessage) -> None:
        """Dropped: HTTP callers read the table."""

    def send_raw(self, data: bytes) -> None:
        """Dropped."""


@_api
async def api_join(request: Request) -> Response:
    """Take a seat (``{"seat": n}`` or the first open one); play it over the WebSocket."""
    hub = _hub(request)
    account = await _account(request)
    body = await _body(request)
    actor = await hub.actor(request.path_params["table"])
    seat = body.get("seat")
    if seat is not None and not isinstance(seat, int):
        raise Refused("bad_message", "seat is an integer")
    conn = _HttpConn(account)
    await actor.call(actor.join, conn, seat, None, None)
    await actor.call(actor.detach, conn)
    return _json(actor.info())


@_api
async def api_leave(request: Request) -> Response:
    """Give up your seat at a table that has not started."""
    hub = _hub(request)
    account = await _account(request)
    actor = await hub.actor(request.path_params["table"])
    if actor.status != "waiting":
        raise Refused("conflict", "the game has started; seats are kept until the end")
    conn = _HttpConn(account)
    await actor.call(actor.join, conn, None, None, None)
    await actor.call(actor.leave, conn, None)
    return _json(actor.info())


@_api
async def api_record(request: Request) -> Response:
    """The record of a finished game as JSON lines (``dennou replay`` reads it)."""
    hub = _hub(request)
    table = request.path_params["table"]
    row = await hub.store.call(hub.store.store.get_table, table)
    if row is None:
        raise Refused("not_found", f"no table {table!r}")
    if row.status != "finished":
        raise Refused("conflict", "records are published when the game is over")
    record = await hub.store.call(hub.store.store.record, table)
    assert record is not None
    return Response(
        record.dumps(),
        media_type="application/x-ndjson",
        headers={"content-disposition": f'attachment; filename="{table}.jsonl"'},
    )


async def status_page(request: Request) -> Response:
    """A plain page listing the tables and recent results."""
    hub = _hub(request)
    esc = html.escape
    rows = []
    for t in hub.table_infos():
        if t.status == "finished":
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
            f"<td>{esc(t.game)}</td><td>{line}</td></tr>"
        )
    body = f"""<!doctype html><html><head><meta charset="utf-8"><title>dennou 電脳</title>
<style>body{{font-family:sans-serif;margin:2em}}td,th{{padding:2px 10px;text-align:left}}</style>
</head><body><h1>dennou 電脳</h1>
<p>Games: {esc(", ".join(hub.games))}. Up {time.time() - hub.started:.0f} s.
Protocol: WebSocket at <code>/ws</code>; lobby API at <a href="/openapi.json">/openapi.json</a>.</p>
<h2>Tables</h2><table><tr><th>id</th><th>game</th><th>status</th><th>seats</th>
<th>version</th><th>spectators</th></tr>{"".join(rows) or "<tr><td>none</td></tr>"}</table>
<h2>Recent results</h2><table><tr><th>record</th><th>game</th><th>players (rank)</th></tr>
{"".join(results) or "<tr><td>none yet</td></tr>"}</table></body></html>"""
    return HTMLResponse(body)


async def openapi(request: Request) -> Response:
    """The OpenAPI 3.1 spec of the HTTP lobby."""
    return JSONResponse(openapi_spec())


def openapi_spec() -> dict[str, Any]:
    """The OpenAPI document (the WebSocket protocol is in docs/protocol.md)."""
    _, components = msgspec.json.schema_components(
        [p.TableInfo, p.GameInfo, p.TableOptions], ref_template="#/components/schemas/{name}"
    )
    err = {"$ref": "#/components/schemas/Error"}
    components["Error"] = {
        "type": "object",
        "properties": {
            "code": {"type": "string"},
            "error": {"type": "string"},
            "message": {"type": "string"},
        },
        "required": ["code", "message"],
    }
    table = {"$ref": "#/components/schemas/TableInfo"}
    auth: list[dict[str, list[str]]] = [{"token": []}]

    def ok(schema: dict[str, Any], status: str = "200") -> dict[str, Any]:
        return {
            status: {"description": "OK", "content": {"application/json": {"schema": schema}}},
            "default": {"description": "error", "content": {"application/json": {"schema": err}}},
        }

    table_param = [{"name": "table", "in": "path", "required": True, "schema": {"type": "string"}}]
    create_body = {
        "type": "object",
        "required": ["game"],
        "properties": {
            "game": {"type": "string"},
            "rules": {"type": "object"},
            "seats": {"type": "array", "items": {"type": "string"}, "description": "open|bot:X"},
            "options": {"$ref": "#/components/schemas/TableOptions"},
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "dennou lobby", "version": str(p.PROTOCOL)},
        "components": {
            "schemas": components,
            "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}},
        },
        "paths": {
            "/api/games": {
                "get": {
                    "summary": "Hosted games, rules options, bots",
                    "responses": ok(
                        {"type": "array", "items": {"$ref": "#/components/schemas/GameInfo"}}
                    ),
                }
            },
            "/api/accounts": {
                "post": {
                    "summary": "Register a name; the token is shown once",
                    "requestBody": {
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {"name": {"type": "string"}},
                                    "required": ["name"],
                                }
                            }
                        }
                    },
                    "responses": ok(
                        {
                            "type": "object",
                            "properties": {"name": {"type": "string"}, "token": {"type": "string"}},
                        },
                        "201",
                    ),
                }
            },
            "/api/accounts/{name}": {
                "get": {
                    "summary": "A player's history and per-game accounts",
                    "parameters": [
                        {
                            "name": "name",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        }
                    ],
                    "responses": ok({"type": "object"}),
                }
            },
            "/api/tables": {
                "get": {
                    "summary": "List tables",
                    "parameters": [
                        {"name": "game", "in": "query", "schema": {"type": "string"}},
                        {"name": "status", "in": "query", "schema": {"type": "string"}},
                    ],
                    "responses": ok({"type": "array", "items": table}),
                },
                "post": {
                    "summary": "Create a table",
                    "security": auth,
                    "requestBody": {"content": {"application/json": {"schema": create_body}}},
                    "responses": ok(table, "201"),
                },
            },
            "/api/tables/{table}": {
                "get": {"summary": "One table", "parameters": table_param, "responses": ok(table)}
            },
            "/api/tables/{table}/join": {
                "post": {
                    "summary": "Take a seat (then play it over the WebSocket)",
                    "security": auth,
                    "parameters": table_param,
                    "requestBody": {
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {"seat": {"type": "integer"}},
                                }
                            }
                        }
                    },
                    "responses": ok(table),
                }
            },
            "/api/tables/{table}/leave": {
                "post": {
                    "summary": "Give up your seat before the game starts",
                    "security": auth,
                    "parameters": table_param,
                    "responses": ok(table),
                }
            },
            "/api/tables/{table}/record": {
                "get": {
                    "summary": "The record of a finished game (JSON lines; dennou replay)",
                    "parameters": table_param,
                    "responses": {
                        "200": {
                            "description": "JSON lines",
                            "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
                        }
                    },
                }
            },
        },
    }


async def websocket(ws: WebSocket) -> None:
    """One client: receive messages in order and hand them to the hub."""
    hub = _hub(ws)
    await ws.accept()

    async def send(data: bytes) -> None:
        await ws.send_text(data.decode())

    async def close(code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await ws.close(code, reason)

    conn = Conn(send, close, rate=hub.rate, burst=hub.burst)
    conn.session_account = await session_account(ws)  # the web app's cookie (dennou.web)
    hub.connections += 1
    try:
        while not conn.closed:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            await hub.handle(conn, raw)
    except WebSocketDisconnect:
        pass
    finally:
        hub.connections -= 1
        await hub.disconnected(conn)
        await conn.drain()
