"""10-card stud (10カードスタッド): engine, evaluator, odds; see ``docs/games/stud10.md``."""

from dennou.games.stud10.engine import GAME, Stud10, split_pot
from dennou.games.stud10.eval import describe, evaluate, evaluate_batch
from dennou.games.stud10.odds import Odds, odds, odds_command
from dennou.games.stud10.rules import Stud10Rules

__all__ = [
    "GAME",
    "Odds",
    "Stud10",
    "Stud10Rules",
    "describe",
    "evaluate",
    "evaluate_batch",
    "odds",
    "odds_command",
    "split_pot",
]
