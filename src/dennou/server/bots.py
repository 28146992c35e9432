"""Built-in bots off the event loop: worker processes, bounded queues, thinking cut at the clock.

A bot's thinking is the heaviest work a table asks for, and a thread cannot be stopped: so the
host runs bots in a few worker processes (:mod:`dennou.server.botworker`). Each bot seat is
pinned to one worker; the worker keeps the bot between decisions, and the host sends it only
the events it has not seen yet. When a decision outlasts the seat's clock the host kills that
worker (the thinking stops at once) and starts another; the bots that lived there are rebuilt
on their next decision by replaying everything their seats observed, which the table's log
holds. Queues are bounded: a table whose bot cannot be queued waits (its clock not running).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from typing import Any

from dennou.core.game import Event
from dennou.server import botworker
from dennou.server.botworker import Answer, BotSpec, Decide, Forget, Key

PREPARE_TIMEOUT = 120.0
"""Seconds a worker has to build a bot and replay its observations (imports and caches
included): not the bot's thinking, which the seat's clock bounds."""


def _context() -> BaseContext:
    # spawn: a worker is a fresh interpreter, never a fork of the server with its threads and
    # sockets, and it gets the server's import path (games defined outside the package too).
    return multiprocessing.get_context("spawn")


@dataclass
class _Job:
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
    queue: asyncio.Queue[_Job]
    process: Any = None
    conn: Connection | None = None
    known: dict[Key, int] = field(default_factory=dict)
    """Per bot: the version up to which this worker's copy has observed."""
    task: asyncio.Task[None] | None = None
    starting: asyncio.Future[None] | None = None
    kills: int = 0


class BotPool:
    """Worker processes for built-in bots.

    Args:
        workers: Number of worker processes.
        queue: Decisions that may wait per worker.
        log: Where to note kills and failures.
    """

    def __init__(
        self, workers: int = 2, queue: int = 256, log: Callable[[str], None] | None = None
    ) -> None:
        self._ctx = _context()
        self._log = log or (lambda text: None)
        self._workers = [_Worker(i, asyncio.Queue(queue)) for i in range(workers)]
        self._io = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="dennou-bots")
        self.kills = 0
        """Workers killed because a bot overran its clock."""
        self.decisions = 0

    def warm(self) -> None:
        """Start every worker now (in the background), so the first decision does not wait."""
        loop = asyncio.get_running_loop()
        for worker in self._workers:
            if worker.task is None or worker.task.done():
                worker.task = asyncio.create_task(self._serve(worker), name=f"bots-{worker.index}")
            if worker.process is None:
                worker.starting = loop.run_in_executor(self._io, self._start, worker)

    def _slot(self, key: Key) -> _Worker:
        return self._workers[zlib.crc32(f"{key[0]}/{key[1]}".encode()) % len(self._workers)]

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
    ) -> Answer:
        """The bot's decision in ``state``, thinking at most ``think`` seconds.

        Args:
            key: The bot's ``(table, seat)``.
            spec: How to build the bot.
            history: ``history(v)``: the seat's observed events after version ``v`` up to
                ``upto``, one list per step.
            upto: The table's version now (what the bot has observed once this is sent).
            state: The state the decision began in.
            rng_seed: Seeds the decision.
            channels: Where the seat may talk now.
            think: Seconds of thinking allowed (the seat's clock).

        Returns:
            The answer; ``timeout`` when the clock ran out (the worker was killed).
        """
        worker = self._slot(key)
        if worker.task is None or worker.task.done():
            worker.task = asyncio.create_task(self._serve(worker), name=f"bots-{worker.index}")
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        job = _Job(key, spec, history, upto, state, rng_seed, channels, think, future)
        await worker.queue.put(job)
        return await future

    def forget(self, key: Key) -> None:
        """The bot's table is over: its worker may drop it."""
        worker = self._slot(key)
        if worker.known.pop(key, None) is not None and worker.conn is not None:
            with contextlib.suppress(Exception):
                worker.conn.send(Forget(key))

    async def _serve(self, worker: _Worker) -> None:
        loop = asyncio.get_running_loop()
        while True:
            job = await worker.queue.get()
            if job.future.done():  # the table moved on (resigned, finished) while it waited
                continue
            try:
                answer = await self._run(worker, job, loop)
            except Exception as exc:  # the worker died: a bug or the OS; the table defaults
                self._log(f"bot worker {worker.index}: {exc!r}")
                await self._kill(worker, loop)
                answer = Answer(error=f"the bot's worker failed: {type(exc).__name__}: {exc}")
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
        batches = job.history(0 if known is None else known)
        request = Decide(job.key, job.spec, fresh, batches, job.state, job.rng_seed, job.channels)
        conn = worker.conn
        await loop.run_in_executor(self._io, conn.send, request)
        worker.known[job.key] = job.upto
        try:
            ready = await asyncio.wait_for(
                loop.run_in_executor(self._io, conn.recv), PREPARE_TIMEOUT
            )
        except TimeoutError:
            await self._kill(worker, loop)
            return Answer(error=f"the bot was not built within {PREPARE_TIMEOUT:g} s")
        if isinstance(ready, Answer):  # it could not be built
            worker.known.pop(job.key, None)
            return ready
        started = time.monotonic()
        self.decisions += 1
        try:
            answer: Answer = await asyncio.wait_for(
                loop.run_in_executor(self._io, conn.recv), job.think
            )
        except TimeoutError:
            # Stop the thinking now: kill the worker (its bots are rebuilt on their next turn).
            self.kills += 1
            worker.kills += 1
            await self._kill(worker, loop)
            return Answer(
                error=f"no decision within {job.think:g} s",
                timeout=True,
                ms=round((time.monotonic() - started) * 1000, 3),
            )
        return answer

    def _start(self, worker: _Worker) -> None:
        parent, child = self._ctx.Pipe()
        process = self._ctx.Process(  # type: ignore[attr-defined]
            target=botworker.main, args=(child,), daemon=True, name=f"dennou-bot-{worker.index}"
        )
        process.start()
        child.close()
        worker.process, worker.conn = process, parent
        worker.known.clear()

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
        for worker in self._workers:
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
        return [w.process.pid for w in self._workers if w.process is not None]


__all__ = ["Answer", "BotPool", "BotSpec"]
