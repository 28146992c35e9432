"""Star Hi-Lo bots: ``random`` (uniform over action kinds) and ``bayes``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

BOTS: dict[str, Callable[..., Any]] = {}
