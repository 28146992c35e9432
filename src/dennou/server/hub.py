"""The hub: accounts, the lobby, the table actors, and one connection per WebSocket client.

The hub routes each client message to the lobby or to a table's actor. It parses and checks
messages (size, JSON, type, fields, rate) before anything reaches a table, so that garbage
never changes a table; every refusal is an ``error`` message naming what was wrong, and a
client that keeps sending garbage is closed with 1008 (policy violation).
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import sys
import time
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

import msgspec

from dennou.arena.bots import available_bots, make_bot
from dennou.core.errors import ConfigError, DennouError, StoreError
from dennou.core.game import Game, rules_options
from dennou.core.jsondata import to_json
from dennou.core.registry import Registry
from dennou.server import protocol as p
from dennou.server.table import Refused, TableActor, error_code
from dennou.store import AsyncStore, TableRow

NAME = re.compile(r"^[A-Za-z0-9_.\-]{1,32}$")
"""Account names: letters, digits, ``_ . -``; 1-32 characters."""

STRIKES_TO_CLOSE = 10
"""Protocol errors in a row after which a connection is closed with 1008."""


class Conn:
    """One client connection: who it is, where it sits, and an outgoing queue.

    Sending never blocks a table: messages go to a bounded queue that a writer task drains;
    a client too slow to keep up is disconnected.

    Args:
        send_bytes: Sends one text frame (the WebSocket's).
        close: Closes the socket with a code and reason.
        rate: Messages per second allowed on average.
        burst: Messages allowed at once.
    """

    QUEUE = 4096

    def __init__(
        self,
        send_bytes: Callable[[bytes], Coroutine[Any, Any, None]],
        close: Callable[[int, str], Coroutine[Any, Any, None]],
        *,
        rate: float = 50.0,
        burst: float = 100.0,
    ) -> None:
        self.account: str | None = None
        self.session_account: str | None = None
        """The browser session's account (cookie at the handshake); a tokenless hello uses it."""
        self.hello = False
        self.tables: dict[str, TableActor] = {}
        self._send_bytes = send_bytes
        self._close = close
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue(self.QUEUE)
        self._writer = asyncio.create_task(self._write())
        self.rate, self.burst = rate, burst
        self._allowance, self._last = burst, time.monotonic()
        self.strikes = 0
        self.closed = False
        self._closing: asyncio.Task[None] | None = None

    def send(self, message: p.ServerMessage) -> None:
        """Queue a message."""
        self.send_raw(p.encode(message))

    def send_raw(self, data: bytes) -> None:
        """Queue an encoded message (disconnects a client whose queue is full)."""
        if self.closed:
            return
        try:
            self._queue.put_nowait(data)
        except asyncio.QueueFull:
            self.closed = True
            self._closing = asyncio.create_task(self._close(1008, "too slow: outgoing queue full"))

    def allow(self) -> bool:
        """Token bucket: whether one more message is within the rate limit."""
        now = time.monotonic()
        self._allowance = min(self.burst, self._allowance + (now - self._last) * self.rate)
        self._last = now
        if self._allowance < 1:
            return False
        self._allowance -= 1
        return True

    async def _write(self) -> None:
        while True:
            data = await self._queue.get()
            if data is None:
                return
            try:
                await self._send_bytes(data)
            except Exception:
                self.closed = True
                return

    async def close(self, code: int, reason: str) -> None:
        """Close the socket."""
        self.closed = True
        await self._close(code, reason)

    async def drain(self) -> None:
        """Wait until queued messages are written, then stop the writer."""
        if not self._writer.done():
            try:
                self._queue.put_nowait(None)
            except asyncio.QueueFull:
                self._writer.cancel()
            try:
                await asyncio.wait_for(self._writer, 5)
            except (TimeoutError, asyncio.CancelledError):
                self._writer.cancel()


class Hub:
    """Accounts, lobby and tables of one server process.

    Args:
        store: The store.
        games: The games to host (default: the whole registry).
        rate: Per-connection messages per second.
        burst: Per-connection burst.
    """

    def __init__(
        self,
        store: AsyncStore,
        games: Registry | None = None,
        *,
        rate: float = 50.0,
        burst: float = 100.0,
        quiet: bool = False,
    ) -> None:
        if games is None:
            from dennou.games import REGISTRY

            games = REGISTRY
        self.store = store
        self.games = games
        self.rate, self.burst = rate, burst
        self.tables: dict[str, TableActor] = {}
        self.recent: deque[p.TableInfo] = deque(maxlen=50)
        self._tokens: dict[str, str] = {}
        self.quiet = quiet
        self.started = time.time()
        self.connections = 0
        """Open WebSocket connections."""
        self.keep_finished = 600.0
        """Seconds a finished table's actor stays in memory."""

    def log(self, text: str) -> None:
        """Note something on stderr."""
        if not self.quiet:
            print(f"dennou: {text}", file=sys.stderr, flush=True)

    # --- lifecycle --------------------------------------------------------------------------
    async def start(self) -> None:
        """Reload every unfinished table from the store and start its actor."""
        store = self.store.store
        rows = await self.store.call(store.tables, ["waiting", "playing"], 100_000)
        for row in rows:
            try:
                game = self.games[row.game]
                steps = await self.store.call(store.steps, row.id)
                actor = TableActor(self, row, game, steps)
            except Exception as exc:  # one broken table must not keep the others down
                self.log(f"cannot resume table {row.id}: {exc!r}")
                continue
            self.tables[row.id] = actor
            actor.start()
        for row in await self.store.call(store.tables, ["finished"], 50):
            try:
                self.recent.append(TableActor(self, row, self.games[row.game]).info())
            except Exception as exc:  # a game no longer hosted, or another engine version
                self.log(f"not listing table {row.id}: {exc!r}")
        if rows:
            self.log(f"resumed {len(self.tables)} tables")

    async def stop(self) -> None:
        """Stop every actor."""
        for actor in list(self.tables.values()):
            await actor.stop()

    def finished(self, actor: TableActor) -> None:
        """A table finished: remember it for the status page; drop its actor later."""
        self.recent.appendleft(actor.info())
        asyncio.get_running_loop().call_later(self.keep_finished, self._evict, actor)

    def _evict(self, actor: TableActor) -> None:
        # A finished table lives on in the store; a later request reloads it on demand.
        if self.tables.get(actor.id) is actor and actor.status == "finished":
            del self.tables[actor.id]
            for conn in list(actor.conns):
                conn.tables.pop(actor.id, None)
            if actor.task is not None:
                actor.task.cancel()

    # --- accounts ---------------------------------------------------------------------------
    async def register(self, name: str) -> str:
        """Create an account and return its token.

        Raises:
            Refused: A bad or taken name.
        """
        if not NAME.match(name):
            raise Refused("bad_message", "a name has 1-32 letters, digits, '_', '.' or '-'")
        try:
            return await self.store.call(self.store.store.create_account, name)
        except StoreError as exc:
            raise Refused("conflict", exc.message) from None

    async def authenticate(self, token: str) -> str | None:
        """The account of a token, or ``None``."""
        if token in self._tokens:
            return self._tokens[token]
        name = await self.store.call(self.store.store.account_for_token, token)
        if name is not None:
            self._tokens[token] = name
        return name

    # --- lobby ------------------------------------------------------------------------------
    def game(self, name: str) -> Game[Any, Any]:
        """A hosted game by name (``not_found`` otherwise)."""
        if name not in self.games:
            raise Refused("not_found", f"no game {name!r}; games: {', '.join(self.games)}")
        return self.games[name]

    def games_info(self) -> list[p.GameInfo]:
        """Every hosted game, its rules options and bots."""
        out = []
        for name in self.games:
            game = self.games[name]
            spec = game.spec
            out.append(
                p.GameInfo(
                    name=name,
                    title=spec.title,
                    version=spec.version,
                    min_players=spec.min_players,
                    max_players=spec.max_players,
                    rules=[
                        {"name": n, "type": t, "default": to_json(d), "description": desc}
                        for n, t, d, desc in rules_options(game.rules_type)
                    ],
                    bots=sorted(available_bots(game)),
                    talk=spec.talk,
                    hidden_information=spec.hidden_information,
                )
            )
        return out

    async def create_table(
        self,
        account: str | None,
        game_name: str,
        rules: dict[str, Any],
        seats: list[str] | None,
        options: p.TableOptions,
    ) -> tuple[TableActor, int | None]:
        """Create a table; returns it and the seat the creator takes (``me``), if any."""
        if account is None:
            raise Refused("unauthorized", "log in with a token to create a table")
        game = self.game(game_name)
        made = game.make_rules(rules)
        seats = seats if seats is not None else ["open"] * game.spec.min_players
        if not game.spec.min_players <= len(seats) <= game.spec.max_players:
            lo, hi = game.spec.min_players, game.spec.max_players
            raise ConfigError(f"{game_name} takes {lo}-{hi} seats, got {len(seats)}")
        specs: list[dict[str, Any]] = []
        mine = None
        for i, seat in enumerate(seats):
            if seat == "open":
                specs.append({"kind": "open"})
            elif seat == "me":
                if mine is not None:
                    raise ConfigError("'me' may fill one seat only")
                mine = i
                specs.append({"kind": "open"})
            elif seat.startswith("bot:"):
                make_bot(game, seat[4:])  # refuses unknown bots and options now
                specs.append({"kind": "bot", "bot": seat[4:]})
            else:
                raise ConfigError(f"seat {i}: {seat!r}; a seat is 'open', 'me' or 'bot:<name>'")
        if options.absent_grace < 0 or (options.time_limit is not None and options.time_limit <= 0):
            raise ConfigError("time_limit must be > 0 and absent_grace >= 0")
        row = TableRow(
            id="t" + secrets.token_hex(5),
            game=game_name,
            version=game.spec.version,
            rules=to_json(made),
            seats=specs,
            options=to_json(options),
            players=None,
            status="waiting",
            seed=options.seed if options.seed is not None else secrets.randbits(48),
            created_by=account,
            created_at=time.time(),
        )
        await self.store.call(self.store.store.create_table, row)
        actor = TableActor(self, row, game)
        self.tables[row.id] = actor
        actor.start()
        return actor, mine

    async def actor(self, table_id: str) -> TableActor:
        """A table's actor (finished tables are loaded from the store on demand)."""
        if table_id in self.tables:
            return self.tables[table_id]
        row = await self.store.call(self.store.store.get_table, table_id)
        if row is None or row.game not in self.games:
            raise Refused("not_found", f"no table {table_id!r}")
        steps = await self.store.call(self.store.store.steps, table_id)
        if table_id in self.tables:  # loaded by another request meanwhile
            return self.tables[table_id]
        actor = TableActor(self, row, self.games[row.game], steps)
        self.tables[table_id] = actor
        actor.start()
        if actor.status == "finished":
            asyncio.get_running_loop().call_later(self.keep_finished, self._evict, actor)
        return actor

    def table_infos(self, game: str | None = None, status: str | None = None) -> list[p.TableInfo]:
        """Tables in memory (every unfinished one, finished ones seen lately)."""
        out = [a.info() for a in self.tables.values()]
        return [
            t
            for t in out
            if (game is None or t.game == game) and (status is None or t.status == status)
        ]

    # --- messages ---------------------------------------------------------------------------
    async def handle(self, conn: Conn, raw: str | bytes) -> None:
        """Handle one client message (errors are answered, never raised)."""
        rid: p.Id = None
        table: str | None = None
        try:
            if not conn.allow():
                raise Refused("rate_limited", f"more than {conn.rate:g} messages per second")
            if len(raw) > p.MAX_MESSAGE:
                raise Refused("too_large", f"a message has at most {p.MAX_MESSAGE} bytes")
            try:
                data = json.loads(raw)
            except (ValueError, UnicodeDecodeError) as exc:
                raise Refused("malformed_json", f"not JSON: {exc}") from None
            if not isinstance(data, dict):
                raise Refused("not_an_object", "a message is a JSON object with a 'type'")
            rid = data.get("id") if isinstance(data.get("id"), int | str) else None
            table = data.get("table") if isinstance(data.get("table"), str) else None
            kind = data.get("type")
            cls = p.BY_TYPE.get(kind) if isinstance(kind, str) else None
            if cls is None:
                raise Refused(
                    "unknown_type",
                    f"unknown message type {kind!r}; types: {', '.join(sorted(p.BY_TYPE))}",
                )
            try:
                msg = msgspec.convert(data, cls)
            except msgspec.ValidationError as exc:
                raise Refused("bad_message", f"invalid {kind!r}: {exc}") from None
            if not conn.hello and not isinstance(msg, p.Hello):
                raise Refused("hello_first", "send hello first")
            conn.strikes = 0
            try:
                await self._dispatch(conn, msg)
            except DennouError:
                raise
            except Exception as exc:  # a bug: tell the client, keep the connection and tables
                self.log(f"internal error on {data.get('type')}: {exc!r}")
                raise Refused("internal", f"internal error: {type(exc).__name__}") from exc
        except DennouError as exc:
            code = error_code(exc)
            context = {k: v for k, v in exc.to_json().items() if k not in ("error", "message")}
            conn.send(
                p.Error(
                    id=rid,
                    code=code,
                    message=exc.message,
                    error=type(exc).__name__ if not isinstance(exc, Refused) else "ProtocolError",
                    table=table,
                    context=to_json(context),
                )
            )
            if code in _STRIKES:
                conn.strikes += 1
                if conn.strikes >= STRIKES_TO_CLOSE:
                    await conn.drain()
                    await conn.close(1008, f"{conn.strikes} bad messages in a row")

    async def _dispatch(self, conn: Conn, msg: p.ClientMessage) -> None:
        rid = msg.id
        if isinstance(msg, p.Hello):
            if msg.protocol != p.PROTOCOL:
                raise Refused("bad_message", f"this server speaks protocol {p.PROTOCOL}")
            if msg.token is not None:
                account = await self.authenticate(msg.token)
                if account is None:
                    raise Refused("unauthorized", "unknown token")
                conn.account = account
            elif conn.session_account is not None:
                conn.account = conn.session_account
            conn.hello = True
            conn.send(p.Welcome(id=rid, account=conn.account))
        elif isinstance(msg, p.Ping):
            conn.send(p.Pong(id=rid))
        elif isinstance(msg, p.ListGames):
            conn.send(p.Games(id=rid, games=self.games_info()))
        elif isinstance(msg, p.ListTables):
            conn.send(p.Tables(id=rid, tables=self.table_infos(msg.game, msg.status)))
        elif isinstance(msg, p.CreateTable):
            actor, mine = await self.create_table(
                conn.account, msg.game, msg.rules, msg.seats, msg.options
            )
            conn.send(p.TableMsg(id=rid, table=actor.info()))
            if mine is not None:
                await actor.call(actor.join, conn, mine, None, None)
        elif isinstance(msg, p.Join):
            actor = await self.actor(msg.table)
            await actor.call(actor.join, conn, msg.seat, msg.version, rid)
        elif isinstance(msg, p.Spectate):
            actor = await self.actor(msg.table)
            await actor.call(actor.spectate, conn, msg.version, rid)
        elif isinstance(msg, p.Leave):
            actor = self._attached(conn, msg.table)
            await actor.call(actor.leave, conn, rid)
        elif isinstance(msg, p.Act):
            actor = self._attached(conn, msg.table)
            await actor.call(actor.act, conn, msg.action, msg.version, rid)
        elif isinstance(msg, p.Talk):
            actor = self._attached(conn, msg.table)
            await actor.call(actor.talk, conn, msg.channel, msg.text, rid)
        elif isinstance(msg, p.Resume):
            actor = self._attached(conn, msg.table)
            await actor.call(actor.resume, conn, msg.version, rid)
        elif isinstance(msg, p.GetView):
            actor = self._attached(conn, msg.table)
            await actor.call(actor.get_view, conn, rid)

    def _attached(self, conn: Conn, table: str) -> TableActor:
        actor = conn.tables.get(table)
        if actor is None:
            if table in self.tables:
                raise Refused("forbidden", f"you are not at table {table}; join or spectate")
            raise Refused("not_found", f"no table {table!r} (or you are not at it)")
        return actor

    async def disconnected(self, conn: Conn) -> None:
        """A connection closed: detach it from its tables."""
        conn.closed = True
        for actor in list(conn.tables.values()):
            try:
                await actor.call(actor.detach, conn)
            except Exception as exc:  # pragma: no cover - the actor is stopping
                self.log(f"detach from {actor.id}: {exc!r}")


_STRIKES = {
    "malformed_json",
    "not_an_object",
    "unknown_type",
    "bad_message",
    "too_large",
    "rate_limited",
    "hello_first",
}

__all__ = ["Conn", "Hub"]
