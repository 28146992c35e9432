"""Star Hi-Lo: the legal space is billions of guesses; look at a sample and prefer a plain one."""

from __future__ import annotations

import random
from collections.abc import Sequence

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON
from dennou.games.hilo.actions import Guess


class PlainGuesser(Bot):
    """Prefers a plain public guess (it costs nothing) among 64 legal actions drawn at random."""

    name = "plainguesser"

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Draw a few legal actions (never list them all) and keep a plain guess if one came."""
        drawn = [legal[rng.randrange(len(legal))] for _ in range(64)]
        return next((a for a in drawn if isinstance(a, Guess)), drawn[0])
