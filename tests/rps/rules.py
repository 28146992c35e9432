"""Rock-paper-scissors' rules options."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from dennou.core.game import Rules


class RpsRules(Rules, frozen=True):
    """The rules: how many throws a game has."""

    throws: Annotated[int, Meta(ge=1, le=9, description="throws in a game")] = 3
