"""A UECda client's socket as a seat connection of the host (docs/games/daifugo.md, "UECda").

:class:`UecdaSeat` is a :class:`~dennou.server.connection.QueuedConnection` like a WebSocket's:
the table sends it the same messages (``joined``, ``view``, ``event``, ``turn``, ``end``), and
it turns them into protocol 20070 as tndhms sends it:

- ``joined``: the player number (the seat).
- the deal (a ``chance`` event with ``deal``): the hand table, with ``[5][1]`` = the cards to
  give back for 大富豪 and 富豪 (their hands with the tribute added; 大貧民 and 貧民 get their
  hands as dealt). Those two owe a table of the cards they give back.
- the start of every turn (after the last exchange step and after every play): each player's
  own table (hand and state); the player with ``[5][2] = 1`` owes its play.
- every play or pass: 9 (accepted) or 8 (rejected: a pass) to the player who made it, then to
  everyone the field table and 0 (go on), 1 (this game is over) or 2 (every game is over). As
  tndhms does, a pass on a field with cards is answered 8, and one on an empty field 9.

What the client sends back is read in its own task, exactly 480 bytes at a time, and matched in
order to what it owes. It becomes the seat's ``act`` once its decision is due (``turn``). A play
the rules refuse, or a malformed table, is the rules' default (a pass; the record says
``default: illegal``), answered 8. A client that does not answer within the table's clock gets
the default too (8 for a play; its late table is read and dropped when it comes); one silent
for three clocks while it owes a table, or that closes its socket, is disconnected, and its seat
is absent: its decisions default (pass) from then on, as a dead client passes.

The table's state after each step is read from its actor at the moment the step is broadcast
(the actor stores a step, then sets its state, then broadcasts), as the part of the seat's view
the tables need (``table_view``): the translation uses only views and events, the engine's
public face.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dennou.core.errors import DennouError, GameError, GameOverError, NotYourTurnError
from dennou.games.daifugo.views import table_view
from dennou.server import protocol as p
from dennou.server.connection import QueuedConnection
from dennou.uecda import wire

if TYPE_CHECKING:
    from dennou.server.table import TableActor

JSON = dict[str, Any]

STALLED_CLOCKS = 3.0
"""A client silent for this many of the table's clocks while it owes a table is dropped."""

EARLY_TABLES = 4
"""Tables read ahead of what the client owes (more wait in its socket: bounded memory)."""


@dataclass
class Owed:
    """A table the client owes: its cards to give back (``exchange``) or its play."""

    kind: str
    late: bool = False
    """Its decision was settled without it (defaulted): the table is read and dropped."""


class UecdaSeat(QueuedConnection):
    """One UECda client at one table.

    Args:
        reader: The socket's reader.
        writer: The socket's writer.
        address: The client's address.
        max_bytes: Bytes queued for the client at most (it must keep reading).
        log: Where to note what the client did wrong.
    """

    structured = True

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        address: str,
        max_bytes: int,
        log: Callable[[str], None],
    ) -> None:
        async def send_bytes(data: bytes) -> None:
            writer.write(data)
            await writer.drain()

        async def close(code: int, reason: str) -> None:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

        super().__init__(send_bytes, close, max_bytes=max_bytes, address=address)
        self.reader = reader
        self.writer = writer
        self.note = log
        self.name = ""
        self.seat: int | None = None
        self.actor: TableActor | None = None
        self.view: JSON | None = None
        """The seat's view after the last step it was told about."""
        self.stage: list[str] = []
        """The top of the field as the protocol shows it (the last play since the flush)."""
        self.owed: deque[Owed] = deque()
        self.decision: int | None = None
        """The version of the seat's decision now due (from its ``turn``), if any."""
        self.ready: tuple[Owed, JSON | None, str] | None = None
        """An answer read before its decision was due: (what it answers, action, note)."""
        self.done = False
        """The table is over: no more answers are read."""
        self.eof = False
        self._wake = asyncio.Event()
        self._tables: asyncio.Queue[bytes | None] = asyncio.Queue(EARLY_TABLES)
        self._reading: asyncio.Task[None] | None = None
        self._acting: set[asyncio.Task[None]] = set()

    # --- messages from the table ----------------------------------------------------------
    def send(self, message: p.ServerMessage) -> None:
        """Translate a table's message into protocol 20070 (never raises into the table)."""
        if self.closed:
            return
        try:
            if isinstance(message, p.EventMsg):
                self._event(message)
            elif isinstance(message, p.Turn):
                self._turn(message)
            elif isinstance(message, p.Joined):
                self._joined(message)
            elif isinstance(message, p.ViewMsg):
                self._resumed(message)
            elif isinstance(message, p.End):
                self._over()
        except Exception as exc:  # a bug here must not reach the table: drop this client
            self.note(f"{self.name}: cannot translate {type(message).__name__}: {exc!r}")
            self._drop()

    def _joined(self, msg: p.Joined) -> None:
        if msg.seat is None or self.seat is not None:
            return
        self.seat = msg.seat
        self.actor = self.tables.get(msg.table)
        self.send_raw(wire.encode_int(msg.seat))  # the player number, before anything else

    def _resumed(self, msg: p.ViewMsg) -> None:
        """A view on joining: a table starting (phase ``deal``) or one already playing."""
        view = msg.view
        if view is None or self.seat is None:
            return
        first = self.view is None
        self.view = view
        if not first or view["phase"] not in ("play", "exchange"):
            return
        # Back at a table already playing (a server restart, a client reconnecting): the
        # stream starts as a game does, from the hand as it is now.
        self.stage = list(view["layout"]["cards"]) if view["layout"] else []
        self._send_table(wire.deal_table(view, self.seat, view["hand"], view["counts"]))
        if wire.gift_due(view, self.seat):
            self._owe("exchange")
        if view["phase"] == "play":
            self._send_turn(view)

    def _turn(self, msg: p.Turn) -> None:
        self.decision = msg.version
        if self.ready is not None:
            self._submit()

    def _over(self) -> None:
        self.done = True
        self._wake.set()

    def _event(self, msg: p.EventMsg) -> None:
        before = self.view
        after = self._current_view()
        self.view = after
        if before is None or after is None or self.seat is None:
            return
        kinds = {e.kind for e in msg.events}
        if msg.step == "end":  # resigned, aborted or claimed: the protocol cannot say it
            self._over()
            return
        if msg.step == "chance":
            if "deal" in kinds:
                self._deal(msg, after)
            elif "places" in kinds:  # 千日手: the places were drawn, the game is over
                self._send_int(wire.ALL_OVER if "set_end" in kinds else wire.GAME_OVER)
            return
        if msg.step not in ("action", "default"):
            return
        mine = msg.seat == self.seat
        if before["phase"] == "exchange":
            if mine:
                self._settled(msg, "exchange")
            if after["phase"] == "play":
                self._send_turn(after)
        elif before["phase"] == "play":
            if mine:
                self._settled(msg, "play")
                self._send_int(_answer(msg, before))
            self._field(before, msg)
            if "game_end" in kinds:
                self._send_int(wire.ALL_OVER if "set_end" in kinds else wire.GAME_OVER)
            elif after["phase"] == "play":
                self._send_int(wire.GO_ON)
                self._send_turn(after)
            # phase "stalemate": the int waits for the drawn places

    def _current_view(self) -> JSON | None:
        actor = self.actor
        if actor is None or actor.state is None or self.seat is None:
            return None
        # The part of the seat's view its tables are made of (the whole view costs 4x more,
        # and every step needs one for each of the five seats).
        return table_view(actor.state, self.seat)

    def _deal(self, msg: p.EventMsg, after: JSON) -> None:
        """A game starts: the hand table (the exchange's givers owe their cards back)."""
        seat = self.seat
        assert seat is not None
        self.stage = []
        dealt: list[str] = list(after["hand"])
        counts: list[int] = list(after["counts"])
        for e in msg.events:
            if e.kind == "hand" and e.data.get("seat") == seat:
                dealt = list(e.data["cards"])
            elif e.kind == "deal":
                counts = list(e.data["counts"])
        due = wire.gift_due(after, seat)
        # 大富豪 and 富豪 see the tribute in their hands; the others, their hands as dealt.
        hand = after["hand"] if due else dealt
        self._send_table(wire.deal_table(after, seat, hand, counts))
        if due:
            self._owe("exchange")
        if after["phase"] == "play":
            self._send_turn(after)

    def _field(self, before: JSON, msg: p.EventMsg) -> None:
        """The field table after a play or a pass, as the play left it (before any flush)."""
        counts = list(before["counts"])
        play = next((e for e in msg.events if e.kind == "play"), None)
        actor = msg.seat if msg.seat is not None else before["turn"]
        if play is not None:
            cards = list(play.data["cards"])
            counts[actor] -= len(cards)
            self.stage = cards
            revolution = bool(play.data["revolution"])
            back = bool(play.data.get("back", before["back"]))
            lone_joker = len(cards) == 1 and cards[0].startswith("JK")
            lock = 0 if lone_joker else int(bool(play.data.get("lock")))
            empty = False
        else:
            revolution, back = bool(before["revolution"]), bool(before["back"])
            lock = wire.lock_flag(before)
            empty = before["layout"] is None
        table = wire.field_table(
            self.stage,
            actor=actor,
            empty_field=empty,
            back=back,
            revolution=revolution,
            lock=lock,
            counts=counts,
            classes=wire.classes(before, actor if counts[actor] == 0 else None),
            reverse=revolution != back,
        )
        self._send_table(table)
        if any(e.kind == "flush" for e in msg.events):
            self.stage = []

    def _send_turn(self, view: JSON) -> None:
        assert self.seat is not None
        self._send_table(wire.turn_table(view, self.seat))
        if view["turn"] == self.seat:
            self._owe("play")

    def _settled(self, msg: p.EventMsg, kind: str) -> None:
        """The seat's decision was made: by its answer, or by the rules' default."""
        self.decision = None
        if self.ready is not None:
            self.ready = None  # an answer that came too late to be used
        if msg.step == "default" and msg.reason in ("timeout", "absent"):
            for owed in self.owed:
                if owed.kind == kind and not owed.late:
                    owed.late = True  # its table may still come: it is read and dropped
                    break
            self.note(f"{self.name}: no answer in time ({kind}); the rules' default was applied")

    def _send_table(self, table: wire.Table) -> None:
        self.send_raw(wire.encode_table(table))

    def _send_int(self, value: int) -> None:
        self.send_raw(wire.encode_int(value))

    def _owe(self, kind: str) -> None:
        self.owed.append(Owed(kind))
        self._wake.set()

    # --- what the client sends --------------------------------------------------------------
    def start_reading(self) -> None:
        """Read the client's tables in the background (at most a few ahead)."""
        self._reading = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            while True:
                data = await self.reader.readexactly(wire.TABLE_BYTES)
                await self._tables.put(data)
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        finally:
            self.eof = True
            with contextlib.suppress(asyncio.QueueFull):
                self._tables.put_nowait(None)
            self._wake.set()

    def clock(self) -> float:
        """The table's seconds per decision."""
        return self.actor.clock if self.actor is not None else 10.0

    async def run(self) -> None:
        """Match the client's tables to what it owes until the table is over or it is gone."""
        while not self.closed:
            if self.owed:
                try:
                    data = await asyncio.wait_for(self._tables.get(), STALLED_CLOCKS * self.clock())
                except TimeoutError:
                    self.note(
                        f"{self.name}: silent for {STALLED_CLOCKS * self.clock():g} s while its "
                        f"{self.owed[0].kind} is due: disconnected (its seat passes)"
                    )
                    return
                if data is None:
                    self.note(f"{self.name}: closed its socket")
                    return
                self._answer(self.owed.popleft(), data)
                continue
            if self.done or self.eof:
                return
            self._wake.clear()
            if not (self.owed or self.done or self.eof or self.closed):
                await self._wake.wait()

    def _answer(self, owed: Owed, data: bytes) -> None:
        if owed.late:
            self.note(f"{self.name}: a late {owed.kind} table, dropped")
            return
        table = wire.decode_table(data)
        note = ""
        action: JSON | None
        try:
            if owed.kind == "exchange":
                action = {"type": "give", "cards": wire.cards_of_table(table)}
            else:
                cards = wire.play_of_table(table)
                action = {"type": "play", "cards": cards} if cards else {"type": "pass"}
        except wire.BadTable as exc:
            note = f"malformed table: {exc}"
            self.note(f"{self.name}: {note}")
            # A malformed exchange table gives no cards: the rules replace it by the strongest.
            action = {"type": "give", "cards": []} if owed.kind == "exchange" else None
        self.ready = (owed, action, note)
        if self.decision is not None:
            self._submit()

    def _submit(self) -> None:
        assert self.ready is not None
        _, action, note = self.ready
        version = self.decision
        self.ready = None
        task = asyncio.create_task(self._act(action, note, version))
        self._acting.add(task)
        task.add_done_callback(self._acting.discard)

    async def _act(self, action: JSON | None, note: str, version: int | None) -> None:
        actor = self.actor
        if actor is None:
            return
        try:
            if action is not None:
                await actor.call(actor.act, self, action, version, None)
                return
        except (NotYourTurnError, GameOverError):
            return  # settled otherwise meanwhile (the clock ran out)
        except GameError as exc:
            note = f"{exc.message} (sent {action})"
            self.note(f"{self.name}: refused: {note}")
        except DennouError:
            return  # stale: the decision moved on
        with contextlib.suppress(DennouError):
            await actor.call(actor.refuse, self, version, note[:500])

    # --- the end ----------------------------------------------------------------------------
    def _drop(self) -> None:
        self.closed = True
        self._wake.set()

    async def finish(self) -> None:
        """Stop reading; let what is queued reach the client (a few seconds), then close."""
        if self._reading is not None:
            self._reading.cancel()
        for task in list(self._acting):
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(task, 5)
        await self.drain(5)
        self.closed = True
        self.writer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.writer.wait_closed(), 2)


def _answer(msg: p.EventMsg, before: JSON) -> int:
    """The int answering a play, as tndhms answers it.

    9 for cards played and for a pass on an empty field; 8 for a play refused (or defaulted)
    and for a pass on a field with cards (tndhms judges it a play that does not beat the top,
    with the same effect: a pass).
    """
    if msg.step != "action":
        return wire.REJECTED
    played = any(e.kind == "play" for e in msg.events)
    return wire.ACCEPTED if played or before["layout"] is None else wire.REJECTED


__all__ = ["Owed", "UecdaSeat"]
