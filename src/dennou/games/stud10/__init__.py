"""10-card stud (10カードスタッド): the weakest hand reveals until all cards are up.

Rules: ``docs/games/stud10.md``. The game is assembled here from its parts, each importing only
those before it: ``rules`` → ``cards`` → ``eval`` → ``odds``/``sim`` → ``actions`` → ``state`` →
``engine`` → ``views`` (``docs/architecture.md``, "A game package"). It has no bots of its own:
players make no decisions.
"""

from dennou.games.stud10.engine import Stud10, split_pot
from dennou.games.stud10.eval import describe, evaluate, evaluate_batch
from dennou.games.stud10.odds import Odds, odds, odds_command
from dennou.games.stud10.rules import Stud10Rules
from dennou.games.stud10.views import Stud10Views, live_odds

GAME = Stud10(views=Stud10Views)
"""The 10-card stud game, as listed in the registry."""

__all__ = [
    "GAME",
    "Odds",
    "Stud10",
    "Stud10Rules",
    "Stud10Views",
    "describe",
    "evaluate",
    "evaluate_batch",
    "live_odds",
    "odds",
    "odds_command",
    "split_pot",
]
