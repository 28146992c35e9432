"""Daifugo actions (JSON tag = the text form's first word).

Cards are wire strings (``"8s"``, ``"10h"``, ``"JK"``; see :mod:`.cards`): ``play 8s 8h``,
``pass``, ``give 3c 4d``, and the host's ``deal`` with the 54 cards in dealing order.
"""

from __future__ import annotations

from dennou.core.actions import Action, ActionCodec
from dennou.core.errors import InvalidActionError
from dennou.games.daifugo.cards import parse_card


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


def check_cards(action: Action) -> None:
    """Refuse an action naming a card that does not exist (before any rule is asked).

    Raises:
        InvalidActionError: ``play 1z``: the input is not an action of this game, whatever the
            position (a card that exists but is not in the hand is a rule's refusal).
    """
    cards: tuple[str, ...] = getattr(action, "cards", None) or getattr(action, "deck", None) or ()
    unknown = [c for c in cards if parse_card(c) is None]
    if unknown:
        raise InvalidActionError(
            f"{', '.join(map(repr, unknown))} {'is' if len(unknown) == 1 else 'are'} not a card",
            section="Cards on the wire",
        )


CODEC = ActionCodec(Play, Pass, Give, Deal, check=check_cards)
