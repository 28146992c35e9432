"""Numeron bots: ``random``, ``solver`` (``solver.py``), ``optimal`` and ``race`` (``race.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dennou.core.bot import RandomBot
from dennou.games.numeron.race import OptimalBot, RaceBot
from dennou.games.numeron.solver import SolverBot

BOTS: dict[str, Callable[..., Any]] = {
    "random": RandomBot,
    "solver": SolverBot,
    "optimal": OptimalBot,
    "race": RaceBot,
}
