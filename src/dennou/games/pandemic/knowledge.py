"""What an observer can know about the hidden statuses: a filter over the possible worlds.

A *world* is one full assignment of the hidden facts: who was infected at the start and, tick by
tick, every player's status, vaccines and used-up pairs. Seen from one seat (or a spectator), the
contacts it saw, its own actions, its own check results and the round announcements are known;
what is not known is who was infected at the start and which other players pressed ``cure``
(and, with a private contact log, contacts it did not take part in, which this filter ignores).

:class:`WorldFilter` starts from every possible starting set (all ``C(n, k)`` of them, equally
likely), steps forward tick by tick, branches on every hidden cure that could have worked (each
infected player with a vaccine cures with probability ``cure_prob``), applies the seen contacts
with the source's table, and weighs every world by the observations (a world that contradicts one
keeps a weight of ``EPS`` times its own, so a wrong cure model never leaves the filter empty).
Equal worlds are merged, so this is exact while the number of distinct worlds stays under
``cap``; beyond that the filter resamples down to ``cap`` worlds (a particle filter).

Used by ``determinize`` (draw a world consistent with a view) and by the ``belief`` bot.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from dennou.core.game import JSON
from dennou.games.pandemic.rules import PandemicRules
from dennou.games.pandemic.state import contact_result, uses_pair

EPS = 1e-12
"""Relative weight kept by a world that contradicts an observation."""

DEFAULT_CAP = 4000
"""Distinct worlds kept before the filter resamples."""


@dataclass(frozen=True)
class TickObs:
    """What one observer saw of one resolved tick.

    Attributes:
        round: The round.
        tick: The tick in the round.
        action: The observer's own action tag and target (``("contact", 3)``, ``("cure", -1)``),
            or ``None`` for a spectator.
        contacts: The contacts it saw this tick, as ``(a, b)`` with ``a < b``.
        check: Its own check result ``(infected, vaccines)`` this tick, if it checked.
        announced: The infected count the host announced after this tick (end of a round).
    """

    round: int
    tick: int
    action: tuple[str, int] | None
    contacts: tuple[tuple[int, int], ...]
    check: tuple[bool, int] | None
    announced: int | None


def observations(view: JSON) -> tuple[TickObs, ...]:
    """Every resolved tick as the view's seat (or a spectator) saw it, in order."""
    rules: JSON = view["rules"]
    ticks = int(rules["ticks"])
    seat = view["seat"]
    n_resolved = _resolved_ticks(view)
    contacts: dict[int, list[tuple[int, int]]] = {}
    for c in view["contacts"]:
        k = (c["round"] - 1) * ticks + c["tick"] - 1
        a, b = c["players"]
        contacts.setdefault(k, []).append((min(a, b), max(a, b)))
    checks: dict[int, tuple[bool, int]] = {}
    if seat is not None:
        for c in view["checks"]:
            if "seat" in c and c["seat"] != seat:
                continue
            checks[(c["round"] - 1) * ticks + c["tick"] - 1] = (bool(c["infected"]), c["vaccines"])
    announced = {a["round"] * ticks - 1: a["infected"] for a in view["announcements"]}
    mine = view.get("my_actions") if seat is not None else None
    out = []
    for k in range(n_resolved):
        action: tuple[str, int] | None = None
        if mine is not None:
            a = mine[k]
            action = (a["type"], int(a.get("player", -1)))
        out.append(
            TickObs(
                round=k // ticks + 1,
                tick=k % ticks + 1,
                action=action,
                contacts=tuple(sorted(contacts.get(k, ()))),
                check=checks.get(k),
                announced=announced.get(k),
            )
        )
    return tuple(out)


def _resolved_ticks(view: JSON) -> int:
    ticks = int(view["rules"]["ticks"])
    if view["phase"] == "setup":
        return 0
    if view["phase"] in ("tiebreak", "over"):
        return int(view["rules"]["rounds"]) * ticks
    return (int(view["round"]) - 1) * ticks + int(view["tick"]) - 1


@dataclass
class World:
    """One possible world (hidden facts), with its weight and one path that leads to it.

    Attributes:
        start: The starting infected set, as a bit mask of seats.
        infected: Current infected seats, as a bit mask.
        vaccines: Current vaccines by seat.
        used: Pairs whose vaccine is used up, as a bit mask over ``a * n + b``.
        weight: Unnormalised probability.
        cures: ``(tick index, seat)`` of the hidden cures on the path kept for this world.
    """

    start: int
    infected: int
    vaccines: tuple[int, ...]
    used: int
    weight: float
    cures: tuple[tuple[int, int], ...] = ()

    @property
    def key(self) -> tuple[int, int, tuple[int, ...], int]:
        """What makes two worlds the same."""
        return (self.start, self.infected, self.vaccines, self.used)


class WorldFilter:
    """The possible worlds given what one observer saw (see the module docstring).

    Args:
        rules: The rules.
        n: Number of players.
        seat: The observer (``None``: a spectator).
        cure_prob: Chance that another infected player with a vaccine cures in a given tick.
        cap: Distinct worlds kept before resampling.
    """

    def __init__(
        self,
        rules: PandemicRules,
        n: int,
        seat: int | None,
        *,
        cure_prob: float = 0.25,
        cap: int = DEFAULT_CAP,
    ) -> None:
        self.rules = rules
        self.n = n
        self.seat = seat
        self.cure_prob = cure_prob
        self.cap = cap
        self.steps = 0
        self.exact = True
        zero = (0,) * n
        self.worlds: list[World] = [
            World(m, m, zero, 0, 1.0)
            for m in (sum(1 << s for s in c) for c in combinations(range(n), rules.infected))
        ]
        self._normalise()

    def copy(self) -> WorldFilter:
        """An independent copy (worlds are replaced, never mutated, so a shallow copy does)."""
        other = WorldFilter.__new__(WorldFilter)
        other.__dict__.update(self.__dict__)
        other.worlds = list(self.worlds)
        return other

    # --- stepping ---------------------------------------------------------------------------
    def update(self, obs: TickObs) -> None:
        """Advance the worlds through one resolved tick and weigh them by what was seen."""
        n, seat, k = self.n, self.seat, self.steps
        busy = 0
        for a, b in obs.contacts:
            busy |= (1 << a) | (1 << b)
        own_cure = obs.action is not None and obs.action[0] == "cure"
        if seat is not None:
            busy |= 1 << seat
        c = self.cure_prob
        rules = self.rules
        merged: dict[tuple[int, int, tuple[int, ...], int], World] = {}
        prepared = []
        branches = 0
        for w in self.worlds:
            inf, vac = w.infected, w.vaccines
            own: tuple[tuple[int, int], ...] = ()
            if own_cure and seat is not None and inf >> seat & 1 and vac[seat] > 0:
                inf &= ~(1 << seat)
                vac = _dec(vac, seat)
                own = ((k, seat),)
            able = [s for s in _bits(inf & ~busy) if vac[s] > 0]
            branches += 1 << len(able)
            prepared.append((w, inf, vac, own, able))
        # Exact while the branches are few; else draw one cure pattern per world from the model
        # (a particle filter step: the proposal is the prior, so weights stay as they are).
        sampling = branches > 4 * self.cap
        rng = random.Random(k * 7_919 + len(self.worlds)) if sampling else None
        if sampling:
            self.exact = False
        for w, inf, vac, own, able in prepared:
            if rng is not None:
                patterns: Iterable[frozenset[int]] = (
                    frozenset(s for s in able if rng.random() < c),
                )
            else:
                patterns = _subsets(able)
            for chosen in patterns:
                weight = w.weight
                i2, v2 = inf, vac
                for s in able:
                    if s in chosen:
                        if rng is None:
                            weight *= c
                        i2 &= ~(1 << s)
                        v2 = _dec(v2, s)
                    elif rng is None:
                        weight *= 1 - c
                if weight <= 0:
                    continue
                used = w.used
                for a, b in obs.contacts:
                    bit = 1 << (a * n + b)
                    ia, ib = bool(i2 >> a & 1), bool(i2 >> b & 1)
                    (na, va), (nb, vb), _ = contact_result(
                        (ia, v2[a]), (ib, v2[b]), used=bool(used & bit), transfer=rules.transfer
                    )
                    if uses_pair(rules.pair_rule, ia, ib):
                        used |= bit
                    i2 = (i2 & ~((1 << a) | (1 << b))) | (na << a) | (nb << b)
                    if va != v2[a] or vb != v2[b]:
                        lst = list(v2)
                        lst[a], lst[b] = va, vb
                        v2 = tuple(lst)
                if obs.check is not None and seat is not None:
                    seen = (bool(i2 >> seat & 1), v2[seat])
                    if seen != obs.check:
                        weight *= EPS
                if obs.announced is not None and i2.bit_count() != obs.announced:
                    weight *= EPS
                cures = w.cures + own + tuple((k, s) for s in sorted(chosen))
                key = (w.start, i2, v2, used)
                old = merged.get(key)
                if old is None:
                    merged[key] = World(w.start, i2, v2, used, weight, cures)
                else:
                    path = old.cures if old.weight >= weight else cures
                    merged[key] = World(w.start, i2, v2, used, old.weight + weight, path)
        self.worlds = list(merged.values())
        self.steps += 1
        self._normalise()

    def _normalise(self) -> None:
        total = sum(w.weight for w in self.worlds)
        if total <= 0:  # pragma: no cover - EPS keeps weights positive
            raise ValueError("no world is left")
        top = max(w.weight for w in self.worlds)
        # Worlds that contradict an observation (weight * EPS) go as soon as one agrees with it.
        floor = top * 1e-8
        kept = [w for w in self.worlds if w.weight >= floor]
        if len(kept) > self.cap:
            self.exact = False
            kept = _resample(kept, self.cap, random.Random(self.steps * 1_000_003 + len(kept)))
        total = sum(w.weight for w in kept)
        for w in kept:
            w.weight /= total
        self.worlds = kept

    # --- questions --------------------------------------------------------------------------
    def p_infected(self) -> list[float]:
        """Each player's probability of being infected now."""
        out = [0.0] * self.n
        for w in self.worlds:
            m, s = w.infected, 0
            while m:
                if m & 1:
                    out[s] += w.weight
                m >>= 1
                s += 1
        return out

    def p_started_infected(self) -> list[float]:
        """Each player's probability of having been infected at the start."""
        out = [0.0] * self.n
        for w in self.worlds:
            for s in range(self.n):
                if w.start >> s & 1:
                    out[s] += w.weight
        return out

    def expected_vaccines(self) -> list[float]:
        """Each player's expected vaccines now."""
        out = [0.0] * self.n
        for w in self.worlds:
            for s, v in enumerate(w.vaccines):
                out[s] += w.weight * v
        return out

    def sample(self, rng: random.Random) -> World:
        """A world drawn by weight."""
        x = rng.random()
        for w in self.worlds:
            x -= w.weight
            if x < 0:
                return w
        return self.worlds[-1]


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _dec(vac: tuple[int, ...], s: int) -> tuple[int, ...]:
    lst = list(vac)
    lst[s] -= 1
    return tuple(lst)


def _subsets(items: Sequence[int]) -> Iterable[frozenset[int]]:
    for r in range(len(items) + 1):
        for c in combinations(items, r):
            yield frozenset(c)


def _resample(worlds: list[World], cap: int, rng: random.Random) -> list[World]:
    """Systematic resampling down to at most ``cap`` distinct worlds (weights by multiplicity)."""
    total = sum(w.weight for w in worlds)
    step = total / cap
    u = rng.random() * step
    out: dict[int, World] = {}
    acc = 0.0
    for i, w in enumerate(worlds):
        acc += w.weight
        while u < acc:
            if i in out:
                out[i].weight += 1.0
            else:
                out[i] = World(w.start, w.infected, w.vaccines, w.used, 1.0, w.cures)
            u += step
    return list(out.values())


# --- a cache of filters, so that repeated determinize calls on one view are cheap -------------
_CACHE: OrderedDict[tuple[Any, ...], WorldFilter] = OrderedDict()
_CACHE_SIZE = 256


def filter_for(
    view: JSON, rules: PandemicRules, *, cure_prob: float = 0.25, cap: int = DEFAULT_CAP
) -> WorldFilter:
    """The filter of ``view``'s seat after every resolved tick it shows (memoised by prefix)."""
    obs = observations(view)
    n = len(view["players"])
    base = (repr(rules), n, view["seat"], cure_prob, cap)
    hit = len(obs)
    while hit >= 0 and (base, obs[:hit]) not in _CACHE:
        hit -= 1
    if hit >= 0:
        f = _CACHE[(base, obs[:hit])]
        _CACHE.move_to_end((base, obs[:hit]))
    else:
        f = WorldFilter(rules, n, view["seat"], cure_prob=cure_prob, cap=cap)
        hit = 0
    for i in range(hit, len(obs)):
        f = f.copy()
        f.update(obs[i])
        _CACHE[(base, obs[: i + 1])] = f
    if len(obs) == 0:
        _CACHE[(base, ())] = f
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return f
