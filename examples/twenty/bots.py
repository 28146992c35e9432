"""Twenty's bots: ``perfect`` leaves the opponent a losing count whenever it can."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Annotated, Any

from msgspec import Meta

from dennou.core.actions import Action
from dennou.core.bot import Bot, RandomBot
from dennou.core.game import JSON
from twenty.actions import Say


class PerfectBot(Bot):
    """Says up to the next number ``target - 1 - k (most + 1)``, which the opponent must pass.

    Args:
        mistakes: The share of turns it plays at random instead.
    """

    name = "perfect"

    def __init__(self, mistakes: Annotated[float, Meta(ge=0, le=1)] = 0.0) -> None:
        self.mistakes = mistakes

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """The winning count, if there is one."""
        rules, total = view["rules"], view["total"]
        want = (rules["target"] - 1 - total) % (rules["most"] + 1)
        if want == 0 or rng.random() < self.mistakes:
            return legal[rng.randrange(len(legal))]
        return Say(want)


BOTS: dict[str, Callable[..., Any]] = {"random": RandomBot, "perfect": PerfectBot}
