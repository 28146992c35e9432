"""Numeron rules options (defaults = the rules of ``docs/games/numeron.md``), each bounded."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from dennou.core.game import Rules

Item = Literal["double", "high_low", "target", "slash", "shuffle", "change", "move"]
ATTACK_ITEMS: tuple[Item, ...] = ("double", "high_low", "target", "slash")
DEFENCE_ITEMS: tuple[Item, ...] = ("shuffle", "change", "move")
ALL_ITEMS: tuple[Item, ...] = ATTACK_ITEMS + DEFENCE_ITEMS


class NumeronRules(Rules, frozen=True):
    """The options of a Numeron game."""

    digits: Annotated[int, Meta(ge=3, le=5, description="length of the numbers: 3, 4 or 5")] = 3
    items: Annotated[
        tuple[Item, ...] | None,
        Meta(
            description="items each player gets (a name may repeat); none = one of each of the "
            "seven with 4-5 digits, no items with 3"
        ),
    ] = None
    first: Annotated[
        Literal["coin", "seat0"], Meta(description="who calls first: a seeded coin flip, or seat 0")
    ] = "coin"
    equal_turns: Annotated[
        bool,
        Meta(description="if the first caller hits, the second gets one last turn (hit = draw)"),
    ] = False
    time_limit: Annotated[float, Meta(gt=0, le=3600, description="seconds per decision (host)")] = (
        60.0
    )
    forfeit_after: Annotated[
        int,
        Meta(
            ge=0, le=100, description="turns in a row with a lost call before a forfeit (0: never)"
        ),
    ] = 3
    spectator_digits: Annotated[
        bool, Meta(description="whether spectators may post lines containing digits")
    ] = False
    spectator_strikes: Annotated[
        int,
        Meta(ge=1, le=100, description="refused spectator lines before the host removes them"),
    ] = 3

    def check(self) -> None:
        """Cross-field checks."""
        if self.items and self.digits < 4:
            raise ValueError("items are allowed only with 4 or 5 digits (rules: Setup)")

    def item_set(self) -> tuple[Item, ...]:
        """The items each player starts with."""
        if self.items is not None:
            return self.items
        return ALL_ITEMS if self.digits >= 4 else ()
