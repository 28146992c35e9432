"""Daifugo rules options (defaults: the rules in ``docs/games/daifugo.md``)."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from dennou.core.game import Rules

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
        int, Meta(ge=1, le=1000, description="counted games in a set (void games do not count)")
    ] = 10
    max_group: Annotated[
        int, Meta(ge=1, le=6, description="most cards in one play (all of one rank, jokers wild)")
    ] = 6
    revolution: Annotated[
        bool, Meta(description="革命: a play of revolution_size+ cards reverses the order")
    ] = True
    revolution_size: Annotated[
        int, Meta(ge=2, le=6, description="cards in a play that makes a revolution")
    ] = 4
    eight_cut: Annotated[
        bool, Meta(description="八切り: a play of 8s (jokers as 8s count) flushes the field")
    ] = True
    spade3_return: Annotated[
        bool, Meta(description="スペ3返し: the single 3 of spades beats a single joker")
    ] = True
    exchange: Annotated[
        bool, Meta(description="card exchange between titles before every game from game 2")
    ] = True
    daifugo_exchange: Annotated[
        int, Meta(ge=0, le=5, description="cards exchanged between 大貧民 and 大富豪")
    ] = 2
    fugo_exchange: Annotated[
        int, Meta(ge=0, le=5, description="cards exchanged between 貧民 and 富豪")
    ] = 1
    cheating: Annotated[
        Literal["penalty", "reject"],
        Meta(
            description="a broken exchange submission: penalty = the rules' cheating (hand "
            "shown and discarded, out as 大貧民); reject = refused like an illegal play"
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
        float, Meta(gt=0, description="seconds per decision for remote clients (host)")
    ] = 10.0

    def title_points(self, title: str, *, final: bool) -> int:
        """Points a title earns in a game (``final``: the last game of the set)."""
        i = TITLES.index(title)  # type: ignore[arg-type,unused-ignore]
        return self.points[i] + (self.final_points[i] if final else 0)


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
