"""Daifugo actions (JSON tag = the text form's first word).

Cards are wire strings (``"8s"``, ``"10h"``, ``"JK"``; see :mod:`.cards`): ``play 8s 8h``,
``pass``, ``give 3c 4d``, and the host's ``deal`` with the 54 cards in dealing order.
"""

from __future__ import annotations

from dennou.core.actions import Action, ActionCodec


class Play(Action, frozen=True, tag="play"):
    """Play a group of cards of one rank (jokers wild): ``play 8s 8h``, ``play JK``."""

    cards: tuple[str, ...]


class Pass(Action, frozen=True, tag="pass"):
    """Pass: no more plays until the field flushes."""


class Give(Action, frozen=True, tag="give"):
    """Exchange: give cards to the partner of the current exchange step (``give 3c 4d``)."""

    cards: tuple[str, ...]


class Deal(Action, frozen=True, tag="deal"):
    """Chance: the shuffled deck, dealt one card at a time from the leader in turn order."""

    deck: tuple[str, ...]


CODEC = ActionCodec(Play, Pass, Give, Deal)
