"""The Pandemic Game: check yourself whenever you can, otherwise stay idle."""

from __future__ import annotations

import random
from collections.abc import Sequence

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON
from dennou.games.pandemic.actions import Check, Idle


class Careful(Bot):
    """Checks when it may, idles otherwise, and contacts no one unless it must."""

    name = "careful"

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """The first of check, idle that is legal; else a random legal action."""
        for kind in (Check, Idle):
            found = next((a for a in legal if isinstance(a, kind)), None)
            if found is not None:
                return found
        return legal[rng.randrange(len(legal))]
