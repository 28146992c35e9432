"""10-card stud rules options (defaults = the rules of ``docs/games/stud10.md``).

The page fixes the deal and the reveal loop; the options are the session's money (ante,
starting stacks, number of hands) and how much work views spend on live odds. Every option has a
range, checked when the rules are built: the odds' work is capped so that no table can ask for
minutes of computation per view.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from dennou.core.game import Rules


class Stud10Rules(Rules, frozen=True):
    """The options of a 10-card stud session."""

    ante: Annotated[
        int,
        Meta(
            ge=0,
            le=10**6,
            description="chips each player antes into the pot at the start of a hand",
        ),
    ] = 1
    stack: Annotated[
        int, Meta(ge=0, le=10**9, description="chips each player starts the session with")
    ] = 100
    hands: Annotated[
        int,
        Meta(
            ge=0,
            le=10_000,
            description="hands in the session; 0 = play on until fewer than two players can pay "
            "the ante",
        ),
    ] = 1
    view_odds: Annotated[
        bool,
        Meta(description="views carry every player's live win probability after each reveal"),
    ] = True
    odds_samples: Annotated[
        int, Meta(ge=1, le=200_000, description="Monte Carlo deals behind the odds in views")
    ] = 20_000
    odds_exact_limit: Annotated[
        int,
        Meta(
            ge=0,
            le=1_000_000,
            description="views enumerate the hidden cards exactly up to this many ways",
        ),
    ] = 200_000

    def check(self) -> None:
        """Cross-field checks."""
        if self.stack < self.ante:
            raise ValueError(
                f"a stack of {self.stack} cannot pay an ante of {self.ante}: nobody could play "
                "(rules: Showdown, the pot)"
            )
        if self.hands == 0 and self.ante == 0:
            raise ValueError("hands=0 plays until players go broke, which needs an ante > 0")
