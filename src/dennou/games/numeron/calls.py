"""Distributions of the calls a Numeron set of candidates still needs: the race model.

The ``race`` and ``optimal`` bots (:mod:`dennou.games.numeron.race`) and their item choices
(:mod:`dennou.games.numeron.items`) value every option with these: a shipped optimal tree gives,
per node, how many of its numbers each later call hits; sets off the tree take the average of
the tree's sets of their size.
"""

from __future__ import annotations

from functools import cache, cached_property

import numpy as np
import numpy.typing as npt

from dennou.games.numeron.plain import Tree, codes, hit_code, tree
from dennou.games.numeron.state import all_numbers

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

MAX_CALLS = 16
"""Longest distribution of calls kept (no strategy here needs more than 10 with 4 digits)."""


class Book:
    """A shipped tree, its nodes found by their sets and, per node, the calls left.

    Everything is computed on demand with NumPy alone (no compiled code), so the first decisions
    of a new process cost a few array operations: :meth:`node_of` walks down from the root,
    :meth:`dist` walks one node's subtree, and only :attr:`by_size` (the model for sets off the
    tree) walks the whole tree, once.

    Args:
        tree: The strategy.
    """

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.digits = tree.digits
        self.size = len(all_numbers(tree.digits))
        self._dist: dict[int, IntArray] = {}

    def node_of(self, s: IntArray) -> int | None:
        """The node whose set is ``s`` (sorted indices), if the tree has one.

        Every node's set is its parent's part for one judgment, so the only candidate is found
        by following the judgment of ``s``'s members from the root.
        """
        n = len(s)
        if n == 0:
            return None
        t, hit = self.tree, hit_code(self.digits)
        node, here = 0, np.arange(self.size, dtype=np.int64)
        while True:
            if len(here) == n:  # s is a subset of every set on the way: equal sizes, equal sets
                return node if np.array_equal(here, s) else None
            call = int(t.calls[node])
            mine = codes(self.digits, call, s)
            r = int(mine[0])
            if r == hit or not (mine == r).all():
                return None
            here = here[codes(self.digits, call, here) == r]
            node = int(t.children[node, r])
            if node < 0:
                return None

    def dist(self, node: int, s: IntArray) -> IntArray:
        """How many of ``s`` (the set of ``node``) the strategy hits with each call from there.

        ``out[j]``: with its ``j``-th call from that node.
        """
        found = self._dist.get(node)
        if found is not None:
            return found
        t, hit = self.tree, hit_code(self.digits)
        out = np.zeros(MAX_CALLS + 1, dtype=np.int64)
        call = int(t.calls[node])
        got = codes(self.digits, call, s)
        for r in np.flatnonzero(np.bincount(got)):
            if r == hit:
                out[1] += 1
                continue
            sub = self.dist(int(t.children[node, r]), s[got == r])
            out[2:] += sub[1:-1]
        self._dist[node] = out
        return out

    @cached_property
    def by_size(self) -> FloatArray:
        """The model for sets off the tree: calls left by the size of the set.

        ``by_size[m, j]``: the average of ``dist / m`` over nodes of ``m`` numbers (the nearest
        size where no node has exactly ``m``).
        """
        t, hit = self.tree, hit_code(self.digits)
        n_nodes = len(t.calls)
        sizes = np.zeros(n_nodes, dtype=np.int64)

        def walk(node: int, s: IntArray) -> None:
            sizes[node] = len(s)
            got = codes(self.digits, int(t.calls[node]), s)
            for r in np.flatnonzero(np.bincount(got)):
                if r != hit:
                    walk(int(t.children[node, r]), s[got == r])

        everyone = np.arange(self.size, dtype=np.int64)
        walk(0, everyone)
        self.dist(0, everyone)  # fills every node's distribution
        dist = np.array([self._dist[node] for node in range(n_nodes)])
        n = self.size
        by_size = np.zeros((n + 1, MAX_CALLS + 1))
        counts = np.zeros(n + 1)
        np.add.at(by_size, sizes, dist / sizes[:, None])
        np.add.at(counts, sizes, 1.0)
        have = np.flatnonzero(counts)
        by_size[have] /= counts[have][:, None]
        by_size[1] = 0.0
        by_size[1, 1] = 1.0
        by_size[2] = 0.0
        by_size[2, 1:3] = 0.5
        # Sizes no node has: the nearest size that has one (larger first: sets off the tree are
        # seldom easier than the tree's own).
        for m in range(3, n + 1):
            if counts[m] == 0:
                up = have[have > m]
                down = have[have < m]
                src = up[0] if len(up) else down[-1]
                by_size[m] = by_size[src]
        return by_size


@cache
def book(digits: int) -> Book | None:
    """The book for ``digits`` (``None`` without a shipped tree)."""
    t = tree(digits)
    return None if t is None else Book(t)


def size_model(digits: int, m: int) -> FloatArray:
    """The distribution of calls left for a set of ``m`` numbers off the tree."""
    b = book(digits)
    if m <= 0:
        out = np.zeros(MAX_CALLS + 1)
        return out
    if b is not None:
        row: FloatArray = b.by_size[min(m, len(b.by_size) - 1)]
        return row
    # 5 digits: a spread around the fitted estimate (n (a + b ln n)); only the race's
    # weighting uses it.
    from dennou.games.numeron.solver import estimated_calls  # compiled code: only 5 digits

    mean = estimated_calls(digits, m)
    out = np.zeros(MAX_CALLS + 1)
    lo = int(np.floor(mean))
    frac = mean - lo
    out[max(1, min(lo, MAX_CALLS))] += 1 - frac
    out[max(1, min(lo + 1, MAX_CALLS))] += frac
    return out


def survival(dist: FloatArray) -> FloatArray:
    """``Q[j] = P(calls needed >= j)`` from a distribution over ``j = 0..MAX_CALLS``."""
    total = dist.sum()
    if total <= 0:
        return np.zeros(MAX_CALLS + 2)
    p = dist / total
    q = np.zeros(MAX_CALLS + 2)
    q[: MAX_CALLS + 1] = p[::-1].cumsum()[::-1]
    return q
