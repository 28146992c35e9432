"""The web app's HTTP API: the browser session, replays, games that are over, results.

Declared as :class:`~dennou.server.http_api.Endpoint` like the lobby's routes, so they are in
``/api``, the OpenAPI document and ``/docs`` (``docs/protocol.md`` §6). Bodies are read with the
host's bounded reader (:func:`~dennou.server.http_api.read_json`).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response

from dennou.arena.leaderboard import rules_preset
from dennou.core.errors import StoreError
from dennou.core.game import TalkLine
from dennou.core.jsondata import to_json
from dennou.core.record import Record
from dennou.server.bucket import TokenBucket
from dennou.server.errors import Refused
from dennou.server.http_api import (
    BODY_ERRORS,
    Endpoint,
    Query,
    account_of,
    published,
    read_json,
)
from dennou.server.hub import Hub
from dennou.server.records import audience_label, audience_of, heard_line, readable
from dennou.server.security import COOKIE, clear_session, same_origin, session_token, set_session
from dennou.server.tournaments import board_names
from dennou.store.reports import ReportRow, ReportStore
from dennou.store.tournaments import RatingPoint, TournamentStore
from dennou.web.replay import ReplayCache, TooLong


# --- bodies and replies ---------------------------------------------------------------------
class Session(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Who the browser's session is (``null``: nobody signed in).

    ``operator`` (only when true): one of the host's operators (the pages show an operator's
    controls; the host checks every request itself).
    """

    name: str | None
    operator: bool = False


class NewSession(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Sign in with ``name`` and ``password`` (``register``: a new account), or an API ``token``."""

    name: str | None = None
    password: str | None = None
    register: bool = False
    token: str | None = None


class Me(msgspec.Struct, kw_only=True):
    """The caller's own account."""

    name: str
    has_password: bool


class TokenInfo(msgspec.Struct, kw_only=True):
    """One of the caller's API tokens (the token itself is never shown again)."""

    id: int
    name: str
    created_at: float
    last_used_at: float | None


class TokenList(msgspec.Struct, kw_only=True):
    """The caller's API tokens, oldest first."""

    tokens: list[TokenInfo]


class NewToken(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Make an API token for a program."""

    name: str
    """What it is for (1-64 characters), to tell it from the others."""


class MadeToken(msgspec.Struct, kw_only=True):
    """A new API token: ``token`` is shown this once (the server keeps only its hash)."""

    id: int
    name: str
    token: str
    created_at: float


class NewPassword(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Set the caller's password (``current``: needed when it has one)."""

    password: str
    current: str | None = None


class FrameStep(msgspec.Struct, kw_only=True):
    """The step that led to a frame."""

    seat: int | None
    kind: str
    """``action``, ``chance``, ``default``, ``talk`` or ``end``."""
    reason: str | None


class Frame(msgspec.Struct, kw_only=True):
    """The game after ``version`` steps, as the replay's seat saw it."""

    version: int
    step: FrameStep | None
    events: list[dict[str, Any]]
    view: dict[str, Any]
    to_act: list[int]
    hidden: list[dict[str, Any]] | None
    """With ``reveal``: per seat, what its view showed that a spectator's did not."""


class ReplayWindow(msgspec.Struct, kw_only=True):
    """Frames ``from``..``from+count-1`` of a record, as ``seat`` (null: a spectator) saw them."""

    game: str
    players: list[str]
    rules: dict[str, Any]
    outcome: dict[str, Any] | None
    steps: int
    """The record's steps (frames ``0..steps``)."""
    seat: int | None
    audience: str
    """Whose copy of the record: ``all`` (an operator), ``seat N`` or ``spectators``; talk
    that audience could not hear reads ``[private]``."""
    frames: list[Frame]


class FileReplay(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A record file's text (the JSON lines ``dennou match --out`` writes) and the window."""

    record: str
    seat: int | None = None
    start: int = msgspec.field(name="from", default=0)
    count: int | None = None
    """Frames to answer (default and most: the host's ``replay_frames``)."""
    reveal: bool = False


class GameOver(msgspec.Struct, kw_only=True):
    """A game that is over."""

    id: str
    game: str
    status: str
    """``finished`` or ``aborted``."""
    players: list[str] | None
    outcome: dict[str, Any] | None
    finished_at: float | None


class GamesOver(msgspec.Struct, kw_only=True):
    """A page of games that are over, newest first (``next``: the next page's offset)."""

    games: list[GameOver]
    next: int | None


class ResultRow(msgspec.Struct, kw_only=True):
    """One account's results at a game."""

    name: str
    games: int
    wins: int
    draws: int
    mean_score: float
    mean_rank: float


class Results(msgspec.Struct, kw_only=True):
    """Every account's results at a game, most wins first."""

    game: str
    rows: list[ResultRow]


class RatingHistory(msgspec.Struct, kw_only=True):
    """A player's rating after each rated table, oldest first (the last ``rating_points``)."""

    name: str
    points: list[RatingPoint]


class SeatRating(msgspec.Struct, kw_only=True):
    """A seat's rating at its table's game and rules preset (``games`` 0: not rated yet)."""

    seat: int
    name: str
    mu: float | None = None
    sigma: float | None = None
    ordinal: float | None = None
    games: int = 0


class TableRatings(msgspec.Struct, kw_only=True):
    """Per table asked for: its seats' ratings (open seats are left out)."""

    tables: dict[str, list[SeatRating]]


class NewReport(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Report a talk line to the host's operators: the table version the line came at."""

    version: Annotated[int, Meta(ge=1)]
    reason: Annotated[str, Meta(max_length=500)] = ""


class ReportList(msgspec.Struct, kw_only=True):
    """Reports, open ones oldest first (resolved ones newest first)."""

    reports: list[ReportRow]


class Resolution(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """How an operator resolved a report (``muted``: they also muted the talker there)."""

    resolution: Literal["dismissed", "muted", "warned"]


# --- helpers ------------------------------------------------------------------------------
def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _replays(request: Request) -> ReplayCache:
    cache: ReplayCache | None = getattr(request.app.state, "web_replays", None)
    if cache is None:
        limits = _hub(request).limits
        cache = request.app.state.web_replays = ReplayCache(
            _hub(request).games,
            max_bytes=limits.replay_cache_bytes,
            max_steps=limits.replay_steps,
        )
    return cache


def _file_replay_allowed(request: Request) -> bool:
    """Whether the caller's address may ask for one more record-file replay now."""
    state = request.app.state
    buckets: dict[str, TokenBucket] | None = getattr(state, "file_replay_buckets", None)
    if buckets is None or len(buckets) > 100_000:  # a bounded table: forget, then relearn
        buckets = state.file_replay_buckets = {}
    address = request.client.host if request.client is not None else ""
    bucket = buckets.get(address)
    if bucket is None:
        limits = _hub(request).limits
        bucket = buckets[address] = TokenBucket(
            limits.replay_rate_address, limits.replay_burst_address
        )
    return bucket.take()


def check_browser_write(request: Request) -> None:
    """A change the session cookie authorises must come from our own pages, as JSON.

    Raises:
        Refused: ``forbidden`` (another origin), ``bad_message`` (not ``application/json``).
    """
    if not same_origin(request):
        raise Refused("forbidden", "cross-site request refused (Origin is not this server)")
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if request.method != "DELETE" and ctype != "application/json":
        raise Refused("bad_message", "send the body as application/json")


async def reader(request: Request) -> str | None:
    """Who is asking: the bearer token's account, else the session cookie's, else nobody.

    Raises:
        Refused: ``unauthorized``: a bearer token that is unknown.
    """
    account = await account_of(request, required=False)
    if account is not None:
        return account
    secret = session_token(request)
    return None if secret is None else await _hub(request).accounts.session_account(secret)


def _int(raw: Any, name: str, default: int | None) -> int | None:
    if raw in (None, ""):
        return default
    if isinstance(raw, str) and raw.lstrip("-").isdigit():
        return int(raw)
    raise Refused("bad_message", f"{name} is an integer")


def _window(
    raw_seat: Any, raw_start: Any, raw_count: Any, most: int
) -> tuple[int | None, int, int]:
    seat = None if raw_seat == "spectator" else _int(raw_seat, "seat", None)
    start = _int(raw_start, "from", 0)
    count = _int(raw_count, "count", most)
    assert start is not None and count is not None
    return seat, start, min(count, most)


def _flag(raw: str | None, name: str) -> bool:
    if raw in (None, "", "0", "false"):
        return False
    if raw in ("1", "true"):
        return True
    raise Refused("bad_message", f"{name} is 1 or 0")


async def caller(request: Request, *, write: bool = False) -> str:
    """The account acting: the bearer token's, else the browser session's.

    A ``write`` that the session cookie authorises must come from this server's own pages
    (:func:`check_browser_write`).

    Raises:
        Refused: ``unauthorized`` (no token or session, or an unknown token), ``forbidden``
            (a cookie-authorised write from another site).
    """
    account = await account_of(request, required=False)
    if account is not None:
        return account
    if write and request.cookies.get(COOKIE):
        check_browser_write(request)  # a cookie on a write from another site: say so
    secret = session_token(request)
    account = None if secret is None else await _hub(request).accounts.session_account(secret)
    if account is None:
        raise Refused("unauthorized", "sign in, or send Authorization: Bearer <token>")
    if write:
        check_browser_write(request)
    return account


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else ""


# --- handlers -----------------------------------------------------------------------------
async def api_session(request: Request) -> Any:
    """Who the browser's session cookie signs in (``null``: nobody)."""
    secret = session_token(request)
    hub = _hub(request)
    name = None if secret is None else await hub.accounts.session_account(secret)
    return Session(name=name, operator=hub.accounts.is_operator(name))


async def api_sign_in(request: Request) -> Any:
    """Sign the browser in: ``{"name", "password"}`` (``"register": true``: a new account).

    Or ``{"token"}``: an API token of the account.

    The answer sets a new browser session's secret in the ``HttpOnly`` cookie (never an API
    token, and never in a body page scripts could read). Only the server's own pages may call
    this (``Origin``), with a JSON body.
    """
    check_browser_write(request)
    hub = _hub(request)
    accounts = hub.accounts
    body: NewSession = await read_json(request, NewSession)
    if body.token is not None and body.name is None and body.password is None:
        found = await hub.authenticate(body.token)
        if found is None:
            raise Refused("unauthorized", "unknown token")
        name, secret = found, await accounts.open_session(found)
    elif body.name is not None and body.password is not None and body.token is None:
        if body.register:
            made, _ = await hub.register(body.name, _address(request), body.password, token=False)
            name, secret = made, await accounts.open_session(made)
        else:
            name, secret = await accounts.sign_in(body.name, body.password, _address(request))
    else:
        raise Refused(
            "bad_message",
            "send {'name', 'password'} (and 'register': true for a new account) or {'token'}",
        )
    response = Response(
        msgspec.json.encode(Session(name=name)), status_code=201, media_type="application/json"
    )
    set_session(response, request, secret, hub.limits.session_ttl)
    return response


async def api_sign_out(request: Request) -> Any:
    """Sign the browser out: the session ends on the server, and the cookie is deleted."""
    check_browser_write(request)
    secret = session_token(request)
    if secret:
        await _hub(request).accounts.end_session(secret)
    response = Response(msgspec.json.encode(Session(name=None)), media_type="application/json")
    clear_session(response, request)
    return response


async def api_me(request: Request) -> Any:
    """The caller's own account: its name and whether it has a password."""
    account = await caller(request)
    return Me(name=account, has_password=await _hub(request).accounts.has_password(account))


async def api_set_password(request: Request) -> Any:
    """Set the caller's password (the current one too, when it has one).

    The account's other browser sessions end.
    """
    account = await caller(request, write=True)
    body: NewPassword = await read_json(request, NewPassword)
    await _hub(request).accounts.set_password(
        account, body.password, body.current, keep_session=session_token(request)
    )
    return Me(name=account, has_password=True)


async def api_tokens(request: Request) -> Any:
    """The caller's API tokens: name, made, last used (never the token again)."""
    account = await caller(request)
    rows = await _hub(request).accounts.tokens(account)
    return TokenList(tokens=[msgspec.convert(r, TokenInfo) for r in rows])


async def api_create_token(request: Request) -> Any:
    """Make an API token for a program; it is shown this once."""
    account = await caller(request, write=True)
    body: NewToken = await read_json(request, NewToken)
    made = await _hub(request).accounts.create_token(account, body.name)
    return msgspec.convert(made, MadeToken)


async def api_revoke_token(request: Request) -> Any:
    """Revoke one of the caller's own API tokens; it stops working at once."""
    account = await caller(request, write=True)
    raw = request.path_params["token_id"]
    if not raw.isdigit() or len(raw) > 18:
        raise Refused("not_found", f"you have no token {raw!r}")
    hub = _hub(request)
    await hub.accounts.revoke_token(account, int(raw))
    rows = await hub.accounts.tokens(account)
    return TokenList(tokens=[msgspec.convert(r, TokenInfo) for r in rows])


async def api_table_replay(request: Request) -> Any:
    """A game that is over, steps ``from``..``from+count-1``, as ``seat`` saw them.

    The record is the copy the caller may read (as ``GET /api/tables/{table}/record`` gives
    it): talk the caller could not hear reads ``[private]`` in every seat's frames. Nothing is
    answered while the game is on.
    """
    hub = _hub(request)
    table = request.path_params["table"]
    q = request.query_params
    most = _hub(request).limits.replay_frames
    seat, start, count = _window(q.get("seat"), q.get("from"), q.get("count"), most)
    reveal = _flag(q.get("reveal"), "reveal")
    row, audience = await published(hub, table, await reader(request))
    game = hub.games[row.game]
    label = audience_label(audience)

    def load() -> Record:
        record = hub.store.store.record(table)
        assert record is not None
        return readable(record, game, audience)

    def build() -> dict[str, Any]:
        replay = _replays(request).get(f"table:{table}:{label}", load)
        return replay.window(seat, start, count, reveal)

    return ReplayWindow(audience=label, **await asyncio.to_thread(build))


async def api_file_replay(request: Request) -> Any:
    """The same for a record file's text (a file the person has: nothing is stored).

    Anyone may ask, so each address is rate-limited (``replay_rate_address``) before the body is
    read, and a file has at most ``replay_steps`` steps.
    """
    if not _file_replay_allowed(request):
        limits = _hub(request).limits
        raise Refused(
            "rate_limited",
            f"at most {limits.replay_rate_address:g} record-file replays per second per address",
        )
    limits = _hub(request).limits
    body: FileReplay = await read_json(request, FileReplay, limit=limits.record_file_bytes)
    most = limits.replay_frames
    count = most if body.count is None else min(body.count, most)

    def build() -> dict[str, Any]:
        replay = _replays(request).from_text(body.record)
        return replay.window(body.seat, body.start, count, body.reveal)

    try:
        return ReplayWindow(audience="file", **await asyncio.to_thread(build))
    except TooLong as exc:
        raise Refused("too_large", exc.message) from None


async def api_games_over(request: Request) -> Any:
    """Games that are over, newest first: their players and outcome."""
    q = request.query_params
    hub = _hub(request)
    most = hub.limits.page_max
    limit = _int(q.get("limit"), "limit", min(hub.limits.games_page_size, most))
    offset = _int(q.get("offset"), "offset", 0)
    assert limit is not None and offset is not None
    if not 1 <= limit <= most or offset < 0:
        raise Refused("bad_message", f"limit is 1..{most} and offset at least 0")
    rows = await hub.store.call(
        hub.store.store.games_over, q.get("game") or None, limit + 1, offset
    )
    games = [msgspec.convert(to_json(r), GameOver) for r in rows[:limit]]
    for over in games:
        if hub.withheld(over.id) is not None:  # its outcome may show a shared deal
            over.outcome = None
    return GamesOver(games=games, next=offset + limit if len(rows) > limit else None)


async def api_results(request: Request) -> Any:
    """Per account, its games, wins, draws, mean score and mean rank at a game."""
    hub = _hub(request)
    game = request.path_params["game"]
    hub.game(game)  # not_found for games this host does not have
    rows = await hub.store.call(hub.store.store.results_by_account, game)
    return Results(game=game, rows=[msgspec.convert(r, ResultRow) for r in rows])


async def api_rating_history(request: Request) -> Any:
    """A player's rating over time: one point per rated table, oldest first."""
    hub = _hub(request)
    name = request.path_params["name"]
    db = TournamentStore(hub.store.store)
    points = await hub.store.call(db.rating_history, name, hub.limits.rating_points)
    return RatingHistory(name=name, points=points)


async def api_table_ratings(request: Request) -> Any:
    """The ratings of the people and bots seated at some tables, for their game and rules."""
    hub = _hub(request)
    raw = request.query_params.get("tables", "")
    ids = list(dict.fromkeys(x for x in raw.split(",") if x))
    if not ids or len(ids) > hub.limits.page_max:
        raise Refused("bad_message", f"tables names 1..{hub.limits.page_max} table ids")
    db = TournamentStore(hub.store.store)

    def build() -> dict[str, list[SeatRating]]:
        out: dict[str, list[SeatRating]] = {}
        for table_id in ids:
            row = hub.store.store.get_table(table_id)
            if row is None or row.game not in hub.games:
                continue
            names = board_names(row.seats)
            seated = [
                (s, n)
                for s, (n, spec) in enumerate(zip(names, row.seats, strict=True))
                if spec["kind"] != "open"
            ]
            preset = rules_preset(hub.games[row.game], row.rules)
            known = db.ratings_of(row.game, preset, [n for _, n in seated])
            seats = []
            for s, n in seated:
                shown = n.removeprefix("bot:")
                if n in known:
                    mu, sigma, games = known[n]
                    seats.append(
                        SeatRating(
                            seat=s,
                            name=shown,
                            mu=mu,
                            sigma=sigma,
                            ordinal=mu - 3 * sigma,
                            games=games,
                        )
                    )
                else:
                    seats.append(SeatRating(seat=s, name=shown))
            out[table_id] = seats
        return out

    return TableRatings(tables=await hub.store.call(build))


def _operator(hub: Hub, account: str) -> None:
    if not hub.accounts.is_operator(account):
        raise Refused("forbidden", "only the host's operators read and resolve reports")


async def api_report(request: Request) -> Any:
    """Report a talk line the caller could read to the host's operators."""
    account = await caller(request, write=True)
    hub = _hub(request)
    table = request.path_params["table"]
    body: NewReport = await read_json(request, NewReport)
    row = await hub.store.call(hub.store.store.get_table, table)
    if row is None or row.game not in hub.games or row.players is None:
        raise Refused("not_found", f"no started table {table!r}")
    reports = ReportStore(hub.store.store)
    if await hub.store.call(reports.open_count, account) >= hub.limits.reports_per_account:
        raise Refused(
            "limit_reached",
            f"at most {hub.limits.reports_per_account} of your reports may wait for the operators",
        )
    game = hub.games[row.game]
    seat = audience_of(row.seats, account, operator=False)
    audience = seat if seat != "all" else None

    def heard() -> TalkLine | None:
        record = hub.store.store.record(table)
        return None if record is None else heard_line(record, game, body.version, audience)

    line = await hub.store.call(heard)
    if line is None:
        raise Refused("not_found", f"no talk line you could read at version {body.version}")
    talker, channel, text = line.name, line.channel, line.text
    if talker == account:
        raise Refused("bad_message", "that line is your own")
    made = await hub.store.call(
        reports.add, table, body.version, account, talker, channel, text, body.reason
    )
    if made is None:
        raise Refused("conflict", "you have reported that line already")
    return made


async def api_reports(request: Request) -> Any:
    """The reports for the operators: open ones (``?resolved=1``: resolved ones)."""
    account = await caller(request)
    hub = _hub(request)
    _operator(hub, account)
    resolved = _flag(request.query_params.get("resolved"), "resolved")
    rows = await hub.store.call(ReportStore(hub.store.store).listing, resolved, hub.limits.page_max)
    return ReportList(reports=rows)


async def api_resolve_report(request: Request) -> Any:
    """An operator resolves a report (muting the talker at the table is a separate ``mute``)."""
    account = await caller(request, write=True)
    hub = _hub(request)
    _operator(hub, account)
    body: Resolution = await read_json(request, Resolution)
    raw = request.path_params["report"]
    if not raw.isdigit():
        raise Refused("not_found", f"no report {raw!r}")
    try:
        row: ReportRow = await hub.store.call(
            ReportStore(hub.store.store).resolve, int(raw), account, body.resolution
        )
    except StoreError:
        raise Refused("not_found", f"no report {raw!r}") from None
    return row


REPLAY_QUERY = (
    Query(
        "seat", "string", "the seat whose frames to show (a number); none or spectator: a spectator"
    ),
    Query("from", "integer", "the first frame (0: before the first step)"),
    Query("count", "integer", "frames to answer (at most {replay_frames})"),
    Query("reveal", "integer", "1: every frame also lists what each seat saw (hands revealed)"),
)

ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        "/api/session",
        api_session,
        "Who the browser's session cookie signs in",
        Session,
        cookie=True,
    ),
    Endpoint(
        "POST",
        "/api/session",
        api_sign_in,
        "Sign the browser in (name and password, a new account, or an API token): a new "
        "session, in the cookie only",
        Session,
        status=201,
        body=NewSession,
        errors=(*BODY_ERRORS, "forbidden", "unauthorized", "conflict", "limit_reached"),
    ),
    Endpoint(
        "DELETE",
        "/api/session",
        api_sign_out,
        "Sign the browser out (the session ends on the server)",
        Session,
        cookie=True,
        errors=("forbidden",),
    ),
    Endpoint(
        "GET",
        "/api/me",
        api_me,
        "The caller's own account",
        Me,
        auth="optional",
        cookie=True,
        errors=("unauthorized",),
    ),
    Endpoint(
        "POST",
        "/api/me/password",
        api_set_password,
        "Set the caller's password (the current one too, when it has one)",
        Me,
        body=NewPassword,
        auth="optional",
        cookie=True,
        errors=(*BODY_ERRORS, "unauthorized", "forbidden"),
    ),
    Endpoint(
        "GET",
        "/api/me/tokens",
        api_tokens,
        "The caller's API tokens (never the tokens themselves)",
        TokenList,
        auth="optional",
        cookie=True,
        errors=("unauthorized",),
    ),
    Endpoint(
        "POST",
        "/api/me/tokens",
        api_create_token,
        "Make a named API token for a program; it is shown once",
        MadeToken,
        status=201,
        body=NewToken,
        auth="optional",
        cookie=True,
        errors=(*BODY_ERRORS, "unauthorized", "forbidden", "limit_reached"),
    ),
    Endpoint(
        "DELETE",
        "/api/me/tokens/{token_id}",
        api_revoke_token,
        "Revoke one of the caller's API tokens",
        TokenList,
        auth="optional",
        cookie=True,
        errors=("unauthorized", "forbidden", "not_found"),
    ),
    Endpoint(
        "GET",
        "/api/tables/{table}/replay",
        api_table_replay,
        "A game that is over, frame by frame, as a seat or a spectator saw it",
        ReplayWindow,
        auth="optional",
        cookie=True,
        errors=("bad_message", "unauthorized", "not_found", "conflict", "config"),
        query=REPLAY_QUERY,
    ),
    Endpoint(
        "POST",
        "/api/replay",
        api_file_replay,
        "A record file, frame by frame, as a seat or a spectator saw it",
        ReplayWindow,
        body=FileReplay,
        errors=(*BODY_ERRORS, "config", "rate_limited"),
    ),
    Endpoint(
        "GET",
        "/api/games-over",
        api_games_over,
        "Games that are over (finished or aborted), newest first",
        GamesOver,
        errors=("bad_message",),
        query=(
            Query("game", "string", "only games of this game"),
            Query(
                "limit",
                "integer",
                "games in the page (default {games_page_size}, at most {page_max})",
            ),
            Query("offset", "integer", "games to skip: the previous page's next"),
        ),
    ),
    Endpoint(
        "GET",
        "/api/results/{game}",
        api_results,
        "Every account's results at a game (games, wins, draws, mean score and rank)",
        Results,
        errors=("not_found",),
    ),
    Endpoint(
        "GET",
        "/api/players/{name}/ratings",
        api_rating_history,
        "A player's rating after each rated table, oldest first (the chart on the player page)",
        RatingHistory,
    ),
    Endpoint(
        "POST",
        "/api/tables/{table}/reports",
        api_report,
        "Report a talk line you could read (by the version it came at) to the host's operators",
        ReportRow,
        status=201,
        body=NewReport,
        auth="optional",
        cookie=True,
        errors=(
            *BODY_ERRORS,
            "unauthorized",
            "forbidden",
            "not_found",
            "conflict",
            "limit_reached",
        ),
    ),
    Endpoint(
        "GET",
        "/api/reports",
        api_reports,
        "Reported talk lines, for the host's operators: open ones oldest first",
        ReportList,
        auth="optional",
        cookie=True,
        errors=("bad_message", "unauthorized", "forbidden"),
        query=(Query("resolved", "integer", "1: resolved reports, newest first"),),
    ),
    Endpoint(
        "POST",
        "/api/reports/{report}",
        api_resolve_report,
        "An operator resolves a report (dismissed, muted or warned)",
        ReportRow,
        body=Resolution,
        auth="optional",
        cookie=True,
        errors=(*BODY_ERRORS, "unauthorized", "forbidden", "not_found"),
    ),
    Endpoint(
        "GET",
        "/api/ratings",
        api_table_ratings,
        "The ratings of the seats of some tables, at each table's game and rules preset",
        TableRatings,
        errors=("bad_message",),
        query=(Query("tables", "string", "table ids, comma-separated (at most page_max)"),),
    ),
)
"""The web app's HTTP API routes."""


__all__ = ["ENDPOINTS", "caller", "check_browser_write", "reader"]
