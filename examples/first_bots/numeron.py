"""Numeron: a random secret, and never the same call twice."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON
from dennou.games.numeron.actions import Call, NoItem


class NeverTwice(Bot):
    """Calls a number it has not called yet; never uses an item."""

    name = "nevertwice"

    def reset(self, *, seat: int, rules: Any, players: Sequence[str]) -> None:
        """A new game: nothing called yet."""
        self.called: set[str] = set()

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Skip the items; call a fresh number."""
        if any(isinstance(a, NoItem) for a in legal):
            return next(a for a in legal if isinstance(a, NoItem))
        fresh = [a for a in legal if isinstance(a, Call) and a.number not in self.called]
        choice = rng.choice(fresh) if fresh else legal[rng.randrange(len(legal))]
        if isinstance(choice, Call):
            self.called.add(choice.number)
        return choice
