"""Pandemic bots: ``random`` (uniform legal), ``belief`` (:mod:`.belief`) and ``adaptive``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dennou.core.bot import RandomBot
from dennou.games.pandemic.adaptive import AdaptiveBot
from dennou.games.pandemic.belief import BeliefBot

BOTS: dict[str, Callable[..., Any]] = {
    "random": RandomBot,
    "belief": BeliefBot,
    "adaptive": AdaptiveBot,
}
