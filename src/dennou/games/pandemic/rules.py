"""Pandemic Game rules options (defaults = ``docs/games/pandemic.md``)."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from dennou.core.game import Rules

PairRule = Literal["first_normal_contact", "first_contact"]


class PandemicRules(Rules, frozen=True):
    """The options of a Pandemic Game (感染ゲーム).

    The player count is the number of players the game is started with (12 by the rules page,
    4 to 24).
    """

    infected: Annotated[
        int,
        Meta(ge=0, le=23, description="players infected at the start, drawn by the host at random"),
    ] = 2
    rounds: Annotated[int, Meta(ge=1, le=20, description="number of rounds")] = 3
    ticks: Annotated[
        int, Meta(ge=1, le=50, description="ticks per round (one sealed action per tick)")
    ] = 8
    announce: Annotated[
        bool,
        Meta(description="after each round the host announces how many are normal and infected"),
    ] = True
    public_contacts: Annotated[
        bool,
        Meta(description="everyone sees the list of contacts made (who touched whom, when)"),
    ] = True
    qualifiers: Annotated[
        Annotated[int, Meta(ge=1, le=24)] | None,
        Meta(
            description="how many normal players qualify, most vaccines first (ties at the cut: "
            "the host's draw); none = no cap (every normal player with min_vaccines qualifies)",
        ),
    ] = 6
    min_vaccines: Annotated[
        int,
        Meta(
            ge=0,
            le=1000,
            description="vaccines a normal player needs to qualify (the manga's rule: 4 with "
            "qualifiers=none)",
        ),
    ] = 0
    transfer: Annotated[
        bool,
        Meta(
            description="the manga's reading: the vaccine a normal player loses to an infected "
            "one passes to that player (the source: it is just lost)"
        ),
    ] = False
    pair_rule: Annotated[
        PairRule,
        Meta(
            description="when a pair's one vaccine is used up: at its first normal-normal contact "
            "(the source's wording) or at its first contact of any kind"
        ),
    ] = "first_normal_contact"
    time_limit: Annotated[float, Meta(gt=0, le=3600, description="seconds per tick (host)")] = 60.0

    @property
    def total_ticks(self) -> int:
        """Ticks in the whole game."""
        return self.rounds * self.ticks
