"""Standings, ratings and the pairwise table of a tournament, from its match results alone.

Everything here is a function of the configuration and the finished results, taken in match
order: the same results give byte-identical standings whichever worker or machine played them
and in whatever order they finished. Nothing measured (decision times, durations) goes in.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

import msgspec

from dennou.arena.match import mean_ci
from dennou.arena.ratings import Ratings
from dennou.arena.schedule import MatchResult, TournamentConfig


class Standing(msgspec.Struct, frozen=True):
    """One entrant's line in the standings.

    Attributes:
        rank: Place (ties share it).
        name: The entrant.
        spec: What plays for it.
        games: Matches played.
        wins: Matches ranked first alone.
        draws: Matches ranked first with others.
        losses: Matches not ranked first.
        points: The game's scores summed (Daifugo: set points, regular and last-game bonus).
        mean: Mean score per match.
        ci95: Half-width of the 95% interval of the mean score.
        match_points: Win 1, shared first 1/2, bye 2 (Swiss orders by these).
        byes: Swiss byes.
        defaults: Decisions the host made for it by default (timeouts, absences, errors).
        mu: Rating estimate.
        sigma: Rating uncertainty.
        ordinal: Conservative rating μ − 3σ.
    """

    rank: int
    name: str
    spec: str
    games: int
    wins: int
    draws: int
    losses: int
    points: float
    mean: float
    ci95: float
    match_points: float
    byes: int
    defaults: int
    mu: float
    sigma: float
    ordinal: float


class Pairwise(msgspec.Struct, frozen=True):
    """How ``entrant`` did against ``opponent`` in the matches they shared.

    Attributes:
        entrant: One entrant.
        opponent: Another.
        games: Matches with both.
        wins: ``entrant`` ranked above ``opponent``.
        draws: Same rank.
        losses: Ranked below.
        score_diff: Mean of ``entrant``'s score minus ``opponent``'s.
    """

    entrant: str
    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    score_diff: float


def ordered(results: Sequence[MatchResult]) -> list[MatchResult]:
    """Results in match order (the order every aggregate is computed in)."""
    return sorted(results, key=lambda r: r.match)


def ratings_of(config: TournamentConfig, results: Sequence[MatchResult]) -> Ratings:
    """Ratings after every result, in match order (every entrant listed, rated or not)."""
    names = config.names
    ratings = Ratings()
    for name in names:
        ratings.get(name)
    for r in ordered(results):
        ratings.rate_outcome([names[e] for e in r.seats], r.ranks, team_of=r.team_of, teams=r.teams)
    return ratings


def standings(
    config: TournamentConfig,
    results: Sequence[MatchResult],
    byes: Sequence[int] = (),
    ratings: Ratings | None = None,
) -> list[Standing]:
    """The standings: by points (Swiss: by match points, then points), then by name."""
    results = ordered(results)
    ratings = ratings if ratings is not None else ratings_of(config, results)
    n = len(config.entrants)
    scores: list[list[float]] = [[] for _ in range(n)]
    wins, draws, losses, defaults = [0] * n, [0] * n, [0] * n, [0] * n
    for r in results:
        firsts = r.ranks.count(1)
        for seat, e in enumerate(r.seats):
            scores[e].append(r.scores[seat])
            defaults[e] += r.defaults[seat]
            if r.ranks[seat] != 1:
                losses[e] += 1
            elif firsts == 1:
                wins[e] += 1
            else:
                draws[e] += 1
    bye_count = [list(byes).count(e) for e in range(n)]
    rows: list[dict[str, Any]] = []
    for e, entrant in enumerate(config.entrants):
        mean, half = mean_ci(scores[e])
        rating = ratings.get(entrant.name)
        rows.append(
            {
                "name": entrant.name,
                "spec": entrant.spec,
                "games": len(scores[e]),
                "wins": wins[e],
                "draws": draws[e],
                "losses": losses[e],
                "points": float(sum(scores[e])),
                "mean": mean,
                "ci95": half,
                "match_points": wins[e] + 0.5 * draws[e] + 2.0 * bye_count[e],
                "byes": bye_count[e],
                "defaults": defaults[e],
                "mu": rating.mu,
                "sigma": rating.sigma,
                "ordinal": rating.ordinal,
            }
        )

    def key(row: dict[str, Any]) -> tuple[float, ...]:
        if config.format == "swiss":
            return (-row["match_points"], -row["points"])
        return (-row["points"],)

    rows.sort(key=lambda row: (*key(row), row["name"]))
    out: list[Standing] = []
    for i, row in enumerate(rows):
        rank = out[-1].rank if out and key(rows[i - 1]) == key(row) else i + 1
        out.append(Standing(rank=rank, **row))
    return out


def pairwise(config: TournamentConfig, results: Sequence[MatchResult]) -> list[Pairwise]:
    """Every ordered pair of entrants that shared a match, in entrant order."""
    n = len(config.entrants)
    games = [[0] * n for _ in range(n)]
    wdl = [[[0, 0, 0] for _ in range(n)] for _ in range(n)]
    diff = [[0.0] * n for _ in range(n)]
    for r in ordered(results):
        for i, a in enumerate(r.seats):
            for j, b in enumerate(r.seats):
                if i == j:
                    continue
                games[a][b] += 1
                ra, rb = r.ranks[i], r.ranks[j]
                wdl[a][b][0 if ra < rb else 1 if ra == rb else 2] += 1
                diff[a][b] += r.scores[i] - r.scores[j]
    names = config.names
    return [
        Pairwise(
            entrant=names[a],
            opponent=names[b],
            games=games[a][b],
            wins=wdl[a][b][0],
            draws=wdl[a][b][1],
            losses=wdl[a][b][2],
            score_diff=diff[a][b] / games[a][b],
        )
        for a in range(n)
        for b in range(n)
        if a != b and games[a][b]
    ]


def leader(config: TournamentConfig, points: Sequence[float]) -> tuple[str, float] | None:
    """The entrant with the most points so far (ties: the first by name), for progress bars."""
    if not any(points):
        return None
    best = min(range(len(points)), key=lambda e: (-points[e], config.entrants[e].name))
    return config.entrants[best].name, points[best]


def summary_json(
    config: TournamentConfig,
    results: Sequence[MatchResult],
    byes: Sequence[int],
    total: int,
    ratings: Ratings | None = None,
) -> dict[str, Any]:
    """The standings file: the tournament, progress, standings, ratings and pairwise table."""
    ratings = ratings if ratings is not None else ratings_of(config, results)
    return {
        "game": config.game,
        "format": config.format,
        "seats": config.seats,
        "rounds": config.rounds,
        "duplicate": config.duplicate,
        "seed": config.seed,
        "rules": config.rules,
        "matches": total,
        "finished": len(results),
        "complete": len(results) == total,
        "standings": msgspec.to_builtins(standings(config, results, byes, ratings)),
        "ratings": ratings.to_json(),
        "pairwise": msgspec.to_builtins(pairwise(config, results)),
    }


def dumps_json(data: Any) -> str:
    """Stable JSON text (sorted keys, fixed separators) so equal data gives equal bytes."""
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def standings_csv(rows: Sequence[Standing]) -> str:
    """The standings as CSV (one header line, one line per entrant)."""
    buf = io.StringIO()
    fields = list(Standing.__struct_fields__)
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(fields)
    for row in rows:
        writer.writerow([getattr(row, f) for f in fields])
    return buf.getvalue()


__all__ = [
    "Pairwise",
    "Standing",
    "dumps_json",
    "leader",
    "ordered",
    "pairwise",
    "ratings_of",
    "standings",
    "standings_csv",
    "summary_json",
]
