"""Daifugo state: one whole set of games, as a slotted object of immutable values.

Hands and discards are card sets (int masks, see :mod:`.cards`); plays on the field are
:class:`Played` entries holding a :class:`~.cards.Combo`. The engine copies a state
(:meth:`DaifugoState.copy`) and edits the copy; it never edits a state it was given.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields
from typing import Any, Literal, NamedTuple

from dennou.core.game import Event
from dennou.games.daifugo.cards import Combo, cards_in
from dennou.games.daifugo.rules import DaifugoRules

Phase = Literal["deal", "exchange", "play", "stalemate", "over"]


class Played(NamedTuple):
    """One play on the field.

    Attributes:
        seat: Who played it.
        combo: What was played.
        returned: It is a spade-3 return (nothing beats it).
    """

    seat: int
    combo: Combo
    returned: bool = False


@dataclass(frozen=True)
class FollowUp:
    """A decision owed by the player who just played (7渡し or 10捨て) before the turn goes on.

    Attributes:
        kind: ``give`` (7 pass: to ``to``) or ``discard`` (10 discard).
        count: How many cards (one per 7 or 10 played, at most the cards held).
        to: Who receives (``give``), ``-1`` for a discard.
    """

    kind: Literal["give", "discard"]
    count: int
    to: int = -1


@dataclass(frozen=True)
class ExchangeStep:
    """One step of the exchange before a game.

    Attributes:
        giver: Who gives.
        receiver: Who receives.
        count: How many cards.
        kind: ``tribute`` (the strongest cards) or ``gift`` (any cards).
        cards: What was given, once done (codes; empty if the giver cheated).
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
        last_hand: The cards the last player still held (codes, shown at the end).
    """

    number: int
    finish: tuple[int, ...]
    cheaters: tuple[int, ...]
    titles: tuple[str, ...]
    points: tuple[int, ...]
    last_hand: tuple[int, ...] = ()


@dataclass(slots=True, eq=False)
class DaifugoState:
    """Everything about a Daifugo set; views decide who sees what.

    Attributes:
        rules: The rules options.
        players: Player ids by seat.
        phase: ``deal`` (chance deals), ``exchange``, ``play``, ``stalemate`` (千日手: chance
            draws the remaining places) or ``over``.
        game_no: 1-based number of the game being played (counted games so far + 1).
        deals: Deals made so far, void games included.
        order: Turn order of this game (seats; the first is dealt first and, unless the ♦3
            leads, leads).
        hands: Each seat's hand (a card set).
        titles: Each seat's title from the last counted game (``None`` before game 1 ends).
        points: Each seat's points so far.
        steps: This game's exchange steps.
        cheaters: Seats that cheated in this game's exchange, in order.
        turn: The seat to play (``-1`` outside the play phase).
        field: The plays on the field since the last flush (first = lead, last = top).
        discards: Every card that left play this game (flushed plays, cheaters' hands).
        passed: Seats that passed since the last flush.
        last: The seat of the top play, or on an empty field the seat given the lead: who leads
            when everybody has passed (``-1`` outside the play phase).
        revolution: Whether a revolution reversed the order.
        back: Whether 11-back reverses the order (until the field flushes).
        lock: The suits locked by 縛り (a 4-bit suit set; 0: none).
        pass_run: Passes in a row since the last play (千日手 counts them).
        follow_up: The 7渡し or 10捨て decision the seat to play owes, if any.
        finished: Seats that went out this game, in order.
        fallen: The 大富豪 who fell to 大貧民 this game (都落ち), or ``-1``.
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
    hands: tuple[int, ...] = ()
    titles: tuple[str | None, ...] = ()
    points: tuple[int, ...] = ()
    steps: tuple[ExchangeStep, ...] = ()
    cheaters: tuple[int, ...] = ()
    turn: int = -1
    field: tuple[Played, ...] = ()
    discards: int = 0
    passed: frozenset[int] = frozenset()
    last: int = -1
    revolution: bool = False
    back: bool = False
    lock: int = 0
    pass_run: int = 0
    follow_up: FollowUp | None = None
    finished: tuple[int, ...] = ()
    fallen: int = -1
    results: tuple[GameResult, ...] = ()
    void_games: int = 0
    log_chain: tuple[Any, ...] = ()

    def copy(self) -> DaifugoState:
        """A copy to edit: every field holds an immutable value, so field by field is enough."""
        new = object.__new__(DaifugoState)
        new.rules = self.rules
        new.players = self.players
        new.phase = self.phase
        new.game_no = self.game_no
        new.deals = self.deals
        new.order = self.order
        new.hands = self.hands
        new.titles = self.titles
        new.points = self.points
        new.steps = self.steps
        new.cheaters = self.cheaters
        new.turn = self.turn
        new.field = self.field
        new.discards = self.discards
        new.passed = self.passed
        new.last = self.last
        new.revolution = self.revolution
        new.back = self.back
        new.lock = self.lock
        new.pass_run = self.pass_run
        new.follow_up = self.follow_up
        new.finished = self.finished
        new.fallen = self.fallen
        new.results = self.results
        new.void_games = self.void_games
        new.log_chain = self.log_chain
        return new

    def __eq__(self, other: object) -> bool:
        # Field by field, whatever holds them (the fast layer's kernel-held states included).
        if not isinstance(other, DaifugoState):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in STATE_FIELDS)

    __hash__ = None  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, object]) -> DaifugoState:
        # Every field holds immutable values (tuples, frozen structs, events never edited), so a
        # shallow copy is already a deep one; this keeps snapshots in tests and search cheap.
        return self.copy()

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

    @property
    def reverse(self) -> bool:
        """Whether the strength order is reversed now (a revolution, or 11-back, not both)."""
        return self.revolution != self.back

    @property
    def top(self) -> Played | None:
        """The top play of the field (``layout`` in the source's host), if any."""
        return self.field[-1] if self.field else None

    def active(self, seat: int) -> bool:
        """Whether ``seat`` still holds cards in this game (neither out nor a cheater)."""
        return self.hands[seat] != 0

    def hand(self, seat: int) -> tuple[int, ...]:
        """A seat's hand as card codes, weakest first."""
        return cards_in(self.hands[seat])

    def exchange_step(self) -> ExchangeStep | None:
        """The exchange step due now, if any."""
        for step in self.steps:
            if not step.done:
                return step
        return None


STATE_FIELDS = tuple(f.name for f in fields(DaifugoState))
"""Every field of the state (a test checks that :meth:`DaifugoState.copy` copies them all)."""
