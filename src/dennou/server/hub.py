"""The hub: the tables of one server process, the lobby, and routing of client messages.

A client message is parsed and checked (size, JSON, depth, type, fields, rate) before anything
reaches a table, so that garbage never changes a table; it is then routed by its type to one
handler. Every refusal is an ``error`` message naming what was wrong, and a client that keeps
sending garbage is closed with 1008 (policy violation). Transports (the WebSocket, other
adapters) hand the hub a :class:`~dennou.server.connection.Connection` and raw messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from dennou import __version__
from dennou.arena.bots import host_bots
from dennou.arena.llm import model_seats
from dennou.core.errors import DennouError
from dennou.core.game import Game, rules_options
from dennou.core.jsondata import to_json
from dennou.core.registry import Registry
from dennou.server import protocol as p
from dennou.server.accounts import Accounts
from dennou.server.bots import BotPool
from dennou.server.connection import Check, Connection, QueuedConnection
from dennou.server.errors import STRIKES, Refused, error_body
from dennou.server.limits import Limits
from dennou.server.lobby import HOST_CLOCK, game_clock, has_host_clock, new_table
from dennou.server.table import TableActor
from dennou.server.work import Work
from dennou.store import AsyncStore

STRIKES_TO_CLOSE = 10
"""Protocol errors in a row after which a connection is closed with 1008."""

LISTED_OVER = 200
"""Finished or aborted tables the lobby lists (the newest; older ones are still there by id)."""

JANITOR_EVERY = 5.0
"""Seconds between sweeps for waiting tables nobody came back to."""

Handler = Callable[[Connection, Any], Awaitable[None]]


class Hub:
    """Accounts, lobby and tables of one server process.

    Args:
        store: The store.
        games: The games to host (default: the whole registry).
        limits: The host's limits.
        operators: Account names of the host's operators.
        quiet: Do not log to stderr.
    """

    def __init__(
        self,
        store: AsyncStore,
        games: Registry | None = None,
        *,
        limits: Limits | None = None,
        operators: frozenset[str] = frozenset(),
        quiet: bool = False,
    ) -> None:
        if games is None:
            from dennou.games import REGISTRY

            games = REGISTRY
        self.store = store
        self.games = games
        self.limits = limits or Limits()
        self.accounts = Accounts(store, self.limits, operators)
        self.bots = BotPool(
            self.limits.bot_workers,
            self.limits.bot_queue,
            self.log,
            seconds_per_minute=self.limits.bot_seconds_per_minute,
            overrun_grace=self.limits.bot_overrun_grace,
        )
        self.work = Work(self.limits.engine_workers)
        self.tables: dict[str, TableActor] = {}
        self.recent: deque[p.TableInfo] = deque(maxlen=50)
        self.over: dict[str, tuple[float, p.TableInfo]] = {}
        """The newest :data:`LISTED_OVER` finished or aborted tables, by id: their creation time
        and info when they ended. The lobby lists them whether or not their actor is in memory,
        so that a listing is the same before and after a restart."""
        self.quiet = quiet
        self.started = time.time()
        self.connections = 0
        """Open client connections."""
        self.by_address: Counter[str] = Counter()
        self.by_account: Counter[str] = Counter()
        self._loading: dict[str, asyncio.Future[TableActor]] = {}
        """Tables being loaded from the store (one load each, shared by its requests)."""
        self._loads = asyncio.Semaphore(self.limits.table_loads)
        self._creating: Counter[str] = Counter()
        """Per account, tables being created (counted against ``tables_per_account``)."""
        self.signed_in: dict[str, set[Connection]] = {}
        """Each account's open connections that said hello as it (for :meth:`push`)."""
        self.keep_finished = 600.0
        """Seconds a finished table's actor stays in memory."""
        self._janitor: asyncio.Task[None] | None = None
        self._games_info: list[p.GameInfo] | None = None
        self.check: Check | None = None
        self.deal_gates: list[Callable[[str], str | None]] = []
        """Checks a table must pass before anyone but its own players sees its deals (each answers
        why not, or ``None``): a duplicate tournament withholds a group's tables until the whole
        group is over. :meth:`withheld` applies them."""
        """Test mode: checks every message sent (see :mod:`dennou.server.checking`)."""
        self._handlers: dict[type[p.ClientMessage], Handler] = {
            p.Hello: self._hello,
            p.Ping: self._ping,
            p.ListGames: self._list_games,
            p.ListTables: self._list_tables,
            p.CreateTable: self._create_table,
            p.Join: self._join,
            p.Spectate: self._spectate,
            p.Leave: self._leave,
            p.Act: self._act,
            p.Talk: self._talk,
            p.Resume: self._resume,
            p.GetView: self._get_view,
            p.Resign: self._resign,
            p.Abort: self._abort,
            p.Claim: self._claim,
            p.Mute: self._mute,
        }
        self.uecda: Any = None
        """The UECda listener (:mod:`dennou.uecda.listener`) when the host runs one."""
        self.cluster: Any = None
        """This process's part of a cluster (:class:`dennou.server.cluster.Cluster`) when the
        host is one of many (``--broker``): it owns tables by lease and forwards the rest."""
        missing = set(p.CLIENT_MESSAGES) - set(self._handlers)
        assert not missing, f"no handler for {missing}"

    def withheld(self, table_id: str) -> str | None:
        """Why nobody but a table's own players may see its deals yet (``None``: they may).

        The one gate of every route that shows what was dealt at a table: its record and replay,
        spectating it (live or caught up from any version), its outcome in the lobby, and a
        tournament's tables and standings.
        """
        for gate in self.deal_gates:
            why = gate(table_id)
            if why is not None:
                return why
        return None

    def log(self, text: str) -> None:
        """Note something on stderr."""
        if not self.quiet:
            # a full disk that takes the log too must not stop the table that logs
            with contextlib.suppress(OSError, ValueError):
                print(f"dennou: {text}", file=sys.stderr, flush=True)

    # --- lifecycle --------------------------------------------------------------------------
    async def start(self) -> None:
        """Reload every unfinished table from the store and start its actor.

        A table that cannot be read or resumed is logged and skipped: one bad row never keeps
        the server (or the other tables) down.
        """
        self.loop = asyncio.get_running_loop()
        self.bots.warm()
        store = self.store.store
        bad: list[tuple[str, str]] = []
        # in a cluster, the tables nobody owns are taken by lease (Cluster), not all at once
        rows = (
            await self.store.call(store.tables, ["waiting", "playing"], 100_000, bad=bad)
            if self.cluster is None
            else []
        )
        for row in rows:
            try:
                game = self.games[row.game]
                steps = await self.store.call(store.steps, row.id)
                actor = TableActor(self, row, game, steps)
            except Exception as exc:
                self.log(f"cannot resume table {row.id}: {exc!r}")
                continue
            self.tables[row.id] = actor
            actor.start()
        over = await self.store.call(store.tables, ["finished", "aborted"], LISTED_OVER, bad=bad)
        for row in over:
            try:
                info = TableActor(self, row, self.games[row.game]).info()
            except Exception as exc:  # a game no longer hosted, or another engine version
                self.log(f"not listing table {row.id}: {exc!r}")
                continue
            self.over[row.id] = (row.created_at, info)
            if row.status == "finished" and len(self.recent) < 50:
                self.recent.append(info)
        for table_id, reason in bad:
            self.log(f"cannot read table {table_id}: {reason}")
        if rows:
            self.log(f"resumed {len(self.tables)} tables")
        self._janitor = asyncio.create_task(self._sweep(), name="dennou-janitor")

    async def stop(self) -> None:
        """Stop every actor and the bot workers."""
        if self._janitor is not None:
            self._janitor.cancel()
        for actor in list(self.tables.values()):
            await actor.stop()
        await self.bots.close()
        self.work.close()

    def finished(self, actor: TableActor) -> None:
        """A table is over: remember it for the lobby and the status page; drop its actor later."""
        info = actor.info()
        self.recent.appendleft(info)
        self.over[actor.id] = (actor.row.created_at, info)
        if len(self.over) > LISTED_OVER:
            oldest = min(self.over, key=lambda t: self.over[t][0])
            del self.over[oldest]
        asyncio.get_running_loop().call_later(self.keep_finished, self._evict, actor)

    def _evict(self, actor: TableActor) -> None:
        # A finished table lives on in the store; a later request reloads it on demand.
        if self.tables.get(actor.id) is actor and actor.status in ("finished", "aborted"):
            del self.tables[actor.id]
            for conn in list(actor.conns):
                conn.tables.pop(actor.id, None)
            if actor.task is not None:
                actor.task.cancel()

    async def _sweep(self) -> None:
        """Close waiting tables that nobody has been connected to for the time to live."""
        while True:
            await asyncio.sleep(min(JANITOR_EVERY, self.limits.waiting_table_ttl / 2))
            now = time.time()
            for actor in list(self.tables.values()):
                if actor.status == "waiting" and actor.idle_since is not None:
                    with contextlib.suppress(Exception):
                        await actor.call(actor.expire, now)

    # --- accounts and connections -----------------------------------------------------------
    async def register(
        self, name: str, address: str = "", password: str | None = None, *, token: bool = True
    ) -> tuple[str, str | None]:
        """Create an account; returns its name and first API token (see :class:`Accounts`)."""
        return await self.accounts.register(name, address, password, token=token)

    async def authenticate(self, token: str) -> str | None:
        """The account of a token, or ``None``."""
        return await self.accounts.authenticate(token)

    def talk_allowed(self, account: str) -> bool:
        """Whether ``account`` may say one more line now."""
        return self.accounts.talk_allowed(account)

    def connect(self, conn: Connection) -> None:
        """A client connected.

        Raises:
            Refused: ``limit_reached``: too many connections from its address.
        """
        if self.by_address[conn.address] >= self.limits.connections_per_address:
            raise Refused(
                "limit_reached",
                f"at most {self.limits.connections_per_address} connections per address",
            )
        self.by_address[conn.address] += 1
        self.connections += 1

    async def disconnected(self, conn: Connection) -> None:
        """A connection closed: detach it from its tables, release its counts."""
        conn.closed = True
        if self.cluster is not None:
            await self.cluster.disconnected(conn)
        self.connections -= 1
        self.by_address[conn.address] -= 1
        if self.by_address[conn.address] <= 0:
            del self.by_address[conn.address]
        if conn.account is not None and conn.hello:
            self.by_account[conn.account] -= 1
            if self.by_account[conn.account] <= 0:
                del self.by_account[conn.account]
            self._sign_out(conn, conn.account)
        for actor in list(conn.tables.values()):
            try:
                await actor.call(actor.detach, conn)
            except Exception as exc:  # the actor is stopping
                self.log(f"detach from {actor.id}: {exc!r}")

    def _sign_out(self, conn: Connection, account: str) -> None:
        conns = self.signed_in.get(account)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.signed_in[account]

    def push(self, account: str, message: p.ServerMessage) -> int:
        """Send ``message`` to every open connection signed in as ``account``; returns how many."""
        # an adapter of another protocol (UECda) has no such message: it is not told
        conns = [c for c in self.signed_in.get(account, ()) if not c.closed and not c.structured]
        for conn in conns:
            conn.send(message)
        if self.cluster is not None:
            self.cluster.push(account, message)
        return len(conns)

    # --- lobby ------------------------------------------------------------------------------
    def game(self, name: str) -> Game[Any, Any]:
        """A hosted game by name (``not_found`` otherwise)."""
        if name not in self.games:
            raise Refused("not_found", f"no game {name!r}; games: {', '.join(self.games)}")
        return self.games[name]

    def game_clock(self, game: Game[Any, Any]) -> float:
        """The game's clock when a table sets none."""
        return game_clock(game, self.limits)

    def engine_versions(self) -> dict[str, int]:
        """Each hosted game's engine version (``welcome`` names them)."""
        return {name: self.games[name].spec.version for name in self.games}

    def games_info(self) -> list[p.GameInfo]:
        """Every hosted game, its rules options and bots (built once: it never changes)."""
        if self._games_info is None:
            self._games_info = self._make_games_info()
        return self._games_info

    def _make_games_info(self) -> list[p.GameInfo]:
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
                    # the clock is the table's option (``time_limit`` below), never a rules one
                    rules=[
                        p.RulesOption(name=n, type=t, default=to_json(d), description=desc)
                        for n, t, d, desc in rules_options(game.rules_type)
                        if not (n == HOST_CLOCK and has_host_clock(game))
                    ],
                    bots=host_bots(game),
                    talk=spec.talk,
                    hidden_information=spec.hidden_information,
                    time_limit=self.game_clock(game),
                    board=spec.board,
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
        *,
        seed: int | None = None,
        host_made: bool = False,
    ) -> tuple[TableActor, int | None]:
        """Create a table; returns it and the seat the creator takes (``me``), if any.

        Everything is checked before anything is stored.

        Args:
            account: The creator (``None``: refused).
            game_name: The game.
            rules: Rules options.
            seats: Seat specs.
            options: Table options (a client's ``seed`` only as :mod:`~dennou.server.lobby`
                allows).
            seed: Server-side code only (tournaments' duplicate deals): the table's seed, never
                taken from a client. The seed is published in the record after the game.
            host_made: Server-side code only (the UECda listener): the host makes the table for
                people who cannot ask for one, so no per-account limit applies.
        """
        if account is None:
            raise Refused("unauthorized", "sign in with a token to create a table")
        with contextlib.nullcontext() if host_made else self.table_slot(account):
            if self.cluster is not None and not host_made:  # and on the whole site
                async with self.cluster.table_slot(account):
                    return await self._create_table_row(
                        account, game_name, rules, seats, options, seed
                    )
            return await self._create_table_row(account, game_name, rules, seats, options, seed)

    def open_tables_of(self, account: str) -> int:
        """Tables ``account`` created that are waiting or playing, and those being created."""
        return self._creating[account] + sum(
            1
            for a in self.tables.values()
            if a.row.created_by == account and a.status in ("waiting", "playing")
        )

    def model_seats_of(self, account: str) -> int:
        """Seats of declared language models on tables ``account`` created, waiting or playing."""
        return sum(
            model_seats(a.row.seats)
            for a in self.tables.values()
            if a.row.created_by == account and a.status in ("waiting", "playing")
        )

    def check_model_seats(self, account: str, seats: list[dict[str, Any]]) -> None:
        """Refuse ``seats`` if their model seats would pass ``model_seats_per_account``.

        Raises:
            Refused: ``limit_reached``.
        """
        adding = model_seats(seats)
        if not adding:
            return
        held = self.model_seats_of(account)
        if held + adding > self.limits.model_seats_per_account:
            raise Refused(
                "limit_reached",
                f"language-model seats: you hold {held} on open tables, this adds {adding}; "
                f"the limit is {self.limits.model_seats_per_account}",
            )

    @contextlib.contextmanager
    def table_slot(self, account: str) -> Iterator[None]:
        """Hold one of ``account``'s ``tables_per_account`` places while its table is made.

        Checked and taken at once, before the caller's first ``await``: concurrent requests see
        each other's places. Leave the block once the table is in :attr:`tables` (or was not
        made).

        Raises:
            Refused: ``limit_reached``: the account has that many tables already.
        """
        mine_open = self.open_tables_of(account)
        if mine_open >= self.limits.tables_per_account:
            raise Refused(
                "limit_reached",
                f"you have {mine_open} tables waiting or playing; the limit is "
                f"{self.limits.tables_per_account}",
            )
        self._creating[account] += 1
        try:
            yield
        finally:
            self._creating[account] -= 1
            if self._creating[account] <= 0:
                del self._creating[account]

    async def _create_table_row(
        self,
        account: str,
        game_name: str,
        rules: dict[str, Any],
        seats: list[str] | None,
        options: p.TableOptions,
        seed: int | None,
    ) -> tuple[TableActor, int | None]:
        game = self.game(game_name)
        row, mine = new_table(
            game,
            account,
            rules,
            seats,
            options,
            limits=self.limits,
            operator=self.accounts.is_operator(account),
            seed=seed,
        )
        self.check_model_seats(account, row.seats)  # before the first await, like the slot
        actor = TableActor(self, row, game)  # everything is checked before the row is stored
        if self.cluster is not None:  # leased before it exists: nobody else takes it up
            await self.cluster.take(row.id)
        await self.store.call(self.store.store.create_table, row)
        self.tables[row.id] = actor
        actor.start()
        return actor, mine

    async def actor(self, table_id: str) -> TableActor:
        """A table's actor (finished tables are loaded from the store on demand).

        A table not in memory is read and replayed on a worker thread, never on the event loop
        (a long game's replay would hold every other client), at most ``table_loads`` at once;
        concurrent requests for one table share one load.
        """
        if table_id in self.tables:
            return self.tables[table_id]
        loading = self._loading.get(table_id)
        if loading is None:
            loading = self._loading[table_id] = asyncio.ensure_future(self._load(table_id))
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(loading)

    async def _load(self, table_id: str) -> TableActor:
        if self.cluster is not None and not await self.cluster.is_owner(table_id):
            raise Refused("conflict", f"table {table_id} is hosted by another process of the site")
        row = await self.store.call(self.store.store.get_table, table_id)
        if row is None or row.game not in self.games:
            raise Refused("not_found", f"no table {table_id!r}")
        game = self.games[row.game]

        def restore() -> TableActor:
            # Read on this thread too: the store's writer thread keeps committing other tables.
            steps = self.store.store.steps(table_id)
            return TableActor(self, row, game, steps)

        async with self._loads:
            actor = await asyncio.to_thread(restore)
        if table_id in self.tables:  # made or loaded another way meanwhile
            return self.tables[table_id]
        self.tables[table_id] = actor
        actor.start()
        if self.cluster is not None and row.options.get("tournament") is not None:
            # a tournament's table is seated when made: whichever process runs it starts it
            await actor.call(actor.begin)
        if actor.status in ("finished", "aborted"):
            asyncio.get_running_loop().call_later(self.keep_finished, self._evict, actor)
        return actor

    async def table_info(self, table_id: str) -> p.TableInfo:
        """One table as the lobby shows it.

        In a cluster, a table another process runs is shown as its owner last published it (at
        most a second late), or as the store has it.

        Raises:
            Refused: ``not_found``: no such table.
        """
        if self.cluster is not None and table_id not in self.tables:
            known = self.cluster.lobby.get(table_id) or self.over.get(table_id)
            if known is not None:
                return known[1]
            try:
                return (await self.actor(table_id)).info()
            except Refused as exc:
                if exc.code != "conflict":
                    raise
            row = await self.store.call(self.store.store.get_table, table_id)
            if row is None or row.game not in self.games:
                raise Refused("not_found", f"no table {table_id!r}")
            return TableActor(self, row, self.games[row.game]).info()
        return (await self.actor(table_id)).info()

    def table_infos(
        self,
        game: str | None = None,
        status: str | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> tuple[list[p.TableInfo], int, int | None]:
        """One page of the tables in memory (in a cluster: on the site), newest first.

        Every unfinished table (all are in memory) and the newest :data:`LISTED_OVER` finished or
        aborted ones, whether their actor is in memory or not: the same before and after a
        restart. Returns the page, how many tables match in all, and the offset of the next page
        (``None``: the last).
        """
        size = min(limit or self.limits.page_size, self.limits.page_max)
        found: dict[str, tuple[float, p.TableInfo | TableActor]] = {
            a.id: (a.row.created_at, a)
            for a in self.tables.values()
            if a.status not in ("finished", "aborted")
        }
        for table_id, (created, info) in self.over.items():
            live = self.tables.get(table_id)
            found[table_id] = (created, live if live is not None else info)
        if self.cluster is not None:  # the other processes' tables too
            for table_id, (created, info) in self.cluster.lobby.items():
                if table_id not in found:
                    found[table_id] = (created, info)
        matching = []
        for created, item in found.values():
            name = item.game.spec.name if isinstance(item, TableActor) else item.game
            if (game is None or name == game) and (status is None or item.status == status):
                matching.append((created, item))
        matching.sort(key=lambda pair: pair[0], reverse=True)
        page = [
            item.info() if isinstance(item, TableActor) else item
            for _, item in matching[offset : offset + size]
        ]
        following = offset + size if offset + size < len(matching) else None
        return page, len(matching), following

    # --- messages ---------------------------------------------------------------------------
    async def handle(self, conn: Connection, raw: str | bytes) -> None:
        """Handle one client message (errors are answered, never raised)."""
        rid: p.Id = None
        table: str | None = None
        try:
            if isinstance(conn, QueuedConnection) and not conn.allow():
                raise Refused("rate_limited", f"more than {conn.rate:g} messages per second")
            data = p.decode_json(
                raw, max_bytes=self.limits.message_bytes, max_depth=self.limits.json_depth
            )
            if isinstance(data, dict):
                raw_id = data.get("id")
                rid = (
                    raw_id
                    if isinstance(raw_id, int | str) and not isinstance(raw_id, bool)
                    else None
                )
                table = data.get("table") if isinstance(data.get("table"), str) else None
            msg = p.decode_client(data)
            if not conn.hello and not isinstance(msg, p.Hello):
                raise Refused("hello_first", "send hello first")
            conn.strikes = 0
            try:
                if self.cluster is not None and await self.cluster.route(conn, msg, raw):
                    return  # its table's owner is another process: it answers
                await self._handlers[type(msg)](conn, msg)
            except DennouError:
                raise
            except Exception as exc:  # a bug: tell the client, keep the connection and tables
                self.log(f"internal error on {type(msg).__name__}: {exc!r}")
                raise Refused("internal", f"internal error: {type(exc).__name__}") from exc
        except DennouError as exc:
            body = error_body(exc)
            conn.send(p.Error(id=rid, table=table, **to_json(body)))
            if body["code"] in STRIKES:
                conn.strikes += 1
                if conn.strikes >= STRIKES_TO_CLOSE:
                    if isinstance(conn, QueuedConnection):
                        await conn.drain()
                    await conn.close(1008, f"{conn.strikes} bad messages in a row")

    def _attached(self, conn: Connection, table: str) -> TableActor:
        actor: TableActor | None = conn.tables.get(table)
        if actor is None:
            if table in self.tables:
                raise Refused("forbidden", f"you are not at table {table}; join or spectate")
            raise Refused("not_found", f"no table {table!r} (or you are not at it)")
        return actor

    async def _hello(self, conn: Connection, msg: p.Hello) -> None:
        if msg.protocol != p.PROTOCOL:
            raise Refused("bad_message", f"this server speaks protocol {p.PROTOCOL}")
        account = None
        if msg.token is not None:
            account = await self.authenticate(msg.token)
            if account is None:
                raise Refused("unauthorized", "unknown token")
        elif conn.session_token is not None:
            # a browser's session cookie (same-origin handshakes only); a stale one is a guest
            account = await self.accounts.session_account(conn.session_token)
        if account is not None:
            again = conn.hello and conn.account == account
            if not again and self.by_account[account] >= self.limits.connections_per_account:
                raise Refused(
                    "limit_reached",
                    f"at most {self.limits.connections_per_account} connections per account",
                )
        if self.cluster is not None:  # the site's limits, counted across its processes
            await self.cluster.admit(conn, account)
        # a second hello on a connection signs it in again (as another account, or a guest)
        if conn.hello and conn.account is not None:
            self.by_account[conn.account] -= 1
            if self.by_account[conn.account] <= 0:
                del self.by_account[conn.account]
            self._sign_out(conn, conn.account)
        if account is not None:
            self.by_account[account] += 1
            self.signed_in.setdefault(account, set()).add(conn)
        conn.account = account
        conn.hello = True
        conn.send(
            p.Welcome(
                id=msg.id,
                protocol=p.PROTOCOL,
                server="dennou",
                account=account,
                server_version=__version__,
                engines=self.engine_versions(),
            )
        )

    async def _ping(self, conn: Connection, msg: p.Ping) -> None:
        conn.send(p.Pong(id=msg.id))

    async def _list_games(self, conn: Connection, msg: p.ListGames) -> None:
        conn.send(p.Games(id=msg.id, games=self.games_info()))

    async def _list_tables(self, conn: Connection, msg: p.ListTables) -> None:
        page, total, following = self.table_infos(msg.game, msg.status, msg.limit, msg.offset)
        conn.send(p.Tables(id=msg.id, tables=page, total=total, next=following))

    async def _create_table(self, conn: Connection, msg: p.CreateTable) -> None:
        actor, mine = await self.create_table(
            conn.account, msg.game, msg.rules, msg.seats, msg.options
        )
        conn.send(p.TableMsg(id=msg.id, table=actor.info()))
        if mine is not None:
            await actor.call(actor.join, conn, mine, None, None)

    async def _join(self, conn: Connection, msg: p.Join) -> None:
        actor = await self.actor(msg.table)
        await actor.call(actor.join, conn, msg.seat, msg.version, msg.id)

    async def _spectate(self, conn: Connection, msg: p.Spectate) -> None:
        withheld = self.withheld(msg.table)
        if withheld is not None:
            raise Refused("forbidden", withheld)
        actor = await self.actor(msg.table)
        await actor.call(actor.spectate, conn, msg.version, msg.id)

    async def _leave(self, conn: Connection, msg: p.Leave) -> None:
        actor = self._attached(conn, msg.table)
        await actor.call(actor.leave, conn, msg.id)

    async def _act(self, conn: Connection, msg: p.Act) -> None:
        actor = self._attached(conn, msg.table)
        await actor.call(actor.act, conn, msg.action, msg.version, msg.id)

    async def _talk(self, conn: Connection, msg: p.Talk) -> None:
        actor = self._attached(conn, msg.table)
        await actor.call(actor.talk, conn, msg.channel, msg.text, msg.id)

    async def _resume(self, conn: Connection, msg: p.Resume) -> None:
        actor = self._attached(conn, msg.table)
        await actor.call(actor.resume, conn, msg.version, msg.id)

    async def _get_view(self, conn: Connection, msg: p.GetView) -> None:
        actor = self._attached(conn, msg.table)
        await actor.call(actor.get_view, conn, msg.id)

    async def _resign(self, conn: Connection, msg: p.Resign) -> None:
        actor = self._attached(conn, msg.table)
        await actor.call(actor.resign, conn, msg.id)

    async def _abort(self, conn: Connection, msg: p.Abort) -> None:
        actor = self._attached(conn, msg.table)
        await actor.call(actor.abort, conn, msg.id)

    async def _claim(self, conn: Connection, msg: p.Claim) -> None:
        actor = self._attached(conn, msg.table)
        await actor.call(actor.claim, conn, msg.id)

    async def _mute(self, conn: Connection, msg: p.Mute) -> None:
        actor = await self.actor(msg.table)  # an operator need not be at the table
        await actor.call(actor.mute, conn, msg.account, msg.muted, msg.id)


__all__ = ["Hub"]
