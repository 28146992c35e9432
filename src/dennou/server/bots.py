"""Built-in bots off the event loop: worker processes shared fairly, thinking cut at the clock.

A bot's thinking is the heaviest work a table asks for, and a thread cannot be stopped: so the
host runs bots in a few worker processes (:mod:`dennou.server.botworker`). A worker keeps its
bots between decisions, and the host sends each only the events it has not seen yet.

Sharing: every decision counts for an account (the table's owner). Each account's bots live on
its home worker (the one with the fewest accounts when it first needs one; one account alone
spreads over the idle workers), and each worker serves its accounts by a fair queue
(:mod:`dennou.server.fair`): another account's decision waits at most for the one decision being
thought, and an account past its quota of thinking seconds waits until it refills.

The clock: a bot's time budget (``montecarlo:ms=20000``) is cut to a share of its seat's clock
(:func:`within_clock`), so a bot that keeps its budget answers in time. A decision past the
clock is defaulted at once; the worker is killed only when the bot is still thinking a grace
later, and that table's bots then live on a worker of their own (the quarantine), so a bot that
does not stop never again stops the others. Bots in a killed worker are rebuilt on their next
decision by replaying everything their seats observed, which the table's log holds. Queues are
bounded: a table whose bot cannot be queued waits (its clock not running).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from typing import Any

from dennou.core.game import Event
from dennou.server import botworker
from dennou.server.botworker import Answer, BotSpec, Decide, Forget, Key
from dennou.server.fair import FairQueue, TimeQuota

PREPARE_TIMEOUT = 120.0
"""Seconds a worker has to build a bot and replay its observations (imports and caches
included): not the bot's thinking, which the seat's clock bounds."""


def _context() -> BaseContext:
    # spawn: a worker is a fresh interpreter, never a fork of the server with its threads and
    # sockets, and it gets the server's import path (games defined outside the package too).
    return multiprocessing.get_context("spawn")


BUDGET_OPTIONS = ("ms", "budget_ms")
"""Bot options that are a decision's time budget in milliseconds (``montecarlo:ms=500``)."""

BUDGET_SHARE = 0.75
"""The largest time budget a bot gets, as a share of its seat's clock: the rest is for the view,
the legal actions, the pipe, and a search's last batch (so a bot that keeps its budget answers
in time)."""


def within_clock(spec: BotSpec, think: float) -> BotSpec:
    """``spec`` with every time budget (:data:`BUDGET_OPTIONS`) cut to the seat's clock.

    A budget above :data:`BUDGET_SHARE` of ``think`` seconds would always overrun the clock:
    it becomes that share (a budget of 0, "count playouts instead", is left as it is).
    """
    cap = think * 1000 * BUDGET_SHARE
    cut = {
        name: type(value)(cap)
        for name in BUDGET_OPTIONS
        if isinstance(value := spec.kwargs.get(name), int | float)
        and not isinstance(value, bool)
        and value > cap
    }
    if not cut:
        return spec
    return replace(spec, kwargs={**spec.kwargs, **cut})


@dataclass
class _Job:
    account: str
    key: Key
    spec: BotSpec
    history: Callable[[int], list[list[Event]]]
    upto: int
    state: Any
    rng_seed: int
    channels: frozenset[str]
    think: float
    future: asyncio.Future[Answer]


@dataclass
class _Worker:
    index: int
    queue: FairQueue[_Job]
    quarantine: bool = False
    """The worker of tables whose bots had to be killed (no account lives there)."""
    process: Any = None
    conn: Connection | None = None
    known: dict[Key, int] = field(default_factory=dict)
    """Per bot: the version up to which this worker's copy has observed."""
    dropped: list[Key] = field(default_factory=list)
    """Bots to tell the worker to drop before its next decision."""
    task: asyncio.Task[None] | None = None
    starting: asyncio.Future[None] | None = None
    busy: bool = False
    current: _Job | None = None
    """The decision being served."""
    preempted: bool = False
    """Whether the decision being served was cancelled to be served on its own home instead."""
    kills: int = 0


_REQUEUE = Answer(error="preempted", cancelled=True)
"""What :meth:`BotPool._run` returns for a decision to serve again on its account's home."""


def _retrieve(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()  # a pipe closed by a kill: expected, not worth a warning


class BotPool:
    """Worker processes for built-in bots, shared fairly between accounts.

    Args:
        workers: Number of worker processes (one more starts for quarantined tables if needed).
        queue: Decisions one account may have waiting per worker before its tables wait too.
        log: Where to note kills and failures.
        seconds_per_minute: Each account's quota of thinking seconds per minute (``None``:
            none).
        overrun_grace: Seconds a bot may think past its clock (its seat defaulted at the clock,
            its answer dropped) before its worker is killed.
    """

    def __init__(
        self,
        workers: int = 2,
        queue: int = 256,
        log: Callable[[str], None] | None = None,
        *,
        seconds_per_minute: float | None = None,
        overrun_grace: float = 3.0,
    ) -> None:
        self._ctx = _context()
        self._log = log or (lambda text: None)
        self.quota = TimeQuota(seconds_per_minute) if seconds_per_minute else None
        self._workers = [_Worker(i, FairQueue(queue, self.quota)) for i in range(workers)]
        self._spare = _Worker(workers, FairQueue(queue, self.quota), quarantine=True)
        self._grace = overrun_grace
        self._io = ThreadPoolExecutor(max_workers=workers + 1, thread_name_prefix="dennou-bots")
        self._home: dict[str, int] = {}
        """Per account with live bots: the worker its bots live on."""
        self._account: dict[Key, str] = {}
        self._keys: dict[str, set[Key]] = {}
        self._where: dict[Key, _Worker] = {}
        self._quarantined: set[str] = set()
        """Tables whose bot had to be killed: their bots live on the spare worker."""
        self._built: set[Key] = set()
        self.kills = 0
        """Workers killed because a bot overran its clock by more than the grace."""
        self.overruns = 0
        """Decisions defaulted because the bot did not answer within its seat's clock."""
        self.rebuilds = 0
        """Bots built again (their observations replayed) after their worker was killed or they
        moved to another worker."""
        self.decisions = 0
        self.preemptions = 0
        """Decisions of an account cancelled on a worker that became another account's home, and
        served again on their own."""

    def warm(self) -> None:
        """Start every worker now (in the background), so the first decision does not wait."""
        loop = asyncio.get_running_loop()
        for worker in self._workers:
            self._ensure_task(worker)
            if worker.process is None:
                worker.starting = loop.run_in_executor(self._io, self._start, worker)

    def _ensure_task(self, worker: _Worker) -> None:
        if worker.task is None or worker.task.done():
            worker.task = asyncio.create_task(self._serve(worker), name=f"bots-{worker.index}")

    # --- where a bot lives ------------------------------------------------------------------
    def _homed(self, worker: _Worker) -> set[str]:
        return {a for a, i in self._home.items() if i == worker.index}

    def _load(self, worker: _Worker) -> int:
        return len(worker.queue) + worker.busy

    def _place(self, account: str, key: Key) -> _Worker:
        """The worker for ``key``'s decision.

        Each account has a home worker, the one with the fewest accounts when it first needs one:
        its bots live there, so another account's bots mostly live elsewhere. A worker that is
        nobody else's home takes an account's new bots too while its home is busy (one account
        alone uses every worker); once another account makes it its home, those bots go home.
        """
        if key[0] in self._quarantined:
            return self._spare
        home_index = self._home.get(account)
        if home_index is None:
            home = min(self._workers, key=lambda w: (len(self._homed(w)), self._load(w), w.index))
            self._home[account] = home.index
            self._send_guests_home(home, account)
            guest = home.current
            if guest is not None and self._home.get(guest.account) != home.index:
                home.preempted = True  # its account's own home serves it again
                self._signal(home)
        home = self._workers[self._home[account]]
        current = self._where.get(key)
        if current is not None and not current.quarantine and self._homed(current) <= {account}:
            return current
        if current is None and self._load(home):
            free = [w for w in self._workers if not self._homed(w) and not self._load(w)]
            if free:
                return free[0]
        return home

    def _send_guests_home(self, worker: _Worker, host: str) -> None:
        # decisions of other accounts waiting on the new home of ``host`` go to their own homes
        for account in worker.queue.accounts():
            if self._home.get(account) == worker.index:
                continue
            for job in worker.queue.take(account, lambda job: True):
                target = self._place(account, job.key)
                self._move(job.key, target)
                target.queue.put_nowait(account, job)
                self._ensure_task(target)

    def _move(self, key: Key, target: _Worker) -> None:
        current = self._where.get(key)
        if (
            current is not None
            and current is not target
            and current.known.pop(key, None) is not None
        ):
            current.dropped.append(key)
        self._where[key] = target

    def _quarantine(self, table: str) -> None:
        self._quarantined.add(table)
        for worker in self._workers:
            for account in worker.queue.accounts():
                for job in worker.queue.take(account, lambda job: job.key[0] == table):
                    self._move(job.key, self._spare)
                    self._spare.queue.put_nowait(account, job)
        if len(self._spare.queue):
            self._ensure_task(self._spare)

    # --- decisions --------------------------------------------------------------------------
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
        """The bot's decision in ``state``, thinking at most ``think`` seconds.

        Args:
            key: The bot's ``(table, seat)``.
            spec: How to build the bot (its time budget is cut to ``think``:
                :func:`within_clock`).
            history: ``history(v)``: the seat's observed events after version ``v`` up to
                ``upto``, one list per step.
            upto: The table's version now (what the bot has observed once this is sent).
            state: The state the decision began in.
            rng_seed: Seeds the decision.
            channels: Where the seat may talk now.
            think: Seconds of thinking allowed (the seat's clock).
            account: Whose decision it is (the table's owner): what fair shares and quotas
                count.

        Returns:
            The answer; ``timeout`` when the clock ran out.
        """
        self._account[key] = account
        self._keys.setdefault(account, set()).add(key)
        worker = self._place(account, key)
        self._move(key, worker)
        self._ensure_task(worker)
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        job = _Job(
            account,
            key,
            within_clock(spec, think),
            history,
            upto,
            state,
            rng_seed,
            channels,
            think,
            future,
        )
        await worker.queue.put(account, job)
        return await future

    def forget(self, key: Key) -> None:
        """The bot's table is over: its worker may drop it."""
        worker = self._where.pop(key, None)
        if worker is not None and worker.known.pop(key, None) is not None:
            worker.dropped.append(key)
        self._built.discard(key)
        account = self._account.pop(key, None)
        if account is not None:
            keys = self._keys.get(account)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._keys[account]
                    self._home.pop(account, None)
        if not any(k[0] == key[0] for k in self._where):
            self._quarantined.discard(key[0])

    async def _serve(self, worker: _Worker) -> None:
        loop = asyncio.get_running_loop()
        while True:
            account, job = await worker.queue.get()
            if job.future.done():  # the table moved on (resigned, finished) while it waited
                continue
            started = time.monotonic()
            worker.busy, worker.current, worker.preempted = True, job, False
            try:
                answer = await self._run(worker, job, loop)
            except Exception as exc:  # the worker died: a bug or the OS; the table defaults
                self._log(f"bot worker {worker.index}: {exc!r}")
                await self._kill(worker, loop)
                answer = Answer(error=f"the bot's worker failed: {type(exc).__name__}: {exc}")
            finally:
                worker.busy, worker.current = False, None
            spent = time.monotonic() - started
            worker.queue.charge(account, spent)
            if self.quota is not None:
                self.quota.charge(account, spent)
            if answer is _REQUEUE and not job.future.done():
                self.preemptions += 1
                target = self._place(account, job.key)
                self._move(job.key, target)
                target.queue.put_nowait(account, job)
                self._ensure_task(target)
                continue
            if not job.future.done():
                job.future.set_result(answer)

    async def _run(self, worker: _Worker, job: _Job, loop: asyncio.AbstractEventLoop) -> Answer:
        if worker.starting is not None:
            starting, worker.starting = worker.starting, None
            await starting
        if worker.process is None or not worker.process.is_alive():
            await loop.run_in_executor(self._io, self._start, worker)
        assert worker.conn is not None
        known = worker.known.get(job.key)
        fresh = known is None
        if fresh:
            if job.key in self._built:
                self.rebuilds += 1
            self._built.add(job.key)
        batches = job.history(0 if known is None else known)
        request = Decide(
            job.key, job.spec, fresh, batches, job.state, job.rng_seed, job.channels, job.think
        )
        conn = worker.conn
        dropped, worker.dropped = [Forget(k) for k in worker.dropped], []
        await loop.run_in_executor(self._io, _send_all, conn, [*dropped, request])
        worker.known[job.key] = job.upto
        try:
            ready = await asyncio.wait_for(
                loop.run_in_executor(self._io, conn.recv), PREPARE_TIMEOUT
            )
        except TimeoutError:
            self._quarantine(job.key[0])
            await self._kill(worker, loop)
            return Answer(error=f"the bot was not built within {PREPARE_TIMEOUT:g} s")
        if isinstance(ready, Answer):  # it could not be built
            worker.known.pop(job.key, None)
            return ready
        started = time.monotonic()
        self.decisions += 1
        receiving = loop.run_in_executor(self._io, conn.recv)
        receiving.add_done_callback(_retrieve)
        done, _ = await asyncio.wait({receiving}, timeout=job.think)
        if done:
            answer: Answer = receiving.result()
            if answer.cancelled:  # preempted (its worker became another account's home)
                worker.known.pop(job.key, None)
                return _REQUEUE if worker.preempted else Answer(error="cancelled")
            return answer
        # Past the clock: the seat defaults now and the thinking is cancelled; only a worker that
        # does not answer the cancel within the grace is killed (and every bot in it lost).
        self.overruns += 1
        timeout = Answer(
            error=f"no decision within {job.think:g} s",
            timeout=True,
            ms=round((time.monotonic() - started) * 1000, 3),
        )
        if not job.future.done():
            job.future.set_result(timeout)
        self._signal(worker)
        done, _ = await asyncio.wait({receiving}, timeout=self._grace)
        if done:
            late: Answer = receiving.result()
            if late.cancelled:
                worker.known.pop(job.key, None)
        else:
            self.kills += 1
            worker.kills += 1
            self._log(
                f"bot worker {worker.index}: {job.key[0]} seat {job.key[1]} thought "
                f"{job.think + self._grace:g} s past a {job.think:g} s clock: killed"
            )
            self._quarantine(job.key[0])
            await self._kill(worker, loop)
        return timeout

    def _signal(self, worker: _Worker) -> None:
        process = worker.process
        if process is not None and process.pid is not None:
            with contextlib.suppress(OSError):  # it ended meanwhile
                os.kill(process.pid, botworker.CANCEL)

    def _start(self, worker: _Worker) -> None:
        parent, child = self._ctx.Pipe()
        process = self._ctx.Process(  # type: ignore[attr-defined]
            target=botworker.main, args=(child,), daemon=True, name=f"dennou-bot-{worker.index}"
        )
        process.start()
        child.close()
        worker.process, worker.conn = process, parent
        worker.known.clear()
        worker.dropped.clear()

    async def _kill(self, worker: _Worker, loop: asyncio.AbstractEventLoop) -> None:
        process, conn = worker.process, worker.conn
        worker.process, worker.conn = None, None
        worker.known.clear()
        if process is not None:
            process.kill()
            await loop.run_in_executor(None, process.join, 10)
        if conn is not None:
            conn.close()

    async def close(self) -> None:
        """Stop every worker."""
        loop = asyncio.get_running_loop()
        for worker in [*self._workers, self._spare]:
            if worker.task is not None:
                worker.task.cancel()
            process, conn = worker.process, worker.conn
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.send(None)
            if process is not None:
                await loop.run_in_executor(None, process.join, 2)
                if process.is_alive():
                    process.kill()
                    await loop.run_in_executor(None, process.join, 5)
            worker.process = worker.conn = None
        self._io.shutdown(wait=False, cancel_futures=True)

    def pids(self) -> list[int]:
        """Process ids of the running workers (for tests and operators)."""
        return [w.process.pid for w in [*self._workers, self._spare] if w.process is not None]


def _send_all(conn: Connection, messages: list[Any]) -> None:
    for message in messages:
        conn.send(message)


__all__ = ["BUDGET_OPTIONS", "BUDGET_SHARE", "Answer", "BotPool", "BotSpec", "within_clock"]
