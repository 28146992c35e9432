"""Musical Chairs bots: ``random`` (uniform legal) and ``heuristic``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dennou.core.bot import RandomBot

BOTS: dict[str, Callable[..., Any]] = {"random": RandomBot}
