"""10-card stud views (what each seat may know), determinization and the terminal rendering.

Hole cards are unknown to everyone, their owner included, and dead cards are never seen, so a
player's view and a spectator's are the same apart from ``seat``: the face-up cards, how many hole
cards each player has left, stacks, pot, the log, and (``view_odds``) every player's live odds.
The odds depend on the face-up cards only, and their Monte Carlo seed is derived from them, so a
view is a function of what it shows (determinization gives back the identical view).

Odds cost milliseconds (an exact enumeration or Monte Carlo in Numba), so nothing computes them
until a view asks (the engine never does): a view computes the odds of the position on the table
(cached per position: :func:`position_odds`). The log's events are converted once
(``dennou.core.views.EventLog``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import msgspec

from dennou.core.actions import Action
from dennou.core.game import JSON, Event, Seat
from dennou.core.immutable import Log
from dennou.core.rng import derive_seed
from dennou.core.views import Views
from dennou.games.stud10.cards import CODE as _CODE
from dennou.games.stud10.cards import DECK
from dennou.games.stud10.eval import describe
from dennou.games.stud10.odds import odds_masks
from dennou.games.stud10.rules import Stud10Rules
from dennou.games.stud10.state import Position, Stud10State, strength


@lru_cache(maxsize=4096)
def position_odds(position: Position, seats: int, samples: int, exact_limit: int) -> JSON:
    """The odds of a position as JSON, cached (a view may not change them).

    ``win``, ``se`` are per seat (``None`` for seats sitting out); ``method`` is ``exact`` or
    ``monte_carlo``; ``samples`` the completions enumerated or deals sampled. The Monte Carlo
    seed is derived from the position, so the odds are a function of the face-up cards.
    """
    masks, holes = position.masks, position.holes
    seed = derive_seed("stud10-odds", *masks, *holes) & 0x7FFFFFFF
    result = odds_masks(masks, holes, samples=samples, exact_limit=exact_limit, seed=seed)
    n = seats
    win: list[float | None] = [None] * n
    se: list[float | None] = [None] * n
    for i, s in enumerate(position.in_hand):
        win[s] = round(result.win[i], 6)
        se[s] = round(result.se[i], 6)
    return {
        "win": win,
        "se": se,
        "method": result.method,
        "samples": result.samples,
        "completions": result.completions,
    }


def live_odds(state: Stud10State) -> JSON | None:
    """The odds of the hand on the table as JSON (``None`` before the first deal or when off)."""
    rules = state.rules
    if not rules.view_odds or not state.in_hand:
        return None
    seats = len(state.players)
    return position_odds(state.position(), seats, rules.odds_samples, rules.odds_exact_limit)


class Stud10Views(Views[Stud10State]):
    """10-card stud's views, determinization and terminal text (see the module docstring)."""

    def view(self, state: Stud10State, seat: Seat | None) -> JSON:
        """The view of ``seat`` (``None``: a spectator); every seat sees the same."""
        log = self.events.json(state.log, None, everything=True)
        return view(self.header(state, seat), state, log)

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> Stud10State:
        """A state that gives ``view`` to ``seat``: see :func:`determinize`."""
        return determinize(view, seat, rng)

    def render(self, view: JSON) -> str:
        """The table, each player's cards, hand and odds, and the latest events."""
        return render(view)

    def describe_legal(self, legal: Sequence[Action]) -> str:
        """Players never act; chance's reveal outcomes are listed briefly."""
        if not len(legal):
            return "nothing to do: the host deals and reveals"
        return super().describe_legal(legal)


def view(header: JSON, state: Stud10State, log: list[JSON]) -> JSON:
    """The view of any seat, after the common ``header``: every seat sees the same.

    ``log`` is the JSON of the log.
    """
    seats: list[JSON] = []
    for s in range(len(state.players)):
        dealt = s in state.in_hand
        up = state.up[s] if dealt else ()
        score = strength(up) if dealt else None
        seats.append(
            {
                "in_hand": dealt,
                "door": [DECK[c] for c in up[:5]],
                "revealed": [DECK[c] for c in up[5:]],
                "holes": len(state.hole[s]) if dealt else 0,
                "strength": score,
                "showing": describe(score) if score is not None else None,
            }
        )
    return {
        **header,
        "hand": state.hand,
        "stacks": list(state.stacks),
        "pot": state.pot,
        "in_hand": list(state.in_hand),
        "seats": seats,
        "revealing": list(state.revealing()),
        "reveals": state.reveals,
        "odds": live_odds(state),
        "log": log,
    }


def determinize(view: JSON, seat: Seat | None, rng: random.Random) -> Stud10State:
    """A full state giving ``view``: the hole cards drawn uniformly from the unseen cards.

    Every unseen card is equally likely to be any hole card (the rules page's Odds section),
    so this is an exact sample of the hidden part given the view.
    """
    rules = msgspec.convert(view["rules"], Stud10Rules)
    n = len(view["players"])
    up = tuple(
        tuple(_CODE[c] for c in (*view["seats"][s]["door"], *view["seats"][s]["revealed"]))
        for s in range(n)
    )
    seen = {c for cards in up for c in cards}
    unseen = [c for c in range(52) if c not in seen]
    rng.shuffle(unseen)
    hole: list[tuple[int, ...]] = []
    for s in range(n):
        k = view["seats"][s]["holes"]
        hole.append(tuple(unseen[:k]))
        del unseen[:k]
    return Stud10State(
        rules=rules,
        players=tuple(view["players"]),
        phase=view["phase"],
        hand=view["hand"],
        stacks=tuple(view["stacks"]),
        pot=view["pot"],
        in_hand=tuple(view["in_hand"]),
        up=up,
        hole=tuple(hole),
        reveals=view["reveals"],
        log=Log(msgspec.convert(e, Event) for e in view["log"]),
    )


def _pct(x: Any, se: Any, method: str) -> str:
    if x is None:
        return ""
    if method == "exact" or not se:
        return f"{100 * x:6.2f}%"
    return f"{100 * x:6.2f}% ±{100 * se:.2f}"


def render(view: JSON) -> str:
    """A view as text: the table with each player's cards, hand and odds, then recent events."""
    players = view["players"]
    rules = view["rules"]
    hands = rules["hands"] or "∞"
    lines = [
        f"10-card stud — hand {view['hand']}/{hands} · pot {view['pot']} · ante {rules['ante']}"
        f" · {view['phase']}"
    ]
    odds = view["odds"]
    width = max(len(p) for p in players)
    for s, info in enumerate(view["seats"]):
        name = players[s].ljust(width)
        stack = f"{view['stacks'][s]:>5}"
        if not info["in_hand"]:
            lines.append(f"  {s} {name} {stack}  (sitting out)")
            continue
        door = " ".join(info["door"])
        rev = " ".join(info["revealed"])
        cards = f"{door} | {rev}".ljust(32) if rev else f"{door} |".ljust(32)
        down = "▒" * info["holes"]
        mark = "▶" if s in view["revealing"] else " "
        pct = _pct(odds["win"][s], odds["se"][s], odds["method"]) if odds else ""
        lines.append(f"{mark} {s} {name} {stack}  {cards} {down:<5}  {pct:<15} {info['showing']}")
    if odds:
        how = (
            f"exact over {odds['samples']:,} completions"
            if odds["method"] == "exact"
            else f"Monte Carlo, {odds['samples']:,} deals"
        )
        lines.append(f"  odds: {how}")
    if view["revealing"]:
        who = ", ".join(players[s] for s in view["revealing"])
        tied = " (tied weakest: all reveal)" if len(view["revealing"]) > 1 else ""
        lines.append(f"  next to reveal: {who}{tied}")
    for entry in view["log"][-6:]:
        lines.append("  · " + entry["text"])
    return "\n".join(lines)
