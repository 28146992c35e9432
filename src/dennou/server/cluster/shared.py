"""Limits that hold across a cluster's processes, counted in Redis.

Each count is checked and taken in one step (a Lua script runs alone on the Redis server), so
that concurrent requests on different processes cannot all pass a limit:

- connections per address and per account: one hash per address or account, a field per
  process; the fields of processes that are gone (their ``alive`` key expired) are dropped
  as they are counted, so a killed process's connections never count for ever;
- sign-ups and sign-in attempts per address: a sliding window (a sorted set of times);
- talk per account: a token bucket, timed by the Redis server's clock;
- open tables per account: a per-account lock (while it is held, the tables are counted in the
  database and the new one made).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator
from typing import Any, Protocol

from dennou.server.errors import Refused


class Site(Protocol):
    """What the shared counts need of this process's cluster (:class:`~.node.Cluster`)."""

    name: str
    """This process's name on the site."""
    prefix: str
    """The site's prefix of every key."""
    redis: Any
    """The broker's client."""


_TAKE = """
local total = 0
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  if redis.call('EXISTS', ARGV[3] .. fields[i]) == 1 then
    total = total + tonumber(fields[i + 1])
  else
    redis.call('HDEL', KEYS[1], fields[i])
  end
end
if total >= tonumber(ARGV[2]) then return -1 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
return total + 1
"""
"""Count one more of KEYS[1] for process ARGV[1] unless the living processes hold ARGV[2]."""

_GIVE = """
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0
"""

_WINDOW = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1e6
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', t - tonumber(ARGV[1]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], t, ARGV[3])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[1])) + 1)
return 1
"""
"""Note one more event in the last ARGV[1] seconds unless there are ARGV[2] already."""

_BUCKET = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1e6
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(saved[1]) or burst
local at = tonumber(saved[2]) or t
tokens = math.min(burst, tokens + (t - at) * rate)
local ok = 0
if tokens >= 1 then tokens = tokens - 1; ok = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(t))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
return ok
"""
"""Take one token of the bucket KEYS[1] (ARGV[1] a second, at most ARGV[2] saved)."""

LOCK_WAIT = 5.0
"""Seconds a table creation waits for its account's lock before it is refused."""


class SharedLimits:
    """The cluster-wide limits of one process.

    Args:
        cluster: This process's cluster.
    """

    def __init__(self, cluster: Site) -> None:
        self.cluster = cluster
        redis = cluster.redis
        self._take = redis.register_script(_TAKE)
        self._give = redis.register_script(_GIVE)
        self._window = redis.register_script(_WINDOW)
        self._bucket = redis.register_script(_BUCKET)
        self.held: dict[Any, list[str]] = {}
        """Each connection's counts (keys) taken here, given back when it closes."""

    def _key(self, *parts: str) -> str:
        return self.cluster.prefix + ":".join(parts)

    async def connection(self, conn: Any, kind: str, who: str, most: int, what: str) -> None:
        """Count ``conn`` against ``most`` connections per ``kind`` (address or account).

        Raises:
            Refused: ``limit_reached``: the site has ``most`` of them already.
        """
        key = self._key("conns", kind, who)
        cluster = self.cluster
        took = await self._take(keys=[key], args=[cluster.name, most, cluster.prefix + "alive:"])
        if int(took) < 0:
            raise Refused("limit_reached", f"at most {most} {what} on this site")
        self.held.setdefault(conn, []).append(key)

    async def release(self, conn: Any, kind: str | None = None) -> None:
        """Give back ``conn``'s counts (of one ``kind``, or all of them)."""
        keys = self.held.get(conn, [])
        mine = [k for k in keys if kind is None or k.startswith(self._key("conns", kind, ""))]
        for key in mine:
            keys.remove(key)
            await self._give(keys=[key], args=[self.cluster.name])
        if not keys:
            self.held.pop(conn, None)

    async def recent(self, kind: str, who: str, window: float, most: int, why: str) -> None:
        """Note one ``kind`` event of ``who``; refuse it past ``most`` in ``window`` seconds.

        Raises:
            Refused: ``limit_reached`` with ``why``.
        """
        key = self._key("recent", kind, who)
        if not int(await self._window(keys=[key], args=[window, most, secrets.token_hex(8)])):
            raise Refused("limit_reached", why)

    async def take_token(self, kind: str, who: str, rate: float, burst: float) -> bool:
        """Take one token of ``who``'s ``kind`` bucket (``False``: none left)."""
        key = self._key("bucket", kind, who)
        return bool(int(await self._bucket(keys=[key], args=[rate, burst])))

    def account_lock(self, account: str) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold ``account``'s lock (one table creation at a time on the whole site).

        Raises:
            Refused: ``limit_reached``: the lock was not had within :data:`LOCK_WAIT` seconds.
        """
        return self.lock("tables", account, "too many tables being made at once; try again")

    @contextlib.asynccontextmanager
    async def lock(self, kind: str, name: str, busy: str) -> AsyncIterator[None]:
        """Hold the site's lock ``kind``/``name`` (one holder at a time on the whole site).

        Raises:
            Refused: ``limit_reached`` with ``busy``: the lock was not had within
                :data:`LOCK_WAIT` seconds.
        """
        redis = self.cluster.redis
        key, mine = self._key("lock", kind, name), secrets.token_hex(8)
        deadline = time.monotonic() + LOCK_WAIT
        while not await redis.set(key, mine, nx=True, px=int(LOCK_WAIT * 2000)):
            if time.monotonic() > deadline:
                raise Refused("limit_reached", busy)
            await asyncio.sleep(0.02)
        try:
            yield
        finally:
            # only our own lock is removed (one that expired meanwhile may be someone else's)
            if await redis.get(key) == mine.encode():
                await redis.delete(key)


__all__ = ["SharedLimits"]
