"""Twenty's actions: the host's coin flip and a player's count."""

from __future__ import annotations

from dennou.core.actions import Action, ActionCodec


class Coin(Action, frozen=True, tag="coin"):
    """Chance: the host's coin flip says who counts first."""

    first: int


class Say(Action, frozen=True, tag="say"):
    """Say the next ``count`` numbers (``say 2``)."""

    count: int


CODEC = ActionCodec(Coin, Say)
