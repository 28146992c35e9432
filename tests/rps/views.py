"""Rock-paper-scissors' views: everything but the other seat's sealed throw."""

from __future__ import annotations

import random

import msgspec

from dennou.core.game import JSON, Seat, TalkLine
from dennou.core.jsondata import to_json
from dennou.core.talk import recent
from dennou.core.views import Views
from tests.rps.actions import HANDS
from tests.rps.rules import RpsRules
from tests.rps.state import RpsState


class RpsViews(Views[RpsState]):
    """Views, determinization and terminal text."""

    def view(self, state: RpsState, seat: Seat | None) -> JSON:
        """The header, the rounds so far, who has thrown, and the seat's own sealed throw."""
        return {
            **self.header(state, seat),
            "history": [list(h) for h in state.history],
            "wins": list(state.wins),
            "thrown": [h is not None for h in state.sealed],
            "mine": state.sealed[seat] if seat is not None else None,
            "talk": [to_json(line) for line in recent(state.talk)],
        }

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> RpsState:
        """The state, the other seat's sealed throw drawn at random."""
        sealed = [
            (view["mine"] if s == seat else rng.choice(HANDS)) if thrown else None
            for s, thrown in enumerate(view["thrown"])
        ]
        return RpsState(
            rules=msgspec.convert(view["rules"], RpsRules),
            players=(view["players"][0], view["players"][1]),
            phase=view["phase"],
            sealed=(sealed[0], sealed[1]),
            history=tuple((a, b) for a, b in view["history"]),
            wins=(view["wins"][0], view["wins"][1]),
            talk=tuple(msgspec.convert(line, TalkLine) for line in view["talk"]),
        )

    def render(self, view: JSON) -> str:
        """One line: the score and the rounds."""
        rounds = ", ".join(f"{a}/{b}" for a, b in view["history"]) or "no round yet"
        return f"{view['wins'][0]}-{view['wins'][1]} ({rounds})"
