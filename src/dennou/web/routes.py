"""The web app's routes: pages, static files, the browser session and the replay/leaderboard API.

Pages are one HTML shell per page that loads that page's ES module from ``/static``; everything
else happens in the browser over the protocol (WebSocket ``/ws`` and the HTTP lobby).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec
import sqlalchemy as sa
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from dennou.core.jsondata import to_json
from dennou.server.table import Refused
from dennou.store import schema
from dennou.web.replay import MAX_FRAMES, MAX_RECORD_BYTES, ReplayCache
from dennou.web.security import clear_session, same_origin, session_token, set_session

STATIC = Path(__file__).with_name("static")
"""The browser's files (shipped as package data)."""

PAGES = ("lobby", "table", "replay", "player", "leaderboard")
"""One ES module per page: ``static/pages/<page>.js``."""

_SHELL = (STATIC / "shell.html").read_text(encoding="utf-8")


def _page(name: str) -> Any:
    assert name in PAGES
    body = _SHELL.replace("{{page}}", name)

    async def page(request: Request) -> Response:
        return HTMLResponse(body, headers={"cache-control": "no-cache"})

    page.__name__ = f"page_{name}"
    page.__doc__ = f"The {name} page."
    return page


def _hub(request: HTTPConnection) -> Any:
    return request.app.state.hub


def _replays(request: Request) -> ReplayCache:
    cache: ReplayCache | None = getattr(request.app.state, "web_replays", None)
    if cache is None:
        cache = request.app.state.web_replays = ReplayCache(_hub(request).games)
    return cache


def _check_browser_write(request: Request) -> None:
    """A cookie-authorised change must come from our own pages, as JSON."""
    if not same_origin(request):
        raise Refused("forbidden", "cross-site request refused (Origin is not this server)")
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if request.method != "DELETE" and ctype != "application/json":
        raise Refused("bad_message", "send the body as application/json")


async def _json_body(request: Request, limit: int) -> dict[str, Any]:
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit:
            raise Refused("too_large", f"a request body has at most {limit} bytes")
    if not raw.strip():
        return {}
    try:
        data = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise Refused("malformed_json", f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise Refused("not_an_object", "the body is a JSON object")
    return data


async def session_account(request: HTTPConnection) -> str | None:
    """The account of the request's session cookie (same-origin requests only)."""
    token = session_token(request)
    if token is None:
        return None
    account: str | None = await _hub(request).authenticate(token)
    return account


# --- the browser session -------------------------------------------------------------------
async def api_session(request: Request) -> Response:
    """GET: who is signed in. POST ``{"name"}``: new account; ``{"token"}``: sign in. DELETE: out.

    The token goes into the HttpOnly cookie only; no answer shows it to page scripts.
    """
    hub = _hub(request)
    if request.method == "GET":
        return JSONResponse({"name": await session_account(request)})
    _check_browser_write(request)
    if request.method == "DELETE":
        response = JSONResponse({"name": None})
        clear_session(response, request)
        return response
    body = await _json_body(request, 4096)
    name, token = body.get("name"), body.get("token")
    if isinstance(name, str) and token is None:
        token = await hub.register(name)
        status = 201
    elif isinstance(token, str) and name is None:
        name = await hub.authenticate(token)
        if name is None:
            raise Refused("unauthorized", "unknown token")
        status = 200
    else:
        raise Refused("bad_message", "send {'name': '<new name>'} or {'token': '<your token>'}")
    response = JSONResponse({"name": name}, status_code=status)
    set_session(response, request, token)
    return response


# --- replays -----------------------------------------------------------------------------
def _window_args(
    request: Request, body: dict[str, Any] | None = None
) -> tuple[int | None, int, int]:
    source: Any = body if body is not None else request.query_params
    try:
        raw_seat = source.get("seat")
        seat = None if raw_seat in (None, "", "spectator") else int(raw_seat)
        start = int(source.get("from", 0))
        count = int(source.get("count", MAX_FRAMES))
    except (TypeError, ValueError):
        raise Refused("bad_message", "seat, from and count are integers") from None
    return seat, start, count


async def api_table_replay(request: Request) -> Response:
    """Views and events of a finished table's steps ``from..from+count-1`` as ``seat`` saw them."""
    hub = _hub(request)
    table = request.path_params["table"]
    seat, start, count = _window_args(request)
    row = await hub.store.call(hub.store.store.get_table, table)
    if row is None:
        raise Refused("not_found", f"no table {table!r}")
    if row.status != "finished":
        raise Refused("conflict", "records are published when the game is over")

    def build() -> dict[str, Any]:
        def load() -> Any:
            return hub.store.store.record(table)

        return _replays(request).get("table:" + table, load).window(seat, start, count)

    return JSONResponse(to_json(await asyncio.to_thread(build)))


async def api_file_replay(request: Request) -> Response:
    """The same for a record file: ``{"record": "<JSON lines>", "seat", "from", "count"}``."""
    _check_browser_write(request)
    body = await _json_body(request, MAX_RECORD_BYTES + 1024)
    text = body.get("record")
    if not isinstance(text, str):
        raise Refused("bad_message", "send {'record': '<the JSON lines of a record file>'}")
    seat, start, count = _window_args(request, body)

    def build() -> dict[str, Any]:
        return _replays(request).from_text(text).window(seat, start, count)

    return JSONResponse(to_json(await asyncio.to_thread(build)))


# --- results -----------------------------------------------------------------------------
async def api_finished(request: Request) -> Response:
    """Finished games, newest first (``?game=&limit=``): id, game, players, outcome, time."""
    hub = _hub(request)
    game = request.query_params.get("game") or None
    try:
        limit = max(1, min(int(request.query_params.get("limit", 30)), 200))
    except ValueError:
        raise Refused("bad_message", "limit is an integer") from None
    t = schema.tables

    def query() -> list[dict[str, Any]]:
        q = (
            sa.select(t.c.id, t.c.game, t.c.players, t.c.outcome, t.c.finished_at)
            .where(t.c.status == "finished")
            .order_by(t.c.finished_at.desc())
            .limit(limit)
        )
        if game is not None:
            q = q.where(t.c.game == game)
        with hub.store.store.engine.connect() as conn:
            return [dict(r._asdict()) for r in conn.execute(q)]

    return JSONResponse(to_json(await hub.store.call(query)))


async def api_leaderboard(request: Request) -> Response:
    """Per game, every account's games, wins, draws, mean score and mean rank (best first)."""
    hub = _hub(request)
    game = request.path_params["game"]
    hub.game(game)  # not_found for unknown games
    r = schema.results
    wins = sa.func.sum(sa.case((r.c.result == "win", 1), else_=0))
    draws = sa.func.sum(sa.case((r.c.result == "draw", 1), else_=0))

    def query() -> list[dict[str, Any]]:
        q = (
            sa.select(
                r.c.account,
                sa.func.count().label("games"),
                wins.label("wins"),
                draws.label("draws"),
                sa.func.avg(r.c.score).label("mean_score"),
                sa.func.avg(r.c.rank).label("mean_rank"),
            )
            .where(r.c.game == game)
            .group_by(r.c.account)
            .order_by(wins.desc(), sa.func.avg(r.c.score).desc(), r.c.account)
            .limit(500)
        )
        with hub.store.store.engine.connect() as conn:
            return [
                {
                    "name": row.account,
                    "games": int(row.games),
                    "wins": int(row.wins or 0),
                    "draws": int(row.draws or 0),
                    "mean_score": float(row.mean_score),
                    "mean_rank": float(row.mean_rank),
                }
                for row in conn.execute(q)
            ]

    return JSONResponse({"game": game, "rows": await hub.store.call(query)})


def routes() -> list[BaseRoute]:
    """Every route of the web app (mounted before the server's own).

    The API handlers answer refusals as the server's lobby does (its ``_api`` wrapper), so the
    web app's routes and the lobby's speak the same error JSON.
    """
    from dennou.server.app import _api  # the app is loaded by now: it calls this function

    api_session_, api_table_replay_, api_file_replay_, api_finished_, api_leaderboard_ = map(
        _api, (api_session, api_table_replay, api_file_replay, api_finished, api_leaderboard)
    )
    return [
        Route("/", _page("lobby")),
        Route("/tables/{table}", _page("table")),
        Route("/games/{table}", _page("replay")),
        Route("/replay", _page("replay")),
        Route("/players/{name}", _page("player")),
        Route("/leaderboard", _page("leaderboard")),
        Route("/leaderboard/{game}", _page("leaderboard")),
        Route("/api/session", api_session_, methods=["GET", "POST", "DELETE"]),
        Route("/api/tables/{table}/replay", api_table_replay_),
        Route("/api/replay", api_file_replay_, methods=["POST"]),
        Route("/api/finished", api_finished_),
        Route("/api/leaderboard/{game}", api_leaderboard_),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]


__all__ = ["PAGES", "STATIC", "routes", "session_account"]
