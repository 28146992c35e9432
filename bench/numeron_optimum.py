"""The optimal mean number of calls for Numeron without items: search, check, ship.

Usage::

    PYTHONPATH=src python bench/numeron_optimum.py --digits 3 [--write]
    PYTHONPATH=src python bench/numeron_optimum.py --digits 4 \
        --exact-below 100 --breadth 16 --rerank 4 [--write]

The search is :mod:`dennou.games.numeron.optimum` (branch and bound over calling strategies;
see its docstring). With 3 digits it is exact (every set of every size is solved exactly:
``--exact-below`` defaults to every set) and proves the optimum. With 4 digits a full exact
search is out of reach here, so it searches a restricted family of strategies:

1. sets larger than ``--exact-below`` try only their ``--breadth`` most promising calls
   (``--wide N B``: sets above N numbers try B); ``--rerank R`` ranks them by a two-level
   estimate (the one-level estimate's ``R * breadth`` best, each part counted with its own best
   next call), which is what finds the optimum;
2. optionally, ``--refine K``: for each part the first call leaves, its ``K`` best second calls
   (the restricted search's first) are re-scored with **every** part they leave solved exactly
   (branch and bound with the best total so far as the cut-off), and the best is kept.

The total is then the value of a real strategy, an upper bound on the optimum; it is the
optimum when it equals the published lower bound, 26274 (Tanaka 1996, by exhaustive search).
The command above reaches it: 26274 = 5.2131 calls, the shipped ``optimum4.json`` (5117
nodes, 96 kB), in 8.5 minutes (511 s, 250 MB) on one core of the shared 2-core development
machine; the 1440 numbers after 0-1 take 5 of them and the 1260 after 0-2 another 2. Narrower
settings are quicker and fall short: ``--exact-below 60 --breadth 16`` gives 26288 (3 minutes),
with ``--rerank 4`` 26276; ``--exact-below 100 --breadth 16`` without it 26284.

Whatever the search says, the strategy is then **replayed on every secret with the engine's
own judge** (``dennou.games.numeron.judge``, not the search's table), and the printed mean
is that replay's. ``--write`` stores the tree as ``src/dennou/games/numeron/optimum<d>.json``,
the table the ``optimal`` and ``race`` bots follow.
"""

from __future__ import annotations

import argparse
import json
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

from dennou.games.numeron import judge
from dennou.games.numeron.optimum import Search, _hash, memo_get, memo_has
from dennou.games.numeron.plain import Tree
from dennou.games.numeron.solver import score_calls
from dennou.games.numeron.state import all_numbers

PACKAGE = Path(__file__).resolve().parent.parent / "src/dennou/games/numeron"
PUBLISHED = {4: 26274}


def replay_with_judge(tree: Tree) -> list[int]:
    """Calls the tree needs for each secret, judged by the engine's ``judge``."""
    digits = tree.digits
    pool = all_numbers(digits)
    out = []
    for secret in pool:
        node, calls = 0, 0
        while True:
            calls += 1
            call = pool[int(tree.calls[node])]
            eat, bite = judge(secret, call)
            if eat == digits:
                break
            node = int(tree.children[node, eat * (digits + 1) + bite])
            assert node >= 0, f"no branch for {secret} after {call} {eat}-{bite}"
        out.append(calls)
    return out


def refine(search: Search, exact: Search, part: np.ndarray, k: int, where: str) -> tuple[int, int]:
    """The best of ``part``'s ``k`` best calls with every part they leave solved exactly."""
    tab, hit = search.tab, search.hit
    first = search.call_for(part)
    everything = np.arange(search.n, dtype=np.int64)
    scores = score_calls(search.digits, everything, part, "calls")
    others = [int(g) for g in np.argsort(scores, kind="stable") if int(g) != first]
    # One call per profile of part sizes (mirror images have the same profile).
    seen: set[tuple[int, ...]] = set()
    pool: list[int] = []
    for g in [first, *others]:
        codes = tab[g][part]
        profile = tuple(sorted(np.bincount(codes, minlength=search.nresp).tolist()))
        if profile in seen or (np.bincount(codes).max() == len(part) and g not in part):
            continue
        seen.add(profile)
        pool.append(g)
        if len(pool) == k:
            break
    best, best_call = 1 << 40, first
    for g in pool:
        t0 = time.perf_counter()
        codes = tab[g][part]
        parts = sorted(
            (part[codes == r] for r in np.unique(codes) if r != hit), key=len, reverse=True
        )
        rest = sum(int(search.lb[len(p)]) for p in parts)
        total = len(part)
        done = True
        for p in parts:
            rest -= int(search.lb[len(p)])
            total += exact.solve(p, best - total - rest)
            if total + rest >= best:
                done = False
                break
        note = f"T = {total}" if done else f"cut (>= {total + rest})"
        if done and total < best:
            best, best_call = total, g
        print(
            f"    {where}: call {all_numbers(search.digits)[g]} {note} "
            f"({time.perf_counter() - t0:.0f} s, best {best})",
            flush=True,
        )
    return best, best_call


def build_tree(search: Search, exact: Search, chosen: dict[bytes, int]) -> Tree:
    """The strategy: the refined second calls, exact parts below them, else the search's."""
    calls: list[int] = []
    children: list[list[int]] = []

    def call_for(s: np.ndarray) -> int:
        if len(s) == search.n:
            return 0
        if s.tobytes() in chosen:
            return chosen[s.tobytes()]
        if len(s) <= 2:
            return int(s[0])
        key = int(_hash(s))
        if memo_has(exact.memo, key):
            return int(memo_get(exact.memo, key, 0) & 0xFFFF)
        return search.call_for(s)

    def build(s: np.ndarray) -> int:
        node = len(calls)
        call = call_for(s)
        calls.append(call)
        children.append([-1] * search.nresp)
        codes = search.tab[call][s]
        for r in np.unique(codes):
            if r != search.hit:
                children[node][int(r)] = build(s[codes == r])
        return node

    build(np.arange(search.n, dtype=np.int64))
    return Tree(search.digits, np.array(calls, np.int64), np.array(children, np.int64))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--digits", type=int, default=3, choices=(3, 4))
    parser.add_argument("--exact-below", type=int, default=1 << 30)
    parser.add_argument("--breadth", type=int, default=16)
    parser.add_argument("--wide", type=int, nargs=2, default=None)
    parser.add_argument("--rerank", type=int, default=0)
    parser.add_argument("--refine", type=int, default=0)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()
    wide = tuple(args.wide) if args.wide else None
    search = Search(
        args.digits,
        exact_below=args.exact_below,
        breadth=args.breadth,
        wide=wide,
        rerank=args.rerank,
    )
    exact = Search(args.digits)
    everything = np.arange(search.n, dtype=np.int64)
    row = search.tab[0]
    total = search.n
    chosen: dict[bytes, int] = {}
    for r in np.unique(row):
        if r == search.hit:
            continue
        part = everything[row == r]
        t0 = time.perf_counter()
        value = search.solve(part)
        eat, bite = divmod(int(r), args.digits + 1)
        where = f"after {all_numbers(args.digits)[0]} judged {eat}-{bite}: {len(part):5d} numbers"
        print(f"  {where}, restricted T = {value} ({time.perf_counter() - t0:.0f} s)", flush=True)
        if args.refine and len(part) > 2:
            refined, call = refine(search, exact, part, args.refine, where)
            if refined < value:
                value = refined
            chosen[part.tobytes()] = call
        total += value
    tree = build_tree(search, exact, chosen)
    calls = replay_with_judge(tree)
    assert sum(calls) == total, (sum(calls), total)
    n = len(calls)
    is_exact = args.exact_below >= n
    print(
        f"digits: {args.digits}; search: {'exact' if is_exact else 'restricted'} "
        f"(exact below {min(args.exact_below, n)}, breadth {args.breadth})"
    )
    print(
        f"total over {n} secrets, replayed with the engine's judge: {sum(calls)} = "
        f"{Fraction(sum(calls), n)} = {sum(calls) / n:.5f} calls"
    )
    if args.digits in PUBLISHED:
        ref = PUBLISHED[args.digits]
        print(f"published optimum: {ref} = {ref / n:.5f}; gap {sum(calls) - ref} calls")
    hist = np.bincount(calls)
    print("calls: " + ", ".join(f"{k}: {c}" for k, c in enumerate(hist) if c))
    print(
        f"tree nodes: {len(tree.calls)}; search nodes: {int(search.stats[0])} restricted, "
        f"{int(exact.stats[0])} exact; "
        f"time: {time.perf_counter() - started:.0f} s"
    )
    if args.write:
        target = PACKAGE / f"optimum{args.digits}.json"
        target.write_text(json.dumps(tree.to_json(), separators=(",", ":")) + "\n")
        print(f"wrote {target} ({target.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
