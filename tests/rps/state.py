"""Rock-paper-scissors' state."""

from __future__ import annotations

from dataclasses import dataclass

from dennou.core.game import TalkLine
from tests.rps.rules import RpsRules


@dataclass(frozen=True)
class RpsState:
    """A game: the throws so far, the sealed ones of this round, the talk.

    Attributes:
        rules: The rules.
        players: The two players' names.
        phase: ``throw`` or ``over``.
        sealed: Each seat's hidden throw this round (``None``: not yet).
        history: Each finished round's two hands.
        wins: Rounds won per seat.
        talk: Every line said.
    """

    rules: RpsRules
    players: tuple[str, str]
    phase: str = "throw"
    sealed: tuple[str | None, str | None] = (None, None)
    history: tuple[tuple[str, str], ...] = ()
    wins: tuple[int, int] = (0, 0)
    talk: tuple[TalkLine, ...] = ()
