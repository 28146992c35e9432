"""Smuggling Game bots by name.

``random``, ``greedy``, ``equilibrium`` (:mod:`.strategies`) and ``planner`` (:mod:`.planner`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dennou.core.bot import RandomBot
from dennou.games.smuggling.planner import PlannerBot
from dennou.games.smuggling.strategies import EquilibriumBot, GreedyBot

BOTS: dict[str, Callable[..., Any]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "equilibrium": EquilibriumBot,
    "planner": PlannerBot,
}
"""The Smuggling Game's bots by name."""
