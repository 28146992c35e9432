"""Daifugo actions (JSON tag = the text form's first word).

Cards are wire strings (``"8s"``, ``"10h"``, ``"JK"``; a joker standing for a square is
``"JK=6s"``; see :mod:`.cards`): ``play 8s 8h``, ``play 5s JK=6s 7s``, ``pass``, ``give 3c 4d``
(the exchange, and 7渡し), ``discard 4c`` (10捨て), and the host's chance actions: ``deal``
with the whole deck in dealing order and ``places`` (千日手: the remaining places drawn).
"""

from __future__ import annotations

from dennou.core.actions import Action, ActionCodec
from dennou.core.errors import InvalidActionError
from dennou.games.daifugo.cards import parse_card


class Play(Action, frozen=True, tag="play"):
    """Play a group or a sequence: ``play 8s 8h``, ``play JK``, ``play 5s JK=6s 7s``."""

    cards: tuple[str, ...]


class Pass(Action, frozen=True, tag="pass"):
    """Pass: no more plays until the field flushes."""


class Give(Action, frozen=True, tag="give"):
    """Give cards: to the partner of the exchange step, or to the next player (7渡し)."""

    cards: tuple[str, ...]


class Discard(Action, frozen=True, tag="discard"):
    """Discard cards after playing 10s (10捨て): ``discard 4c 5d``."""

    cards: tuple[str, ...]


class Deal(Action, frozen=True, tag="deal"):
    """Chance: the shuffled deck, dealt one card at a time from the first in turn order."""

    deck: tuple[str, ...]


class Places(Action, frozen=True, tag="places"):
    """Chance (千日手): the seats still holding cards, in the order they are placed."""

    seats: tuple[int, ...]


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


CODEC = ActionCodec(Play, Pass, Give, Discard, Deal, Places, check=check_cards)
