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
from typing import Annotated, Any

from msgspec import Meta

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON, Seat
from dennou.games.pandemic.actions import Check, Contact, Cure, Idle
from dennou.games.pandemic.belief import HELLO, value
from dennou.games.pandemic.knowledge import WorldFilter, observations
from dennou.games.pandemic.rules import PandemicRules
from dennou.games.pandemic.state import contact_result

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


class AdaptiveBot(Bot):
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
        self.cure_prob = cure_prob
        self.cap = cap
        self.decoys = decoys
        self.strength = strength
        self.talk = talk
        self.check_weight = check_weight
        self.recover = recover
        self.filter: WorldFilter | None = None
        self.seen = 0
        self.said_hello = False
        self.plan: tuple[int, int, Action] | None = None
        self.last_accept: list[float] = []

    def reset(self, *, seat: Seat, rules: Any, players: Sequence[str]) -> None:
        """Start a new game."""
        self.filter = None
        self.seen = 0
        self.said_hello = False
        self.plan = None

    # --- knowledge --------------------------------------------------------------------------
    def _sync(self, view: JSON) -> WorldFilter:
        rules = PandemicRules(**view["rules"])
        n = len(view["players"])
        if self.filter is None or self.filter.seat != view["seat"] or self.filter.n != n:
            self.filter = WorldFilter(
                rules, n, view["seat"], cure_prob=self.cure_prob, cap=self.cap
            )
            self.seen = 0
        obs = observations(view)
        for o in obs[self.seen :]:
            self.filter.update(o)
        self.seen = len(obs)
        return self.filter

    def accept(self, view: JSON) -> list[float]:
        """Per player, the learnt chance that asking them now becomes a contact."""
        me = view["seat"]
        n = len(view["players"])
        seen = learn_acceptance(view)
        when = (view["round"], view["tick"])
        heard = offers_by_tick(view).get(when, set())
        speakers = {
            line["speaker"]
            for line in view["talk"]
            if line["channel"] == "public" and line["text"] == HELLO and line["speaker"] is not None
        }
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

    # --- decisions --------------------------------------------------------------------------
    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """The action with the best expected value one tick ahead."""
        if view["phase"] != "tick" or view["seat"] is None:
            return legal[rng.randrange(len(legal))]
        action = self._decide(view)
        return action if action in legal else Idle()

    def _decide(self, view: JSON) -> Action:
        key = (view["round"], view["tick"])
        if self.plan is not None and self.plan[:2] == key:
            return self.plan[2]
        action = self.choose(view)
        self.plan = (key[0], key[1], action)
        return action

    def choose(self, view: JSON) -> Action:
        """Score every action over the filter's worlds with the learnt chances."""
        f = self._sync(view)
        me: int = view["seat"]
        n = f.n
        rules = f.rules
        resolved = (view["round"] - 1) * rules.ticks + view["tick"] - 1
        left = rules.total_ticks - resolved - 1
        accept = self.accept(view)
        actions: list[Action] = [Idle(), Cure(), *(Contact(j) for j in range(n) if j != me)]
        totals = [0.0] * len(actions)
        groups: dict[tuple[bool, int], list[float]] = {}
        for w in f.worlds:
            mine_i = bool(w.infected >> me & 1)
            mine_v = w.vaccines[me]
            others = [w.vaccines[j] for j in range(n) if j != me and not w.infected >> j & 1]
            memo: dict[tuple[bool, int], float] = {}

            def val(i: bool, v: int, memo: dict[tuple[bool, int], float] = memo) -> float:
                if (i, v) not in memo:
                    memo[(i, v)] = value(i, v, left, others, rules, self.recover)  # noqa: B023
                return memo[(i, v)]

            stay = val(mine_i, mine_v)
            vals = [stay, val(False, mine_v - 1) if mine_i and mine_v > 0 else stay]
            for j in range(n):
                if j == me:
                    continue
                lo, hi = (me, j) if me < j else (j, me)
                used = bool(w.used >> (lo * n + hi) & 1)
                (ni, nv), _, _ = contact_result(
                    (mine_i, mine_v),
                    (bool(w.infected >> j & 1), w.vaccines[j]),
                    used=used,
                    transfer=rules.transfer,
                )
                p = accept[j]
                vals.append(p * val(ni, nv) + (1 - p) * stay)
            g = groups.setdefault((mine_i, mine_v), [0.0] * len(actions))
            for i, v in enumerate(vals):
                totals[i] += w.weight * v
                g[i] += w.weight * v
        best = max(range(len(actions)), key=lambda i: (totals[i], -i))
        p_cure = sum(w.weight for w in f.worlds if w.infected >> me & 1 and w.vaccines[me] > 0)
        if p_cure >= 0.9:
            # Known infected with a vaccine: cure, unless a partner who surely asks back cures
            # it for free (a vaccinated normal player; the rules' row 3).
            sure = [1] + [
                2 + i for i, j in enumerate(k for k in range(n) if k != me) if accept[j] >= 0.9
            ]
            return actions[max(sure, key=lambda i: (totals[i], -i))]
        voi = sum(max(g) for g in groups.values()) - totals[best]
        check_score = totals[0] + (self.check_weight * voi if left >= 1 else 0.0)
        if check_score > totals[best] + 1e-9:
            return Check()
        if totals[best] <= totals[0] + 1e-9:
            return Idle()
        return actions[best]
