"""What every part of a game speaks in: seats, JSON data and events said to an audience.

The lowest part of the game contract (:mod:`dennou.core.game` builds on it, and so do the
views of :mod:`dennou.core.views`); :mod:`dennou.core.game` gives the same names.
"""

from __future__ import annotations

from typing import Any

import msgspec

Seat = int
"""A seat is an index into the players of a game: 0 .. n-1."""

JSON = dict[str, Any]
"""A JSON object as Python data."""


class Event(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """Something that happened, said to an audience.

    Attributes:
        kind: A short machine name (``call``, ``judge``, ``item``, ``deal``...).
        text: One English sentence for people (terminal, logs).
        data: JSON-able details.
        audience: The seats that may see it; ``None`` means everyone, spectators included.

    Events are not tracked by the cyclic garbage collector (``gc=False``): they never form
    reference cycles, and engines create millions of them in simulations.
    """

    kind: str
    text: str
    data: dict[str, Any] = {}
    audience: frozenset[int] | None = None

    def visible_to(self, seat: Seat | None) -> bool:
        """Whether ``seat`` (``None``: a spectator) may see this event."""
        return self.audience is None or (seat is not None and seat in self.audience)
