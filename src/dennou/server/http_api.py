"""The HTTP lobby at ``/api``: every route declared once, with its body, reply, status and errors.

:data:`ENDPOINTS` is the single list the app mounts and the OpenAPI document
(:mod:`dennou.server.openapi`) and the ``/api`` index are generated from, so the three cannot
disagree. Request bodies are read with a byte cap and a deadline (``Content-Length`` is checked
before anything is read). Every error is ``{code, error, message, context}`` with the status of
its code (``docs/protocol.md`` §4).
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from dennou.core.errors import DennouError
from dennou.core.jsondata import to_json
from dennou.server import protocol as p
from dennou.server.connection import Connection
from dennou.server.errors import Refused, error_body, http_status
from dennou.server.hub import Hub
from dennou.server.limits import Limits
from dennou.server.records import Audience, audience_of, readable
from dennou.store.store import TableRow


# --- reply and body types (the OpenAPI document is generated from them) ---------------------
class NewAccount(msgspec.Struct, kw_only=True):
    """Register an account."""

    name: str
    """1-32 letters or digits of any script (one script, or one writing system's mix) and
    ``_ . -``; NFKC-normalised; unique without regard to case and by look (confusables)."""
    password: str | None = None
    """For signing in again in the browser (8-256 characters); none: set one later with
    ``POST /api/me/password``."""


class AccountToken(msgspec.Struct, kw_only=True):
    """A new account: its first API token is shown this once (the server keeps only its hash)."""

    name: str
    token: str


class HistoryRow(msgspec.Struct, kw_only=True):
    """One finished game of a player."""

    table_id: str
    game: str
    seat: int
    result: str
    score: float
    rank: int
    finished_at: str
    """When the game ended: ISO 8601 in UTC, to the second (``2026-11-28T07:30:00Z``)."""


class AccountInfo(msgspec.Struct, kw_only=True):
    """A player's history (newest first), per-game accounts (口座) and games aborted.

    ``history`` holds the games that count (rated and tournament tables); ``aborts`` counts
    every game the player aborted.
    """

    name: str
    history: list[HistoryRow]
    accounts: dict[str, dict[str, Any]]
    aborts: int


class NewTable(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Create a table (as the WebSocket's ``create_table``, without ``"me"`` seats)."""

    game: str
    rules: dict[str, Any] = {}
    seats: list[str] | None = None
    options: p.TableOptions = msgspec.field(default_factory=p.TableOptions)


class SeatChoice(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Take a seat: a given one, or the first open one."""

    seat: int | None = None


class TablesPage(msgspec.Struct, kw_only=True):
    """A page of tables, newest first (``next``: the offset of the next page, null: last)."""

    tables: list[p.TableInfo]
    total: int
    next: int | None


class StoreStats(msgspec.Struct, kw_only=True):
    """The store's work."""

    commits: int
    steps_written: int
    seconds_writing_on_loop: float
    slowest_write_ms: float
    threaded: bool


class WorkStats(msgspec.Struct, kw_only=True):
    """One kind of engine work (``game/operation``): its cost and where it ran."""

    cost_ms: float
    """A running estimate of one run's cost."""
    slowest_ms: float
    inline: int
    thread: int
    process: int


class Stats(msgspec.Struct, kw_only=True):
    """Counters for operators and benchmarks."""

    tables: int
    playing: int
    connections: int
    steps: int
    bot_decisions: int
    bot_kills: int
    bot_overruns: int
    bot_rebuilds: int
    store: StoreStats
    work: dict[str, WorkStats]
    uptime_s: float


class ErrorBody(msgspec.Struct, kw_only=True):
    """Every HTTP error: its code (``docs/protocol.md`` §4), class, message and context."""

    code: str
    error: str
    message: str
    context: dict[str, Any]


class Record(msgspec.Struct):
    """A finished game's record as JSON lines (``dennou replay FILE``).

    A header line, one line per step, an end line. Talk the reader could not hear reads
    ``[private]``.
    """


@dataclass(frozen=True)
class Query:
    """A query parameter.

    ``description`` may name the host's limits as ``{page_max}`` (any :class:`Limits` field,
    with a format spec): the documents show the values the host runs with (:func:`described`).
    """

    name: str
    type: str
    description: str


def described(text: str, limits: Limits) -> str:
    """``text`` with each ``{limit}`` replaced by that limit's value on this host."""
    return text.format_map(msgspec.structs.asdict(limits))


@dataclass(frozen=True)
class Endpoint:
    """One HTTP route: how it is called, what it answers, and how it fails."""

    method: str
    path: str
    handler: Callable[[Request], Awaitable[Any]]
    summary: str
    """One line; it may name limits as :class:`Query` descriptions do."""
    reply: Any
    status: int = 200
    body: type | None = None
    auth: str | None = None
    """``required``: a bearer token is needed; ``optional``: it changes the answer."""
    cookie: bool = False
    """The web app's session cookie stands for the token here (``dennou.web``)."""
    errors: tuple[str, ...] = ()
    query: tuple[Query, ...] = ()
    media: str = "application/json"


# --- helpers ------------------------------------------------------------------------------
def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else ""


async def account_of(request: Request, *, required: bool = True) -> str | None:
    """The account of the request's bearer token.

    Raises:
        Refused: ``unauthorized``: a token that is unknown, or none where one is required.
    """
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        account = await _hub(request).authenticate(auth[7:].strip())
        if account is None:
            raise Refused("unauthorized", "unknown token")
        return account
    if required:
        raise Refused("unauthorized", "send Authorization: Bearer <token>")
    return None


async def read_body(request: Request, hub: Hub, limit: int | None = None) -> bytes:
    """The request body, refused early when too big and cut off when too slow.

    Args:
        request: The request.
        hub: The hub (its limits).
        limit: Most bytes (default: the host's ``message_bytes``); a route that takes files
            says how many.

    Raises:
        Refused: ``too_large`` (by ``Content-Length`` before reading, or once more bytes than
            the limit have arrived), ``too_slow`` (not all there within ``body_timeout``),
            ``bad_message`` (a ``Content-Length`` that is not a number).
    """
    limit = hub.limits.message_bytes if limit is None else limit
    length = request.headers.get("content-length")
    if length is not None:
        if not length.strip().isdigit():
            raise Refused("bad_message", "Content-Length is not a number")
        if int(length) > limit:
            raise Refused("too_large", f"a request body has at most {limit} bytes")

    async def collect() -> bytes:
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise Refused("too_large", f"a request body has at most {limit} bytes")
            chunks.append(chunk)
        return b"".join(chunks)

    try:
        return await asyncio.wait_for(collect(), hub.limits.body_timeout)
    except TimeoutError:
        raise Refused(
            "too_slow", f"the request body did not arrive within {hub.limits.body_timeout:g} s"
        ) from None


async def read_json(request: Request, cls: type[Any], limit: int | None = None) -> Any:
    """The body decoded as ``cls`` (an empty body is ``{}``); ``limit`` as for :func:`read_body`."""
    hub = _hub(request)
    limit = hub.limits.message_bytes if limit is None else limit
    raw = await read_body(request, hub, limit)
    data = (
        {}
        if not raw.strip()
        else p.decode_json(raw, max_bytes=limit, max_depth=hub.limits.json_depth)
    )
    if not isinstance(data, dict):
        raise Refused("not_an_object", "the body is a JSON object")
    try:
        return msgspec.convert(data, cls)
    except msgspec.ValidationError as exc:
        raise Refused("bad_message", f"invalid body: {exc}") from None


def _json(value: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(value), status_code=status, media_type="application/json")


def error_response(exc: DennouError) -> Response:
    """An error as an HTTP response (the connection is closed after a refused body)."""
    body = to_json(error_body(exc))
    headers = {"connection": "close"} if body["code"] in ("too_large", "too_slow") else None
    return JSONResponse(body, status_code=http_status(body["code"]), headers=headers)


# --- handlers -----------------------------------------------------------------------------
async def api_games(request: Request) -> Any:
    """Every hosted game with its rules options, bots and clock."""
    return _hub(request).games_info()


async def api_stats(request: Request) -> Any:
    """Counters for operators and benchmarks: tables, connections, bots, the store's work."""
    hub = _hub(request)
    store = hub.store
    return Stats(
        tables=len(hub.tables),
        playing=sum(1 for a in hub.tables.values() if a.status == "playing"),
        connections=hub.connections,
        steps=sum(a.actions for a in hub.tables.values()),
        bot_decisions=hub.bots.decisions,
        bot_kills=hub.bots.kills,
        bot_overruns=hub.bots.overruns,
        bot_rebuilds=hub.bots.rebuilds,
        store=StoreStats(
            commits=store.commits,
            steps_written=store.steps_written,
            seconds_writing_on_loop=round(store.busy, 3),
            slowest_write_ms=round(store.slowest * 1000, 1),
            threaded=store.threaded,
        ),
        work={
            f"{kind[0]}/{kind[1]}": WorkStats(
                cost_ms=round(cost * 1000, 3),
                slowest_ms=round(hub.work.slowest[kind] * 1000, 3),
                **hub.work.where[kind],
            )
            for kind, cost in hub.work.cost.items()
        },
        uptime_s=round(time.time() - hub.started, 1),
    )


async def api_register(request: Request) -> Any:
    """Register ``{"name": ...}`` (and a ``password``, optionally).

    The first API token in the answer is shown only this once.
    """
    body: NewAccount = await read_json(request, NewAccount)
    name, token = await _hub(request).register(body.name, _address(request), body.password)
    assert token is not None
    return AccountToken(name=name, token=token)


async def api_account(request: Request) -> Any:
    """A player's history and per-game accounts (public)."""
    hub = _hub(request)
    name = request.path_params["name"]
    store = hub.store.store
    if not await hub.store.call(store.account_exists, name):
        raise Refused("not_found", f"no account {name!r}")
    history = await hub.store.call(store.history, name)
    accounts = await hub.store.call(store.game_accounts, name)
    aborts = await hub.store.call(store.aborts, name)
    return AccountInfo(
        name=name,
        history=[
            msgspec.convert({**h, "finished_at": iso_utc(h["finished_at"])}, HistoryRow)
            for h in history
        ],
        accounts=accounts,
        aborts=aborts,
    )


def iso_utc(seconds: float) -> str:
    """A Unix time as ISO 8601 in UTC, to the second: ``2026-11-28T07:30:00Z``."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _int_param(request: Request, name: str) -> int | None:
    raw = request.query_params.get(name)
    if raw is None:
        return None
    if not raw.isdigit():
        raise Refused("bad_message", f"{name} is a non-negative integer")
    return int(raw)


async def api_tables(request: Request) -> Any:
    """A page of tables, newest first."""
    q = request.query_params
    status = q.get("status")
    if status is not None and status not in ("waiting", "playing", "finished", "aborted"):
        raise Refused("bad_message", "status is waiting, playing, finished or aborted")
    limit = _int_param(request, "limit")
    if limit == 0:
        raise Refused("bad_message", "limit is at least 1")
    page, total, following = _hub(request).table_infos(
        q.get("game"), status, limit, _int_param(request, "offset") or 0
    )
    return TablesPage(tables=page, total=total, next=following)


async def api_create_table(request: Request) -> Any:
    """Create a table (``seats``: ``open`` or ``bot:<spec>``); join it to play."""
    hub = _hub(request)
    account = await account_of(request)
    body: NewTable = await read_json(request, NewTable)
    if body.seats and "me" in body.seats:
        raise Refused("bad_message", "'me' is for WebSocket clients; use 'open' and join")
    actor, _ = await hub.create_table(account, body.game, body.rules, body.seats, body.options)
    return actor.info()


async def api_table(request: Request) -> Any:
    """One table."""
    return await _hub(request).table_info(request.path_params["table"])


async def api_join(request: Request) -> Any:
    """Take a seat (``{"seat": n}`` or the first open one); play it over the WebSocket."""
    hub = _hub(request)
    account = await account_of(request)
    body: SeatChoice = await read_json(request, SeatChoice)
    table = request.path_params["table"]
    if hub.cluster is not None and account is not None and table not in hub.tables:
        info = await hub.cluster.seat_call(table, "join", account, body.seat)
        if info is not None:  # another process of the site runs it
            return info
    actor = await hub.actor(table)
    conn = Connection(account)  # no transport: the caller reads the table
    await actor.call(functools.partial(actor.join, present=False), conn, body.seat, None, None)
    return actor.info()


async def api_leave(request: Request) -> Any:
    """Give up your own seat at a table that has not started."""
    hub = _hub(request)
    account = await account_of(request)
    assert account is not None
    table = request.path_params["table"]
    if hub.cluster is not None and table not in hub.tables:
        info = await hub.cluster.seat_call(table, "leave", account)
        if info is not None:  # another process of the site runs it
            return info
    actor = await hub.actor(table)
    await actor.call(actor.leave_seat, account)
    return actor.info()


async def published(hub: Hub, table: str, account: str | None) -> tuple[TableRow, Audience]:
    """A table whose record is published (its game is over), and whose copy ``account`` reads.

    The one rule for every route that shows a record (this lobby's, the web app's replays).

    Raises:
        Refused: ``not_found`` (no such table), ``conflict`` (the game is not over).
    """
    row = await hub.store.call(hub.store.store.get_table, table)
    if row is None or row.game not in hub.games:
        raise Refused("not_found", f"no table {table!r}")
    if row.status not in ("finished", "aborted") or row.players is None:
        raise Refused("conflict", "records are published when the game is over")
    withheld = hub.withheld(row.id)
    if withheld is not None:
        raise Refused("conflict", withheld)
    return row, audience_of(row.seats, account, hub.accounts.is_operator(account))


async def api_record(request: Request) -> Any:
    """The record of a finished game as JSON lines, as the caller may read it."""
    hub = _hub(request)
    table = request.path_params["table"]
    row, audience = await published(hub, table, await account_of(request, required=False))
    record = await hub.store.call(hub.store.store.record, table)
    assert record is not None
    text = (await asyncio.to_thread(readable, record, hub.games[row.game], audience)).dumps()
    return Response(
        text,
        media_type="application/x-ndjson",
        headers={"content-disposition": f'attachment; filename="{table}.jsonl"'},
    )


BODY_ERRORS = ("malformed_json", "not_an_object", "bad_message", "too_large", "too_slow")
"""What a route that reads a JSON body may answer about the body."""

ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("GET", "/api/games", api_games, "Hosted games, rules options, bots", list[p.GameInfo]),
    Endpoint("GET", "/api/stats", api_stats, "Counters for operators and benchmarks", Stats),
    Endpoint(
        "POST",
        "/api/accounts",
        api_register,
        "Register a name (and a password, optionally); the first API token is shown once",
        AccountToken,
        status=201,
        body=NewAccount,
        errors=(*BODY_ERRORS, "conflict", "limit_reached"),
    ),
    Endpoint(
        "GET",
        "/api/accounts/{name}",
        api_account,
        "A player's history and per-game accounts",
        AccountInfo,
        errors=("not_found",),
    ),
    Endpoint(
        "GET",
        "/api/tables",
        api_tables,
        "A page of tables, newest first",
        TablesPage,
        errors=("bad_message",),
        query=(
            Query("game", "string", "only tables of this game"),
            Query("status", "string", "waiting, playing, finished or aborted"),
            Query(
                "limit", "integer", "tables in the page (default {page_size}, at most {page_max})"
            ),
            Query("offset", "integer", "tables to skip: the previous page's next"),
        ),
    ),
    Endpoint(
        "POST",
        "/api/tables",
        api_create_table,
        "Create a table",
        p.TableInfo,
        status=201,
        body=NewTable,
        auth="required",
        errors=(*BODY_ERRORS, "unauthorized", "forbidden", "not_found", "config", "limit_reached"),
    ),
    Endpoint(
        "GET", "/api/tables/{table}", api_table, "One table", p.TableInfo, errors=("not_found",)
    ),
    Endpoint(
        "POST",
        "/api/tables/{table}/join",
        api_join,
        "Take a seat (then play it over the WebSocket)",
        p.TableInfo,
        body=SeatChoice,
        auth="required",
        errors=(*BODY_ERRORS, "unauthorized", "forbidden", "not_found", "conflict"),
    ),
    Endpoint(
        "POST",
        "/api/tables/{table}/leave",
        api_leave,
        "Give up your own seat before the game starts",
        p.TableInfo,
        auth="required",
        errors=("unauthorized", "forbidden", "not_found", "conflict"),
    ),
    Endpoint(
        "GET",
        "/api/tables/{table}/record",
        api_record,
        "The record of a game that is over, as the caller may read it (JSON lines)",
        Record,
        auth="optional",
        errors=("unauthorized", "not_found", "conflict"),
        media="application/x-ndjson",
    ),
)
"""Every HTTP API route."""


def _route(endpoint: Endpoint) -> Route:
    async def handle(request: Request) -> Response:
        try:
            result = await endpoint.handler(request)
        except DennouError as exc:
            return error_response(exc)
        if isinstance(result, Response):
            return result
        return _json(result, endpoint.status)

    handle.__name__ = endpoint.handler.__name__
    handle.__doc__ = endpoint.handler.__doc__
    return Route(endpoint.path, handle, methods=[endpoint.method])


def routes(endpoints: Sequence[Endpoint] = ENDPOINTS) -> list[Route]:
    """The routes of ``endpoints`` (one per path and method; default :data:`ENDPOINTS`)."""
    return [_route(e) for e in endpoints]


__all__ = [
    "BODY_ERRORS",
    "ENDPOINTS",
    "Endpoint",
    "ErrorBody",
    "Query",
    "account_of",
    "described",
    "error_response",
    "published",
    "read_body",
    "read_json",
    "routes",
]
