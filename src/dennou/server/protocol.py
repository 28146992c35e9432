"""The wire protocol: JSON objects over one WebSocket, tagged by ``"type"``.

Every message is defined here as a msgspec struct, which both validates what clients send and
writes the JSON Schema files under ``docs/schema/`` (``python -m dennou.server.protocol DIR``).
See ``docs/protocol.md`` for the prose and a full example session.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Literal

import msgspec

PROTOCOL = 1
"""The protocol version; a client names it in ``hello``."""

MAX_MESSAGE = 16 * 1024
"""Largest client message accepted, in bytes (bigger: a ``too_large`` error)."""

MAX_TALK = 500
"""Longest talk line, in characters."""

Id = int | str | None


class ClientMessage(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, kw_only=True):
    """Base of what clients send: ``id`` is echoed in the reply."""

    id: Id = None


class Hello(ClientMessage, tag="hello", kw_only=True):
    """Authenticate (first message). No token: a guest who may only list and spectate."""

    protocol: int = PROTOCOL
    token: str | None = None


class Ping(ClientMessage, tag="ping", kw_only=True):
    """Keep-alive; answered by ``pong``."""


class ListGames(ClientMessage, tag="list_games", kw_only=True):
    """Ask for the games, their rules options and their bots."""


class ListTables(ClientMessage, tag="list_tables", kw_only=True):
    """Ask for tables, optionally of one game and/or status."""

    game: str | None = None
    status: Literal["waiting", "playing", "finished"] | None = None


class TableOptions(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Host options of a table (not rules of the game)."""

    time_limit: float | None = msgspec.field(default=None)
    """Seconds per decision when the rules have no ``time_limit`` of their own."""
    absent_grace: float = 5.0
    """Seconds an absent (disconnected) seat is waited for before its default is applied."""
    seed: int | None = None
    """Seed of the chance draws and built-in bots (default: random)."""


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
    seat: int | None = None
    version: int | None = None


class Spectate(ClientMessage, tag="spectate", kw_only=True):
    """Watch a table (spectator view only); ``version`` as for ``join``."""

    table: str
    version: int | None = None


class Leave(ClientMessage, tag="leave", kw_only=True):
    """Stop watching, or give up a seat before the game starts (after: you are absent)."""

    table: str


class Act(ClientMessage, tag="act", kw_only=True):
    """An action for your seat. ``version``: the table version of the ``turn`` you answer."""

    table: str
    action: Any
    version: int | None = None


class Talk(ClientMessage, tag="talk", kw_only=True):
    """Say a line in one of the game's channels."""

    table: str
    text: str
    channel: str = "public"


class Resume(ClientMessage, tag="resume", kw_only=True):
    """Events after ``version`` at a table you are attached to (or a fresh view)."""

    table: str
    version: int


class GetView(ClientMessage, tag="get_view", kw_only=True):
    """Your current view of a table you are attached to."""

    table: str


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
)
BY_TYPE: dict[str, type[ClientMessage]] = {str(c.__struct_config__.tag): c for c in CLIENT_MESSAGES}


# --- what the server sends ----------------------------------------------------------------
class ServerMessage(msgspec.Struct, tag_field="type", kw_only=True, omit_defaults=True):
    """Base of what the server sends; ``id`` echoes the request it answers."""

    id: Id = None


class Welcome(ServerMessage, tag="welcome", kw_only=True):
    """Answer to ``hello``: who you are (``account`` null for a guest)."""

    protocol: int = PROTOCOL
    server: str = "dennou"
    account: str | None = None


class Pong(ServerMessage, tag="pong", kw_only=True):
    """Answer to ``ping``."""


class Error(ServerMessage, tag="error", kw_only=True):
    """Something you sent was refused; nothing changed.

    ``code``: ``malformed_json``, ``not_an_object``, ``unknown_type``, ``bad_message``,
    ``too_large``, ``rate_limited``, ``hello_first``, ``unauthorized``, ``forbidden``,
    ``not_found``, ``conflict``, ``config``, ``invalid_action``, ``illegal_action``,
    ``not_your_turn``, ``game_over``, ``stale_version``, ``store``. ``error`` is the error class
    (``IllegalActionError``...), ``context`` what the engine said about the rule.
    """

    code: str
    message: str
    error: str = "ProtocolError"
    table: str | None = None
    context: dict[str, Any] = {}


class GameInfo(msgspec.Struct, kw_only=True):
    """A game the server hosts."""

    name: str
    title: str
    version: int
    min_players: int
    max_players: int
    rules: list[dict[str, Any]]
    bots: list[str]
    talk: bool
    hidden_information: bool


class Games(ServerMessage, tag="games", kw_only=True):
    """Answer to ``list_games``."""

    games: list[GameInfo]


class SeatInfo(msgspec.Struct, kw_only=True):
    """A seat: ``open``, held by an ``account``, or a built-in ``bot``."""

    seat: int
    kind: Literal["open", "player", "bot"]
    name: str | None = None
    connected: bool = False


class TableInfo(msgspec.Struct, kw_only=True):
    """A table as the lobby shows it."""

    id: str
    game: str
    status: Literal["waiting", "playing", "finished"]
    rules: dict[str, Any]
    seats: list[SeatInfo]
    version: int
    spectators: int = 0
    time_limit: float
    outcome: dict[str, Any] | None = None


class Tables(ServerMessage, tag="tables", kw_only=True):
    """Answer to ``list_tables``."""

    tables: list[TableInfo]


class TableMsg(ServerMessage, tag="table", kw_only=True):
    """A table was created or changed (seat taken, started...)."""

    table: TableInfo


class Joined(ServerMessage, tag="joined", kw_only=True):
    """You hold ``seat`` at ``table`` (spectators: ``seat`` is null)."""

    table: str
    seat: int | None


class Left(ServerMessage, tag="left", kw_only=True):
    """You are no longer attached to ``table``."""

    table: str


class ViewMsg(ServerMessage, tag="view", kw_only=True):
    """Your full view of a table at ``version`` (the source of truth)."""

    table: str
    version: int
    seat: int | None
    status: str
    view: dict[str, Any] | None
    to_act: list[int] = []
    channels: list[str] = []
    """The talk channels open to you now (as in ``turn``; spectators too)."""


class EventData(msgspec.Struct, kw_only=True):
    """One engine event (only events you may see reach you)."""

    kind: str
    text: str
    data: dict[str, Any] = {}


class EventMsg(ServerMessage, tag="event", kw_only=True):
    """A step was accepted and stored: the table is now at ``version``.

    ``step``: ``action``, ``chance``, ``default`` or ``talk``; ``seat``: who (null: a spectator
    talked); ``reason`` for defaults (``timeout``, ``absent``, ``error``).
    """

    table: str
    version: int
    step: Literal["action", "chance", "default", "talk"]
    seat: int | None
    events: list[EventData]
    reason: str | None = None


class Turn(ServerMessage, tag="turn", kw_only=True):
    """Your decision is due: your view, the legal actions and a deadline.

    ``legal``: every legal action, when there are at most a few hundred; otherwise ``null``, with
    ``legal_description`` (how to form them), ``legal_count`` and ``legal_sample`` (some of them).
    ``deadline``: Unix time in seconds; ``time_limit``: seconds from when the turn was sent.
    """

    table: str
    version: int
    seat: int
    view: dict[str, Any]
    legal: list[dict[str, Any]] | None
    legal_count: int
    legal_description: dict[str, Any] | None = None
    legal_sample: list[dict[str, Any]] | None = None
    channels: list[str] = []
    deadline: float
    time_limit: float


class End(ServerMessage, tag="end", kw_only=True):
    """The game is over (and stored): the outcome; the record is at ``/api/tables/ID/record``."""

    table: str
    version: int
    outcome: dict[str, Any]


SERVER_MESSAGES: tuple[type[ServerMessage], ...] = (
    Welcome,
    Pong,
    Error,
    Games,
    Tables,
    TableMsg,
    Joined,
    Left,
    ViewMsg,
    EventMsg,
    Turn,
    End,
)

_encoder = msgspec.json.Encoder()


def encode(message: ServerMessage) -> bytes:
    """A server message as JSON bytes."""
    return _encoder.encode(message)


def schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schema of every message, by file name (``client.hello.json``...)."""
    out: dict[str, dict[str, Any]] = {}
    for side, classes in (("client", CLIENT_MESSAGES), ("server", SERVER_MESSAGES)):
        for cls in classes:
            tag = str(cls.__struct_config__.tag)
            schema = msgspec.json.schema(cls)
            schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
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
