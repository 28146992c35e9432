"""Star Hi-Lo (スター・ハイアンドロー): see ``engine`` and ``docs/games/hilo.md``."""

from dennou.games.hilo.engine import GAME, Hilo
from dennou.games.hilo.rules import HiloRules
from dennou.games.hilo.standings import ranked, standings, table

__all__ = ["GAME", "Hilo", "HiloRules", "ranked", "standings", "table"]
