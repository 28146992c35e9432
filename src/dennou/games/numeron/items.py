"""When the ``race`` and ``optimal`` bots use Numeron's seven items, valued in win probability.

Rules: ``docs/games/numeron.md`` (Items). Everything is judged with one model, the race
model of :mod:`dennou.games.numeron.calls`: with ``S`` the numbers the opponent may hold (this
seat's knowledge) and ``S'`` the numbers the opponent may think this seat holds, the chance to win
when this seat calls next is ``sum_j p_S(j) Q(j)``, with ``p_S`` the distribution of the calls
this seat still needs and ``Q(j)`` the chance that the opponent still needs at least ``j`` (from
``S'``). Off the optimal tree, ``p`` comes from the size of the set (the average distribution of
the tree's sets of that size), the same for every option, so options are compared fairly.

* **HIGH&LOW, SLASH, TARGET d** split ``S`` by the answer: the value is the average over the
  answers of the value of the smaller set.
* **DOUBLE**: two calls before the opponent's next (``Q`` shifts by one call), but the opponent
  sees one of this seat's digits, the position it picks being the one that splits ``S'`` most
  (as this bot's own reveal does), so ``Q`` is that of the smaller ``S'``.
* **SHUFFLE, CHANGE, MOVE** (in the defence window, the opponent about to call) widen ``S'`` as
  the announcement allows; the bot takes the option that raises its chance the most and, among
  its numbers, one the opponent had already ruled out.

An item is used when it adds more than ``keep`` (attack) or ``guard`` (defence) to the chance
to win than not using it now: what keeping it for later is worth. Those margins were chosen by
measured win rate, not guessed (``bench/numeron_race.py --items``; ``docs/games/numeron.md``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from dennou.core.actions import Action
from dennou.core.game import JSON
from dennou.games.numeron.actions import (
    Change,
    Decline,
    Double,
    HighLow,
    Move,
    NoItem,
    Shuffle,
    Slash,
    Target,
)
from dennou.games.numeron.calls import MAX_CALLS, size_model, survival
from dennou.games.numeron.knowledge import Candidates, digit_matrix, index_of, knowledge
from dennou.games.numeron.plain import best_reveal, item_partition, new_number

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def model(digits: int, m: int) -> FloatArray:
    """Distribution of the calls a set of ``m`` numbers still needs (exact for 1 and 2)."""
    out = np.zeros(MAX_CALLS + 1)
    if m == 1:
        out[1] = 1.0
    elif m == 2:
        out[1:3] = 0.5
    elif m > 2:
        out = size_model(digits, m).copy()
    return out


def win_first(digits: int, m: int, q: FloatArray) -> float:
    """Chance to win calling next with ``m`` candidates, against survival ``q``."""
    return float(model(digits, m)[1:] @ q[1 : MAX_CALLS + 1])


def win_second(digits: int, m: int, q: FloatArray) -> float:
    """Chance to win when the opponent calls next (its ``j``-th call precedes this seat's)."""
    return float(model(digits, m)[1:] @ q[2 : MAX_CALLS + 2])


def q_of(digits: int, m: int) -> FloatArray:
    """The opponent's survival when it has ``m`` candidates for this seat's number."""
    return survival(model(digits, m))


def _cands(c: Candidates) -> IntArray:
    idx = np.flatnonzero(c.mask).astype(np.int64)
    return idx if len(idx) else np.arange(len(c.mask), dtype=np.int64)


def attack_values(view: JSON, legal: Sequence[Action]) -> dict[Action, float]:
    """Chance to win after each legal attack option (``NoItem`` included)."""
    digits = view["rules"]["digits"]
    seat = view["seat"]
    mine = _cands(knowledge(view["log"], digits, 1 - seat))
    theirs_c = knowledge(view["log"], digits, seat)
    theirs = _cands(theirs_c)
    q = q_of(digits, len(theirs))
    n = len(mine)
    out: dict[Action, float] = {NoItem(): win_first(digits, n, q)}
    for action in legal:
        if isinstance(action, HighLow | Slash | Target):
            parts = item_partition(digits, action, mine)
            out[action] = sum(len(p) * win_first(digits, len(p), q) for p in parts) / n
        elif isinstance(action, Double):
            where = best_reveal(theirs_c)
            digit = int(view["my_number"][where])
            seen = theirs[digit_matrix(digits)[theirs, where] == digit]
            q_rev = q_of(digits, len(seen))
            # Calls 1 and 2 come before the opponent's next; call k >= 2 after k - 2 of its.
            shifted = np.concatenate([[1.0], q_rev[:-1]])
            out[action] = win_first(digits, n, shifted)
    return out


def choose_attack(view: JSON, legal: Sequence[Action], keep: float) -> Action:
    """The attack item that adds the most to the chance to win, if more than ``keep``."""
    values = attack_values(view, legal)
    base = values[NoItem()]
    best: tuple[float, Action] = (base + keep, NoItem())
    for action, v in values.items():
        if v > best[0] + 1e-12:
            best = (v, action)
    return best[1]


def _widened(view: JSON, key: tuple[Any, ...], mine: Candidates) -> Candidates:
    out = mine.copy()
    if key[0] == "shuffle":
        out.shuffled()
    elif key[0] == "change":
        out.changed(key[1], int(view["my_number"][key[1]]) >= 5)
    else:
        out.moved(key[1], key[2])
    return out


def defence_values(
    view: JSON, legal: Sequence[Action]
) -> tuple[float, dict[tuple[Any, ...], tuple[float, list[Action]]]]:
    """Chance to win declining, and per announcement: (chance after it, the actions giving it)."""
    digits = view["rules"]["digits"]
    seat = view["seat"]
    mine_c = knowledge(view["log"], digits, seat)
    m = len(_cands(knowledge(view["log"], digits, 1 - seat)))
    base = win_second(digits, m, q_of(digits, max(mine_c.count, 1)))
    groups: dict[tuple[Any, ...], list[Action]] = {}
    for action in legal:
        if isinstance(action, Shuffle):
            groups.setdefault(("shuffle",), []).append(action)
        elif isinstance(action, Change):
            groups.setdefault(("change", action.position), []).append(action)
        elif isinstance(action, Move):
            groups.setdefault(("move", action.source, action.target), []).append(action)
    out: dict[tuple[Any, ...], tuple[float, list[Action]]] = {}
    for key, actions in groups.items():
        wide = _widened(view, key, mine_c)
        out[key] = (win_second(digits, m, q_of(digits, max(wide.count, 1))), actions)
    return base, out


def choose_defence(view: JSON, legal: Sequence[Action], guard: float, rng: random.Random) -> Action:
    """The defence item that adds the most to the chance to win, if more than ``guard``."""
    base, options = defence_values(view, legal)
    best: tuple[float, list[Action]] | None = None
    for value, actions in options.values():
        if value > base + guard and (best is None or value > best[0] + 1e-12):
            best = (value, actions)
    if best is None:
        return Decline()
    digits = view["rules"]["digits"]
    old = knowledge(view["log"], digits, view["seat"]).mask
    index = index_of(digits)
    actions = best[1]
    fresh = [a for a in actions if not old[index[new_number(view["my_number"], a)]]]
    pool = fresh or actions
    return pool[rng.randrange(len(pool))]
