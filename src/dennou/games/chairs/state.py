"""Musical Chairs game state: immutable; every transition builds a new one with ``replace``.

The state holds everything, sealed submissions included; ``views`` decides who sees what. Past
ballots are not kept (the vote is anonymous: only totals survive), and past order lists survive
only as the chairs each runner was seen to visit.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec

from dennou.core.actions import Action
from dennou.core.game import TalkLine
from dennou.core.immutable import Log
from dennou.games.chairs.actions import Order
from dennou.games.chairs.rules import ChairsRules

Phase = Literal["map", "free", "go", "race", "vote", "tiebreak", "remove", "over"]


class GiftNote(msgspec.Struct, frozen=True):
    """A medal gift: ``giver`` gave ``count`` medals bearing ``name``'s name to ``to``."""

    period: int
    giver: int
    to: int
    name: int
    count: int


class BlockNote(msgspec.Struct, frozen=True, omit_defaults=True):
    """A block seen in a race: ``by`` stood on ``chair`` or got in ``player``'s way."""

    by: int
    chair: int | None = None
    player: int | None = None


class Leg(msgspec.Struct, frozen=True):
    """One chair a runner reached: ``result`` is ``seated``, ``taken`` or ``blocked``."""

    chair: int
    time: float
    result: str


class Run(msgspec.Struct, frozen=True):
    """One player's race: start time (jitter + blocks), the chairs reached, the seat won."""

    seat: int
    start: float
    blockers: int
    legs: tuple[Leg, ...]
    chair: int | None

    @property
    def time(self) -> float | None:
        """When the runner sat down (``None``: not seated)."""
        return self.legs[-1].time if self.chair is not None else None


class PeriodLog(msgspec.Struct, frozen=True, omit_defaults=False):
    """What everyone saw of one period (filled in as the period goes on).

    Attributes:
        period: The period's number (1 first).
        chairs: Chairs in play during its race.
        blocks: The blocks made in the go.
        race: Each runner's race, in seat order.
        eliminated: Players who failed to sit (they became gaya).
        votes: Votes per seat (only players can get any), once the vote is in.
        abstained: People who cast no vote.
        tied: The players tied for most votes (the draw was among them) if more than one.
        parent: The parent chosen.
        removed: The chair the parent removed.
    """

    period: int
    chairs: tuple[int, ...]
    blocks: tuple[BlockNote, ...] = ()
    race: tuple[Run, ...] = ()
    eliminated: tuple[int, ...] = ()
    votes: tuple[int, ...] | None = None
    abstained: int = 0
    tied: tuple[int, ...] = ()
    parent: int | None = None
    removed: int | None = None


@dataclass(frozen=True)
class ChairsState:
    """Everything about a Musical Chairs game.

    Attributes:
        rules: The rules options.
        players: Names by seat (every person at the table: players and gaya).
        phase: What is due now.
        period: The current period (0 before the map is drawn).
        positions: Chair ``k``'s spot is ``positions[k - 1]`` (metres from the totem).
        in_play: Chairs not yet removed.
        playing: Per seat, whether that person is still a player (else gaya).
        last_chair: Per seat, the chair sat on in the previous period (not allowed again).
        holdings: ``holdings[p][q]``: medals bearing ``q``'s name that ``p`` holds.
        gifts: Every gift made, in order.
        gifts_made: Gifts each person made in the current free phase.
        ready: People who ended the current free phase.
        orders: Sealed order lists of the current go (``None``: not submitted yet).
        blocks: Sealed blocks of the current go (``None``: not submitted yet).
        votes: Sealed ballots of the current vote (``None``: not cast yet).
        history: The public record of every period so far.
        winner: The winner, once over (``None``: nobody won).
        end: Why the game ended (``last_player``, ``no_players``, ``no_chairs``, ``periods``).
        talk: Every line said.
    """

    rules: ChairsRules
    players: tuple[str, ...]
    phase: Phase
    period: int
    positions: tuple[tuple[int, int], ...]
    in_play: frozenset[int]
    playing: tuple[bool, ...]
    last_chair: tuple[int | None, ...]
    holdings: tuple[tuple[int, ...], ...]
    gifts: tuple[GiftNote, ...]
    gifts_made: tuple[int, ...]
    ready: frozenset[int]
    orders: tuple[Order | None, ...]
    blocks: tuple[Action | None, ...]
    votes: tuple[Action | None, ...]
    history: tuple[PeriodLog, ...]
    winner: int | None = None
    end: str | None = None
    talk: Log[TalkLine] = field(default_factory=Log)

    def __deepcopy__(self, memo: dict[int, Any]) -> ChairsState:
        # Every field is immutable (tuples, frozensets, frozen structs), so a shallow copy is a
        # deep copy; copying the nested structs one by one made the harness 20x slower.
        return copy.copy(self)

    @property
    def n(self) -> int:
        """Number of people."""
        return len(self.players)

    def remaining(self) -> list[int]:
        """Seats still players, in seat order."""
        return [s for s in range(self.n) if self.playing[s]]

    def allowed_chairs(self, seat: int) -> list[int]:
        """Chairs ``seat`` may put on an order list: in play, not last period's chair."""
        last = self.last_chair[seat]
        return sorted(c for c in self.in_play if c != last)
