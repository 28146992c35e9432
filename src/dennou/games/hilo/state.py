"""Star Hi-Lo series state: immutable; every transition builds a new one with ``replace``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

import msgspec

from dennou.core.game import Event
from dennou.games.hilo.rules import HiloRules
from dennou.games.hilo.standings import Standing, full_standings

Phase = Literal["target", "turn", "draw", "pick", "over"]
"""``target``: the host draws a game's target; ``turn``: a player acts; ``draw``: the host draws X
for a random guess or random check; ``pick``: the player says High or Low to the drawn X;
``over``: the series has ended."""

Pending = Literal["random_guess", "random_check"]

End = Literal["check", "random_check", "everyone_loses", "max_rounds"]


class GameSummary(msgspec.Struct, frozen=True):
    """A finished game of the series (public once it is over).

    Attributes:
        game: Its number in the series (1 first).
        first: The seat that played first.
        target: The target, revealed.
        end: ``check``, ``random_check``, ``everyone_loses`` or ``max_rounds``.
        winner: The seat that won stars, if any.
        stars: Stars won (0 if none).
        points: Each seat's points at the end, archived into the accounts.
        turns: Turns played.
    """

    game: int
    first: int
    target: int
    end: End
    winner: int | None
    stars: int
    points: tuple[int, ...]
    turns: int


@dataclass(frozen=True)
class HiloState:
    """Everything about a series; views decide who sees what.

    Attributes:
        rules: The rules options.
        players: Player names by seat.
        phase: What is due now.
        game_no: The current game's number (1 first).
        first: The seat that plays first in the current game.
        turn: The seat whose turn it is (also during its random draw and pick).
        turns: Turns completed in the current game.
        target: The current game's target (``None`` before the draw and between games).
        points: Each seat's points in the current game.
        accounts: Each seat's account (口座): archived points of finished games.
        stars: Each seat's game stars (stars won by checks).
        pending: The random action waiting for the host's X (or for the pick).
        x: The X the host drew for a pending random guess.
        log: The current game's events, each with its audience (secret results: the actor).
        history: The finished games.
    """

    rules: HiloRules
    players: tuple[str, ...]
    phase: Phase
    points: tuple[int, ...]
    accounts: tuple[int, ...]
    stars: tuple[int, ...]
    game_no: int = 1
    first: int = 0
    turn: int = 0
    turns: int = 0
    target: int | None = None
    pending: Pending | None = None
    x: int | None = None
    log: tuple[Event, ...] = ()
    history: tuple[GameSummary, ...] = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> HiloState:
        """A deep copy, made fast: everything is immutable but the events' data, which is JSON.

        (The conformance harness snapshots the state at every step.)
        """
        data = msgspec.json.decode(msgspec.json.encode([e.data for e in self.log]))
        log = tuple(
            Event(e.kind, e.text, d, e.audience) for e, d in zip(self.log, data, strict=True)
        )
        return replace(self, log=log)

    @property
    def n(self) -> int:
        """Number of players."""
        return len(self.players)

    @property
    def round(self) -> int:
        """The current round of the current game (1 first)."""
        return self.turns // self.n + 1

    def standings(self) -> list[Standing]:
        """The series' standings now (rules 5.1, :func:`~.standings.full_standings`)."""
        rows = list(zip(self.players, self.stars, self.accounts, strict=True))
        r = self.rules
        return full_standings(
            rows, stars_to_win=r.stars_to_win, half_star_points=r.half_star_points
        )
