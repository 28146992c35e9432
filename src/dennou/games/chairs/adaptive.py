"""The Musical Chairs ``adaptive`` bot: it learns where each rival runs and runs elsewhere.

Rules: ``docs/games/chairs.md``. Every race is public: each runner's legs show the chairs
they reached in order, so the first leg is the first chair on their sealed list. The bot keeps,
for every other player, a model of how they pick their first chair and updates it after every
race from what they did (the ``heuristic`` bot keeps one fixed model of everybody):

* **Features.** Each chair a rival could have picked is ranked by two scores: its distance from
  the totem, and the ``heuristic`` bot's score (run time plus a penalty per expected rival, the
  crowd computed as that bot computes it). A chair's *bucket* is its rank by each score
  (0, 1, 2, 3, 4, further).
* **Model.** ``P_j(chair) ~ sum over the two scores s of a_j[s] * p_j[s][bucket_s(chair)] /
  size_s(bucket)``: for each score a categorical distribution over buckets (Dirichlet counts,
  prior: uniform over the chairs) and a mixing weight between the scores (Beta counts, credit by
  the likelihood each score gave the observed choice). A rival who always takes the nearest
  chair ends up with ``p[distance][0] ~ 1``; a ``heuristic`` rival with ``p[heuristic][0] ~ 1``;
  a ``random`` one stays uniform.
* **Run list.** The bot draws the rivals' first chairs from their models (and the rest of their
  lists: the nearest free chair from there), its start delay from the blocks it drew last
  period, and everyone's jitter, and runs the race (``race.resolve_race``, the engine's own)
  for each list it considers: each of the nearest chairs first, then greedily the nearest
  chair from there that the rivals are least expected at. It seals the list most often seated
  (ties: the earlier seat time).
* **Block** (free for a player): the rival most likely to reach its first chair before it.

Votes, removals, gaya play and medal gifts are the ``heuristic`` bot's.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from msgspec import Meta

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON, Seat
from dennou.games.chairs.actions import BlockPlayer, NoBlock, Order
from dennou.games.chairs.heuristic import HeuristicBot
from dennou.games.chairs.race import resolve_race

BUCKETS = 6
"""Ranks 0..4 each its own bucket, the rest together."""

SCORES = ("distance", "heuristic")

LEAN = (0.5, 0.25, 0.125, 0.0625, 0.0625, 0.0)
"""The prior's "deliberate" half: mostly the best-ranked chair of a score."""


def _dist(a: Sequence[int], b: Sequence[int]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _poisson(mean: float, rng: random.Random) -> int:
    """A Poisson draw (Knuth; the means here are small)."""
    if mean <= 0:
        return 0
    limit = math.exp(-mean)
    k, p = 0, rng.random()
    while p > limit and k < 30:
        k += 1
        p *= rng.random()
    return k


def _bucket(rank: int) -> int:
    return min(rank, BUCKETS - 1)


@dataclass
class Rival:
    """What the bot has learnt about one rival's first choices.

    Attributes:
        counts: ``counts[s][b]``: Dirichlet counts of first choices in bucket ``b`` of score ``s``.
        mix: Beta counts for the two scores (how well each explained the choices).
        seen: Races observed.
    """

    counts: list[list[float]] = field(default_factory=lambda: [[0.0] * BUCKETS for _ in SCORES])
    mix: list[float] = field(default_factory=lambda: [1.0, 1.0])
    seen: int = 0


def heuristic_scores(
    chairs: Sequence[int],
    positions: Sequence[Sequence[int]],
    runners: Sequence[int],
    last: Sequence[int | None],
    who: int,
    radius: float,
    speed: float,
    penalty: float,
) -> dict[int, float]:
    """The ``heuristic`` bot's first-chair score for ``who``: run time + penalty x crowd."""
    crowd = dict.fromkeys(chairs, 0.0)
    for p in runners:
        if p == who:
            continue
        allowed = [c for c in chairs if c != last[p]]
        weights = {c: math.exp(-_dist(positions[c - 1], (0, 0)) / (radius / 3)) for c in allowed}
        total = sum(weights.values()) or 1.0
        for c, w in weights.items():
            crowd[c] += w / total
    return {
        c: _dist(positions[c - 1], (0, 0)) / speed + penalty * crowd[c]
        for c in chairs
        if c != last[who]
    }


def _ranks(score: dict[int, float]) -> dict[int, int]:
    order = sorted(score, key=lambda c: (score[c], c))
    return {c: i for i, c in enumerate(order)}


class AdaptiveBot(Bot):
    """Learns each rival's chair choices from the races and runs where they do not.

    Args:
        samples: Races simulated per list considered.
        firsts: How many of the nearest chairs it considers as its first chair.
        prior: Dirichlet pseudo-count of the prior per rival and score.
        temperature: Lists within about this much seated rate of the best are drawn at
            random (softmax), so that several adaptive bots spread over the chairs.
        crowd_penalty: The ``heuristic`` score's penalty (also used to model rivals).
        helper_weight: As ``heuristic`` (medal gifts).
        budget_ms: Thinking budget per decision (it simulates fewer races past it).
    """

    name = "adaptive"

    def __init__(
        self,
        samples: Annotated[int, Meta(ge=1, le=10_000)] = 32,
        firsts: Annotated[int, Meta(ge=1, le=99)] = 8,
        prior: Annotated[float, Meta(gt=0, le=1000)] = 2.0,
        temperature: Annotated[float, Meta(gt=0, le=10)] = 0.05,
        crowd_penalty: Annotated[float, Meta(ge=0, le=10_000)] = 60.0,
        helper_weight: Annotated[float, Meta(ge=0, le=10)] = 0.5,
        budget_ms: Annotated[float, Meta(gt=0, le=60_000)] = 1500.0,
    ) -> None:
        # Votes, removals, gaya play and gifts are the heuristic's.
        self.base = HeuristicBot(crowd_penalty=crowd_penalty, helper_weight=helper_weight)
        self.crowd_penalty = crowd_penalty
        self.helper_weight = helper_weight
        self.samples = samples
        self.temperature = temperature
        self.firsts = firsts
        self.prior = prior
        self.budget_ms = budget_ms
        self.rivals: dict[int, Rival] = {}
        self.learnt = 0
        self.planned: tuple[int, list[int], int | None] | None = None

    def reset(self, *, seat: Seat, rules: Any, players: Sequence[str]) -> None:
        """Forget the last game's rivals."""
        self.rivals = {}
        self.learnt = 0
        self.planned = None

    # --- learning -------------------------------------------------------------------------
    def learn(self, view: JSON) -> None:
        """Update every rival's model with the races not yet seen."""
        history = view["history"]
        radius = view["island"]["radius"]
        speed = view["rules"]["speed"]
        positions = view["positions"]
        for log in history[self.learnt :]:
            if not log["race"]:
                continue
            period = log["period"]
            before = history[period - 2] if period >= 2 else None
            last: dict[int, int | None] = {}
            if before is not None:
                for run in before["race"]:
                    last[run["seat"]] = run["chair"]
            runners = [run["seat"] for run in log["race"]]
            lasts = [last.get(p) for p in range(len(view["players"]))]
            for run in log["race"]:
                p = run["seat"]
                if p == view["seat"] or not run["legs"]:
                    continue
                chosen = run["legs"][0]["chair"]
                self.observe_choice(
                    p,
                    chosen,
                    list(log["chairs"]),
                    positions,
                    runners,
                    lasts,
                    radius,
                    speed,
                )
        self.learnt = len(history) if history and history[-1]["race"] else max(len(history) - 1, 0)

    def observe_choice(
        self,
        who: int,
        chosen: int,
        chairs: Sequence[int],
        positions: Sequence[Sequence[int]],
        runners: Sequence[int],
        last: Sequence[int | None],
        radius: float,
        speed: float,
    ) -> None:
        """Update ``who``'s model with one observed first choice."""
        ranks = self._rank_sets(who, chairs, positions, runners, last, radius, speed)
        if chosen not in ranks[0]:
            return
        rival = self.rivals.setdefault(who, Rival())
        like = [self._score_prob(rival, s, ranks[s], chosen) for s in range(len(SCORES))]
        total = sum(w * p for w, p in zip(rival.mix, like, strict=True)) or 1.0
        for s in range(len(SCORES)):
            rival.mix[s] += rival.mix[s] * like[s] / total
            rival.counts[s][_bucket(ranks[s][chosen])] += 1.0
        rival.seen += 1

    def _rank_sets(
        self,
        who: int,
        chairs: Sequence[int],
        positions: Sequence[Sequence[int]],
        runners: Sequence[int],
        last: Sequence[int | None],
        radius: float,
        speed: float,
    ) -> list[dict[int, int]]:
        allowed = [c for c in chairs if c != last[who]]
        by_distance = {c: _dist(positions[c - 1], (0, 0)) for c in allowed}
        by_heuristic = heuristic_scores(
            allowed, positions, runners, last, who, radius, speed, self.crowd_penalty
        )
        return [_ranks(by_distance), _ranks(by_heuristic)]

    def _score_prob(self, rival: Rival, s: int, ranks: dict[int, int], chair: int) -> float:
        """P(chair) under score ``s`` alone (Dirichlet mean over buckets, uniform inside)."""
        m = len(ranks)
        sizes = [0] * BUCKETS
        for r in ranks.values():
            sizes[_bucket(r)] += 1
        b = _bucket(ranks[chair])
        # Prior: half a uniform chooser (size/m of its mass in each bucket), half a chooser that
        # takes the best chair of the score (the lower ranks), before anything is seen.
        alpha = [self.prior * (0.5 * sizes[k] / m + 0.5 * LEAN[k]) for k in range(BUCKETS)]
        counts = rival.counts[s]
        total = sum(alpha) + sum(counts[k] for k in range(BUCKETS) if sizes[k])
        mass = (alpha[b] + counts[b]) / total
        return mass / sizes[b]

    def first_choice(
        self,
        who: int,
        chairs: Sequence[int],
        positions: Sequence[Sequence[int]],
        runners: Sequence[int],
        last: Sequence[int | None],
        radius: float,
        speed: float,
    ) -> dict[int, float]:
        """The model's distribution of ``who``'s first chair now."""
        ranks = self._rank_sets(who, chairs, positions, runners, last, radius, speed)
        rival = self.rivals.get(who, Rival())
        wsum = sum(rival.mix)
        out = dict.fromkeys(ranks[0], 0.0)
        for s in range(len(SCORES)):
            w = rival.mix[s] / wsum
            for c in out:
                out[c] += w * self._score_prob(rival, s, ranks[s], c)
        total = sum(out.values()) or 1.0
        return {c: v / total for c, v in out.items()}

    # --- decisions ------------------------------------------------------------------------
    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Learn from the races so far, then decide (see the module docstring)."""
        self.learn(view)
        me = view["seat"]
        if view["phase"] == "go" and view["playing"][me]:
            choice = self.go_player(view, rng)
            if choice in legal:
                return choice
        return self.base.act(view, legal, rng)

    def go_player(self, view: JSON, rng: random.Random) -> Action:
        """Block the rival most in the way, then seal the list most often seated."""
        key = view["period"]
        if self.planned is None or self.planned[0] != key:
            order, threat = self.plan_race(view, rng)
            self.planned = (key, order, threat)
        _, order, threat = self.planned
        if view["my_block"] is None:
            return NoBlock() if threat is None else BlockPlayer(threat)
        return Order(tuple(order))

    def plan_race(self, view: JSON, rng: random.Random) -> tuple[list[int], int | None]:
        """(the list to seal, the rival to block) by simulated races."""
        started = time.perf_counter()
        me = view["seat"]
        rules = view["rules"]
        speed = rules["speed"]
        radius = view["island"]["radius"]
        positions = view["positions"]
        chairs = list(view["in_play"])
        n = len(view["players"])
        last = list(view["last_chair"])
        runners = [p for p in range(n) if view["playing"][p]]
        rivals = [p for p in runners if p != me]
        allowed = [c for c in chairs if c != last[me]]
        if not allowed:
            return [], None
        models = {
            p: self.first_choice(p, chairs, positions, runners, last, radius, speed) for p in rivals
        }
        heat = dict.fromkeys(chairs, 0.0)
        for dist in models.values():
            for c, v in dist.items():
                heat[c] += v
        spot = {c: positions[c - 1] for c in chairs}
        near = sorted(allowed, key=lambda c: (_dist(spot[c], (0, 0)), c))
        candidates = [self._list_from(c, allowed, spot, heat, rules) for c in near[: self.firsts]]
        delays = self._expected_blockers(view, runners)
        jitter = rules["jitter"]
        lists: dict[tuple[int, int], list[int]] = {}
        time_limit = rules["time_limit"]
        seated = [0] * len(candidates)
        when = [0.0] * len(candidates)
        threats: dict[int, float] = dict.fromkeys(rivals, 0.0)
        budget = self.budget_ms / 1000.0
        draws = 0
        for _ in range(self.samples):
            if draws and time.perf_counter() - started > budget:
                break
            draws += 1
            others = []
            for p in rivals:
                dist = models[p]
                first = rng.choices(list(dist), weights=list(dist.values()))[0]
                if (p, first) not in lists:
                    rest = [c for c in chairs if c != last[p]]
                    lists[(p, first)] = self._greedy_list(first, rest, spot, rules["max_choices"])
                others.append((p, lists[(p, first)]))
            starts = {
                p: rng.randint(0, jitter) / 10
                + rules["block_delay"] * _poisson(delays.get(p, 0.0), rng)
                for p in runners
            }
            for i, mine in enumerate(candidates):
                runs = resolve_race(
                    spot,
                    frozenset(),
                    [(me, starts[me], mine), *((p, starts[p], lst) for p, lst in others)],
                    speed=speed,
                    time_limit=time_limit,
                )
                run = runs[0]
                if run.chair is not None:
                    seated[i] += 1
                    when[i] += run.time or 0.0
                elif i == 0:
                    # Who took the chair it wanted first: the rival to slow down.
                    for other in runs[1:]:
                        if other.chair == mine[0]:
                            threats[other.seat] += 1.0
        # Near-best lists are drawn, not taken in turn: bots that think alike (several of this
        # bot at one table) should not all run for the same chair.
        rate = [seated[i] / max(draws, 1) for i in range(len(candidates))]
        top = max(rate)
        weights = [
            math.exp((rate[i] - top) / self.temperature) * (1.0 - 1e-9 * when[i])
            for i in range(len(candidates))
        ]
        best = rng.choices(range(len(candidates)), weights=weights)[0]
        order = candidates[best]
        # The rival most likely to take its first chair (by the models and the simulated races),
        # if one stands out; otherwise a rival at random, as the heuristic does (ties broken at
        # random too: several of this bot must not all block the same seat).
        contest = {p: models[p].get(order[0], 0.0) for p in rivals} if order else {}
        for p in contest:
            contest[p] += threats.get(p, 0.0) / max(draws, 1)
        threat: int | None = None
        if contest:
            top_value = max(contest.values())
            mean = sum(contest.values()) / len(contest)
            leaders = [p for p in contest if contest[p] >= top_value - 1e-12]
            if top_value > 1.5 * mean and top_value > 0.05:
                threat = rng.choice(leaders)
            else:
                threat = rng.choice(sorted(contest))
        return order, threat

    def _list_from(
        self,
        first: int,
        allowed: Sequence[int],
        spot: dict[int, Sequence[int]],
        heat: dict[int, float],
        rules: JSON,
    ) -> list[int]:
        """``first``, then from each chair the nearest next one, rivals' heat counted as time."""
        out = [first]
        left = [c for c in allowed if c != first]
        here = spot[first]
        speed = rules["speed"]
        while left and len(out) < rules["max_choices"]:
            nxt = min(
                left, key=lambda c: (_dist(here, spot[c]) / speed + 30.0 * heat.get(c, 0.0), c)
            )
            out.append(nxt)
            left.remove(nxt)
            here = spot[nxt]
        return out

    @staticmethod
    def _greedy_list(
        first: int, allowed: Sequence[int], spot: dict[int, Sequence[int]], k: int
    ) -> list[int]:
        out = [first]
        left = [c for c in allowed if c != first]
        here = spot[first]
        while left and len(out) < k:
            nxt = min(left, key=lambda c: (_dist(here, spot[c]), c))
            out.append(nxt)
            left.remove(nxt)
            here = spot[nxt]
        return out

    @staticmethod
    def _expected_blockers(view: JSON, runners: Sequence[int]) -> dict[int, float]:
        """Expected blockers per runner: half what each had last race, half the average.

        Before any race: everyone blocks someone, so about one blocker each.
        """
        history = view["history"]
        if not history or not history[-1]["race"]:
            return dict.fromkeys(runners, 1.0)
        had: dict[int, float] = {}
        blocks = 0
        for note in history[-1]["blocks"]:
            p = note.get("player")
            if p is not None:
                had[p] = had.get(p, 0.0) + 1.0
                blocks += 1
        mean = blocks / max(len(history[-1]["race"]), 1)
        return {p: 0.5 * had.get(p, 0.0) + 0.5 * mean for p in runners}
