"""A bot whose native code takes seconds to build (``dennou bot run`` tests load it by name)."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON
from dennou.core.native import Native

CODE = Native("slow test", lambda: time.sleep(30), budget=0.05)


class SlowNativeBot(Bot):
    """Plays the first legal action; asks for its code first, as the search bots do."""

    name = "slow-native"

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """The first legal action, whether or not the code is built (its fallback)."""
        CODE.ready()
        return legal[0]
