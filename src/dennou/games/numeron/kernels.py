"""The ``solver`` bot's Numba kernels: judging numbers and scoring calls against candidates.

Rules: ``docs/games/numeron.md`` (Judging). Compiled on first use and cached on disk; only
:mod:`dennou.games.numeron.solver`'s wrappers import this module, when a decision first scores
calls, so importing the bots costs no Numba import. A judgment code is ``EAT * (digits + 1) +
BITE``; ``t`` is the digit matrix and ``masks`` each number's digit set as bits.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np


# --- judging ------------------------------------------------------------------------------
@nb.njit(cache=True)
def _popcount(x: int) -> int:  # pragma: no cover - compiled
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@nb.njit(cache=True)
def _judge_code(t: Any, masks: Any, i: int, j: int) -> Any:  # pragma: no cover - compiled
    d = t.shape[1]
    eat = 0
    for k in range(d):
        if t[i, k] == t[j, k]:
            eat += 1
    return eat * (d + 1) + _popcount(masks[i] & masks[j]) - eat


# nogil: built on the bots' loading thread (25 M judgments with 4 digits) while the game's
# first decisions run on the main one.
@nb.njit(cache=True, nogil=True)
def codes_table(t: Any, masks: Any) -> Any:  # pragma: no cover - compiled
    """The judgment code of every number (row, as the call) on every number (column)."""
    n = t.shape[0]
    out = np.empty((n, n), np.uint8)
    for i in range(n):
        for j in range(n):
            out[i, j] = _judge_code(t, masks, i, j)
    return out


@nb.njit(cache=True)
def _code(tab: Any, t: Any, masks: Any, g: int, c: int) -> Any:  # pragma: no cover - compiled
    # A 1 x 1 table means "no table": judge on the fly.
    if tab.shape[0] > 1:
        return int(tab[g, c])
    return _judge_code(t, masks, g, c)


@nb.njit(cache=True)
def _score_one(
    tab: Any, t: Any, masks: Any, g: int, cands: Any, h: Any, hit: int, hist: Any, touched: Any
) -> float:  # pragma: no cover - compiled
    # Only the judgments that occur are summed and reset: parts are often tiny.
    k = 0
    for c in cands:
        r = _code(tab, t, masks, g, c)
        if hist[r] == 0:
            touched[k] = r
            k += 1
        hist[r] += 1
    s = 0.0
    for i in range(k):
        r = touched[i]
        if r != hit:
            s += h[hist[r]]
        hist[r] = 0
    return s


@nb.njit(cache=True)
def _score_block(
    tab: Any, t: Any, masks: Any, calls: Any, cands: Any, h: Any, hit: int, nresp: int
) -> Any:  # pragma: no cover - compiled
    out = np.empty(len(calls))
    hist = np.zeros(nresp, np.int64)
    touched = np.zeros(nresp, np.int64)
    m = len(cands)
    if tab.shape[0] <= 1:
        for a in range(len(calls)):
            out[a] = _score_one(tab, t, masks, calls[a], cands, h, hit, hist, touched)
        return out
    # The table is symmetric (judging is), so the codes of every call on candidate c are the
    # contiguous row c: copying rows into a block keeps memory access sequential.
    block = np.empty((len(calls), m), np.uint8)
    for i in range(m):
        row = tab[cands[i]]
        for a in range(len(calls)):
            block[a, i] = row[calls[a]]
    for a in range(len(calls)):
        k = 0
        for i in range(m):
            r = block[a, i]
            if hist[r] == 0:
                touched[k] = r
                k += 1
            hist[r] += 1
        s = 0.0
        for i in range(k):
            r = touched[i]
            if r != hit:
                s += h[hist[r]]
            hist[r] = 0
        out[a] = s
    return out


@nb.njit(cache=True)
def scores(
    tab: Any, t: Any, masks: Any, calls: Any, cands: Any, h: Any, hit: int, nresp: int
) -> Any:  # pragma: no cover - compiled
    """Each call's score against ``cands``: ``sum h[c_r]`` over its judgments but the hit."""
    return _score_block(tab, t, masks, calls, cands, h, hit, nresp)


@nb.njit(cache=True)
def deeper(
    tab: Any, t: Any, masks: Any, tops: Any, cands: Any, pool: Any, h: Any, hit: int, nresp: int
) -> Any:  # pragma: no cover - compiled
    """Each top call's estimated total calls, every part it leaves given its best call."""
    # For each top call: the estimated total calls when it is made now and every part it
    # leaves then gets its best call (by ``h``); a call inside its part is preferred.
    out = np.empty(len(tops))
    inpart = np.zeros(t.shape[0], np.bool_)
    codes = np.empty(len(cands), np.int64)
    for a in range(len(tops)):
        g = tops[a]
        for i in range(len(cands)):
            codes[i] = _code(tab, t, masks, g, cands[i])
        order = np.argsort(codes, kind="mergesort")
        total = float(len(cands))
        start = 0
        while start < len(cands):
            r = codes[order[start]]
            end = start
            while end < len(cands) and codes[order[end]] == r:
                end += 1
            m = end - start
            if r != hit:
                if m == 1:
                    total += 1.0
                elif m == 2:
                    total += 3.0
                else:
                    part = cands[order[start:end]]
                    for c in part:
                        inpart[c] = True
                    values = _score_block(tab, t, masks, pool, part, h, hit, nresp)
                    best = 1e300
                    for j in range(len(pool)):
                        v = values[j] - 1e-6 if inpart[pool[j]] else values[j]
                        if v < best:
                            best = v
                    for c in part:
                        inpart[c] = False
                    total += m + best
            start = end
        out[a] = total
    return out


@nb.njit(cache=True)
def codes_fly(t: Any, masks: Any, g: int, cands: Any) -> Any:  # pragma: no cover - compiled
    """The judgment code of call ``g`` on each of ``cands``, judged on the fly (no table)."""
    out = np.empty(len(cands), np.uint8)
    for i in range(len(cands)):
        out[i] = _judge_code(t, masks, g, cands[i])
    return out
