"""Musical Chairs (イス取りゲーム): see ``engine`` and ``docs/games/chairs.md``."""

from dennou.games.chairs.engine import GAME, Chairs
from dennou.games.chairs.rules import ChairsRules

__all__ = ["GAME", "Chairs", "ChairsRules"]
