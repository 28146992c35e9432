"""Star Hi-Lo (スター・ハイアンドロー): bracket a hidden number with high/low guesses, then check.

Rules: ``docs/games/hilo.md``. The game is assembled here from its parts, each importing only
those before it: ``rules`` → ``standings`` → ``actions`` → ``state`` → ``knowledge`` →
``engine`` → ``views`` → ``bayes`` → ``bots`` (``docs/architecture.md``, "A game package").
"""

from dennou.games.hilo.bots import BOTS
from dennou.games.hilo.engine import Hilo
from dennou.games.hilo.rules import HiloRules
from dennou.games.hilo.standings import full_standings, ranked, standings
from dennou.games.hilo.views import HiloViews

GAME = Hilo(views=HiloViews, bots=BOTS)
"""The Star Hi-Lo game, as listed in the registry."""

__all__ = ["GAME", "Hilo", "HiloRules", "HiloViews", "full_standings", "ranked", "standings"]
