"""Daifugo rules options (defaults: the source's rules; ``docs/games/daifugo.md``).

Every rule that differs between the source's contest (JK大富豪電脳戦), the UECda contest and the
common local rules is an option here, with its range or values checked on construction.
:data:`PRESETS` names whole sets of options: ``make_rules({"preset": "uecda"})`` (or
``--rules preset=uecda``) starts from the UECda rules, and explicit options override them.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, Literal

from msgspec import Meta

from dennou.core.errors import ConfigError
from dennou.core.game import Rules, parse_rules

Title = Literal["daifugo", "fugo", "heimin", "hinmin", "daihinmin"]
"""Titles by their romanised names (大富豪, 富豪, 平民, 貧民, 大貧民)."""

TITLES: tuple[Title, ...] = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")
TITLE_KANJI: dict[str, str] = {
    "daifugo": "大富豪",
    "fugo": "富豪",
    "heimin": "平民",
    "hinmin": "貧民",
    "daihinmin": "大貧民",
}


class DaifugoRules(Rules, frozen=True):
    """The options of a Daifugo set (one record is one set of ``games`` games)."""

    games: Annotated[
        int, Meta(ge=1, le=10_000, description="counted games in a set (void games do not count)")
    ] = 10
    jokers: Annotated[
        int, Meta(ge=0, le=2, description="jokers in the deck (52 + jokers cards; UECda: 1)")
    ] = 2
    max_group: Annotated[
        int, Meta(ge=1, le=6, description="most cards in one group (all of one rank, jokers wild)")
    ] = 6
    sequences: Annotated[
        bool,
        Meta(description="階段: 3+ consecutive ranks of one suit may be played (jokers anywhere)"),
    ] = False
    suit_lock: Annotated[
        bool, Meta(description="縛り: a play of the same suits as the one below it locks them")
    ] = False
    revolution: Annotated[
        bool, Meta(description="革命: a big enough group or sequence reverses the order")
    ] = True
    revolution_size: Annotated[
        int, Meta(ge=2, le=6, description="cards in a group that makes a revolution")
    ] = 4
    sequence_revolution_size: Annotated[
        int,
        Meta(ge=0, le=15, description="cards in a sequence that makes a revolution (0: never)"),
    ] = 5
    eight_cut: Annotated[
        bool, Meta(description="八切り: a play containing an 8 flushes the field at once")
    ] = True
    spade3_return: Annotated[
        bool, Meta(description="スペ3返し: the single 3 of spades beats a single joker")
    ] = True
    spade3_flush: Annotated[
        bool, Meta(description="the spade-3 return flushes the field at once (UECda)")
    ] = False
    eleven_back: Annotated[
        bool,
        Meta(
            description="イレブンバック: a play containing a J reverses the order until the flush"
        ),
    ] = False
    five_skip: Annotated[
        bool, Meta(description="5飛ばし: a play skips one player for each 5 in it")
    ] = False
    seven_pass: Annotated[
        bool, Meta(description="7渡し: give the next player one card for each 7 played")
    ] = False
    ten_discard: Annotated[
        bool, Meta(description="10捨て: discard one card for each 10 played")
    ] = False
    miyako_ochi: Annotated[
        bool,
        Meta(description="都落ち: the last 大富豪, if not first out, falls to 大貧民 at once"),
    ] = False
    first_lead: Annotated[
        Literal["order", "diamond3"],
        Meta(description="who leads a game: order = the first in turn order; diamond3 = ♦3"),
    ] = "order"
    turn_order: Annotated[
        Literal["finish", "seats"],
        Meta(
            description="finish = reverse of the last finishing order; seats = by seat, dealt "
            "from the last 大富豪"
        ),
    ] = "finish"
    lead_pass: Annotated[bool, Meta(description="a player may pass on an empty field")] = False
    flush_on: Annotated[
        Literal["others_passed", "all_passed"],
        Meta(
            description="the field flushes when every other player has passed, or when all "
            "have (the last player gets one more turn over their own cards)"
        ),
    ] = "others_passed"
    auto_pass: Annotated[
        bool, Meta(description="a player with no legal play is passed for without being asked")
    ] = True
    stalemate_passes: Annotated[
        int,
        Meta(
            ge=0,
            le=1000,
            description="千日手: after this many passes in a row the remaining places are drawn "
            "at random (0: never)",
        ),
    ] = 0
    exchange: Annotated[
        bool, Meta(description="card exchange between titles before every game from game 2")
    ] = True
    daifugo_exchange: Annotated[
        int, Meta(ge=0, le=5, description="cards exchanged between 大貧民 and 大富豪")
    ] = 2
    fugo_exchange: Annotated[
        int, Meta(ge=0, le=5, description="cards exchanged between 貧民 and 富豪")
    ] = 1
    auto_tribute: Annotated[
        bool, Meta(description="大貧民 and 貧民 give their strongest cards without being asked")
    ] = False
    cheating: Annotated[
        Literal["penalty", "reject", "strongest"],
        Meta(
            description="a broken exchange submission: penalty = the source's cheating (hand "
            "shown and discarded, out as 大貧民); reject = refused like an illegal play; "
            "strongest = replaced by the giver's strongest cards (UECda)"
        ),
    ] = "penalty"
    points: Annotated[
        tuple[int, int, int, int, int],
        Meta(description="points per game for 大富豪, 富豪, 平民, 貧民, 大貧民"),
    ] = (2, 1, 0, -1, -2)
    final_points: Annotated[
        tuple[int, int, int, int, int],
        Meta(description="added on top in the last game of the set, same order"),
    ] = (10, 5, 0, -5, -10)
    time_limit: Annotated[
        float, Meta(gt=0, le=3600, description="seconds per decision for remote clients (host)")
    ] = 10.0

    def __post_init__(self) -> None:
        """Check what one option cannot say alone.

        Raises:
            ValueError: A sequence revolution of 1-2 cards (sequences have 3 or more).
        """
        if 0 < self.sequence_revolution_size < 3:
            raise ValueError("sequence_revolution_size is 0 (never) or 3-15: sequences have 3+")

    def title_points(self, title: str, *, final: bool) -> int:
        """Points a title earns in a game (``final``: the last game of the set)."""
        i = TITLES.index(title)  # type: ignore[arg-type,unused-ignore]
        return self.points[i] + (self.final_points[i] if final else 0)


PRESETS: dict[str, dict[str, Any]] = {
    "uecda": {
        "jokers": 1,
        "sequences": True,
        "suit_lock": True,
        "revolution": True,
        "revolution_size": 4,
        "sequence_revolution_size": 5,
        "eight_cut": True,
        "spade3_return": True,
        "spade3_flush": True,
        "first_lead": "diamond3",
        "turn_order": "seats",
        "lead_pass": True,
        "flush_on": "all_passed",
        "auto_pass": False,
        "stalemate_passes": 20,
        "exchange": True,
        "daifugo_exchange": 2,
        "fugo_exchange": 1,
        "auto_tribute": True,
        "cheating": "strongest",
        "points": (5, 4, 3, 2, 1),
        "final_points": (0, 0, 0, 0, 0),
    },
}
"""Named sets of options (``docs/games/daifugo.md``: the UECda rules)."""

LOCAL_RULES: dict[str, Any] = {
    "sequences": True,
    "suit_lock": True,
    "eleven_back": True,
    "five_skip": True,
    "seven_pass": True,
    "ten_discard": True,
    "miyako_ochi": True,
}
"""Sequences, the suit lock and every common local rule on (each is off by default): the options
tests and benchmarks combine to exercise every rule at once (``docs/games/daifugo.md``)."""


def from_options(options: Mapping[str, Any]) -> DaifugoRules:
    """Rules from options; ``preset`` starts from :data:`PRESETS`, explicit options override.

    Raises:
        ConfigError: An unknown preset or option, or an impossible value.
    """
    chosen = dict(options)
    preset = chosen.pop("preset", None)
    if preset is not None:
        if preset not in PRESETS:
            raise ConfigError(f"unknown rules preset {preset!r}; presets: {sorted(PRESETS)}")
        chosen = {**PRESETS[preset], **chosen}
    rules = parse_rules(DaifugoRules, chosen)
    assert isinstance(rules, DaifugoRules)
    return rules


@cache
def titles_for(n: int) -> tuple[Title, ...]:
    """Titles by finishing order in a game of ``n`` players (rules: Titles and points).

    ``n = 1`` gives ``("daifugo",)``: the lone honest player of a game with cheaters.
    """
    if n >= 5:
        middle: list[Title] = ["heimin"] * (n - 4)
        return ("daifugo", "fugo", *middle, "hinmin", "daihinmin")
    table: dict[int, tuple[Title, ...]] = {
        4: ("daifugo", "fugo", "hinmin", "daihinmin"),
        3: ("daifugo", "heimin", "daihinmin"),
        2: ("daifugo", "daihinmin"),
        1: ("daifugo",),
    }
    return table[n]
