"""Numeron (ヌメロン): guess the opponent's number from EAT-BITE judgments.

Rules: ``docs/games/numeron.md``. The game is assembled here from its parts, each importing
only those before it: ``rules`` → ``actions`` → ``state`` → ``engine`` → ``knowledge`` →
``views`` → ``solver`` → ``optimum`` → ``calls`` → ``items`` → ``race`` →
``bots`` (``docs/architecture.md``, "A game package").
"""

from dennou.games.numeron.bots import BOTS
from dennou.games.numeron.engine import Numeron, judge
from dennou.games.numeron.rules import NumeronRules
from dennou.games.numeron.views import NumeronViews

GAME = Numeron(views=NumeronViews, bots=BOTS)
"""The Numeron game, as listed in the registry."""

__all__ = ["GAME", "Numeron", "NumeronRules", "NumeronViews", "judge"]
