"""Built-in bots that think in processes of their own, fed from the broker.

A site whose hosts run ``dennou serve --remote-bots`` keeps no bot worker processes on its hosts:
each bot decision goes into a queue in Redis, and ``dennou cluster bots`` processes (on any
machine that reaches Redis) take them, think them in their own worker processes
(:class:`dennou.server.bots.BotPool`, with its clock cuts, cancels, kills and quarantine) and
publish the answers back to the host that asked.

Sharing is per account, as on a lone host (:mod:`dennou.server.fair`), but site-wide: each
account (a table's owner) has its own line in Redis, and a worker with a free slot takes the
next decision of the account that has been served the fewest thinking seconds so far (one Lua
script picks and pops it, so workers never take the same decision); an account that comes back
after a pause starts level with the others, not with the credit of its idle time. Another
account's decision waits at most for the decisions already being thought. A worker takes a
decision only when one of its processes is free, so the order is the site's, not a worker's.

A worker keeps no bot between decisions: the host sends what the seat observed since the start,
and the worker builds the bot and replays it for each decision. A decision whose worker dies is
answered ``error`` after :data:`LOST_AFTER` seconds past its clock (the seat gets its default,
as when a local worker dies).

Decisions travel pickled (a game state is any Python object): Redis must be private to the
site's hosts and workers, as it already is for the rest of the cluster's traffic.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import pickle
import secrets
import socket
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dennou.core.game import Event
from dennou.server.bots import PREPARE_TIMEOUT, within_clock
from dennou.server.botworker import Answer, BotSpec, Key

if TYPE_CHECKING:
    from dennou.server.cluster.node import Cluster

LOST_AFTER = PREPARE_TIMEOUT + 10.0
"""Seconds past a decision's clock, once a worker took it, after which the host gives up on it."""

_PUT = """
-- KEYS: line, used, ready, bell, vclock; ARGV: account, item, most
local waiting = redis.call('LLEN', KEYS[1])
if waiting >= tonumber(ARGV[3]) then return 0 end
if waiting == 0 then
  local used = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
  local clock = tonumber(redis.call('GET', KEYS[5]) or '0')
  if clock > used then used = clock end
  redis.call('HSET', KEYS[2], ARGV[1], used)
  redis.call('ZADD', KEYS[3], used, ARGV[1])
end
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('RPUSH', KEYS[4], '1')
redis.call('LTRIM', KEYS[4], -1000, -1)
return 1
"""

_TAKE = """
-- KEYS: ready, vclock; ARGV: line prefix
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #first == 0 then return nil end
local account, used = first[1], tonumber(first[2])
local line = ARGV[1] .. account
local item = redis.call('LPOP', line)
if redis.call('LLEN', line) == 0 then redis.call('ZREM', KEYS[1], account) end
local clock = tonumber(redis.call('GET', KEYS[2]) or '0')
if used > clock then redis.call('SET', KEYS[2], used) end
if not item then return nil end
return {account, item}
"""

_CHARGE = """
-- KEYS: used, ready; ARGV: account, seconds
local used = redis.call('HINCRBYFLOAT', KEYS[1], ARGV[1], ARGV[2])
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then redis.call('ZADD', KEYS[2], used, ARGV[1]) end
return used
"""


class SiteFairQueue:
    """The site's bot decisions, one line per account, taken least-served account first.

    The same order as :class:`dennou.server.fair.FairQueue` (start-time fair queueing by measured
    seconds), kept in Redis so that every worker of the site serves one order.

    Args:
        redis: An asyncio Redis client.
        prefix: The site's prefix (``SITE:``).
    """

    def __init__(self, redis: Any, prefix: str) -> None:
        self.redis = redis
        self.prefix = f"{prefix}bots:"
        self.bell = self.prefix + "bell"
        self._put = redis.register_script(_PUT)
        self._take = redis.register_script(_TAKE)
        self._charge = redis.register_script(_CHARGE)

    def _keys(self) -> tuple[str, str, str]:
        return self.prefix + "used", self.prefix + "ready", self.prefix + "vclock"

    async def put(self, account: str, item: bytes, most: int) -> bool:
        """Queue ``item`` for ``account``; ``False`` when the account has ``most`` waiting."""
        used, ready, vclock = self._keys()
        line = self.prefix + "line:" + account
        keys = [line, used, ready, self.bell, vclock]
        return bool(await self._put(keys=keys, args=[account, item, most]))

    async def take(self) -> tuple[str, bytes] | None:
        """The next item and its account, least-served account first (``None``: none)."""
        _, ready, vclock = self._keys()
        got = await self._take(keys=[ready, vclock], args=[self.prefix + "line:"])
        if not got:
            return None
        return got[0].decode(), bytes(got[1])

    async def charge(self, account: str, seconds: float) -> None:
        """``account``'s decision took ``seconds`` of a worker (what orders the accounts)."""
        used, ready, _ = self._keys()
        await self._charge(keys=[used, ready], args=[account, repr(max(0.0, seconds))])


@dataclasses.dataclass
class _Asked:
    future: asyncio.Future[Answer]
    think: float
    timer: asyncio.TimerHandle | None = None


class RemoteBots:
    """A host's built-in bots when they think in ``dennou cluster bots`` processes.

    The interface of :class:`dennou.server.bots.BotPool` that tables use.

    Args:
        cluster: The host's cluster.
        queue: Decisions one account may have waiting on the site before its tables wait too.
    """

    def __init__(self, cluster: Cluster, queue: int) -> None:
        self.cluster = cluster
        self.queue = SiteFairQueue(cluster.redis, cluster.prefix)
        self.most = queue
        self.asked: dict[str, _Asked] = {}
        self.decisions = 0
        self.kills = 0
        self.overruns = 0
        self.rebuilds = 0
        self.preemptions = 0
        cluster.handlers["bot"] = self._answered

    def warm(self) -> None:
        """Nothing to start: the workers are processes of their own."""

    def pids(self) -> list[int]:
        """No worker process runs here."""
        return []

    async def close(self) -> None:
        """Give up on the decisions still asked."""
        for asked in self.asked.values():
            if not asked.future.done():
                asked.future.set_result(Answer(error="the host is stopping"))

    async def decide(
        self,
        key: Key,
        spec: BotSpec,
        *,
        history: Callable[[int], list[list[Event]]],
        upto: int,
        state: Any,
        rng_seed: int,
        channels: frozenset[str],
        think: float,
        account: str = "",
    ) -> Answer:
        """Queue the decision on the site and wait for a worker's answer (see ``BotPool``)."""
        ask = secrets.token_hex(8)
        job = {
            "id": ask,
            "host": self.cluster.name,
            "key": key,
            "spec": within_clock(spec, think),
            "batches": history(0),
            "upto": upto,
            "state": state,
            "rng_seed": rng_seed,
            "channels": channels,
            "think": think,
            "account": account,
        }
        loop = asyncio.get_running_loop()
        asked = self.asked[ask] = _Asked(loop.create_future(), think)
        item = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            # the account's line is full: its tables wait (their clocks not running), as on a host
            while not await self.queue.put(account, item, self.most):
                await asyncio.sleep(0.05)
            self.decisions += 1
            return await asked.future
        finally:
            del self.asked[ask]
            if asked.timer is not None:
                asked.timer.cancel()

    def forget(self, key: Key) -> None:
        """Nothing is kept: a worker drops each bot after its decision."""

    async def _answered(self, header: dict[str, Any], body: bytes) -> None:
        asked = self.asked.get(str(header["id"]))
        if asked is None or asked.future.done():
            return
        if header.get("taken"):  # a worker thinks it now: if it dies, the seat defaults

            def lost() -> None:
                if not asked.future.done():
                    asked.future.set_result(Answer(error="the bot's worker was lost"))

            asked.timer = asyncio.get_running_loop().call_later(asked.think + LOST_AFTER, lost)
            return
        answer = Answer(**json.loads(body))
        if answer.timeout:
            self.overruns += 1
        asked.future.set_result(answer)


class BotFarm:
    """A ``dennou cluster bots`` process: takes the site's bot decisions, thinks, answers.

    Args:
        url: The site's Redis URL.
        site: The site's name.
        workers: Worker processes (decisions thought at once).
        log: Where to note what happens.
        seconds_per_minute: Each account's quota of thinking seconds per minute on this
            process's workers (``None``: none).
        overrun_grace: Seconds a bot may think past its clock before its worker is killed.
    """

    def __init__(
        self,
        url: str,
        site: str,
        workers: int,
        log: Callable[[str], None],
        *,
        seconds_per_minute: float | None = None,
        overrun_grace: float = 3.0,
    ) -> None:
        import redis.asyncio as aioredis

        from dennou.server.bots import BotPool

        self.name = f"{socket.gethostname()[:32]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.prefix = f"{site}:"
        self.redis: Any = aioredis.Redis.from_url(url)
        self.bell: Any = aioredis.Redis.from_url(url)
        self.queue = SiteFairQueue(self.redis, self.prefix)
        self.workers = workers
        self.log = log
        self.pool = BotPool(
            workers,
            1_000_000,
            log,
            seconds_per_minute=seconds_per_minute,
            overrun_grace=overrun_grace,
        )
        self.thinking: set[asyncio.Task[None]] = set()
        self.answered = 0
        self._free = asyncio.Semaphore(workers)

    async def run(self, until: asyncio.Event | None = None) -> None:
        """Serve decisions until ``until`` is set (or forever)."""
        self.pool.warm()
        self.log(f"bots {self.name}: {self.workers} workers, site {self.prefix[:-1]}")
        stop = until or asyncio.Event()
        try:
            while not stop.is_set():
                await self._free.acquire()
                taken = await self.queue.take()
                if taken is None:
                    self._free.release()
                    with contextlib.suppress(Exception):  # a bell, or a look now and then
                        await self.bell.blpop([self.queue.bell], timeout=0.5)
                    continue
                task = asyncio.create_task(self._serve(*taken))
                self.thinking.add(task)
                task.add_done_callback(self.thinking.discard)
        finally:
            for task in list(self.thinking):
                task.cancel()
            await self.pool.close()
            await self.redis.aclose()
            await self.bell.aclose()

    async def _serve(self, account: str, item: bytes) -> None:
        try:
            job = pickle.loads(item)  # written by the site's own hosts (Redis is private)
            channel = f"{self.prefix}node:{job['host']}"
            header = {"k": "bot", "id": job["id"], "taken": self.name}
            await self.redis.publish(channel, _pack(header, b""))
            started = time.monotonic()
            key: Key = (str(job["key"][0]), int(job["key"][1]))
            batches: list[list[Event]] = job["batches"]
            try:
                answer = await self.pool.decide(
                    key,
                    job["spec"],
                    history=lambda since: batches if since == 0 else [],
                    upto=job["upto"],
                    state=job["state"],
                    rng_seed=job["rng_seed"],
                    channels=job["channels"],
                    think=job["think"],
                    account=account,
                )
            finally:
                self.pool.forget(key)  # rebuilt from the seat's observations next time
            await self.queue.charge(account, time.monotonic() - started)
            body = json.dumps(dataclasses.asdict(answer), default=str).encode()
            await self.redis.publish(channel, _pack({"k": "bot", "id": job["id"]}, body))
            self.answered += 1
        except Exception as exc:
            self.log(f"bots {self.name}: {exc!r}")
        finally:
            self._free.release()


def _pack(header: dict[str, Any], body: bytes) -> bytes:
    return json.dumps(header, separators=(",", ":")).encode() + b"\n" + body


__all__ = ["LOST_AFTER", "BotFarm", "RemoteBots", "SiteFairQueue"]
