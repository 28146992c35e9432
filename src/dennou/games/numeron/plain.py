"""What the Numeron search bots decide without compiled code: the opening of every game.

Rules: ``docs/games/numeron.md``. The ``optimal`` and ``race`` bots follow the shipped optimal
strategy (:func:`tree`, ``optimum{digits}.json``) while the candidate set is one of its nodes,
which is every call of a game without items. Following it needs only NumPy: the tree, the
judgments of one call (:func:`codes`, from the knowledge module's digit tables), a node's key
(:func:`set_key`) and the game's digit relabelling (:func:`relabel_rank`). The Numba kernels
(:mod:`dennou.games.numeron.optimum`, :mod:`dennou.games.numeron.solver`) are imported only by
the decisions that search, so a new process's first decisions never wait for them.

Also here: the solvers' choice while their kernels load (:func:`play_on`) and DOUBLE's reveal.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from dennou.core.actions import Action
from dennou.core.game import JSON
from dennou.games.numeron.actions import (
    Call,
    Change,
    Decline,
    HighLow,
    Move,
    NoItem,
    Shuffle,
    Slash,
    Target,
)
from dennou.games.numeron.knowledge import Candidates, digit_matrix, judge_all, knowledge
from dennou.games.numeron.state import all_numbers

IntArray = npt.NDArray[np.int64]

SEARCHING = frozenset({"call", "attack_item", "defence"})
"""The phases in which the solvers may run compiled code."""


def hit_code(digits: int) -> int:
    """The judgment code (``EAT * (digits + 1) + BITE``) of an all-EAT call (Numeron)."""
    return digits * (digits + 1)


@lru_cache(maxsize=2048)
def _row(digits: int, call: int) -> npt.NDArray[np.uint8]:
    """The judgment codes of one call on every number (kept for the calls a game repeats)."""
    eat, bite = judge_all(digits, all_numbers(digits)[call])
    row: npt.NDArray[np.uint8] = (eat * (digits + 1) + bite).astype(np.uint8)
    row.flags.writeable = False
    return row


def codes(digits: int, call: int, numbers: IntArray) -> npt.NDArray[np.uint8]:
    """The judgment code of the call with index ``call`` on each number (index) in ``numbers``.

    A code is ``EAT * (digits + 1) + BITE``.
    """
    out: npt.NDArray[np.uint8] = _row(digits, call)[numbers]
    return out


def set_key(s: IntArray) -> bytes:
    """A set of numbers (sorted indices) as a dictionary key (exact: no hash collisions)."""
    return np.ascontiguousarray(s, dtype=np.int64).tobytes()


# --- the shipped trees ----------------------------------------------------------------------
@dataclass(frozen=True)
class Tree:
    """A calling strategy as a tree: node 0 is the first call.

    Attributes:
        digits: Length of the numbers.
        calls: The call (index into ``all_numbers(digits)``) at each node.
        children: ``children[node, code]``: the node after judgment ``code`` (-1: none, or the
            call hit).
    """

    digits: int
    calls: IntArray
    children: IntArray

    def calls_per_secret(self) -> IntArray:
        """How many calls the strategy makes on each secret (judged by the engine's rule)."""
        hit = hit_code(self.digits)
        n = len(all_numbers(self.digits))
        out = np.zeros(n, dtype=np.int64)
        for secret in range(n):
            node, k = 0, 0
            while True:
                k += 1
                code = int(_row(self.digits, int(self.calls[node]))[secret])
                if code == hit:
                    break
                node = int(self.children[node, code])
                if node < 0:
                    raise ValueError(f"the tree has no branch for secret {secret}")
            out[secret] = k
        return out

    def to_json(self) -> dict[str, Any]:
        """A compact JSON form: per node, the call and its ``(code, child)`` pairs."""
        nodes = []
        for node in range(len(self.calls)):
            kids = [[int(r), int(c)] for r, c in enumerate(self.children[node]) if c >= 0]
            nodes.append([int(self.calls[node]), kids])
        return {"digits": self.digits, "nodes": nodes}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Tree:
        """Inverse of :meth:`to_json`."""
        digits = int(data["digits"])
        nodes = data["nodes"]
        nresp = (digits + 1) ** 2
        calls = np.array([c for c, _ in nodes], dtype=np.int64)
        children = np.full((len(nodes), nresp), -1, dtype=np.int64)
        for i, (_, kids) in enumerate(nodes):
            for r, c in kids:
                children[i, r] = c
        return Tree(digits, calls, children)


@cache
def tree(digits: int) -> Tree | None:
    """The shipped optimal strategy for ``digits`` (``None`` if none is shipped)."""
    name = f"optimum{digits}.json"
    path = resources.files("dennou.games.numeron").joinpath(name)
    if not path.is_file():
        return None
    return Tree.from_json(json.loads(path.read_text()))


# --- the relabelling ------------------------------------------------------------------------
def relabel_rank(digits: int, rng: random.Random) -> IntArray:
    """The numbers renamed by a uniformly drawn permutation ``sigma`` of the digit values 0-9.

    ``rank[i]`` is the index of the number ``i`` once each digit ``x`` is renamed ``sigma(x)``;
    with the identity it is ``i``. Renaming digit values in both the call and the secret
    changes no judgment (EAT and BITE compare digits only for equality, position by position),
    so a strategy relabelled by ``sigma`` hits the secret ``sigma(s)`` with exactly the calls the
    strategy needs for ``s``: the same strength. As the digit permutations send any number to
    every number equally often, a uniform ``sigma`` makes the calls a secret costs those of a
    uniformly drawn secret: the optimum on average for *every* secret.
    """
    sigma = list(range(10))
    rng.shuffle(sigma)
    t = digit_matrix(digits).astype(np.int64)
    mapped = np.array(sigma, dtype=np.int64)[t]
    codes_ = np.zeros(len(t), dtype=np.int64)
    for col in range(digits):
        codes_ = codes_ * 10 + mapped[:, col]
    lookup = np.full(10**digits, -1, dtype=np.int64)
    base = np.zeros(len(t), dtype=np.int64)
    for col in range(digits):
        base = base * 10 + t[:, col]
    lookup[base] = np.arange(len(t))
    rank: IntArray = lookup[codes_]
    return rank


# --- without a search -----------------------------------------------------------------------
def best_reveal(theirs: Candidates) -> int:
    """The position of the opponent's digit to see that leaves the fewest expected candidates."""
    t = digit_matrix(theirs.digits)[theirs.mask]
    best, where = float("inf"), 0
    for p in range(theirs.digits):
        counts = np.bincount(t[:, p], minlength=10).astype(np.float64)
        value = float((counts**2).sum())
        if value < best:
            best, where = value, p
    return where


def play_on(view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
    """The solvers' choice while their code compiles (:mod:`dennou.core.native`).

    A call: a random number still possible for the opponent's secret; no item; no defence;
    anything else (the secret): at random.
    """
    phase = view["phase"]
    if phase == "call":
        digits = view["rules"]["digits"]
        mine = knowledge(view["log"], digits, 1 - view["seat"])
        possible = np.flatnonzero(mine.mask) if mine.count else np.arange(len(mine.mask))
        return Call(all_numbers(digits)[int(possible[rng.randrange(len(possible))])])
    if phase == "attack_item" and NoItem() in legal:
        return NoItem()
    if phase == "defence" and Decline() in legal:
        return Decline()
    return legal[rng.randrange(len(legal))]


def item_partition(digits: int, action: Action, cands: IntArray) -> list[IntArray]:
    """The candidates split by what an information item would answer."""
    t = digit_matrix(digits)[cands].astype(np.int64)
    if isinstance(action, HighLow):
        key = ((t >= 5) * (1 << np.arange(digits))).sum(axis=1)
    elif isinstance(action, Slash):
        key = t.max(axis=1) - t.min(axis=1)
    elif isinstance(action, Target):
        hits = t == action.digit
        key = np.where(hits.any(axis=1), hits.argmax(axis=1), digits)
    else:
        return [cands]
    return [cands[key == k] for k in np.unique(key)]


def new_number(number: str, action: Action) -> str:
    """The number after the defence item ``action`` (SHUFFLE, CHANGE or MOVE) on ``number``."""
    if isinstance(action, Shuffle):
        return action.number
    if isinstance(action, Change):
        p = action.position
        return number[:p] + str(action.digit) + number[p + 1 :]
    assert isinstance(action, Move)
    digits = list(number)
    digits[action.source] = str(int(digits[action.source]) - action.amount)
    digits[action.target] = str(int(digits[action.target]) + action.amount)
    return "".join(digits)
