"""Numeron game state: immutable; every transition builds a new one with ``replace``."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations
from typing import Literal

from dennou.core.game import Event, TalkLine
from dennou.core.immutable import Log
from dennou.games.numeron.rules import Item, NumeronRules

Phase = Literal["setup", "coin", "defence", "attack_item", "reveal", "call", "over"]

PLACES = {
    3: ("hundreds", "tens", "ones"),
    4: ("thousands", "hundreds", "tens", "ones"),
    5: ("ten-thousands", "thousands", "hundreds", "tens", "ones"),
}


def place(position: int, digits: int) -> str:
    """The name of a position (0 = leftmost): ``thousands``, ``ones``..."""
    return PLACES[digits][position]


def digit_class(digit: int) -> Literal["LOW", "HIGH"]:
    """LOW for 0-4, HIGH for 5-9 (the rules page's classes)."""
    return "HIGH" if digit >= 5 else "LOW"


_ALL: dict[int, tuple[str, ...]] = {}


def all_numbers(digits: int) -> tuple[str, ...]:
    """Every number of ``digits`` distinct digits, in increasing order (``"012"`` first)."""
    if digits not in _ALL:
        _ALL[digits] = tuple("".join(p) for p in permutations("0123456789", digits))
    return _ALL[digits]


def is_number(text: object, digits: int) -> bool:
    """Whether ``text`` is a number of ``digits`` distinct digits 0-9."""
    return (
        isinstance(text, str)
        and len(text) == digits
        and all("0" <= c <= "9" for c in text)
        and len(set(text)) == digits
    )


@dataclass(frozen=True)
class NumeronState:
    """Everything about a Numeron game; views decide who sees what.

    Attributes:
        rules: The rules options.
        players: Player names by seat.
        phase: What is due now.
        numbers: Each seat's current secret number (``None`` until set).
        histories: Each seat's numbers, first set first (defence items append).
        host_draw: Seats that timed out at setup; the host draws their number (chance).
        first: The seat that called first (``None`` before the coin flip).
        attacker: The seat whose turn it is.
        turn: Turns begun so far (1 for the first turn).
        items: Each seat's remaining items.
        calls_left: Calls the attacker still has this turn (2 after DOUBLE).
        lost_call: Whether the attacker lost a call to a timeout this turn.
        strikes: Turns in a row in which each seat lost a call.
        last_turn: The second caller's last turn (``equal_turns``) is under way.
        pending_winner: The first caller who hit, waiting for the last turn.
        winner: The winner, once over (``None`` with a draw).
        end: Why the game ended (``numeron``, ``draw``, ``forfeit``).
        log: Everything that happened, each event with its audience (a :class:`Log`: a step
            adds its events without copying the log, however long the game).
        talk: The room chat.
    """

    rules: NumeronRules
    players: tuple[str, str]
    phase: Phase = "setup"
    numbers: tuple[str | None, str | None] = (None, None)
    histories: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    host_draw: frozenset[int] = frozenset()
    first: int | None = None
    attacker: int = 0
    turn: int = 0
    items: tuple[tuple[Item, ...], tuple[Item, ...]] = ((), ())
    calls_left: int = 0
    lost_call: bool = False
    strikes: tuple[int, int] = (0, 0)
    last_turn: bool = False
    pending_winner: int | None = None
    winner: int | None = None
    end: str | None = None
    log: Log[Event] = field(default_factory=Log)
    talk: Log[TalkLine] = field(default_factory=Log)

    @property
    def defender(self) -> int:
        """The seat being attacked this turn."""
        return 1 - self.attacker
