"""Star Hi-Lo bots: ``random`` (uniform over action kinds) and ``bayes`` (expected value).

``bayes`` keeps the targets consistent with everything it has seen (the public log and its own
secret results: an interval minus missed checks, uniform by Bayes' rule) and scores every action
by its expected value in points, a game star being worth ``star_value`` points. The future is
valued by ``W(n)``, the worth of knowing the target is one of ``n`` numbers, from a small dynamic
programme over its own turns (farm, halve, check), discounted by ``patience`` per turn; what an
action tells the other players is charged as the chance that one of them checks the target before
the bot's next turn. ``docs/games/hilo.md`` states the policy in full.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON
from dennou.games.hilo.actions import DIRECTIONS, Direction, Pick, turn_action
from dennou.games.hilo.knowledge import RESULT_KINDS, Belief, belief_of
from dennou.games.hilo.rules import HiloRules


class HiloRandomBot(Bot):
    """Uniform over the action kinds allowed now, then a uniform X and direction.

    Uniform over the legal actions themselves would be almost always a named or secret guess
    (each is billions of actions); choosing the kind first gives every rule its share of play.
    """

    name = "random"

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """A random kind, X and direction."""
        direction: Direction = rng.choice(DIRECTIONS)
        if view["phase"] == "pick":
            return Pick(direction)
        x = rng.randint(0, view["rules"]["max_number"])
        return turn_action(rng.choice(view["actions"]), x, direction)


@dataclass(frozen=True)
class Option:
    """An action the bot weighed and its expected value (for tests and explanations)."""

    action: Action
    value: float
    why: str


class BayesBot(Bot):
    """Expected value under the exact posterior over targets.

    Args:
        star_value: What a game star is worth in points (the series is won by game stars; 25
            account points only buy half a star, so a star is worth well over 50).
        patience: Weight of the value one's next turn: the discount per own turn.
        opponents: Whether to model other players' checks (``False``: ignore them).
    """

    name = "bayes"

    def __init__(
        self,
        star_value: Annotated[float, Meta(gt=0, le=1e6)] = 500.0,
        patience: Annotated[float, Meta(gt=0, lt=1)] = 0.98,
        opponents: bool = True,
    ) -> None:
        self.star_value = star_value
        self.patience = patience
        self.opponents = opponents
        self._rules: HiloRules | None = None
        self._worth: Callable[[int], float] = lambda n: 0.0
        self._check_up_to = 0

    # --- the value of knowledge -------------------------------------------------------------
    def _setup(self, rules: HiloRules) -> None:
        if self._rules == rules:
            return
        self._rules = rules
        s, beta = self.star_value, self.patience
        farm = rules.guess_right / (1 - beta)
        wrong, right = rules.guess_wrong, rules.guess_right

        @cache
        def worth(n: int) -> float:
            """W(n): the worth of n possible targets, if one could act every turn."""
            if n <= 1:
                return s
            best = max(farm, self._check_value(n, worth, 0.0))
            above, below = _split(n)
            learn = (above * right + below * wrong) / n + beta * (
                above / n * worth(above) + below / n * worth(below)
            )
            return max(best, learn)

        def check_is_best(n: int) -> bool:
            above, below = _split(n)
            learn = (above * right + below * wrong) / n + beta * (
                above / n * worth(above) + below / n * worth(below)
            )
            return self._check_value(n, worth, 0.0) >= max(farm, learn)

        for n in range(1, 65):
            worth(n)
        self._worth = worth
        self._check_up_to = max([1, *(n for n in range(2, 65) if check_is_best(n))])

    def _check_value(self, n: int, worth: Callable[[int], float], risk: float) -> float:
        """A check among ``n`` possible targets: a star now, or a miss and ``n - 1`` left."""
        assert self._rules is not None
        if n > 64:  # 1/n of a star never pays for the miss this far out
            return float("-inf")
        miss = self._rules.check_miss
        return self.star_value / n + (n - 1) / n * (
            miss + self.patience * (1 - risk) * worth(n - 1)
        )

    def worth(self, n: int) -> float:
        """``W(n)`` under the current rules (call :meth:`reset` or :meth:`act` first)."""
        return self._worth(n)

    # --- acting -----------------------------------------------------------------------------
    def reset(self, *, seat: int, rules: Any, players: Sequence[str]) -> None:
        """Prepare ``W`` for these rules."""
        self._setup(rules if isinstance(rules, HiloRules) else msgspec.convert(rules, HiloRules))

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """The action of highest expected value."""
        return self.options(view)[0].action

    def options(self, view: JSON) -> list[Option]:
        """Every action the bot considers, best first."""
        rules = msgspec.convert(view["rules"], HiloRules)
        self._setup(rules)
        me: int = view["seat"]
        top = rules.max_number
        mine = belief_of(view["log"], top, me)
        public = belief_of(view["log"], top, None)
        if view["phase"] == "pick":
            x: int = view["x"]
            high, low = mine.count_above(x - 1), mine.count_below(x + 1)
            return [Option(Pick("high" if high >= low else "low"), 0.0, "the likelier side")]
        points: int = view["points"][me]
        kinds: list[str] = view["actions"]
        threat = self._threat(view, me, rules) if self.opponents else _no_threat
        beta = self.patience
        worth = self._worth
        n = mine.count

        def future(n_me: int, n_pub: int) -> float:
            return beta * (1 - threat(n_pub)) * worth(n_me)

        def delta(d: int) -> int:
            return rules.add_points(points, d) - points

        out: list[Option] = []
        # Farm: a guess that is right for sure and tells nobody anything new.
        farm_dir: Direction
        if public.lo > 0:
            farm_x, farm_dir, p = public.lo - 1, "high", 1.0
        elif public.hi < top:
            farm_x, farm_dir, p = public.hi + 1, "low", 1.0
        else:
            farm_x, farm_dir, p = 0, "high", mine.count_above(0) / n
        gain = p * delta(rules.guess_right) + (1 - p) * delta(rules.guess_wrong)
        out.append(
            Option(
                turn_action("guess", farm_x, farm_dir),
                gain + future(n, public.count),
                f"farm: right with p={p:.3f}",
            )
        )
        if n > 1:
            x = mine.median()
            direction: Direction = "high" if mine.count_above(x) >= mine.count_below(x) else "low"
            branches = [
                (mine.result("guess", x, direction, r), public.result("guess", x, direction, r), r)
                for r in (True, False)
            ]
            # Halve in public: everyone learns the result.
            value = 0.0
            for b_me, b_pub, r in branches:
                pr = b_me.count / n
                d = delta(rules.guess_right if r else rules.guess_wrong)
                value += pr * (d + future(b_me.count, b_pub.count))
            out.append(Option(turn_action("guess", x, direction), value, f"halve {n:,} in public"))
            # Halve in secret: only the bot learns the result.
            for kind, cost in (
                ("secret_guess_2", rules.secret_guess_2_cost),
                ("secret_guess_3", rules.secret_guess_3_cost),
            ):
                if kind not in kinds:
                    continue
                value = delta(-cost) + sum(
                    b_me.count / n * future(b_me.count, public.count) for b_me, _, _ in branches
                )
                out.append(Option(turn_action(kind, x, direction), value, f"halve {n:,} in secret"))
        if "check" in kinds:
            x = mine.median()
            miss = delta(rules.check_miss)
            value = (
                self.star_value * rules.check_stars / n
                + (n - 1) / n * (miss + future(max(1, n - 1), public.without(x).count))
                if n > 1
                else self.star_value * rules.check_stars
            )
            out.append(Option(turn_action("check", x, "high"), value, f"check: 1 in {n:,}"))
        if "random_check" in kinds:
            p_hit = 1 / (top + 1)
            value = p_hit * self.star_value * rules.random_check_stars + (1 - p_hit) * (
                delta(rules.random_check_miss) + future(n, public.count)
            )
            out.append(
                Option(
                    turn_action("random_check", 0, "high"), value, f"random check: p={p_hit:.2g}"
                )
            )
        # A random guess: X is mostly outside what the bot knows, so it is right that often.
        inside = n / (top + 1)
        p = 1 - inside + inside * 0.75
        gain = p * delta(rules.random_guess_right) + (1 - p) * delta(rules.random_guess_wrong)
        out.append(
            Option(turn_action("random_guess", 0, "high"), gain + future(n, public.count), "random")
        )
        out.sort(key=lambda o: -o.value)
        return out

    def _threat(self, view: JSON, me: int, rules: HiloRules) -> Callable[[int], float]:
        """The chance that another player checks the target before the bot's next turn.

        A rival checks when it may (points) and its own count of possible targets is within the
        range where the bot itself would check; it is assumed to have halved with each of its
        secret guesses. Rivals whose public guesses ignore what is known are discounted.
        """
        players = len(view["players"])
        rivals = []
        sense = _sensible(view["log"], rules.max_number)
        secrets = [0] * players
        for e in view["log"]:
            if e["kind"] == "secret_guess":
                secrets[e["data"]["seat"]] += 1
        for j in range(players):
            if j == me or view["points"][j] < rules.check_min:
                continue
            good, total = sense.get(j, (0, 0))
            rivals.append(((1 + good) / (2 + total), secrets[j]))
        limit = self._check_up_to

        def threat(n_pub: int) -> float:
            safe = 1.0
            for rho, s in rivals:
                n_j = max(1, n_pub >> s)
                if n_j <= limit:
                    safe *= 1 - rho / n_j
            return 1 - safe

        return threat


def _no_threat(n_pub: int) -> float:
    return 0.0


def _split(n: int) -> tuple[int, int]:
    """Halving ``n`` targets at the lower median: (above it, at or below it)."""
    below = (n - 1) // 2 + 1
    return n - below, below


def _sensible(log: Sequence[dict[str, Any]], top: int) -> dict[int, tuple[int, int]]:
    """Per seat: (public guesses and checks that used what was known, all of them) this game."""
    belief = Belief.full(top)
    out: dict[int, tuple[int, int]] = {}
    for e in log:
        kind = e["kind"]
        if kind not in RESULT_KINDS or kind == "secret_result":
            continue
        data = e["data"]
        if kind in ("guess", "check"):
            x = data["x"]
            good, total = out.get(data["seat"], (0, 0))
            ok = belief.lo - 1 <= x <= belief.hi + 1
            out[data["seat"]] = (good + ok, total + 1)
        belief = belief.apply_log([e], None)
    return out
