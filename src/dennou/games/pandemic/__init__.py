"""Pandemic Game (感染ゲーム): avoid infection while collecting vaccines, in sealed ticks.

Rules: ``docs/games/pandemic.md``. The game is assembled here from its parts, each importing only
those before it: ``rules`` → ``actions`` → ``state`` → ``knowledge`` → ``engine`` → ``views`` →
``belief`` → ``adaptive`` → ``bots`` (``docs/architecture.md``, "A game package").
"""

from dennou.games.pandemic.bots import BOTS
from dennou.games.pandemic.engine import Pandemic, qualification
from dennou.games.pandemic.rules import PandemicRules
from dennou.games.pandemic.state import contact_result
from dennou.games.pandemic.views import PandemicViews

GAME = Pandemic(views=PandemicViews, bots=BOTS)
"""The Pandemic Game, as listed in the registry."""

__all__ = ["GAME", "Pandemic", "PandemicRules", "PandemicViews", "contact_result", "qualification"]
