"""The Musical Chairs ``heuristic`` bot: it plays from its view alone.

- **Go (a player)**: models every other player as heading for the chairs near the totem (chair
  ``c`` with weight ``exp(-distance / (radius / 3))`` over the chairs they may take) and adds up
  that expected crowd per chair. Its list starts with the chair that minimises
  ``run time + crowd_penalty x expected rivals`` and goes on greedily from there (the next chair
  is the cheapest *from the last one*, since a runner who loses runs on from where they are).
  It also blocks a rival player (for free), never one whose medals it holds more of.
- **Go (gaya)**: blocks a rival of its favourite (the player whose medals it holds most of);
  with no favourite it blocks nothing.
- **Vote**: for the player whose medals it holds most of (itself when that is its own name).
- **Removal (parent)**: removes the chair nearest the totem among those it does not plan to use
  next period (usually its own chair, forbidden to it anyway, or one the crowd wants).
- **Gifts (a player)**: models its chance to win as ``(1 + h/2) / (k + h/2)`` with ``k`` players
  left and ``h`` helpers (gaya it gave medals to: by its own vote rule such a gaya votes for it and
  blocks its rivals). It gives one medal of its own name to a new gaya while
  ``P(h + 1) x (m - 1) > P(h) x m`` (``m`` own medals held): only when that raises its expected
  payout. ``h`` is discounted by how well bought votes have shown up so far: after each vote it
  compares its own total with the other players' average, per helper (at most 1); when the
  voters do not respond (``random`` does not) it soon stops buying.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Annotated

from msgspec import Meta

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON
from dennou.games.chairs.actions import (
    Abstain,
    BlockPlayer,
    Gift,
    NoBlock,
    Order,
    Ready,
    Remove,
    Vote,
)


def _dist(a: Sequence[int], b: Sequence[int]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


class HeuristicBot(Bot):
    """Near chairs away from the crowd; loyal voting; medals for votes when they pay.

    Args:
        crowd_penalty: Seconds a chair costs per rival expected to head for it.
        helper_weight: How much one helper is assumed to add to its player's chances.
    """

    name = "heuristic"

    def __init__(
        self,
        crowd_penalty: Annotated[float, Meta(ge=0, le=3600)] = 60.0,
        helper_weight: Annotated[float, Meta(ge=0, le=10)] = 0.5,
    ) -> None:
        self.crowd_penalty = crowd_penalty
        self.helper_weight = helper_weight

    # --- helpers --------------------------------------------------------------------------
    @staticmethod
    def favourite(view: JSON, rng: random.Random) -> int | None:
        """The player (still playing) whose medals this seat holds most of (ties: random)."""
        medals = view["medals"]
        players = [p for p, on in enumerate(view["playing"]) if on]
        best = max((medals[p] for p in players), default=0)
        if best <= 0:
            return None
        me = view["seat"]
        top = [p for p in players if medals[p] == best]
        return me if me in top else rng.choice(top)

    def crowd(self, view: JSON) -> dict[int, float]:
        """Expected number of other players heading first for each chair."""
        me = view["seat"]
        radius = view["island"]["radius"]
        pos = view["positions"]
        out = dict.fromkeys(view["in_play"], 0.0)
        for p, on in enumerate(view["playing"]):
            if not on or p == me:
                continue
            allowed = [c for c in view["in_play"] if c != view["last_chair"][p]]
            weights = {c: math.exp(-_dist(pos[c - 1], (0, 0)) / (radius / 3)) for c in allowed}
            total = sum(weights.values()) or 1.0
            for c, w in weights.items():
                out[c] += w / total
        return out

    def plan(self, view: JSON, last: int | None) -> list[int]:
        """The order list: cheapest chair first, then cheapest from there, and so on."""
        speed = view["rules"]["speed"]
        pos = view["positions"]
        crowd = self.crowd(view)
        left = [c for c in view["in_play"] if c != last]
        out: list[int] = []
        here: Sequence[int] = (0, 0)
        while left and len(out) < view["rules"]["max_choices"]:
            nxt = min(
                left,
                key=lambda c: (
                    _dist(here, pos[c - 1]) / speed + self.crowd_penalty * crowd[c],
                    c,
                ),
            )
            out.append(nxt)
            left.remove(nxt)
            here = pos[nxt - 1]
        return out

    def win_chance(self, players: int, helpers: float) -> float:
        """The bot's model of its chance to win with ``helpers`` bought helpers."""
        h = self.helper_weight * helpers
        return (1 + h) / (players + h)

    @staticmethod
    def response(view: JSON) -> float:
        """How many extra votes per helper the past votes showed (0..1; 1 before any evidence)."""
        me = view["seat"]
        samples: list[float] = []
        for log in view["history"]:
            if log["votes"] is None:
                continue
            helpers = {
                g["to"]
                for g in view["gifts"]
                if g["giver"] == me and g["name"] == me and g["period"] <= log["period"]
            }
            players = [r["seat"] for r in log["race"] if r["chair"] is not None]
            others = [log["votes"][p] for p in players if p != me]
            if not helpers or me not in players or not others:
                continue
            excess = log["votes"][me] - sum(others) / len(others)
            samples.append(excess / len(helpers))
        if not samples:
            return 1.0
        return min(1.0, max(0.0, sum(samples) / len(samples)))

    # --- decisions ------------------------------------------------------------------------
    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose by phase (see the module docstring)."""
        phase = view["phase"]
        choice: Action | None = None
        if phase == "free":
            choice = self.free(view, rng)
        elif phase == "go":
            choice = self.go(view, rng)
        elif phase == "vote":
            fav = self.favourite(view, rng)
            choice = Abstain() if fav is None else Vote(fav)
        elif phase == "remove":
            choice = self.remove(view)
        if choice is not None and choice in legal:
            return choice
        return legal[rng.randrange(len(legal))]

    def free(self, view: JSON, rng: random.Random) -> Action:
        """Buy a helper with one own medal when the model says it pays; else ready."""
        me = view["seat"]
        rules = view["rules"]
        if not view["playing"][me] or view["gifts_made"] >= rules["gifts_per_phase"]:
            return Ready()
        k = sum(view["playing"])
        mine = view["medals"][me]
        helped = {g["to"] for g in view["gifts"] if g["giver"] == me and g["name"] == me}
        gaya = [p for p, on in enumerate(view["playing"]) if not on and p not in helped]
        if not gaya or mine < 2:
            return Ready()
        r = self.response(view)
        h = len(helped) * r
        if self.win_chance(k, h + r) * (mine - 1) <= self.win_chance(k, h) * mine:
            return Ready()
        return Gift(rng.choice(gaya), me, 1)

    def go(self, view: JSON, rng: random.Random) -> Action:
        """Block first (a rival), then seal the list."""
        me = view["seat"]
        if view["my_block"] is None:
            fav = self.favourite(view, rng)
            if fav is None and not view["playing"][me]:
                return NoBlock()
            ally = me if view["playing"][me] else fav
            rivals = [
                p
                for p, on in enumerate(view["playing"])
                if on
                and p not in (me, ally)
                and view["medals"][p] <= view["medals"][me if ally is None else ally]
            ]
            return BlockPlayer(rng.choice(rivals)) if rivals else NoBlock()
        return Order(tuple(self.plan(view, view["last_chair"][me])))

    def remove(self, view: JSON) -> Action:
        """Remove the chair nearest the totem that it will not run for next period."""
        me = view["seat"]
        keep = set(self.plan(view, view["last_chair"][me])[:2])
        spare = [c for c in view["in_play"] if c not in keep] or list(view["in_play"])
        pos = view["positions"]
        return Remove(min(spare, key=lambda c: (_dist(pos[c - 1], (0, 0)), c)))
