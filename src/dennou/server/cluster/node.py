"""One host process of a cluster: leases, forwarding and fan-out through Redis.

Each table is owned by one process at a time: the one holding its lease (a row of
``cluster_leases`` in the shared database, renewed every ``renew_every`` seconds and valid for
``lease_ttl``). The owner runs the table's actor as a lone host does (a step is stored, then
broadcast). A client connected to another process has its table messages forwarded to the owner
over Redis pub/sub, where a :class:`RemoteConnection` stands for it: the actor sees an ordinary
connection, and whatever it sends goes back to the client's process in one publish per process
and loop turn, in order.

A process that dies (SIGKILL) stops renewing: once its leases expire, the others take its
tables from the store (as a restarted host reloads them). Whoever takes a table announces it,
and the processes whose clients were routed to its old owner close those connections (1012) so
that the clients reconnect and catch up from the versions they saw. A process is gone when its
channel has no subscriber (Redis drops a dead process's subscriptions when its socket closes;
a slow process keeps them): a table's owner then drops that process's clients (their seats are
absent), and a message for it waits for its table's lease instead. Each process also keeps a
key ``SITE:alive:NAME`` (``alive_ttl``): the site's limits count its connections until it
expires.

Messages on the broker are a JSON header line, then the body (a client message as received,
or the messages for a process's connections, one per line after its connection's number).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import secrets
import socket
import threading
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

import msgspec

from dennou.server import protocol as p
from dennou.server.cluster.shared import SharedLimits
from dennou.server.connection import Connection
from dennou.server.errors import Refused

if TYPE_CHECKING:
    from dennou.server.hub import Hub

SITE = "dennou"
"""The default site: every Redis key and channel of a cluster starts with its site's name, so
that sites (and test runs) sharing one Redis never hear each other."""

RECONNECT = 1012
"""The close code for a client whose table moved to another process (service restart)."""


class RemoteConnection(Connection):
    """A client of another process, as a table's owner sees it.

    Args:
        cluster: This process's cluster.
        origin: The name of the process the client is connected to.
        cid: The connection's number there.
        account: The account it said hello as (``None``: a guest).
        address: Its address.
    """

    def __init__(
        self, cluster: Cluster, origin: str, cid: int, account: str | None, address: str
    ) -> None:
        super().__init__(account, address)
        self.cluster = cluster
        self.origin = origin
        self.cid = cid
        self.hello = True
        self.inbox: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.worker: asyncio.Task[None] | None = None

    def send(self, message: p.ServerMessage) -> None:
        """Send a message to the client through its process."""
        if not self.closed:
            self.send_raw(p.encode(message))

    def send_raw(self, data: bytes) -> None:
        """Send an encoded message to the client through its process."""
        if not self.closed:
            self.cluster.deliver(self.origin, self.cid, data)

    async def close(self, code: int, reason: str) -> None:
        """Have the client's process close the client's connection."""
        if not self.closed:
            self.closed = True
            header = {"k": "close", "c": self.cid, "code": code, "why": reason}
            self.cluster.publish(self.origin, header, b"")


class Cluster:
    """This process's part of the cluster.

    Args:
        hub: The hub of this process.
        url: The Redis URL (``redis://host:port/db``; a password in it if Redis needs one).
        lease_ttl: Seconds a lease lasts unrenewed.
        renew_every: Seconds between renewals (and the scans for tables nobody owns).
        name: This process's name in the cluster (default: host, pid and a random suffix).
        site: The site's name: the processes of one site share it (and its database).
    """

    def __init__(
        self,
        hub: Hub,
        url: str,
        *,
        lease_ttl: float = 3.0,
        renew_every: float = 1.0,
        name: str | None = None,
        site: str = SITE,
    ) -> None:
        import redis.asyncio as aioredis

        self.prefix = f"{site}:"
        self.hub = hub
        self.url = url
        self.lease_ttl = lease_ttl
        self.alive_ttl = max(10.0, 3 * lease_ttl)
        """Seconds this process's ``alive`` key lasts unrenewed: its connections count against
        the site's limits until then (a slow process must not lose them)."""
        self.renew_every = renew_every
        self.name = name or f"{socket.gethostname()[:32]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.redis: Any = aioredis.Redis.from_url(url)
        self.owned: set[str] = set()
        """Leases this process holds (table ids, and roles such as ``tournaments``)."""
        self.remote: dict[tuple[str, int], RemoteConnection] = {}
        """Clients of other processes at this process's tables, by (process, number)."""
        self.cids: dict[Connection, int] = {}
        self.by_cid: dict[int, Connection] = {}
        self.routes: dict[Connection, dict[str, str]] = {}
        """This process's clients at tables owned elsewhere: their tables and owners."""
        self._next_cid = 0
        self._out: dict[str, list[bytes]] = defaultdict(list)
        self._flushing = False
        self._queue: asyncio.Queue[list[tuple[str, bytes]]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: Any = None
        self._closing: set[asyncio.Task[None]] = set()
        self._renewer: threading.Thread | None = None
        self._stopping = threading.Event()
        self._renewed: asyncio.Queue[set[str]] = asyncio.Queue()
        self.forwarded = 0
        """Client messages this process forwarded to owners elsewhere."""
        self.shared = SharedLimits(self)
        self.lobby: dict[str, tuple[float, p.TableInfo]] = {}
        """Unfinished tables of the other processes, by id: their creation time and info (as
        their owners last published it, at most ``renew_every`` seconds late)."""
        self._marks: dict[str, tuple[Any, ...]] = {}
        self._ticks = 0
        self.peers: list[str] = [self.name]
        """The site's living processes (their ``alive`` keys), this one included, sorted; as
        of the last renewal."""
        self.handlers: dict[str, Callable[[dict[str, Any], bytes], Awaitable[None]]] = {}
        """Handlers of more kinds of broker message (header, body), by kind: the tournaments'
        ``tour``, the remote bots' ``bot``."""
        self.on_renew: list[Callable[[], Awaitable[None]]] = []
        """Called after each renewal (the tournaments take the drivers nobody runs)."""
        self._calls: dict[str, asyncio.Future[tuple[dict[str, Any], bytes]]] = {}
        self.on_lost: list[Callable[[str], Awaitable[None]]] = []
        """Called with a lease other than a table's that another process holds now."""
        hub.accounts.shared = self.shared

    # --- lifecycle ------------------------------------------------------------------------
    def channel(self, name: str) -> str:
        """The pub/sub channel of process ``name``."""
        return f"{self.prefix}node:{name}"

    async def start(self) -> None:
        """Subscribe, announce this process, and start renewing and claiming."""
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.channel(self.name), f"{self.prefix}all")
        await self._beat()
        await self._load_lobby()
        loop = asyncio.get_running_loop()
        self._renewer = threading.Thread(
            target=self._renew_leases, args=(loop,), name="cluster-renew", daemon=True
        )
        self._renewer.start()
        self._tasks = [
            asyncio.create_task(self._read(), name="cluster-read"),
            asyncio.create_task(self._send(), name="cluster-send"),
            asyncio.create_task(self._leases(), name="cluster-leases"),
        ]

    async def stop(self) -> None:
        """Give up this process's leases (the others take its tables at once) and disconnect."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._stopping.set()
        if self._renewer is not None:
            await asyncio.to_thread(self._renewer.join, 10)
        store = self.hub.store.store
        with contextlib.suppress(Exception):
            await asyncio.to_thread(store.release_leases, self.name)
        with contextlib.suppress(Exception):
            await self.redis.delete(f"{self.prefix}alive:{self.name}")
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _beat(self) -> None:
        await self.redis.set(f"{self.prefix}alive:{self.name}", b"1", px=int(self.alive_ttl * 1000))

    async def listening(self, names: list[str]) -> dict[str, bool]:
        """Which of the processes ``names`` are subscribed to their channel now.

        A process that dies (even SIGKILL) closes its socket, and Redis drops its subscriptions
        at once; a process that is merely slow (a loaded machine) stays subscribed.
        """
        if not names:
            return {}
        counts = await self.redis.pubsub_numsub(*[self.channel(n) for n in names])
        return {n: bool(c) for n, (_, c) in zip(names, counts, strict=True)}

    # --- leases ---------------------------------------------------------------------------
    async def take(self, name: str) -> str:
        """Take (or keep) the lease ``name``; returns its owner now (this process if taken)."""
        store = self.hub.store.store
        owner = await asyncio.to_thread(store.take_lease, name, self.name, self.lease_ttl)
        if owner == self.name and name not in self.owned:
            self.owned.add(name)
            # the others' clients still routed to its old owner reconnect (here, to this one)
            self.publish("*", {"k": "moved", "t": name, "o": self.name}, b"")
        return owner

    def _renew_leases(self, loop: asyncio.AbstractEventLoop) -> None:
        """Renew this process's leases and ``alive`` key, on a thread of its own.

        Off the event loop: a loop held up for seconds (a first compile of an engine's native
        code, a loaded machine) must not cost the process its tables; a process that is alive
        keeps them.
        """
        import redis

        client = redis.Redis.from_url(self.url)
        store = self.hub.store.store
        key = f"{self.prefix}alive:{self.name}"
        try:
            while not self._stopping.wait(self.renew_every):
                try:
                    client.set(key, b"1", px=int(self.alive_ttl * 1000))
                    held = store.renew_leases(self.name, self.lease_ttl)
                except Exception as exc:  # the database or Redis is away: try again next time
                    loop.call_soon_threadsafe(self.hub.log, f"cluster: cannot renew: {exc!r}")
                    continue
                loop.call_soon_threadsafe(self._renewed.put_nowait, held)
        finally:
            client.close()

    async def _leases(self) -> None:
        while True:
            held = await self._renewed.get()
            while not self._renewed.empty():  # behind: only the latest counts
                held = self._renewed.get_nowait()
            try:
                await self._renew(held)
            except Exception as exc:  # the database or Redis is away: try again next time
                self.hub.log(f"cluster: {exc!r}")

    async def _renew(self, held: set[str]) -> None:
        """What follows a renewal: lost and evicted leases, tables nobody owns, peers, lobby."""
        store = self.hub.store.store
        for lost in self.owned - held:
            # taken since that renewal began, or really another's: the database says which
            if await asyncio.to_thread(store.lease_owner, lost) != self.name:
                self.owned.discard(lost)
                await self._lose(lost)
        self.owned |= held & set(self.hub.tables)
        evicted = [n for n in held if n not in self.hub.tables and ":" not in n]
        if evicted:  # finished tables the hub let go of: anyone may load them again
            await asyncio.to_thread(store.release_leases, self.name, evicted)
            self.owned -= set(evicted)
        for table_id in await asyncio.to_thread(store.unowned_tables, 100):
            await self.adopt(table_id)
        await self._check_peers()
        self._publish_lobby()
        self.peers = await self._living()
        for hook in self.on_renew:
            try:
                await hook()
            except Exception as exc:  # the database is away: try again next time
                self.hub.log(f"cluster: {exc!r}")

    async def adopt(self, table_id: str) -> bool:
        """Take ``table_id``'s lease if nobody holds it and run the table here (from the store).

        Returns:
            Whether this process runs it now.
        """
        if await self.take(table_id) != self.name:
            return False
        try:
            await self.hub.actor(table_id)
        except Exception as exc:
            self.hub.log(f"cluster: cannot take over table {table_id}: {exc!r}")
            return False
        return True

    async def _living(self) -> list[str]:
        """The processes whose ``alive`` key exists (this one always)."""
        names = {self.name}
        start = len(f"{self.prefix}alive:")
        async for key in self.redis.scan_iter(match=f"{self.prefix}alive:*", count=1000):
            names.add(key.decode()[start:])
        return sorted(names)

    async def hand_over(self, table_id: str, to: str) -> bool:
        """Ask process ``to`` to run the stored table ``table_id``; ``False``: nobody heard.

        The table is in the store and leased by nobody: if ``to`` dies first, the next
        process to look for tables nobody owns runs it.
        """
        if to == self.name:
            return await self.adopt(table_id)
        header = {"k": "adopt", "t": table_id}
        return bool(await self.redis.publish(self.channel(to), _pack(header, b"")))

    async def cancel_table(self, table_id: str) -> None:
        """Have the owner of ``table_id`` cancel it (see ``TableActor.cancel``)."""
        actor = self.hub.tables.get(table_id)
        if actor is not None and table_id in self.owned:
            await actor.call(actor.cancel)
            return
        owner = await asyncio.to_thread(self.hub.store.store.lease_owner, table_id)
        if owner is not None:
            self.publish(owner, {"k": "cancel", "t": table_id}, b"")

    async def seat_call(
        self, table_id: str, op: str, account: str, seat: int | None = None
    ) -> p.TableInfo | None:
        """Have the owner of ``table_id`` take (``join``) or give up (``leave``) a seat over HTTP.

        Returns:
            The table's info after it, or ``None`` when nobody else owns the table (do it here).

        Raises:
            Refused: What the owner refused, or ``not_found`` when it did not answer.
        """
        owner = await asyncio.to_thread(self.hub.store.store.lease_owner, table_id)
        if owner is None or owner == self.name:
            return None
        ask = secrets.token_hex(8)
        future = self._calls[ask] = asyncio.get_running_loop().create_future()
        header = {"k": "call", "op": op, "t": table_id, "a": account, "s": seat}
        self.publish(owner, {**header, "id": ask, "p": self.name}, b"")
        try:
            reply, body = await asyncio.wait_for(future, 10 + self.lease_ttl)
        except TimeoutError:
            raise Refused("not_found", f"table {table_id} is moving; try again") from None
        finally:
            self._calls.pop(ask, None)
        if "code" in reply:
            raise Refused(reply["code"], str(reply["why"]))
        return msgspec.json.decode(body, type=p.TableInfo)

    async def _seat_called(self, header: dict[str, Any]) -> None:
        """Take or give up a seat for an HTTP caller of another process (``seat_call``)."""
        back = {"k": "reply", "id": header["id"]}
        try:
            actor = await self.hub.actor(str(header["t"]))
            account = str(header["a"])
            if header["op"] == "join":
                conn = Connection(account)  # no transport: the caller reads the table
                join = functools.partial(actor.join, present=False)
                await actor.call(join, conn, header["s"], None, None)
            else:
                await actor.call(actor.leave_seat, account)
            self.publish(str(header["p"]), back, msgspec.json.encode(actor.info()))
        except Refused as exc:
            self.publish(str(header["p"]), {**back, "code": exc.code, "why": str(exc)}, b"")

    def tell(self, kind: str, fields: dict[str, Any]) -> None:
        """Send every process (this one too) a message of ``kind`` for its handler."""
        self.publish("*", {**fields, "k": kind, "p": self.name}, b"")

    async def _load_lobby(self) -> None:
        """Start with every unfinished table in the store (their owners refresh them)."""
        from dennou.server.table import TableActor

        store = self.hub.store.store
        rows = await asyncio.to_thread(store.tables, ["waiting", "playing"], 10_000)
        for row in rows:
            if row.game in self.hub.games:
                with contextlib.suppress(Exception):
                    info = TableActor(self.hub, row, self.hub.games[row.game]).info()
                    self.lobby[row.id] = (row.created_at, info)

    def _publish_lobby(self) -> None:
        """Tell the other processes what changed at this process's tables since the last time.

        Every tenth time, every table: a process that joined late learns them all.
        """
        self._ticks += 1
        everything = self._ticks % 10 == 0
        changed = []
        for table_id, actor in self.hub.tables.items():
            mark = (actor.version, actor.status, len(actor.conns), id(actor.row.seats))
            if everything or self._marks.get(table_id) != mark:
                self._marks[table_id] = mark
                changed.append((actor.row.created_at, actor.info()))
        for gone in [t for t in self._marks if t not in self.hub.tables]:
            del self._marks[gone]
        if changed:
            self.publish("*", {"k": "lobby", "p": self.name}, msgspec.json.encode(changed))

    def _update_lobby(self, body: bytes) -> None:
        from dennou.server.hub import LISTED_OVER

        hub = self.hub
        for created, info in msgspec.json.decode(body, type=list[tuple[float, p.TableInfo]]):
            if info.status in ("finished", "aborted"):
                self.lobby.pop(info.id, None)
                hub.over[info.id] = (created, info)
                if len(hub.over) > LISTED_OVER:
                    del hub.over[min(hub.over, key=lambda t: hub.over[t][0])]
            else:
                self.lobby[info.id] = (created, info)

    async def _lose(self, table_id: str) -> None:
        """Another process holds a table this process ran (this one was too slow to renew)."""
        if ":" in table_id:  # a role, such as a tournament's driver
            for hook in self.on_lost:
                await hook(table_id)
            return
        actor = self.hub.tables.pop(table_id, None)
        if actor is None:
            return
        self.hub.log(f"cluster: table {table_id} is owned elsewhere now; its clients reconnect")
        await actor.stop()
        for conn in list(actor.conns):
            conn.tables.pop(table_id, None)
            await conn.close(RECONNECT, f"table {table_id} moved: reconnect")

    async def _check_peers(self) -> None:
        """Drop the clients of processes that are gone (their seats are absent now)."""
        origins = sorted({origin for origin, _ in self.remote})
        living = await self.listening(origins)
        for key in list(self.remote):
            if not living.get(key[0], True):
                await self._gone(key)

    def _moved(self, table_id: str, owner: str) -> None:
        """``table_id`` has a new owner: this process's clients routed to the old one reconnect.

        (Closing them is what a lone host's restart does too: the clients' reconnection and
        catch-up from their last version is the one path that is tested for every client.)
        """
        for conn, tables in list(self.routes.items()):
            old = tables.get(table_id)
            if old is not None and old != owner:
                del tables[table_id]
                task = asyncio.create_task(conn.close(RECONNECT, f"table {table_id} moved"))
                self._closing.add(task)
                task.add_done_callback(self._closing.discard)

    async def is_owner(self, table_id: str) -> bool:
        """Whether this process owns ``table_id`` (taking its lease if nobody holds it).

        A table owned by a process that is gone is taken once its lease expires.
        """
        if table_id in self.owned:
            return True
        return await self._owner(table_id) == self.name

    async def _owner(self, table_id: str) -> str:
        return await self.take(table_id)

    # --- forwarding -----------------------------------------------------------------------
    async def route(self, conn: Connection, msg: p.ClientMessage, raw: str | bytes) -> bool:
        """Forward ``msg`` to its table's owner if that is another process; ``True`` if so.

        Called by the hub for every message that names a table, before its handler; a table
        this process owns (or takes now) is handled here as on a lone host.
        """
        table = getattr(msg, "table", None)
        if not isinstance(table, str):
            return False
        if (
            isinstance(msg, p.Talk)
            and conn.account is not None
            and not isinstance(conn, RemoteConnection)
        ):
            limits = self.hub.limits
            rate, burst = limits.talk_rate_account, limits.talk_burst_account
            if not await self.shared.take_token("talk", conn.account, rate, burst):
                raise Refused("rate_limited", f"more than {rate:g} talk lines per second")
        if table in self.owned and table in self.hub.tables:
            return False
        if isinstance(conn, RemoteConnection):
            origin, cid = conn.origin, conn.cid  # it moved: pass the client on to its owner
        else:
            origin, cid = self.name, self._cid(conn)
        header = {"k": "in", "p": origin, "c": cid, "a": conn.account, "ad": conn.address}
        body = raw.encode() if isinstance(raw, str) else raw
        known = self.routes.get(conn, {}).get(table)
        if known is not None:
            self.forwarded += 1
            self.publish(known, header, body)
            return True
        owner = await self._owner(table)
        gone: set[str] = set()
        deadline = time.monotonic() + self.lease_ttl + 2 * self.renew_every
        while owner != self.name:
            # the first message to an owner: someone must receive it (a process that has just
            # died may still look alive until its key expires: wait for its lease instead)
            if owner not in gone:
                if await self.redis.publish(self.channel(owner), _pack(header, body)):
                    self.forwarded += 1
                    if not isinstance(conn, RemoteConnection):
                        self.routes.setdefault(conn, {})[table] = owner
                    return True
                gone.add(owner)
            if time.monotonic() > deadline:
                raise Refused("not_found", f"table {table} is moving; try again")
            await asyncio.sleep(self.renew_every / 4)
            owner = await self.take(table)
        return False

    def _cid(self, conn: Connection) -> int:
        cid = self.cids.get(conn)
        if cid is None:
            self._next_cid += 1
            cid = self.cids[conn] = self._next_cid
            self.by_cid[cid] = conn
        return cid

    async def admit(self, conn: Connection, account: str | None) -> None:
        """Count a client saying hello against the site's per-address and per-account limits.

        Raises:
            Refused: ``limit_reached``: the site has that many connections already.
        """
        limits, shared = self.hub.limits, self.shared
        if not conn.hello:
            await shared.connection(
                conn,
                "address",
                conn.address,
                limits.connections_per_address,
                "connections per address",
            )
        if account is not None and not (conn.hello and conn.account == account):
            if conn.hello and conn.account is not None:
                await shared.release(conn, "account")
            await shared.connection(
                conn, "account", account, limits.connections_per_account, "connections per account"
            )

    @contextlib.asynccontextmanager
    async def table_slot(self, account: str) -> AsyncIterator[None]:
        """Hold ``account``'s place while its table is made: ``tables_per_account`` on the site.

        Raises:
            Refused: ``limit_reached``: the account has that many open tables on the site.
        """
        async with self.shared.account_lock(account):
            store = self.hub.store.store
            mine_open = await asyncio.to_thread(store.open_tables_by, account)
            most = self.hub.limits.tables_per_account
            if mine_open >= most:
                raise Refused(
                    "limit_reached",
                    f"you have {mine_open} tables waiting or playing; the limit is {most}",
                )
            yield

    async def disconnected(self, conn: Connection) -> None:
        """A client of this process went away: its tables' owners let it go."""
        if conn in self.shared.held:
            with contextlib.suppress(Exception):
                await self.shared.release(conn)
        tables = self.routes.pop(conn, None)
        cid = self.cids.pop(conn, None)
        if cid is not None:
            self.by_cid.pop(cid, None)
        if tables and cid is not None:
            for owner in set(tables.values()):
                self.publish(owner, {"k": "gone", "p": self.name, "c": cid}, b"")

    def push(self, account: str, message: p.ServerMessage) -> None:
        """Tell ``account``'s connections on the other processes too (see ``Hub.push``)."""
        self.publish("*", {"k": "push", "p": self.name, "a": account}, p.encode(message))

    # --- the broker -----------------------------------------------------------------------
    def deliver(self, origin: str, cid: int, data: bytes) -> None:
        """Queue a message for connection ``cid`` of process ``origin`` (sent this loop turn)."""
        self._out[origin].append(b"%d %s" % (cid, data))
        self._schedule()

    def publish(self, to: str, header: dict[str, Any], body: bytes) -> None:
        """Queue a message for process ``to`` (``*``: every process), after those queued."""
        self._out[to].append(b"\x00" + _pack(header, body))
        self._schedule()

    def _schedule(self) -> None:
        if not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flushing = False
        batch: list[tuple[str, bytes]] = []
        for to, items in self._out.items():
            lines: list[bytes] = []
            for item in items:
                if item.startswith(b"\x00"):  # a message of its own: what came before first
                    if lines:
                        batch.append((to, _pack({"k": "out"}, b"\n".join(lines))))
                        lines = []
                    batch.append((to, item[1:]))
                else:
                    lines.append(item)
            if lines:
                batch.append((to, _pack({"k": "out"}, b"\n".join(lines))))
        self._out.clear()
        if batch:
            self._queue.put_nowait(batch)

    async def _send(self) -> None:
        while True:
            batch = await self._queue.get()
            while not self._queue.empty():
                batch += self._queue.get_nowait()
            pipe = self.redis.pipeline(transaction=False)
            for to, data in batch:
                pipe.publish(f"{self.prefix}all" if to == "*" else self.channel(to), data)
            try:
                await pipe.execute()
            except Exception as exc:
                self.hub.log(f"cluster: cannot publish: {exc!r}")

    async def _read(self) -> None:
        while True:
            try:
                async for message in self._pubsub.listen():
                    data = message.get("data")
                    if isinstance(data, bytes):
                        try:
                            await self._receive(data)
                        except Exception as exc:  # one bad message must not stop the reader
                            self.hub.log(f"cluster: {exc!r}")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.hub.log(f"cluster: the broker: {exc!r}; subscribing again")
                await asyncio.sleep(self.renew_every)

    async def _receive(self, data: bytes) -> None:
        head, _, body = data.partition(b"\n")
        header = json.loads(head)
        kind = header["k"]
        if kind == "out":
            for line in body.split(b"\n"):
                cid, _, message = line.partition(b" ")
                conn = self.by_cid.get(int(cid))
                if conn is not None:
                    conn.send_raw(message)
        elif kind == "in":
            key = (str(header["p"]), int(header["c"]))
            rconn = self.remote.get(key)
            if rconn is None:
                rconn = self.remote[key] = RemoteConnection(
                    self, key[0], key[1], header["a"], str(header["ad"])
                )
                rconn.worker = asyncio.create_task(self._serve(rconn))
            rconn.account = header["a"]
            rconn.inbox.put_nowait(body)
        elif kind == "gone":
            await self._gone((str(header["p"]), int(header["c"])))
        elif kind == "close":
            conn = self.by_cid.get(int(header["c"]))
            if conn is not None:  # not awaited here: the reader goes on
                task = asyncio.create_task(conn.close(int(header["code"]), str(header["why"])))
                self._closing.add(task)
                task.add_done_callback(self._closing.discard)
        elif kind == "moved":
            self._moved(str(header["t"]), str(header["o"]))
        elif kind == "lobby" and header["p"] != self.name:
            self._update_lobby(body)
        elif kind == "adopt":  # loading a table takes a while: the reader goes on
            self._background(self.adopt(str(header["t"])))
        elif kind == "cancel":
            actor = self.hub.tables.get(str(header["t"]))
            if actor is not None and actor.id in self.owned:
                self._background(actor.call(actor.cancel))
        elif kind == "call":
            self._background(self._seat_called(header))
        elif kind == "reply":
            waiting = self._calls.get(str(header["id"]))
            if waiting is not None and not waiting.done():
                waiting.set_result((header, body))
        elif kind in self.handlers:
            self._background(self.handlers[kind](header, body))
        elif kind == "push" and header["p"] != self.name:
            account = str(header["a"])
            for conn in self.hub.signed_in.get(account, ()):
                if not conn.closed and not conn.structured:
                    conn.send_raw(body)

    def _background(self, work: Awaitable[Any]) -> None:
        async def run() -> None:
            try:
                await work
            except Exception as exc:
                self.hub.log(f"cluster: {exc!r}")

        task = asyncio.create_task(run())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def _serve(self, rconn: RemoteConnection) -> None:
        """Handle a remote client's messages in the order its process received them."""
        while True:
            raw = await rconn.inbox.get()
            if raw is None:
                return
            await self.hub.handle(rconn, raw)

    async def _gone(self, key: tuple[str, int]) -> None:
        rconn = self.remote.pop(key, None)
        if rconn is None:
            return
        rconn.inbox.put_nowait(None)
        rconn.closed = True
        for actor in list(rconn.tables.values()):
            with contextlib.suppress(Exception):
                await actor.call(actor.detach, rconn)


def _pack(header: dict[str, Any], body: bytes) -> bytes:
    return json.dumps(header, separators=(",", ":")).encode() + b"\n" + body


__all__ = ["SITE", "Cluster", "RemoteConnection"]
