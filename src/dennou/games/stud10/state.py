"""10-card stud game state: immutable; every transition builds a new one."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal, NamedTuple

from dennou.core.game import Event
from dennou.core.immutable import Log
from dennou.games.stud10.eval import CARD_BIT, score_mask
from dennou.games.stud10.rules import Stud10Rules

Phase = Literal["deal", "reveal", "over"]


_BITS = [int(b) for b in CARD_BIT]


def mask_of(cards: tuple[int, ...]) -> int:
    """The hand mask of card codes."""
    h = 0
    for c in cards:
        h |= _BITS[c]
    return h


# Views, legal actions and apply all ask for the same few strengths: keep them.
@lru_cache(maxsize=1 << 16)
def strength(cards: tuple[int, ...]) -> int:
    """The score of the best five of ``cards`` (5 to 10 card codes)."""
    return int(score_mask(mask_of(cards)))


class Position(NamedTuple):
    """What the odds of a hand depend on: who is in it and what they show.

    Attributes:
        in_hand: The seats in the hand.
        masks: Their face-up cards, as hand masks.
        holes: How many hole cards each still has down.
    """

    in_hand: tuple[int, ...]
    masks: tuple[int, ...]
    holes: tuple[int, ...]


@dataclass(frozen=True)
class Stud10State:
    """Everything about a session; views decide who sees what.

    The dead cards of a hand are not kept: nobody ever sees them and no rule uses them.

    Attributes:
        rules: The rules options.
        players: Player names by seat.
        phase: ``deal`` (chance deals the next hand), ``reveal`` (chance turns up the weakest
            players' hole cards) or ``over``.
        hand: Hands dealt so far (the current or last hand's number).
        stacks: Chips in front of each seat (antes already paid into ``pot``).
        pot: Chips in the pot of the current hand.
        in_hand: Seats dealt into the current (or last) hand, in seat order.
        up: Per seat, its face-up cards: five door cards, then hole cards in the order revealed.
        hole: Per seat, its hole cards still face down (in the order dealt).
        reveals: Reveal steps so far in this hand.
        log: Everything that happened (every event is public).
    """

    rules: Stud10Rules
    players: tuple[str, ...]
    phase: Phase = "deal"
    hand: int = 0
    stacks: tuple[int, ...] = ()
    pot: int = 0
    in_hand: tuple[int, ...] = ()
    up: tuple[tuple[int, ...], ...] = ()
    hole: tuple[tuple[int, ...], ...] = ()
    reveals: int = 0
    log: Log[Event] = field(default_factory=Log)

    def current(self, seat: int) -> int:
        """``seat``'s current strength (its best five face-up cards)."""
        return strength(self.up[seat])

    def position(self) -> Position:
        """The position of the hand on the table (what its odds depend on)."""
        return Position(
            self.in_hand,
            tuple(mask_of(self.up[s]) for s in self.in_hand),
            tuple(len(self.hole[s]) for s in self.in_hand),
        )

    def revealing(self) -> tuple[int, ...]:
        """The seats that reveal next: the weakest among those with hole cards (ties: all)."""
        if self.phase != "reveal":
            return ()
        live = [s for s in self.in_hand if self.hole[s]]
        if not live:
            return ()
        scores = {s: self.current(s) for s in live}
        low = min(scores.values())
        return tuple(s for s in live if scores[s] == low)
