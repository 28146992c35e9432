"""Tournaments on the host, and the leaderboards.

A tournament is created over HTTP by its owner (a registered account) and then started, paused,
resumed or cancelled by that owner only. Its entrants are built-in bots (``greedy``,
``montecarlo:playouts=200``) and registered accounts (``@alice``) whose programs connect
remotely: each match gets an ordinary table, seated from the schedule, that the lobby lists and
anyone may spectate; a remote entrant's seat is held for its account, its program finds it
(``GET /api/tournaments/{id}/seats``, or ``dennou bot run ... --tournament ID``) and plays it
over the WebSocket. An entrant that is absent (or too slow) gets the game's default for each
decision, and the record says so (``default: absent``/``timeout``); standings count them.

Nothing a client sends decides the games: the tournament's seed is drawn by the server (an
operator may fix it with ``DENNOU_TOURNAMENT_SEED`` for reproducible runs) and published only
when the tournament is over; every match's seed derives from it.

Everything is in the store (:mod:`dennou.store.tournaments`): a match's table id is stored before
the table exists, a table is stored before it starts, and a result is stored once its table has
finished. Kill the server and start it again: the tables resume themselves, and each running
tournament's driver picks up where the store says it was.

On a cluster (:mod:`dennou.server.cluster`) each tournament is driven by the process holding its
lease (``tournament:ID``), its tables are spread over the site's processes, and the others keep a
copy read from the store at each change the driver announces: a process that dies has its
tournaments driven elsewhere from the store within a few seconds.

Every finished tournament table, and every ordinary table created with the option
``"rated": true``, moves the game's leaderboard once (per rules preset, see
:func:`dennou.arena.leaderboard.rules_preset`).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec
from starlette.requests import Request

from dennou.arena.entrants import Entrant, is_class_target, parse_entrants
from dennou.arena.leaderboard import rules_preset
from dennou.arena.ratings import Rating, Ratings
from dennou.arena.runners import result_of
from dennou.arena.schedule import (
    Match,
    MatchResult,
    TournamentConfig,
    byes,
    scheduled,
    total_matches,
)
from dennou.arena.standings import summary_json
from dennou.arena.tournament import make_config, player_name
from dennou.core.errors import ConfigError
from dennou.core.game import Game
from dennou.core.jsondata import to_json
from dennou.server.errors import Refused
from dennou.server.http_api import BODY_ERRORS, Endpoint, Query, account_of, read_json
from dennou.server.protocol import SeatMsg
from dennou.server.table import TableActor
from dennou.store import TableRow
from dennou.store.tournaments import MatchRow, RatingRow, TournamentRow, TournamentStore

if TYPE_CHECKING:
    from dennou.server.hub import Hub

T = TypeVar("T")

SEED_ENV = "DENNOU_TOURNAMENT_SEED"
"""An operator's fixed tournament seed (reproducible runs and tests); unset: a random one."""

MAX_MATCHES = 100_000
"""Most matches in one host tournament."""

MAX_ENTRANTS = 256
"""Most entrants in one host tournament."""

MAX_WAIT = 30 * 86400
"""Latest ``start_at``: seconds from now."""

POLL = 0.1
"""Seconds between a driver's looks at its tables."""

REMOTE_POLL = 1.0
"""Seconds between a driver's looks at a table another process of the site runs (in the store)."""

MIRROR_AGE = 1.0
"""Seconds a process that does not drive a tournament answers from its copy before reading the
store again (it also reads it at each change the driver announces)."""

LEASE = "tournament:"
"""The lease of a tournament's driver in a cluster: ``tournament:ID``."""

BOT_PREFIX = "bot:"
"""Leaderboard names of built-in bots: ``bot:greedy``."""

OVER = ("finished", "cancelled")
ACTIVE = ("created", "running", "paused")
"""A tournament counts against its owner's ``tournaments_per_account`` while in these."""

INVITE_ACTIONS = ("accept", "decline")
"""What an invited account answers (``POST /api/tournaments/{id}/accept``)."""

WITHHELD = (
    "this table's deals are replayed at other tables of its duplicate group: nothing of it "
    "(record, replay, spectating, outcome, result) is shown until the whole group has finished"
)


class HostOptions(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """How the host runs a tournament (not the rules of the game).

    Attributes:
        tables: Matches played at once.
        time_limit: Seconds per decision when the rules have no time limit of their own.
        absent_grace: Seconds a remote entrant may be away (or not yet connected) before its
            decisions get the default.
        start_at: When to start (Unix time) if some invited entrants have not accepted by
            then: they play as absent. ``None``: wait for every acceptance.
    """

    tables: int = msgspec.field(default=2)
    time_limit: float | None = None
    absent_grace: float = 10.0
    start_at: float | None = None


class CreateTournament(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``POST /api/tournaments``.

    Attributes:
        game: The game.
        entrants: Bot specs, ``name=spec``, and ``@account`` for remote programs.
        rules: Rules options (default: the game's).
        format: ``round-robin`` or ``swiss``.
        seats: Players per match (default: the game's usual table, at most the entrants).
        games: At least this many matches (whole rounds).
        rounds: Rounds (instead of ``games``).
        duplicate: Replay each deal with the seats rotated (games that support it).
        options: Host options.
        start: Start at once.
    """

    game: str
    entrants: list[str]
    rules: dict[str, Any] = {}
    format: str = "round-robin"
    seats: int | None = None
    games: int | None = None
    rounds: int | None = None
    duplicate: bool = False
    options: HostOptions = msgspec.field(default_factory=HostOptions)
    start: bool = False


@dataclass
class _Run:
    """A tournament the host is running: the store's row and what the driver knows."""

    row: TournamentRow
    config: TournamentConfig
    game: Game[Any, Any]
    results: dict[int, MatchResult] = field(default_factory=dict)
    open: dict[int, str] = field(default_factory=dict)
    """Match -> table id, for matches whose table has not finished."""
    tables: dict[int, str] = field(default_factory=dict)
    """Every match that has a table."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    """Set (and replaced) at every change: a waiter keeps the event it saw before looking."""
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while its status or invitations change (each change reads the last one's)."""
    summary: dict[str, Any] | None = None
    loaded_at: float = 0.0
    """When this copy was read from the store (``time.monotonic``)."""
    checked: dict[str, float] = field(default_factory=dict)
    """Table id -> when the driver last read the status of a table another process runs."""
    rated_upto: int = 0
    """Every finished match before this one has moved the leaderboard (see ``_rate_in_order``)."""
    _plan: dict[int, Match] = field(default_factory=dict)
    _groups: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    _plan_key: int = -1

    def plan(self) -> dict[int, Match]:
        """The matches scheduled so far, by id (a Swiss plan grows as rounds complete)."""
        key = len(self.results) if self.config.format == "swiss" else 0
        if key != self._plan_key:
            matches = scheduled(self.config, list(self.results.values()))
            self._plan, self._plan_key = {m.id: m for m in matches}, key
            self._groups = {}
            for m in matches:
                self._groups.setdefault((m.round, m.group), []).append(m.id)
        return self._plan

    def group(self, match: Match) -> list[int]:
        """The matches that share ``match``'s deals (its duplicate group), ``match`` included."""
        self.plan()
        return self._groups.get((match.round, match.group), [match.id])

    def shares_deals(self) -> bool:
        """Whether tables of this tournament replay each other's deals and it is not over."""
        return self.config.duplicate and self.row.status not in OVER

    def group_over(self, match: Match) -> bool:
        """Whether every table of ``match``'s duplicate group has its result."""
        return all(m in self.results for m in self.group(match))

    def shown(self, match_id: int) -> bool:
        """Whether anyone may see what was dealt at this match (see :data:`WITHHELD`)."""
        match = self.plan().get(match_id)
        return not self.shares_deals() or match is None or self.group_over(match)

    def invitations(self) -> dict[str, str]:
        """Invited account -> ``invited``, ``accepted`` or ``declined``."""
        found = self.row.options.get("invitations") or {}
        return dict(found) if isinstance(found, dict) else {}

    def notify(self) -> None:
        """Wake everyone waiting for a change (long polls)."""
        changed, self.changed = self.changed, asyncio.Event()
        changed.set()

    @property
    def total(self) -> int:
        return total_matches(self.config)


class TournamentHost:
    """The host's tournaments: creation, control, the drivers, and the leaderboards.

    Args:
        hub: The hub whose tables the tournaments play at.
    """

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.db = TournamentStore(hub.store.store)
        self.runs: dict[str, _Run] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self._watcher: asyncio.Task[None] | None = None
        self._rated_seen: set[str] = set()
        self._timers: dict[str, asyncio.Task[None]] = {}
        """Created tournaments waiting for their ``start_at``."""
        self.table_match: dict[str, tuple[str, int]] = {}
        """Table id -> (tournament, match), for every table a tournament has."""
        self._creating: dict[str, int] = {}
        """Tournaments being created, per owner (counted before the first ``await``)."""
        self.cluster: Any = hub.cluster
        """This process's part of a cluster (``None``: a lone host)."""
        self._turn = 0

    async def _call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await self.hub.store.call(fn, *args, **kwargs)

    # --- lifecycle --------------------------------------------------------------------------
    async def start(self) -> None:
        """Resume every tournament that was running (or paused, or still finishing tables).

        In a cluster, each tournament is driven by the process holding its lease
        (``tournament:ID``): every process takes, at each renewal, the drivers nobody holds
        (:meth:`_claim`), so the tournaments of a process that died continue elsewhere.
        """
        self.hub.deal_gates.append(self.withheld)
        if self.cluster is not None:
            self.cluster.handlers["tour"] = self._changed_elsewhere
            self.cluster.on_renew.append(self._claim)
            self.cluster.on_lost.append(self._lost)
            await self._claim()
        else:
            await self._resume_all()
        self._watcher = asyncio.create_task(self._watch_rated(), name="rated-tables")

    async def _resume_all(self) -> None:
        for row in await self._call(self.db.all, ["running", "paused", "cancelled"], 10_000):
            try:
                run = await self._load(row)
            except Exception as exc:  # one broken tournament must not keep the others down
                self.hub.log(f"cannot resume tournament {row.id}: {exc!r}")
                continue
            if row.status == "cancelled" and not run.open:
                continue
            self._drive(run)
        for row in await self._call(self.db.all, ["created"], 10_000):
            if row.options.get("start_at") is not None:
                self._start_at(await self.run_of(row.id))

    # --- a cluster: one driver per tournament, by lease ----------------------------------------
    def _driving(self, tournament_id: str) -> bool:
        """Whether this process drives the tournament (or waits to start it on time)."""
        task = self.drivers.get(tournament_id) or self._timers.get(tournament_id)
        return task is not None and not task.done()

    async def _claim(self) -> None:
        """Drive the site's tournaments whose driver's lease nobody holds (a cluster's renewal).

        Running and paused tournaments, and those waiting for their ``start_at``. The run is read
        afresh from the store: whatever the last driver stored is where this one starts.
        """
        rows = await self._call(self.db.all, ["running", "paused", "created"], 10_000)
        for row in rows:
            if self._driving(row.id):
                continue
            if row.status == "created" and row.options.get("start_at") is None:
                continue
            await self._take_driver(row)

    async def _take_driver(self, row: TournamentRow) -> bool:
        """Take the tournament's lease and drive it here if nobody holds it."""
        if await self.cluster.take(LEASE + row.id) != self.cluster.name:
            if row.id not in self.runs:  # a copy: its tables' deals are gated here too
                await self._load(row)
            return False
        run = self.runs.get(row.id)
        if run is None:
            run = await self._load(row)
        await self._refresh(run)  # whatever the last driver stored is where this one starts
        self.hub.log(f"tournament {row.id}: driven here")
        if run.row.status == "created":
            self._start_at(run)
        else:
            self._drive(run)
        return True

    async def _lost(self, lease: str) -> None:
        """Another process holds this tournament's lease now: stop driving it here."""
        if not lease.startswith(LEASE):
            return
        tournament_id = lease[len(LEASE) :]
        for task in (self.drivers.pop(tournament_id, None), self._timers.pop(tournament_id, None)):
            if task is not None:
                task.cancel()
        self.hub.log(f"tournament {tournament_id}: driven by another process now")

    def _notify(self, run: _Run) -> None:
        """A change: wake this process's waiters, and tell the site's other processes."""
        run.notify()
        if self.cluster is not None:
            self.cluster.tell("tour", {"t": run.row.id})

    async def _changed_elsewhere(self, header: dict[str, Any], body: bytes) -> None:
        """Another process changed a tournament: read it again from the store."""
        run = self.runs.get(str(header["t"]))
        if run is None or header.get("p") == self.cluster.name:
            return
        if not self._driving(run.row.id):
            await self._refresh(run)
            return
        row = await self._call(self.db.get, run.row.id)  # its owner paused, resumed, cancelled
        if row is not None:
            run.row = row
            run.summary = None
            run.wake.set()
            run.notify()

    async def _refresh(self, run: _Run) -> None:
        """Read a tournament this process does not drive from the store, in place."""
        row = await self._call(self.db.get, run.row.id)
        matches = await self._call(self.db.matches, run.row.id)
        if row is None:
            return
        run.row = row
        for m in matches:
            run.tables[m.match] = m.table_id
            self.table_match[m.table_id] = (row.id, m.match)
            if m.result is not None:
                run.results[m.match] = msgspec.convert(m.result, MatchResult)
                run.open.pop(m.match, None)
            else:
                run.open[m.match] = m.table_id
        run.summary = None
        run.loaded_at = time.monotonic()
        run.notify()

    def _next_process(self) -> str:
        """Where the next table of a tournament is played: the site's processes in turn."""
        peers = self.cluster.peers
        self._turn += 1
        return str(peers[self._turn % len(peers)])

    async def stop(self) -> None:
        """Stop the drivers (their state is in the store)."""
        tasks = [*self.drivers.values(), *self._timers.values()]
        tasks += [self._watcher] if self._watcher else []
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _load(self, row: TournamentRow) -> _Run:
        config = msgspec.convert(row.config, TournamentConfig)
        game = self.hub.game(config.game)
        run = _Run(row, config, game, loaded_at=time.monotonic())
        matches = await self._call(self.db.matches, row.id)
        if row.id in self.runs:  # loaded by another request meanwhile: one run per tournament
            return self.runs[row.id]
        for m in matches:
            run.tables[m.match] = m.table_id
            self.table_match[m.table_id] = (row.id, m.match)
            if m.result is not None:
                run.results[m.match] = msgspec.convert(m.result, MatchResult)
            else:
                run.open[m.match] = m.table_id
        rated = await self._call(self.db.rated_among, [run.tables[m] for m in sorted(run.results)])
        if row.id in self.runs:  # loaded meanwhile
            return self.runs[row.id]
        while run.rated_upto in run.results and run.tables[run.rated_upto] in rated:
            run.rated_upto += 1
        self.runs[row.id] = run
        return run

    async def run_of(self, tournament_id: str) -> _Run:
        """A tournament by id (``not_found`` otherwise)."""
        run = self.runs.get(tournament_id)
        if run is not None:
            if (
                self.cluster is not None
                and not self._driving(tournament_id)
                and time.monotonic() - run.loaded_at > MIRROR_AGE
                and not (run.row.status in OVER and not run.open)
            ):
                await self._refresh(run)  # a copy of what another process drives
            return run
        row = await self._call(self.db.get, tournament_id)
        if row is None:
            raise Refused("not_found", f"no tournament {tournament_id!r}")
        if tournament_id in self.runs:  # loaded meanwhile
            return self.runs[tournament_id]
        return await self._load(row)

    # --- creation and control ----------------------------------------------------------------
    async def create(self, owner: str, msg: CreateTournament) -> _Run:
        """Create a tournament (and start it if asked).

        Raises:
            ConfigError: Anything that cannot be played; nothing is stored then.
            Refused: An unknown account among the entrants.
        """
        game = self.hub.game(msg.game)
        if not 2 <= len(msg.entrants) <= MAX_ENTRANTS:
            raise ConfigError(f"a tournament has 2-{MAX_ENTRANTS} entrants")
        entrants = parse_entrants(msg.entrants)
        for e in entrants:
            if is_class_target(e.spec):
                raise ConfigError(
                    f"entrant {e.name!r}: the host plays built-in bots and remote accounts "
                    f"(@name) only; run {e.spec} as a remote program (dennou bot run)"
                )
        self._check_options(msg.options)
        # counted and reserved before the first await: concurrent requests cannot pass it
        limit = self.hub.limits.tournaments_per_account
        mine = self._creating.get(owner, 0) + sum(
            1 for r in self.runs.values() if r.row.owner == owner and r.row.status in ACTIVE
        )
        if mine >= limit:
            raise Refused(
                "limit_reached",
                f"you have {mine} tournaments not over (created, running or paused); "
                f"the limit is {limit}",
            )
        self._creating[owner] = self._creating.get(owner, 0) + 1
        try:
            if self.cluster is None:
                return await self._create(owner, msg, game, entrants)
            # a site counts the owner's tournaments on every process, one creation at a time
            busy = "too many tournaments being made at once; try again"
            async with self.cluster.shared.lock("tournaments", owner, busy):
                rows = await self._call(self.db.all, list(ACTIVE), 10_000)
                mine = sum(1 for r in rows if r.owner == owner)
                if mine >= limit:
                    raise Refused(
                        "limit_reached",
                        f"you have {mine} tournaments not over (created, running or paused) "
                        f"on the site; the limit is {limit}",
                    )
                return await self._create(owner, msg, game, entrants)
        finally:
            self._creating[owner] -= 1
            if not self._creating[owner]:
                del self._creating[owner]

    def _check_options(self, options: HostOptions) -> None:
        """The host's limits on a tournament's tables, as for any table (``ConfigError``)."""
        limits = self.hub.limits
        most = min(64, limits.tables_per_account)
        if not 1 <= options.tables <= most:
            raise ConfigError(
                f"options.tables is 1-{most} tables at once (the host's tables_per_account)"
            )
        clock = options.time_limit
        if clock is not None and not limits.time_limit_min <= clock <= limits.time_limit_max:
            raise ConfigError(
                f"options.time_limit must be {limits.time_limit_min:g}-"
                f"{limits.time_limit_max:g} seconds, got {clock:g}"
            )
        grace = options.absent_grace
        if not limits.absent_grace_min <= grace <= limits.absent_grace_max:
            raise ConfigError(
                f"options.absent_grace must be {limits.absent_grace_min:g}-"
                f"{limits.absent_grace_max:g} seconds, got {grace:g}"
            )
        if options.start_at is not None and not (
            math.isfinite(options.start_at) and options.start_at <= time.time() + MAX_WAIT
        ):
            raise ConfigError(
                f"options.start_at is a Unix time at most {MAX_WAIT // 86400} days from now"
            )

    async def _create(
        self, owner: str, msg: CreateTournament, game: Game[Any, Any], entrants: list[Entrant]
    ) -> _Run:
        exists = self.hub.store.store.account_exists
        invitations: dict[str, str] = {}
        for e in entrants:
            if e.remote:
                account = e.account or ""
                if not await self._call(exists, account):
                    raise ConfigError(f"unknown entrant {e.spec!r}: no account {account!r}")
                invitations[account] = "accepted" if account == owner else "invited"
            elif await self._call(exists, e.name):
                # a bot listed under an account's name would pass for that person's program
                raise ConfigError(
                    f"entrant {e.name!r} is a built-in bot named like the account {e.name!r}: "
                    f"name it otherwise ({e.name}_bot={e.spec}), or enter the account as "
                    f"@{e.name}"
                )
        options = msg.options
        seed = _server_seed()
        config = make_config(
            game,
            entrants,
            fmt=msg.format,
            seats=msg.seats,
            games=msg.games,
            rounds=msg.rounds,
            duplicate=msg.duplicate,
            seed=seed,
            rules=game.make_rules(msg.rules),
            remote_ok=True,
        )
        if total_matches(config) > MAX_MATCHES:
            raise ConfigError(
                f"{total_matches(config):,} matches; a host tournament has at most {MAX_MATCHES:,}"
            )
        row = TournamentRow(
            id="u" + secrets.token_hex(5),
            game=game.spec.name,
            owner=owner,
            status="created",
            config=msgspec.to_builtins(config),
            options={
                **msgspec.to_builtins(options),
                "invitations": invitations,
                "start_when_accepted": msg.start,
            },
            seed=seed,
            created_at=time.time(),
        )
        await self._call(self.db.create, row)
        run = _Run(row, config, game)
        self.runs[row.id] = run
        if msg.start and not _pending(run):
            await self.control(owner, row.id, "start")
        elif options.start_at is not None:
            self._start_at(run)
        return run

    def _start_at(self, run: _Run) -> None:
        """Start ``run`` at its ``start_at``, whoever has accepted by then (the rest are absent)."""

        async def wait_and_start() -> None:
            await asyncio.sleep(max(0.0, float(run.row.options["start_at"]) - time.time()))
            while run.row.status == "created":
                try:
                    await self.control(run.row.owner, run.row.id, "start", on_time=True)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # a store hiccup: log, wait, try again
                    self.hub.log(f"tournament {run.row.id} cannot start on time: {exc!r}")
                    await asyncio.sleep(1.0)

        self._timers[run.row.id] = asyncio.create_task(
            wait_and_start(), name=f"tournament-{run.row.id}-start"
        )

    async def answer(self, account: str, tournament_id: str, action: str) -> _Run:
        """An invited account's ``accept`` or ``decline`` (before the tournament starts).

        A tournament created with ``start`` starts once the last invitation is accepted.

        Raises:
            Refused: Not invited, or the tournament has started (accepting again is allowed).
        """
        run = await self.run_of(tournament_id)
        async with self._locked(run):  # concurrent answers: each reads what the last one wrote
            invitations = run.invitations()
            if account not in invitations:
                raise Refused(
                    "forbidden", f"{account} is not an entrant of tournament {tournament_id}"
                )
            answer = "accepted" if action == "accept" else "declined"
            if invitations[account] == answer:
                return run
            if run.row.status != "created":
                raise Refused(
                    "conflict",
                    f"tournament {tournament_id} is {run.row.status}: its entrants are set",
                )
            invitations[account] = answer
            options = {**run.row.options, "invitations": invitations}
            await self._call(self.db.update, tournament_id, options=options)
            run.row = msgspec.structs.replace(run.row, options=options)
            self._notify(run)
            start = bool(options.get("start_when_accepted")) and not _pending(run)
        if start:
            with contextlib.suppress(Refused):  # started meanwhile by another answer
                await self.control(run.row.owner, tournament_id, "start")
        return run

    async def control(
        self, account: str, tournament_id: str, action: str, *, on_time: bool = False
    ) -> _Run:
        """``start``, ``pause``, ``resume`` or ``cancel`` (the owner only).

        ``on_time``: the host starts it at its ``start_at``, whoever has accepted.

        Raises:
            Refused: Not the owner, an unknown action, or one the status does not allow.
        """
        run = await self.run_of(tournament_id)
        async with self._locked(run):
            return await self._control(run, account, tournament_id, action, on_time)

    @contextlib.asynccontextmanager
    async def _locked(self, run: _Run) -> AsyncIterator[None]:
        """Hold the tournament's lock while its status or invitations change.

        In a cluster the lock is the site's, and the tournament is read again from the store
        under it: another process may have changed it last.
        """
        async with run.lock:
            if self.cluster is None:
                yield
                return
            busy = f"tournament {run.row.id} is being changed; try again"
            async with self.cluster.shared.lock("tournament", run.row.id, busy):
                row = await self._call(self.db.get, run.row.id)
                if row is not None:
                    run.row = row
                yield

    async def _control(
        self, run: _Run, account: str, tournament_id: str, action: str, on_time: bool
    ) -> _Run:
        if account != run.row.owner:
            raise Refused("forbidden", f"only the owner ({run.row.owner}) may change it")
        allowed = {
            "start": ("created",),
            "pause": ("running",),
            "resume": ("paused",),
            "cancel": ("created", "running", "paused"),
        }
        if action not in allowed:
            raise Refused("not_found", f"no action {action!r}; actions: {', '.join(allowed)}")
        if run.row.status not in allowed[action]:
            raise Refused(
                "conflict", f"tournament {tournament_id} is {run.row.status}: no {action}"
            )
        if action == "start" and _pending(run) and not on_time:
            raise Refused(
                "conflict",
                "waiting for entrants to accept: "
                + ", ".join(f"{a} ({s})" for a, s in sorted(_pending(run).items()))
                + f" (each: POST /api/tournaments/{tournament_id}/accept)",
            )
        status = {"start": "running", "pause": "paused", "resume": "running"}.get(
            action, "cancelled"
        )
        fields: dict[str, Any] = {"status": status}
        if action == "start":
            fields["started_at"] = time.time()
        if action == "cancel":
            fields["finished_at"] = time.time()
        await self._call(self.db.update, tournament_id, **fields)
        run.row = msgspec.structs.replace(run.row, **fields)
        run.summary = None  # a cancelled tournament shows every result
        if action == "cancel":
            for table_id in list(run.open.values()):
                await self._cancel_table(table_id)
            await self._rate_in_order(run)
        run.wake.set()
        self._notify(run)
        if status == "running" and (
            tournament_id not in self.drivers or self.drivers[tournament_id].done()
        ):
            if self.cluster is None:
                self._drive(run)
            else:  # driven where its lease is (here if nobody holds it)
                await self._take_driver(run.row)
        return run

    # --- the driver ---------------------------------------------------------------------------
    def _drive(self, run: _Run) -> None:
        self.drivers[run.row.id] = asyncio.create_task(
            self._driver(run), name=f"tournament-{run.row.id}"
        )

    async def _driver(self, run: _Run) -> None:
        rated = False
        while True:
            try:
                if not rated:  # what a restart left unrated
                    await self._rate_in_order(run)
                    rated = True
                if await self._step(run):
                    return
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a store hiccup: log, wait, try again
                self.hub.log(f"tournament {run.row.id}: {exc!r}")
                await asyncio.sleep(1.0)
                continue
            run.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(run.wake.wait(), POLL)

    async def _step(self, run: _Run) -> bool:
        """Record finished tables, open new ones; ``True`` once the driver has nothing to do."""
        now = time.monotonic()
        for match_id, table_id in sorted(run.open.items()):
            if table_id not in self.hub.tables and self.cluster is not None:
                if now - run.checked.get(table_id, 0.0) < REMOTE_POLL:
                    continue  # played elsewhere: read from the store, now and then
                run.checked[table_id] = now
            status = await self._table_status(run, match_id, table_id)
            if status == "finished":
                await self._record(run, match_id, table_id)
            elif run.row.status == "cancelled" and status == "aborted":
                run.open.pop(match_id, None)  # ended by the cancel: no result
                self._notify(run)
            elif run.row.status == "cancelled":  # cancelled just before a restart
                await self._cancel_table(table_id)
        if len(run.results) == run.total and run.row.status not in OVER:
            fields = {"status": "finished", "finished_at": time.time()}
            await self._call(self.db.update, run.row.id, **fields)
            run.row = msgspec.structs.replace(run.row, **fields)
            await self._rate_in_order(run)
            self._notify(run)
        if run.row.status in OVER:
            if not run.open and self.cluster is not None:
                await self._call(
                    self.hub.store.store.release_leases, self.cluster.name, [LEASE + run.row.id]
                )
            return not run.open
        if run.row.status != "running":
            return False
        limit = max(1, int(run.row.options.get("tables", 2)))
        for match in sorted(run.plan().values(), key=lambda m: m.id):
            if len(run.open) >= limit:
                break
            owner = run.row.owner
            if self.hub.open_tables_of(owner) >= self.hub.limits.tables_per_account:
                break  # the owner's tables, every tournament's and its own, share one limit
            if match.id in run.tables or self._meets_its_deal(run, match):
                continue
            table_id = "t" + secrets.token_hex(5)
            with self.hub.table_slot(owner):  # held until the table is in the hub
                # the table's id is stored first: after a crash, the driver creates the missing
                # table under this id rather than a second table for the match
                await self._call(self.db.add_match, run.row.id, match.id, table_id)
                run.tables[match.id] = run.open[match.id] = table_id
                self.table_match[table_id] = (run.row.id, match.id)
                await self._open_table(run, match, table_id)
            self._notify(run)
        return False

    async def _cancel_table(self, table_id: str) -> None:
        if self.cluster is not None:  # wherever the site runs it
            await self.cluster.cancel_table(table_id)
            return
        actor = self.hub.tables.get(table_id)
        if actor is not None:
            await actor.call(actor.cancel)

    def _meets_its_deal(self, run: _Run, match: Match) -> bool:
        """Whether a remote entrant of ``match`` is playing another rotation of its deal now.

        A program at two tables of one duplicate group at once would hold several hands of the
        same deal: such a match waits until the other table has finished.
        """
        if not run.config.duplicate:
            return False
        remote = {e for e in match.seats if run.config.entrants[e].remote}
        if not remote:
            return False
        group = set(run.group(match))
        plan = run.plan()
        return any(m in group and m in plan and remote & set(plan[m].seats) for m in run.open)

    def _met_before(self, run: _Run, match: Match) -> list[str]:
        """Remote entrants of ``match`` who played its deal before, at an earlier rotation."""
        if not run.config.duplicate:
            return []
        plan, names = run.plan(), run.config.names
        earlier = {e for m in run.group(match) if m < match.id for e in plan[m].seats}
        return [names[e] for e in match.seats if run.config.entrants[e].remote and e in earlier]

    def withheld(self, table_id: str) -> str | None:
        """Why nobody but its own players may see what was dealt at this table yet.

        In a duplicate tournament the rotations of a group share their deals: nothing of a
        table (record, replay, spectating, outcome, result) is shown before every table of its
        group has finished (or the tournament is over). ``None``: it may be shown.
        """
        where = self.table_match.get(table_id)
        if where is None:
            actor = self.hub.tables.get(table_id)
            if self.cluster is None or actor is None or actor.status not in ("waiting", "playing"):
                return None
            tournament = actor.row.options.get("tournament")
            if tournament is None:
                return None
            # a live table of a tournament this process has not read yet (every process reads
            # the running ones within a second): closed until it is known not to share its deals
            known = self.runs.get(str(tournament))
            return WITHHELD if known is None or known.shares_deals() else None
        run = self.runs.get(where[0])
        if run is None or run.shown(where[1]):
            return None
        return WITHHELD

    def _match(self, run: _Run, match_id: int) -> Match:
        match = run.plan().get(match_id)
        if match is None:
            raise ConfigError(f"match {match_id} is not scheduled in tournament {run.row.id}")
        return match

    async def _table_status(self, run: _Run, match_id: int, table_id: str) -> str:
        actor = self.hub.tables.get(table_id)
        if actor is None:
            stored = await self._call(self.hub.store.store.get_table, table_id)
            if stored is None:  # the server died between noting the table and creating it
                await self._open_table(run, self._match(run, match_id), table_id)
                return "playing"
            if stored.status == "finished":
                return "finished"
            cluster = self.hub.cluster
            if cluster is not None and not await cluster.is_owner(table_id):
                return stored.status  # another process of the site plays it
            actor = await self.hub.actor(table_id)
        if actor.status == "waiting":  # created, not started when the server died
            await actor.call(actor.begin)
        return actor.status

    async def _open_table(self, run: _Run, match: Match, table_id: str) -> None:
        config, options = run.config, run.row.options
        k = len(match.seats)
        seats: list[dict[str, Any]] = []
        for s, e in enumerate(match.seats):
            entrant = config.entrants[e]
            name = player_name(s, k, entrant.name)
            if entrant.remote:
                seats.append(
                    {"kind": "player", "name": entrant.account, "player": name, "assigned": True}
                )
            else:
                seats.append({"kind": "bot", "bot": entrant.spec, "player": name})
        row = TableRow(
            id=table_id,
            game=config.game,
            version=run.game.spec.version,
            rules=config.rules,
            seats=seats,
            options={
                "time_limit": options.get("time_limit"),
                "absent_grace": float(options.get("absent_grace", 10.0)),
                "tournament": run.row.id,
                "match": match.id,
            },
            players=None,
            status="waiting",
            seed=match.seed & (2**63 - 1),  # the store keeps signed 64-bit seeds
            created_by=run.row.owner,
            created_at=time.time(),
        )
        if self.cluster is not None:
            there = self._next_process()
            if there != self.cluster.name:  # the site's processes play its tables in turn
                await self._call(self.hub.store.store.create_table, row)
                run.checked[table_id] = time.monotonic()
                if not await self.cluster.hand_over(table_id, there):
                    await self.cluster.adopt(table_id)  # it is gone: here, then
                self._push_seats(run, match, table_id)
                return
            await self.cluster.take(table_id)  # leased before it exists: nobody takes it up
        await self._call(self.hub.store.store.create_table, row)
        actor = TableActor(self.hub, row, run.game)
        self.hub.tables[table_id] = actor
        actor.start()
        await actor.call(actor.begin)
        self._push_seats(run, match, table_id)

    def _push_seats(self, run: _Run, match: Match, table_id: str) -> None:
        """Tell the match's remote entrants their seats (on every process of a site)."""
        for s, e in enumerate(match.seats):
            account = run.config.entrants[e].account
            if account is not None:
                self.hub.push(
                    account, SeatMsg(tournament=run.row.id, table=table_id, seat=s, match=match.id)
                )
        self._notify(run)

    async def _record(self, run: _Run, match_id: int, table_id: str) -> None:
        record = await self._call(self.hub.store.store.record, table_id)
        if record is None or record.outcome is None:
            return
        result = result_of(self._match(run, match_id), record)
        await self._call(self.db.finish_match, run.row.id, match_id, msgspec.to_builtins(result))
        run.results[match_id] = result
        run.open.pop(match_id, None)
        run.summary = None
        await self._rate_in_order(run)
        self._notify(run)

    async def _rate_in_order(self, run: _Run) -> None:
        """Move the leaderboard by the finished matches in match order, never finishing order.

        A match is rated once every match before it has been (a tournament that is over rates
        what it finished, in order, gaps and all): equal runs give equal leaderboards, and the
        leaderboard moves as the tournament's own ratings do. Rating a table twice does nothing.
        """
        # the next match in order, one step at a time (each finished match costs O(1) here);
        # only a tournament that is over looks past a gap
        while True:
            match_id = run.rated_upto
            if match_id not in run.results:
                if run.row.status not in OVER:
                    return  # an earlier match is still playing
                later = [m for m in run.results if m > match_id]
                if not later:
                    return
                match_id = min(later)
            result = run.results[match_id]
            names = [_board_name(run.config.entrants[e].spec) for e in result.seats]
            await self.rate(run.tables[match_id], run.game, run.config.rules, names, result)
            run.rated_upto = match_id + 1

    # --- ratings ------------------------------------------------------------------------------
    async def rate(
        self,
        table_id: str,
        game: Game[Any, Any],
        rules: dict[str, Any],
        players: list[str],
        result: MatchResult,
    ) -> bool:
        """Move the leaderboard by one finished table, once (see ``TournamentStore.rate_table``).

        A name at two seats (two copies of one bot) is rated at its first seat only.
        """
        preset = rules_preset(game, rules)
        keep = [s for s, name in enumerate(players) if name not in players[:s]]
        names = [players[s] for s in keep]
        ranks = [result.ranks[s] for s in keep]
        team_of = [result.team_of[s] for s in keep] if result.team_of else None

        def update(current: dict[str, RatingRow]) -> dict[str, RatingRow]:
            ratings = Ratings({p: Rating(*row) for p, row in current.items()})
            ratings.rate_outcome(names, ranks, team_of=team_of, teams=result.teams)
            return {
                p: (ratings.get(p).mu, ratings.get(p).sigma, ratings.get(p).games) for p in names
            }

        if len(names) < 2:
            return False
        return await self._call(self.db.rate_table, table_id, game.spec.name, preset, names, update)

    async def _rate_table_row(self, row: TableRow) -> None:
        if row.outcome is None or row.players is None or row.game not in self.hub.games:
            return
        game = self.hub.games[row.game]
        names = board_names(row.seats)
        match = Match(0, 0, tuple(range(len(names))), row.seed or 0, 0)  # the seed is not rated
        record = await self._call(self.hub.store.store.record, row.id)
        if record is None:
            return
        await self.rate(row.id, game, row.rules, names, result_of(match, record))

    async def _watch_rated(self) -> None:
        """Rate every finished table created with ``"rated": true`` (once each)."""
        store = self.hub.store.store
        with contextlib.suppress(Exception):
            for row in await self._call(store.tables, ["finished"], 1000):
                if row.options.get("rated") and not await self._call(self.db.is_rated, row.id):
                    await self._rate_table_row(row)
        while True:
            for actor in list(self.hub.tables.values()):
                if (
                    actor.status == "finished"
                    and actor.id not in self._rated_seen
                    and actor.row.options.get("rated")
                ):
                    try:
                        await self._rate_table_row(actor.row)
                    except Exception as exc:
                        self.hub.log(f"rating table {actor.id}: {exc!r}")
                    self._rated_seen.add(actor.id)
            await asyncio.sleep(0.5)

    # --- what clients read ---------------------------------------------------------------------
    def info(self, run: _Run) -> dict[str, Any]:
        """A tournament as the API shows it (its seed only once it is over)."""
        config, row = run.config, run.row
        names = config.names
        playing = []
        for match_id, table_id in sorted(run.open.items()):
            match = run.plan().get(match_id)
            playing.append(
                {
                    "match": match_id,
                    "table": table_id,
                    "entrants": [names[e] for e in match.seats] if match else [],
                }
            )
        return {
            "id": row.id,
            "game": row.game,
            "owner": row.owner,
            "status": row.status,
            "format": config.format,
            "seats": config.seats,
            "rounds": config.rounds,
            "duplicate": config.duplicate,
            "rules": config.rules,
            "preset": rules_preset(run.game, config.rules),
            "entrants": [{"name": e.name, "spec": e.spec} for e in config.entrants],
            "options": {k: v for k, v in row.options.items() if k not in ("invitations",)},
            "invitations": run.invitations(),
            "matches": run.total,
            "finished": len(run.results),
            "playing": playing,
            "seed": row.seed if row.status in OVER else None,
            # the seed exceeds 2^53: a JavaScript client reads it exactly only as text
            "seed_text": str(row.seed) if row.status in OVER else None,
            "created_at": row.created_at,
            "started_at": row.started_at,
            "finished_at": row.finished_at,
        }

    def standings(self, run: _Run) -> dict[str, Any]:
        """Standings, ratings (in match order) and the pairwise table, with progress."""
        if run.summary is None:
            # a duplicate group's results show once the whole group has finished
            results = [r for m, r in sorted(run.results.items()) if run.shown(m)]
            run.summary = summary_json(run.config, results, byes(run.config, results), run.total)
            run.summary.pop("seed", None)
        return {
            **run.summary,
            "id": run.row.id,
            "status": run.row.status,
            "invitations": run.invitations(),
            "seed": run.row.seed if run.row.status in OVER else None,
            "seed_text": str(run.row.seed) if run.row.status in OVER else None,
        }

    async def seats(
        self, run: _Run, account: str, wait: float, known: frozenset[str] = frozenset()
    ) -> dict[str, Any]:
        """The caller's seats at tables of this tournament not finished.

        A long poll: it answers at once when a seat is at a table not in ``known`` (the tables
        the caller already has) or the tournament is over, else when one appears, else after
        ``wait`` seconds.
        """
        deadline = time.monotonic() + wait
        while True:
            changed = run.changed
            mine = []
            for match_id, table_id in sorted(run.open.items()):
                match = run.plan().get(match_id)
                if match is None:
                    continue
                for s, e in enumerate(match.seats):
                    if run.config.entrants[e].account == account:
                        mine.append({"table": table_id, "seat": s, "match": match_id})
            left = deadline - time.monotonic()
            new = any(seat["table"] not in known for seat in mine)
            if new or run.row.status in OVER or left <= 0:
                return {"tournament": run.row.id, "status": run.row.status, "seats": mine}
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), left)

    async def leaderboard(self, game: str, preset: str | None) -> dict[str, Any]:
        """The game's leaderboards (one per rules preset), best ordinal first."""
        self.hub.game(game)
        rows = await self._call(self.db.leaderboard, game, preset)
        boards = []
        for name, players in sorted(rows.items()):
            players.sort(key=lambda r: (-(r[1] - 3 * r[2]), r[0]))
            ratings = [
                {"name": p, "mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma, "games": games}
                for p, mu, sigma, games in players
            ]
            boards.append({"game": game, "preset": name, "ratings": ratings})
        return {"game": game, "boards": boards}


def _pending(run: _Run) -> dict[str, str]:
    """Invited accounts that have not accepted (``invited`` or ``declined``)."""
    return {a: s for a, s in run.invitations().items() if s != "accepted"}


def _board_name(spec: str) -> str:
    """A leaderboard name: accounts as they are, built-in bots as ``bot:<spec>``."""
    if spec.startswith("@"):
        return spec[1:]
    return BOT_PREFIX + spec


def board_names(seats: list[dict[str, Any]]) -> list[str]:
    """The leaderboard names of a stored table's seats (people by account, bots by spec)."""
    return [
        spec["name"] if spec["kind"] == "player" else _board_name(spec.get("bot", "?"))
        for spec in seats
    ]


def _server_seed() -> int:
    fixed = os.environ.get(SEED_ENV)
    if fixed:
        try:
            return int(fixed) & (2**63 - 1)
        except ValueError:
            raise ConfigError(f"{SEED_ENV} must be an integer, got {fixed!r}") from None
    return secrets.randbits(63)


# --- HTTP ---------------------------------------------------------------------------------------
def _host(request: Request) -> TournamentHost:
    host: TournamentHost = request.app.state.tournaments
    return host


async def api_tournaments(request: Request) -> Any:
    """Tournaments, newest first (``?status=`` for one status)."""
    host = _host(request)
    status = request.query_params.get("status")
    most = host.hub.limits.tournaments_listed
    rows = await host._call(host.db.all, [status] if status else None, most)
    out = []
    for row in rows:
        run = host.runs.get(row.id) or await host._load(row)
        out.append(host.info(run))
    return to_json(out)


async def api_create_tournament(request: Request) -> Any:
    """Create a tournament owned by the caller; entrants are bot specs and ``@accounts``."""
    account = await account_of(request)
    msg = await read_json(request, CreateTournament)
    assert account is not None
    host = _host(request)
    return to_json(host.info(await host.create(account, msg)))


async def api_tournament(request: Request) -> Any:
    """One tournament: status, configuration, invitations, progress (its seed once over)."""
    host = _host(request)
    return to_json(host.info(await host.run_of(request.path_params["tournament"])))


async def api_control(request: Request) -> Any:
    """Change a tournament: the owner starts, pauses, resumes or cancels; an entrant accepts."""
    host = _host(request)
    account = await account_of(request)
    assert account is not None
    tournament, action = request.path_params["tournament"], request.path_params["action"]
    if action in INVITE_ACTIONS:
        run = await host.answer(account, tournament, action)
    else:
        run = await host.control(account, tournament, action)
    return to_json(host.info(run))


async def api_standings(request: Request) -> Any:
    """Standings, ratings and the pairwise table (public)."""
    host = _host(request)
    return to_json(host.standings(await host.run_of(request.path_params["tournament"])))


async def api_tables(request: Request) -> Any:
    """Every match that has a table: match, table id, entrants, result once finished."""
    host = _host(request)
    run = await host.run_of(request.path_params["tournament"])
    rows: list[MatchRow] = await host._call(host.db.matches, run.row.id)
    names, plan = run.config.names, run.plan()
    out = []
    for m in rows:
        match = plan.get(m.match)
        shown = run.shown(m.match)
        entry: dict[str, Any] = {
            "match": m.match,
            "table": m.table_id,
            "entrants": [names[e] for e in match.seats] if match else None,
            "result": m.result if shown else None,
        }
        if not shown:
            entry["withheld"] = WITHHELD
        if match is not None and run.config.duplicate:
            entry["met_deal_before"] = host._met_before(run, match)
        out.append(entry)
    return to_json(out)


async def api_seats(request: Request) -> Any:
    """The caller's seats at unfinished tables of the tournament: a long poll (``?wait=``)."""
    host = _host(request)
    account = await account_of(request)
    assert account is not None
    limits = host.hub.limits
    try:
        wait = min(limits.seats_wait, max(0.0, float(request.query_params.get("wait", "0"))))
    except ValueError:
        raise Refused("bad_message", "wait is a number of seconds") from None
    known = frozenset(t for t in request.query_params.get("known", "").split(",") if t)
    if len(known) > limits.seats_known:
        raise Refused("bad_message", f"known lists at most {limits.seats_known} tables")
    run = await host.run_of(request.path_params["tournament"])
    return to_json(await host.seats(run, account, wait, known))


async def api_leaderboard(request: Request) -> Any:
    """The game's leaderboards (``?preset=`` for one)."""
    host = _host(request)
    return to_json(
        await host.leaderboard(request.path_params["game"], request.query_params.get("preset"))
    )


_ACTIONS = ", ".join(["start", "pause", "resume", "cancel", *INVITE_ACTIONS])

ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        "/api/tournaments",
        api_tournaments,
        "Tournaments, newest first (at most {tournaments_listed})",
        list[dict[str, Any]],
        query=(Query("status", "string", "only tournaments in this status"),),
    ),
    Endpoint(
        "POST",
        "/api/tournaments",
        api_create_tournament,
        "Create a tournament (you own it); entrants: bot specs and @accounts",
        dict[str, Any],
        status=201,
        body=CreateTournament,
        auth="required",
        errors=(*BODY_ERRORS, "unauthorized", "config", "not_found", "limit_reached"),
    ),
    Endpoint(
        "GET",
        "/api/tournaments/{tournament}",
        api_tournament,
        "One tournament",
        dict[str, Any],
        errors=("not_found",),
    ),
    Endpoint(
        "GET",
        "/api/tournaments/{tournament}/standings",
        api_standings,
        "Standings, ratings and the pairwise table",
        dict[str, Any],
        errors=("not_found",),
    ),
    Endpoint(
        "GET",
        "/api/tournaments/{tournament}/tables",
        api_tables,
        "Every match with a table, and its result once finished",
        list[dict[str, Any]],
        errors=("not_found",),
    ),
    Endpoint(
        "GET",
        "/api/tournaments/{tournament}/seats",
        api_seats,
        "Your seats at its unfinished tables (a long poll with ?wait=)",
        dict[str, Any],
        auth="required",
        errors=("unauthorized", "bad_message", "not_found"),
        query=(
            Query("wait", "number", "seconds to wait for a new seat (at most {seats_wait:g})"),
            Query(
                "known",
                "string",
                "tables you already have, comma-separated (at most {seats_known})",
            ),
        ),
    ),
    Endpoint(
        "POST",
        "/api/tournaments/{tournament}/{action}",
        api_control,
        f"{_ACTIONS}: the owner starts, pauses, resumes or cancels; an invited entrant answers",
        dict[str, Any],
        auth="required",
        errors=("unauthorized", "forbidden", "not_found", "conflict"),
    ),
    Endpoint(
        "GET",
        "/api/leaderboard/{game}",
        api_leaderboard,
        "The game's leaderboards, one per rules preset",
        dict[str, Any],
        errors=("not_found",),
        query=(Query("preset", "string", "only this rules preset's board"),),
    ),
)
"""The HTTP routes of tournaments and leaderboards (mounted and documented as the lobby's)."""


__all__ = [
    "ENDPOINTS",
    "SEED_ENV",
    "CreateTournament",
    "HostOptions",
    "TournamentHost",
    "board_names",
]
