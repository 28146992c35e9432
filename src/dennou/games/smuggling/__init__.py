"""Smuggling Game (密輸ゲーム, LIAR GAME round 3): two teams smuggle and inspect in turn.

Rules: ``docs/games/smuggling.md``. The game is assembled here from its parts, each importing
only those before it: ``rules`` → ``settle`` → ``equilibrium`` → ``actions`` → ``state`` →
``engine`` → ``views`` → ``strategies``/``planner`` → ``bots`` (``docs/architecture.md``,
"A game package").
"""

from dennou.games.smuggling.bots import BOTS
from dennou.games.smuggling.engine import Smuggling
from dennou.games.smuggling.rules import SmugglingRules
from dennou.games.smuggling.settle import settle
from dennou.games.smuggling.views import SmugglingViews

GAME = Smuggling(views=SmugglingViews, bots=BOTS)
"""The Smuggling Game, as listed in the registry."""

__all__ = ["GAME", "Smuggling", "SmugglingRules", "SmugglingViews", "settle"]
