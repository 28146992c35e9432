"""The Pandemic ``adaptive`` bot: ``belief``'s filter, with a model of the others learnt from play.

Rules: ``docs/games/pandemic.md``. A contact needs both players to ask for each other in
the same tick, so the value of asking ``j`` is mostly the chance that ``j`` asks back. The
``belief`` bot fixes that chance (0.95 when ``j`` offered in their pair channel, 0.6 for a player
who said it answers offers, ``1/(n+2)`` otherwise). This bot learns it, per player and per
situation, from its own past requests and what came of them (its actions, the public contact
list and the talk it heard are all in its view):

* **situations**: ``j`` had offered this tick (``contact R.T`` in their pair channel), this bot
  had offered ``j``, or neither;
* **model**: for each situation a Beta distribution per player, whose prior is the pooled
  estimate over all players in that situation (itself starting from the ``belief`` bot's fixed
  numbers), so a player who never answers offers, or one who always does, is recognised after a
  few ticks while players it has not met yet get the table's average;
* **talk**: it reads the offers (``contact R.T``) and the ``belief`` protocol's greeting, and
  learns how much each player's offers are worth (an offer that was not kept counts against
  the player's offers).

* **decoys**: besides the offer it means, it offers contacts to up to ``decoys`` players who
  have not sealed their action yet, the least likely infected first. Talk binds nobody (rules:
  Time); a player who answers a decoy spends its tick on a contact that does not happen, and
  in a race for the top places a rival's lost vaccine is worth almost as much as one's own.
  (The host passes at most 5 lines of a bot's talk per decision, so there it makes at most 3
  or 4.)

The world filter (who may be infected) and the value of a position are the ``belief`` bot's.
Each tick it scores ``idle``, ``cure``, ``check`` and ``contact j`` one tick ahead over the
worlds, with the learnt chances, offers a contact to the player it picks and answers offers.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated

from msgspec import Meta

from dennou.core.game import JSON
from dennou.games.pandemic.actions import Contact
from dennou.games.pandemic.belief import HELLO, BeliefBot

OFFER = re.compile(r"^contact (\d+)\.(\d+)$")
"""An offer to touch watches in a given round and tick (the ``belief`` bots' protocol)."""

SITUATIONS = ("theirs", "mine", "plain")
"""``j`` offered this tick; this bot offered ``j``; no offer either way."""


def channel_of(a: int, b: int) -> str:
    """The pair channel of two seats (``pair:<low>-<high>``, the rules page's name)."""
    lo, hi = (a, b) if a < b else (b, a)
    return f"pair:{lo}-{hi}"


@dataclass
class Beta:
    """Successes and failures seen, on top of a prior."""

    hits: float = 0.0
    misses: float = 0.0

    def mean(self, prior: float, strength: float) -> float:
        """Posterior mean with a ``Beta(prior * strength, (1 - prior) * strength)`` prior."""
        return (self.hits + prior * strength) / (self.hits + self.misses + strength)


def offers_by_tick(view: JSON) -> dict[tuple[int, int], set[tuple[int, int]]]:
    """``(round, tick) -> {(speaker, listener)}``: offers heard in pair channels."""
    out: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for line in view["talk"]:
        speaker = line.get("speaker")
        channel = line.get("channel", "")
        if speaker is None or not channel.startswith("pair:"):
            continue
        m = OFFER.match(str(line.get("text", "")).strip())
        if not m:
            continue
        a, _, b = channel[5:].partition("-")
        other = int(b) if int(a) == speaker else int(a)
        out.setdefault((int(m[1]), int(m[2])), set()).add((speaker, other))
    return out


def learn_acceptance(view: JSON) -> dict[str, dict[int, Beta]]:
    """Per situation and player: how often a request of this seat to them became a contact."""
    me = view["seat"]
    ticks = int(view["rules"]["ticks"])
    offers = offers_by_tick(view)
    made = {
        ((c["round"], c["tick"]), min(c["players"]), max(c["players"])) for c in view["contacts"]
    }
    out: dict[str, dict[int, Beta]] = {s: {} for s in SITUATIONS}
    for k, action in enumerate(view.get("my_actions") or []):
        if action.get("type") != "contact":
            continue
        j = int(action["player"])
        when = (k // ticks + 1, k % ticks + 1)
        heard = offers.get(when, set())
        if (j, me) in heard:
            situation = "theirs"
        elif (me, j) in heard:
            situation = "mine"
        else:
            situation = "plain"
        beta = out[situation].setdefault(j, Beta())
        if (when, min(me, j), max(me, j)) in made:
            beta.hits += 1
        else:
            beta.misses += 1
    return out


class AdaptiveBot(BeliefBot):
    """The ``belief`` bot's play with learnt acceptance (see the module docstring).

    Args:
        cure_prob: The filter's chance that another infected player with a vaccine cures in a
            tick.
        cap: Distinct worlds the filter keeps before it resamples.
        strength: Weight (pseudo-observations) of the pooled estimate in a player's model.
        talk: Whether to greet, offer and answer offers.
        check_weight: Discount on the value of information of a check.
        recover: The chance an infected player without a vaccine is cured later.
        decoys: Offers it makes each tick beyond the one it means, to players who have not
            sealed yet (the most likely to qualify first): talk binds nobody, and a player who
            answers a decoy spends the tick on a contact that does not happen.
    """

    name = "adaptive"

    def __init__(
        self,
        cure_prob: Annotated[float, Meta(ge=0, le=1)] = 0.25,
        cap: Annotated[int, Meta(ge=1, le=100_000)] = 2000,
        strength: Annotated[float, Meta(gt=0, le=1000)] = 3.0,
        talk: bool = True,
        check_weight: Annotated[float, Meta(ge=0, le=10)] = 0.8,
        recover: Annotated[float, Meta(ge=0, le=1)] = 0.15,
        decoys: Annotated[int, Meta(ge=0, le=23)] = 11,
    ) -> None:
        super().__init__(cure_prob, cap, talk, check_weight, recover)
        self.decoys = decoys
        self.strength = strength
        self.last_accept: list[float] = []

    def accept(self, view: JSON) -> list[float]:
        """Per player, the learnt chance that asking them now becomes a contact."""
        me = view["seat"]
        n = len(view["players"])
        seen = learn_acceptance(view)
        when = (view["round"], view["tick"])
        heard = offers_by_tick(view).get(when, set())
        speakers = self._speakers(view)
        base = 1.0 / (n + 2)
        # The belief bot's fixed numbers are where the pooled estimates start.
        start = {"theirs": 0.95, "mine": 0.6, "plain": base}
        pooled = {}
        for situation in SITUATIONS:
            hits = sum(b.hits for b in seen[situation].values())
            misses = sum(b.misses for b in seen[situation].values())
            pooled[situation] = Beta(hits, misses).mean(start[situation], 2.0 * self.strength)
        out = []
        for j in range(n):
            if j == me:
                out.append(0.0)
                continue
            if (j, me) in heard:
                situation = "theirs"
            elif (j in speakers or j in seen["mine"]) and not view["submitted"][j] and self.talk:
                situation = "mine"  # it will offer, and j has not sealed yet
            else:
                situation = "plain"
            beta = seen[situation].get(j, Beta())
            out.append(beta.mean(pooled[situation], self.strength))
        self.last_accept = out
        return out

    # --- talk -------------------------------------------------------------------------------
    def chat(
        self, view: JSON, channels: frozenset[str], rng: random.Random
    ) -> Sequence[tuple[str, str]]:
        """Greet once (the belief protocol); offer a contact to the player it is about to ask."""
        if not self.talk or view["phase"] != "tick" or view["seat"] is None:
            return ()
        out: list[tuple[str, str]] = []
        if not self.said_hello and "public" in channels:
            out.append(("public", HELLO))
            self.said_hello = True
        action = self._decide(view)
        me = view["seat"]
        offer = f"contact {view['round']}.{view['tick']}"
        heard = offers_by_tick(view).get((view["round"], view["tick"]), set())
        meant = action.player if isinstance(action, Contact) else None
        if meant is not None:
            channel = channel_of(me, meant)
            if (meant, me) not in heard and not view["submitted"][meant] and channel in channels:
                out.append((channel, offer))
        if self.decoys:
            p = self._sync(view).p_infected()
            rivals = sorted(
                (
                    j
                    for j in range(len(view["players"]))
                    if j not in (me, meant)
                    and not view["submitted"][j]
                    and (j, me) not in heard
                    and channel_of(me, j) in channels
                ),
                key=lambda j: p[j],
            )
            out += [(channel_of(me, j), offer) for j in rivals[: self.decoys]]
        return out
