"""10-card stud actions. Players make no decisions: every action is the host's chance action."""

from __future__ import annotations

from dennou.core.actions import Action, ActionCodec


class Deal(Action, frozen=True, tag="deal"):
    """Chance: the shuffled deck, all 52 cards (``deal 7h Kd ...``).

    Each player in the hand, in seat order, takes ten cards: five door cards face up, then five
    hole cards face down. The cards left after the last player are dead.
    """

    cards: tuple[str, ...]


class Reveal(Action, frozen=True, tag="reveal"):
    """Chance: the hole card each revealing player turns up, in seat order (``reveal As 7d``)."""

    cards: tuple[str, ...]


CODEC = ActionCodec(Deal, Reveal)
