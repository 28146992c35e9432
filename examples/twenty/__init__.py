"""Twenty (二十): the smallest complete dennou game, for the walk-through in CONTRIBUTING.md.

The game is assembled here from its parts, each importing only those before it:
``rules`` → ``actions`` → ``state`` → ``engine`` → ``views`` → ``bots``.
"""

from twenty.bots import BOTS
from twenty.engine import Twenty
from twenty.rules import TwentyRules
from twenty.views import TwentyViews

GAME = Twenty(views=TwentyViews, bots=BOTS)
"""The game of Twenty (add ``"twenty": "twenty:GAME"`` to a registry to list it)."""

__all__ = ["GAME", "Twenty", "TwentyRules", "TwentyViews"]
