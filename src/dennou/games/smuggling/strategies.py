"""The Smuggling Game's ``greedy`` and ``equilibrium`` bots (``planner``: :mod:`.planner`).

- ``greedy``: nominates itself; as smuggler fills the trunk to the limit; as inspector doubts the
  most the smuggler can carry when its limit allows, else passes.
- ``equilibrium``: plays the mixed equilibrium of the smuggle-or-inspect subgame, solved by linear
  programming over a grid of amounts and doubts (``equilibrium.py``), for the ``team`` objective
  (the team difference that decides the winner) or ``self`` (its own final money). Nominates, for
  its team, the member with the most home money to smuggle and the most third-country money to
  inspect (all members agree from public information); with ``self``, itself. It ignores room
  talk (cheap talk binds nobody) but says one line in character in each room. With
  ``exploit=true`` it watches the other team's public record in the opposite role and, once it
  has ``min_seen`` observations, plays the best response to their empirical play whenever that
  beats its equilibrium mix against the same play by more than 5% of the trunk limit (an
  equilibrium opponent gives no such edge beyond noise, and a deviation inside the equilibrium's
  support costs nothing against one).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Annotated

import numpy as np
from msgspec import Meta

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON
from dennou.games.smuggling.actions import Doubt, Nominate, Pass, Ready, Trunk
from dennou.games.smuggling.equilibrium import Objective, Subgame, payoffs, subgame

SMUGGLER_LINES = (
    "空っぽですよ。疑うなら慰謝料をいただきます。",
    "I packed nothing. Doubt me and pay the compensation.",
    "中身ですか？ご想像にお任せします。",
    "Go on, doubt me. I could use the money.",
    "一億、満タンです。…なんてね。",
)
INSPECTOR_LINES = (
    "正直に話してくれれば、悪いようにはしない。",
    "Your hands are shaking. Heavy trunk?",
    "いくら入っているか、顔に書いてありますよ。",
    "I've seen this trick before.",
    "パスしてほしいんでしょう？",
)


def limits(view: JSON) -> tuple[int, int]:
    """(most the smuggler may pack, largest doubt the inspector may call) in this small game."""
    rules = view["rules"]
    unit = rules["unit"]
    trunk_hi = min(rules["trunk_max"], view["home"][view["smuggler"]])
    doubt_hi = rules["doubt_factor"] * view["third"][view["inspector"]] // unit * unit
    return trunk_hi, doubt_hi


def _best_member(view: JSON, members: Sequence[int], key: Callable[[int], int]) -> int:
    represented = view["represented"]
    return min(members, key=lambda s: (-key(s), represented[s], s))


class GreedyBot(Bot):
    """Smuggles the most it can; doubts the most the smuggler can carry (if it may), else passes."""

    name = "greedy"

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Apply the simple rule."""
        seat = view["seat"]
        if view["phase"] == "nominate":
            return Nominate(seat)
        trunk_hi, doubt_hi = limits(view)
        if view["phase"] == "trunk":
            return Trunk(trunk_hi)
        if seat == view["smuggler"]:
            return Ready()
        if trunk_hi == 0 or doubt_hi < trunk_hi:
            return Pass()
        return Doubt(trunk_hi)


class EquilibriumBot(Bot):
    """Samples its play from the LP equilibrium of the smuggle-or-inspect subgame.

    Args:
        objective: ``team`` (the team difference) or ``self`` (own final money, maxmin).
        points: Grid size: amounts evenly spread over the trunk's range (and doubts at them).
        talk: Whether to say a line in character in the inspection room.
        exploit: Best-respond to the other team's observed play when it clearly pays.
        min_seen: Observations needed before exploiting.
        window: How many of the latest observations to use.
    """

    name = "equilibrium"

    def __init__(
        self,
        objective: Objective = "team",
        points: Annotated[int, Meta(ge=2, le=201)] = 21,
        talk: bool = True,
        exploit: bool = False,
        min_seen: Annotated[int, Meta(ge=1, le=1000)] = 4,
        window: Annotated[int, Meta(ge=1, le=1000)] = 12,
    ) -> None:
        self.objective: Objective = objective
        self.points = points
        self.talk = talk
        self.exploit = exploit
        self.min_seen = min_seen
        self.window = window

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Nominate, pack or judge per the equilibrium mix."""
        seat = view["seat"]
        phase = view["phase"]
        if phase == "nominate":
            return Nominate(self._nominee(view))
        if phase == "room" and seat == view["smuggler"]:
            return Ready()
        role = "smuggler" if phase == "trunk" else "inspector"
        game = self.subgame(view, role)
        if self.exploit:
            response = self._best_response(view, role, game)
            if response is not None and response in legal:
                return response
        if role == "smuggler":
            i = rng.choices(range(len(game.amounts)), weights=game.solution.row.tolist())[0]
            action: Action = Trunk(int(game.amounts[i]))
        else:
            j = rng.choices(range(len(game.doubts)), weights=game.solution.col.tolist())[0]
            x = int(game.doubts[j])
            action = Pass() if x == 0 else Doubt(x)
        return action if action in legal else legal[0]

    def subgame(self, view: JSON, role: str) -> Subgame:
        """The solved subgame for this small game's limits (cached across calls)."""
        trunk_hi, doubt_hi = limits(view)
        rules = view["rules"]
        return subgame(
            trunk_hi, doubt_hi, rules["unit"], self.points, self.objective, role, rules["team_size"]
        )

    def _best_response(self, view: JSON, role: str, game: Subgame) -> Action | None:
        """The best response to the other team's recent play, if it clearly beats the mix."""
        mine = view["team"]
        seen = [
            r
            for r in view["results"]
            if (r["smuggling"] == mine) == (role == "smuggler")  # they had the other role
        ][-self.window :]
        if len(seen) < self.min_seen:
            return None
        rules = view["rules"]
        unit, n = rules["unit"], rules["team_size"]
        trunk_hi, _ = limits(view)
        margin = 0.05 * max(trunk_hi, unit)
        if role == "smuggler":
            doubts = np.array([r["doubt"] for r in seen], dtype=np.int64)
            a = payoffs(game.amounts, doubts, unit, self.objective, role, n)
            expected = a.mean(axis=1)
            i = int(expected.argmax())
            if expected[i] - float(game.solution.row @ expected) > margin:
                return Trunk(int(game.amounts[i]))
            return None
        amounts = np.minimum(np.array([r["amount"] for r in seen], dtype=np.int64), trunk_hi)
        a = payoffs(amounts, game.doubts, unit, self.objective, role, n)
        expected = a.mean(axis=0)
        j = int(expected.argmin())
        if float(expected @ game.solution.col) - expected[j] > margin:
            x = int(game.doubts[j])
            return Pass() if x == 0 else Doubt(x)
        return None

    def _nominee(self, view: JSON) -> int:
        seat = view["seat"]
        if self.objective == "self":
            return int(seat)
        team = view["team"]
        members = view["teams"][team]
        if team == view["smuggling_team"]:
            trunk_max = view["rules"]["trunk_max"]
            return _best_member(view, members, lambda s: min(trunk_max, view["home"][s]))
        return _best_member(view, members, lambda s: view["third"][s])

    def chat(
        self, view: JSON, channels: frozenset[str], rng: random.Random
    ) -> Sequence[tuple[str, str]]:
        """One line in character per inspection room."""
        if not self.talk or "room" not in channels:
            return ()
        seat = view["seat"]
        said = any(
            t["channel"] == "room" and t["speaker"] == seat and t["game"] == view["small_game"]
            for t in view["talk"]
        )
        if said:
            return ()
        lines = SMUGGLER_LINES if seat == view["smuggler"] else INSPECTOR_LINES
        return [("room", rng.choice(lines))]
