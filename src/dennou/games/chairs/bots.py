"""Musical Chairs bots: ``random``, ``heuristic`` (:mod:`.heuristic`), ``adaptive``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dennou.core.bot import RandomBot
from dennou.games.chairs.adaptive import AdaptiveBot
from dennou.games.chairs.heuristic import HeuristicBot

BOTS: dict[str, Callable[..., Any]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "adaptive": AdaptiveBot,
}
