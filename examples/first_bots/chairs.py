"""Musical Chairs: stay out of the fights (abstain, block nobody), play the rest at random."""

from __future__ import annotations

import random
from collections.abc import Sequence

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON
from dennou.games.chairs.actions import Abstain, NoBlock, Ready


class Bystander(Bot):
    """Ready at once, abstains from votes, blocks nobody; anything else at random."""

    name = "bystander"

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """A peaceful choice when there is one (the list may be long: look at the few kinds)."""
        if len(legal) <= 1000:
            for kind in (Ready, Abstain, NoBlock):
                found = next((a for a in legal if isinstance(a, kind)), None)
                if found is not None:
                    return found
        return legal[rng.randrange(len(legal))]
