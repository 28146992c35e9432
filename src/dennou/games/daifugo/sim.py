"""A fast Daifugo simulator: hands as 54-bit masks, move generation and playouts in Numba.

Only the play phase of one game is simulated (what a search bot needs between its decision and
the end of the game). The readable engine (:mod:`.engine`) is the oracle: the tests check, from
many random positions, that both list the same legal plays and reach the same results.

Encoding: bit ``c`` (0..51) is the natural card of code ``c`` (``rank * 4 + suit``); jokers are
counted in bits 52 and 53 (one joker: bit 52; two: bits 52 and 53). A move is the mask of the
cards played; 0 is a pass (the card sets of :mod:`.cards`). Rules: ``docs/games/daifugo.md``
(Plays).

The plain Python API: :class:`Sim` (built from an engine state), :meth:`Sim.legal_masks`,
:meth:`Sim.step`, :meth:`Sim.playout`, and :func:`playouts` (a batch of playouts from one
position with sampled hidden hands).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit

from dennou.games.daifugo import cards as C
from dennou.games.daifugo.state import DaifugoState

JBIT1 = np.uint64(1 << 52)
JBITS = np.uint64(3 << 52)
MAXMOVES = 512

# State vector layout (int64): the per-seat arrays follow these scalars.
TURN, TOP_SIZE, TOP_RANK, RETURNED, REVOLUTION, PASSED, LAST, NFIN, N = range(9)
# Rule flags: revolution, revolution_size, eight_cut, spade3_return, max_group.


@njit(cache=True, inline="always")
def _popcount(x: np.uint64) -> int:
    n = 0
    while x:
        x &= x - np.uint64(1)
        n += 1
    return n


@njit(cache=True)
def _jokers(hand: np.uint64) -> int:
    return int((hand >> np.uint64(52)) & np.uint64(1)) + int((hand >> np.uint64(53)) & np.uint64(1))


@njit(cache=True)
def _jmask(j: int) -> np.uint64:
    if j == 0:
        return np.uint64(0)
    if j == 1:
        return np.uint64(1 << 52)
    return np.uint64(3 << 52)


@njit(cache=True)
def gen_moves(
    hand: np.uint64,
    top_size: int,
    top_rank: int,
    returned: int,
    revolution: int,
    spade3_return: int,
    max_group: int,
    out: np.ndarray,
) -> int:
    """Fill ``out`` with the legal play masks of ``hand`` on the field; return their count.

    ``top_size`` 0 means an empty field. Passing is not included.
    """
    count = 0
    if top_size > 0 and returned:
        return 0
    jk = _jokers(hand)
    if top_size > 0 and top_rank == 13:
        if spade3_return and top_size == 1 and (hand & np.uint64(1)):
            out[0] = np.uint64(1)
            return 1
        return 0
    for r in range(13):
        if top_size > 0:
            if revolution:
                if r >= top_rank:
                    continue
            elif r <= top_rank:
                continue
        nat = int((hand >> np.uint64(4 * r)) & np.uint64(15))
        nn = _popcount(np.uint64(nat))
        if nn == 0:
            continue
        lo = 1
        hi = min(max_group, nn + jk)
        if top_size > 0:
            if top_size > hi:
                continue
            lo = top_size
            hi = top_size
        for size in range(lo, hi + 1):
            jlo = max(0, size - nn)
            jhi = min(jk, size - 1)
            for j in range(jlo, jhi + 1):
                want = size - j
                for sub in range(1, 16):
                    if (sub & nat) != sub or _popcount(np.uint64(sub)) != want:
                        continue
                    out[count] = (np.uint64(sub) << np.uint64(4 * r)) | _jmask(j)
                    count += 1
    if top_size == 0:
        for j in range(1, min(jk, max_group) + 1):
            out[count] = _jmask(j)
            count += 1
    elif top_size <= jk:
        out[count] = _jmask(top_size)
        count += 1
    return count


@njit(cache=True)
def _move_rank(move: np.uint64) -> int:
    nat = move & np.uint64((1 << 52) - 1)
    if nat == 0:
        return 13
    r = 0
    while not (nat & np.uint64(15)):
        nat >>= np.uint64(4)
        r += 1
    return r


@njit(cache=True)
def _next_active(st: np.ndarray, seat: int) -> int:
    n = st[N]
    order = st[9 : 9 + n]
    pos = st[9 + n : 9 + 2 * n]
    hands_base = 9 + 3 * n
    i = pos[seat]
    for k in range(1, n + 1):
        nxt = order[(i + k) % n]
        if st[hands_base + nxt] != 0:
            return int(nxt)
    return -1


@njit(cache=True)
def _has_follow(st: np.ndarray, hand: np.uint64, flags: np.ndarray, buf: np.ndarray) -> bool:
    return (
        gen_moves(
            hand, st[TOP_SIZE], st[TOP_RANK], st[RETURNED], st[REVOLUTION], flags[3], flags[4], buf
        )
        > 0
    )


@njit(cache=True)
def _flush(st: np.ndarray) -> None:
    st[TOP_SIZE] = 0
    st[TOP_RANK] = -1
    st[RETURNED] = 0
    st[PASSED] = 0


@njit(cache=True)
def _advance(st: np.ndarray, seat: int, flags: np.ndarray, buf: np.ndarray) -> None:
    n = st[N]
    order = st[9 : 9 + n]
    pos = st[9 + n : 9 + 2 * n]
    hb = 9 + 3 * n
    last = st[LAST]
    while True:
        nxt = -1
        i = pos[seat]
        for k in range(1, n + 1):
            x = order[(i + k) % n]
            if st[hb + x] != 0 and not (st[PASSED] >> x) & 1 and x != last:
                nxt = x
                break
        if nxt < 0:
            _flush(st)
            if st[hb + last] != 0:
                st[TURN] = last
            else:
                st[TURN] = _next_active(st, last)
            return
        if _has_follow(st, np.uint64(st[hb + nxt]), flags, buf):
            st[TURN] = nxt
            return
        st[PASSED] |= 1 << nxt
        seat = nxt


@njit(cache=True)
def step(st: np.ndarray, move: np.uint64, flags: np.ndarray, buf: np.ndarray) -> bool:
    """Apply ``move`` (0: pass) for the seat to act, unchecked; return whether the game ended."""
    n = st[N]
    hb = 9 + 3 * n
    seat = st[TURN]
    if move == 0:
        st[PASSED] |= 1 << seat
        _advance(st, seat, flags, buf)
        return False
    size = _popcount(move)
    rank = _move_rank(move)
    returned = 1 if (st[TOP_SIZE] == 1 and st[TOP_RANK] == 13) else 0
    hand = np.uint64(st[hb + seat])
    nat = move & np.uint64((1 << 52) - 1)
    hand = hand & ~nat
    j = _popcount(move >> np.uint64(52))
    hj = _jokers(hand) - j
    hand = (hand & np.uint64((1 << 52) - 1)) | _jmask(hj)
    st[hb + seat] = np.int64(hand)
    st[TOP_SIZE] = size
    st[TOP_RANK] = rank
    st[RETURNED] = returned
    st[LAST] = seat
    if flags[0] and size >= flags[1] and rank != 13 and not returned:
        st[REVOLUTION] = 1 - st[REVOLUTION]
    if hand == 0:
        st[9 + 2 * n + st[NFIN]] = seat
        st[NFIN] += 1
    active = 0
    for x in range(n):
        if st[hb + x] != 0:
            active += 1
    if active <= 1:
        for x in range(n):
            if st[hb + x] != 0:
                st[9 + 2 * n + st[NFIN]] = x
                st[NFIN] += 1
        st[TURN] = -1
        return True
    if flags[2] and rank == 5:
        _flush(st)
        if st[hb + seat] != 0:
            st[TURN] = seat
        else:
            st[TURN] = _next_active(st, seat)
        return False
    _advance(st, seat, flags, buf)
    return False


@njit(cache=True)
def _choose(
    st: np.ndarray, flags: np.ndarray, buf: np.ndarray, policy: int, eps: float
) -> np.uint64:
    n = st[N]
    hb = 9 + 3 * n
    seat = st[TURN]
    hand = np.uint64(st[hb + seat])
    k = gen_moves(
        hand, st[TOP_SIZE], st[TOP_RANK], st[RETURNED], st[REVOLUTION], flags[3], flags[4], buf
    )
    can_pass = st[TOP_SIZE] > 0
    if policy == 0 or np.random.random() < eps:
        total = k + (1 if can_pass else 0)
        i = np.random.randint(total)
        return buf[i] if i < k else np.uint64(0)
    # Greedy default policy: the weakest group, most cards first on a lead; keep jokers, 2s and
    # 8s unless they are all that can be played.
    best = np.uint64(0)
    best_key = 1 << 30
    for i in range(k):
        m = buf[i]
        r = _move_rank(m)
        strength = r if not st[REVOLUTION] else 12 - r
        if r == 13:
            strength = 40
        elif r == 12 or r == 5:
            strength += 20
        js = _popcount(m >> np.uint64(52))
        key = strength * 16 + js * 4 - (_popcount(m) if st[TOP_SIZE] == 0 else 0)
        if key < best_key:
            best_key = key
            best = m
    if can_pass and best_key >= 20 * 16 and _popcount(hand) > 4:
        return np.uint64(0)
    return best


@njit(cache=True)
def run(st: np.ndarray, flags: np.ndarray, policy: int, eps: float) -> None:
    """Play the game in ``st`` to its end with the default policy (0: random, 1: greedy)."""
    buf = np.zeros(MAXMOVES, dtype=np.uint64)
    if st[TURN] < 0:
        return
    while True:
        m = _choose(st, flags, buf, policy, eps)
        if step(st, m, flags, buf):
            return


@njit(cache=True)
def _seed(seed: int) -> None:
    np.random.seed(seed)


@njit(cache=True)
def batch(
    base: np.ndarray,
    hands: np.ndarray,
    first_moves: np.ndarray,
    flags: np.ndarray,
    policy: int,
    eps: float,
    seed: int,
) -> np.ndarray:
    """Playouts from one position: every row of ``hands`` times every candidate first move.

    Rows are hidden hands sampled by the caller; returns finishing positions ``[i, move, seat]``.
    """
    np.random.seed(seed)
    n = base[N]
    hb = 9 + 3 * n
    rows = hands.shape[0]
    moves = first_moves.shape[0]
    out = np.zeros((rows, moves, n), dtype=np.int64)
    buf = np.zeros(MAXMOVES, dtype=np.uint64)
    for i in range(rows):
        for mv in range(moves):
            st = base.copy()
            for x in range(n):
                st[hb + x] = hands[i, x]
            if not step(st, first_moves[mv], flags, buf):
                while True:
                    m = _choose(st, flags, buf, policy, eps)
                    if step(st, m, flags, buf):
                        break
            for p in range(n):
                out[i, mv, st[9 + 2 * n + p]] = p
    return out


mask_of = C.card_set
"""The mask of cards given as codes: :func:`.cards.card_set`."""

cards_of = C.cards_in
"""The codes of a mask: :func:`.cards.cards_in`."""


def flags_of(state: DaifugoState) -> np.ndarray:
    """The rule flags array of a state's rules."""
    r = state.rules
    return np.array(
        [int(r.revolution), r.revolution_size, int(r.eight_cut), int(r.spade3_return), r.max_group],
        dtype=np.int64,
    )


class Sim:
    """One game's play phase as a compact array, built from an engine state.

    Args:
        state: An engine state in the play phase.
        hands: Hands (card sets) to use instead of the state's (e.g. sampled hidden hands).
    """

    def __init__(self, state: DaifugoState, hands: Sequence[int] | None = None) -> None:
        if state.phase != "play":
            raise ValueError("the simulator covers the play phase only")
        n = len(state.players)
        hs = state.hands if hands is None else hands
        st = np.zeros(9 + 4 * n, dtype=np.int64)
        top = state.top
        st[TURN] = state.turn
        st[TOP_SIZE] = top.combo.size if top else 0
        st[TOP_RANK] = top.combo.rank if top else -1
        st[RETURNED] = int(top.returned) if top else 0
        st[REVOLUTION] = int(state.revolution)
        st[PASSED] = sum(1 << s for s in state.passed)
        st[LAST] = top.seat if top else -1
        st[NFIN] = len(state.finished)
        st[N] = n
        for i, s in enumerate(state.order):
            st[9 + i] = s
            st[9 + n + s] = i
        for i, s in enumerate(state.finished):
            st[9 + 2 * n + i] = s
        for s in range(n):
            st[9 + 3 * n + s] = hs[s]
        self.n = n
        self.st = st
        self.flags = flags_of(state)
        self._buf = np.zeros(MAXMOVES, dtype=np.uint64)

    @property
    def turn(self) -> int:
        """The seat to act (-1 when the game is over)."""
        return int(self.st[TURN])

    def hand(self, seat: int) -> int:
        """The mask of a seat's hand."""
        return int(np.uint64(self.st[9 + 3 * self.n + seat]))

    def finish(self) -> list[int]:
        """Seats in finishing order so far."""
        n = self.n
        return [int(x) for x in self.st[9 + 2 * n : 9 + 2 * n + self.st[NFIN]]]

    def legal_masks(self) -> list[int]:
        """The legal moves of the seat to act (0 = pass, listed last when allowed)."""
        st = self.st
        k = gen_moves(
            np.uint64(self.hand(self.turn)),
            int(st[TOP_SIZE]),
            int(st[TOP_RANK]),
            int(st[RETURNED]),
            int(st[REVOLUTION]),
            int(self.flags[3]),
            int(self.flags[4]),
            self._buf,
        )
        out = [int(m) for m in self._buf[:k]]
        if st[TOP_SIZE] > 0:
            out.append(0)
        return out

    def step(self, move: int) -> bool:
        """Apply a move (unchecked); return whether the game ended."""
        return bool(step(self.st, np.uint64(move), self.flags, self._buf))

    def playout(self, *, policy: int = 1, eps: float = 0.1, seed: int = 0) -> list[int]:
        """Play to the end with the default policy; return the finishing order."""
        _seed(seed)
        run(self.st, self.flags, policy, eps)
        return self.finish()

    def copy(self) -> Sim:
        """An independent copy."""
        other = object.__new__(Sim)
        other.n, other.flags, other._buf = self.n, self.flags, self._buf
        other.st = self.st.copy()
        return other


def playouts(
    sim: Sim,
    hands: np.ndarray,
    moves: Sequence[int],
    *,
    policy: int = 1,
    eps: float = 0.1,
    seed: int = 0,
) -> Any:
    """Finishing positions ``[sample, move, seat]`` of playouts from ``sim``.

    Args:
        sim: The position (its hands are replaced by each row of ``hands``).
        hands: ``[samples, seats]`` hand masks (int64).
        moves: Candidate first moves of the seat to act (0 = pass).
        policy: 0 random, 1 greedy with ``eps`` random moves.
        eps: Random move rate of the greedy policy.
        seed: Seed of the playouts' random stream.
    """
    first = np.array([np.uint64(m) for m in moves], dtype=np.uint64)
    return batch(sim.st, hands, first, sim.flags, policy, eps, seed)
