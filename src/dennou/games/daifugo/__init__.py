"""Daifugo (大富豪): play out your hand first; ten-game sets with titles and exchanges.

Rules: ``docs/games/daifugo.md``. The game is assembled here from its parts, each importing only
those before it: ``rules`` → ``cards`` → ``actions`` → ``state`` → ``fast``/``sim`` →
``engine`` → ``views`` → ``bots`` (``docs/architecture.md``, "A game package"). The rules are
written in :mod:`.engine` the way the rules page reads; the speed is behind :mod:`.fast`.
"""

from dennou.games.daifugo.bots import BOTS
from dennou.games.daifugo.cards import can_follow
from dennou.games.daifugo.engine import DaifugoEngine
from dennou.games.daifugo.rules import DaifugoRules
from dennou.games.daifugo.views import DaifugoViews

Daifugo = DaifugoEngine
"""The game's class (its rules; views and bots are given to it here)."""

GAME = DaifugoEngine(views=DaifugoViews, bots=BOTS)
"""The Daifugo game, as listed in the registry."""

__all__ = ["GAME", "Daifugo", "DaifugoEngine", "DaifugoRules", "DaifugoViews", "can_follow"]
