"""Rock-paper-scissors' one action: a sealed throw."""

from __future__ import annotations

from dennou.core.actions import Action, ActionCodec

HANDS = ("rock", "paper", "scissors")
"""The hands; each beats the one before it (paper beats rock), and rock beats scissors."""


class Throw(Action, frozen=True, tag="throw"):
    """Throw a hand (``throw rock``)."""

    hand: str


CODEC = ActionCodec(Throw)
