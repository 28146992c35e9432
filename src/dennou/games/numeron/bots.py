"""Numeron bots: ``random``, ``solver`` (``solver.py``), ``optimal`` and ``race`` (``race.py``).

The search bots are listed by place: their compiled code (Numba) is imported with the first of
them a process builds, not with the game.
"""

from __future__ import annotations

from dennou.core.bot import RandomBot
from dennou.core.lazy import Bots

BOTS = Bots(
    {
        "random": RandomBot,
        "solver": "dennou.games.numeron.solver:SolverBot",
        "optimal": "dennou.games.numeron.race:OptimalBot",
        "race": "dennou.games.numeron.race:RaceBot",
    }
)
"""The bots of this game by name."""
