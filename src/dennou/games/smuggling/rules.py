"""Smuggling Game rules options (defaults = the rules of ``docs/games/smuggling.md``).

Every option has a range, checked when the rules are built (money up to :data:`MAX_YEN`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from dennou.core.game import Rules

MAN = 10_000
"""1万円: the unit money moves in."""

OKU = 100_000_000
"""1億円."""

MAX_YEN = 10**12
"""The largest amount an option may name (1兆円)."""

TEAMS: tuple[str, str] = ("north", "south")
"""Team names: North holds seats ``0..n-1``, South seats ``n..2n-1``."""


class SmugglingRules(Rules, frozen=True):
    """The options of a Smuggling Game."""

    team_size: Annotated[
        int, Meta(ge=1, le=12, description="players per team (North and South are equal)")
    ] = 9
    small_games: Annotated[
        int,
        Meta(ge=1, le=200, description="small games; odd ones North smuggles, even ones South"),
    ] = 50
    home_start: Annotated[
        int,
        Meta(
            ge=0,
            le=MAX_YEN,
            description="yen each player starts with in the home (opposing) account",
        ),
    ] = 3 * OKU
    third_start: Annotated[
        int,
        Meta(
            ge=0,
            le=MAX_YEN,
            description="yen each player starts with in the third-country account",
        ),
    ] = 1 * OKU
    unit: Annotated[
        int, Meta(ge=1, le=OKU, description="money moves in whole units of this many yen")
    ] = MAN
    trunk_max: Annotated[
        int, Meta(ge=0, le=MAX_YEN, description="most yen the smuggler may put in the trunk")
    ] = 1 * OKU
    doubt_factor: Annotated[
        int,
        Meta(
            ge=1,
            le=100,
            description="a doubt may be at most this many times the inspector's third-country "
            "balance (so the X/2 compensation is payable)",
        ),
    ] = 2
    selection: Annotated[
        Literal["nominate", "rotation"],
        Meta(
            description="how a team picks its representative: sealed nominations by every "
            "member (most votes; ties: least represented, then lowest seat) or a fixed rotation "
            "in seat order"
        ),
    ] = "nominate"
    room_messages: Annotated[
        int,
        Meta(ge=0, le=100, description="lines each representative may say in the inspection room"),
    ] = 10
    room_seconds: Annotated[
        float,
        Meta(
            gt=0,
            le=3600,
            description="the host's clock for the inspection room (seconds); when it runs out "
            "the host applies the defaults: the smuggler is ready, the inspector passes",
        ),
    ] = 600.0
    time_limit: Annotated[
        float,
        Meta(
            gt=0,
            le=3600,
            description="seconds per decision outside the room: nominations, trunk (host)",
        ),
    ] = 60.0
    team_talk: Annotated[
        bool, Meta(description="whether team members have a private team channel")
    ] = True
    public_talk: Annotated[
        bool, Meta(description="whether players have a channel open to everyone (both teams)")
    ] = True

    def check(self) -> None:
        """Cross-field checks."""
        for name in ("home_start", "third_start", "trunk_max"):
            if getattr(self, name) % self.unit:
                raise ValueError(f"{name} must be a whole number of units ({self.unit} yen)")

    @property
    def loan(self) -> int:
        """What every player repays at the end: the money they were lent at the start."""
        return self.home_start + self.third_start

    @property
    def players(self) -> int:
        """Number of players (both teams)."""
        return 2 * self.team_size
