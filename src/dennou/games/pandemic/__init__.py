"""Pandemic Game (感染ゲーム): see ``engine`` and ``docs/games/pandemic.md``."""

from dennou.games.pandemic.engine import GAME, Pandemic, qualification
from dennou.games.pandemic.rules import PandemicRules
from dennou.games.pandemic.state import contact_result

__all__ = ["GAME", "Pandemic", "PandemicRules", "contact_result", "qualification"]
