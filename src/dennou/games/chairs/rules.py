"""Musical Chairs rules options (defaults = the rules of ``docs/games/chairs.md``).

Counts that the rules page ties to the number of people (25 chairs and 23 medals for 24 people,
12 of them players) default to ``None``, meaning "derived from the number of seats as the page
does", so that the same defaults work at any table size. Every option has a range, checked when
the rules are built.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from dennou.core.game import Rules


class ChairsRules(Rules, frozen=True):
    """The options of a Musical Chairs game."""

    starting_players: Annotated[
        Annotated[int, Meta(ge=2, le=24)] | None,
        Meta(
            description="people who start as players (seats 0..k-1; the rest start as gaya); "
            "none = half the people (12 of 24), at least 2",
        ),
    ] = None
    chairs: Annotated[
        Annotated[int, Meta(ge=2, le=99)] | None,
        Meta(description="numbered chairs on the island; none = people + 1 (25)"),
    ] = None
    medals: Annotated[
        Annotated[int, Meta(ge=0, le=10_000)] | None,
        Meta(
            description="medals bearing one's own name each person starts with; "
            "none = people - 1 (23)"
        ),
    ] = None
    medal_value: Annotated[
        int,
        Meta(ge=1, le=10**12, description="what a medal bearing the winner's name is worth (yen)"),
    ] = 100_000_000
    periods: Annotated[
        Annotated[int, Meta(ge=1, le=98)] | None,
        Meta(description="most periods played; none = chairs - 1 (24)"),
    ] = None
    island_radius: Annotated[
        int,
        Meta(
            ge=10,
            le=100_000,
            description="radius of the (round) island in metres; the totem "
            "pole stands at its centre (0, 0)",
        ),
    ] = 1000
    speed: Annotated[
        float, Meta(gt=0, le=100, description="running speed of every player, m/s")
    ] = 5.0
    jitter: Annotated[
        int,
        Meta(
            ge=0,
            le=1000,
            description="largest random start delay per runner, in tenths of a "
            "second (the host's draw, each race)",
        ),
    ] = 30
    block_delay: Annotated[
        float, Meta(ge=0, le=3600, description="seconds a runner loses per person blocking them")
    ] = 60.0
    time_limit: Annotated[
        float, Meta(gt=0, le=3600, description="seconds of map time to be seated (10 minutes)")
    ] = 600.0
    max_choices: Annotated[
        int,
        Meta(ge=1, le=8, description="most chairs on a sealed order list"),
    ] = 5
    gifts_per_phase: Annotated[
        int,
        Meta(
            ge=0,
            le=100,
            description="most medal gifts one person may make in one free phase (the "
            "free phase's bounded time)",
        ),
    ] = 3
    public_gifts: Annotated[
        bool,
        Meta(
            description="whether every gift is announced to all (default: only giver "
            "and receiver see it)"
        ),
    ] = False
    private_talk: Annotated[
        bool, Meta(description="whether any two people may talk privately in the free phase")
    ] = True

    # --- derived counts ------------------------------------------------------------------
    def n_players(self, people: int) -> int:
        """People who start as players at a table of ``people``."""
        if self.starting_players is not None:
            return self.starting_players
        return max(2, people // 2)

    def n_chairs(self, people: int) -> int:
        """Chairs on the island at a table of ``people``."""
        return self.chairs if self.chairs is not None else people + 1

    def n_medals(self, people: int) -> int:
        """Medals of one's own name each person starts with."""
        return self.medals if self.medals is not None else people - 1

    def n_periods(self, people: int) -> int:
        """Most periods (each removes one chair, so never more than chairs - 1)."""
        return self.periods if self.periods is not None else self.n_chairs(people) - 1
