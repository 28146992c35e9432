"""Star Hi-Lo bots: ``random`` (uniform over action kinds) and ``bayes`` (:mod:`.bayes`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dennou.games.hilo.bayes import BayesBot, HiloRandomBot

BOTS: dict[str, Callable[..., Any]] = {"random": HiloRandomBot, "bayes": BayesBot}
