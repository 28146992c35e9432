"""One actor per table: it alone owns the table's state and applies every change in order.

Everything that touches a table (a seat taken, an action, talk, a timeout, a bot's answer, a
connection lost) goes through the actor's inbox and runs one at a time. An accepted step is
appended to the store and only then applied to the in-memory state and broadcast: what a client
has seen is durable. The version of a table is the number of steps in its record.

Decisions: every seat due to act has a :class:`Pending` decision: the version and state it began
in, and its deadline. A remote seat gets a ``turn`` (view, legal actions, deadline); a built-in
bot's seat thinks in a worker process (:mod:`dennou.server.bots`) while the actor stays free, and
its answer comes back through the inbox. A seat with no connection is absent: once it has been
away for the table's ``absent_grace`` its decisions default as they come, until it returns.
After a restart, deadlines start afresh and every remote seat counts as away from the moment
the table was reloaded (so each has ``absent_grace`` to reconnect).

Engine work (a step, a chance draw, a view, a turn) runs where its measured cost says
(:class:`dennou.server.work.Work`): on the loop when cheap, else on a thread or in a process, so
that one table's expensive steps never stall the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from dennou.arena.bots import check_table_fits, resolve_bot
from dennou.core.actions import Action
from dennou.core.errors import (
    ConfigError,
    GameError,
    GameOverError,
    NotYourTurnError,
    StoreError,
)
from dennou.core.game import CHANCE, HOST_ACCOUNTS, Event, Game, Outcome, TalkLine
from dennou.core.jsondata import to_json
from dennou.core.record import Step, apply_step
from dennou.core.rng import derive_seed, make_rng
from dennou.core.talk import SPECTATORS, is_spectator_talk
from dennou.server import protocol as p
from dennou.server import work
from dennou.server.accounts import Accounts
from dennou.server.bots import BotPool
from dennou.server.botworker import BotSpec
from dennou.server.bucket import TokenBucket
from dennou.server.connection import Connection
from dennou.server.errors import Refused
from dennou.server.limits import Limits
from dennou.server.text import clean_talk
from dennou.store import AsyncStore, TableRow

T = TypeVar("T")

MAX_RESUME = 2000
"""A client that missed more events than this gets a fresh view instead."""

GAME_ENDS = frozenset({"game_end", "game_over"})
"""Event kinds that end one game of a set or series (Daifugo's, Star Hi-Lo's): the next deal
waits ``deal_pause`` while people watch."""

STORE_RETRY_FIRST = 0.1
"""Seconds before a table first tries again a write the store refused (then twice as long)."""

STORE_RETRY_MAX = 2.0
"""The longest wait between a table's tries while the store fails."""


@dataclass
class Pending:
    """A decision a seat owes.

    Attributes:
        seat: The seat.
        version: The table version the decision began at (an ``act`` answers it).
        state: The state it began in: a turn asks the question the decision began with (in a
            sealed step, others' later submissions do not change it).
        due_at: Wall-clock time the seat was told (its turn sent), or began to be due.
        deadline: Wall-clock time it defaults (built-in bots, and remote seats not told yet:
            infinity; a bot's worker enforces its clock).
        task: A built-in bot's thinking.
        announced: Whether the remote seat has been told (sent its ``turn``). Built-in bots at
            the same step decide first, as they always have: the order of a sealed step's
            submissions, and so the record, does not depend on who is faster.
    """

    seat: int
    version: int
    state: Any
    due_at: float
    deadline: float
    task: asyncio.Task[None] | None = None
    announced: bool = False
    said: int = 0
    """A bot's talk lines stored (an answer tried again after a store failure says the rest)."""

    def cancel(self) -> None:
        """Stop a bot's thinking (its answer, if any, is not wanted any more)."""
        if self.task is not None and not self.task.done():
            self.task.cancel()


@dataclass
class LogEntry:
    """An accepted step as broadcast: its version, kind, seat, reason and events."""

    version: int
    step: str
    seat: int | None
    reason: str | None
    events: list[Event]


class TableRandomness:
    """Where a table's chance draws and its built-in bots' choices come from.

    Without a seed (every table a client may be seated at against others), each chance draw
    and each bot decision gets 256 bits of fresh randomness from the operating system: nobody,
    the table's creator included, can influence or predict a deal. With a seed (a practice
    table, the operator's or a tournament's), the ``k``-th chance draw comes from the stream
    ``(seed, "chance", k)``, so tables with the same seed deal the same cards whatever happened
    between deals (duplicate deals), and a bot's decision at version ``v`` from
    ``(seed, "bot", seat, v)``. Records never need either: chance draws are steps.

    An operator comparing the host with another server may also fix the chance actions
    themselves (``script``: ``dennou uecda-serve --deals``); no client can.

    Args:
        seed: The table's seed, or ``None``.
        script: Given the state and the draw's number, the chance action to take, or ``None``
            to draw as above.
    """

    def __init__(
        self,
        seed: int | None,
        script: Callable[[Any, int], Action | None] | None = None,
    ) -> None:
        self.seed = seed
        self.script = script

    def scripted(self, state: Any, draw: int) -> Action | None:
        """The operator's chance action for the ``draw``-th draw, if it fixed one."""
        return None if self.script is None else self.script(state, draw)

    def chance(self, draw: int) -> random.Random:
        """The generator of the table's ``draw``-th chance draw (0 first)."""
        if self.seed is None:
            return random.Random(secrets.randbits(256))
        return make_rng(self.seed, "chance", draw)

    def bot(self, seat: int, version: int) -> int:
        """The seed of a bot's decision at ``version``."""
        if self.seed is None:
            return secrets.randbits(256)
        return derive_seed(self.seed, "bot", seat, version)


def forfeit_outcome(players: int, losers: set[int], how: str, by: int) -> Outcome:
    """The outcome of a game the host ended: ``losers`` lose, everyone else shares the win."""
    scores = [0.0 if seat in losers else 1.0 for seat in range(players)]
    return Outcome.from_scores(scores, detail={"end": how, "by": by, "losers": sorted(losers)})


class Host(Protocol):
    """What a table asks of the hub that holds it (:class:`~dennou.server.hub.Hub`).

    The hub imports the tables' module, so a table names only this much of it.
    """

    store: AsyncStore
    limits: Limits
    accounts: Accounts
    bots: BotPool
    work: work.Work

    def log(self, text: str) -> None:
        """Note something on the host's log."""

    def finished(self, actor: TableActor) -> None:
        """A table is over: the hub remembers it and drops its actor later."""

    def talk_allowed(self, account: str) -> bool:
        """Whether ``account`` may say one more line now."""

    def withheld(self, table_id: str) -> str | None:
        """Why nobody but a table's own players may see its deals yet (``None``: they may)."""

    def game_clock(self, game: Game[Any, Any]) -> float:
        """The game's clock when a table sets none."""

    def check_model_seats(self, account: str, seats: list[dict[str, Any]]) -> None:
        """Refuse ``seats`` if their model seats would pass the account's quota."""


class TableActor:
    """The actor of one table.

    Args:
        hub: The hub (store, lobby, bots, limits).
        row: The table as stored.
        game: Its game.
        steps: Its stored steps (for a table that had started before a restart).
    """

    def __init__(
        self, hub: Host, row: TableRow, game: Game[Any, Any], steps: Sequence[Step] = ()
    ) -> None:
        self.hub = hub
        self.id = row.id
        self.row = row
        self.game = game
        self.rules = game.make_rules(row.rules)
        self.status = row.status
        self.randomness = TableRandomness(row.seed)
        self.clock = float(row.options.get("time_limit") or hub.game_clock(game))
        self.grace = float(row.options.get("absent_grace") or hub.limits.absent_grace_default)
        self.bank = float(row.options.get("time_bank") or 0.0)
        self.banks: dict[int, float] = {}
        """Seconds of each seat's time bank left (a seat not here has all of it). A decision
        that runs past the clock draws on it; one that defaults on time spends all of it. Held
        in memory: after a restart each seat has its whole bank again, as each pending decision
        has a fresh clock."""
        self.practice = bool(row.options.get("practice"))
        self.claim_grace = max(
            self.grace,
            hub.limits.claim_grace_min,
            hub.limits.claim_grace_clocks * self.clock,
        )
        """Seconds every other player must have been away before a ``claim``: at least the
        absent grace and the host's floor, and a multiple of the clock, so that a long clock
        (a long think, a slow reconnection) is never claimed within a second or two."""
        self.counted = not self.practice and bool(
            row.options.get("rated") or row.options.get("tournament")
        )
        """Whether the game enters its players' results and history: a table created
        ``rated`` or a tournament's, never a practice table (its creator chose the deals)."""
        self.muted: list[str] = [str(a) for a in row.options.get("muted") or ()]
        """Accounts whose talk the table's owner or an operator muted here (kept in options)."""
        self.account = row.created_by or f"table:{row.id}"
        """Whose share of the bot workers and engine processes the table uses: its owner (a
        tournament's owner, the UECda port's own account)."""
        self.state: Any = None
        self.version = 0
        self._last_step_at = 0.0
        self._last_game_end = False
        """When the last step (not talk) was taken, and whether it ended a game of a set or a
        series: chance steps are paced from it while people watch (:meth:`_chance_due`)."""
        self.chance_draws = 0
        self.moved = False
        """Whether a seat has acted (or been defaulted): after that, ``abort`` is refused, as it
        is after the first chance draw (``chance_draws``)."""
        self.log: list[LogEntry] = []
        self.conns: dict[Connection, int | None] = {}
        self.bots: dict[int, BotSpec] = {}
        self.pending: dict[int, Pending] = {}
        self.away_since: dict[int, float] = {}
        self.outcome: dict[str, Any] | None = row.outcome
        self.inbox: asyncio.Queue[
            tuple[Callable[..., Awaitable[Any]], tuple[Any, ...], asyncio.Future[Any] | None]
        ] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.actions = 0
        self.idle_since: float | None = time.time()
        """Since when nobody has been connected (``None``: someone is)."""
        self.talk_bucket = TokenBucket(hub.limits.talk_rate_table, hub.limits.talk_burst_table)
        self._store_down: float | None = None
        """Since when the store has refused this table's writes (``None``: it takes them)."""
        self._paused_at = 0.0
        self._retry_at = math.inf
        self._retry_delay = STORE_RETRY_FIRST
        self._redo: list[tuple[Callable[..., Awaitable[Any]], Any]] = []
        """Work nobody waits for (a bot's answer) that the store refused: done again first."""
        if row.players is not None:
            self._restore(steps)

    # --- the actor loop -------------------------------------------------------------------
    def start(self) -> None:
        """Start the actor's loop (and resume play)."""
        self.task = asyncio.create_task(self._run(), name=f"table-{self.id}")

    async def stop(self) -> None:
        """Stop the loop and any bot thinking (pending requests are dropped)."""
        for pending in self.pending.values():
            pending.cancel()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def call(self, method: Callable[..., Awaitable[T]], *args: Any) -> T:
        """Run ``method(*args)`` inside the actor, after everything queued before it."""
        if self.task is None or self.task.done():
            raise Refused("not_found", f"table {self.id} is closed here; ask for it again")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self.inbox.put((method, args, future))
        result: T = await future
        return result

    async def _run(self) -> None:
        try:
            if self.status == "waiting":
                now = time.time()
                for seat in self._taken_seats():  # restored: nobody is connected yet
                    self.away_since.setdefault(seat, now)
            await self._proceed()
        except Exception as exc:
            self._failed(exc, None)
        while True:
            deadline = self._retry_at if self._store_down is not None else self._next_deadline()
            wait = deadline - time.time()
            try:
                if wait <= 0:
                    raise TimeoutError
                if self.inbox.empty():
                    # a timeout, not wait_for: no task made for every message
                    async with asyncio.timeout(None if wait == math.inf else wait):
                        method, args, future = await self.inbox.get()
                else:
                    method, args, future = self.inbox.get_nowait()
            except TimeoutError:
                if self._store_down is not None:
                    await self._retry()
                    continue
                try:
                    await self._expire()
                    await self._proceed()
                except StoreError as exc:
                    self._failed(exc, None)
                except Exception:  # a bug in a default must not stop the table
                    pass
                continue
            try:
                result = await method(*args)
            except Exception as exc:
                if future is not None and not future.done():
                    future.set_exception(exc)
                elif future is None:
                    self._failed(exc, (method, args))
            else:
                if future is not None and not future.done():
                    future.set_result(result)
            if self._store_down is not None:
                continue  # the retries go on (the store answers this table again first)
            try:
                await self._proceed()
            except Exception as exc:
                self._failed(exc, None)

    async def _proceed(self) -> None:
        """Start a table that is ready, then :meth:`_settle`: the work nobody asks for."""
        if self.status == "waiting" and self._ready():
            await self._start()  # a table of bots (or assigned seats) starts at once
        await self._settle()

    def _failed(
        self, exc: Exception, work: tuple[Callable[..., Awaitable[Any]], Any] | None
    ) -> None:
        """Work nobody waits for failed: a store failure is retried until the store is back."""
        if not isinstance(exc, StoreError):
            where = "" if work is None else f"{work[0].__name__}: "
            self.hub.log(f"table {self.id}: {where}{exc!r}")
            return
        if work is not None:
            self._redo.append(work)
        if self._store_down is None:
            self._store_down = self._paused_at = time.time()
            self._retry_delay = STORE_RETRY_FIRST
            self.hub.log(
                f"table {self.id} waits for the store (a write after version {self.version} "
                f"failed: {exc.message.splitlines()[0]}); it tries again every "
                f"{STORE_RETRY_MAX:g} s at most"
            )
        self._retry_at = time.time() + self._retry_delay
        self._retry_delay = min(self._retry_delay * 2, STORE_RETRY_MAX)

    async def _retry(self) -> None:
        """Try again what the store refused; the table goes on once it is written."""
        redo, self._redo = self._redo, []
        now = time.time()
        for pending in self.pending.values():
            if pending.announced and pending.deadline != math.inf:
                # nobody's clock (nor time bank) runs while the table cannot move
                pending.deadline += now - self._paused_at
                pending.due_at += now - self._paused_at
        self._paused_at = now
        try:
            while redo:
                method, args = redo[0]
                await method(*args)
                redo.pop(0)
            await self._expire()
            await self._proceed()
        except StoreError as exc:
            self._redo = redo + self._redo
            self._failed(exc, None)
            return
        except Exception as exc:  # not the store: logged, as any failed work is
            self._failed(exc, None)
        assert self._store_down is not None
        outage = time.time() - self._store_down
        self.hub.log(
            f"table {self.id}: the store is back after {outage:.1f} s; "
            f"the table goes on at version {self.version}"
        )
        self._store_down = None
        self._retry_at = math.inf

    # --- restore and start ----------------------------------------------------------------
    def _restore(self, steps: Sequence[Step]) -> None:
        assert self.row.players is not None
        if self.row.version != self.game.spec.version:
            raise ConfigError(
                f"table {self.id} was started by {self.game.spec.name} v{self.row.version}; "
                f"this engine is v{self.game.spec.version} and may not replay it exactly"
            )
        state = self.game.new(self.rules, self.row.players)
        # The version and state each pending decision began at, as the live table counted them
        # (a sealed step's decision keeps its version while other seats submit): an answer names
        # it, and a bot seeded by it decides as it would have without the restart.
        acting = self.game.to_act(state)
        due = dict.fromkeys(acting, 0)
        due_state = dict.fromkeys(acting, state)
        for i, step in enumerate(steps, 1):
            state, events = apply_step(self.game, state, step)
            self.log.append(LogEntry(i, _kind(step), step.seat, _reason(step), events))
            if step.seat == CHANCE:
                self.chance_draws += 1
            elif step.talk is None and step.end is None:
                self.moved = True
            if step.talk is None and step.end is None:
                now_acting = self.game.to_act(state)
                for s in now_acting:
                    if s not in acting or s == step.seat:
                        due[s], due_state[s] = i, state
                acting = now_acting
        self.state = state
        self.version = len(steps)
        self._make_bots()
        now = time.time()
        for seat in self._remote_seats():
            self.away_since[seat] = now
        if self.status == "playing":
            self._update_due(set(), None)
            for seat, pending in self.pending.items():
                if seat in due:
                    pending.version, pending.state = due[seat], due_state[seat]

    def _make_bots(self) -> None:
        assert self.row.players is not None
        for seat, spec in enumerate(self.row.seats):
            if spec["kind"] == "bot":
                factory, kwargs = resolve_bot(self.game, spec["bot"])
                self.bots[seat] = BotSpec(
                    self.game, factory, kwargs, seat, self.rules, list(self.row.players)
                )

    def _remote_seats(self) -> list[int]:
        return [s for s, spec in enumerate(self.row.seats) if spec["kind"] == "player"]

    def open_seats(self) -> list[int]:
        """The seats nobody has taken yet."""
        return self._open_seats()

    async def begin(self) -> None:
        """Start the game if the table is still waiting (run it through :meth:`call`).

        For tables whose seats are all given when they are made (a tournament's match): nobody
        joins to start them.
        """
        await self._start()

    def _open_seats(self) -> list[int]:
        return [s for s, spec in enumerate(self.row.seats) if spec["kind"] == "open"]

    async def _start(self) -> None:
        if self.status != "waiting":  # started already (a table of bots starts by itself)
            return
        seats = self.row.seats
        players = [
            # a tournament names its seats itself ("player": seat first, then the entrant)
            spec.get("player")
            or (spec["name"] if spec["kind"] == "player" else f"{spec['bot'].split(':')[0]}#{i}")
            for i, spec in enumerate(seats)
        ]
        if type(self.game).host_accounts_in is not Game.host_accounts_in:
            accounts: list[dict[str, Any] | None] = []
            for spec in seats:
                if spec["kind"] == "player":
                    stored = await self.hub.store.call(
                        self.hub.store.store.game_accounts, spec["name"], self.game.spec.name
                    )
                    accounts.append(stored.get(self.game.spec.name, {}))
                else:
                    accounts.append(None)
            self.rules = self.game.make_rules(
                self.game.host_accounts_in(to_json(self.rules), accounts)
            )
        self.state = self.game.new(self.rules, players)
        rules_json = to_json(self.rules)
        now = time.time()
        await self.hub.store.call(
            self.hub.store.store.update_table,
            self.id,
            status="playing",
            players=players,
            rules=rules_json,
            started_at=now,
        )
        self.row.players, self.row.rules, self.row.started_at = players, rules_json, now
        self.status = self.row.status = "playing"
        self._make_bots()
        for seat in self._remote_seats():
            if not self._connected(seat):
                self.away_since[seat] = now
        self._update_due(set(), None)
        self._broadcast_table()
        for conn, role in list(self.conns.items()):
            conn.send(await self._view_msg(role, None))

    # --- lobby operations (run inside the actor) --------------------------------------------
    async def join(
        self,
        conn: Connection,
        seat: int | None,
        version: int | None,
        rid: p.Id,
        *,
        present: bool = True,
    ) -> None:
        """Take a seat or return to one's seat.

        Args:
            conn: The caller.
            seat: The seat asked for (``None``: the first open one).
            version: The last version the caller knows (to catch up from).
            rid: The request's id.
            present: ``False`` for a seat taken over HTTP: the caller plays it over a WebSocket
                later, and the game waits for that (or gives the seat back after the grace).
        """
        if conn.account is None:
            raise Refused("unauthorized", "sign in with a token (hello) to take a seat")
        held = self._held(conn.account)
        if held is not None:
            if seat is not None and seat != held:
                raise Refused("conflict", f"you hold seat {held} at table {self.id}")
            seat = held
        else:
            # someone else's practice table is forbidden whatever its status (docs §4)
            if self.practice and conn.account != self.row.created_by:
                raise Refused(
                    "forbidden",
                    f"table {self.id} is {self.row.created_by}'s practice table (its deals come "
                    "from a seed its creator chose): only its creator sits there",
                )
            if self.status != "waiting":
                raise Refused("conflict", f"table {self.id} is {self.status}; spectate instead")
            open_seats = self._open_seats()
            if seat is None:
                if not open_seats:
                    raise Refused("conflict", f"table {self.id} has no open seat")
                seat = open_seats[0]
            elif seat not in open_seats:
                raise Refused("conflict", f"seat {seat} at table {self.id} is not open")
            seats = [dict(s) for s in self.row.seats]
            seats[seat] = {"kind": "player", "name": conn.account}
            await self.hub.store.call(self.hub.store.store.update_table, self.id, seats=seats)
            self.row.seats = seats
        if not present:
            if not self._connected(seat):
                self.away_since[seat] = time.time()
            self._broadcast_table()
            return
        self._attach(conn, seat)
        conn.send(p.Joined(id=rid, table=self.id, seat=seat))
        if self.status == "waiting" and self._ready():
            await self._start()  # tells every attached connection, this one included
        else:
            self._broadcast_table()
            await self._catch_up(conn, seat, version)

    def _taken_seats(self) -> list[int]:
        """Seats people took by joining (not assigned by the host, as a tournament's are)."""
        return [
            s
            for s, spec in enumerate(self.row.seats)
            if spec["kind"] == "player" and not spec.get("assigned")
        ]

    def _ready(self) -> bool:
        """Every seat is filled and everyone who took a seat is here: the game may start."""
        return not self._open_seats() and all(self._connected(s) for s in self._taken_seats())

    def _held(self, account: str) -> int | None:
        for s, spec in enumerate(self.row.seats):
            if spec["kind"] == "player" and spec.get("name") == account:
                return s
        return None

    async def spectate(self, conn: Connection, version: int | None, rid: p.Id) -> None:
        """Watch the table."""
        if self.conns.get(conn) is not None:
            raise Refused("conflict", "you hold a seat here; a player cannot also spectate")
        held = None if conn.account is None else self._held(conn.account)
        if held is not None and self.status in ("waiting", "playing"):
            # a spectator's connection would read the spectators' room, kept from the seats
            raise Refused(
                "conflict", f"you hold seat {held} at table {self.id}: join to return to it"
            )
        self.conns[conn] = None
        conn.tables[self.id] = self
        self.idle_since = None
        conn.send(p.Joined(id=rid, table=self.id, seat=None))
        await self._catch_up(conn, None, version)

    async def leave(self, conn: Connection, rid: p.Id) -> None:
        """Detach; before the start, a player also gives up the seat."""
        if conn not in self.conns:
            raise Refused("not_found", f"you are not at table {self.id}")
        seat = self.conns.get(conn)
        await self.detach(conn)
        if seat is not None and self.status == "waiting":
            await self._free_seat(seat)
            await self._close_if_deserted(conn.account)
        conn.send(p.Left(id=rid, table=self.id))

    async def leave_seat(self, account: str) -> None:
        """Give up ``account``'s own seat before the start (HTTP ``leave``)."""
        seat = self._held(account)
        if seat is None:
            raise Refused("forbidden", f"you hold no seat at table {self.id}")
        if self.status != "waiting":
            raise Refused("conflict", "the game has started; resign, or leave to be absent")
        for conn, role in list(self.conns.items()):
            if role == seat:
                await self.detach(conn)
        await self._free_seat(seat)
        await self._close_if_deserted(account)

    async def _free_seat(self, seat: int) -> None:
        self.away_since.pop(seat, None)
        seats = [dict(s) for s in self.row.seats]
        seats[seat] = {"kind": "open"}
        await self.hub.store.call(self.hub.store.store.update_table, self.id, seats=seats)
        self.row.seats = seats
        self._broadcast_table()

    async def detach(self, conn: Connection) -> None:
        """A connection went away (or left): its seat, if any, may now be absent."""
        seat = self.conns.pop(conn, None)
        conn.tables.pop(self.id, None)
        if seat is not None and not self._connected(seat):
            self.away_since[seat] = time.time()
        if not self.conns:
            self.idle_since = time.time()

    async def expire(self, now: float) -> bool:
        """Close a waiting table nobody has been connected to for the host's time to live."""
        ttl = self.hub.limits.waiting_table_ttl
        if self.status != "waiting" or self.idle_since is None or now - self.idle_since < ttl:
            return False
        await self.close_waiting(now)
        return True

    async def _close_if_deserted(self, leaver: str | None) -> None:
        """Close a waiting table its creator has just left when no account holds a seat there.

        Nobody waits there for a game any more (built-in bots wait for nobody); left open, it
        would be listed as waiting until ``waiting_table_ttl``.
        """
        if self.status == "waiting" and leaver == self.row.created_by and not self._remote_seats():
            await self.close_waiting(time.time())
            self._broadcast_table()

    async def close_waiting(self, now: float | None = None) -> None:
        """Close a table that has not started (it is ``aborted``: nobody played)."""
        if self.status != "waiting":
            return
        await self.hub.store.call(
            self.hub.store.store.update_table,
            self.id,
            status="aborted",
            finished_at=time.time() if now is None else now,
        )
        self.status = self.row.status = "aborted"
        self.hub.finished(self)

    async def resume(self, conn: Connection, version: int, rid: p.Id) -> None:
        """Answer ``resumed``, then send what ``conn`` missed since ``version``."""
        if conn not in self.conns:
            raise Refused("not_found", f"you are not at table {self.id}; join or spectate")
        conn.send(p.Resumed(id=rid, table=self.id, version=self.version))
        await self._catch_up(conn, self.conns[conn], version)

    async def get_view(self, conn: Connection, rid: p.Id) -> None:
        """Send ``conn`` its current view."""
        if conn not in self.conns:
            raise Refused("not_found", f"you are not at table {self.id}; join or spectate")
        conn.send(await self._view_msg(self.conns[conn], rid))

    def _attach(self, conn: Connection, seat: int) -> None:
        self.conns[conn] = seat
        conn.tables[self.id] = self
        self.away_since.pop(seat, None)
        self.idle_since = None

    def _connected(self, seat: int) -> bool:
        return any(s == seat for s in self.conns.values())

    async def _catch_up(self, conn: Connection, seat: int | None, version: int | None) -> None:
        if self.state is None:
            return
        if (
            version is not None
            and 0 <= version <= self.version
            and (self.version - version <= MAX_RESUME)
        ):
            for entry in self.log[version:]:
                conn.send(self._event_msg(entry, seat))
        else:
            conn.send(await self._view_msg(seat, None))
        if self.status in ("finished", "aborted"):
            conn.send(self._end_msg())
        elif seat is not None and seat in self.pending and self.pending[seat].announced:
            conn.send(await self._turn_msg(seat))

    # --- play -------------------------------------------------------------------------------
    async def act(self, conn: Connection, data: Any, version: int | None, rid: p.Id) -> None:
        """A remote seat's action."""
        seat = self._seat_of(conn)
        if self.status != "playing":
            raise GameOverError(f"table {self.id} is {self.status}")
        if version is not None and version > self.version:
            raise Refused(
                "stale_version",
                f"your action names version {version}, but the table is at version "
                f"{self.version}: answer the version of your latest turn",
            )
        pending = self.pending.get(seat)
        if pending is None or not pending.announced:
            raise NotYourTurnError(f"seat {seat} is not to act now (wait for your turn)", seat=seat)
        if version is not None and version < pending.version:
            raise Refused(
                "stale_version",
                f"your action answers version {version}; your decision is now at version "
                f"{pending.version} (see the latest turn)",
            )
        # the seat's time ends when its answer arrives: the host's own work on it (a first
        # apply may compile the engine's native code) is not the seat's
        ms = (time.time() - pending.due_at) * 1000
        action = self.game.parse_action(data)
        new, events = await self._apply(seat, action)
        step = Step(seat, action=self.game.dump_action(action), ms=round(ms, 3))
        await self._commit(step, new, events, ack=(conn, rid))

    async def _apply(self, seat: int, action: Any) -> tuple[Any, list[Event]]:
        """The engine applies ``seat``'s ``action`` to the state, where its cost says."""
        return await self.hub.work.run(
            (self.game.spec.name, "apply"),
            work.apply,
            self.game,
            self.state,
            seat,
            action,
            account=self.account,
        )

    async def refuse(self, conn: Connection, version: int | None, note: str) -> None:
        """A remote seat's answer was refused, and its protocol counts a refusal as the default.

        For adapters of other protocols (UECda counts an illegal play as a pass): the rules'
        default is applied now, recorded as ``default: illegal`` with ``note``.

        Raises:
            NotYourTurnError: The seat has no decision due.
            Refused: ``stale_version``: the decision due is another one.
        """
        seat = self._seat_of(conn)
        self._check_playing()
        pending = self.pending.get(seat)
        if pending is None or not pending.announced:
            raise NotYourTurnError(f"seat {seat} is not to act now", seat=seat)
        if version is not None and version != pending.version:
            raise Refused("stale_version", f"the decision is now at version {pending.version}")
        await self._default(seat, "illegal", note[:500])

    async def seat_bots(self, bots: Sequence[str]) -> list[int]:
        """Fill the open seats of a waiting table with built-in bots (in turn) and start it.

        Returns the seats filled (none if the table is no longer waiting).

        Raises:
            ConfigError: An unknown bot or option (nothing changed).
            Refused: ``limit_reached``: past the creator's ``model_seats_per_account``.
        """
        if self.status != "waiting" or not bots:
            return []
        filled = self._open_seats()
        seats = [dict(s) for s in self.row.seats]
        for i, seat in enumerate(filled):
            spec = bots[i % len(bots)]
            resolve_bot(self.game, spec)
            check_table_fits(self.game, spec, self.rules, len(seats))
            seats[seat] = {"kind": "bot", "bot": spec}
        # the new model seats count against the creator's quota (those it had are counted)
        added = [seats[seat] for seat in filled]
        self.hub.check_model_seats(self.row.created_by or "", added)
        await self.hub.store.call(self.hub.store.store.update_table, self.id, seats=seats)
        self.row.seats = seats
        if self._ready():
            await self._start()
        else:
            self._broadcast_table()
        return filled

    async def talk(self, conn: Connection, channel: str, text: str, rid: p.Id) -> None:
        """A line of talk from a seat, or from a signed-in spectator in the spectators' room."""
        if conn not in self.conns:
            raise Refused("not_found", f"you are not at table {self.id}; join or spectate")
        if not self.game.spec.talk:
            raise Refused("no_talk", f"{self.game.spec.name} has no talk")
        if conn.account is None:
            raise Refused("unauthorized", "sign in (hello with a token) to talk")
        if self.status != "playing":
            raise Refused("conflict", f"table {self.id} is {self.status}: no talk now")
        if conn.account in self.muted:
            raise Refused(
                "forbidden", f"you are muted at table {self.id} (by its owner or an operator)"
            )
        speaker = self.conns[conn]
        if speaker is None and channel != SPECTATORS:
            raise Refused("forbidden", f"spectators talk in their own room, {SPECTATORS!r}, only")
        if speaker is not None and channel == SPECTATORS:
            raise Refused("forbidden", f"{SPECTATORS!r} is the spectators' room, not the players'")
        line = clean_talk(text)
        limits = self.hub.limits
        if not self.hub.talk_allowed(conn.account):
            raise Refused(
                "rate_limited",
                f"at most {limits.talk_rate_account:g} talk lines per second per account",
            )
        if not self.talk_bucket.take():
            raise Refused(
                "rate_limited",
                f"table {self.id} takes at most {limits.talk_rate_table:g} talk lines per second",
            )
        step = Step(speaker, talk=TalkLine(speaker, conn.account, channel, line))
        new, events = apply_step(self.game, self.state, step)
        await self._commit(step, new, events, ack=(conn, rid))

    async def mute(self, conn: Connection, account: str, muted: bool, rid: p.Id) -> None:
        """The table's owner or an operator mutes (or unmutes) ``account``'s talk here.

        Kept in the table's options, so a restart keeps it. Everyone at the table gets the
        table info (``muted``); the caller's copy answers the request.
        """
        if conn.account is None:
            raise Refused("unauthorized", "sign in (hello with a token) to mute")
        if conn.account != self.row.created_by and not self.hub.accounts.is_operator(conn.account):
            raise Refused(
                "forbidden", f"only the table's owner or an operator mutes talk at {self.id}"
            )
        now = set(self.muted)
        if muted and account not in now:
            if len(now) >= self.hub.limits.mutes_per_table:
                raise Refused(
                    "limit_reached",
                    f"at most {self.hub.limits.mutes_per_table} accounts muted at a table",
                )
            if not await self.hub.store.call(self.hub.store.store.account_exists, account):
                raise Refused("not_found", f"no account {account!r}")
            now.add(account)
        elif not muted:
            now.discard(account)
        if now != set(self.muted):
            options = {**self.row.options, "muted": sorted(now)}
            await self.hub.store.call(self.hub.store.store.update_table, self.id, options=options)
            self.row.options, self.muted = options, sorted(now)
            for other in list(self.conns):
                if other is not conn:
                    other.send(p.TableMsg(table=self.info()))
        conn.send(p.TableMsg(id=rid, table=self.info()))

    async def resign(self, conn: Connection, rid: p.Id) -> None:
        """The seat gives up: it loses, every other seat shares the win."""
        seat = self._seat_of(conn)
        self._check_playing()
        await self._end("resign", seat, {seat}, ack=(conn, rid))

    async def abort(self, conn: Connection, rid: p.Id) -> None:
        """End the game before anything was dealt or moved: nobody wins.

        Refused once the host has drawn any chance (a deal is private to its seats; a public
        draw, such as who starts, can be fished for as well) or a seat has acted: otherwise a
        player could abort until the deal suits them. The abort counts against its account.
        """
        seat = self._seat_of(conn)
        self._check_playing()
        if "tournament" in self.row.options:
            raise Refused(
                "forbidden",
                "a tournament's match is played, not aborted: resign, or ask its organiser",
            )
        if self.moved or self.chance_draws:
            what = "the first move has been made" if self.moved else "the deal has been made"
            raise Refused(
                "conflict",
                f"{what}: the game can no longer be aborted (resign, or claim once the others "
                "are gone)",
            )
        await self._end("abort", seat, set(), ack=(conn, rid), by=conn.account)

    async def claim(self, conn: Connection, rid: p.Id) -> None:
        """Claim the win from seats that have been away past the grace."""
        seat = self._seat_of(conn)
        self._check_playing()
        now = time.time()
        gone = {
            s
            for s in self._remote_seats()
            if s != seat and s in self.away_since and now - self.away_since[s] >= self.claim_grace
        }
        if not gone:
            raise Refused(
                "conflict",
                f"no other player has been away longer than {self.claim_grace:g} s (the "
                "table's claim_grace): nothing to claim",
            )
        await self._end("claim", seat, gone, ack=(conn, rid))

    async def cancel(self, why: str = "cancel") -> None:
        """End the game for the host: nobody wins, nothing is rated.

        ``why``: ``cancel`` (its tournament was cancelled) or ``step_limit`` (the game reached
        the host's ``table_steps``). A table waiting for its players closes; a table playing
        records the host's ``end`` step first. A table already over is left as it is.
        """
        if self.status == "playing":
            step = Step(None, end=why)
            new, events = apply_step(self.game, self.state, step)
            await self._commit(step, new, events)
        if self.status in ("waiting", "playing"):
            await self._finish(None)

    def _check_playing(self) -> None:
        if self.status != "playing":
            raise GameOverError(f"table {self.id} is {self.status}")

    async def _end(
        self,
        how: str,
        seat: int,
        losers: set[int],
        *,
        ack: tuple[Connection, p.Id],
        by: str | None = None,
    ) -> None:
        step = Step(seat, end=how)
        new, events = apply_step(self.game, self.state, step)
        await self._commit(step, new, events, ack=ack)
        if how == "abort":
            await self._finish(None, aborted_by=by)
        else:
            outcome = forfeit_outcome(len(self.row.seats), losers, how, seat)
            await self._finish(to_json(outcome))

    def _seat_of(self, conn: Connection) -> int:
        if conn not in self.conns:
            raise Refused("forbidden", f"you hold no seat at table {self.id}")
        seat = self.conns[conn]
        if seat is None:
            raise Refused("forbidden", "spectators cannot act")
        return seat

    async def _settle(self) -> None:
        """Draw chance and start built-in bots' thinking; finish a game that is over."""
        while self.status == "playing":
            acting = self.game.to_act(self.state)
            if not acting:
                await self._finish(to_json(self.game.outcome(self.state)))
                return
            if self.version >= self.hub.limits.table_steps:
                # a game its players can keep going for ever (a session of hands=0, a series
                # with no cap) ends here: its record, its load and its replay stay bounded
                await self.cancel("step_limit")
                return
            if CHANCE in acting:
                if self._chance_due() > time.time():
                    return  # paced: the actor's loop wakes for it (_next_deadline)
                scripted = self.randomness.scripted(self.state, self.chance_draws)
                if scripted is not None:
                    action = scripted
                    new, events = self.game.apply(self.state, CHANCE, action)
                else:
                    rng = self.randomness.chance(self.chance_draws)
                    action, new, events = await self.hub.work.run(
                        (self.game.spec.name, "chance"),
                        work.draw,
                        self.game,
                        self.state,
                        rng,
                        account=self.account,
                    )
                await self._commit(Step(CHANCE, action=self.game.dump_action(action)), new, events)
                # A game of chance steps only (a 10-card stud session) would hold the actor for
                # all of it: requests queued meanwhile (spectate, leave, chat) go first.
                await asyncio.sleep(0)
                if not self.inbox.empty():
                    return
                continue
            for seat in sorted(acting):
                pending = self.pending.get(seat)
                if seat in self.bots and pending is not None and pending.task is None:
                    pending.task = asyncio.create_task(self._think(seat, pending))
            await self._announce()
            return

    async def _announce(self) -> None:
        """Send remote seats their turns, once no built-in bot of this step is still deciding."""
        if any(seat in self.bots for seat in self.pending):
            return
        for seat, pending in list(self.pending.items()):
            if pending.announced:
                continue
            now = time.time()
            pending.announced, pending.due_at = True, now
            pending.deadline = now + self.clock + self.banks.get(seat, self.bank)
            conns = [c for c, role in self.conns.items() if role == seat]
            if conns:
                turn = await self._turn_msg(seat)
                for conn in conns:
                    conn.send(turn)

    async def _think(self, seat: int, pending: Pending) -> None:
        """A built-in bot thinks (in a worker process); its answer comes back via the inbox."""
        upto = self.version
        answer = await self.hub.bots.decide(
            (self.id, seat),
            self.bots[seat],
            history=lambda since: self._observed(seat, since, upto),
            upto=upto,
            state=pending.state,
            rng_seed=self.randomness.bot(seat, pending.version),
            channels=self.game.talk_channels(pending.state, seat),
            think=self.clock,
            account=self.account,
        )
        await self.inbox.put((self._bot_answer, (seat, pending, answer), None))

    def _observed(self, seat: int, since: int, upto: int) -> list[list[Event]]:
        out = []
        for entry in self.log[since:upto]:
            seen = [e for e in entry.events if self._sees(e, seat, playing=True)]
            if seen:
                out.append(seen)
        return out

    async def _bot_answer(self, seat: int, pending: Pending, answer: Any) -> None:
        if self.status != "playing" or self.pending.get(seat) is not pending:
            return  # the decision was settled otherwise meanwhile
        assert self.row.players is not None
        name = self.row.players[seat]
        for channel, text in list(answer.chat or ())[pending.said :]:
            pending.said += 1
            try:
                line = clean_talk(text)
                new, events = self.game.talk(self.state, seat, channel, line, name=name)
            except Exception:
                continue  # a bot's bad line is dropped, as in the arena
            try:
                await self._commit(
                    Step(seat, talk=TalkLine(seat, name, channel, line)), new, events
                )
            except StoreError:
                pending.said -= 1  # said again when the answer is tried again
                raise
        if answer.timeout:
            await self._default(seat, "timeout", answer.error)
            return
        if answer.error is not None:
            await self._default(seat, "error", answer.error)
            return
        try:
            action = self.game.parse_action(answer.action)
            new, events = await self._apply(seat, action)
        except GameError as exc:
            await self._default(seat, "illegal", f"{answer.action!s}: {exc}"[:500])
            return
        step = Step(seat, action=self.game.dump_action(action), ms=answer.ms)
        await self._commit(step, new, events)

    async def _default(self, seat: int, reason: str, note: str) -> None:
        new, events = self.game.apply_default(self.state, seat)
        await self._commit(Step(seat, default=reason, note=note), new, events)

    def _next_deadline(self) -> float:
        if self.status == "waiting":
            # a seat taken and left before the start is given back after the grace
            return min(
                (
                    self.away_since[s] + self.grace
                    for s in self._taken_seats()
                    if s in self.away_since
                ),
                default=math.inf,
            )
        if self.status != "playing":
            return math.inf
        due = min((self._effective_deadline(s) for s in self.pending), default=math.inf)
        if self.state is not None and CHANCE in self.game.to_act(self.state):
            paced = self._chance_due()
            if paced > time.time():
                due = min(due, paced)
            elif self.inbox.empty():
                due = min(due, time.time())  # due now, and nothing is waiting before it
            # else due now, after the requests queued meanwhile (each is followed by _proceed)
        return due

    def _chance_due(self) -> float:
        """When the next chance step may be drawn.

        At once at a table nobody watches (bots only: tournaments, benchmarks). While a person
        plays here (connected or not: a page opening after the start must not find the session
        over) or watches, a chance step comes ``reveal_pace``
        after the step before it, so a game of chance steps only (10-card stud) is seen card by
        card, and ``deal_pause`` after the end of a game of a set or series (the next deal of a
        Daifugo set), so that end is seen before the next deal replaces it.
        """
        people = self.conns or any(spec["kind"] == "player" for spec in self.row.seats)
        if not people or not self._last_step_at:
            return 0.0
        limits = self.hub.limits
        pace = limits.deal_pause if self._last_game_end else limits.reveal_pace
        return self._last_step_at + pace

    def _effective_deadline(self, seat: int) -> float:
        pending = self.pending[seat]
        if not pending.announced:
            return math.inf
        if seat in self.away_since:
            # gone for the grace period: this decision defaults now, and so does every later
            # one until the seat returns
            away = max(pending.due_at, self.away_since[seat] + self.grace)
            return min(pending.deadline, away)
        return pending.deadline

    async def _expire(self) -> None:
        now = time.time()
        if self.status == "waiting":
            for seat in self._taken_seats():
                away = self.away_since.get(seat)
                if away is not None and now - away >= self.grace and not self._connected(seat):
                    await self._free_seat(seat)
            return
        for seat in sorted(self.pending):
            if self.status != "playing" or seat not in self.pending:
                continue
            if self._effective_deadline(seat) > now:
                continue
            if seat in self.away_since and self.pending[seat].deadline > now:
                reason, note = "absent", f"away for {now - self.away_since[seat]:.1f} s"
            else:
                reason, note = "timeout", f"no decision within {self.clock:g} s"
            await self._default(seat, reason, note)

    async def _commit(
        self,
        step: Step,
        new_state: Any,
        events: list[Event],
        *,
        ack: tuple[Connection, p.Id] | None = None,
    ) -> None:
        """Store the step, then apply it and tell everyone (nothing is broadcast unstored)."""
        await self.hub.store.append_step(self.id, self.version, step)
        before = self.game.to_act(self.state)
        self.state = new_state
        self.version += 1
        self.actions += 1
        if step.talk is None:
            self._last_step_at = time.time()
            self._last_game_end = any(e.kind in GAME_ENDS for e in events)
        if step.seat == CHANCE:
            self.chance_draws += 1
        elif step.talk is None and step.end is None:
            self.moved = True
        entry = LogEntry(self.version, _kind(step), step.seat, _reason(step), events)
        self.log.append(entry)
        if step.talk is None and step.end is None:
            self._update_due(set(before), step.seat)
        self._broadcast(entry, ack)

    def _update_due(self, before: set[int], actor: int | None) -> None:
        """New decisions get a deadline; a decision that continues keeps its own."""
        now = time.time()
        acting = self.game.to_act(self.state) if self.state is not None else frozenset()
        for seat in list(self.pending):
            if seat not in acting:
                self._spend(self.pending[seat], now)
                self.pending.pop(seat).cancel()
        for seat in acting:
            if seat == CHANCE:
                continue
            # In a sealed simultaneous step another seat's submission does not change this
            # seat's decision: its deadline, and the version its answer may name, stay.
            if seat not in self.pending or seat == actor or seat not in before:
                old = self.pending.get(seat)
                if old is not None:
                    self._spend(old, now)
                    old.cancel()
                self.pending[seat] = Pending(seat, self.version, self.state, now, math.inf)

    def _spend(self, pending: Pending, now: float) -> None:
        """A settled decision's time past the clock comes out of its seat's time bank."""
        if not pending.announced or not self.bank:
            return
        over = min(now, pending.deadline) - pending.due_at - self.clock
        if over > 0:
            left = self.banks.get(pending.seat, self.bank)
            self.banks[pending.seat] = max(0.0, left - over)

    async def _finish(
        self, outcome: dict[str, Any] | None, *, aborted_by: str | None = None
    ) -> None:
        """Store the end (``outcome`` ``None``: aborted, by ``aborted_by``) and tell everyone.

        Results (history, ``/api/results``) are stored for counted tables only (``counted``);
        per-game accounts move everywhere but at practice tables.
        """
        results = []
        updates: list[tuple[str, str, str, Any]] = []
        name = self.game.spec.name
        status = "aborted" if outcome is None else "finished"
        if outcome is not None:
            per_seat = outcome.get("detail", {}).get(HOST_ACCOUNTS)
            for seat, spec in enumerate(self.row.seats):
                if spec["kind"] != "player" or self.practice:
                    continue
                ranks, scores = outcome["ranks"], outcome["scores"]
                result = "loss" if ranks[seat] != 1 else ("draw" if ranks.count(1) > 1 else "win")
                if self.counted:
                    results.append(
                        {
                            "account": spec["name"],
                            "game": name,
                            "seat": seat,
                            "result": result,
                            "score": scores[seat],
                            "rank": ranks[seat],
                        }
                    )
                if (
                    isinstance(per_seat, list)
                    and seat < len(per_seat)
                    and isinstance(per_seat[seat], dict)
                ):
                    for key, value in per_seat[seat].items():
                        updates.append((spec["name"], name, str(key), value))
        await self.hub.store.call(
            self.hub.store.store.finish_table,
            self.id,
            outcome,
            results,
            updates,
            status=status,
            aborted_by=aborted_by,
        )
        self.status = self.row.status = status
        self.outcome = self.row.outcome = outcome
        for pending in self.pending.values():
            pending.cancel()
        self.pending.clear()
        for seat in self.bots:
            self.hub.bots.forget((self.id, seat))
        end_msg = self._end_msg()
        end = p.encode(end_msg)
        for conn in list(self.conns):
            if conn.structured:
                conn.send(end_msg)
            else:
                conn.send_raw(end)
        self.hub.finished(self)

    # --- messages ---------------------------------------------------------------------------
    def _broadcast(self, entry: LogEntry, ack: tuple[Connection, p.Id] | None) -> None:
        cache: dict[int | None, bytes] = {}
        for conn, role in list(self.conns.items()):
            if ack is not None and conn is ack[0] and ack[1] is not None:
                conn.send(self._event_msg(entry, role, ack[1]))
                continue
            if conn.structured:
                conn.send(self._event_msg(entry, role))
                continue
            if role not in cache:
                cache[role] = p.encode(self._event_msg(entry, role))
            conn.send_raw(cache[role])

    def _broadcast_table(self) -> None:
        info = p.TableMsg(table=self.info())
        msg = p.encode(info)
        for conn in list(self.conns):
            if conn.structured:
                conn.send(info)
            else:
                conn.send_raw(msg)

    def _event_msg(self, entry: LogEntry, role: int | None, rid: p.Id = None) -> p.EventMsg:
        return p.EventMsg(
            id=rid,
            table=self.id,
            version=entry.version,
            step=entry.step,  # type: ignore[arg-type]
            seat=entry.seat,
            reason=entry.reason,  # type: ignore[arg-type]
            events=[
                p.EventData(kind=e.kind, text=e.text, data=e.data)
                for e in entry.events
                if self._sees(e, role, playing=self.status not in ("finished", "aborted"))
            ],
        )

    @staticmethod
    def _sees(event: Event, role: int | None, *, playing: bool) -> bool:
        """Whether ``role`` (``None``: a spectator) is shown ``event`` now.

        The game decides its own events' audiences; the spectators' room is the host's, and no
        seat hears it until the game is over (spectators must not pass what they see to players).
        """
        if not event.visible_to(role):
            return False
        return role is None or not playing or not is_spectator_talk(event)

    def _end_msg(self) -> p.End:
        return p.End(
            table=self.id,
            version=self.version,
            status="aborted" if self.status == "aborted" else "finished",
            outcome=self.outcome,
        )

    async def _view_msg(self, seat: int | None, rid: p.Id) -> p.ViewMsg:
        if self.state is None:
            view, to_act = None, []
        else:
            view = await self.hub.work.run(
                (self.game.spec.name, "view"),
                work.view,
                self.game,
                self.state,
                seat,
                inline=not self.game.spec.heavy_views,
                account=self.account,
            )
            to_act = sorted(self.game.to_act(self.state))
        channels = (
            self._channels(seat) if self.state is not None and self.status == "playing" else []
        )
        return p.ViewMsg(
            id=rid,
            table=self.id,
            version=self.version,
            seat=seat,
            status=self.status,  # type: ignore[arg-type]
            view=view,
            to_act=to_act,
            channels=channels,
        )

    def _channels(self, seat: int | None) -> list[str]:
        """The talk channels open to ``seat`` now.

        A seat's are the game's; a spectator's is the spectators' room (where the game talks).
        """
        if seat is None:
            return [SPECTATORS] if self.game.spec.talk else []
        return sorted(self.game.talk_channels(self.state, seat) - {SPECTATORS})

    async def _turn_msg(self, seat: int) -> p.Turn:
        pending = self.pending[seat]
        view, listed, count, description, sample = await self.hub.work.run(
            (self.game.spec.name, "turn"),
            work.turn_parts,
            self.game,
            pending.state,
            seat,
            pending.version,
            inline=not self.game.spec.heavy_views,
            account=self.account,
        )
        return p.Turn(
            table=self.id,
            version=pending.version,
            seat=seat,
            view=view,
            legal=listed,
            legal_count=count,
            legal_description=description,
            legal_sample=sample,
            channels=self._channels(seat),
            deadline=round(pending.deadline, 3),
            time_limit=round(pending.deadline - time.time(), 3),
            time_bank=round(self.banks.get(seat, self.bank), 3),
        )

    def info(self) -> p.TableInfo:
        """The table as the lobby shows it."""
        seats = []
        for i, spec in enumerate(self.row.seats):
            if spec["kind"] == "bot":
                seats.append(p.SeatInfo(seat=i, kind="bot", name=spec["bot"], connected=True))
            elif spec["kind"] == "player":
                seats.append(
                    p.SeatInfo(
                        seat=i, kind="player", name=spec["name"], connected=self._connected(i)
                    )
                )
            else:
                seats.append(p.SeatInfo(seat=i, kind="open", name=None, connected=False))
        return p.TableInfo(
            id=self.id,
            game=self.game.spec.name,
            status=self.status,  # type: ignore[arg-type]
            rules=to_json(self.rules),
            seats=seats,
            version=self.version,
            spectators=sum(1 for r in self.conns.values() if r is None),
            time_limit=self.clock,
            absent_grace=self.grace,
            seeded=self.randomness.seed is not None,
            owner=self.row.created_by,
            # the outcome may show what was dealt (10-card stud's hands, the chairs' island)
            outcome=None if self.hub.withheld(self.id) else self.outcome,
            claim_grace=self.claim_grace,
            muted=sorted(self.muted),
            time_bank=self.bank,
        )


def _kind(step: Step) -> str:
    if step.end is not None:
        return "end"
    if step.talk is not None:
        return "talk"
    if step.default is not None:
        return "default"
    return "chance" if step.seat == CHANCE else "action"


def _reason(step: Step) -> str | None:
    return step.end if step.end is not None else step.default


__all__ = ["LogEntry", "Pending", "TableActor", "TableRandomness", "forfeit_outcome"]
