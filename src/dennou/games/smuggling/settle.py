"""The settlement of one small game (rules page, "A small game", step 5), as pure functions.

Kept apart from the engine because the equilibrium bot computes its payoffs with the very same
functions: a bot's model of the rules cannot drift from the rules.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

import numpy as np
import numpy.typing as npt

Case = Literal["pass", "empty", "caught", "through"]


class Settlement(NamedTuple):
    """What moves when a trunk of ``amount`` meets a verdict.

    Attributes:
        case: ``pass``; ``empty`` (doubt, empty trunk); ``caught`` (doubt, 0 < s <= X);
            ``through`` (doubt, X < s).
        compensation: X/2 rounded down to the unit where it is paid (``empty``, ``through``).
        to_smuggler: Added to the smuggler's third-country account.
        to_inspector: Added to the inspector's third-country account (negative: paid out).
    """

    case: Case
    compensation: int
    to_smuggler: int
    to_inspector: int


def half(doubt: int, unit: int) -> int:
    """X/2 rounded down to the unit (rules page: "X/2 rounds down to the unit")."""
    return (doubt // 2) // unit * unit


def settle(amount: int, doubt: int, unit: int) -> Settlement:
    """Settle a trunk of ``amount`` yen against a verdict (``doubt`` 0 = pass, X > 0 = doubt X).

    The amount has already left the smuggler's home account in every case.
    """
    if doubt == 0:
        return Settlement("pass", 0, amount, 0)
    comp = half(doubt, unit)
    if amount == 0:
        return Settlement("empty", comp, comp, -comp)
    if amount <= doubt:
        return Settlement("caught", 0, 0, amount)
    return Settlement("through", comp, amount + comp, -comp)


def settle_grid(
    amounts: npt.NDArray[np.int64], doubts: npt.NDArray[np.int64], unit: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """:func:`settle` for every pair: (to_smuggler, to_inspector), each ``amounts x doubts``.

    The batch form the equilibrium bot builds its payoff matrices with; ``settle`` is its oracle.
    """
    s = np.asarray(amounts, dtype=np.int64)[:, None]
    x = np.asarray(doubts, dtype=np.int64)[None, :]
    comp = (x // 2) // unit * unit
    passed = x == 0
    empty = ~passed & (s == 0)
    caught = ~passed & (s > 0) & (s <= x)
    through = ~passed & (s > x)
    zero = np.zeros(np.broadcast_shapes(s.shape, x.shape), dtype=np.int64)
    to_s = np.where(passed, s + zero, zero)
    to_s = np.where(empty, comp + zero, to_s)
    to_s = np.where(through, s + comp, to_s)
    to_i = np.where(empty | through, -comp + zero, zero)
    to_i = np.where(caught, s + zero, to_i)
    return to_s, to_i
