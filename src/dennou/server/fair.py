"""Fair shares of the host's workers between accounts: fair queues and time quotas.

Bot decisions (:mod:`dennou.server.bots`) and expensive engine work (:mod:`dennou.server.work`)
wait for a few worker processes. Served first come, first served, one account with many heavy
tables would hold everyone else behind its backlog. Instead each account (a table's creator, a
tournament's owner) has its own line, and a free worker takes the next item of the account that
has been served the least work so far (start-time fair queueing by measured seconds): another
account's decision waits at most for the item already being served. An account that comes back
after a pause starts level with the others, not with the credit of its idle time.

A :class:`TimeQuota` bounds each account's seconds of work per minute on top: an account past its
quota is not served (its items wait, its clocks not running) until its bucket refills.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class TimeQuota:
    """Seconds of work per account: a bucket of ``per_minute`` seconds refilled continuously.

    Work is charged after it ran (its length is not known before), so an account may go into
    debt by one item; it is served again once the debt is repaid.

    Args:
        per_minute: Seconds of work an account may use per minute (and at once).
        clock: The clock (for tests).
    """

    def __init__(self, per_minute: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = per_minute / 60.0
        self.burst = per_minute
        self._clock = clock
        self._tokens: dict[str, tuple[float, float]] = {}

    def _balance(self, account: str, now: float) -> float:
        tokens, stamp = self._tokens.get(account, (self.burst, now))
        return min(self.burst, tokens + (now - stamp) * self.rate)

    def wait(self, account: str) -> float:
        """Seconds until ``account`` may be served again (0: now)."""
        now = self._clock()
        balance = self._balance(account, now)
        if balance >= self.burst:
            self._tokens.pop(account, None)  # a full bucket is the default: keep none
        return 0.0 if balance > 0 else (-balance / self.rate) + 1e-3

    def charge(self, account: str, seconds: float) -> None:
        """``account`` used ``seconds`` of work."""
        now = self._clock()
        self._tokens[account] = (self._balance(account, now) - seconds, now)


class FairQueue(Generic[T]):
    """Items of many accounts, taken in fair order (least served work first), FIFO per account.

    Args:
        per_account: Items one account may have waiting; :meth:`put` waits beyond.
        quota: Accounts past their quota are not served until it refills (``None``: no quota).
    """

    def __init__(self, per_account: int, quota: TimeQuota | None = None) -> None:
        self.per_account = per_account
        self.quota = quota
        self._lines: dict[str, deque[T]] = {}
        self._used: dict[str, float] = {}
        self._served: dict[str, int] = {}
        self._vclock = 0.0
        self._seq = 0
        self._changed = asyncio.Event()
        self._room = asyncio.Event()

    def __len__(self) -> int:
        return sum(len(line) for line in self._lines.values())

    def waiting(self, account: str) -> int:
        """Items ``account`` has waiting."""
        line = self._lines.get(account)
        return 0 if line is None else len(line)

    def accounts(self) -> list[str]:
        """Accounts with items waiting."""
        return list(self._lines)

    def put_nowait(self, account: str, item: T) -> None:
        """Queue ``item`` for ``account`` (never waits: for items moved from another queue)."""
        line = self._lines.get(account)
        if line is None:
            # a line that starts (again) is level with the work served so far, not ahead of it
            line = self._lines[account] = deque()
            self._used[account] = max(self._used.get(account, 0.0), self._vclock)
        line.append(item)
        self._changed.set()

    async def put(self, account: str, item: T) -> None:
        """Queue ``item`` for ``account``, waiting while the account has ``per_account`` waiting."""
        while self.waiting(account) >= self.per_account:
            self._room.clear()
            await self._room.wait()
        self.put_nowait(account, item)

    def take(self, account: str, which: Callable[[T], bool]) -> list[T]:
        """Remove and return the waiting items of ``account`` that ``which`` selects."""
        line = self._lines.get(account)
        if line is None:
            return []
        taken = [item for item in line if which(item)]
        if taken:
            kept = deque(item for item in line if not which(item))
            if kept:
                self._lines[account] = kept
            else:
                del self._lines[account]
            self._room.set()
        return taken

    def charge(self, account: str, seconds: float) -> None:
        """``account``'s item took ``seconds`` of a worker (what orders the accounts)."""
        self._used[account] = self._used.get(account, self._vclock) + seconds

    async def get(self) -> tuple[str, T]:
        """The next item and its account, by fair order among accounts within their quota."""
        while True:
            picked = self._pick()
            if picked is not None:
                return picked
            delay: float | None = None
            if self._lines and self.quota is not None:
                delay = min(self.quota.wait(a) for a in self._lines)
            self._changed.clear()
            try:
                async with asyncio.timeout(delay):
                    await self._changed.wait()
            except TimeoutError:
                pass

    def _pick(self) -> tuple[str, T] | None:
        best: str | None = None
        best_rank = (0.0, 0)
        for account in self._lines:
            if self.quota is not None and self.quota.wait(account) > 0:
                continue
            rank = (self._used[account], self._served.get(account, -1))
            if best is None or rank < best_rank:
                best, best_rank = account, rank
        if best is None:
            return None
        line = self._lines[best]
        item = line.popleft()
        if not line:
            del self._lines[best]
        self._vclock = max(self._vclock, self._used[best])
        self._served[best] = self._seq
        self._seq += 1
        self._prune()
        self._room.set()
        return best, item

    def _prune(self) -> None:
        # an idle account at or behind the clock would start level anyway: forget it
        if len(self._used) > 2 * len(self._lines) + 64:
            for account in [a for a, used in self._used.items() if a not in self._lines]:
                if self._used[account] <= self._vclock:
                    del self._used[account]
                    self._served.pop(account, None)


__all__ = ["FairQueue", "TimeQuota"]
