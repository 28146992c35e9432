"""Twenty's views: nothing is hidden, so every seat sees the state and determinize rebuilds it."""

from __future__ import annotations

import random

import msgspec

from dennou.core.game import JSON, Seat
from dennou.core.views import Views
from twenty.rules import TwentyRules
from twenty.state import TwentyState


class TwentyViews(Views[TwentyState]):
    """Twenty's views, determinization and terminal text."""

    def view(self, state: TwentyState, seat: Seat | None) -> JSON:
        """The common header, then the count."""
        return {
            **self.header(state, seat),
            "total": state.total,
            "turn": state.turn,
            "loser": state.loser,
        }

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> TwentyState:
        """The state itself: Twenty hides nothing."""
        return TwentyState(
            rules=msgspec.convert(view["rules"], TwentyRules),
            players=(view["players"][0], view["players"][1]),
            phase=view["phase"],
            total=view["total"],
            turn=view["turn"],
            loser=view["loser"],
        )

    def render(self, view: JSON) -> str:
        """One line: the count and who is to say the next numbers."""
        if view["phase"] == "over":
            return f"{view['players'][view['loser']]} said {view['total']} and lost"
        return f"count {view['total']}; {view['players'][view['turn']]} to say"
