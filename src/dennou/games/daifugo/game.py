"""The Daifugo game: the rules (:mod:`.engine`) with views, rendering and bots, as registered."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dennou.core.actions import Action
from dennou.core.game import JSON, Seat
from dennou.games.daifugo import bots, views
from dennou.games.daifugo.engine import DaifugoEngine
from dennou.games.daifugo.state import DaifugoState


class Daifugo(DaifugoEngine):
    """Daifugo: the rules of :class:`DaifugoEngine`, seen, rendered and played by bots."""

    def view(self, state: DaifugoState, seat: Seat | None) -> JSON:
        """What ``seat`` knows: see :func:`.views.view`."""
        return views.view(self, state, seat)

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> DaifugoState:
        """A state consistent with ``view``: see :func:`.views.determinize`."""
        return views.determinize(view, seat, rng)

    def render(self, view: JSON) -> str:
        """The view as text: field, hands as ``♠3 ♥8 JOKER``, players and points."""
        return views.render(view)

    def describe_legal(self, legal: Sequence[Action]) -> str:
        """The legal plays with cards as symbols, numbered."""
        return views.describe_legal(legal)

    def bots(self) -> Mapping[str, Callable[..., Any]]:
        """``random``, ``greedy`` and ``montecarlo``."""
        return bots.BOTS


GAME = Daifugo()
"""The Daifugo game, as listed in the registry."""
