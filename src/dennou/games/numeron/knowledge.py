"""What an observer can know about one secret number: the set of numbers still possible.

The set is a boolean mask over :func:`~dennou.games.numeron.state.all_numbers` and is narrowed
(or, after a defence item, widened) by every event the observer saw, in order. It serves
``determinize`` (sample a consistent number) and the solver bot (choose informative calls).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from dennou.games.numeron.state import all_numbers

Mask = npt.NDArray[np.bool_]


@cache
def digit_matrix(digits: int) -> npt.NDArray[np.int8]:
    """Every number of ``digits`` distinct digits as a ``(N, digits)`` array of digits."""
    return np.array([[int(c) for c in n] for n in all_numbers(digits)], dtype=np.int8)


@cache
def digit_sets(digits: int) -> npt.NDArray[np.int32]:
    """Every number's set of digits as a 10-bit mask."""
    sets: npt.NDArray[np.int32] = np.bitwise_or.reduce(
        np.left_shift(1, digit_matrix(digits).astype(np.int32)), axis=1
    )
    return sets


@cache
def index_of(digits: int) -> dict[str, int]:
    """Number text -> its index in :func:`digit_matrix`."""
    return {n: i for i, n in enumerate(all_numbers(digits))}


_POPCOUNT = np.array([bin(x).count("1") for x in range(1024)], dtype=np.int8)


def judge_all(digits: int, call: str) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """EAT and BITE of ``call`` against every number of ``digits`` digits."""
    t = digit_matrix(digits)
    c = np.array([int(ch) for ch in call], dtype=np.int8)
    eat = (t == c).sum(axis=1).astype(np.int8)
    cbits = int(np.bitwise_or.reduce(np.left_shift(1, c.astype(np.int32))))
    common = _POPCOUNT[digit_sets(digits) & cbits]
    return eat, (common - eat).astype(np.int8)


class Candidates:
    """The numbers a secret may be, from one observer's point of view.

    Args:
        digits: Length of the numbers.
    """

    def __init__(self, digits: int) -> None:
        self.digits = digits
        self.mask: Mask = np.ones(len(all_numbers(digits)), dtype=np.bool_)

    def copy(self) -> Candidates:
        """An independent copy."""
        other = Candidates(self.digits)
        other.mask = self.mask.copy()
        return other

    @property
    def count(self) -> int:
        """How many numbers are still possible."""
        return int(self.mask.sum())

    def numbers(self) -> list[str]:
        """The possible numbers, in increasing order."""
        pool = all_numbers(self.digits)
        return [pool[i] for i in np.flatnonzero(self.mask)]

    def sample(self, rng: random.Random) -> str:
        """A possible number drawn uniformly (any number if none is possible)."""
        idx = np.flatnonzero(self.mask)
        pool = all_numbers(self.digits)
        if len(idx) == 0:
            return pool[rng.randrange(len(pool))]
        return pool[int(idx[rng.randrange(len(idx))])]

    # --- narrowing --------------------------------------------------------------------------
    def exactly(self, number: str) -> None:
        """The number is known."""
        self.mask[:] = False
        self.mask[index_of(self.digits)[number]] = True

    def judged(self, call: str, eat: int, bite: int) -> None:
        """A call was judged ``eat``-``bite``."""
        e, b = judge_all(self.digits, call)
        self.mask &= (e == eat) & (b == bite)

    def high_low(self, pattern: Iterable[str]) -> None:
        """HIGH&LOW answered ``pattern`` (``HIGH``/``LOW`` per position)."""
        want = np.array([p == "HIGH" for p in pattern])
        self.mask &= ((digit_matrix(self.digits) >= 5) == want).all(axis=1)

    def target(self, digit: int, position: int | None) -> None:
        """TARGET ``digit`` answered ``position`` (``None``: not in the number)."""
        t = digit_matrix(self.digits)
        if position is None:
            self.mask &= ~(t == digit).any(axis=1)
        else:
            self.mask &= t[:, position] == digit

    def slash(self, value: int) -> None:
        """SLASH answered ``value`` (largest digit minus smallest)."""
        t = digit_matrix(self.digits)
        self.mask &= (t.max(axis=1) - t.min(axis=1)) == value

    def revealed(self, position: int, digit: int) -> None:
        """DOUBLE's price showed ``digit`` at ``position``."""
        self.mask &= digit_matrix(self.digits)[:, position] == digit

    # --- widening after the owner's defence items --------------------------------------------
    def shuffled(self) -> None:
        """SHUFFLE: any order of any possible number's digits."""
        sets = digit_sets(self.digits)
        self.mask = np.isin(sets, np.unique(sets[self.mask]))

    def changed(self, position: int, high: bool) -> None:
        """CHANGE at ``position`` to another digit of the class HIGH (5-9) or LOW (0-4)."""
        t = digit_matrix(self.digits)
        others = _code_without(t, position)
        here = t[:, position].astype(np.int64)
        in_class = (here >= 5) == high
        # y is reachable when some possible x with y's other digits had at `position` a digit
        # of the class other than y's.
        held = np.zeros(int(others.max()) + 1, dtype=np.int64)
        src = self.mask & in_class
        np.bitwise_or.at(held, others[src], np.left_shift(1, here[src]))
        self.mask = in_class & ((held[others] & ~np.left_shift(1, here)) != 0)

    def moved(self, source: int, target: int) -> None:
        """MOVE from ``source`` to ``target`` by an unknown amount k >= 1."""
        t = digit_matrix(self.digits).astype(np.int64)
        total = t[:, source] + t[:, target]
        key = _code_without(t, source, target) * 19 + total
        # y is reachable when some possible x with y's other digits and the same sum at the two
        # positions had a larger digit at `source`.
        best = np.full(int(key.max()) + 1, -1, dtype=np.int64)
        np.maximum.at(best, key[self.mask], t[self.mask, source])
        self.mask = best[key] > t[:, source]


def _code_without(t: npt.NDArray[Any], *positions: int) -> npt.NDArray[np.int64]:
    """Encode each row as an integer, with the digits at ``positions`` left out."""
    code = np.zeros(len(t), dtype=np.int64)
    for col in range(t.shape[1]):
        if col not in positions:
            code = code * 10 + t[:, col]
    return code


def knowledge(
    log: Iterable[Mapping[str, Any]], digits: int, owner: int, *, start: Candidates | None = None
) -> Candidates:
    """What the events in ``log`` (as views show them) say about ``owner``'s number.

    Args:
        log: Event dicts (``kind``, ``data``) in order, as the observer saw them.
        digits: Length of the numbers.
        owner: The seat whose number is sought.
        start: Candidates to start from (default: every number).
    """
    cands = start.copy() if start is not None else Candidates(digits)
    attacker = 1 - owner
    for event in log:
        kind = event["kind"]
        data = event.get("data", {})
        if kind == "call" and data["seat"] == attacker:
            cands.judged(data["number"], data["eat"], data["bite"])
        elif kind == "item_result" and data["seat"] == attacker:
            item = data["item"]
            if item == "high_low":
                cands.high_low(data["result"])
            elif item == "target":
                cands.target(data["digit"], data["position"])
            elif item == "slash":
                cands.slash(data["result"])
        elif kind == "revealed" and data["owner"] == owner:
            cands.revealed(data["position"], data["digit"])
        elif kind == "item" and data["seat"] == owner:
            item = data["item"]
            if item == "shuffle":
                cands.shuffled()
            elif item == "change":
                cands.changed(data["position"], data["class"] == "HIGH")
            elif item == "move":
                cands.moved(data["source"], data["target"])
    return cands
