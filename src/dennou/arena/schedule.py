"""Tournament formats: who plays whom, in which seats, from which deal.

A *match* is the game's own unit of play, one record: a Daifugo set (its games, the exchanges
carried between them and the last game's bonus), a Star Hi-Lo series, one game elsewhere.

Formats (``docs/tournaments.md``):

- ``round-robin``: a round is, for every group of ``seats`` entrants, one match per cyclic
  rotation of a seating drawn for that group and round. With two seats that is every ordered
  pair; with more, every entrant meets every other equally often (``C(n-2, k-2) * k`` times a
  round) and sits in every seat equally often (``C(n-1, k-1)`` times a round).
- ``swiss`` (two seats): each round pairs entrants with equal or close match points who have
  not met yet; a pairing plays both seatings. An odd entrant out gets a bye, worth a won pairing.

**Duplicate deals** (``duplicate=True``): the rotations of a group (both seatings of a pairing)
share one seed, so they draw the same chance stream and every entrant plays every seat's cards.
A game that supports it says so (``GameSpec.duplicate``): its deals come from the stream before
play can change how much of it is used.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any, Literal

import msgspec

from dennou.arena.entrants import Entrant
from dennou.core.errors import ConfigError
from dennou.core.game import Game
from dennou.core.rng import derive_seed, make_rng

Format = Literal["round-robin", "swiss"]
FORMATS: tuple[str, ...] = ("round-robin", "swiss")

MAX_ROUND_GAMES = 200_000
"""A round-robin round bigger than this is refused (too many groups: use fewer seats)."""


class TournamentConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Everything that decides a tournament's games (the runner and worker count do not).

    Attributes:
        game: The game's registry name.
        rules: The full rules as JSON.
        entrants: The entrants, in the order given.
        format: ``round-robin`` or ``swiss``.
        seats: Players per match.
        rounds: Rounds to play.
        duplicate: Rotations of a group replay the same deals.
        seed: The master seed: every match's seed derives from it.
        time_limit: Seconds per decision (``None``: no limit); a slower one is a timeout.
    """

    game: str
    rules: dict[str, Any]
    entrants: list[Entrant]
    format: str
    seats: int
    rounds: int
    duplicate: bool
    seed: int
    time_limit: float | None = None

    @property
    def names(self) -> list[str]:
        """Entrant names by index."""
        return [e.name for e in self.entrants]


class Match(msgspec.Struct, frozen=True):
    """One scheduled match.

    Attributes:
        id: Its index in schedule order (``round * games_per_round + i``).
        round: The round (0-based).
        seats: The entrant index in each seat.
        seed: The match's seed (shared by the rotations of a duplicate group).
        group: The group within the round (a seating's rotations, a pairing's two games).
    """

    id: int
    round: int
    seats: tuple[int, ...]
    seed: int
    group: int


class MatchResult(msgspec.Struct, frozen=True, omit_defaults=True):
    """What a finished match decided (everything standings and ratings need).

    Attributes:
        match: The match id.
        round: Its round.
        seats: The entrant index in each seat.
        seed: Its seed.
        scores: The game's score per seat.
        ranks: The game's rank per seat (1 best; ties share).
        defaults: Per seat, decisions the host made by default (timeouts, absences, errors).
        steps: Steps in the record.
        team_of: Per seat, its team (team games only).
        teams: Team -> result (team games only).
    """

    match: int
    round: int
    seats: tuple[int, ...]
    seed: int
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    defaults: tuple[int, ...]
    steps: int
    team_of: tuple[str, ...] | None = None
    teams: dict[str, float] | None = None


def duplicate_refusal(game: Game[Any, Any], rules: dict[str, Any]) -> str | None:
    """Why ``game`` under ``rules`` cannot be played with duplicate deals (``None``: it can)."""
    name = game.spec.name
    if not game.spec.chance:
        return f"{name} has no chance: there are no deals to duplicate"
    rule = game.spec.duplicate
    if rule is None:
        return f"{name} does not support duplicate deals: its later draws depend on play"
    return rule.check(rules) if rule.check is not None else None


def default_seats(game: Game[Any, Any], rules: Any, entrants: int) -> int:
    """Seats per match when nobody says: the game's usual table, at most one per entrant."""
    spec = game.spec
    if spec.max_players == 2:
        return 2
    usual = max(game.default_players(rules), spec.min_players)
    return max(spec.min_players, min(entrants, usual, spec.max_players))


def games_per_round(config: TournamentConfig) -> int:
    """Matches in one round."""
    n, k = len(config.entrants), config.seats
    if config.format == "swiss":
        return 2 * (n // 2)
    return math.comb(n, k) * k


def default_rounds(fmt: str, entrants: int) -> int:
    """Rounds when nobody says: one round robin; ``ceil(log2 n)`` Swiss rounds."""
    if fmt == "swiss":
        return max(1, math.ceil(math.log2(max(entrants, 2))))
    return 1


def rounds_for_games(config_games: int, per_round: int) -> int:
    """Whole rounds needed for at least ``config_games`` matches."""
    return max(1, -(-config_games // max(per_round, 1)))


def check_config(
    game: Game[Any, Any], config: TournamentConfig, *, remote_ok: bool = False
) -> None:
    """Raise a clear :class:`ConfigError` for a tournament that cannot be played.

    Checks the format against the game, the seats against the game and the entrants, the
    duplicate rule, and every entrant (see :func:`dennou.arena.entrants.check_entrant`).
    """
    from dennou.arena.entrants import check_entrant

    spec = game.spec
    n, k = len(config.entrants), config.seats
    if config.format not in FORMATS:
        raise ConfigError(f"unknown format {config.format!r}; formats: {', '.join(FORMATS)}")
    if not spec.min_players <= k <= spec.max_players:
        span = (
            str(spec.min_players)
            if spec.min_players == spec.max_players
            else f"{spec.min_players}-{spec.max_players}"
        )
        raise ConfigError(f"{spec.name} seats {span} players, not {k}")
    if n < k:
        raise ConfigError(
            f"too few entrants: {n} for {k} seats ({spec.name} matches seat {k}; "
            f"give at least {k} entrants or fewer --seats)"
        )
    if config.format == "swiss" and k != 2:
        raise ConfigError(
            f"swiss pairs two players; {spec.name} with {k} seats cannot use it "
            "(use round-robin, or --seats 2 if the game allows it)"
        )
    if config.format == "swiss" and n < 2:
        raise ConfigError("swiss needs at least two entrants")
    if config.rounds < 1:
        raise ConfigError("a tournament has at least one round")
    if config.format == "round-robin" and games_per_round(config) > MAX_ROUND_GAMES:
        raise ConfigError(
            f"a round of {n} entrants in groups of {k} is {games_per_round(config):,} "
            f"matches (more than {MAX_ROUND_GAMES:,}); use fewer entrants or seats"
        )
    if config.duplicate:
        reason = duplicate_refusal(game, config.rules)
        if reason is not None:
            raise ConfigError(reason)
    if config.time_limit is not None and config.time_limit <= 0:
        raise ConfigError("the time limit must be > 0 seconds")
    names = config.names
    if len(set(names)) != len(names):
        raise ConfigError(f"entrant names must be distinct, got {names}")
    for entrant in config.entrants:
        check_entrant(game, entrant, remote_ok=remote_ok)


# --- round robin ------------------------------------------------------------------------------
def round_robin_round(config: TournamentConfig, rnd: int) -> list[Match]:
    """Round ``rnd`` of a round robin: every group of ``seats`` entrants, every rotation."""
    n, k = len(config.entrants), config.seats
    per_round = games_per_round(config)
    out: list[Match] = []
    for group, members in enumerate(itertools.combinations(range(n), k)):
        order = list(members)
        # a fresh seating per group and round: neighbours vary from round to round, while the
        # rotations below keep every seat balanced within the round
        make_rng(config.seed, "seating", rnd, group).shuffle(order)
        shared = derive_seed(config.seed, "deal", rnd, group)
        for turn in range(k):
            seats = tuple(order[(s + turn) % k] for s in range(k))
            seed = (
                shared if config.duplicate else derive_seed(config.seed, "deal", rnd, group, turn)
            )
            out.append(Match(rnd * per_round + len(out), rnd, seats, seed, group))
    return out


# --- swiss ------------------------------------------------------------------------------------
class SwissRound(msgspec.Struct, frozen=True):
    """One paired Swiss round: its matches and the entrant with the bye (if any)."""

    matches: list[Match]
    bye: int | None


def swiss_schedule(config: TournamentConfig, results: Sequence[MatchResult]) -> list[SwissRound]:
    """Every Swiss round that can be paired now.

    Round 0, then each round whose predecessor is complete, paired from the results of the
    rounds before it: the same results always give the same pairings, whatever order they
    arrived in.
    """
    per_round = games_per_round(config)
    by_round: dict[int, list[MatchResult]] = {}
    for r in results:
        by_round.setdefault(r.round, []).append(r)
    out: list[SwissRound] = []
    prior: list[MatchResult] = []
    for rnd in range(config.rounds):
        if rnd > 0:
            done = by_round.get(rnd - 1, [])
            if len(done) < per_round:
                break
            prior.extend(done)
        byes = [sr.bye for sr in out if sr.bye is not None]
        out.append(_swiss_pairing(config, rnd, prior, byes))
    return out


def swiss_points(
    config: TournamentConfig, results: Sequence[MatchResult], byes: Sequence[int] = ()
) -> list[float]:
    """Match points per entrant: a win 1, a shared first place 1/2, a bye 2 (a won pairing)."""
    points = [0.0] * len(config.entrants)
    for r in results:
        firsts = r.ranks.count(1)
        for seat, e in enumerate(r.seats):
            if r.ranks[seat] == 1:
                points[e] += 1.0 if firsts == 1 else 0.5
    for e in byes:
        points[e] += 2.0
    return points


def _swiss_pairing(
    config: TournamentConfig, rnd: int, prior: Sequence[MatchResult], byes: Sequence[int]
) -> SwissRound:
    n = len(config.entrants)
    points = swiss_points(config, prior, byes)
    met = {(min(r.seats), max(r.seats)) for r in prior}
    # order by match points, ties broken by a draw of this round (not by entry order)
    tiebreak = list(range(n))
    make_rng(config.seed, "swiss", rnd).shuffle(tiebreak)
    position = {e: i for i, e in enumerate(tiebreak)}
    ranked = sorted(range(n), key=lambda e: (-points[e], position[e]))
    bye: int | None = None
    if n % 2:
        # the lowest-ranked entrant who has had the fewest byes sits out
        bye = min(reversed(ranked), key=lambda e: byes.count(e))
        ranked.remove(bye)
    pairs = _pair(ranked, met, [20_000]) or _pair(ranked, set(), [1_000_000])
    assert pairs is not None
    per_round = games_per_round(config)
    out: list[Match] = []
    for group, (a, b) in enumerate(pairs):
        shared = derive_seed(config.seed, "deal", rnd, group)
        for turn, seats in enumerate(((a, b), (b, a))):
            seed = (
                shared if config.duplicate else derive_seed(config.seed, "deal", rnd, group, turn)
            )
            out.append(Match(rnd * per_round + len(out), rnd, seats, seed, group))
    return SwissRound(out, bye)


def _pair(
    ranked: list[int], met: set[tuple[int, int]], budget: list[int]
) -> list[tuple[int, int]] | None:
    """Pair top-down, each with the best-ranked opponent not met yet (bounded backtracking)."""
    if not ranked:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    first, rest = ranked[0], ranked[1:]
    for i, other in enumerate(rest):
        if (min(first, other), max(first, other)) in met:
            continue
        tail = _pair(rest[:i] + rest[i + 1 :], met, budget)
        if tail is not None:
            return [(first, other), *tail]
    return None


def scheduled(config: TournamentConfig, results: Sequence[MatchResult]) -> list[Match]:
    """Every match that can be scheduled now: all of a round robin, the Swiss rounds paired."""
    if config.format == "swiss":
        return [m for sr in swiss_schedule(config, results) for m in sr.matches]
    return [m for rnd in range(config.rounds) for m in round_robin_round(config, rnd)]


def byes(config: TournamentConfig, results: Sequence[MatchResult]) -> list[int]:
    """The entrant of every bye given so far (Swiss with an odd number of entrants)."""
    if config.format != "swiss":
        return []
    return [sr.bye for sr in swiss_schedule(config, results) if sr.bye is not None]


def total_matches(config: TournamentConfig) -> int:
    """Matches in the whole tournament."""
    return games_per_round(config) * config.rounds


__all__ = [
    "FORMATS",
    "Match",
    "MatchResult",
    "SwissRound",
    "TournamentConfig",
    "byes",
    "check_config",
    "default_rounds",
    "default_seats",
    "duplicate_refusal",
    "games_per_round",
    "round_robin_round",
    "rounds_for_games",
    "scheduled",
    "swiss_points",
    "swiss_schedule",
    "total_matches",
]
