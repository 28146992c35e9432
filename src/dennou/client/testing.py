"""A bot for tests and load generation that plays every game like the conformance harness.

It sees only its view: it determinizes the view (a full state consistent with it) and makes the
harness's choice there (``Game.conformance_action``, which games bias so that random play ends
in reasonable time, e.g. Numeron calls a number consistent with what it knows one time in
eight). Games between these bots end about as fast as the harness's, whatever the game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON, Game


class HarnessBot(Bot):
    """Plays ``game.conformance_action`` on a determinization of its view.

    Args:
        game: The game.
    """

    name = "harness"

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose as the harness would, in a state sampled from the view."""
        seat = view.get("seat")
        assert isinstance(seat, int)
        state = self.game.determinize(view, seat, rng)
        action = self.game.conformance_action(state, seat, legal, rng)
        return action if action in legal else legal[rng.randrange(len(legal))]
