"""Twenty's state: immutable; every transition builds a new one with ``replace``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from twenty.rules import TwentyRules

Phase = Literal["coin", "play", "over"]


@dataclass(frozen=True)
class TwentyState:
    """Everything about a game (nothing is hidden in Twenty).

    Attributes:
        rules: The rules options.
        players: Player names by seat.
        phase: What is due now.
        total: The last number said.
        turn: The seat to count.
        loser: The seat that said the target, once over.
    """

    rules: TwentyRules
    players: tuple[str, str]
    phase: Phase = "coin"
    total: int = 0
    turn: int = 0
    loser: int | None = None
