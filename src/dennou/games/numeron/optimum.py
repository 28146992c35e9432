"""Exact expected-calls search for Numeron without items, and the shipped optimal strategy trees.

Rules: ``docs/games/numeron.md`` (Judging). The quantity is ``T(S)``: over the secrets of a
set ``S`` that the past judgments leave, the least total of calls (the final all-EAT call
included) of any calling strategy, calls being any numbers of distinct digits::

    T({s}) = 1,  T({s, t}) = 3,
    T(S) = |S| + min over calls g of  sum over judgments r != all-EAT of  T(S_r(g))

:class:`Search` computes it by depth-first branch and bound (a Numba kernel):

* the **capacity bound**: a set of ``k`` numbers needs at least ``LB(k)`` calls in total, because
  one call hits at most 1 number, the next at most ``B`` (the non-hit judgments: 13 for 4
  digits, 8 for 3), the next ``B^2``...; a call's bound is ``|S| + sum LB(|part|)``, which orders
  the calls and prunes those that cannot beat the best so far;
* **symmetry**: digits that can be swapped without changing ``S`` (always the digits no call has
  used yet) make calls equivalent; one call per class is tried;
* **memo**: proven values and proven lower bounds, by set;
* **breadth** (``exact_below``, ``breadth``): sets of more than ``exact_below`` numbers try only
  their ``breadth`` most promising calls (by an estimate of the calls each part still needs;
  with ``rerank``, by a two-level estimate that also looks at each part's best next call). With
  ``exact_below`` at least the size of the first call's largest part, the search is exact; below
  that, it returns the value of the best strategy in that restricted family, an upper bound on
  the optimum that :meth:`Tree.calls_per_secret` then checks over every secret.

A solved strategy is stored as a :class:`Tree` (a flat array of nodes: the call and the child per
judgment) and shipped as ``optimum{digits}.json``; :func:`~dennou.games.numeron.plain.tree` loads
it. The bots follow it while the candidate set is one of its nodes, with NumPy alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt
from numba import types
from numba.typed import Dict

from dennou.games.numeron.knowledge import digit_matrix
from dennou.games.numeron.plain import Tree, hit_code

IntArray = npt.NDArray[np.int64]

CALL_BITS = 16
"""A memo entry packs ``value << CALL_BITS | call``."""


def capacity_bound(n: int, branches: int) -> IntArray:
    """``LB[k]`` for ``k = 0..n``: the least total of calls any strategy needs for ``k`` numbers.

    One number can be hit by the first call, at most ``branches`` by the second (one per non-hit
    judgment of the first), ``branches^2`` by the third, and so on.
    """
    out = np.zeros(n + 1, dtype=np.int64)
    for k in range(1, n + 1):
        left, depth, cap, total = k, 1, 1, 0
        while left > 0:
            take = min(cap, left)
            total += take * depth
            left -= take
            depth += 1
            cap = branches ** (depth - 1)
        out[k] = total
    return out


def estimate_table(n: int, digits: int) -> npt.NDArray[np.float64]:
    """An estimate of ``T`` for a set of ``k`` numbers (orders calls in the restricted breadth).

    ``k (a + b ln k)`` with ``a, b`` fitted on exact values (``T(1) = 1``, ``T(2) = 3``).
    """
    a, b = {3: (0.746, 0.649), 4: (0.731, 0.5305), 5: (0.72, 0.45)}[digits]
    k = np.arange(n + 1, dtype=np.float64)
    out = k * (a + b * np.log(np.maximum(k, 1.0)))
    out[0], out[1] = 0.0, 1.0
    if n >= 2:
        out[2] = 3.0
    return out


@cache
def branch_count(digits: int) -> int:
    """How many judgments other than all-EAT a call can get (8 for 3 digits, 13 for 4).

    EAT + BITE <= digits, less the impossible ``digits - 1`` EATs with 1 BITE and the hit.
    """
    return (digits + 1) * (digits + 2) // 2 - 2


@cache
def _swaps(digits: int) -> npt.NDArray[np.int64]:
    """For each of the 45 digit transpositions, the index of every number after the swap."""
    t = digit_matrix(digits).astype(np.int64)
    n = len(t)

    def codes(x: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        code = np.zeros(len(x), dtype=np.int64)
        for col in range(digits):
            code = code * 10 + x[:, col]
        return code

    lookup = np.full(10**digits, -1, dtype=np.int64)
    lookup[codes(t)] = np.arange(n)
    out = np.empty((45, n), dtype=np.int64)
    p = 0
    for x in range(10):
        for y in range(x + 1, 10):
            m = np.arange(10)
            m[x], m[y] = y, x
            out[p] = lookup[codes(m[t])]
            p += 1
    return out


# --- the memos -----------------------------------------------------------------------------
# Numba's typed dicts compile their Python-side methods afresh in every process (seconds, and
# never cached); made and read only through these cached kernels, a warm start costs nothing.
@nb.njit(cache=True)
def int_memo() -> Any:  # pragma: no cover - compiled
    """An empty ``int64 -> int64`` memo."""
    return Dict.empty(key_type=types.int64, value_type=types.int64)


@nb.njit(cache=True)
def float_memo() -> Any:  # pragma: no cover - compiled
    """An empty ``int64 -> float64`` memo."""
    return Dict.empty(key_type=types.int64, value_type=types.float64)


@nb.njit(cache=True)
def memo_get(memo: Any, key: int, default: Any) -> Any:  # pragma: no cover - compiled
    """``memo[key]``, or ``default`` when absent."""
    return memo.get(key, default)


@nb.njit(cache=True)
def memo_set(memo: Any, key: int, value: Any) -> None:  # pragma: no cover - compiled
    """``memo[key] = value``."""
    memo[key] = value


@nb.njit(cache=True)
def memo_has(memo: Any, key: int) -> bool:  # pragma: no cover - compiled
    """Whether ``key`` is in ``memo``."""
    return key in memo


@nb.njit(cache=True)
def memo_size(memo: Any) -> int:  # pragma: no cover - compiled
    """How many entries ``memo`` holds."""
    return len(memo)


@nb.njit(cache=True)
def memo_clear(memo: Any) -> None:  # pragma: no cover - compiled
    """Empty ``memo``."""
    memo.clear()


# --- the kernel ---------------------------------------------------------------------------
@nb.njit(cache=True)
def _hash(s: Any) -> Any:  # pragma: no cover - compiled
    h = np.uint64(14695981039346656037)
    prime = np.uint64(1099511628211)
    for x in s:
        h = (h ^ np.uint64(x + 1)) * prime
    h = (h ^ np.uint64(len(s))) * prime
    return np.int64(h >> np.uint64(1))


@nb.njit(cache=True)
def _classes(s: Any, swaps: Any, n_all: int) -> Any:  # pragma: no cover - compiled
    """Digit classes (a representative per digit) of swaps that map ``s`` onto itself."""
    parent = np.arange(10)
    mark = np.zeros(n_all, np.bool_)
    for x in s:
        mark[x] = True
    p = 0
    for x in range(10):
        for y in range(x + 1, 10):
            rx = x
            while parent[rx] != rx:
                rx = parent[rx]
            ry = y
            while parent[ry] != ry:
                ry = parent[ry]
            if rx != ry:
                ok = True
                row = swaps[p]
                for v in s:
                    if not mark[row[v]]:
                        ok = False
                        break
                if ok:
                    parent[max(rx, ry)] = min(rx, ry)
            p += 1
    for x in range(10):
        r = x
        while parent[r] != r:
            r = parent[r]
        parent[x] = r
    return parent


@nb.njit(cache=True)
def _canonical(t: Any, root: Any) -> Any:  # pragma: no cover - compiled
    """Whether each call is the representative of its class under the digit classes ``root``.

    A representative uses, within each class, the class's smallest digits in order of position.
    """
    n, d = t.shape
    # The members of each class in increasing order.
    members = np.full((10, 10), -1, np.int64)
    size = np.zeros(10, np.int64)
    for x in range(10):
        r = root[x]
        members[r, size[r]] = x
        size[r] += 1
    out = np.ones(n, np.bool_)
    used = np.zeros(10, np.int64)
    for g in range(n):
        used[:] = 0
        for k in range(d):
            x = t[g, k]
            r = root[x]
            if members[r, used[r]] != x:
                out[g] = False
                break
            used[r] += 1
    return out


@nb.njit(cache=True)
def _bounds(
    tab: Any, s: Any, calls: Any, lb: Any, est: Any, hit: int, nresp: int
) -> Any:  # pragma: no cover - compiled
    """Per call: capacity bound, estimate, largest part (non-hit), and whether it hits."""
    m = len(calls)
    n = len(s)
    bound = np.empty(m, np.int64)
    estimate = np.empty(m, np.float64)
    largest = np.empty(m, np.int64)
    block = np.empty((m, n), np.uint8)
    for i in range(n):
        row = tab[s[i]]
        for a in range(m):
            block[a, i] = row[calls[a]]
    hist = np.zeros(nresp, np.int64)
    for a in range(m):
        for i in range(n):
            hist[block[a, i]] += 1
        b = n
        e = float(n)
        big = 0
        for r in range(nresp):
            c = hist[r]
            if c and r != hit:
                b += lb[c]
                e += est[c]
                if c > big:
                    big = c
            hist[r] = 0
        bound[a] = b
        estimate[a] = e
        largest[a] = big
    return bound, estimate, largest


@nb.njit(cache=True)
def _two_level(
    tab: Any, s: Any, g: int, est: Any, hit: int, nresp: int
) -> Any:  # pragma: no cover - compiled
    """An estimate of ``V(s)`` after call ``g``: each part counted with its best next call.

    A part's best next call is the one with the least ``sum est[|sub-part|]``, over every call.
    """
    n_all = tab.shape[0]
    n = len(s)
    row = tab[g]
    counts = np.zeros(nresp, np.int64)
    for i in range(n):
        counts[row[s[i]]] += 1
    order = np.argsort(row[s], kind="mergesort")
    part = s[order]
    out = float(n)
    hist = np.zeros(nresp, np.int64)
    start = 0
    for r in range(nresp):
        c = counts[r]
        if c == 0:
            continue
        p = part[start : start + c]
        start += c
        if r == hit:
            continue
        if c <= 2:
            out += est[c]
            continue
        best = 1e300
        for h in range(n_all):
            hr = tab[h]
            for x in p:
                hist[hr[x]] += 1
            e = 0.0
            for q in range(nresp):
                if hist[q]:
                    if q != hit:
                        e += est[hist[q]]
                    hist[q] = 0
            if e < best:
                best = e
        out += c + best
    return out


@nb.njit(cache=True)
def _partition(
    s: Any, row: Any, nresp: int, codes: Any, counts: Any, starts: Any, sorted_s: Any
) -> None:  # pragma: no cover - compiled
    """Split ``s`` by the response ``row`` gives each of its numbers (a counting sort).

    Afterwards response ``r``'s numbers are ``sorted_s[starts[r]:starts[r + 1]]`` (in ``s``'s
    order) and ``counts[r]`` of them; ``codes[i]`` is ``s[i]``'s response.
    """
    counts[:] = 0
    for i in range(len(s)):
        c = row[s[i]]
        codes[i] = c
        counts[c] += 1
    starts[0] = 0
    for r in range(nresp):
        starts[r + 1] = starts[r] + counts[r]
    fill = starts[:nresp].copy()
    for i in range(len(s)):
        c = codes[i]
        sorted_s[fill[c]] = s[i]
        fill[c] += 1


@nb.njit(cache=True)
def _solve(
    s: Any,
    cutoff: int,
    tab: Any,
    t: Any,
    swaps: Any,
    lb: Any,
    est: Any,
    hit: int,
    nresp: int,
    exact_below: int,
    breadth: Any,
    rerank: int,
    memo: Any,
    lower: Any,
    stats: Any,
) -> Any:  # pragma: no cover - compiled
    """``V(s)`` if below ``cutoff`` (memoised with its call), else a lower bound >= ``cutoff``.

    ``V`` is ``T`` when ``len(s) <= exact_below``; larger sets try only ``breadth[len(s)]``
    calls.
    """
    n = len(s)
    if n <= 1:
        return n
    if n == 2:
        return 3
    key = _hash(s)
    if key in memo:
        return memo[key] >> 16
    known = 0
    if key in lower:
        known = lower[key]
        if known >= cutoff:
            return known
    stats[0] += 1
    n_all = tab.shape[0]
    root = _classes(s, swaps, n_all)
    canon = _canonical(t, root)
    incand = np.zeros(n_all, np.bool_)
    for x in s:
        incand[x] = True
    k = 0
    for g in range(n_all):
        if canon[g]:
            k += 1
    calls = np.empty(k, np.int64)
    k = 0
    for g in range(n_all):
        if canon[g]:
            calls[k] = g
            k += 1
    bound, estimate, largest = _bounds(tab, s, calls, lb, est, hit, nresp)
    # A call that leaves the whole set together (and is not in it) teaches nothing.
    for a in range(len(calls)):
        if largest[a] == n and not incand[calls[a]]:
            bound[a] = 1 << 40
    if n <= exact_below:
        # Order: bound, then estimate, then candidates first.
        keyv = bound.astype(np.float64) * 1e6 + estimate - incand[calls] * 0.5
        order = np.argsort(keyv, kind="mergesort")
        limit = len(order)
    else:
        keyv = estimate - incand[calls] * 1e-3 + (bound >= (1 << 40)) * 1e12
        full = np.argsort(keyv, kind="mergesort")
        # Calls with the same part sizes are nearly always mirror images (positions can be
        # permuted too, which the digit classes do not see): keep one of each, so that the
        # breadth is spent on different calls.
        width = breadth[n] * max(1, rerank)
        order = np.empty(min(width, len(full)), np.int64)
        limit = 0
        for a in full:
            if limit == len(order):
                break
            dup = False
            for b in order[:limit]:
                if keyv[b] == keyv[a] and bound[b] == bound[a]:
                    dup = True
                    break
            if not dup:
                order[limit] = a
                limit += 1
        order = order[:limit]
        if rerank > 1:
            # The one-level estimate misjudges parts that no call splits well: rank the
            # ``rerank * breadth`` best again with each part's best next call (by estimate).
            deeper = np.empty(limit, np.float64)
            for i in range(limit):
                deeper[i] = _two_level(tab, s, calls[order[i]], est, hit, nresp)
                deeper[i] -= incand[calls[order[i]]] * 1e-3
            order = order[np.argsort(deeper, kind="mergesort")[: breadth[n]]]
            limit = len(order)
        # Within the breadth, look at the lowest bounds first (earlier cut-offs).
        sub = bound[order].astype(np.float64) * 1e6 + estimate[order]
        order = order[np.argsort(sub, kind="mergesort")]
    best = cutoff
    best_call = -1
    codes = np.empty(n, np.int64)
    counts = np.zeros(nresp, np.int64)
    starts = np.zeros(nresp + 1, np.int64)
    sorted_s = np.empty(n, np.int64)
    for idx in range(limit):
        a = order[idx]
        if bound[a] >= best:
            if n <= exact_below:
                break
            continue
        g = calls[a]
        _partition(s, tab[g], nresp, codes, counts, starts, sorted_s)
        # Larger parts first: they decide most and cut off soonest.
        rs = np.argsort(-counts, kind="mergesort")
        rest = 0
        for r in range(nresp):
            if r != hit:
                rest += lb[counts[r]]
        total = n
        ok = True
        for j in range(nresp):
            r = rs[j]
            c = counts[r]
            if c == 0:
                break
            if r == hit:
                continue
            rest -= lb[c]
            part = sorted_s[starts[r] : starts[r + 1]].copy()
            total += _solve(
                part,
                best - total - rest,
                tab,
                t,
                swaps,
                lb,
                est,
                hit,
                nresp,
                exact_below,
                breadth,
                rerank,
                memo,
                lower,
                stats,
            )
            if total + rest >= best:
                ok = False
                break
        if ok and total < best:
            best = total
            best_call = g
    if best_call >= 0:
        memo[key] = (best << 16) | best_call
        return best
    lower[key] = max(known, cutoff)
    return cutoff


@dataclass
class Search:
    """One search's tables and memo (see the module docstring).

    Args:
        digits: Length of the numbers (3 or 4: the judgment table is ``N x N``).
        exact_below: Sets of at most this many numbers are solved exactly.
        breadth: Larger sets try only this many calls.
        wide: ``(size, breadth)``: sets of more than ``size`` numbers try ``breadth`` calls
            instead (the few large sets near the root deserve a wider look).
        rerank: Above 1, a set larger than ``exact_below`` first takes its ``rerank * breadth``
            most promising calls by the one-level estimate, then keeps the ``breadth`` best by a
            two-level one (each part counted with its own best next call): the one-level
            estimate misjudges parts that no call splits well.
    """

    digits: int
    exact_below: int = 1 << 30
    breadth: int = 8
    wide: tuple[int, int] | None = None
    rerank: int = 0

    def __post_init__(self) -> None:
        from dennou.games.numeron.solver import judge_table

        self.tab = judge_table(self.digits)
        self.t = digit_matrix(self.digits).astype(np.int64)
        self.n = len(self.t)
        self.hit = hit_code(self.digits)
        self.nresp = (self.digits + 1) ** 2
        self.lb = capacity_bound(self.n, branch_count(self.digits))
        self.est = estimate_table(self.n, self.digits)
        self.swaps = _swaps(self.digits)
        self.memo = int_memo()
        self.lower = int_memo()
        self.stats = np.zeros(4, dtype=np.int64)
        self.breadths = np.full(self.n + 1, self.breadth, dtype=np.int64)
        if self.wide is not None:
            self.breadths[self.wide[0] + 1 :] = self.wide[1]

    def solve(self, s: IntArray, cutoff: int = 1 << 40) -> int:
        """``V(s)`` (``T(s)`` within the exact size), or a bound >= ``cutoff``."""
        s = np.ascontiguousarray(np.sort(np.asarray(s, dtype=np.int64)))
        value: int = _solve(
            s,
            cutoff,
            self.tab,
            self.t,
            self.swaps,
            self.lb,
            self.est,
            self.hit,
            self.nresp,
            self.exact_below,
            self.breadths,
            self.rerank,
            self.memo,
            self.lower,
            self.stats,
        )
        return value

    def call_for(self, s: IntArray) -> int:
        """The call the solved strategy makes on ``s`` (``s`` must have been solved)."""
        s = np.ascontiguousarray(np.sort(np.asarray(s, dtype=np.int64)))
        if len(s) <= 2:
            return int(s[0])
        return int(memo_get(self.memo, int(_hash(s)), 0) & 0xFFFF)

    def optimum(self, first: int = 0) -> int:
        """The total over every secret, with the first call ``first``.

        Every first call is the same up to relabelling digits and positions.
        """
        everything = np.arange(self.n, dtype=np.int64)
        row = self.tab[first]
        total = self.n
        for r in np.unique(row):
            if r != self.hit:
                total += self.solve(everything[row == r])
        memo_set(self.memo, int(_hash(everything)), (total << CALL_BITS) | first)
        return total

    def tree(self) -> Tree:
        """The strategy found, as a :class:`Tree` (after :meth:`optimum`)."""
        calls: list[int] = []
        children: list[list[int]] = []

        def build(s: IntArray) -> int:
            node = len(calls)
            call = self.call_for(s)
            calls.append(call)
            children.append([-1] * self.nresp)
            codes = self.tab[call][s]
            for r in np.unique(codes):
                if r != self.hit:
                    children[node][int(r)] = build(s[codes == r])
            return node

        build(np.arange(self.n, dtype=np.int64))
        return Tree(self.digits, np.array(calls, np.int64), np.array(children, np.int64))


# --- the race: maximise the chance to hit first ----------------------------------------------
@nb.njit(cache=True)
def _race_key(s: Any, k: int) -> Any:  # pragma: no cover - compiled
    """The memo key of ``(s, k)`` (a hash; int64 arithmetic wraps)."""
    return (_hash(s) * 31 + k) & 0x3FFFFFFFFFFFFFFF


@nb.njit(cache=True)
def _race_bound(m: int, k: int, q: Any, branches: int) -> Any:  # pragma: no cover - compiled
    """The most ``sum q[depth]`` a set of ``m`` numbers can reach from call ``k`` on.

    At most 1 number is hit with call ``k``, ``branches`` with ``k + 1``, and so on.
    """
    left = m
    cap = 1
    depth = k
    out = 0.0
    last = len(q) - 1
    while left > 0:
        take = min(cap, left)
        out += take * q[min(depth, last)]
        left -= take
        depth += 1
        cap *= branches
    return out


@nb.njit(cache=True)
def _race(
    s: Any,
    k: int,
    floor: float,
    tab: Any,
    t: Any,
    swaps: Any,
    q: Any,
    hit: int,
    nresp: int,
    branches: int,
    memo: Any,
    upper: Any,
    stats: Any,
    budget: int,
) -> Any:  # pragma: no cover - compiled
    """``R(s, k)``: the most ``sum over s of q[call that hits it]`` from call ``k`` on.

    Exact when above ``floor``; otherwise some value ``<= floor``. ``q[j]`` is the weight of a
    hit with this seat's ``j``-th call (the chance the opponent has not hit before it).
    """
    n = len(s)
    last = len(q) - 1
    if n == 0:
        return 0.0
    if n == 1:
        return q[min(k, last)]
    if n == 2:
        return q[min(k, last)] + q[min(k + 1, last)]
    if k >= last:
        return n * q[last]
    key = _race_key(s, k)
    if key in memo:
        return memo[key]
    if key in upper and upper[key] <= floor:
        return upper[key]
    stats[0] += 1
    n_all = tab.shape[0]
    root = _classes(s, swaps, n_all)
    canon = _canonical(t, root)
    incand = np.zeros(n_all, np.bool_)
    for x in s:
        incand[x] = True
    m = 0
    for g in range(n_all):
        if canon[g]:
            m += 1
    calls = np.empty(m, np.int64)
    m = 0
    for g in range(n_all):
        if canon[g]:
            calls[m] = g
            m += 1
    # Upper bound per call from its part sizes.
    ub = np.empty(m, np.float64)
    hist = np.zeros(nresp, np.int64)
    for a in range(m):
        row = tab[calls[a]]
        for i in range(n):
            hist[row[s[i]]] += 1
        v = 0.0
        big = 0
        for r in range(nresp):
            c = hist[r]
            if c:
                if r == hit:
                    v += q[min(k, last)]
                else:
                    v += _race_bound(c, k + 1, q, branches)
                    if c > big:
                        big = c
            hist[r] = 0
        if big == n:
            v = -1.0  # teaches nothing
        ub[a] = v
    order = np.argsort(-ub, kind="mergesort")
    best = floor
    best_call = -1
    codes = np.empty(n, np.int64)
    counts = np.zeros(nresp, np.int64)
    starts = np.zeros(nresp + 1, np.int64)
    sorted_s = np.empty(n, np.int64)
    for idx in range(m):
        a = order[idx]
        if ub[a] <= best + 1e-12:
            break
        if stats[0] > budget:
            break
        g = calls[a]
        _partition(s, tab[g], nresp, codes, counts, starts, sorted_s)
        rs = np.argsort(-counts, kind="mergesort")
        rest = 0.0
        total = 0.0
        for r in range(nresp):
            if counts[r]:
                if r == hit:
                    total += q[min(k, last)]
                else:
                    rest += _race_bound(counts[r], k + 1, q, branches)
        ok = True
        for j in range(nresp):
            r = rs[j]
            c = counts[r]
            if c == 0:
                break
            if r == hit:
                continue
            rest -= _race_bound(c, k + 1, q, branches)
            part = sorted_s[starts[r] : starts[r + 1]].copy()
            total += _race(
                part,
                k + 1,
                best - total - rest,
                tab,
                t,
                swaps,
                q,
                hit,
                nresp,
                branches,
                memo,
                upper,
                stats,
                budget,
            )
            if total + rest <= best + 1e-12:
                ok = False
                break
        if ok and total > best + 1e-12:
            best = total
            best_call = g
    if best_call >= 0 and stats[0] <= budget:
        memo[key] = best
        memo[-key - 1] = float(best_call)
        return best
    if best_call >= 0:
        return best
    upper[key] = floor
    return floor


class Race:
    """The race objective on one set of weights ``q`` (see :func:`_race`).

    Args:
        digits: 3 or 4.
        q: ``q[j]``: the weight of hitting with this seat's ``j``-th call from now (``q[0]``
            unused); the last entry stands for every later call.
        budget: Search nodes at most (past it the answer is the best found, not proven).
    """

    def __init__(self, digits: int, q: npt.NDArray[np.float64], budget: int = 20000) -> None:
        from dennou.games.numeron.solver import judge_table

        self.digits = digits
        self.tab = judge_table(digits)
        self.t = digit_matrix(digits).astype(np.int64)
        self.hit = hit_code(digits)
        self.nresp = (digits + 1) ** 2
        self.branches = branch_count(digits)
        self.swaps = _swaps(digits)
        self.q = np.ascontiguousarray(q, dtype=np.float64)
        self.memo = float_memo()
        self.upper = float_memo()
        self.stats = np.zeros(2, dtype=np.int64)
        self.budget = budget

    def best(self, s: IntArray) -> tuple[int, float]:
        """The call (index) that maximises the race value of ``s`` now (call 1), and the value.

        Returns ``(-1, value)`` when the budget ran out before any call was proven.
        """
        s = np.ascontiguousarray(np.sort(np.asarray(s, dtype=np.int64)))
        if len(s) <= 2:
            return int(s[0]), float(self.q[1] + (self.q[2] if len(s) == 2 else 0.0))
        value = _race(
            s,
            1,
            -1.0,
            self.tab,
            self.t,
            self.swaps,
            self.q,
            self.hit,
            self.nresp,
            self.branches,
            self.memo,
            self.upper,
            self.stats,
            self.budget,
        )
        key = int(_race_key(s, 1))
        call = int(memo_get(self.memo, -key - 1, -1.0)) if memo_has(self.memo, key) else -1
        return call, float(value)
