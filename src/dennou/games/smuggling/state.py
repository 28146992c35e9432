"""Smuggling Game state: immutable; every transition builds a new one with ``replace``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import msgspec

from dennou.core.immutable import Log
from dennou.games.smuggling.rules import TEAMS, SmugglingRules

Phase = Literal["nominate", "trunk", "room", "over"]


class Votes(msgspec.Struct, frozen=True):
    """One small game's nomination tallies, per team: ``((seat, votes), ...)`` by seat."""

    north: tuple[tuple[int, int], ...]
    south: tuple[tuple[int, int], ...]

    def of(self, team: str) -> tuple[tuple[int, int], ...]:
        """The tally of ``team``."""
        return self.north if team == TEAMS[0] else self.south


class Totals(msgspec.Struct, frozen=True):
    """Per team, the sum of its members' third-country balances."""

    north: int
    south: int


class Result(msgspec.Struct, frozen=True):
    """The public record of one finished small game.

    Attributes:
        game: Small game number (1-based).
        smuggling: The smuggling team (``north``/``south``).
        smuggler: The smuggler's seat.
        inspector: The inspector's seat.
        votes: The nomination tallies (``None`` with the rotation).
        amount: What the trunk held (the withdrawal from the smuggler's home account).
        verdict: ``pass`` or ``doubt``.
        doubt: The doubted amount X (0 for a pass).
        case: ``pass``, ``empty`` (doubt on an empty trunk), ``caught`` (0 < s <= X) or
            ``through`` (X < s).
        compensation: X/2 rounded down to the unit, when paid (``empty``, ``through``), else 0.
        to_smuggler: What the smuggler's third-country account received.
        to_inspector: What the inspector's third-country account received (negative: paid).
    """

    game: int
    smuggling: str
    smuggler: int
    inspector: int
    votes: Votes | None
    amount: int
    verdict: str
    doubt: int
    case: str
    compensation: int
    to_smuggler: int
    to_inspector: int


class TalkEntry(msgspec.Struct, frozen=True):
    """One line of talk with who may read it.

    Attributes:
        game: The small game during which it was said.
        speaker: The speaker's seat.
        name: The speaker's name.
        channel: ``room``, ``team:north``, ``team:south`` or ``public``.
        text: What was said.
        audience: Seats that may read it (``None``: everyone, spectators included).
    """

    game: int
    speaker: int | None
    name: str
    channel: str
    text: str
    audience: tuple[int, ...] | None = None


class Ending(msgspec.Struct, frozen=True):
    """How the game ended.

    Attributes:
        totals: Per team, the sum of its members' third-country balances before the transfer.
        winner: The winning team, or ``None`` for a draw.
        prizes: Per seat, the leftover prize received from the other team's home accounts.
        final: Per seat, third-country balance + prize - loan (negative: a debt).
    """

    totals: Totals
    winner: str | None
    prizes: tuple[int, ...]
    final: tuple[int, ...]


@dataclass(frozen=True)
class SmugglingState:
    """Everything about a Smuggling Game; views decide who sees what.

    Deeply immutable (ints, strings, tuples and frozen structs of those), so a deep copy is the
    state itself; events are returned by transitions, not kept (the results are the record).

    Attributes:
        rules: The rules options.
        players: Player names by seat (North ``0..n-1``, South ``n..2n-1``).
        game: The current small game (1-based; ``small_games`` at the end).
        phase: What is due now.
        home: Per seat, the home (opposing-country) account.
        third: Per seat, the third-country account.
        represented: Per seat, how many times they have been a representative (either role).
        nominations: Per seat, the pending sealed nomination (``None``: not yet).
        smuggler: This small game's smuggler (``None`` while nominating).
        inspector: This small game's inspector.
        trunk: The sealed trunk amount (``None`` until packed).
        ready: Whether the smuggler has finished talking.
        verdict: The inspector's sealed verdict: ``None`` none yet, 0 pass, X > 0 doubt X.
        votes: This small game's public nomination tallies (``None`` before or with rotation).
        results: Every finished small game, in order.
        team_nominations: Per finished nomination, ``(game, team, nominations by member)``.
        talk: Every line of talk.
        room_lines: Per seat, lines said in this small game's inspection room.
        ending: Set when the game is over.
    """

    rules: SmugglingRules
    players: tuple[str, ...]
    game: int = 1
    phase: Phase = "nominate"
    home: tuple[int, ...] = ()
    third: tuple[int, ...] = ()
    represented: tuple[int, ...] = ()
    nominations: tuple[int | None, ...] = ()
    smuggler: int | None = None
    inspector: int | None = None
    trunk: int | None = None
    ready: bool = False
    verdict: int | None = None
    votes: Votes | None = None
    results: tuple[Result, ...] = ()
    team_nominations: tuple[tuple[int, str, tuple[int, ...]], ...] = ()
    talk: Log[TalkEntry] = field(default_factory=Log)
    room_lines: tuple[int, ...] = ()
    ending: Ending | None = None

    def __deepcopy__(self, memo: dict[int, object]) -> SmugglingState:
        return self

    @property
    def n(self) -> int:
        """Players per team."""
        return self.rules.team_size

    @property
    def smuggling_team(self) -> str:
        """The team that smuggles in the current small game (North in odd games)."""
        return TEAMS[0] if self.game % 2 == 1 else TEAMS[1]

    @property
    def inspecting_team(self) -> str:
        """The team that inspects in the current small game."""
        return TEAMS[1] if self.game % 2 == 1 else TEAMS[0]

    def team_of(self, seat: int) -> str:
        """``north`` or ``south``."""
        return TEAMS[0] if seat < self.n else TEAMS[1]

    def members(self, team: str) -> range:
        """The seats of a team."""
        return range(0, self.n) if team == TEAMS[0] else range(self.n, 2 * self.n)

    def room_said(self, seat: int) -> int:
        """Lines ``seat`` has said in this small game's inspection room."""
        return self.room_lines[seat] if self.room_lines else 0
