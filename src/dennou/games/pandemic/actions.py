"""Pandemic Game actions (JSON tag = text form's first word).

Players: ``contact 3``, ``check``, ``cure``, ``idle`` (one sealed action per tick). Chance (the
host): ``infect 2 7`` (who starts infected), ``tiebreak 4 9`` (who wins the draw at the cut).
"""

from __future__ import annotations

from dennou.core.actions import Action, ActionCodec


class Contact(Action, frozen=True, tag="contact"):
    """Ask to touch watches with ``player`` (a seat); it happens only if they ask for you too."""

    player: int


class Check(Action, frozen=True, tag="check"):
    """Go to a check room: learn one's own status and vaccines (after this tick's contacts)."""


class Cure(Action, frozen=True, tag="cure"):
    """Press the watch's switch: if infected with a vaccine, spend one and become normal."""


class Idle(Action, frozen=True, tag="idle"):
    """Do nothing this tick (also the default on a timeout)."""


class Infect(Action, frozen=True, tag="infect"):
    """Chance: the players who start infected (sorted seats)."""

    seats: tuple[int, ...]


class Tiebreak(Action, frozen=True, tag="tiebreak"):
    """Chance: the tied players at the qualification cut who win the draw (sorted seats)."""

    seats: tuple[int, ...]


PLAYER_ACTIONS = (Contact, Check, Cure, Idle)

CODEC = ActionCodec(Contact, Check, Cure, Idle, Infect, Tiebreak)
