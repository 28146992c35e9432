"""Smuggling: never doubt, and smuggle a middling amount."""

from __future__ import annotations

import random
from collections.abc import Sequence

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON
from dennou.games.smuggling.actions import Pass, Trunk


class Trusting(Bot):
    """Passes whenever it may (never doubts); as a smuggler, a middling amount in the trunk."""

    name = "trusting"

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Pass if allowed, else the median trunk amount, else the first legal action."""
        if any(isinstance(a, Pass) for a in legal):
            return next(a for a in legal if isinstance(a, Pass))
        trunks = [a for a in legal if isinstance(a, Trunk)]
        if trunks:
            return sorted(trunks, key=lambda a: a.amount)[len(trunks) // 2]
        return legal[0]
