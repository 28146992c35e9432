"""Musical Chairs (イス取りゲーム, LIAR GAME round 4 final): chairs, medals, gaya and a parent.

Rules: ``docs/games/chairs.md``. The game is assembled here from its parts, each importing only
those before it: ``rules`` → ``actions`` → ``state`` → ``race``/``spaces`` → ``engine`` →
``views`` → ``heuristic`` → ``adaptive`` → ``bots`` (``docs/architecture.md``, "A game package").
"""

from dennou.games.chairs.bots import BOTS
from dennou.games.chairs.engine import Chairs
from dennou.games.chairs.rules import ChairsRules
from dennou.games.chairs.views import ChairsViews

GAME = Chairs(views=ChairsViews, bots=BOTS)
"""The Musical Chairs game, as listed in the registry."""

__all__ = ["GAME", "Chairs", "ChairsRules", "ChairsViews"]
