"""The Pandemic ``belief`` bot.

It keeps a :class:`~dennou.games.pandemic.knowledge.WorldFilter` over the hidden worlds
(exact while the distinct worlds are few, a particle filter beyond ``cap``) fed with the contact
log, the round announcements, its own actions and its own check results. Each tick it scores its
actions by their expected value over the worlds, one tick ahead:

- ``contact j``: the source's table applied in every world (so a partner likely infected, or a pair
  whose vaccine is used up, scores low), times the chance that ``j`` asks back;
- ``cure``: worth it in the worlds where it is infected with a vaccine;
- ``check``: the value of information: how much better its next action would be if it knew its own
  status and vaccines (zero once it knows them, or on the last tick);
- ``idle``: the baseline.

A normal position is worth its chance to qualify if the game ended now (against the other normal
players of that world) plus a little per vaccine; an infected one is worth less (it must cure,
or find a vaccinated partner) and nothing at the end.

Contacts need mutual requests, so the bot talks: it says once in public that it answers offers, and
when it wants ``j`` it offers ``contact R.T`` in their pair channel; when asked that way it answers
the offer it likes best. It trusts no claim about anyone's status: only its filter.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Annotated, Any

from msgspec import Meta

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON, Seat
from dennou.core.talk import pair_channel
from dennou.games.pandemic.actions import Check, Contact, Cure, Idle
from dennou.games.pandemic.knowledge import WorldFilter, observations
from dennou.games.pandemic.rules import PandemicRules
from dennou.games.pandemic.state import contact_result

HELLO = "belief-bot: I answer offers 'contact R.T' sent in our pair channel"
OFFER = re.compile(r"^contact (\d+)\.(\d+)$")

VACCINE_BONUS = 0.25
"""Value of a vaccine beyond the qualification chance it buys now (others will gain more)."""


def qualify_chance(vaccines: int, others: Sequence[int], rules: PandemicRules) -> float:
    """The chance to qualify if the game ended now, normal with ``vaccines``.

    Args:
        vaccines: One's vaccines.
        others: The vaccines of the other normal players.
        rules: The rules (places and the vaccine floor).
    """
    if vaccines < rules.min_vaccines:
        return 0.0
    if rules.qualifiers is None:
        return 1.0
    above = sum(1 for v in others if v > vaccines)
    equal = sum(1 for v in others if v == vaccines)
    slots = rules.qualifiers - above
    if slots <= 0:
        return 0.0
    return min(1.0, slots / (equal + 1))


def value(
    infected: bool,
    vaccines: int,
    ticks_left: int,
    others: Sequence[int],
    rules: PandemicRules,
    recover: float = 0.15,
) -> float:
    """What a position is worth to its holder with ``ticks_left`` ticks still to play.

    ``recover`` is the chance that an infected player without a vaccine is cured before the end
    (by a contact with a vaccinated normal player).
    """
    if not infected:
        return qualify_chance(vaccines, others, rules) + VACCINE_BONUS * vaccines
    if ticks_left >= 1 and vaccines >= 1:
        # It must learn it is infected and spend a vaccine (and a tick) to cure.
        return 0.85 * value(False, vaccines - 1, ticks_left, others, rules, recover)
    if ticks_left >= 2:
        # It may still meet a vaccinated normal player and be cured by the contact.
        return recover * value(False, 0, ticks_left, others, rules, recover)
    return 0.0


class BeliefBot(Bot):
    """Tracks every player's chance of being infected and plays the best expected action.

    Args:
        cure_prob: The model's chance that another infected player with a vaccine cures in a
            given tick.
        cap: Distinct worlds the filter keeps before it resamples.
        talk: Whether to offer and answer contacts in pair channels.
        check_weight: Discount on the value of information of a check (used a tick later).
        recover: The chance it gives an infected player without a vaccine of being cured later.
    """

    name = "belief"

    def __init__(
        self,
        cure_prob: Annotated[float, Meta(ge=0, le=1)] = 0.25,
        cap: Annotated[int, Meta(ge=1, le=100_000)] = 2000,
        talk: bool = True,
        check_weight: Annotated[float, Meta(ge=0, le=1)] = 0.8,
        recover: Annotated[float, Meta(ge=0, le=1)] = 0.15,
    ) -> None:
        self.cure_prob = cure_prob
        self.cap = cap
        self.talk = talk
        self.check_weight = check_weight
        self.recover = recover
        self.seat: int | None = None
        self.filter: WorldFilter | None = None
        self.seen = 0
        self.said_hello = False
        self.plan: tuple[int, int, Action] | None = None
        self.last_scores: dict[str, float] = {}

    def reset(self, *, seat: Seat, rules: Any, players: Sequence[str]) -> None:
        """Start a new game as ``seat``."""
        self.seat = seat
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

    def p_infected(self, view: JSON) -> list[float]:
        """Every player's probability of being infected now, as this bot believes."""
        return self._sync(view).p_infected()

    # --- talk -------------------------------------------------------------------------------
    def chat(
        self, view: JSON, channels: frozenset[str], rng: random.Random
    ) -> Sequence[tuple[str, str]]:
        """Say hello once; offer a contact to the partner it is about to ask."""
        if not self.talk or view["phase"] != "tick" or view["seat"] is None:
            return ()
        out: list[tuple[str, str]] = []
        if not self.said_hello and "public" in channels:
            out.append(("public", HELLO))
            self.said_hello = True
        action = self._decide(view)
        if isinstance(action, Contact):
            j = action.player
            offered = self._offers(view)
            channel = pair_channel(view["seat"], j)
            if j not in offered and not view["submitted"][j] and channel in channels:
                out.append((channel, f"contact {view['round']}.{view['tick']}"))
        return out

    def _offers(self, view: JSON) -> set[int]:
        """Players who offered this bot a contact this tick."""
        me = view["seat"]
        out = set()
        for line in view["talk"]:
            if line["speaker"] in (None, me) or line["channel"] != pair_channel(
                me, line["speaker"]
            ):
                continue
            m = OFFER.match(line["text"].strip())
            if m and (int(m[1]), int(m[2])) == (view["round"], view["tick"]):
                out.add(line["speaker"])
        return out

    def _speakers(self, view: JSON) -> set[int]:
        return {
            line["speaker"]
            for line in view["talk"]
            if line["channel"] == "public" and line["text"] == HELLO and line["speaker"] is not None
        }

    # --- decisions --------------------------------------------------------------------------
    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """The action with the best expected value (see the module docstring)."""
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

    def accept(self, view: JSON) -> list[float]:
        """Per player, the chance that asking them now becomes a contact.

        Fixed numbers: 0.95 for one who offered this tick, 0.6 for one who greeted and has not
        sealed, the uniform chance for anyone else.
        """
        me: int = view["seat"]
        n = len(view["players"])
        offers = self._offers(view) if self.talk else set()
        speakers = self._speakers(view) if self.talk else set()
        base_p = 1.0 / (n + 2)  # a uniform player asks for us with this chance
        accept = []
        for j in range(n):
            if j == me:
                accept.append(0.0)
            elif j in offers:
                accept.append(0.95)
            elif j in speakers:
                accept.append(0.0 if view["submitted"][j] else 0.6)
            else:
                accept.append(base_p)
        return accept

    def choose(self, view: JSON) -> Action:
        """Score every action over the filter's worlds with :meth:`accept`'s chances."""
        f = self._sync(view)
        me: int = view["seat"]
        n = f.n
        rules = f.rules
        resolved = (view["round"] - 1) * rules.ticks + view["tick"] - 1
        left = rules.total_ticks - resolved - 1
        accept = self.accept(view)
        # Per world: my position and, for each action, the value after it.
        groups: dict[tuple[bool, int], list[float]] = {}
        actions: list[Action] = [Idle(), Cure(), *(Contact(j) for j in range(n) if j != me)]
        totals = [0.0] * len(actions)
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
            vals = [stay]
            if mine_i and mine_v > 0:
                vals.append(val(False, mine_v - 1))
            else:
                vals.append(stay)
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
                weighted = w.weight * v
                totals[i] += weighted
                g[i] += weighted
        best = max(range(len(actions)), key=lambda i: (totals[i], -i))
        p_cure = sum(w.weight for w in f.worlds if w.infected >> me & 1 and w.vaccines[me] > 0)
        if p_cure >= 0.9:
            # It knows it is infected with a vaccine: cure, unless a partner who surely asks
            # back would cure it for free (a vaccinated normal player; the source's row 3).
            sure = [1] + [
                2 + i for i, j in enumerate(k for k in range(n) if k != me) if accept[j] >= 0.9
            ]
            best = max(sure, key=lambda i: (totals[i], -i))
            self.last_scores = {str(a): t for a, t in zip(actions, totals, strict=True)}
            return actions[best]
        voi = sum(max(g) for g in groups.values()) - totals[best]
        check_score = totals[0] + (self.check_weight * voi if left >= 1 else 0.0)
        self.last_scores = {str(a): t for a, t in zip(actions, totals, strict=True)}
        self.last_scores["check"] = check_score
        if check_score > totals[best] + 1e-9:
            return Check()
        if totals[best] <= totals[0] + 1e-9:
            return Idle()
        return actions[best]
