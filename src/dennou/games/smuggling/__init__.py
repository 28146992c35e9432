"""Smuggling Game (密輸ゲーム): see ``engine`` and ``docs/games/smuggling.md``."""

from dennou.games.smuggling.engine import GAME, Smuggling
from dennou.games.smuggling.rules import SmugglingRules
from dennou.games.smuggling.settle import settle

__all__ = ["GAME", "Smuggling", "SmugglingRules", "settle"]
