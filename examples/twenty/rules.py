"""Twenty's rules options (defaults = the rules in ``examples/twenty/README.md``)."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from dennou.core.game import Rules


class TwentyRules(Rules, frozen=True):
    """The options of a game of Twenty: every number has a range, checked when built."""

    target: Annotated[int, Meta(ge=5, le=100, description="who says this number loses")] = 20
    most: Annotated[int, Meta(ge=2, le=5, description="most numbers said in one turn")] = 3

    def check(self) -> None:
        """Cross-field checks."""
        if self.most >= self.target:
            raise ValueError("most must be below target (rules: A turn)")
