"""The Python SDK: play any :class:`~dennou.core.bot.Bot` on a dennou server over the WebSocket.

A remote bot sees exactly what a built-in one sees: its view, its legal actions and the events
its seat may see. ``run_bot`` takes a seat (at a given table, or the first open table of a game,
creating one if none is open), answers every ``turn``, and reconnects after a lost connection
(or a server restart), resuming from the last version it saw; the same seed makes the same
choices, so a game interrupted by a restart continues exactly as it would have.

Example::

    import asyncio
    from dennou.client import run_bot
    from dennou.core.bot import RandomBot

    result = asyncio.run(run_bot(RandomBot(), "ws://127.0.0.1:8000/ws", token, join="numeron"))
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from dennou.core.actions import Action, LazyActions
from dennou.core.bot import Bot, NoAnswer
from dennou.core.errors import DennouError, ProtocolError
from dennou.core.game import Event, Game
from dennou.core.registry import Registry
from dennou.core.rng import make_rng

__all__ = ["Client", "GameResult", "ServerError", "register", "run_bot"]


_decode = msgspec.json.Decoder().decode
_encode = msgspec.json.Encoder().encode
_STREAM = ("event", "turn", "view", "end", "table", "joined", "error", "seat")


class ServerError(DennouError):
    """The server refused a request; ``code`` is the protocol's error code."""

    def __init__(self, message: dict[str, Any]) -> None:
        super().__init__(str(message.get("message", "error")), code=message.get("code"))
        self.code = str(message.get("code", ""))
        self.data = message


class Client:
    """One WebSocket connection: requests with replies, and a stream of table messages.

    Use :meth:`open` (or ``async with Client.open(...)``).
    """

    def __init__(self, ws: ClientConnection, account: str | None) -> None:
        self.ws = ws
        self.account = account
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.messages: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, url: str, token: str | None = None, *, timeout: float = 10) -> Client:
        """Connect and say hello.

        Raises:
            ServerError: The token was refused.
        """
        ws = await asyncio.wait_for(connect(url, max_size=2**24, open_timeout=timeout), timeout)
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token, "id": 0}))
        reply = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if reply.get("type") != "welcome":
            await ws.close()
            raise ServerError(reply)
        return cls(ws, reply.get("account"))

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the connection."""
        await self.ws.close()
        self._reader.cancel()

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                msg = _decode(raw)
                rid = msg.get("id")
                future = self._waiting.pop(rid, None) if isinstance(rid, int) else None
                if future is not None and not future.done():
                    future.set_result(msg)
                kind = msg.get("type")
                # table messages go to the stream; a reply to a request goes there too when it is
                # also table news (an acknowledged step is an event like any other)
                if kind in _STREAM and (future is None or kind not in ("error", "joined", "table")):
                    self.messages.put_nowait(msg)
        except ConnectionClosed:
            pass
        finally:
            for future in self._waiting.values():
                if not future.done():
                    future.set_exception(ConnectionError("connection closed"))
            self.messages.put_nowait(None)

    async def send(self, message: dict[str, Any]) -> None:
        """Send a message without waiting for a reply."""
        await self.ws.send(_encode(message).decode())

    async def request(self, message: dict[str, Any], timeout: float = 30) -> dict[str, Any]:
        """Send a message with a fresh ``id`` and return the reply that echoes it.

        Raises:
            ServerError: The reply is an ``error``.
        """
        rid = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = future
        await self.send({**message, "id": rid})
        reply = await asyncio.wait_for(future, timeout)
        if reply.get("type") == "error":
            raise ServerError(reply)
        return reply

    async def list_tables(self, game: str | None = None, status: str | None = None) -> list[Any]:
        """Tables on the server."""
        reply = await self.request({"type": "list_tables", "game": game, "status": status})
        tables: list[Any] = reply["tables"]
        return tables

    async def create_table(
        self,
        game: str,
        seats: Sequence[str] | None = None,
        rules: dict[str, Any] | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        """Create a table (``seats``: ``open``, ``me``, ``bot:<spec>``); returns its info."""
        msg = {
            "type": "create_table",
            "game": game,
            "rules": rules or {},
            "seats": list(seats) if seats is not None else None,
            "options": options,
        }
        reply = await self.request(msg)
        table: dict[str, Any] = reply["table"]
        return table


async def register(http_url: str, name: str) -> str:
    """Register ``name`` on a server (``http://host:port``) and return the token."""
    import httpx

    async with httpx.AsyncClient() as http:
        reply = await http.post(f"{http_url.rstrip('/')}/api/accounts", json={"name": name})
        if reply.status_code != 201:
            raise ServerError(reply.json())
        token: str = reply.json()["token"]
        return token


@dataclass
class GameResult:
    """What a remote bot saw of one game."""

    table: str
    seat: int
    outcome: dict[str, Any]
    version: int
    messages: list[dict[str, Any]] = field(default_factory=list)
    reconnects: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)


async def run_bot(
    bot: Bot | Callable[[Game[Any, Any]], Bot],
    server: str | Sequence[str],
    token: str,
    *,
    table: str | None = None,
    join: str | None = None,
    rules: dict[str, Any] | None = None,
    seed: int | None = None,
    keep_messages: bool = False,
    reconnect_for: float = 60.0,
    on_message: Callable[[dict[str, Any]], None] | None = None,
    games: Registry | None = None,
) -> GameResult:
    """Play one game with ``bot`` at a table (``table``) or at any open table of ``join``.

    Args:
        bot: The bot, or a factory given the game (for bots built per game).
        server: The WebSocket URL (``ws://127.0.0.1:8000/ws``), or the URLs of a site's
            processes: after a lost connection, the next one is tried (as a load balancer would
            send it to another).
        token: The account's token.
        table: A table id to join (or return to).
        join: A game name: the first waiting table of it with an open seat, else a new table
            with every seat open (others join it).
        rules: Rules options for a table this call creates.
        seed: Seeds the bot's choices: its stream for each decision is ``(seed, seat, version)``.
        keep_messages: Keep every message received (tests use it).
        reconnect_for: Keep trying to reconnect for this many seconds after a lost connection.
        on_message: Called with every table message.
        games: Where to find the game's engine (default: ``dennou.games.REGISTRY``).

    Returns:
        The outcome and what was seen.
    """
    if table is None and join is None:
        raise ProtocolError("give a table id or a game to join")
    if games is None:
        from dennou.games import REGISTRY

        games = REGISTRY
    seed = seed if seed is not None else random.randrange(2**32)
    state = _Play(bot, seed, keep_messages, on_message, games)
    try:
        return await _play_on(state, server, token, table, join, rules, reconnect_for)
    finally:
        state.finish(None)  # stopped or failed before the end: the bot lets go of what it holds


async def _play_on(
    state: _Play,
    server: str | Sequence[str],
    token: str,
    table: str | None,
    join: str | None,
    rules: dict[str, Any] | None,
    reconnect_for: float,
) -> GameResult:
    """Play until the end, reconnecting after a lost connection (see :func:`run_bot`)."""
    lost_at: float | None = None
    servers = [server] if isinstance(server, str) else list(server)
    tries = 0
    while True:
        server = servers[tries % len(servers)]
        tries += 1
        try:
            client = await Client.open(server, token)
        except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed) as exc:
            if lost_at is None:
                raise ConnectionError(f"cannot connect to {server}: {exc}") from exc
            if time.monotonic() - lost_at > reconnect_for:
                raise ConnectionError(f"lost {server} for {reconnect_for:g} s") from exc
            await asyncio.sleep(0.2)
            continue
        try:
            if table is None:
                assert join is not None
                table = await _find_table(client, join, rules)
            reply = await client.request({"type": "join", "table": table, "version": state.version})
            state.seat = reply["seat"]
            result = await state.play(client, table)
            if result is not None:
                result.reconnects = state.reconnects
                return result
        except (ConnectionError, ConnectionClosed):
            pass
        except asyncio.CancelledError:
            # Stopped (Ctrl-C) before the game began: give the seat back rather than leave
            # the others waiting for a player who is gone.
            if table is not None and not state.started:
                with contextlib.suppress(Exception):
                    await client.request({"type": "leave", "table": table}, timeout=2)
            raise
        finally:
            await client.close()
        state.reconnects += 1
        lost_at = time.monotonic()


async def _find_table(client: Client, game: str, rules: dict[str, Any] | None) -> str:
    for info in await client.list_tables(game, "waiting"):
        if any(s["kind"] == "open" for s in info["seats"]):
            table_id: str = info["id"]
            return table_id
    created = await client.create_table(game, rules=rules)
    table_id = created["id"]
    return table_id


def _speaker(
    client: Client, table: str, loop: asyncio.AbstractEventLoop
) -> Callable[[str, str], str | None]:
    """``Bot.say`` over the wire, for a bot deciding on a thread: the line is sent at once."""

    def say(channel: str, text: str) -> str | None:
        message = {"type": "talk", "table": table, "channel": channel, "text": text}
        try:
            asyncio.run_coroutine_threadsafe(client.send(message), loop).result(timeout=10)
        except Exception as exc:  # the bot gets the reason, as the arena's say gives it
            return f"not sent: {type(exc).__name__}: {exc}"
        return None

    return say


def _game_started(msg: dict[str, Any]) -> bool:
    """Whether a table message shows that its game has begun."""
    kind = msg.get("type")
    if kind in ("turn", "event", "end"):
        return True
    if kind == "view":
        return msg.get("status") not in (None, "waiting")
    if kind == "table" and isinstance(msg.get("table"), dict):
        return msg["table"].get("status") not in (None, "waiting")
    return False


class _Play:
    """The state of one remote game across reconnections."""

    def __init__(
        self,
        bot: Bot | Callable[[Game[Any, Any]], Bot],
        seed: int,
        keep: bool,
        on_message: Callable[[dict[str, Any]], None] | None,
        registry: Registry,
    ) -> None:
        self.factory = bot
        self.bot: Bot | None = bot if isinstance(bot, Bot) else None
        self.seed = seed
        self.keep = keep
        self.on_message = on_message
        self.registry = registry
        self.game: Game[Any, Any] | None = None
        self.seat: int | None = None
        self.version: int | None = None
        self.messages: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.reconnects = 0
        self.answered: set[int] = set()
        self.started = False
        """Whether the game has begun (a seat given up before then is released)."""
        self.ended = False

    def finish(self, outcome: dict[str, Any] | None) -> None:
        """Tell the bot its game is over (once; ``None``: stopped before its end)."""
        if self.bot is not None and self.game is not None and not self.ended:
            self.ended = True
            self.bot.end(outcome)

    def _setup(self, view: dict[str, Any]) -> None:
        if self.game is not None:
            return
        self.game = self.registry.get_game(view["game"])
        if self.bot is None:
            assert not isinstance(self.factory, Bot)
            self.bot = self.factory(self.game)
        assert self.seat is not None
        rules = self.game.make_rules(view["rules"])
        self.bot.reset(seat=self.seat, rules=rules, players=view["players"])

    async def play(self, client: Client, table: str) -> GameResult | None:
        while True:
            msg = await client.messages.get()
            if msg is None:
                return None
            about = msg.get("table")
            if isinstance(about, dict):  # a ``table`` message carries the table's info
                about = about.get("id")
            if about not in (None, table):
                continue
            if _game_started(msg):
                self.started = True
            if self.keep:
                self.messages.append(msg)
            if self.on_message is not None:
                self.on_message(msg)
            kind = msg["type"]
            if kind == "view":
                self.version = msg["version"]
                if msg["view"] is not None:
                    self._setup(msg["view"])
            elif kind == "event":
                self.version = msg["version"]
                if self.bot is not None and self.game is not None:
                    events = [Event(e["kind"], e["text"], e.get("data", {})) for e in msg["events"]]
                    if events:
                        self.bot.observe(events)
            elif kind == "turn":
                await self._turn(client, table, msg)
            elif kind == "end":
                assert self.seat is not None
                self.finish(msg.get("outcome"))
                return GameResult(
                    table,
                    self.seat,
                    msg["outcome"],
                    msg["version"],
                    self.messages,
                    errors=self.errors,
                )
            elif kind == "error" and msg.get("code") != "stale_version":
                self.errors.append(msg)

    async def _turn(self, client: Client, table: str, msg: dict[str, Any]) -> None:
        self._setup(msg["view"])
        assert self.game is not None and self.bot is not None
        seat, view, version = msg["seat"], msg["view"], msg["version"]
        rng = make_rng(self.seed, seat, version)
        legal: Sequence[Action]
        if msg.get("legal") is not None:
            listed = [self.game.parse_action(a) for a in msg["legal"]]
            legal = listed
            if msg.get("legal_description"):
                # keep the game's description with the list, as the arena's bots get it
                legal = LazyActions(
                    len(listed), listed.__getitem__, listed.__contains__, msg["legal_description"]
                )
        else:
            # Too many to list: the legal actions follow from the view alone (the contract's
            # leak property), so any determinization of the view has the same ones.
            state = self.game.determinize(view, seat, make_rng(self.seed, "legal", version))
            legal = self.game.legal_actions(state, seat)
        channels = frozenset(msg.get("channels", ()))
        if channels:
            for channel, text in self.bot.chat(view, channels, rng):
                await client.send(
                    {"type": "talk", "table": table, "channel": channel, "text": text}
                )
        bot = self.bot
        left = msg.get("time_limit")
        bot.deadline = time.monotonic() + left if isinstance(left, int | float) else None
        bot.say = _speaker(client, table, asyncio.get_running_loop())
        try:
            action = await asyncio.to_thread(bot.act, view, legal, rng)
        except NoAnswer as exc:
            # nothing is sent: the host applies the rules' default when the clock runs out
            self.errors.append({"type": "no_answer", "version": version, "message": exc.message})
            return
        finally:
            bot.deadline = None
            bot.say = None
        await client.send(
            {
                "type": "act",
                "table": table,
                "action": self.game.dump_action(action),
                "version": version,
            }
        )
