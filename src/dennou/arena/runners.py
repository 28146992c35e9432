"""Where matches run: in this process, in local worker processes, or as Ray tasks.

Every runner takes :class:`Job` s and yields :class:`Done` s in the order they finish. A job
holds everything its match needs (the game by name, the rules, the bot specs by seat and the
seed), so a worker needs nothing else and the result is the same wherever it runs.

- :class:`InlineRunner`: one match after another in this process (``workers=1``).
- :class:`ProcessRunner`: a pool of local worker processes (default: one per core).
- :class:`RayRunner`: Ray tasks on a Ray cluster (``RAY_ADDRESS``) or a local Ray; needs the
  ``dennou[ray]`` extra.

Small matches go in chunks sized so that a task is about :data:`TASK_SECONDS` of work: a task
per Numeron game would cost more in messages than in play.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import msgspec

from dennou.arena.entrants import make_entrant_bot
from dennou.arena.play import play
from dennou.arena.schedule import Match, MatchResult
from dennou.core.errors import ConfigError
from dennou.core.game import Game
from dennou.core.record import Record

TASK_SECONDS = 0.05
"""Target work per task; chunks grow until a task takes about this long."""

MAX_CHUNK = 64
"""Most matches in one task."""


class Job(msgspec.Struct, frozen=True):
    """One match to play, self-contained.

    Attributes:
        game: The game's registry name.
        rules: The rules as JSON.
        match: The scheduled match.
        specs: The bot spec in each seat.
        players: The player name in each seat.
        time_limit: Seconds per decision (``None``: none).
        meta: Extra facts for the record's ``meta``.
    """

    game: str
    rules: dict[str, Any]
    match: Match
    specs: tuple[str, ...]
    players: tuple[str, ...]
    time_limit: float | None = None
    meta: dict[str, Any] = {}


class Done(msgspec.Struct, frozen=True):
    """A played match.

    Attributes:
        match: The match id.
        record: The record as JSON lines text (what ``dennou replay`` reads).
        result: The :class:`MatchResult` as JSON.
        seconds: Wall time of the match in the worker (for throughput, never for results).
    """

    match: int
    record: str
    result: bytes
    seconds: float


_RULES: dict[tuple[str, bytes], Any] = {}


def _rules(game: Game[Any, Any], rules: dict[str, Any]) -> Any:
    key = (game.spec.name, msgspec.json.encode(rules, order="sorted"))
    if key not in _RULES:
        _RULES[key] = game.make_rules(rules)
    return _RULES[key]


def result_of(match: Match, record: Record) -> MatchResult:
    """What a finished record decided, for standings and ratings."""
    outcome = record.outcome
    if outcome is None:
        raise ConfigError(f"match {match.id} has no outcome")
    n = len(record.players)
    defaults = [0] * n
    for step in record.steps:
        if step.default is not None and step.seat is not None and 0 <= step.seat < n:
            defaults[step.seat] += 1
    teams = outcome.get("teams")
    team_of = outcome.get("detail", {}).get("team_of") if teams else None
    return MatchResult(
        match=match.id,
        round=match.round,
        seats=match.seats,
        seed=match.seed,
        scores=tuple(float(s) for s in outcome["scores"]),
        ranks=tuple(int(r) for r in outcome["ranks"]),
        defaults=tuple(defaults),
        steps=len(record.steps),
        team_of=tuple(str(t) for t in team_of[:n]) if isinstance(team_of, list) else None,
        teams={str(k): float(v) for k, v in teams.items()} if teams else None,
    )


def run_job(job: Job) -> Done:
    """Play one match (in whatever process this runs in)."""
    from dennou.games import get

    started = time.perf_counter()
    game = get(job.game)
    bots = [make_entrant_bot(game, spec) for spec in job.specs]
    record = play(
        game,
        _rules(game, job.rules),
        bots,
        job.match.seed,
        players=job.players,
        time_limit=job.time_limit,
        meta={**job.meta, "bot_specs": list(job.specs)},
    )
    result = result_of(job.match, record)
    return Done(
        job.match.id, record.dumps(), msgspec.json.encode(result), time.perf_counter() - started
    )


def run_chunk(jobs: Sequence[Job]) -> list[Done]:
    """Play several matches one after another (one task)."""
    return [run_job(job) for job in jobs]


class Runner:
    """Runs jobs and yields what they give as they finish.

    Subclasses say how a chunk is submitted and waited for; this class keeps a bounded number
    of chunks in flight and sizes chunks from the time matches take.
    """

    workers: int = 1

    def run(self, jobs: Iterable[Job]) -> Iterator[Done]:
        """Play every job; yield each result as its chunk finishes."""
        queue = deque(jobs)
        pending: dict[Any, int] = {}
        seconds, played = 0.0, 0
        while queue or pending:
            while queue and len(pending) < 2 * self.workers:
                mean = seconds / played if played else None
                size = chunk_size(mean, len(queue), self.workers)
                chunk = [queue.popleft() for _ in range(size)]
                pending[self._submit(chunk)] = len(chunk)
            for handle in self._wait(list(pending)):
                del pending[handle]
                for done in self._get(handle):
                    seconds += done.seconds
                    played += 1
                    yield done

    def _submit(self, chunk: list[Job]) -> Any:
        raise NotImplementedError

    def _wait(self, handles: list[Any]) -> list[Any]:
        raise NotImplementedError

    def _get(self, handle: Any) -> list[Done]:
        raise NotImplementedError

    def close(self) -> None:
        """Release workers."""

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def chunk_size(mean_seconds: float | None, queued: int, workers: int) -> int:
    """Matches per task: about :data:`TASK_SECONDS` of work, never so many that workers idle.

    The first chunks hold one match each, until a mean duration is known.
    """
    if mean_seconds is None:
        return 1
    by_time = max(1, int(TASK_SECONDS / max(mean_seconds, 1e-6)))
    by_share = max(1, queued // (4 * workers))
    return max(1, min(by_time, by_share, MAX_CHUNK))


class InlineRunner(Runner):
    """Matches one after another in this process."""

    def run(self, jobs: Iterable[Job]) -> Iterator[Done]:
        """Play each job in turn."""
        for job in jobs:
            yield run_job(job)


def exit_with_parent(owner: int | None = None) -> None:
    """A pool worker's initializer: the worker ends when the process that made the pool is gone.

    A ``ProcessPoolExecutor`` worker holds both ends of its call queue, so a parent killed by
    SIGKILL (a crash test, ``kill -9``) would leave it waiting for ever. Under ``forkserver`` the
    worker's parent is the fork server, which outlives a killed owner: the worker watches the
    owner itself (``owner``, the pool's process id), and its own parent too.

    Args:
        owner: The process that made the pool (default: this worker's parent).
    """
    parent = os.getppid()
    watched = parent if owner is None else owner

    def alive() -> bool:
        if os.getppid() != parent:
            return False
        try:
            os.kill(watched, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # alive, another user's: cannot be ours, but it exists
            return True
        return True

    def watch() -> None:
        while alive():
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


class ProcessRunner(Runner):
    """A pool of local worker processes.

    Args:
        workers: Processes (default: one per core).
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        # forkserver: workers start from a clean process, never a fork of one whose threads
        # (a progress bar's) might hold locks. Nothing is preloaded: the fork server starts
        # before this process's sys.path is handed over, and could import another dennou.
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        self.pool = cf.ProcessPoolExecutor(
            self.workers, mp_context=ctx, initializer=exit_with_parent, initargs=(os.getpid(),)
        )

    def _submit(self, chunk: list[Job]) -> Any:
        return self.pool.submit(run_chunk, chunk)

    def _wait(self, handles: list[Any]) -> list[Any]:
        done, _ = cf.wait(handles, return_when=cf.FIRST_COMPLETED)
        return [h for h in handles if h in done]  # in submission order: deterministic

    def _get(self, handle: Any) -> list[Done]:
        result: list[Done] = handle.result()
        return result

    def close(self) -> None:
        """Stop the workers (pending chunks are dropped)."""
        self.pool.shutdown(wait=True, cancel_futures=True)


class RayRunner(Runner):
    """Ray tasks: on the cluster at ``RAY_ADDRESS`` (or ``address``), else a local Ray.

    A Ray already initialised in this process (a test's ``ray.init(num_cpus=2)``) is used as
    it is. Entrant classes (``module:Class``) must be importable on the cluster's workers.

    Args:
        address: A Ray address (default: ``RAY_ADDRESS``, else start a local Ray, bound to
            127.0.0.1 only).
        workers: CPUs for a local Ray (default: every core); tasks in flight follow the
            cluster's CPUs.
    """

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise ConfigError(
                "Ray is not installed: pip install 'dennou[ray]' (or drop --ray)"
            ) from None
        self.ray = ray
        if not ray.is_initialized():
            address = address or os.environ.get("RAY_ADDRESS") or None
            if address is None:
                # A Ray this process starts is on loopback only (it runs code it is sent): Ray
                # keeps a node on 127.0.0.1 only where clusters are off (its macOS mode).
                ray._private.ray_constants.ENABLE_RAY_CLUSTER = False
                ray.init(
                    num_cpus=workers,
                    include_dashboard=False,
                    log_to_driver=False,
                    _node_ip_address="127.0.0.1",
                )
            else:
                ray.init(address=address, log_to_driver=False)
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        self.workers = max(1, int(resources.get("CPU", 1)))
        self.task = ray.remote(run_chunk)

    def _submit(self, chunk: list[Job]) -> Any:
        return self.task.remote(chunk)

    def _wait(self, handles: list[Any]) -> list[Any]:
        done, _ = self.ray.wait(handles, num_returns=1)
        ready = set(done)
        return [h for h in handles if h in ready]

    def _get(self, handle: Any) -> list[Done]:
        result: list[Done] = self.ray.get(handle)
        return result


def make_runner(workers: int | None = None, *, ray: bool = False) -> Runner:
    """The runner for ``--workers`` and ``--ray``.

    Ray is used with ``ray=True`` or when ``RAY_ADDRESS`` is set; otherwise one worker means
    this process and more mean local worker processes (default: one per core).
    """
    if ray or os.environ.get("RAY_ADDRESS"):
        return RayRunner(workers=workers)
    count = workers or os.cpu_count() or 1
    if count <= 1:
        return InlineRunner()
    return ProcessRunner(count)


__all__ = [
    "Done",
    "InlineRunner",
    "Job",
    "ProcessRunner",
    "RayRunner",
    "Runner",
    "chunk_size",
    "exit_with_parent",
    "make_runner",
    "result_of",
    "run_chunk",
    "run_job",
]
