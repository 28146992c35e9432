"""The smuggle-or-inspect subgame as a zero-sum matrix game, solved by linear programming.

One small game, once the representatives are known, is a one-shot game between the smuggler (who
picks the trunk amount s) and the inspector (who picks pass or doubt X). Its payoffs come from
:func:`dennou.games.smuggling.settle.settle_grid`, the engine's own settlement, with the balances
and limits at hand (s <= min(trunk_max, home), X <= doubt_factor x third).

Objectives:

- ``team``: the smuggling team's third-country gain minus the inspecting team's (what decides the
  team result): pass +s, empty trunk +2h, caught -s, through s+2h (h = X/2 rounded down). The game
  is zero-sum and both representatives solve the same matrix.
- ``self``: the player's own final money. The smuggler's is its third-country gain (money left
  at home is lost to the other team's prize anyway). The inspector's is its third-country gain
  minus s/n: the s that leaves the smuggler's home would otherwise (myopically: if it stayed to
  the end) have been shared among the inspector's n-member team. Not zero-sum; each side plays
  its maxmin (security) strategy for its own payoff, i.e. solves the zero-sum game in which the
  opponent minimises it.

Actions are restricted to a grid: ``points`` amounts evenly spaced over 0..min(trunk_max, home)
(in whole units) and doubts at those amounts (plus the doubt limit itself). On the grid, doubts
between grid amounts are dominated, so the restriction costs the inspector nothing; the smuggler
could gain off the grid (just above a doubt), which :func:`full_exploitability` measures exactly
over every legal amount and doubt.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np
import numpy.typing as npt

from dennou.games.smuggling.settle import settle_grid

Objective = Literal["team", "self"]
Matrix = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Solution:
    """A solved zero-sum matrix game (rows maximise, columns minimise).

    Attributes:
        row: The row player's maxmin mixed strategy.
        col: The column player's minmax mixed strategy.
        value: The game value (in the matrix's units).
    """

    row: npt.NDArray[np.float64]
    col: npt.NDArray[np.float64]
    value: float


def solve(a: Matrix) -> Solution:
    """Solve the zero-sum game ``a`` (row player's payoffs) by two linear programs (HiGHS).

    Raises:
        RuntimeError: The LP solver failed (it should not on a finite matrix).
    """
    a = np.asarray(a, dtype=np.float64)
    m, n = a.shape
    scale = float(np.abs(a).max()) or 1.0
    b = a / scale
    # SciPy's LP solver takes a second to import: the game and its lobby listing do without it
    from scipy.optimize import linprog

    # rows: max v s.t. b^T x >= v, sum x = 1, x >= 0
    res_r = linprog(
        c=np.r_[np.zeros(m), -1.0],
        A_ub=np.c_[-b.T, np.ones(n)],
        b_ub=np.zeros(n),
        A_eq=np.r_[np.ones(m), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * m + [(None, None)],
        method="highs",
    )
    # columns: min w s.t. b y <= w, sum y = 1, y >= 0
    res_c = linprog(
        c=np.r_[np.zeros(n), 1.0],
        A_ub=np.c_[b, -np.ones(m)],
        b_ub=np.zeros(m),
        A_eq=np.r_[np.ones(n), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * n + [(None, None)],
        method="highs",
    )
    if res_r.status != 0 or res_c.status != 0:
        raise RuntimeError(f"linprog failed: {res_r.message}; {res_c.message}")
    row = _clean(res_r.x[:m])
    col = _clean(res_c.x[:n])
    return Solution(row, col, float(-res_r.fun) * scale)


def _clean(p: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    p = np.clip(p, 0.0, None)
    p[p < 1e-12] = 0.0
    out: npt.NDArray[np.float64] = p / p.sum()
    return out


def exploitability(a: Matrix, row: npt.NDArray[np.float64], col: npt.NDArray[np.float64]) -> float:
    """How much best responses gain against the pair: max_i (a col)_i - min_j (row a)_j (>= 0)."""
    a = np.asarray(a, dtype=np.float64)
    return float((a @ col).max() - (row @ a).min())


def amount_grid(hi: int, unit: int, points: int) -> Ints:
    """``points`` amounts evenly spread over ``0..hi`` in whole units (0 and ``hi`` included)."""
    units = hi // unit
    k = np.unique(np.round(np.linspace(0, units, max(points, 2))).astype(np.int64))
    return k * unit


def doubt_grid(amounts: Ints, limit: int) -> Ints:
    """Columns: 0 (pass), every positive grid amount within the limit, and the limit if lower."""
    positive = amounts[(amounts > 0) & (amounts <= limit)]
    extra = [limit] if 0 < limit < amounts.max() and limit not in positive else []
    return np.unique(np.r_[0, positive, extra]).astype(np.int64)


def payoffs(
    amounts: Ints, doubts: Ints, unit: int, objective: Objective, role: str, team_size: int = 1
) -> Matrix:
    """Payoff matrix (rows: amounts, columns: doubts with 0 = pass) to the row (smuggler) side.

    ``team``: the smuggling team's difference, the same for both roles (the inspector minimises).
    ``self``: for ``role == "smuggler"`` its own gain (it maximises); for ``"inspector"`` minus
    its own gain, ``-(to_inspector - s / team_size)`` (as the column player it minimises this).
    """
    to_s, to_i = settle_grid(amounts, doubts, unit)
    if objective == "team":
        return (to_s - to_i).astype(np.float64)
    if role == "smuggler":
        return to_s.astype(np.float64)
    lost_prize = np.asarray(amounts, dtype=np.float64)[:, None] / team_size
    return -(to_i.astype(np.float64) - lost_prize)


@dataclass(frozen=True)
class Subgame:
    """One small game's matrix game for one role and objective, solved.

    Attributes:
        amounts: The smuggler's grid (yen).
        doubts: The inspector's grid (yen; 0 = pass).
        matrix: Payoffs to the row (smuggler) side.
        solution: Its LP solution.
    """

    amounts: Ints
    doubts: Ints
    matrix: Matrix
    solution: Solution


@lru_cache(maxsize=4096)
def subgame(
    trunk_hi: int,
    doubt_hi: int,
    unit: int,
    points: int,
    objective: Objective = "team",
    role: str = "smuggler",
    team_size: int = 1,
) -> Subgame:
    """Build and solve the subgame for these limits (cached: balances repeat a lot)."""
    amounts = amount_grid(trunk_hi, unit, points)
    doubts = doubt_grid(amounts, doubt_hi)
    a = payoffs(amounts, doubts, unit, objective, role, team_size)
    return Subgame(amounts, doubts, a, solve(a))


def full_exploitability(game: Subgame, unit: int, trunk_hi: int, doubt_hi: int) -> float:
    """Exploitability of the grid strategies over the **whole** legal action space.

    Best responses range over every amount 0..trunk_hi and every doubt 0..doubt_hi in units
    (not just the grid); only meaningful for a zero-sum objective (``team``).
    """
    all_s = np.arange(trunk_hi // unit + 1, dtype=np.int64) * unit
    all_x = np.arange(doubt_hi // unit + 1, dtype=np.int64) * unit
    to_s, to_i = settle_grid(all_s, game.doubts, unit)
    best_s = float(((to_s - to_i) @ game.solution.col).max())
    to_s, to_i = settle_grid(game.amounts, all_x, unit)
    best_x = float((game.solution.row @ (to_s - to_i)).min())
    return best_s - best_x
