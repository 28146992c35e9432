"""The lobby's policy: what a new table may be (seats, clock, seed), checked before it is stored.

- **Seats**: ``open`` (a remote player joins), ``me`` (the creator, WebSocket only) or
  ``bot:<spec>`` (a built-in bot; the spec is checked now).
- **Clock**: one way for every game. ``options.time_limit`` is the table's seconds per decision,
  within the host's bounds; the default is the game's clock. A game whose rules still carry a
  host clock (``GameSpec.host_clock``: the ``time_limit`` rules option) gets the table's clock
  written into its rules, so the record says which clock was played; setting it as
  a rules option is refused, never silently ignored. ``options.time_bank`` gives each seat
  seconds to spend beyond its decisions' clocks over the whole table (a game, a Daifugo set);
  the table's actor enforces it.
- **Seed**: deals come from fresh server randomness unless a seed is given by someone no player
  needs to trust: the host's operator, server-side code (tournaments: duplicate deals), or a
  client for a *practice* table where nobody but the creator sits (every other seat a built-in
  bot). A practice table admits only its creator.
"""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING, Any

from dennou.arena.bots import check_table_fits, resolve_bot
from dennou.core.errors import ConfigError
from dennou.core.game import HOST_CLOCK, Game
from dennou.core.jsondata import to_json
from dennou.server import protocol as p
from dennou.server.errors import Refused
from dennou.server.limits import Limits

if TYPE_CHECKING:
    from dennou.store import TableRow


def has_host_clock(game: Game[Any, Any]) -> bool:
    """Whether the game's rules carry the host's clock as a rules option (its spec says so)."""
    return game.spec.host_clock


def game_clock(game: Game[Any, Any], limits: Limits) -> float:
    """The game's clock: seconds per decision when a table sets none."""
    if has_host_clock(game):
        default = float(getattr(game.make_rules(), HOST_CLOCK))
        return min(max(default, limits.time_limit_min), limits.time_limit_max)
    return limits.time_limit_default


def new_table(
    game: Game[Any, Any],
    creator: str,
    rules: dict[str, Any],
    seats: list[str] | None,
    options: p.TableOptions,
    *,
    limits: Limits,
    operator: bool = False,
    seed: int | None = None,
) -> tuple[TableRow, int | None]:
    """The row of a new table (not stored yet) and the seat the creator takes (``me``), if any.

    Args:
        game: The game.
        creator: The account creating it.
        rules: Rules options as sent.
        seats: Seat specs as sent (default: every seat open, as many as the game's minimum).
        options: Table options as sent.
        limits: The host's limits (clock bounds).
        operator: Whether the creator is the host's operator (may seed any table).
        seed: A seed from server-side code (tournaments); never from a client.

    Raises:
        ConfigError: Impossible rules, seats or clock.
        Refused: ``forbidden``: a client seed where others may sit.
    """
    rules = dict(rules)
    clock = game_clock(game, limits) if options.time_limit is None else options.time_limit
    if has_host_clock(game) and HOST_CLOCK in rules and rules[HOST_CLOCK] != clock:
        # The rules option would be overridden by the table's clock: say so, never ignore it.
        raise ConfigError(
            f"{HOST_CLOCK} is the table's clock, the same for every game: set "
            f"options.{HOST_CLOCK} (seconds per decision), not a rules option"
        )
    if not limits.time_limit_min <= clock <= limits.time_limit_max:
        raise ConfigError(
            f"time_limit must be {limits.time_limit_min:g}-{limits.time_limit_max:g} seconds, "
            f"got {clock:g}"
        )
    bank = options.time_bank or 0.0
    if bank > limits.time_bank_max:
        raise ConfigError(f"time_bank must be 0-{limits.time_bank_max:g} seconds, got {bank:g}")
    grace = limits.absent_grace_default if options.absent_grace is None else options.absent_grace
    if not limits.absent_grace_min <= grace <= limits.absent_grace_max:
        raise ConfigError(
            f"absent_grace must be {limits.absent_grace_min:g}-{limits.absent_grace_max:g} "
            f"seconds, got {grace:g}"
        )
    if has_host_clock(game):
        rules[HOST_CLOCK] = clock
    made = game.make_rules(rules)
    seats = seats if seats is not None else ["open"] * game.spec.min_players
    lo, hi = game.spec.min_players, game.spec.max_players
    if not lo <= len(seats) <= hi:
        raise ConfigError(f"{game.spec.name} takes {lo}-{hi} seats, got {len(seats)}")
    specs: list[dict[str, Any]] = []
    mine = None
    for i, seat in enumerate(seats):
        if seat == "open":
            specs.append({"kind": "open"})
        elif seat == "me":
            if mine is not None:
                raise ConfigError("'me' may fill one seat only")
            mine = i
            specs.append({"kind": "open"})
        elif seat.startswith("bot:"):
            resolve_bot(game, seat[4:])  # refuses unknown bots and options now
            check_table_fits(game, seat[4:], made, len(seats))
            specs.append({"kind": "bot", "bot": seat[4:]})
        else:
            raise ConfigError(f"seat {i}: {seat!r}; a seat is 'open', 'me' or 'bot:<name>'")
    practice = False
    if seed is None and options.seed is not None:
        people = sum(1 for s in specs if s["kind"] != "bot")
        if not operator and people > 1:
            raise Refused(
                "forbidden",
                "a seed from a client is accepted only for a practice table (every seat but "
                "yours a built-in bot) or from the host's operator: a seed fixes every deal",
            )
        seed, practice = options.seed_value(), not operator
    if practice and options.rated:
        raise Refused(
            "forbidden", "a practice table's deals come from its creator's seed: it is not rated"
        )
    from dennou.store import TableRow  # here: `dennou games` reads the clock rule without the store

    row = TableRow(
        id="t" + secrets.token_hex(6),
        game=game.spec.name,
        version=game.spec.version,
        rules=to_json(made),
        seats=specs,
        options={
            "time_limit": clock,
            "time_bank": bank,
            "absent_grace": grace,
            "practice": practice,
            "rated": options.rated,
        },
        players=None,
        status="waiting",
        seed=seed,
        created_by=creator,
        created_at=time.time(),
    )
    return row, mine


__all__ = ["HOST_CLOCK", "game_clock", "has_host_clock", "new_table"]
