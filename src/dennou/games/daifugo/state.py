"""Daifugo state: a plain dataclass of immutable fields; the engine copies it before changing it.

One state is a whole set of games. Cards are integer codes (see :mod:`.cards`); hands are sorted
tuples.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from typing import Any, Literal, NamedTuple

from dennou.core.game import Event
from dennou.games.daifugo.rules import DaifugoRules

Phase = Literal["deal", "exchange", "play", "over"]


class Played(NamedTuple):
    """One play on the field (a named tuple: the engine makes one per play, so it is cheap).

    Attributes:
        seat: Who played it.
        cards: The cards (sorted codes).
        rank: Its rank index, ``JOKER_RANK`` for jokers only.
        returned: It is a spade-3 return (nothing beats it).
    """

    seat: int
    cards: tuple[int, ...]
    rank: int
    returned: bool = False


@dataclass(frozen=True)
class ExchangeStep:
    """One step of the exchange before a game.

    Attributes:
        giver: Who gives.
        receiver: Who receives.
        count: How many cards.
        kind: ``tribute`` (the strongest cards) or ``gift`` (any cards).
        cards: What was given, once done (empty if the giver cheated).
        cheated: The giver's submission broke the rules.
        done: The step has been made.
    """

    giver: int
    receiver: int
    count: int
    kind: Literal["tribute", "gift"]
    cards: tuple[int, ...] = ()
    cheated: bool = False
    done: bool = False


@dataclass(frozen=True)
class GameResult:
    """A finished (counted) game of the set.

    Attributes:
        number: 1-based number among counted games.
        finish: Honest seats in finishing order (the last one held cards at the end).
        cheaters: Seats that cheated in the exchange.
        titles: Each seat's title.
        points: Each seat's points in this game.
        last_hand: The cards the last player still held (shown at the end).
    """

    number: int
    finish: tuple[int, ...]
    cheaters: tuple[int, ...]
    titles: tuple[str, ...]
    points: tuple[int, ...]
    last_hand: tuple[int, ...] = ()


@dataclass(slots=True)
class DaifugoState:
    """Everything about a Daifugo set; views decide who sees what.

    Fields are immutable values; :meth:`copy` is a cheap shallow copy the engine then edits.

    Attributes:
        rules: The rules options.
        players: Player ids by seat.
        phase: ``deal`` (chance deals), ``exchange``, ``play`` or ``over``.
        game_no: 1-based number of the game being played (counted games so far + 1).
        deals: Deals made so far, void games included.
        order: Turn order of this game (seats; the first leads).
        hands: Each seat's hand (sorted codes).
        titles: Each seat's title from the last counted game (``None`` before game 1 ends).
        points: Each seat's points so far.
        steps: This game's exchange steps.
        cheaters: Seats that cheated in this game's exchange, in order.
        turn: The seat to play (``-1`` outside the play phase).
        plays: The plays on the field since the last flush (first = lead, last = top).
        discards: Every card that left play this game (flushed plays, cheaters' hands), sorted.
        passed: Seats that passed since the last flush.
        revolution: Whether the order is reversed.
        finished: Seats that went out this game, in order.
        results: Every counted game so far.
        void_games: Games voided because everybody cheated.
        log_chain: This game's events (each with its audience) as a chain of batches,
            ``(earlier_chain, batch)`` or ``()``: adding a move's events costs the same however
            long the game is. Read them with :attr:`log`.
    """

    rules: DaifugoRules
    players: tuple[str, ...]
    phase: Phase = "deal"
    game_no: int = 1
    deals: int = 0
    order: tuple[int, ...] = ()
    hands: tuple[tuple[int, ...], ...] = ()
    titles: tuple[str | None, ...] = ()
    points: tuple[int, ...] = ()
    steps: tuple[ExchangeStep, ...] = ()
    cheaters: tuple[int, ...] = ()
    turn: int = -1
    plays: tuple[Played, ...] = ()
    discards: tuple[int, ...] = ()
    passed: frozenset[int] = frozenset()
    revolution: bool = False
    finished: tuple[int, ...] = ()
    results: tuple[GameResult, ...] = ()
    void_games: int = 0
    log_chain: tuple[Any, ...] = ()

    @property
    def log(self) -> tuple[Event, ...]:
        """This game's events, oldest first."""
        batches = []
        chain = self.log_chain
        while chain:
            chain, batch = chain
            batches.append(batch)
        return tuple(e for batch in reversed(batches) for e in batch)

    def log_reversed(self) -> Iterator[Event]:
        """This game's events, newest first (a view needs only the latest few)."""
        chain = self.log_chain
        while chain:
            chain, batch = chain
            yield from reversed(batch)

    def copy(self) -> DaifugoState:
        """A shallow copy (every field is immutable, so edits never reach the original)."""
        return _copy(self)

    def __deepcopy__(self, memo: dict[int, object]) -> DaifugoState:
        # Every field holds immutable values (tuples, frozen structs, events never edited), so a
        # shallow copy is already a deep one; this keeps snapshots in tests and search cheap.
        return self.copy()

    @property
    def top(self) -> Played | None:
        """The top play of the field (``layout`` in the seed's host), if any."""
        return self.plays[-1] if self.plays else None

    def active(self, seat: int) -> bool:
        """Whether ``seat`` still holds cards in this game (neither out nor a cheater)."""
        return bool(self.hands[seat])

    def exchange_step(self) -> ExchangeStep | None:
        """The exchange step due now, if any."""
        for step in self.steps:
            if not step.done:
                return step
        return None


def _make_copy() -> Callable[[DaifugoState], DaifugoState]:
    # Slot by slot, generated once: the engine copies the state on every move.
    names = [f.name for f in fields(DaifugoState)]
    body = "\n".join(f"    new.{n} = old.{n}" for n in names)
    code = f"def copy(old):\n    new = new_state(DaifugoState)\n{body}\n    return new\n"
    scope: dict[str, Any] = {"new_state": object.__new__, "DaifugoState": DaifugoState}
    exec(code, scope)
    copy: Callable[[DaifugoState], DaifugoState] = scope["copy"]
    return copy


_copy = _make_copy()
