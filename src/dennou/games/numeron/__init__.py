"""Numeron (ヌメロン): see ``engine`` and ``docs/games/numeron.md``."""

from dennou.games.numeron.engine import GAME, Numeron, judge
from dennou.games.numeron.rules import NumeronRules

__all__ = ["GAME", "Numeron", "NumeronRules", "judge"]
