"""What an observer knows about a game's target: an interval minus a few excluded numbers.

Every hi-lo result is a half-line (``target > X``, ``target <= X``...) and every missed check
removes one number, so the targets consistent with a log are an interval ``lo..hi`` minus a
(small) set of excluded numbers. The belief is uniform over them: the target is drawn uniformly
and every result is a deterministic function of it, so the posterior is uniform on the
consistent set. Used by the engine (the timeout default for a pick), by ``determinize`` and by
the ``bayes`` bot.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

# Log entry kinds that carry a result about the target.
RESULT_KINDS = frozenset({"guess", "random_guess", "check", "random_check", "secret_result"})


def is_right(kind: str, x: int, direction: str, target: int) -> bool:
    """Whether a hi-lo guess is right (rules 2.1, 2.2, 2.5, 2.6).

    ``X == target`` is wrong for the named guesses (2.1, 2.5, 2.6) and right for the host's
    random X (2.2).

    Args:
        kind: ``random_guess`` for 2.2, anything else for a named guess.
        x: The X of the guess.
        direction: ``high`` (target above X) or ``low`` (target below X).
        target: The target.
    """
    if kind == "random_guess":
        return target >= x if direction == "high" else target <= x
    return target > x if direction == "high" else target < x


@dataclass(frozen=True)
class Belief:
    """The targets still possible: ``lo..hi`` without ``excluded``.

    Attributes:
        lo: Smallest possible target.
        hi: Largest possible target.
        excluded: Numbers inside ``lo..hi`` known not to be the target (missed checks), sorted.
    """

    lo: int
    hi: int
    excluded: tuple[int, ...] = field(default=())

    @classmethod
    def full(cls, max_number: int) -> Belief:
        """Nothing known: every number in ``0..max_number``."""
        return cls(0, max_number)

    @property
    def count(self) -> int:
        """How many targets are possible."""
        return max(0, self.hi - self.lo + 1 - len(self.excluded))

    def known(self) -> int | None:
        """The target, if only one is possible."""
        return self.candidate(0) if self.count == 1 else None

    def __contains__(self, x: object) -> bool:
        return isinstance(x, int) and self.lo <= x <= self.hi and not _has(self.excluded, x)

    def count_below(self, x: int) -> int:
        """How many possible targets are < ``x``."""
        top = min(x - 1, self.hi)
        if top < self.lo:
            return 0
        return top - self.lo + 1 - bisect.bisect_right(self.excluded, top)

    def count_above(self, x: int) -> int:
        """How many possible targets are > ``x``."""
        return self.count - self.count_below(x + 1)

    def candidate(self, k: int) -> int:
        """The ``k``-th possible target (0-based, increasing)."""
        if not 0 <= k < self.count:
            raise IndexError(k)
        x = self.lo + k
        # Skip the excluded numbers at or below x; each one pushes x up by one.
        for e in self.excluded:
            if e <= x:
                x += 1
            else:
                break
        return x

    def median(self) -> int:
        """The lower median of the possible targets (the X that halves them)."""
        return self.candidate((self.count - 1) // 2)

    def sample(self, rng: random.Random) -> int:
        """A possible target drawn uniformly."""
        return self.candidate(rng.randrange(self.count))

    # --- narrowing ----------------------------------------------------------------------------
    def at_least(self, x: int) -> Belief:
        """Keep targets >= ``x``."""
        return self._clip(max(self.lo, x), self.hi)

    def at_most(self, x: int) -> Belief:
        """Keep targets <= ``x``."""
        return self._clip(self.lo, min(self.hi, x))

    def without(self, x: int) -> Belief:
        """Drop ``x`` (a missed check)."""
        if x not in self:
            return self
        return self._clip(self.lo, self.hi, (*self.excluded, x))

    def _clip(self, lo: int, hi: int, excluded: Iterable[int] | None = None) -> Belief:
        ex = sorted(e for e in (self.excluded if excluded is None else excluded) if lo <= e <= hi)
        # Excluded numbers at the ends just move the ends.
        while ex and lo <= hi and ex[0] == lo:
            ex.pop(0)
            lo += 1
        while ex and lo <= hi and ex[-1] == hi:
            ex.pop()
            hi -= 1
        return Belief(lo, hi, tuple(ex))

    def result(self, kind: str, x: int, direction: str | None, right: bool) -> Belief:
        """Narrow by one result: a hi-lo guess of ``kind`` (``right`` or not) or a missed check."""
        if kind in ("check", "random_check"):
            return self._clip(x, x) if right else self.without(x)
        random_x = kind == "random_guess"
        # What the result says: target in a half-line. 2.2 counts X == target as right.
        says_above = (direction == "high") == right
        if says_above:
            # high & right: target > X (2.2: >= X); low & wrong: target >= X (2.2: > X).
            strict = (direction == "high") != random_x
            return self.at_least(x + 1 if strict else x)
        # low & right: target < X (2.2: <= X); high & wrong: target <= X (2.2: < X).
        strict = (direction == "low") != random_x
        return self.at_most(x - 1 if strict else x)

    def apply_log(self, log: Iterable[Mapping[str, Any]], seat: int | None) -> Belief:
        """Narrow by every result in ``log`` (event dicts) that ``seat`` may see.

        Public results are read by everyone; ``secret_result`` entries only by their owner
        (``seat``), and a view only contains one's own anyway.
        """
        belief = self
        for entry in log:
            kind = entry["kind"]
            if kind not in RESULT_KINDS:
                continue
            data = entry["data"]
            if kind == "secret_result":
                if seat is None or data["seat"] != seat:
                    continue
                belief = belief.result("guess", data["x"], data["direction"], data["right"])
            elif kind in ("check", "random_check"):
                belief = belief.result(kind, data["x"], None, data["hit"])
            else:
                belief = belief.result(kind, data["x"], data["direction"], data["right"])
        return belief


def _has(sorted_values: tuple[int, ...], x: int) -> bool:
    i = bisect.bisect_left(sorted_values, x)
    return i < len(sorted_values) and sorted_values[i] == x


def public_belief(log: Iterable[Mapping[str, Any]], max_number: int) -> Belief:
    """What everyone knows from the public log."""
    return Belief.full(max_number).apply_log(log, None)


def belief_of(log: Iterable[Mapping[str, Any]], max_number: int, seat: int | None) -> Belief:
    """What ``seat`` knows: the public log and its own secret results."""
    return Belief.full(max_number).apply_log(log, seat)
