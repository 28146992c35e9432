"""The host's UECda port: protocol 20070 clients sit at ordinary dennou tables.

A client connects and sends its profile table (``[0][0] = 20070``, its name in row 1). The
listener seats it at the table now forming: a Daifugo table with the ``uecda`` rules preset and
five seats, created by the host (no account owns it) the first time a client comes. The client's
player number is its seat. The table starts once its five seats are filled; with ``bots`` given,
the seats no client took ``fill_after`` seconds after the first client came are given to those
built-in bots. Then the next client starts a new table.

Everything else is the table's: it is stored step by step, survives a restart (a UECda client
cannot resume, so its seat is absent and passes), and is watched and replayed like any other.
WebSocket clients may join the forming table too (it is listed in the lobby).

What a client gets wrong is logged and answered as tndhms does: a malformed or wrong-protocol
profile closes the connection; a bad play counts as a pass (8); a client that is silent too long
or closes its socket is gone and its seat passes.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dennou.core.actions import Action
from dennou.core.errors import DennouError
from dennou.games.daifugo.engine import forced_deal
from dennou.games.daifugo.state import DaifugoState
from dennou.server import protocol as p
from dennou.server.errors import Refused
from dennou.uecda import wire
from dennou.uecda.seat import UecdaSeat

if TYPE_CHECKING:
    from dennou.server.hub import Hub
    from dennou.server.table import TableActor

CREATOR = "uecda:host"
"""Who creates the UECda tables: not an account anyone can hold (``:`` is not in names)."""

ACCOUNT_PREFIX = "uecda:"
"""A UECda client's seat is held as ``uecda:<name>``: never a registered account's name."""

HANDSHAKE_SECONDS = 10.0
"""A client must send its profile table within this time of connecting."""


@dataclass
class UecdaOptions:
    """How the listener seats clients.

    Attributes:
        games: Games in each table's set (rules ``games``).
        bots: Built-in bot specs for the seats no client takes (``[]``: wait for five clients).
        fill_after: Seconds after a table's first client before the bots fill the other seats.
        time_limit: Seconds per decision for the clients (the table's clock).
        rules: More rules options on top of the ``uecda`` preset.
        deals: The hands each game of a set deals, by game then player (the operator's, to
            compare this server's messages with another server's for the same deals; ``[]``:
            shuffled as usual). A game past the list is shuffled.
    """

    games: int = 10
    bots: Sequence[str] = ()
    fill_after: float = 5.0
    time_limit: float = 10.0
    rules: dict[str, Any] = field(default_factory=dict)
    deals: Sequence[Sequence[Sequence[str]]] = ()


class UecdaListener:
    """Accepts UECda clients on a TCP port and seats them at the host's tables.

    Args:
        hub: The host's hub.
        host: The interface to listen on.
        port: The TCP port (0: any free port; :attr:`port` says which).
        options: How tables are made and filled.
        on_table: Called with each table once it starts (``dennou uecda-serve`` waits for them).
    """

    def __init__(
        self,
        hub: Hub,
        *,
        host: str = "127.0.0.1",
        port: int = wire.DEFAULT_PORT,
        options: UecdaOptions | None = None,
        on_table: Callable[[TableActor], None] | None = None,
    ) -> None:
        self.hub = hub
        self.host = host
        self.port = port
        self.options = options or UecdaOptions()
        self.on_table = on_table
        self.server: asyncio.Server | None = None
        self.forming: TableActor | None = None
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._seated: dict[str, dict[str, str]] = {}
        """The clients seated at each table not yet started: account -> address."""
        self._filling: dict[str, asyncio.Task[Any]] = {}
        """Each forming table's wait before its bots fill it (from its first client on)."""

    async def start(self) -> None:
        """Listen (the port is known once this returns)."""
        self.server = await asyncio.start_server(self._client, self.host, self.port)
        self.port = self.server.sockets[0].getsockname()[1]
        self.hub.log(f"UECda protocol {wire.PROTOCOL} on {self.host}:{self.port}")

    async def stop(self) -> None:
        """Stop accepting and drop the clients (their tables go on without them)."""
        if self.server is not None:
            self.server.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await task
        if self.server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 2)

    # --- one client ---------------------------------------------------------------------------
    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if peer else ""
        seat: UecdaSeat | None = None
        try:
            seat = await self._handshake(reader, writer, address)
            if seat is None:
                return
            await seat.run()
        except (ConnectionError, OSError, asyncio.IncompleteReadError):
            pass
        finally:
            self._tasks.discard(task)
            if seat is not None:
                actor = seat.actor
                with contextlib.suppress(Exception):
                    await self.hub.disconnected(seat)
                if actor is not None and seat.account is not None:
                    try:
                        await self._left(actor, seat.account)
                    except Exception as exc:  # the store failed: the table's grace frees it
                        self.hub.log(f"UECda {seat.account}: seat not given back: {exc!r}")
                with contextlib.suppress(Exception):
                    await seat.finish()
            else:
                writer.close()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(writer.wait_closed(), 2)

    async def _handshake(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, address: str
    ) -> UecdaSeat | None:
        try:
            data = await wire.read_exact(reader, wire.TABLE_BYTES, HANDSHAKE_SECONDS)
        except TimeoutError:
            self.hub.log(f"UECda {address}: no profile within {HANDSHAKE_SECONDS:g} s: closed")
            return None
        except asyncio.IncompleteReadError as exc:
            self.hub.log(f"UECda {address}: closed after {len(exc.partial)} bytes of its profile")
            return None
        protocol, name = wire.read_profile(wire.decode_table(data))
        if protocol != wire.PROTOCOL:
            self.hub.log(
                f"UECda {address}: protocol {protocol}, this server speaks {wire.PROTOCOL}: closed"
            )
            return None
        seat = UecdaSeat(
            reader,
            writer,
            address=address,
            max_bytes=self.hub.limits.send_queue_bytes,
            log=self.hub.log,
        )
        seat.name = name or "uecda"
        try:
            self.hub.connect(seat)
        except Refused as exc:
            self.hub.log(f"UECda {address}: {exc.message}: closed")
            await seat.close(1008, exc.message)
            return None
        seat.hello = False  # counted per address, not per account (there is no sign-in)
        try:
            await self._seat(seat)
        except DennouError as exc:
            self.hub.log(f"UECda {seat.name}: not seated: {exc.message}")
            await self.hub.disconnected(seat)
            await seat.close(1011, exc.message)
            return None
        seat.start_reading()
        return seat

    async def _seat(self, seat: UecdaSeat) -> None:
        """Seat a client at the forming table, under a name no open table has yet.

        A new table is made if there is none, or if the last seat of the forming one went to
        someone else (a WebSocket player) meanwhile; a client whose address already sits at
        ``uecda_tables_per_address`` tables not yet started, and would sit at one more, is
        refused.
        """
        async with self._lock:
            for attempt in range(2):
                actor = self.forming
                if actor is None or actor.status != "waiting" or not actor.open_seats():
                    self._check_forming(seat.address, None)
                    actor = await self._new_table()
                else:
                    self._check_forming(seat.address, actor)
                seat.account = self._free_account(seat.name)
                try:
                    await actor.call(actor.join, seat, None, None, None)
                except Refused as exc:
                    if exc.code != "conflict" or attempt:
                        raise
                    self.forming = None  # a WebSocket player took the last seat: a new table
                    continue
                seated = self._seated.setdefault(actor.id, {})
                seated[seat.account] = seat.address
                if actor.status != "waiting":
                    self._started(actor)
                elif len(seated) == 1 and self.options.bots:
                    self._filling[actor.id] = self._later(self._fill(actor))
                return

    def _check_forming(self, address: str, actor: TableActor | None) -> None:
        """Refuse a seat at ``actor`` (``None``: a new table) past the address's table limit."""
        at = set()
        for table_id, seated in list(self._seated.items()):
            found = self.hub.tables.get(table_id)
            if found is None or found.status != "waiting":
                del self._seated[table_id]  # started, closed or gone: not forming any more
            elif address in seated.values():
                at.add(table_id)
        limit = self.hub.limits.uecda_tables_per_address
        if (actor is None or actor.id not in at) and len(at) >= limit:
            raise Refused(
                "limit_reached",
                f"{address} sits at {len(at)} tables not yet started "
                f"(uecda_tables_per_address={limit})",
            )

    def _free_account(self, name: str) -> str:
        """``uecda:<name>``, or ``uecda:<name>.<k>`` if a table not over seats that name."""
        taken = {
            spec.get("name")
            for actor in self.hub.tables.values()
            if actor.status in ("waiting", "playing")
            for spec in actor.row.seats
            if spec["kind"] == "player"
        }
        account = ACCOUNT_PREFIX + name
        k = 1
        while account in taken:
            k += 1
            account = f"{ACCOUNT_PREFIX}{name}.{k}"
        return account

    async def _left(self, actor: TableActor, account: str) -> None:
        """A client is gone: before the start, its seat is given back at once.

        It cannot come back to it (the protocol has no resuming). A table nobody sits at any
        more waits for no bots; one the listener no longer forms is closed.
        """
        async with self._lock:
            seated = self._seated.get(actor.id)
            if seated is None or account not in seated:
                return  # the table started (or was closed): the seat is the game's
            del seated[account]
            if actor.status != "waiting":
                return
            try:
                await actor.call(actor.leave_seat, account)
            except Refused:
                return  # started meanwhile (a WebSocket player took the last seat)
            self.hub.log(f"UECda {account} left before the start: its seat is open again")
            nobody = not any(spec["kind"] == "player" for spec in actor.row.seats)
            if nobody and actor.id in self._filling:
                self._filling.pop(actor.id).cancel()  # the next client's arrival starts anew
            if nobody and actor is not self.forming:
                await actor.call(actor.close_waiting, None)
                self._seated.pop(actor.id, None)

    async def _new_table(self) -> TableActor:
        o = self.options
        rules = {"preset": "uecda", "games": o.games, **o.rules}
        actor, _ = await self.hub.create_table(
            CREATOR,
            "daifugo",
            rules,
            ["open"] * wire.PLAYERS,
            p.TableOptions(time_limit=o.time_limit),
            host_made=True,
        )
        if o.deals:
            actor.randomness.script = functools.partial(_scripted_deal, o.deals)
        self.forming = actor
        return actor

    async def _fill(self, actor: TableActor) -> None:
        await asyncio.sleep(self.options.fill_after)
        async with self._lock:
            self._filling.pop(actor.id, None)
            if actor.status != "waiting" or not self._seated.get(actor.id):
                return  # started, or everyone left: no table of bots alone
            await actor.call(actor.seat_bots, list(self.options.bots))
            if actor.status != "waiting":
                self._started(actor)

    def _started(self, actor: TableActor) -> None:
        if self.forming is actor:
            self.forming = None
        self._seated.pop(actor.id, None)
        if self.on_table is not None:
            self.on_table(actor)

    def _later(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task


def _scripted_deal(
    deals: Sequence[Sequence[Sequence[str]]], state: DaifugoState, draw: int
) -> Action | None:
    """The deal of ``deals`` due in ``state`` (``None``: not a deal, or past the list)."""
    if state.phase != "deal" or not 0 < state.game_no <= len(deals):
        return None
    return forced_deal(state, dict(enumerate(deals[state.game_no - 1])))


__all__ = ["ACCOUNT_PREFIX", "CREATOR", "UecdaListener", "UecdaOptions", "parse_bots"]


def parse_bots(text: str) -> list[str]:
    """Bot specs from ``greedy,montecarlo:playouts=200`` (checked against Daifugo's bots).

    Raises:
        ConfigError: An unknown bot or a bad option.
    """
    from dennou.arena.bots import resolve_bot
    from dennou.games import get

    specs = [s.strip() for s in text.split(",") if s.strip()]
    game = get("daifugo")
    for spec in specs:
        resolve_bot(game, spec)
    return specs


def read_deals(path: str) -> list[list[list[str]]]:
    """The deals of a ``--deals`` file: ``{"deals": [[cards of player 0..4] per game]}``.

    Raises:
        OSError: The file cannot be read.
        ValueError: Not JSON of that shape, or not five hands of the 53 cards between them.
    """
    import json

    from dennou.games.daifugo import cards as C

    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    deals = data.get("deals") if isinstance(data, dict) else None
    if not isinstance(deals, list):
        raise ValueError(f"{path}: no list of deals")
    out: list[list[list[str]]] = []
    for g, hands in enumerate(deals, 1):
        if not isinstance(hands, list) or len(hands) != wire.PLAYERS:
            raise ValueError(f"{path}: game {g}: not {wire.PLAYERS} hands")
        cards = (
            [c for hand in hands for c in hand] if all(isinstance(h, list) for h in hands) else []
        )
        codes = C.parse_cards(cards) if all(isinstance(c, str) for c in cards) else None
        if codes is None or sorted(codes) != sorted(C.deck(1)):
            raise ValueError(f"{path}: game {g}: the hands are not the 53 cards, each once")
        out.append([list(hand) for hand in hands])
    return out
