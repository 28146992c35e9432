"""A game's presentation: the views each seat may see, determinization, and text for people.

Every game package has a ``views.py`` with one :class:`Views` subclass. The package's
``__init__.py`` hands the class to the engine (``GAME = Numeron(views=NumeronViews, bots=BOTS)``),
which builds it with itself, so views may ask the engine (who acts now) while the engine never
imports its views. :meth:`Views.header` is the part every view starts with.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

from dennou.core.actions import Action
from dennou.core.jsondata import to_json

if TYPE_CHECKING:
    from dennou.core.game import JSON, Game, Seat

S = TypeVar("S")


class CommonState(Protocol):
    """What :meth:`Views.header` reads from a state: the rules, the players and the phase."""

    @property
    def rules(self) -> Any:
        """The rules options."""

    @property
    def players(self) -> Sequence[str]:
        """Player names by seat."""

    @property
    def phase(self) -> str:
        """What is due now (``over`` at the end)."""


class Views(Generic[S]):
    """The presentation of one game (subclass it in the game's ``views.py``).

    Args:
        game: The engine these views present (views ask it who acts; it never imports them).
    """

    def __init__(self, game: Game[S, Any]) -> None:
        self.game = game

    def view(self, state: S, seat: Seat | None) -> JSON:
        """Exactly what ``seat`` (``None``: a spectator) may know now, as JSON-able data."""
        raise NotImplementedError(f"{self.game.spec.name} has no views")

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> S:
        """A full state consistent with ``view`` as ``seat`` sees it, hidden parts sampled."""
        raise NotImplementedError(f"{self.game.spec.name} does not implement determinize")

    def render(self, view: JSON) -> str:
        """A view as text for a terminal (games override this with something readable)."""
        return json.dumps(view, ensure_ascii=False, indent=1)

    def describe_legal(self, legal: Sequence[Action]) -> str:
        """A short text of the legal actions for a person (big spaces are summarised)."""
        if len(legal) <= 40:
            return "  ".join(f"[{i}] {a}" for i, a in enumerate(legal))
        return f"{len(legal)} actions, e.g. {legal[0]} ... {legal[len(legal) - 1]}"

    def header(self, state: S, seat: Seat | None) -> JSON:
        """What every view starts with: game, rules, players, seat, phase and who acts now.

        A client needs nothing else to make sense of a view (``docs/architecture.md``).
        """
        common = cast(CommonState, state)
        return {
            "game": self.game.spec.name,
            "rules": to_json(common.rules),
            "players": list(common.players),
            "seat": seat,
            "phase": common.phase,
            "to_act": sorted(self.game.to_act(state)),
        }
