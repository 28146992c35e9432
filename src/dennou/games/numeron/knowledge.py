"""What an observer can know about one secret number: the set of numbers still possible.

The set is a boolean mask over :func:`~dennou.games.numeron.state.all_numbers` and is narrowed
(or, after a defence item, widened) by every event the observer saw, in order. It serves
``determinize`` (sample a consistent number) and the solver bot (choose informative calls).
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from dennou.core.game import Event
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


@cache
def _at(digits: int) -> npt.NDArray[np.int8]:
    """``[position, digit]``: 1 for every number with ``digit`` at ``position``, else 0."""
    t = digit_matrix(digits)
    at = np.zeros((digits, 10, len(t)), dtype=np.int8)  # a row per (position, digit)
    rows = np.arange(len(t))
    for p in range(digits):
        at[p, t[:, p], rows] = 1
    return at


@cache
def _holds(digits: int) -> npt.NDArray[np.int8]:
    """``[digit]``: 1 for every number holding ``digit`` anywhere, else 0."""
    holds: npt.NDArray[np.int8] = _at(digits).sum(axis=0, dtype=np.int8)
    return holds


def judge_all(digits: int, call: str) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """EAT and BITE of ``call`` against every number of ``digits`` digits.

    Sums of one row per digit of the call (the numbers with that digit there, the numbers with
    that digit anywhere): a few additions over the numbers, the cost of every judged call.
    """
    at, holds = _at(digits), _holds(digits)
    eat = at[0, int(call[0])].copy()
    common = holds[int(call[0])].copy()
    for p in range(1, len(call)):
        d = int(call[p])
        eat += at[p, d]
        common += holds[d]
    common -= eat
    return eat, common


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
    for event in log:
        kind = event["kind"]
        data = event.get("data", {})
        if concerns(kind, data) == owner:
            learn(cands, kind, data)
    return cands


_ATTACK_RESULTS = frozenset({"high_low", "target", "slash"})
_DEFENCES = frozenset({"shuffle", "change", "move"})


def concerns(kind: str, data: Mapping[str, Any]) -> int | None:
    """The seat whose number an event tells something about (``None``: no one's).

    A call or an attack item's result tells about the attacker's opponent's number; a reveal
    about its owner's; a defence item about its user's (it widens what is possible).
    """
    if kind == "call":
        return 1 - int(data["seat"])
    if kind == "item_result":
        return 1 - int(data["seat"]) if data["item"] in _ATTACK_RESULTS else None
    if kind == "revealed":
        return int(data["owner"])
    if kind == "item":
        return int(data["seat"]) if data["item"] in _DEFENCES else None
    return None


def learn(cands: Candidates, kind: str, data: Mapping[str, Any]) -> None:
    """Narrow (or widen) ``cands`` by one event about their number (see :func:`concerns`)."""
    if kind == "call":
        cands.judged(data["number"], data["eat"], data["bite"])
        return
    if kind == "revealed":
        cands.revealed(data["position"], data["digit"])
        return
    item = data["item"]
    if item == "high_low":
        cands.high_low(data["result"])
    elif item == "target":
        cands.target(data["digit"], data["position"])
    elif item == "slash":
        cands.slash(data["result"])
    elif item == "shuffle":
        cands.shuffled()
    elif item == "change":
        cands.changed(data["position"], data["class"] == "HIGH")
    elif item == "move":
        cands.moved(data["source"], data["target"])


Known = tuple[tuple[Candidates, Candidates], ...]
"""Per audience (seat 0, seat 1, then every event), per owner: what the events say."""

EVERYTHING = 2
"""The audience index of every event (a finished game shows them all)."""


class LogKnowledge:
    """What a state's event log says about each number, per audience, kept as logs grow.

    ``knowledge`` over the events each seat may see costs a pass over the whole log; a learning
    env asks for it at every step. A state's log only grows by appending (``Log``), so the
    answer for a log is the answer for a remembered shorter log (found by the identity of its
    last event, which only logs descending from that step hold) updated by the new events:
    a constant cost per step, however long the game. A bounded number of logs is remembered;
    anything else is computed from the start. The :class:`Candidates` given are shared: read
    them, never change them.

    Args:
        digits: Length of the numbers.
        size: How many logs to remember.
    """

    REACH = 64
    """How far back from a log's end to look for a remembered log."""

    def __init__(self, digits: int, size: int = 64) -> None:
        self.digits = digits
        self._size = size
        start = Candidates(digits)
        self._start: Known = ((start, start), (start, start), (start, start))
        # id(last event) -> (that event, the log's length, what the log says)
        self._logs: OrderedDict[int, tuple[Event, int, Known]] = OrderedDict()

    def __getstate__(self) -> dict[str, Any]:
        # an encoding pickled to another process (vector envs) leaves the remembered logs
        # behind: the copy starts empty
        return {"digits": self.digits, "size": self._size}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["digits"], state["size"])  # type: ignore[misc]

    def of(self, log: Sequence[Event]) -> Known:
        """What the events of ``log`` say, ``[audience][owner]`` (audience 2: every event)."""
        n = len(log)
        if not n:
            return self._start
        known = self._known(log, n - 1)
        if known is None:
            start, known = 0, self._start
            for i in range(n - 2, max(-1, n - 2 - self.REACH), -1):
                base = self._known(log, i)
                if base is not None:
                    start, known = i + 1, base
                    break
            for i in range(start, n):
                known = _advance(known, log[i])
        self._logs[id(log[n - 1])] = (log[n - 1], n, known)
        self._logs.move_to_end(id(log[n - 1]))
        while len(self._logs) > self._size:
            self._logs.popitem(last=False)
        return known

    def _known(self, log: Sequence[Event], i: int) -> Known | None:
        found = self._logs.get(id(log[i]))
        if found is not None and found[0] is log[i] and found[1] == i + 1:
            return found[2]
        return None


def _advance(known: Known, event: Event) -> Known:
    """``known`` after one more event (each audience that sees it learns from it)."""
    owner = concerns(event.kind, event.data)
    if owner is None:
        return known
    rows = [list(row) for row in known]
    learned: dict[int, Candidates] = {}  # audiences sharing candidates share the update
    for audience, row in enumerate(rows):
        if audience != EVERYTHING and not event.visible_to(audience):
            continue
        old = row[owner]
        new = learned.get(id(old))
        if new is None:
            new = old.copy()
            learn(new, event.kind, event.data)
            learned[id(old)] = new
        row[owner] = new
    return tuple((row[0], row[1]) for row in rows)
