"""The optimal mean number of calls for 3-digit Numeron without items, by exact search.

Usage: ``PYTHONPATH=src python bench/numeron_optimum.py [--digits 3]`` (about 3 minutes on one
core for 3 digits; 4 digits is far out of reach this way: use the published 26274/5040).

The quantity: over all 720 secrets drawn uniformly, the least possible mean number of calls
(the final all-EAT call included) of any calling strategy (calls are numbers of distinct
digits, candidates or not). ``T(S)``, the least total of calls over the secrets of a set ``S``
that the past judgments leave, satisfies ``T({s}) = 1``, ``T({s, t}) = 3`` and

    T(S) = |S| + min over calls g of  sum over judgments r != all-EAT of  T(S_r(g))

The search is a depth-first branch and bound:

* a lower bound for a set of ``k`` numbers: at most 1 can be hit on the first call, at most
  ``B`` (the number of non-hit judgments, 8 for 3 digits) on the second, ``B^2`` on the third...
  and per call the sum of that bound over its parts orders and prunes the calls;
* calls are reduced by the symmetries of ``S``: two digits are interchangeable when swapping
  them maps ``S`` onto itself, and calls that differ by such swaps have the same value;
* proven values and proven lower bounds are memoised by set.

The strategy found is then replayed on every secret to check that it reaches the total.
Result for 3 digits: 3575 / 720 = 715/144 = 4.96528 calls.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from dennou.games.numeron import judge
from dennou.games.numeron.knowledge import digit_matrix
from dennou.games.numeron.solver import hit_code, judge_table
from dennou.games.numeron.state import all_numbers

IntArray = npt.NDArray[np.int64]


class Exact:
    """Exact search over calling strategies for one length of numbers."""

    def __init__(self, digits: int) -> None:
        self.digits = digits
        self.tab = judge_table(digits).astype(np.int64)
        self.t = digit_matrix(digits).astype(np.int64)
        self.n = len(self.t)
        self.hit = hit_code(digits)
        self.resp = (digits + 1) ** 2
        self.branch = len(set(np.unique(self.tab).tolist()) - {self.hit})
        self.lbn = self._capacity_bound()
        self.offsets = (np.arange(self.n) * self.resp)[:, None]
        self.pairs = list(itertools.combinations(range(10), 2))
        self.swaps = self._swaps()
        self.exact: dict[bytes, tuple[int, int]] = {}
        self.lower: dict[bytes, int] = {}
        self.nodes = 0

    def _capacity_bound(self) -> IntArray:
        out = np.zeros(self.n + 1, dtype=np.int64)
        for k in range(1, self.n + 1):
            left, depth, cap, total = k, 1, 1, 0
            while left > 0:
                take = min(cap, left)
                total += take * depth
                left -= take
                depth += 1
                cap = self.branch ** (depth - 1)
            out[k] = total
        return out

    def _codes(self, t: IntArray) -> IntArray:
        code = np.zeros(len(t), dtype=np.int64)
        for col in range(self.digits):
            code = code * 10 + t[:, col]
        return code

    def _swaps(self) -> IntArray:
        lookup = np.full(10**self.digits, -1, dtype=np.int64)
        lookup[self._codes(self.t)] = np.arange(self.n)
        out = np.empty((len(self.pairs), self.n), dtype=np.int64)
        for p, (x, y) in enumerate(self.pairs):
            m = np.arange(10)
            m[x], m[y] = y, x
            out[p] = lookup[self._codes(m[self.t])]
        return out

    def representatives(self, mask: npt.NDArray[np.bool_]) -> IntArray:
        """One call per class of calls equivalent under the set's interchangeable digits."""
        parent = list(range(10))

        def find(a: int) -> int:
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        for p, (x, y) in enumerate(self.pairs):
            if find(x) != find(y) and np.array_equal(mask[self.swaps[p]], mask):
                parent[find(x)] = find(y)
        members: dict[int, list[int]] = {}
        for a in range(10):
            members.setdefault(find(a), []).append(a)
        # A representative names, within each class, its smallest digits in order of use.
        keep = np.ones(self.n, dtype=np.bool_)
        used = {r: np.zeros(self.n, dtype=np.int64) for r in members}
        for col in range(self.digits):
            here = self.t[:, col]
            for r, ms in members.items():
                in_class = np.isin(here, ms)
                want = np.array(ms + [-1] * (self.digits + 1))[np.minimum(used[r], len(ms))]
                keep &= ~in_class | (here == want)
                used[r] = used[r] + in_class
        return np.flatnonzero(keep)

    def solve(self, s: IntArray, cutoff: int) -> int:
        """``T(s)`` if it is below ``cutoff``, else a lower bound of at least ``cutoff``."""
        n = len(s)
        if n <= 1:
            return n
        if n == 2:
            return 3
        key = s.tobytes()
        if key in self.exact:
            return self.exact[key][0]
        known = self.lower.get(key, 0)
        if known >= cutoff:
            return known
        self.nodes += 1
        mask = np.zeros(self.n, dtype=np.bool_)
        mask[s] = True
        calls = self.representatives(mask)
        sub = self.tab[calls][:, s]
        counts = np.bincount(
            (sub + self.offsets[: len(calls)]).ravel(), minlength=len(calls) * self.resp
        ).reshape(len(calls), self.resp)
        counts[:, self.hit] = 0
        useful = mask[calls] | (counts.max(axis=1) < n)
        bounds = n + self.lbn[counts].sum(axis=1)
        bounds[~useful] = 1 << 40
        best, best_call = cutoff, -1
        for i in np.argsort(bounds, kind="stable"):
            if int(bounds[i]) >= best:
                break
            row = sub[i]
            parts = sorted(
                (s[row == r] for r in np.unique(row) if r != self.hit), key=len, reverse=True
            )
            rest = sum(int(self.lbn[len(p)]) for p in parts)
            total: int = n
            for p in parts:
                rest -= int(self.lbn[len(p)])
                total += self.solve(p, best - total - rest)
                if total + rest >= best:
                    break
            else:
                if total < best:
                    best, best_call = total, int(calls[i])
        if best_call >= 0:
            self.exact[key] = (best, best_call)
            return best
        self.lower[key] = max(known, cutoff)
        return cutoff

    def optimum(self, log: bool = True) -> tuple[int, dict[bytes, tuple[int, int]]]:
        """The least total of calls over all secrets (first call: any, by symmetry)."""
        everything = np.arange(self.n, dtype=np.int64)
        first = 0
        row = self.tab[first]
        total = self.n
        for r in np.unique(row):
            if r == self.hit:
                continue
            part = everything[row == r]
            started = time.perf_counter()
            value = self.solve(part, 1 << 40)
            total += value
            if log:
                eat, bite = divmod(int(r), self.digits + 1)
                print(
                    f"  after {all_numbers(self.digits)[first]} judged {eat}-{bite}: "
                    f"{len(part):4d} numbers, T = {value} "
                    f"({time.perf_counter() - started:.1f} s)",
                    file=sys.stderr,
                    flush=True,
                )
        self.exact[everything.tobytes()] = (total, first)
        return total, self.exact

    def replay(self) -> list[int]:
        """Calls the optimal strategy found needs for each secret (checks the total)."""
        pool = all_numbers(self.digits)
        out = []
        for secret in pool:
            s = np.arange(self.n, dtype=np.int64)
            calls = 0
            while True:
                calls += 1
                call = int(s[0]) if len(s) <= 2 else self.exact[s.tobytes()][1]
                eat, bite = judge(secret, pool[call])
                if eat == self.digits:
                    break
                code = eat * (self.digits + 1) + bite
                s = s[self.tab[call][s] == code]
            out.append(calls)
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--digits", type=int, default=3)
    args = parser.parse_args()
    exact = Exact(args.digits)
    started = time.perf_counter()
    total, _ = exact.optimum()
    calls = exact.replay()
    assert sum(calls) == total, (sum(calls), total)
    n = exact.n
    print(f"digits: {args.digits}")
    print(f"optimal total: {total} over {n} secrets = {Fraction(total, n)} = {total / n:.5f}")
    print(f"worst case of the strategy found: {max(calls)} calls")
    print(f"search nodes: {exact.nodes}, time: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
