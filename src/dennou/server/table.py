"""One actor per table: it alone owns the table's state and applies every change in order.

Everything that touches a table (a seat taken, an action, talk, a timeout, a connection lost)
goes through the actor's inbox and runs one at a time. An accepted step is appended to the store
and only then applied to the in-memory state and broadcast: what a client has seen is durable.
The version of a table is the number of steps in its record; every event names it.

Decisions: a seat due to act gets a ``turn`` (view, legal actions, deadline). The deadline is the
rules' ``time_limit`` where the rules have one, else the table option. A seat with no connection
is absent: once it has been away for the table's ``absent_grace`` its decisions default as they
come, until it returns. After a restart, deadlines start afresh and every remote seat counts as
away from the moment the table was reloaded (so each has ``absent_grace`` to reconnect).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dennou.arena.bots import make_bot
from dennou.core.actions import Action, LazyActions
from dennou.core.bot import Bot
from dennou.core.errors import (
    ConfigError,
    DennouError,
    GameError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
)
from dennou.core.game import CHANCE, HOST_ACCOUNTS, Event, Game, TalkLine
from dennou.core.jsondata import to_json
from dennou.core.record import Step, apply_step
from dennou.core.rng import make_rng
from dennou.server import protocol as p
from dennou.store import TableRow

if TYPE_CHECKING:
    from dennou.server.hub import Conn, Hub

DEFAULT_TIME_LIMIT = 60.0
"""Seconds per decision when neither the rules nor the table say."""

LIST_LEGAL_UP_TO = 300
"""Legal actions are listed in a ``turn`` up to this many; beyond, a description and a sample."""

MAX_RESUME = 2000
"""A client that missed more events than this gets a fresh view instead."""


class Refused(DennouError):
    """A request the table (or lobby) refuses; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str, **context: Any) -> None:
        super().__init__(message, **context)
        self.code = code


def error_code(exc: DennouError) -> str:
    """The protocol error code of an error."""
    if isinstance(exc, Refused):
        return exc.code
    for cls, code in (
        (NotYourTurnError, "not_your_turn"),
        (GameOverError, "game_over"),
        (IllegalActionError, "illegal_action"),
        (InvalidActionError, "invalid_action"),
        (ConfigError, "config"),
    ):
        if isinstance(exc, cls):
            return code
    return "store" if type(exc).__name__ == "StoreError" else "error"


@dataclass
class LogEntry:
    """An accepted step as broadcast: its version, kind, seat, reason and events."""

    version: int
    step: str
    seat: int | None
    reason: str | None
    events: list[Event]


class TableActor:
    """The actor of one table.

    Args:
        hub: The hub (store, lobby).
        row: The table as stored.
        game: Its game.
        steps: Its stored steps (for a table that had started before a restart).
    """

    def __init__(
        self, hub: Hub, row: TableRow, game: Game[Any, Any], steps: Sequence[Step] = ()
    ) -> None:
        self.hub = hub
        self.id = row.id
        self.row = row
        self.game = game
        self.rules = game.make_rules(row.rules)
        self.status = row.status
        self.seed = row.seed
        self.grace = float(row.options.get("absent_grace", 5.0))
        self.time_limit = self._time_limit()
        self.state: Any = None
        self.version = 0
        self.log: list[LogEntry] = []
        self.conns: dict[Conn, int | None] = {}
        self.bots: dict[int, Bot] = {}
        self.deadline: dict[int, float] = {}
        self.due_at: dict[int, float] = {}
        self.decision: dict[int, int] = {}
        # The state each pending decision started in: a turn shows the seat what it saw when
        # its decision began (in a sealed step, others' later submissions don't change it), so
        # a turn sent again after a reconnect or a restart asks exactly the same question.
        self.decision_state: dict[int, Any] = {}
        self.away_since: dict[int, float] = {}
        self.outcome: dict[str, Any] | None = row.outcome
        self.inbox: asyncio.Queue[tuple[Callable[..., Awaitable[Any]], tuple[Any, ...], Any]] = (
            asyncio.Queue()
        )
        self.task: asyncio.Task[None] | None = None
        self.actions = 0
        if row.players is not None:
            self._restore(steps)

    # --- the actor loop -------------------------------------------------------------------
    def start(self) -> None:
        """Start the actor's loop (and resume play)."""
        self.task = asyncio.create_task(self._run(), name=f"table-{self.id}")

    async def stop(self) -> None:
        """Stop the loop (pending requests are dropped)."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def call(self, method: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        """Run ``method(*args)`` inside the actor, after everything queued before it."""
        if self.task is None or self.task.done():
            raise Refused("not_found", f"table {self.id} is closed here; ask for it again")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self.inbox.put((method, args, future))
        return await future

    async def _run(self) -> None:
        try:
            await self._settle()
        except Exception as exc:  # pragma: no cover - a store failure; requests still work
            self.hub.log(f"table {self.id}: {exc!r}")
        while True:
            wait = self._next_deadline() - time.time()
            try:
                if wait <= 0:
                    raise TimeoutError
                method, args, future = await asyncio.wait_for(
                    self.inbox.get(), None if wait == float("inf") else wait
                )
            except TimeoutError:
                await self._expire()
                await self._settle()
                continue
            try:
                result = await method(*args)
            except Exception as exc:
                if not future.done():
                    future.set_exception(exc)
            else:
                if not future.done():
                    future.set_result(result)
            try:
                await self._settle()
            except Exception as exc:  # pragma: no cover - a store failure; keep the actor alive
                self.hub.log(f"table {self.id}: {exc!r}")

    # --- restore and start ----------------------------------------------------------------
    def _time_limit(self) -> float:
        limit = getattr(self.rules, "time_limit", None)
        if isinstance(limit, int | float) and limit > 0:
            return float(limit)
        option = self.row.options.get("time_limit")
        return float(option) if option else DEFAULT_TIME_LIMIT

    def _restore(self, steps: Sequence[Step]) -> None:
        assert self.row.players is not None
        if self.row.version != self.game.spec.version:
            raise ConfigError(
                f"table {self.id} was started by {self.game.spec.name} v{self.row.version}; "
                f"this engine is v{self.game.spec.version} and may not replay it exactly"
            )
        state = self.game.new(self.rules, self.row.players)
        # The version each pending decision was first due at, as the live table counted it (a
        # sealed step's decision keeps its version while other seats submit): an answer names
        # it, and a bot seeded by it must decide as it would have without the restart.
        acting = self.game.to_act(state)
        due = dict.fromkeys(acting, 0)
        due_state = dict.fromkeys(acting, state)
        for i, step in enumerate(steps, 1):
            state, events = apply_step(self.game, state, step)
            self.log.append(LogEntry(i, _kind(step), step.seat, step.default, events))
            if step.talk is None:
                now_acting = self.game.to_act(state)
                for s in now_acting:
                    if s not in acting or s == step.seat:
                        due[s], due_state[s] = i, state
                acting = now_acting
        self.state = state
        self.version = len(steps)
        self._make_bots()
        for entry in self.log:  # built-in bots see again what they saw before the restart
            for seat, bot in self.bots.items():
                seen = [e for e in entry.events if e.visible_to(seat)]
                if seen:
                    with contextlib.suppress(Exception):
                        bot.observe(seen)
        now = time.time()
        for seat in self._remote_seats():
            self.away_since[seat] = now
        self._update_due(set(), None)
        for seat in self.decision:
            if seat in due:
                self.decision[seat] = due[seat]
                self.decision_state[seat] = due_state[seat]

    def _make_bots(self) -> None:
        assert self.row.players is not None
        for seat, spec in enumerate(self.row.seats):
            if spec["kind"] == "bot":
                bot = make_bot(self.game, spec["bot"])
                bot.reset(seat=seat, rules=self.rules, players=self.row.players)
                self.bots[seat] = bot

    def _remote_seats(self) -> list[int]:
        return [s for s, spec in enumerate(self.row.seats) if spec["kind"] == "player"]

    async def _start(self) -> None:
        seats = self.row.seats
        players = [
            spec["name"] if spec["kind"] == "player" else f"{spec['bot'].split(':')[0]}#{i}"
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
            conn.send(self._view_msg(role, None))
            if role is not None and role in self.deadline:
                conn.send(self._turn_msg(role))

    # --- lobby operations (run inside the actor) --------------------------------------------
    async def join(self, conn: Conn, seat: int | None, version: int | None, rid: p.Id) -> None:
        """Take a seat or return to one's seat."""
        if conn.account is None:
            raise Refused("unauthorized", "log in with a token (hello) to take a seat")
        held = [s for s, spec in enumerate(self.row.seats) if spec.get("name") == conn.account]
        held = [s for s in held if self.row.seats[s]["kind"] == "player"]
        if held:
            if seat is not None and seat != held[0]:
                raise Refused("conflict", f"you hold seat {held[0]} at table {self.id}")
            seat = held[0]
        else:
            if self.status != "waiting":
                raise Refused("conflict", f"table {self.id} has started; spectate instead")
            open_seats = [s for s, spec in enumerate(self.row.seats) if spec["kind"] == "open"]
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
        self._attach(conn, seat)
        conn.send(p.Joined(id=rid, table=self.id, seat=seat))
        if self.status == "waiting" and all(s["kind"] != "open" for s in self.row.seats):
            await self._start()  # tells every attached connection, this one included
        else:
            self._broadcast_table()
            self._catch_up(conn, seat, version)

    async def spectate(self, conn: Conn, version: int | None, rid: p.Id) -> None:
        """Watch the table."""
        if self.conns.get(conn, -2) is not None and conn in self.conns:
            raise Refused("conflict", "you hold a seat here; a player cannot also spectate")
        self.conns[conn] = None
        conn.tables[self.id] = self
        conn.send(p.Joined(id=rid, table=self.id, seat=None))
        self._catch_up(conn, None, version)

    async def leave(self, conn: Conn, rid: p.Id) -> None:
        """Detach; before the start, a player also gives up the seat."""
        seat = self.conns.get(conn)
        if conn not in self.conns:
            raise Refused("not_found", f"you are not at table {self.id}")
        await self.detach(conn)
        if seat is not None and self.status == "waiting":
            seats = [dict(s) for s in self.row.seats]
            seats[seat] = {"kind": "open"}
            await self.hub.store.call(self.hub.store.store.update_table, self.id, seats=seats)
            self.row.seats = seats
            self._broadcast_table()
        conn.send(p.Left(id=rid, table=self.id))

    async def detach(self, conn: Conn) -> None:
        """A connection went away (or left): its seat, if any, may now be absent."""
        seat = self.conns.pop(conn, None)
        conn.tables.pop(self.id, None)
        if seat is not None and not self._connected(seat):
            self.away_since[seat] = time.time()

    async def resume(self, conn: Conn, version: int, rid: p.Id) -> None:
        """Send what ``conn`` missed since ``version``."""
        if conn not in self.conns:
            raise Refused("not_found", f"you are not at table {self.id}; join or spectate")
        self._catch_up(conn, self.conns[conn], version)

    async def get_view(self, conn: Conn, rid: p.Id) -> None:
        """Send ``conn`` its current view."""
        if conn not in self.conns:
            raise Refused("not_found", f"you are not at table {self.id}; join or spectate")
        conn.send(self._view_msg(self.conns[conn], rid))

    def _attach(self, conn: Conn, seat: int) -> None:
        self.conns[conn] = seat
        conn.tables[self.id] = self
        self.away_since.pop(seat, None)

    def _connected(self, seat: int) -> bool:
        return any(s == seat for s in self.conns.values())

    def _catch_up(self, conn: Conn, seat: int | None, version: int | None) -> None:
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
            conn.send(self._view_msg(seat, None))
        if self.status == "finished" and self.outcome is not None:
            conn.send(p.End(table=self.id, version=self.version, outcome=self.outcome))
        elif seat is not None and seat in self.deadline:
            conn.send(self._turn_msg(seat))

    # --- play -------------------------------------------------------------------------------
    async def act(self, conn: Conn, data: Any, version: int | None, rid: p.Id) -> None:
        """A remote seat's action."""
        seat = self._seat_of(conn)
        if self.status != "playing":
            raise GameOverError(f"table {self.id} is {self.status}")
        if seat not in self.game.to_act(self.state):
            raise NotYourTurnError(f"seat {seat} is not to act now", seat=seat)
        if version is not None and version < self.decision.get(seat, 0):
            raise Refused(
                "stale_version",
                f"your action answers version {version}; your decision is now at version "
                f"{self.decision[seat]} (see the latest turn)",
            )
        action = self.game.parse_action(data)
        new, events = self.game.apply(self.state, seat, action)
        ms = (time.time() - self.due_at.get(seat, time.time())) * 1000
        step = Step(seat, action=self.game.dump_action(action), ms=round(ms, 3))
        await self._commit(step, new, events, ack=(conn, rid))

    async def talk(self, conn: Conn, channel: str, text: str, rid: p.Id) -> None:
        """A line of talk from a seat or a spectator."""
        if conn not in self.conns:
            raise Refused("not_found", f"you are not at table {self.id}; join or spectate")
        if self.status != "playing":
            raise Refused("conflict", f"table {self.id} is {self.status}: no talk now")
        if len(text) > p.MAX_TALK:
            raise Refused("bad_message", f"a talk line has at most {p.MAX_TALK} characters")
        speaker = self.conns[conn]
        name = conn.account or "guest"
        new, events = self.game.talk(self.state, speaker, channel, text, name=name)
        step = Step(speaker, talk=TalkLine(speaker, name, channel, text))
        await self._commit(step, new, events, ack=(conn, rid))

    def _seat_of(self, conn: Conn) -> int:
        if conn not in self.conns:
            raise Refused("forbidden", f"you hold no seat at table {self.id}")
        seat = self.conns[conn]
        if seat is None:
            raise Refused("forbidden", "spectators cannot act")
        return seat

    async def _settle(self) -> None:
        """Draw chance and let built-in bots move until a remote seat must decide; finish."""
        while self.status == "playing":
            acting = self.game.to_act(self.state)
            if not acting:
                await self._finish()
                return
            if CHANCE in acting:
                rng = make_rng(self.seed, "chance", self.version)
                action = self.game.sample_chance(self.state, rng)
                new, events = self.game.apply(self.state, CHANCE, action)
                await self._commit(Step(CHANCE, action=self.game.dump_action(action)), new, events)
                continue
            bot_seats = [s for s in sorted(acting) if s in self.bots]
            if not bot_seats:
                return
            await self._bot_move(bot_seats[0])

    async def _bot_move(self, seat: int) -> None:
        bot = self.bots[seat]
        rng = make_rng(self.seed, "bot", seat, self.version)
        await self._bot_chat(seat, bot, rng)
        view = self.game.view(self.state, seat)
        legal = self.game.legal_actions(self.state, seat)
        started = time.perf_counter()
        try:
            action = await asyncio.wait_for(
                asyncio.to_thread(bot.act, view, legal, rng), self.time_limit
            )
        except Exception as exc:
            reason = "timeout" if isinstance(exc, TimeoutError) else "error"
            await self._default(seat, reason, f"{type(exc).__name__}: {exc}"[:500])
            return
        ms = round((time.perf_counter() - started) * 1000, 3)
        try:
            action = self.game.parse_action(action)
            new, events = self.game.apply(self.state, seat, action)
        except GameError as exc:
            await self._default(seat, "illegal", f"{action!s}: {exc}"[:500])
            return
        await self._commit(Step(seat, action=self.game.dump_action(action), ms=ms), new, events)

    async def _bot_chat(self, seat: int, bot: Bot, rng: random.Random) -> None:
        """A built-in bot may talk before it acts (as in the arena); bad lines are dropped."""
        channels = self.game.talk_channels(self.state, seat)
        if not channels or type(bot).chat is Bot.chat:
            return
        try:
            lines = list(bot.chat(self.game.view(self.state, seat), channels, rng))
        except Exception as exc:
            self.hub.log(f"table {self.id}: bot {seat} chat: {exc!r}")
            return
        assert self.row.players is not None
        name = self.row.players[seat]
        for channel, text in lines[:5]:
            try:
                new, events = self.game.talk(self.state, seat, channel, text, name=name)
            except GameError:
                continue
            await self._commit(Step(seat, talk=TalkLine(seat, name, channel, text)), new, events)

    async def _default(self, seat: int, reason: str, note: str) -> None:
        new, events = self.game.apply_default(self.state, seat)
        await self._commit(Step(seat, default=reason, note=note), new, events)

    def _next_deadline(self) -> float:
        if self.status != "playing" or not self.deadline:
            return float("inf")
        return min(self._effective_deadline(s) for s in self.deadline)

    def _effective_deadline(self, seat: int) -> float:
        deadline = self.deadline[seat]
        if seat in self.away_since:
            # gone for the grace period: this decision defaults now, and so does every later
            # one until the seat returns
            away = max(self.due_at.get(seat, 0.0), self.away_since[seat] + self.grace)
            return min(deadline, away)
        return deadline

    async def _expire(self) -> None:
        now = time.time()
        for seat in sorted(self.deadline):
            if self.status != "playing" or seat not in self.deadline:
                continue
            if self._effective_deadline(seat) > now:
                continue
            if seat in self.away_since and self.deadline[seat] > now:
                reason, note = "absent", f"away for {now - self.away_since[seat]:.1f} s"
            else:
                reason = "timeout"
                note = f"no decision within {self.time_limit:g} s"
            await self._default(seat, reason, note)

    async def _commit(
        self,
        step: Step,
        new_state: Any,
        events: list[Event],
        *,
        ack: tuple[Conn, p.Id] | None = None,
    ) -> None:
        """Store the step, then apply it and tell everyone (nothing is broadcast unstored)."""
        await self.hub.store.append_step(self.id, self.version, step)
        before = self.game.to_act(self.state)
        self.state = new_state
        self.version += 1
        self.actions += 1
        entry = LogEntry(self.version, _kind(step), step.seat, step.default, events)
        self.log.append(entry)
        if step.talk is None:
            self._update_due(set(before), step.seat)
        for seat, bot in self.bots.items():
            seen = [e for e in events if e.visible_to(seat)]
            if seen:
                try:
                    bot.observe(seen)
                except Exception as exc:  # a bot's bookkeeping never stops a table
                    self.hub.log(f"table {self.id}: bot {seat} observe: {exc!r}")
        self._broadcast(entry, ack)
        if step.talk is None:
            for seat in self.deadline:
                if self.decision.get(seat) == self.version and self._connected(seat):
                    for conn, role in list(self.conns.items()):
                        if role == seat:
                            conn.send(self._turn_msg(seat))

    def _update_due(self, before: set[int], actor: int | None) -> None:
        """New decisions get a deadline; a decision that continues keeps its own."""
        now = time.time()
        acting = self.game.to_act(self.state) if self.state is not None else frozenset()
        remote = set(self._remote_seats())
        for seat in list(self.deadline):
            if seat not in acting:
                del self.deadline[seat]
                self.due_at.pop(seat, None)
                self.decision_state.pop(seat, None)
        for seat in acting:
            if seat not in remote:
                continue
            # In a sealed simultaneous step another seat's submission does not change this
            # seat's decision: its deadline, and the version its answer may name, stay.
            if seat not in self.deadline or seat == actor or seat not in before:
                self.deadline[seat] = now + self.time_limit
                self.due_at[seat] = now
                self.decision[seat] = self.version
                self.decision_state[seat] = self.state

    async def _finish(self) -> None:
        outcome = to_json(self.game.outcome(self.state))
        results = []
        updates: list[tuple[str, str, str, Any]] = []
        per_seat = outcome.get("detail", {}).get(HOST_ACCOUNTS)
        name = self.game.spec.name
        for seat, spec in enumerate(self.row.seats):
            if spec["kind"] != "player":
                continue
            ranks, scores = outcome["ranks"], outcome["scores"]
            result = "loss" if ranks[seat] != 1 else ("draw" if ranks.count(1) > 1 else "win")
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
            self.hub.store.store.finish_table, self.id, outcome, results, updates
        )
        self.status = self.row.status = "finished"
        self.outcome = self.row.outcome = outcome
        self.deadline.clear()
        end = p.End(table=self.id, version=self.version, outcome=outcome)
        for conn in list(self.conns):
            conn.send(end)
        self.hub.finished(self)

    # --- messages ---------------------------------------------------------------------------
    def _broadcast(self, entry: LogEntry, ack: tuple[Conn, p.Id] | None) -> None:
        cache: dict[int | None, bytes] = {}
        for conn, role in list(self.conns.items()):
            if ack is not None and conn is ack[0] and ack[1] is not None:
                conn.send(self._event_msg(entry, role, ack[1]))
                continue
            if role not in cache:
                cache[role] = p.encode(self._event_msg(entry, role))
            conn.send_raw(cache[role])

    def _broadcast_table(self) -> None:
        msg = p.encode(p.TableMsg(table=self.info()))
        for conn in list(self.conns):
            conn.send_raw(msg)

    def _event_msg(self, entry: LogEntry, role: int | None, rid: p.Id = None) -> p.EventMsg:
        return p.EventMsg(
            id=rid,
            table=self.id,
            version=entry.version,
            step=entry.step,  # type: ignore[arg-type]
            seat=entry.seat,
            reason=entry.reason,
            events=[
                p.EventData(kind=e.kind, text=e.text, data=e.data)
                for e in entry.events
                if e.visible_to(role)
            ],
        )

    def _view_msg(self, seat: int | None, rid: p.Id) -> p.ViewMsg:
        view = None if self.state is None else self.game.view(self.state, seat)
        to_act = [] if self.state is None else sorted(self.game.to_act(self.state))
        channels = [] if self.state is None else sorted(self.game.talk_channels(self.state, seat))
        return p.ViewMsg(
            id=rid,
            table=self.id,
            version=self.version,
            seat=seat,
            status=self.status,
            view=view,
            to_act=to_act,
            channels=channels if self.status == "playing" else [],
        )

    def _turn_msg(self, seat: int) -> p.Turn:
        version = self.decision.get(seat, self.version)
        state = self.decision_state.get(seat, self.state)
        legal = self.game.legal_actions(state, seat)
        listed: list[dict[str, Any]] | None = None
        description = sample = None
        if isinstance(legal, LazyActions) or len(legal) > LIST_LEGAL_UP_TO:
            description = getattr(legal, "description", None) or None
            rng = random.Random(version * 1000 + seat)
            picks = sorted(rng.sample(range(len(legal)), min(20, len(legal))))
            sample = [self.game.dump_action(legal[i]) for i in picks]
        else:
            listed = [self.game.dump_action(a) for a in legal]
        return p.Turn(
            table=self.id,
            version=version,
            seat=seat,
            view=self.game.view(state, seat),
            legal=listed,
            legal_count=len(legal),
            legal_description=description,
            legal_sample=sample,
            channels=sorted(self.game.talk_channels(self.state, seat)),
            deadline=round(self.deadline[seat], 3),
            time_limit=round(self.deadline[seat] - time.time(), 3),
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
                seats.append(p.SeatInfo(seat=i, kind="open"))
        return p.TableInfo(
            id=self.id,
            game=self.game.spec.name,
            status=self.status,  # type: ignore[arg-type]
            rules=to_json(self.rules),
            seats=seats,
            version=self.version,
            spectators=sum(1 for r in self.conns.values() if r is None),
            time_limit=self.time_limit,
            outcome=self.outcome,
        )


def _kind(step: Step) -> str:
    if step.talk is not None:
        return "talk"
    if step.default is not None:
        return "default"
    return "chance" if step.seat == CHANCE else "action"


__all__ = ["Action", "LogEntry", "Refused", "TableActor", "error_code"]
