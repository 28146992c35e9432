"""Matches: many games between bots, seats rotated, and their statistics with 95% intervals."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dennou.arena.entrants import make_entrant_bot
from dennou.arena.play import play
from dennou.arena.seating import bot_name
from dennou.core.game import Game, Outcome, Rules
from dennou.core.record import Record

Z95 = 1.959964


def run_match(
    game: Game[Any, Any],
    rules: Rules | None,
    bot_specs: Sequence[str],
    games: int,
    seed: int,
    *,
    rotate: bool = True,
    time_limit: float | None = None,
    on_game: Callable[[int, Record], None] | None = None,
) -> list[Record]:
    """Play ``games`` games; with ``rotate``, game i seats bot ``(s + i) % n`` at seat s.

    In a team game (:meth:`~dennou.core.game.Game.team_seats`) whole teams rotate instead: game
    i seats at team t's seats the bots of team ``(t + i) % teams``, so teammates stay together.
    ``bot_specs`` has one spec per seat (:func:`dennou.arena.seating.seat_players` fills them
    from the bots a person named). Each record's ``meta["bot_specs"]`` says which spec sat
    where; players are named ``<bot>#<seat>``.
    """
    records = []
    for i in range(games):
        order = rotated(game, rules, bot_specs, i) if rotate else list(bot_specs)
        bots = [make_entrant_bot(game, spec) for spec in order]
        names = [bot_name(spec, s) for s, spec in enumerate(order)]
        record = play(
            game,
            rules,
            bots,
            seed + i,
            players=names,
            time_limit=time_limit,
            meta={"bot_specs": order, "match_game": i},
        )
        records.append(record)
        if on_game is not None:
            on_game(i, record)
    return records


def rotating_teams(
    game: Game[Any, Any], rules: Rules | None, players: int
) -> tuple[tuple[int, ...], ...] | None:
    """The teams a rotating match turns as wholes (``None``: seats turn one by one).

    Those of :meth:`~dennou.core.game.Game.team_seats` when the teams are of one size.
    """
    teams = game.team_seats(game.make_rules() if rules is None else rules, players)
    if teams is None or len({len(t) for t in teams}) != 1:
        return None
    return teams


def rotated(game: Game[Any, Any], rules: Rules | None, specs: Sequence[str], i: int) -> list[str]:
    """The specs of game ``i`` of a rotating match: seats turn by one, or whole teams by one."""
    n = len(specs)
    teams = rotating_teams(game, rules, n)
    if teams is None:
        return [specs[(s + i) % n] for s in range(n)]
    order = list(specs)
    for t, seats in enumerate(teams):
        for seat, source in zip(seats, teams[(t + i) % len(teams)], strict=True):
            order[seat] = specs[source]
    return order


@dataclass
class BotStats:
    """How one bot spec did over a match (all its seats pooled)."""

    spec: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    scores: list[float] = field(default_factory=list)
    decision_ms: list[float] = field(default_factory=list)
    defaults: int = 0
    default_reasons: Counter[str] = field(default_factory=Counter)

    def score_interval(self) -> tuple[float, float]:
        """Mean score and the half-width of its 95% interval."""
        return mean_ci(self.scores)

    def win_interval(self) -> tuple[float, float, float]:
        """Win rate (draws count half) with its 95% Wilson interval (low, high)."""
        n = len(self.scores)
        if n == 0:
            return 0.0, 0.0, 0.0
        p = (self.wins + 0.5 * self.draws) / n
        return (p, *wilson(p, n))


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and 95% half-width (normal approximation; 0 for fewer than two values)."""
    if not values:
        return 0.0, 0.0
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, 0.0
    return mean, Z95 * statistics.stdev(values) / math.sqrt(len(values))


def wilson(p: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``p`` over ``n`` trials."""
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    # exactly 0 and 1 at the ends (rounding would otherwise leave p just outside its interval)
    low = 0.0 if p == 0 else max(0.0, centre - half)
    high = 1.0 if p == 1 else min(1.0, centre + half)
    return low, high


def proportion_ci(successes: float, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of ``successes`` out of ``n`` (draws may count as halves)."""
    if n == 0:
        return 0.0, 1.0
    return wilson(successes / n, n)


def summarize(records: Sequence[Record]) -> list[BotStats]:
    """Per bot spec: results, scores and decision times, pooled over seats, in spec order.

    A seat's result is its own (sole first: a win), or in a team game its team's (the team's
    result 1: a win, ½: a draw, 0: a loss); its score is always its own.
    """
    stats: dict[str, BotStats] = {}
    for record in records:
        specs = record.meta.get("bot_specs") or record.meta.get("bots") or record.players
        assert record.outcome is not None, "only finished games can be summarised"
        outcome = Outcome(tuple(record.outcome["scores"]), tuple(record.outcome["ranks"]))
        teams = record.outcome.get("teams") or {}
        team_of = record.outcome.get("detail", {}).get("team_of") if teams else None
        for seat, spec in enumerate(specs):
            st = stats.setdefault(spec, BotStats(spec))
            st.games += 1
            result = outcome.result(seat) if team_of is None else _team_result(teams[team_of[seat]])
            st.wins += result == "win"
            st.draws += result == "draw"
            st.losses += result == "loss"
            st.scores.append(outcome.scores[seat])
        for step in record.steps:
            if step.seat is None or step.seat < 0 or step.talk is not None:
                continue
            st = stats[specs[step.seat]]
            if step.ms is not None:
                st.decision_ms.append(step.ms)
            if step.default is not None:
                st.defaults += 1
                st.default_reasons[step.default] += 1
    return list(stats.values())


def _team_result(value: float) -> str:
    """``win``, ``draw`` or ``loss`` of a team's result (1, ½ or 0; above ½ wins)."""
    return "win" if value > 0.5 else "draw" if value == 0.5 else "loss"


def is_team_match(records: Sequence[Record]) -> bool:
    """Whether the records' results are teams' (a team game: :func:`summarize` counts them)."""
    return any(r.outcome is not None and r.outcome.get("teams") for r in records)


def mean_length(records: Sequence[Record]) -> float:
    """Mean number of steps per game."""
    return statistics.fmean(len(r.steps) for r in records) if records else 0.0
