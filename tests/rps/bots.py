"""Rock-paper-scissors' bots."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from dennou.core.actions import Action
from dennou.core.bot import Bot, RandomBot
from dennou.core.game import JSON
from tests.rps.actions import HANDS, Throw


class BeatLastBot(Bot):
    """Throws what beats the other seat's last hand (rock in the first round)."""

    name = "beat_last"

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """The hand that beats the other seat's last one."""
        if not view["history"]:
            return Throw("rock")
        theirs = view["history"][-1][1 - view["seat"]]
        return Throw(HANDS[(HANDS.index(theirs) + 1) % 3])


BOTS: dict[str, Any] = {"random": RandomBot, "beat_last": BeatLastBot}
