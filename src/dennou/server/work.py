"""Engine work for the tables (a step, a chance draw, a view, a turn): where it runs, by its cost.

Most engine work takes microseconds and runs on the event loop, where a hand-off would cost more
than the work. Some is expensive (10-card stud's live odds, a view of a long game) and would
stall every table if it ran there. Each kind of work (game, operation) keeps a running estimate
of its cost, measured where it ran:

- under :attr:`Work.INLINE`: on the event loop;
- under :attr:`Work.THREAD`, or not measured yet: on a thread (the loop keeps running between
  the GIL switches);
- slower: in a worker process, because compiled code (Numba) may hold the GIL for its whole call
  and a thread would stall the loop just the same. (The first run of such a kind, on a thread,
  can still hold the loop once: starting a process for every kind of work not yet measured would
  make every table's first steps wait for it.) The processes are shared fairly between accounts
  (a table's owner): work waits in a fair queue (:mod:`dennou.server.fair`, by CPU seconds
  served), so one account's backlog of expensive views delays another's by at most the one
  piece of work each process is doing.

The engine functions are module-level so that a process can run them; a game's errors come back
with their context (``rule``, ``seat``...) intact.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import multiprocessing
import random
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from dennou.arena.runners import exit_with_parent
from dennou.core.actions import Action
from dennou.core.errors import DennouError
from dennou.core.game import CHANCE, Event, Game
from dennou.core.turns import LIST_LEGAL_UP_TO, SAMPLE, legal_parts, sample_indices
from dennou.server.fair import FairQueue

T = TypeVar("T")

Kind = tuple[str, str]
"""A kind of work: ``(game, operation)``."""


# --- the engine work itself (module level: a worker process runs it) ------------------------
def apply(game: Game[Any, Any], state: Any, seat: int, action: Action) -> tuple[Any, list[Event]]:
    """``game.apply``."""
    return game.apply(state, seat, action)


def draw(game: Game[Any, Any], state: Any, rng: random.Random) -> tuple[Action, Any, list[Event]]:
    """Sample the chance action due now and apply it."""
    action = game.sample_chance(state, rng)
    new, events = game.apply(state, CHANCE, action)
    return action, new, events


def view(game: Game[Any, Any], state: Any, seat: int | None) -> dict[str, Any]:
    """``game.view``."""
    return game.view(state, seat)


TurnParts = tuple[
    dict[str, Any],
    list[dict[str, Any]] | None,
    int,
    dict[str, Any] | None,
    list[dict[str, Any]] | None,
]


def turn_parts(game: Game[Any, Any], state: Any, seat: int, version: int) -> TurnParts:
    """What a ``turn`` carries.

    The view, the legal actions listed (at most :data:`LIST_LEGAL_UP_TO`) or sampled, their
    count, and the game's description of them.
    """
    listed, count, description, sample = legal_parts(
        game, game.legal_actions(state, seat), version, seat
    )
    return game.view(state, seat), listed, count, description, sample


_Piece = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[tuple[bool, Any, float]]"]
"""Work waiting for a process: the function, its arguments, and where its outcome goes."""


class _CollectorClock(threading.local):
    """CPU seconds this thread spent in the garbage collector, and when its collection began."""

    started = 0.0
    spent = 0.0


_COLLECTOR = _CollectorClock()


def _collector_clock(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _COLLECTOR.started = time.thread_time()
    else:
        _COLLECTOR.spent += time.thread_time() - _COLLECTOR.started


def _timed(fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[bool, Any, float]:
    """Run ``fn(*args)``: ``(True, result, seconds)`` or ``(False, error parts, seconds)``.

    The seconds are the running thread's CPU time: what the work would cost the event loop,
    without the time a thread spent waiting for the GIL (which would keep cheap work off the
    loop for no reason), and without a garbage collection that happened to start during it (a
    collection stops every thread wherever it runs, and one of tens of milliseconds kept the
    cheapest kinds, a Numeron turn, off the loop for hundreds of runs).
    """
    if _collector_clock not in gc.callbacks:  # once per process (worker processes run this)
        gc.callbacks.append(_collector_clock)
    started, collecting = time.thread_time(), _COLLECTOR.spent
    ok = True
    try:
        result = fn(*args)
    except DennouError as exc:
        # an exception's pickle keeps only its message: send what rebuilds it with its context
        ok, result = False, (type(exc), exc.message, exc.context)
    return ok, result, time.thread_time() - started - (_COLLECTOR.spent - collecting)


class Work:
    """Runs engine work inline, on a thread or in a worker process, by its measured cost.

    Args:
        processes: Worker processes for the most expensive work.
    """

    INLINE = 0.002
    """Seconds under which work runs on the event loop (by its recent peak, not its mean)."""

    PEAK_DECAY = 0.99
    """Per run, how much of a kind's peak cost it keeps: one slow run keeps the kind off the
    loop for hundreds of runs, however cheap the runs between (a view of a cached position)."""

    THREAD = 0.02
    """Seconds under which work runs on a thread; anything slower runs in a process."""

    def __init__(self, processes: int = 1) -> None:
        self.cost: dict[Kind, float] = {}
        self.slowest: dict[Kind, float] = {}
        self.peak: dict[Kind, float] = {}
        self.where: dict[Kind, dict[str, int]] = {}
        """Per kind: how many times it ran inline, on a thread, in a process."""
        self._processes = processes
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._queue: FairQueue[_Piece] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._dispatchers: list[asyncio.Task[None]] = []

    def _process_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=self._processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=exit_with_parent,
            )
        return self._pool

    def warm(self) -> None:
        """Start the worker process now (in the background), so that it is ready when needed."""
        self._process_pool().submit(int)

    async def run(
        self,
        kind: Kind,
        fn: Callable[..., T],
        *args: Any,
        inline: bool = True,
        account: str = "",
    ) -> T:
        """``fn(*args)`` where its cost says (``fn``: a module-level function of this module).

        ``inline=False``: never on the event loop, whatever its cost so far (work whose next
        run may cost far more than its last ones: ``GameSpec.heavy_views``). ``account``: whose
        work it is (the table's owner), for its fair share of the worker processes.
        """
        estimate = self.cost.get(kind)
        peak = self.peak.get(kind)
        where = self.where.get(kind)
        if where is None:
            where = self.where[kind] = {"inline": 0, "thread": 0, "process": 0}
        if inline and peak is not None and peak < self.INLINE:
            ok, result, spent = _timed(fn, args)
            where["inline"] += 1
        elif estimate is None or estimate < self.THREAD:
            ok, result, spent = await asyncio.to_thread(_timed, fn, args)
            where["thread"] += 1
        else:
            ok, result, spent = await self._in_process(account, fn, args)
            where["process"] += 1
        self.cost[kind] = spent if estimate is None else 0.7 * estimate + 0.3 * spent
        self.peak[kind] = spent if peak is None else max(spent, self.PEAK_DECAY * peak)
        self.slowest[kind] = max(spent, self.slowest.get(kind, 0.0))
        if not ok:
            cls, message, context = result
            # the message already ends with its rules section, which rebuilding appends again
            suffix = f" — rules: {context['section']}" if context.get("section") else ""
            if suffix and message.endswith(suffix):
                message = message[: -len(suffix)]
            raise cls(message, **context)
        value: T = result
        return value

    async def _in_process(
        self, account: str, fn: Callable[..., Any], args: tuple[Any, ...]
    ) -> tuple[bool, Any, float]:
        loop = asyncio.get_running_loop()
        if self._queue is None or self._loop is not loop:
            # one queue and its dispatchers per event loop (a server has one; tests run several)
            self._queue, self._loop = FairQueue(1 << 30), loop
            self._dispatchers = [
                loop.create_task(self._dispatch(self._queue), name=f"work-{i}")
                for i in range(self._processes)
            ]
        future: asyncio.Future[tuple[bool, Any, float]] = loop.create_future()
        # unbounded by count: each table waits for its own work, so it has one piece at a time
        self._queue.put_nowait(account, (fn, args, future))
        return await future

    async def _dispatch(self, queue: FairQueue[_Piece]) -> None:
        """Hand the fairest waiting piece to the process pool, one at a time per process."""
        loop = asyncio.get_running_loop()
        while True:
            account, (fn, args, future) = await queue.get()
            if future.done():  # its table stopped waiting
                continue
            try:
                outcome = await loop.run_in_executor(self._process_pool(), _timed, fn, args)
            except Exception as exc:  # a broken pool: the table's request fails, as it would
                if not future.done():
                    future.set_exception(exc)
                continue
            queue.charge(account, outcome[2])
            if not future.done():
                future.set_result(outcome)

    def close(self) -> None:
        """Stop the worker process."""
        for task in self._dispatchers:
            with contextlib.suppress(RuntimeError):  # its loop closed already
                task.cancel()
        self._dispatchers, self._queue, self._loop = [], None, None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


__all__ = [
    "LIST_LEGAL_UP_TO",
    "SAMPLE",
    "Work",
    "apply",
    "draw",
    "sample_indices",
    "turn_parts",
    "view",
]
