"""Who sits where: one rule for ``dennou match`` and ``dennou play``.

A game is seated from the bots named on the command line (and, for ``play``, the person at the
terminal). Without ``--players`` the table has the game's own default size for its rules (what
its rules page describes, e.g. 12 for the Pandemic Game), or more if more are named. Seats the
named bots do not fill are filled from the same bots in turn (``belief,random`` on 12 seats:
belief, random, belief, random, ...). In a team game, as many bots as teams fill a team each
(``planner,random`` at Smuggling: North all ``planner``, South all ``random``). More bots than
seats are refused. A bot's player name is ``<bot>#<seat>``, so ``#N`` always says the seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dennou.core.errors import ConfigError
from dennou.core.game import Game


@dataclass(frozen=True)
class Seating:
    """The seats of one game.

    Attributes:
        specs: The bot spec at each seat; ``None`` at the person's seat.
        names: The player name at each seat (``<bot>#<seat>`` for bots).
        filled: How many seats were filled by repeating the named bots.
        by_team: Whether each bot named filled a team's seats (a team game).
    """

    specs: tuple[str | None, ...]
    names: tuple[str, ...]
    filled: int
    by_team: bool = False

    def describe(self) -> str:
        """One line: who sits at each seat."""
        return "seats: " + ", ".join(f"{i} {name}" for i, name in enumerate(self.names))


def split_specs(text: str) -> list[str]:
    """The bot specs of a comma-separated list (``solver,montecarlo:ms=200``)."""
    return [s.strip() for s in text.split(",") if s.strip()]


def bot_name(spec: str, seat: int) -> str:
    """A bot's player name: its name without options, then ``#`` and its seat.

    A class's name stands for ``package.module:Class``, a program's file name for ``cmd:...``.
    """
    module, _, rest = spec.strip().partition(":")
    if module == "cmd":
        words = rest.split()
        name = words[0].rsplit("/", 1)[-1] if words else "cmd"
    elif "." in module and rest.isidentifier():
        name = rest
    else:
        name = module
    return f"{name}#{seat}"


def seat_players(
    game: Game[Any, Any],
    rules: Any,
    bots: Sequence[str],
    players: int | None = None,
    *,
    person: int | None = None,
    person_name: str = "human",
) -> Seating:
    """Seat the named bots (and a person at seat ``person``) at a table of ``players`` seats.

    Args:
        game: The game.
        rules: Its rules (the default size may depend on them).
        bots: Bot specs in the order named.
        players: Seats at the table (``None``: the game's default for these rules, or as many as
            are named if that is more).
        person: The person's seat, if a person plays.
        person_name: The person's player name.

    Raises:
        ConfigError: No bot named, more bots than seats, a seat count the game does not take,
            or the person's seat is not at the table.
    """
    if not bots:
        raise ConfigError("name at least one bot (e.g. --bots random,random or --vs random)")
    people = 0 if person is None else 1
    who = _bots(len(bots)) + (" and you" if people else "")
    most = game.spec.max_players
    if players is None and len(bots) + people > most:
        raise ConfigError(
            f"{who} for {game.spec.name}, which seats at most {most}: "
            f"name at most {_bots(most - people)}"
        )
    total = players if players is not None else max(len(bots) + people, _default(game, rules))
    game.check_players([f"p{i}" for i in range(total)])
    if len(bots) + people > total:
        raise ConfigError(
            f"{who} for {total} seats: name at most {_bots(total - people)}, or more --players"
        )
    if person is not None and not 0 <= person < total:
        raise ConfigError(f"--seat must be 0-{total - 1} for {total} players")
    specs: list[str | None] = []
    teams = game.team_seats(rules, total)
    if teams is not None and person is None and len(bots) == len(teams):
        team_of = {seat: t for t, seats in enumerate(teams) for seat in seats}
        lineup = [bots[team_of[seat]] for seat in range(total)]
        names = tuple(bot_name(s, i) for i, s in enumerate(lineup))
        return Seating(tuple(lineup), names, total - len(bots), by_team=True)
    turn = 0
    for seat in range(total):
        if seat == person:
            specs.append(None)
        else:
            specs.append(bots[turn % len(bots)])
            turn += 1
    names = tuple(person_name if s is None else bot_name(s, i) for i, s in enumerate(specs))
    return Seating(tuple(specs), names, total - people - len(bots))


def _default(game: Game[Any, Any], rules: Any) -> int:
    spec = game.spec
    return min(max(game.default_players(rules), spec.min_players), spec.max_players)


def _bots(n: int) -> str:
    return f"{n} bot" if n == 1 else f"{n} bots"
