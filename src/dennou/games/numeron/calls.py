"""Distributions of the calls a Numeron set of candidates still needs: the race model.

The ``race`` and ``optimal`` bots (:mod:`dennou.games.numeron.race`) and their item choices
(:mod:`dennou.games.numeron.items`) value every option with these: a shipped optimal tree gives,
per node, how many of its numbers each later call hits; sets off the tree take the average of
the tree's sets of their size.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from dennou.games.numeron.optimum import Tree, _hash, hit_code, tree
from dennou.games.numeron.solver import estimated_calls, judge_table
from dennou.games.numeron.state import all_numbers

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

MAX_CALLS = 16
"""Longest distribution of calls kept (no strategy here needs more than 10 with 4 digits)."""


@dataclass
class Book:
    """A shipped tree with, per node, its set's hash and the distribution of calls left.

    Attributes:
        tree: The strategy.
        node_of: Hash of a node's set (sorted indices) -> node.
        dist: ``dist[node, j]``: how many of the node's numbers the strategy hits with its
            ``j``-th call from that node.
        by_size: ``by_size[m, j]``: the average of ``dist / m`` over nodes of ``m`` numbers
            (nearest size where no node has exactly ``m``): the model for sets off the tree.
    """

    tree: Tree
    node_of: dict[int, int]
    dist: IntArray
    by_size: FloatArray


@cache
def book(digits: int) -> Book | None:
    """The book for ``digits`` (``None`` without a shipped tree)."""
    t = tree(digits)
    if t is None:
        return None
    tab = judge_table(digits)
    hit = hit_code(digits)
    n_nodes = len(t.calls)
    dist = np.zeros((n_nodes, MAX_CALLS + 1), dtype=np.int64)
    sizes = np.zeros(n_nodes, dtype=np.int64)
    node_of: dict[int, int] = {}

    def walk(node: int, s: IntArray) -> IntArray:
        node_of[int(_hash(s))] = node
        sizes[node] = len(s)
        out = np.zeros(MAX_CALLS + 1, dtype=np.int64)
        call = int(t.calls[node])
        codes = tab[call][s]
        for r in np.unique(codes):
            if r == hit:
                out[1] += 1
                continue
            sub = walk(int(t.children[node, r]), s[codes == r])
            out[2:] += sub[1:-1]
        dist[node] = out
        return out

    walk(0, np.arange(len(all_numbers(digits)), dtype=np.int64))
    n = len(all_numbers(digits))
    by_size = np.zeros((n + 1, MAX_CALLS + 1))
    counts = np.zeros(n + 1)
    for node in range(n_nodes):
        by_size[sizes[node]] += dist[node] / sizes[node]
        counts[sizes[node]] += 1
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
    return Book(t, node_of, dist, by_size)


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
