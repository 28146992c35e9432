"""Daifugo ``ismcts``'s endgame: an exact solver when two players remain.

The seat then knows the other hand (every unseen card), and a win/loss search with a
transposition table (:class:`TwoPlayerSolver`) finds a winning move when there is one.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dennou.games.daifugo import cards as C
from dennou.games.daifugo import sim as S

# --- the two-player solver ---------------------------------------------------------------------
_M5 = 0x5555555555555
_M3 = 0x3333333333333


def _rank_counts(hand: int) -> int:
    """The cards of each rank (a nibble per rank) of a hand's naturals."""
    m = hand & C.NATURALS
    c = m - ((m >> 1) & _M5)
    return (c & _M3) + ((c >> 2) & _M3)


class TwoPlayerSolver:
    """Exact win/loss search of a game's end between two players, both hands known.

    Wins are what matters: the first of the two out takes the better title. Passing on an empty
    field (``lead_pass``) is left out (it only hands the lead over); a 千日手 is left out too.
    When suits play no part (no suit lock, no sequences) hands and plays are compared by rank
    counts, plus the 3 of spades (it answers a joker).

    Args:
        fl: Rule flags.
        me: The seat whose win is asked.
        other: The other seat still holding cards.
        budget: Positions to visit at most (:meth:`solve` gives up past it).
    """

    def __init__(self, fl: np.ndarray, me: int, other: int, budget: int) -> None:
        self.fl = fl.copy()
        self.fl[S.F_STALE] = 0
        self.me = me
        self.other = other
        self.budget = budget
        self.nodes = 0
        self.memo: dict[tuple[int, ...], bool] = {}
        self.buf = np.zeros(S.MAXMOVES, dtype=np.uint64)
        self.by_rank = not (self.fl[S.F_LOCK] or self.fl[S.F_SEQS])

    def _key(self, st: np.ndarray) -> tuple[int, ...]:
        n = int(st[S.N])
        hands = st[S.HEAD + 3 * n : S.HEAD + 4 * n]
        key = [int(st[i]) for i in (S.TURN, S.LAST, S.PASSED, S.REVOLUTION, S.BACK, S.LOCK)]
        key += [int(st[S.TOP]) & ((1 << 54) - 1), int(st[S.TOP]) >> 58, int(st[S.RETURNED])]
        if self.by_rank and st[S.TOP]:
            key[6] = int(st[S.TLOW]) << 8 | int(st[S.TSIZE])
        for h in hands:
            h = int(h)
            key.append(_rank_counts(h) << 3 | (h & 1) << 2 | h >> 52 if self.by_rank else h)
        return tuple(key)

    def moves(self, st: np.ndarray) -> list[int]:
        """The moves searched at ``st`` (plays, then a pass where allowed), best guesses first."""
        n = int(st[S.N])
        hand = int(st[S.HEAD + 3 * n + int(st[S.TURN])])
        k = S.gen_moves(np.uint64(hand), st, self.fl, self.buf)
        plays = [int(m) for m in self.buf[:k]]
        if self.by_rank:
            seen: set[tuple[int, int, int]] = set()
            kept = []
            for m in plays:
                sig = (_rank_counts(m), m >> 52 & 3, m & 1)
                if sig not in seen:
                    seen.add(sig)
                    kept.append(m)
            plays = kept
        cards = (1 << 54) - 1
        plays.sort(key=lambda m: (-((m & cards) == hand), -(m & cards).bit_count()))
        if st[S.TOP] != 0:
            plays.append(0)
        return plays

    def wins(self, st: np.ndarray) -> bool:
        """Whether :attr:`me` wins from ``st`` with best play on both sides.

        Raises:
            TimeoutError: The budget of positions ran out.
        """
        if st[S.OVER]:
            n = int(st[S.N])
            order = [int(x) for x in st[S.HEAD + 2 * n : S.HEAD + 2 * n + st[S.NFIN]]]
            return order.index(self.me) < order.index(self.other)
        key = self._key(st)
        got = self.memo.get(key)
        if got is not None:
            return got
        self.nodes += 1
        if self.nodes > self.budget:
            raise TimeoutError
        mine = int(st[S.TURN]) == self.me
        result = not mine
        for m in self.moves(st):
            child = st.copy()
            S.step(child, np.uint64(m), self.fl, self.buf)
            if self.wins(child) == mine:
                result = mine
                break
        self.memo[key] = result
        return result

    def solve(self, st: np.ndarray, moves: Sequence[int]) -> tuple[bool, int] | None:
        """Search the root: the first winning move among ``moves`` at ``st``.

        Returns ``(True, move)``, ``(False, moves[0])`` if none wins, or ``None`` when the budget
        runs out.
        """
        try:
            for m in moves:
                child = st.copy()
                S.step(child, np.uint64(m), self.fl, self.buf)
                if self.wins(child):
                    return True, m
        except (TimeoutError, RecursionError):
            return None
        return False, moves[0]
