"""The wire protocol: JSON objects over one WebSocket, tagged by ``"type"``.

Every message is defined here as a msgspec struct, which both validates what clients send and
writes the JSON Schema files under ``docs/schema/`` (``python -m dennou.server.protocol DIR``).
See ``docs/protocol.md`` for the prose and a full example session.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from dennou.core.views import LogJSON
from dennou.server.errors import ErrorCode, Refused

PROTOCOL = 1
"""The protocol version; a client names it in ``hello``."""

SCHEMA_BASE = "urn:dennou:protocol"
"""Where the schemas' ``$id`` live: ``<base>/<protocol>/<file>``, one set per protocol version."""

SAFE = 2**53 - 1
"""The largest integer every client reads exactly (JavaScript's ``Number.MAX_SAFE_INTEGER``)."""

SEED_MAX = 2**63 - 1
"""The largest seed (a signed 64-bit integer in the store)."""

WIDE = Meta(ge=-(2**63), le=2**63 - 1)
"""The range of a client's integer that the host takes as it comes (a signed 64-bit integer)."""

Id = Annotated[int, WIDE] | str | None

ClientInt = Annotated[int, WIDE]
"""A version or seat a client names: any 64-bit integer (one the table does not have is refused
by the table: ``stale_version``, ``conflict``), so that no range is narrower than it was."""

Version = Annotated[
    int, Meta(ge=0, le=SAFE, description="a table's version: the steps in its record, 0..2^53-1")
]
SeatNo = Annotated[int, Meta(ge=0, le=255, description="a seat, 0..players-1 (at most 255)")]
Count = Annotated[int, Meta(ge=0, le=SAFE, description="a count, 0..2^53-1")]


class ClientMessage(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, kw_only=True):
    """Base of what clients send: ``id`` is echoed in the reply."""

    id: Id = None


class Hello(ClientMessage, tag="hello", kw_only=True):
    """Authenticate (first message). No token: a guest who may only list and spectate."""

    protocol: ClientInt = PROTOCOL
    token: str | None = None


class Ping(ClientMessage, tag="ping", kw_only=True):
    """Keep-alive; answered by ``pong``."""


class ListGames(ClientMessage, tag="list_games", kw_only=True):
    """Ask for the games, their rules options and their bots."""


Status = Literal["waiting", "playing", "finished", "aborted"]
"""A table's status: ``waiting`` for players, ``playing``, ``finished`` (with an outcome) or
``aborted`` (before anything was dealt or moved, or a waiting table nobody came back to)."""


class ListTables(ClientMessage, tag="list_tables", kw_only=True):
    """Ask for tables, optionally of one game and/or status, a page at a time (newest first).

    ``limit``: tables in the page (default and maximum: the host's ``page_size``/``page_max``);
    ``offset``: how many to skip (the previous page's ``next``).
    """

    game: str | None = None
    status: Status | None = None
    limit: Annotated[int, Meta(ge=1, le=2**63 - 1)] | None = None
    offset: Annotated[int, Meta(ge=0, le=2**63 - 1)] = 0


class TableOptions(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Host options of a table (not rules of the game): its clock and, rarely, a seed.

    The host's limits bound both clock settings (``docs/security.md``: by default ``time_limit``
    1-3600 s and ``absent_grace`` 1-600 s); the table info shows both.
    """

    time_limit: Annotated[float, Meta(gt=0, le=86400)] | None = None
    """Seconds per decision, for every game (default: the game's clock, else 60)."""
    time_bank: Annotated[float, Meta(ge=0, le=86400)] | None = None
    """Seconds each seat may spend beyond its decisions' clocks, over the whole table (a game,
    or a Daifugo set): a decision that runs past ``time_limit`` draws on it (default 0)."""
    absent_grace: Annotated[float, Meta(gt=0, le=86400)] | None = None
    """Seconds a disconnected seat is waited for before its decisions default (default 5)."""
    seed: (
        Annotated[int, Meta(ge=0, le=SEED_MAX)]
        | Annotated[
            str,
            Meta(
                pattern="^(0|[1-9][0-9]{0,18})$",
                description="a seed as a decimal string, 0..2^63-1 (JavaScript: above 2^53)",
            ),
        ]
        | None
    ) = None
    """Seeds the deals and built-in bots, 0..2^63-1: a number, or a decimal string (a JavaScript
    client cannot hold a number above 2^53 exactly). Accepted only from the host's operator, or
    for a practice table where nobody but its creator sits (every other seat a built-in bot)."""

    def seed_value(self) -> int | None:
        """The seed as an integer (``None``: none).

        Raises:
            Refused: ``bad_message``: a decimal string above 2^63-1.
        """
        if self.seed is None or isinstance(self.seed, int):
            return self.seed
        value = int(self.seed)
        if value > SEED_MAX:
            raise Refused("bad_message", f"a seed is at most 2^63-1 ({SEED_MAX})")
        return value

    rated: bool = False
    """The result moves the game's leaderboard (``GET /api/leaderboard/{game}``)."""


class CreateTable(ClientMessage, tag="create_table", kw_only=True):
    """Create a table: ``seats`` lists ``open``, ``me`` or ``bot:<spec>`` for each seat."""

    game: str
    rules: dict[str, Any] = {}
    seats: list[str] | None = None
    options: TableOptions = msgspec.field(default_factory=TableOptions)


class Join(ClientMessage, tag="join", kw_only=True):
    """Take a seat (a given one or the first open one) or return to the seat you hold.

    ``version``: the last table version you saw; you get the events since (or a fresh view).
    """

    table: str
    seat: ClientInt | None = None
    version: ClientInt | None = None


class Spectate(ClientMessage, tag="spectate", kw_only=True):
    """Watch a table (spectator view only); ``version`` as for ``join``."""

    table: str
    version: ClientInt | None = None


class Leave(ClientMessage, tag="leave", kw_only=True):
    """Stop watching, or give up a seat before the game starts (after: you are absent)."""

    table: str


class Act(ClientMessage, tag="act", kw_only=True):
    """An action for your seat. ``version``: the table version of the ``turn`` you answer."""

    table: str
    action: Any
    version: ClientInt | None = None


class Talk(ClientMessage, tag="talk", kw_only=True):
    """Say a line in one of the game's channels (spectators: ``spectators``, their own room)."""

    table: str
    text: str
    channel: str = "public"


class Resume(ClientMessage, tag="resume", kw_only=True):
    """Events after ``version`` at a table you are attached to (or a fresh view)."""

    table: str
    version: ClientInt


class GetView(ClientMessage, tag="get_view", kw_only=True):
    """Your current view of a table you are attached to."""

    table: str


class Resign(ClientMessage, tag="resign", kw_only=True):
    """Give the game up: you lose, every other seat wins; the game ends now."""

    table: str


class Abort(ClientMessage, tag="abort", kw_only=True):
    """End the game before anything was dealt or moved: nobody wins, no history counts it.

    Refused once the host has drawn any chance (a deal, a coin) or a seat has acted; each
    abort counts against the account that asked (its public info shows ``aborts``).
    """

    table: str


class Claim(ClientMessage, tag="claim", kw_only=True):
    """Claim the win: every other player's seat has been disconnected past ``claim_grace``.

    The absent seats lose; the seats present share the win.
    """

    table: str


class Mute(ClientMessage, tag="mute", kw_only=True):
    """Mute (or, ``muted: false``, unmute) an account's talk at a table.

    Only the table's owner or a host operator may; the answer is the table info (``muted``).
    """

    table: str
    account: Annotated[str, Meta(min_length=1, max_length=64)]
    muted: bool = True


CLIENT_MESSAGES: tuple[type[ClientMessage], ...] = (
    Hello,
    Ping,
    ListGames,
    ListTables,
    CreateTable,
    Join,
    Spectate,
    Leave,
    Act,
    Talk,
    Resume,
    GetView,
    Resign,
    Abort,
    Claim,
    Mute,
)
BY_TYPE: dict[str, type[ClientMessage]] = {str(c.__struct_config__.tag): c for c in CLIENT_MESSAGES}


# --- what the server sends ----------------------------------------------------------------
# Every field is always sent (null where there is nothing), except ``id``: it is present only on
# the reply to a request that carried one.
class ServerMessage(msgspec.Struct, tag_field="type", kw_only=True, omit_defaults=True):
    """Base of what the server sends; ``id`` echoes the request it answers."""

    id: Id = None


class Welcome(ServerMessage, tag="welcome", kw_only=True):
    """Answer to ``hello``: who you are (``account`` null for a guest) and what serves you.

    ``server_version``: the server's software version (not ``version``: every other message's
    ``version`` is a table's, and clients read it as such); ``engines``: each hosted game's
    engine version (a record names the version it was played with).
    """

    protocol: Annotated[int, Meta(ge=1, le=1000)]
    server: str
    account: str | None
    server_version: str
    engines: dict[str, Annotated[int, Meta(ge=1, le=SAFE)]]


class Pong(ServerMessage, tag="pong", kw_only=True):
    """Answer to ``ping``."""


class Error(ServerMessage, tag="error", kw_only=True):
    """Something you sent was refused; nothing changed.

    ``code``: see ``docs/protocol.md`` §4. ``error``: the error class (``IllegalActionError``...;
    ``ProtocolError`` for what the host refused). ``context``: details (``rule``, ``seat``,
    ``phase``...). ``table``: the table the request named, if any.
    """

    code: ErrorCode
    message: str
    error: str
    table: str | None
    context: dict[str, Any]


class RulesOption(msgspec.Struct, kw_only=True):
    """One rules option of a game: its name, type, default and what it means."""

    name: str
    type: str
    default: Any
    description: str


class GameInfo(msgspec.Struct, kw_only=True):
    """A game the server hosts."""

    name: str
    title: str
    version: Annotated[int, Meta(ge=1, le=SAFE, description="the engine's version")]
    min_players: Annotated[int, Meta(ge=1, le=256)]
    max_players: Annotated[int, Meta(ge=1, le=256)]
    rules: list[RulesOption]
    bots: list[str]
    talk: bool
    hidden_information: bool
    time_limit: float
    """The game's clock (seconds per decision) when a table sets none."""
    board: str = "generic"
    """The web page's board module for the game (``boards/<board>.js``)."""


class Games(ServerMessage, tag="games", kw_only=True):
    """Answer to ``list_games``."""

    games: list[GameInfo]


class SeatInfo(msgspec.Struct, kw_only=True):
    """A seat: ``open``, held by a player (``name``: the account), or a built-in ``bot``.

    ``connected``: a player's seat has a connection now (bots: always true; open: false).
    """

    seat: SeatNo
    kind: Literal["open", "player", "bot"]
    name: str | None
    connected: bool


class TableInfo(msgspec.Struct, kw_only=True):
    """A table as the lobby shows it.

    ``time_limit``: seconds per decision; ``absent_grace``: seconds a disconnected seat is
    waited for; ``seeded``: the deals come from a seed (a practice or operator table) rather than
    fresh server randomness (the seed itself is published in the record when the game is over).
    ``owner``: the account that created the table. ``outcome``: once ``finished``.
    ``claim_grace``: seconds every other player must have been away before a ``claim``.
    ``muted``: accounts whose talk the owner or an operator muted here. ``time_bank``: seconds
    each seat may spend beyond its decisions' clocks over the whole table (0: none).
    """

    id: str
    game: str
    status: Status
    rules: dict[str, Any]
    seats: list[SeatInfo]
    version: Version
    spectators: Count
    time_limit: float
    absent_grace: float
    seeded: bool
    owner: str | None
    outcome: dict[str, Any] | None
    claim_grace: float
    muted: list[str]
    time_bank: float


class Tables(ServerMessage, tag="tables", kw_only=True):
    """Answer to ``list_tables``: one page of tables.

    ``next``: the offset of the next page (null: the last); ``total``: tables in all pages.
    """

    tables: list[TableInfo]
    total: Count
    next: Count | None


class TableMsg(ServerMessage, tag="table", kw_only=True):
    """A table was created or changed (seat taken, started...)."""

    table: TableInfo


class Joined(ServerMessage, tag="joined", kw_only=True):
    """You hold ``seat`` at ``table`` (spectators: ``seat`` is null)."""

    table: str
    seat: SeatNo | None


class Left(ServerMessage, tag="left", kw_only=True):
    """You are no longer attached to ``table``."""

    table: str


class Resumed(ServerMessage, tag="resumed", kw_only=True):
    """Answer to ``resume``: the table is at ``version``; what you missed up to it follows."""

    table: str
    version: Version


class ViewMsg(ServerMessage, tag="view", kw_only=True):
    """Your full view of a table at ``version`` (the source of truth; null before the start)."""

    table: str
    version: Version
    seat: SeatNo | None
    status: Status
    view: dict[str, Any] | None
    to_act: list[Annotated[int, Meta(ge=-1, le=255, description="a seat (-1: a chance draw)")]]
    channels: list[str]
    """The talk channels open to you now (as in ``turn``; spectators too; empty unless playing)."""


class EventData(msgspec.Struct, kw_only=True):
    """One engine event (only events you may see reach you)."""

    kind: str
    text: str
    data: dict[str, Any]


StepKind = Literal["action", "chance", "default", "talk", "end"]
"""What a step was: a seat's action, a chance draw, a default the host applied, a talk line, or
the host ending the game (``reason``: ``resign``, ``abort`` or ``claim`` for a seat; ``cancel``
or ``step_limit`` for the host itself)."""

Reason = Literal[
    "timeout", "absent", "error", "illegal", "resign", "abort", "claim", "cancel", "step_limit"
]
"""Why: for ``default`` steps, what made the host apply the default (``timeout``, ``absent``,
``error`` or ``illegal`` for a built-in bot that failed); for ``end`` steps, how it ended."""


class EventMsg(ServerMessage, tag="event", kw_only=True):
    """A step was accepted and stored: the table is now at ``version``.

    ``seat``: who (null: a spectator talked); ``reason``: for ``default`` and ``end`` steps, else
    null. ``events``: only those your seat may see (possibly none).
    """

    table: str
    version: Version
    step: StepKind
    seat: Annotated[int, Meta(ge=-1, le=255, description="who: a seat, -1: a chance draw")] | None
    reason: Reason | None
    events: list[EventData]


class Turn(ServerMessage, tag="turn", kw_only=True):
    """Your decision is due: your view, the legal actions and a deadline.

    ``legal``: every legal action when there are at most 300 (``legal_count``), else null.
    ``legal_description``: how the game describes its legal actions now (its shape is on the
    game's page), or null if it does not. ``legal_sample``: when ``legal`` is null, 20 of them;
    else null. ``channels``: where you may talk now. ``deadline``: Unix time in seconds;
    ``time_limit``: seconds left when the turn was sent (the clock, and the time bank that
    is left); ``time_bank``: the part of ``time_limit`` that is the seat's time bank.
    """

    table: str
    version: Version
    seat: SeatNo
    view: dict[str, Any]
    legal: list[dict[str, Any]] | None
    legal_count: Annotated[
        int,
        Meta(
            ge=0,
            le=2**63 - 1,
            description=(
                "how many actions are legal: above 2^31 in Star Hi-Lo (about 2.3e10 by default), "
                "and above 2^53 only with a Star Hi-Lo max_number above 2^50 (a JavaScript client "
                "then reads it approximately; it is a count, never an index)"
            ),
        ),
    ]
    legal_description: dict[str, Any] | None
    legal_sample: list[dict[str, Any]] | None
    channels: list[str]
    deadline: float
    time_limit: float
    time_bank: float


class End(ServerMessage, tag="end", kw_only=True):
    """The game is over (and stored).

    ``finished`` with its outcome, or ``aborted`` (outcome null). The record is at
    ``/api/tables/ID/record``.
    """

    table: str
    version: Version
    status: Literal["finished", "aborted"]
    outcome: dict[str, Any] | None


class SeatMsg(ServerMessage, tag="seat", kw_only=True):
    """A tournament has seated your account at a table: ``join`` it to play.

    Pushed to every connection signed in as the account when the tournament opens the table
    (no request asks for it). ``GET /api/tournaments/{id}/seats`` lists the same seats.
    """

    tournament: str
    table: str
    seat: SeatNo
    match: Count


SERVER_MESSAGES: tuple[type[ServerMessage], ...] = (
    Welcome,
    Pong,
    Error,
    Games,
    Tables,
    TableMsg,
    Joined,
    Left,
    Resumed,
    ViewMsg,
    EventMsg,
    Turn,
    End,
    SeatMsg,
)

_encoder = msgspec.json.Encoder()


def encode(message: ServerMessage) -> bytes:
    """A server message as JSON bytes.

    A view's event log keeps its own encoding (:class:`~dennou.core.views.LogJSON`): a turn or
    view message of a long game copies it instead of encoding every event again.
    """
    if isinstance(message, (Turn, ViewMsg)) and message.view is not None:
        log = message.view.get("log")
        if isinstance(log, LogJSON):
            raw = log.encoded()
            if raw is not None:
                view = {**message.view, "log": msgspec.Raw(raw)}
                message = msgspec.structs.replace(message, view=view)
    return _encoder.encode(message)


def byte_size(raw: str | bytes) -> int:
    """The size of a message in UTF-8 bytes: what the limits count (not characters)."""
    if isinstance(raw, bytes):
        return len(raw)
    return len(raw.encode("utf-8", "surrogatepass"))


def decode_json(raw: str | bytes, *, max_bytes: int, max_depth: int) -> Any:
    """Parse one JSON message with the host's checks, in the order a client would want them.

    Raises:
        Refused: ``too_large`` (more than ``max_bytes`` bytes), ``malformed_json`` (not JSON,
            or nested deeper than ``max_depth``), ``bad_message`` (NaN, Infinity, numbers out of
            range, or strings that are not valid Unicode).
    """
    size = byte_size(raw)
    if size > max_bytes:
        raise Refused("too_large", f"a message has at most {max_bytes} bytes; this has {size}")
    try:
        data = msgspec.json.decode(raw)
    except RecursionError:
        raise Refused("malformed_json", f"JSON nested deeper than {max_depth} levels") from None
    except msgspec.ValidationError:
        raise Refused("bad_message", "a number is out of range (such as 1e400)") from None
    except msgspec.DecodeError as exc:
        # JSON that Python's parser takes but the protocol does not: NaN, Infinity, lone
        # surrogates in strings. Say so rather than "not JSON".
        try:
            json.loads(raw)
        except (ValueError, RecursionError):
            raise Refused("malformed_json", f"not JSON: {exc}") from None
        raise Refused(
            "bad_message", "NaN, Infinity and strings that are not valid Unicode are refused"
        ) from None
    if _brackets(raw) > max_depth and _depth(data, max_depth) > max_depth:
        raise Refused("malformed_json", f"JSON nested deeper than {max_depth} levels")
    return data


def _brackets(raw: str | bytes) -> int:
    if isinstance(raw, bytes):
        return raw.count(b"[") + raw.count(b"{")
    return raw.count("[") + raw.count("{")


def _depth(value: Any, limit: int) -> int:
    """Nesting depth of decoded JSON, counting no further than ``limit + 1``."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest


def decode_client(data: Any) -> ClientMessage:
    """A client message from decoded JSON.

    Raises:
        Refused: ``not_an_object``, ``unknown_type`` or ``bad_message``.
    """
    if not isinstance(data, dict):
        raise Refused("not_an_object", "a message is a JSON object with a 'type'")
    kind = data.get("type")
    cls = BY_TYPE.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise Refused(
            "unknown_type", f"unknown message type {kind!r}; types: {', '.join(sorted(BY_TYPE))}"
        )
    try:
        return msgspec.convert(data, cls)
    except msgspec.ValidationError as exc:
        raise Refused("bad_message", f"invalid {kind!r}: {exc}") from None


def schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schema of every message, by file name (``client.hello.json``...)."""
    out: dict[str, dict[str, Any]] = {}
    for side, classes in (("client", CLIENT_MESSAGES), ("server", SERVER_MESSAGES)):
        for cls in classes:
            tag = str(cls.__struct_config__.tag)
            schema = msgspec.json.schema(cls)
            schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
            schema["$id"] = f"{SCHEMA_BASE}/{PROTOCOL}/{side}.{tag}.json"
            schema["title"] = f"{side} message {tag!r}"
            out[f"{side}.{tag}.json"] = schema
    return out


def write_schemas(directory: str | Path) -> list[Path]:
    """Write :func:`schemas` as files into ``directory``."""
    path = Path(directory)
    path.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in schemas().items():
        target = path / name
        target.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        written.append(target)
    return written


if __name__ == "__main__":  # pragma: no cover - a maintenance script
    for p in write_schemas(sys.argv[1] if len(sys.argv) > 1 else "docs/schema"):
        print(p)
