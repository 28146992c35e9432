"""A tournament: its schedule, its durable record on disk, and the loop that plays it.

A tournament directory (``--out DIR``) is the tournament's record, written as matches finish:

- ``tournament.json``: the configuration (game, rules, entrants, format, seats, rounds,
  duplicate, seed); starting again with another configuration in the same directory is refused;
- ``records.jsonl``: every finished match's record, JSON lines that ``dennou replay`` reads;
- ``results.jsonl``: one line per finished match (what it decided, and where its record ends in
  ``records.jsonl``): a match is finished once its line is complete;
- ``standings.json``, ``standings.csv``, ``ratings.json``: rewritten every few seconds while the
  tournament runs, and at the end.

Kill the process at any moment (SIGKILL included) and run the same command again: the results
are read back, a torn last line and a record without its result line are cut off, and only the
matches not yet finished are played. Each match's seed comes from the master seed, and
standings are computed from results in match order, so the final files are the same as those of
an uninterrupted run.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import msgspec

from dennou.arena.entrants import Entrant
from dennou.arena.ratings import Ratings
from dennou.arena.runners import Done, Job, Runner
from dennou.arena.schedule import (
    FORMATS,
    Match,
    MatchResult,
    TournamentConfig,
    byes,
    check_config,
    default_rounds,
    default_seats,
    games_per_round,
    rounds_for_games,
    scheduled,
    total_matches,
)
from dennou.arena.standings import (
    Standing,
    dumps_json,
    leader,
    standings,
    standings_csv,
    summary_json,
)
from dennou.core.errors import ConfigError
from dennou.core.game import Game
from dennou.core.jsondata import to_json
from dennou.games import get

WRITE_EVERY = 2.0
"""Seconds between rewrites of the standings files while a tournament runs."""

SYNC_EVERY = 1.0
"""Seconds between fsyncs of the record files (SIGKILL loses nothing written; an OS crash may
lose the last second)."""


def player_name(seat: int, seats: int, entrant: str) -> str:
    """The player name of an entrant in a seat: the seat first, so that names sort in seat order.

    Daifugo orders game 1 by player names (rules: Cards, seats, deal): with the seat first the
    turn order is the seat order, and rotating the seats really rotates who leads.
    """
    width = len(str(seats - 1))
    return f"{seat:0{width}d}.{entrant}"


class Progress(msgspec.Struct):
    """What a progress display needs after each finished match.

    Attributes:
        done: Matches finished.
        total: Matches in the tournament.
        leader: The entrant with the most points, and its points.
        result: The match that just finished (``None`` for the state on start).
    """

    done: int
    total: int
    leader: tuple[str, float] | None
    result: MatchResult | None = None


class Tournament:
    """A tournament, resumable from its directory.

    Args:
        config: The configuration.
        out: The tournament directory (``None``: nothing kept, nothing resumable).
        game: The game (default: from the registry by ``config.game``).

    Raises:
        ConfigError: A configuration that cannot be played, or a directory that holds another
            tournament.
    """

    def __init__(
        self,
        config: TournamentConfig,
        out: str | Path | None = None,
        game: Game[Any, Any] | None = None,
    ) -> None:
        self.game = game if game is not None else get(config.game)
        check_config(self.game, config)
        self.config = config
        self.total = total_matches(config)
        self.results: dict[int, MatchResult] = {}
        self.points = [0.0] * len(config.entrants)
        # ratings move in match order: results are rated as soon as every match before them
        # has finished, so the live ratings cost one update per match, not a replay of all
        self.ratings = Ratings()
        for name in config.names:
            self.ratings.get(name)
        self._rated = 0
        self.out = Path(out) if out is not None else None
        self._records: Any = None
        self._results: Any = None
        self._synced = self._written = time.monotonic()
        if self.out is not None:
            self._open(self.out)

    # --- the directory ----------------------------------------------------------------------
    def _open(self, out: Path) -> None:
        out.mkdir(parents=True, exist_ok=True)
        conf = out / "tournament.json"
        mine = msgspec.json.format(msgspec.json.encode(self.config, order="sorted"), indent=1)
        if conf.exists():
            stored = msgspec.json.decode(conf.read_bytes(), type=TournamentConfig)
            if stored != self.config:
                raise ConfigError(
                    f"{out} holds another tournament: {_differences(stored, self.config)}"
                )
        else:
            _write_atomic(conf, mine + b"\n")
        records, results = out / "records.jsonl", out / "results.jsonl"
        finished, kept, end = read_results(results)
        for r in finished:
            self._add(r)
        plan = {m.id: m for m in scheduled(self.config, list(self.results.values()))}
        for r in self.results.values():
            m = plan.get(r.match)
            if m is None or m.seats != r.seats or m.seed != r.seed:
                raise ConfigError(f"{results}: match {r.match} is not the one scheduled")
        with results.open("r+b" if results.exists() else "wb") as fh:
            fh.truncate(kept)  # a torn last line
        with records.open("r+b" if records.exists() else "wb") as fh:
            fh.truncate(end)  # a record written whose result line was not
        self._records = records.open("ab")
        self._results = results.open("ab")

    def close(self) -> None:
        """Flush and close the files."""
        for fh in (self._records, self._results):
            if fh is not None and not fh.closed:
                fh.flush()
                os.fsync(fh.fileno())
                fh.close()

    def __enter__(self) -> Tournament:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- schedule and results ---------------------------------------------------------------
    def _add(self, result: MatchResult) -> None:
        self.results[result.match] = result
        for seat, e in enumerate(result.seats):
            self.points[e] += result.scores[seat]
        names = self.config.names
        while self._rated in self.results:
            r = self.results[self._rated]
            self.ratings.rate_outcome(
                [names[e] for e in r.seats], r.ranks, team_of=r.team_of, teams=r.teams
            )
            self._rated += 1

    def pending(self) -> list[Match]:
        """Matches scheduled now and not finished (Swiss: the current round's)."""
        return [
            m
            for m in scheduled(self.config, list(self.results.values()))
            if m.id not in self.results
        ]

    @property
    def complete(self) -> bool:
        """Whether every match has finished."""
        return len(self.results) == self.total

    def job(self, match: Match) -> Job:
        """The self-contained job of a match."""
        entrants = [self.config.entrants[e] for e in match.seats]
        k = len(entrants)
        return Job(
            game=self.config.game,
            rules=self.config.rules,
            match=match,
            specs=tuple(e.spec for e in entrants),
            players=tuple(player_name(s, k, e.name) for s, e in enumerate(entrants)),
            time_limit=self.config.time_limit,
            meta={
                "tournament": {
                    "match": match.id,
                    "round": match.round,
                    "group": match.group,
                    "entrants": [e.name for e in entrants],
                    "seed": self.config.seed,
                }
            },
        )

    def record(self, done: Done) -> MatchResult:
        """Keep a finished match: its record, then its result line (then it counts)."""
        result = msgspec.json.decode(done.result, type=MatchResult)
        if result.match in self.results:
            raise ConfigError(f"match {result.match} finished twice")
        if self._records is not None:
            self._records.write(done.record.encode())
            self._records.flush()
            line = msgspec.json.encode(_ResultLine(result, self._records.tell()))
            self._results.write(line + b"\n")
            self._results.flush()
            now = time.monotonic()
            if now - self._synced >= SYNC_EVERY:
                os.fsync(self._records.fileno())
                os.fsync(self._results.fileno())
                self._synced = now
        self._add(result)
        return result

    def progress(self, result: MatchResult | None = None) -> Progress:
        """Where the tournament stands."""
        return Progress(len(self.results), self.total, leader(self.config, self.points), result)

    def run(
        self, runner: Runner, on_progress: Callable[[Progress], None] | None = None
    ) -> dict[str, Any]:
        """Play every match not yet finished; returns the final summary (also written out)."""
        if on_progress is not None:
            on_progress(self.progress())
        while not self.complete:
            todo = self.pending()
            if not todo:  # pragma: no cover - a schedule bug, not a user error
                raise ConfigError("no match can be scheduled, yet the tournament is not over")
            for done in runner.run(self._jobs(todo)):
                result = self.record(done)
                if on_progress is not None:
                    on_progress(self.progress(result))
                if self.out is not None and time.monotonic() - self._written >= WRITE_EVERY:
                    self.write_standings()
        summary = self.summary()
        if self.out is not None:
            self.write_standings(summary)
        return summary

    def _jobs(self, matches: Iterable[Match]) -> Iterable[Job]:
        return [self.job(m) for m in matches]

    # --- outputs ------------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """Standings, ratings and the pairwise table as JSON data.

        While matches are still running, ratings cover the matches finished in match order
        (up to the first one not finished yet); once all have finished they cover everything.
        """
        results = list(self.results.values())
        return summary_json(
            self.config, results, byes(self.config, results), self.total, self.ratings
        )

    def standings(self) -> list[Standing]:
        """The current standings."""
        results = list(self.results.values())
        return standings(self.config, results, byes(self.config, results), self.ratings)

    def write_standings(self, summary: dict[str, Any] | None = None) -> None:
        """Write ``standings.json``, ``standings.csv`` and ``ratings.json`` (atomically)."""
        assert self.out is not None
        summary = summary if summary is not None else self.summary()
        rows = [Standing(**row) for row in summary["standings"]]
        _write_atomic(self.out / "standings.json", dumps_json(summary).encode())
        _write_atomic(self.out / "standings.csv", standings_csv(rows).encode())
        _write_atomic(self.out / "ratings.json", dumps_json(summary["ratings"]).encode())
        self._written = time.monotonic()


class _ResultLine(msgspec.Struct):
    result: MatchResult
    records_end: int


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def _differences(a: TournamentConfig, b: TournamentConfig) -> str:
    da, db = msgspec.to_builtins(a), msgspec.to_builtins(b)
    keys = [k for k in da if da[k] != db.get(k)]
    return "; ".join(f"{k} was {da[k]!r}, now {db[k]!r}" for k in keys)


def read_results(path: str | Path) -> tuple[list[MatchResult], int, int]:
    """The results in a ``results.jsonl``, the bytes of its whole lines, and the records' end.

    Reading stops at a torn last line (the process was killed while writing it).

    Raises:
        ConfigError: A match is there twice.
    """
    path = Path(path)
    if not path.exists():
        return [], 0, 0
    out: list[MatchResult] = []
    seen: set[int] = set()
    kept = end = 0
    for line in path.read_bytes().splitlines(keepends=True):
        if not line.endswith(b"\n"):
            break
        try:
            row = msgspec.json.decode(line, type=_ResultLine)
        except msgspec.DecodeError:
            break
        if row.result.match in seen:
            raise ConfigError(f"{path}: match {row.result.match} is there twice")
        seen.add(row.result.match)
        out.append(row.result)
        kept += len(line)
        end = row.records_end
    return out, kept, end


def make_config(
    game: Game[Any, Any],
    entrants: list[Entrant],
    *,
    fmt: str = "round-robin",
    seats: int | None = None,
    games: int | None = None,
    rounds: int | None = None,
    duplicate: bool = False,
    seed: int = 0,
    rules: Any = None,
    time_limit: float | None = None,
    remote_ok: bool = False,
) -> TournamentConfig:
    """A checked configuration from what a user says (the CLI's options).

    Args:
        game: The game.
        entrants: The entrants.
        fmt: ``round-robin`` or ``swiss``.
        seats: Players per match (default: :func:`~dennou.arena.schedule.default_seats`).
        games: At least this many matches, rounded up to whole rounds.
        rounds: Rounds (instead of ``games``; default: one round robin, ``log2 n`` Swiss rounds).
        duplicate: Replay each group's deals with the seats rotated.
        seed: The master seed.
        rules: The game's rules (default: its defaults).
        time_limit: Seconds per decision.
        remote_ok: Whether remote entrants (``@account``) may play (on the host).

    Raises:
        ConfigError: Anything that cannot be played, with what to change.
    """
    if games is not None and rounds is not None:
        raise ConfigError("give --games or --rounds, not both")
    rules = rules if rules is not None else game.make_rules()
    k = seats if seats is not None else default_seats(game, rules, len(entrants))
    base = TournamentConfig(
        game=game.spec.name,
        rules=to_json(rules),
        entrants=list(entrants),
        format=fmt,
        seats=k,
        rounds=1,
        duplicate=duplicate,
        seed=seed,
        time_limit=time_limit,
    )
    if fmt in FORMATS and len(entrants) >= k >= 1:
        if rounds is None:
            rounds = (
                rounds_for_games(games, games_per_round(base))
                if games is not None
                else default_rounds(fmt, len(entrants))
            )
        base = msgspec.structs.replace(base, rounds=rounds)
    check_config(game, base, remote_ok=remote_ok)
    return base


def load_config(out: str | Path) -> TournamentConfig:
    """The configuration stored in a tournament directory.

    Raises:
        ConfigError: No tournament there.
    """
    conf = Path(out) / "tournament.json"
    if not conf.exists():
        raise ConfigError(f"{out} holds no tournament (no tournament.json)")
    return msgspec.json.decode(conf.read_bytes(), type=TournamentConfig)


__all__ = [
    "Progress",
    "Tournament",
    "load_config",
    "make_config",
    "player_name",
    "read_results",
]
