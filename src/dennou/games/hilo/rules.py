"""Star Hi-Lo rules options (defaults = the rules of ``docs/games/hilo.md``).

Every number of the rules page is an option here, so that variants (a small target range for
teaching, harsher costs) need no code. Point changes are signed deltas (``guess_wrong=-1``);
costs and fees are positive amounts that are paid. Every option has a range (point values
within ±:data:`POINTS`), checked when the rules are built. The two rules about points that
views and bots need as well as the engine are methods here: :meth:`HiloRules.available` and
:meth:`HiloRules.add_points`.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from dennou.core.game import Rules

MAX_NUMBER = 3_276_732_767
"""The source's largest target: targets are drawn from 0 .. 3,276,732,767."""

POINTS = 1_000
"""Point values and thresholds of the options lie in -POINTS..POINTS."""


class HiloRules(Rules, frozen=True):
    """The options of a Star Hi-Lo series."""

    max_number: Annotated[
        int,
        Meta(
            ge=1,
            le=2**53 - 1,
            description="targets and X are in 0..max_number (the source: 3,276,732,767)",
        ),
    ] = MAX_NUMBER
    start_points: Annotated[
        int, Meta(ge=-POINTS, le=POINTS, description="points each player starts every game with")
    ] = 5
    floor: Annotated[
        int, Meta(ge=-POINTS, le=POINTS, description="lowest points: a loss below it stops at it")
    ] = -30
    fee: Annotated[
        int, Meta(ge=0, le=POINTS, description="turn fee paid at the start of a turn (備考)")
    ] = 1
    fee_above: Annotated[
        int,
        Meta(
            ge=-POINTS,
            le=POINTS,
            description="the fee is paid only with points above this (> 10, i.e. >= 11)",
        ),
    ] = 10
    guess_right: Annotated[
        int, Meta(ge=-POINTS, le=POINTS, description="2.1 guess: points for a right guess")
    ] = 2
    guess_wrong: Annotated[
        int, Meta(ge=-POINTS, le=POINTS, description="2.1 guess: points for a wrong guess")
    ] = -1
    random_guess_right: Annotated[
        int, Meta(ge=-POINTS, le=POINTS, description="2.2 random guess: points for a right guess")
    ] = 1
    random_guess_wrong: Annotated[
        int, Meta(ge=-POINTS, le=POINTS, description="2.2 random guess: points for a wrong guess")
    ] = 0
    check_min: Annotated[
        int, Meta(ge=-POINTS, le=POINTS, description="2.3 check: allowed with points >= this")
    ] = 10
    check_stars: Annotated[
        int, Meta(ge=1, le=100, description="2.3 check: game stars for a hit (the game ends)")
    ] = 1
    check_miss: Annotated[
        int, Meta(ge=-POINTS, le=POINTS, description="2.3 check: points for a miss")
    ] = -5
    random_check_max: Annotated[
        int,
        Meta(ge=-POINTS, le=POINTS, description="2.4 random check: allowed with points <= this"),
    ] = -20
    random_check_stars: Annotated[
        int,
        Meta(ge=1, le=100, description="2.4 random check: game stars for a hit (the game ends)"),
    ] = 3
    random_check_miss: Annotated[
        int, Meta(ge=-POINTS, le=POINTS, description="2.4 random check: points for a miss")
    ] = 0
    secret_guess_3_cost: Annotated[
        int, Meta(ge=0, le=POINTS, description="2.5 secret guess: cost, paid whatever the result")
    ] = 3
    secret_guess_2_cost: Annotated[
        int, Meta(ge=0, le=POINTS, description="2.6 secret guess: cost, paid whatever the result")
    ] = 2
    stars_to_win: Annotated[
        int,
        Meta(
            ge=1, le=100, description="the series ends after a game in which a player reaches this"
        ),
    ] = 3
    max_games: Annotated[
        Annotated[int, Meta(ge=1, le=1_000)] | None,
        Meta(description="end the series after this many games (none: no cap)"),
    ] = None
    max_rounds: Annotated[
        Annotated[int, Meta(ge=1, le=10_000)] | None,
        Meta(
            description="extension: a game still on after this many full rounds ends with no "
            "star, like an everyone-loses round (none: no cap, as the rules page)",
        ),
    ] = None
    start_accounts: Annotated[
        Annotated[tuple[Annotated[int, Meta(ge=-(10**9), le=10**9)], ...], Meta(max_length=8)]
        | None,
        Meta(
            description="each seat's account (口座) at the start of the series, e.g. carried "
            "over by the host from earlier series (none: all 0)",
        ),
    ] = None
    half_star_points: Annotated[
        int,
        Meta(
            ge=1,
            le=10**6,
            description="every full this many account points give half a star (5.1)",
        ),
    ] = 25

    def check(self) -> None:
        """Cross-field checks."""
        if self.start_points < self.floor:
            raise ValueError(
                f"start_points {self.start_points} is below the floor {self.floor} (rules: Objects)"
            )
        # max_number stays below 2**53 so that every client (JavaScript included) reads X exactly.

    def available(self, points: int) -> list[str]:
        """The action kinds a player with ``points`` may choose at the start of a turn."""
        kinds = ["guess", "random_guess"]
        if points >= self.check_min:
            kinds.append("check")
        if points <= self.random_check_max:
            kinds.append("random_check")
        if points >= self.secret_guess_3_cost:
            kinds.append("secret_guess_3")
        if points >= self.secret_guess_2_cost:
            kinds.append("secret_guess_2")
        return kinds

    def add_points(self, points: int, delta: int) -> int:
        """``points + delta``; a loss never takes points below the floor (rules: Objects)."""
        new = points + delta
        if delta < 0 and new < self.floor:
            # Never below the floor, and a loss never raises points already under it.
            return min(points, self.floor)
        return new
