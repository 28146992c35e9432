"""A fast Daifugo simulator: the play phase of one game in Numba, every rules option.

What a search bot needs between its decision and the end of the game: move generation, the
play step (passes, flushes, 8-cuts, revolutions, 11-back, the suit lock, 5 skip, 7 pass, 10
discard, 都落ち, 千日手 drawn at random, finishing) and batched playouts. The readable engine
(:mod:`.engine`) is the oracle: the tests check, from many random positions of every option,
that both list the same legal moves and reach the same states and results.

Encoding (rules: ``docs/games/daifugo.md``):

- a **hand** is a card set (:mod:`.cards`): bit ``c`` is the natural card ``c``, the jokers are
  counted in bits 52-53;
- a **move** is a ``uint64``: its cards in bits 0-53; bit 58 marks a sequence, whose lowest rank
  plus one is in bits 54-57 (the joker may stand below 3: rank -1); in a group, bits 59-62 are
  the suits its jokers stand for (when the suit lock is played). 0 is a pass; during a 7 pass or
  10 discard a move is just the cards given or discarded.

The plain Python API: :class:`Sim` (built from an engine state), :meth:`Sim.legal_moves`,
:meth:`Sim.step`, :meth:`Sim.playout`, :func:`move_of` / :func:`combo_of` (engine combinations
and moves), and :func:`playouts` (a batch of playouts from one position with sampled hidden
hands).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from dennou.games.daifugo import cards as C
from dennou.games.daifugo.rules import DaifugoRules
from dennou.games.daifugo.state import DaifugoState

if TYPE_CHECKING:
    from numba.core.decorators import _JITWrapper

_NO_REFCOUNTS: dict[str, Any] = {"_nrt": False}  # a Numba option its type stubs do not list
no_alloc: _JITWrapper = njit(cache=True, **_NO_REFCOUNTS)
"""Compile a kernel function that creates no arrays, without reference counting (``@no_alloc``).

Numba otherwise counts the references of every array a call passes or a slice makes (a call and
an atomic add each way): a quarter of a batch step and of the engine's checked step. Such a
function may not create an array; Numba refuses to compile one that does.
"""

MAXMOVES = 32768
"""Room for every move of any hand: :func:`gen_moves` writes without a bounds check.

A hand holds at most 27 cards (two players): at most two nearly full suits with two jokers,
under 20,000 groups and sequences in all (a full suit has under 8,400 sequences).
"""

NAT = np.uint64((1 << 52) - 1)
_CARDS = np.uint64((1 << 54) - 1)
SEQ = np.uint64(1 << 58)
_LOW_SHIFT = np.uint64(54)
_JSUIT_SHIFT = np.uint64(59)

# State vector (int64): these scalars, then order[n], position[n], finish[n], hands[n].
(
    TURN,
    LAST,
    NFIN,
    N,
    PASSED,
    REVOLUTION,
    BACK,
    LOCK,
    PASS_RUN,
    FALLEN,
    TOP,
    RETURNED,
    FU_KIND,
    FU_COUNT,
    FU_TO,
    DAIFUGO,
    OVER,
    TKIND,
    TLOW,
    TSIZE,
    TSUITS,
    DISCARDS,
    FCOUNT,
    ENGINE,
    STALE,
) = range(25)
HEAD = 25
"""The scalars end here.

``TKIND``.. ``TSUITS``: the top move decoded (:func:`move_info`); ``DISCARDS``: the card set of
every card out of play this game; ``FCOUNT``: plays on the field; ``ENGINE``: 1 when the engine
drives the kernel (a 千日手 then stops, ``STALE``, for the engine's chance step, instead of being
drawn here).
"""

FMAX = 56
"""Plays the field can hold (each play takes at least one card)."""

MREG = 64
"""Legal moves of the seat to play that :func:`engine_step` keeps in the vector (its last
``MREG`` entries); more are only in the buffer."""


def size_of(n: int) -> int:
    """The length of the state vector of ``n`` players.

    The scalars, then order, position, finish and hands (``n`` each), then the field: its moves,
    then each one's ``seat | returned << 3`` (``FMAX`` each), then the legal moves the engine
    keeps (``MREG``).
    """
    return HEAD + 4 * n + 2 * FMAX + MREG


# Rule flags (int64), in this order.
FLAG_NAMES = (
    "revolution",
    "revolution_size",
    "sequence_revolution_size",
    "eight_cut",
    "spade3_return",
    "spade3_flush",
    "max_group",
    "sequences",
    "suit_lock",
    "eleven_back",
    "five_skip",
    "seven_pass",
    "ten_discard",
    "miyako_ochi",
    "lead_pass",
    "flush_on",
    "auto_pass",
    "stalemate_passes",
)
(
    F_REV,
    F_REVSIZE,
    F_SEQREV,
    F_CUT,
    F_S3,
    F_S3FLUSH,
    F_MAXG,
    F_SEQS,
    F_LOCK,
    F_BACK,
    F_SKIP,
    F_SEVEN,
    F_TEN,
    F_MIYAKO,
    F_LEADPASS,
    F_FLUSHALL,
    F_AUTO,
    F_STALE,
) = range(18)

FIVE, SEVEN, EIGHT, TEN, JACK = C.FIVE, C.SEVEN, C.EIGHT, C.TEN, C.JACK


# --- moves -------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _popcount(x: np.uint64) -> np.int64:
    """Set bits, one loop per bit: the values here are small (moves, nibbles, hands)."""
    n = np.int64(0)
    while x:
        x &= x - np.uint64(1)
        n += 1
    return n


_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_BIT_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _BIT_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 & (2**64 - 1)) >> 58] = _i


def _lex_tables() -> tuple[np.ndarray, np.ndarray]:
    subsets = np.zeros((16, 5, 6), dtype=np.int64)
    counts = np.zeros((16, 5), dtype=np.int64)
    for nib in range(16):
        present = [s for s in range(4) if nib >> s & 1]
        for k in range(5):
            for i, chosen in enumerate(combinations(present, k)):
                subsets[nib, k, i] = sum(1 << s for s in chosen)
                counts[nib, k] = i + 1
    return subsets, counts


_LEX, _LEX_COUNT = _lex_tables()
"""``_LEX[suits, k, :_LEX_COUNT[suits, k]]``: the ``k``-suit subsets of a suit set in the order
of ``itertools.combinations`` (the readable generators' order)."""


@njit(cache=True, inline="always")
def _jbits(j: Any) -> np.uint64:
    if j <= 0:
        return np.uint64(0)
    if j == 1:
        return np.uint64(1 << 52)
    return np.uint64(3 << 52)


@njit(cache=True, inline="always")
def _jokers(m: np.uint64) -> np.int64:
    return _popcount((m >> np.uint64(52)) & np.uint64(3))


@njit(cache=True, inline="always")
def _lowest(x: np.uint64) -> Any:
    """The index of the lowest set bit of ``x`` (not 0), by a de Bruijn multiplication."""
    return _BIT_INDEX[((x & (~x + np.uint64(1))) * _DEBRUIJN) >> np.uint64(58)]


@no_alloc
def move_info(m: np.uint64) -> Any:
    """``(kind, low rank, size, suits)`` of a play move (kind 0 group, 1 sequence)."""
    nat = m & NAT
    size = _popcount(nat) + _jokers(m)
    if m & SEQ:
        low = np.int64((m >> _LOW_SHIFT) & np.uint64(15)) - 1
        return np.int64(1), low, size, np.int64(1) << (_lowest(nat) & 3)
    if nat == 0:
        return np.int64(0), np.int64(13), size, np.int64(0)
    low = np.int64(_lowest(nat) >> 2)
    suits = np.int64((nat >> np.uint64(4 * low)) & np.uint64(15)) | np.int64(
        (m >> _JSUIT_SHIFT) & np.uint64(15)
    )
    return np.int64(0), low, size, suits


@njit(cache=True, inline="always")
def _count_of(kind: int, low: int, size: int, rank: int) -> Any:
    """How many cards of ``rank`` a decoded move holds (jokers standing in count)."""
    if kind == 1:
        return 1 if low <= rank <= low + size - 1 else 0
    return size if low == rank else 0


@no_alloc
def _count(m: np.uint64, rank: int) -> Any:
    """How many cards of ``rank`` the move holds (jokers standing in count)."""
    kind, low, size, _ = move_info(m)
    return _count_of(kind, low, size, rank)


@no_alloc
def _beats_top(
    m: np.uint64, tkind: int, tlow: int, tsize: int, reverse: int, lock: int, s3: int
) -> bool:
    """:func:`.cards.beats` of a move on a decoded top (not returned)."""
    kind, low, size, suits = move_info(m)
    if kind != tkind or size != tsize:
        return False
    if tkind == 0 and tlow == 13:
        return s3 != 0 and size == 1 and m == np.uint64(1)
    if kind == 0 and low == 13:
        return True
    if lock and suits != lock:
        return False
    if kind == 0:
        return bool(low < tlow if reverse else low > tlow)
    return bool(low + size - 1 < tlow if reverse else low > tlow + tsize - 1)


@no_alloc
def _beats(m: np.uint64, top: np.uint64, reverse: int, returned: int, lock: int, s3: int) -> bool:
    """:func:`.cards.beats` on moves."""
    if returned:
        return False
    tkind, tlow, tsize, _ = move_info(top)
    return _beats_top(m, tkind, tlow, tsize, reverse, lock, s3)


@njit(cache=True, inline="always")
def _keep(
    out: np.ndarray,
    k: int,
    m: np.uint64,
    tkind: int,
    tlow: int,
    tsize: int,
    rev: int,
    lock: int,
) -> int:
    """Append ``m`` if it beats the decoded top (``tkind`` -1: an empty field).

    ``out`` holds :data:`MAXMOVES`, more than any hand has moves, so the store needs no guard
    (several times faster here than a guarded one).
    """
    out[k] = m  # stored always, counted if it beats: conditional stores cost a lot here
    return k + (1 if tkind < 0 or _beats_top(m, tkind, tlow, tsize, rev, lock, 0) else 0)


_SUIT_ROW = np.uint64(0x1111111111111)
"""One bit a rank, at suit 0 (the suit's other bits: shifted by the suit)."""


@njit(cache=True, inline="always")
def _beating(rank: Any, reverse: Any) -> np.uint64:
    """The card set of every natural of a rank stronger than ``rank`` (``reverse``: lower)."""
    lower = (np.uint64(1) << np.uint64(4 * rank)) - np.uint64(1)
    return lower if reverse else NAT & ~((lower << np.uint64(4)) | np.uint64(15))


@no_alloc
def gen_moves(
    hand: np.uint64, st: np.ndarray, fl: np.ndarray, out: np.ndarray, limit: int = 0
) -> int:
    """Fill ``out`` with the legal plays of ``hand`` on the state's field; return their count.

    Passing is not included. On a field with cards, only moves beating the top are kept.
    ``limit``: stop once that many are found (0: all). ``out`` must hold :data:`MAXMOVES`.
    """
    top = np.uint64(st[TOP])
    if top != 0 and st[RETURNED]:
        return 0
    tkind, tlow, tsize = -1, -1, 0
    rev = 1 if st[REVOLUTION] != st[BACK] else 0
    lock = st[LOCK]
    if top != 0:
        tkind, tlow, tsize = st[TKIND], st[TLOW], st[TSIZE]
        if tkind == 0 and tlow == 13:  # a joker alone: only the 3 of spades
            if fl[F_S3] and tsize == 1 and hand & np.uint64(1):
                out[0] = np.uint64(1)
                return 1
            return 0
    jk: Any = _jokers(hand)
    maxg = fl[F_MAXG]
    k = 0
    if tkind != 1:
        # Groups. On a top group the ranks and sizes are pruned here, so a kept group beats it
        # once it has the locked suits (when locked).
        # The ranks held (a bit at 4 x rank), and on a top group only those that beat it: the
        # loop visits them alone, lowest rank first (the readable order), instead of all 13.
        held_ranks = hand & NAT
        held_ranks = held_ranks | held_ranks >> np.uint64(1)
        held_ranks = (held_ranks | held_ranks >> np.uint64(2)) & _SUIT_ROW
        if tkind == 0:
            held_ranks &= _beating(tlow, rev)
        while held_ranks:
            r = _lowest(held_ranks) >> 2
            held_ranks &= held_ranks - np.uint64(1)
            if limit and k >= limit:
                return k
            nib = np.int64((hand >> np.uint64(4 * r)) & np.uint64(15))
            if tkind == 0 and _popcount(np.uint64(nib)) + jk < tsize:
                continue
            nn: Any = _popcount(np.uint64(nib))
            lo: Any = tsize if tkind == 0 else 1
            hi: Any = min(maxg, tsize if tkind == 0 else nn + jk)
            for size in range(lo, hi + 1):  # the order of cards.groups
                for j in range(max(0, size - nn), min(jk, size - 1) + 1):
                    kn = size - j
                    for i in range(_LEX_COUNT[nib, kn]):
                        cur = _LEX[nib, kn, i]
                        nat = np.uint64(cur) << np.uint64(4 * r)
                        if j == 0 or not fl[F_LOCK]:
                            out[k] = nat | _jbits(j)  # stored always, counted if playable
                            k += 1 if not lock or cur == lock else 0
                            continue
                        free = 15 & ~cur
                        need: Any = min(j, _popcount(np.uint64(free)))
                        for t in range(_LEX_COUNT[free, need]):
                            js = _LEX[free, need, t]
                            out[k] = nat | _jbits(j) | (np.uint64(js) << _JSUIT_SHIFT)
                            k += 1 if not lock or cur | js == lock else 0
        for j in range(1, min(jk, maxg) + 1):  # jokers only: exempt from the lock
            out[k] = _jbits(j)
            k += 1 if tkind != 0 or j == tsize else 0
    if fl[F_SEQS] and tkind != 0 and not (limit and k >= limit):
        for s in range(4):
            # The suit's cards as one bit a rank (4 apart); a sequence needs 3 ranks in a row
            # with at most ``jk`` of them jokers, so most suits of a hand hold none: skip them
            # before the loops below look at every run (a lead's moves took 4x longer for them).
            row = (hand >> np.uint64(s)) & _SUIT_ROW
            if row == 0:
                continue
            if jk == 0 and not row & (row >> np.uint64(4)) & (row >> np.uint64(8)):
                continue
            if jk == 1 and not row & ((row >> np.uint64(4)) | (row >> np.uint64(8))):
                continue
            for low in range(-1, 12):
                # the run low..high grows a rank at a time: its cards and gaps kept as it grows
                held = np.uint64(0)
                missing = 0
                for r in range(low, low + 2):
                    if 0 <= r <= 12 and hand >> np.uint64(4 * r + s) & np.uint64(1):
                        held |= np.uint64(1) << np.uint64(4 * r + s)
                    else:
                        missing += 1
                if missing > jk:
                    continue
                for high in range(low + 2, 14):
                    run_size = high - low + 1
                    if high <= 12 and hand >> np.uint64(4 * high + s) & np.uint64(1):
                        held |= np.uint64(1) << np.uint64(4 * high + s)
                    else:
                        missing += 1
                    if missing > jk:
                        break
                    if tkind == 1 and run_size != tsize:
                        continue
                    base = _jbits(missing) | SEQ | (np.uint64(low + 1) << _LOW_SHIFT)
                    if held == 0:
                        continue
                    k = _keep(out, k, held | base, tkind, tlow, tsize, rev, lock)
                    if missing + 1 > jk:
                        continue
                    # a joker may also replace one held card, then (two jokers) two of them
                    one = _jbits(missing + 1) | SEQ | (np.uint64(low + 1) << _LOW_SHIFT)
                    rest = held
                    while rest:
                        b = rest & (~rest + np.uint64(1))
                        rest ^= b
                        if held ^ b:
                            k = _keep(out, k, (held ^ b) | one, tkind, tlow, tsize, rev, lock)
                    if missing + 2 > jk:
                        continue
                    two = _jbits(missing + 2) | SEQ | (np.uint64(low + 1) << _LOW_SHIFT)
                    rest = held
                    while rest:
                        b = rest & (~rest + np.uint64(1))
                        rest ^= b
                        later = rest
                        while later:
                            c = later & (~later + np.uint64(1))
                            later ^= c
                            if held ^ b ^ c:
                                m = (held ^ b ^ c) | two
                                k = _keep(out, k, m, tkind, tlow, tsize, rev, lock)
    return k


# --- the play step --------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _hand(st: np.ndarray, x: int) -> np.uint64:
    return np.uint64(st[HEAD + 3 * st[N] + x])


@njit(cache=True, inline="always")
def _set_hand(st: np.ndarray, x: int, h: np.uint64) -> None:
    st[HEAD + 3 * st[N] + x] = np.int64(h)


@no_alloc
def _remove(h: np.uint64, m: np.uint64) -> np.uint64:
    return (h & ~m & NAT) | _jbits(_jokers(h) - _jokers(m))


@no_alloc
def _add_cards(h: np.uint64, m: np.uint64) -> np.uint64:
    return ((h | m) & NAT) | _jbits(_jokers(h) + _jokers(m))


@no_alloc
def _next_active(st: np.ndarray, seat: int) -> int:
    n = st[N]
    i = st[HEAD + n + seat]
    for k in range(1, n + 1):
        j = i + k
        x = st[HEAD + (j - n if j >= n else j)]
        if _hand(st, x) != 0:
            return int(x)
    return -1


@no_alloc
def _active(st: np.ndarray) -> int:
    c = 0
    for x in range(st[N]):
        if _hand(st, x) != 0:
            c += 1
    return c


@no_alloc
def _finish(st: np.ndarray, x: int) -> None:
    st[HEAD + 2 * st[N] + st[NFIN]] = x
    st[NFIN] += 1


@no_alloc
def _end(st: np.ndarray) -> None:
    """The game is over: the holders (in turn order), then the fallen 大富豪, are placed.

    In engine mode the placing is left to the engine's rules (``st`` keeps the last position).
    """
    st[OVER] = 1
    if st[ENGINE]:
        return
    n = st[N]
    for i in range(n):
        x = st[HEAD + i]
        if _hand(st, x) != 0:
            _finish(st, x)
            _set_hand(st, x, np.uint64(0))
    if st[FALLEN] >= 0:
        _finish(st, st[FALLEN])
    st[TURN] = -1
    st[OVER] = 1


@no_alloc
def _stalemate(st: np.ndarray) -> None:
    """千日手: the seats still holding cards are placed in a random order."""
    n = st[N]
    at = HEAD + 2 * n + st[NFIN]  # the holders, in turn order, shuffled where they finish
    c = 0
    for i in range(n):
        x = st[HEAD + i]
        if _hand(st, x) != 0:
            st[at + c] = x
            c += 1
    for i in range(c - 1, 0, -1):
        j = np.random.randint(i + 1)
        st[at + i], st[at + j] = st[at + j], st[at + i]
    for i in range(c):
        _set_hand(st, st[at + i], np.uint64(0))
    st[NFIN] += c
    _end(st)


@no_alloc
def _go_out(st: np.ndarray, fl: np.ndarray, seat: int) -> bool:
    """``seat`` is out (and 都落ち); whether the game is over."""
    _finish(st, seat)
    d = st[DAIFUGO]
    if fl[F_MIYAKO] and st[NFIN] == 1 and d >= 0 and d != seat and _hand(st, d) != 0:
        st[DISCARDS] = np.int64(_add_cards(np.uint64(st[DISCARDS]), _hand(st, d)))
        _set_hand(st, d, np.uint64(0))
        st[FALLEN] = d
    return _active(st) <= 1


@no_alloc
def _flush(st: np.ndarray) -> None:
    base = HEAD + 4 * st[N]
    discards = np.uint64(st[DISCARDS])
    for i in range(st[FCOUNT]):
        discards = _add_cards(discards, np.uint64(st[base + i]) & _CARDS)
    st[DISCARDS] = np.int64(discards)
    st[FCOUNT] = 0
    st[TOP] = 0
    st[RETURNED] = 0
    st[PASSED] = 0
    st[LOCK] = 0
    st[BACK] = 0


@no_alloc
def _lead(st: np.ndarray, seat: int) -> None:
    x = seat if _hand(st, seat) != 0 else _next_active(st, seat)
    st[TURN] = x
    st[LAST] = x


_M5 = np.uint64(0x5555555555555)
_M3 = np.uint64(0x3333333333333)
_M8 = np.uint64(0x8888888888888)
_ADD = np.array([0, 0x7777777777777, 0x6666666666666, 0x5555555555555, 0x4444444444444])
_LOCKED = np.array([sum(nib << (4 * r) for r in range(13)) for nib in range(16)], dtype=np.uint64)


@no_alloc
def _can_play(st: np.ndarray, fl: np.ndarray, x: int, buf: np.ndarray) -> bool:
    """Whether seat ``x`` holds a play on the field (:func:`.fast.can_follow` on vectors)."""
    hand = _hand(st, x)
    if st[TOP] == 0:
        return bool(hand != 0)
    if st[RETURNED]:
        return False
    if st[TKIND] != 0:
        return gen_moves(hand, st, fl, buf, 1) > 0  # a sequence on the field
    size = st[TSIZE]
    if st[TLOW] == 13:  # jokers only: the 3 of spades, alone
        return bool(fl[F_S3] and size == 1 and hand & np.uint64(1))
    if size > fl[F_MAXG]:
        return False
    jokers = _jokers(hand)
    if jokers >= size:
        return True  # the jokers alone (exempt from any lock)
    need = size - jokers
    if need > 4:
        return False
    # the ranks that beat the top, of the locked suits: any with ``need`` natural cards?
    beat = _beating(st[TLOW], st[REVOLUTION] != st[BACK])
    mask = hand & beat
    if st[LOCK]:
        mask &= _LOCKED[st[LOCK]]
    c = mask - ((mask >> np.uint64(1)) & _M5)
    c = (c & _M3) + ((c >> np.uint64(2)) & _M3)
    return bool((c + np.uint64(_ADD[need])) & _M8 & beat)


@no_alloc
def _passes(st: np.ndarray, fl: np.ndarray, seat: int) -> bool:
    """``seat`` passes; whether that made a 千日手 (which ends the game, or stops the engine)."""
    st[PASSED] |= 1 << seat
    st[PASS_RUN] += 1
    if fl[F_STALE] and st[PASS_RUN] >= fl[F_STALE]:
        if st[ENGINE]:
            st[STALE] = 1
        else:
            _stalemate(st)
        return True
    return False


@njit(cache=True, inline="always")
def _in_round(st: np.ndarray, fl: np.ndarray, x: int, last: int, passed: int) -> bool:
    return bool(_hand(st, x) != 0 and not (passed >> x) & 1 and (x != last or fl[F_FLUSHALL] != 0))


@njit(cache=True, inline="always")
def _offer(st: np.ndarray, fl: np.ndarray, x: int, buf: np.ndarray) -> bool:
    """Seat ``x`` of the round gets the turn, or is passed for (automatic passes, no play).

    Returns whether the turn step is over: the turn given, or a 千日手.
    """
    if not fl[F_AUTO] or _can_play(st, fl, x, buf):
        st[TURN] = x
        return True
    return _passes(st, fl, x)


@no_alloc
def _advance(st: np.ndarray, fl: np.ndarray, seat: int, skips: int, buf: np.ndarray) -> None:
    """The engine's turn step after ``seat`` played or passed.

    The seats in the round after ``seat`` (then ``seat``), ``skips`` of them skipped first,
    forced passes; nobody left: flush, the last player leads.
    """
    n = st[N]
    last = st[LAST]
    passed = st[PASSED]  # the round as it was: forced passes below only mark visited seats
    i = st[HEAD + n + seat]
    if skips == 0:  # nearly every step: one pass round the ring, no count needed
        for k in range(1, n + 1):
            j = i + k  # the ring's index without a division (``%`` cost ~5% of a step)
            x = st[HEAD + (j - n if j >= n else j)]
            if _in_round(st, fl, x, last, passed) and _offer(st, fl, x, buf):
                return
        _flush(st)
        _lead(st, last)
        return
    c = 0
    for k in range(1, n + 1):
        if _in_round(st, fl, st[HEAD + (i + k) % n], last, passed):
            c += 1
    if c:
        start = skips % c
        for sweep in range(2):  # the ring from its start-th seat, then the skipped ones
            j = 0
            for k in range(1, n + 1):
                x = st[HEAD + (i + k) % n]
                if not _in_round(st, fl, x, last, passed):
                    continue
                j += 1
                if (j <= start) if sweep == 0 else (j > start):
                    continue
                if _offer(st, fl, x, buf):
                    return
    _flush(st)
    _lead(st, last)


@no_alloc
def _after_play(st: np.ndarray, fl: np.ndarray, seat: int, buf: np.ndarray) -> None:
    kind, low, size = st[TKIND], st[TLOW], st[TSIZE]
    if fl[F_CUT] and _count_of(kind, low, size, EIGHT):
        _flush(st)
        _lead(st, seat)
        return
    if st[RETURNED] and fl[F_S3FLUSH]:
        _flush(st)
        _lead(st, seat)
        return
    skips = _count_of(kind, low, size, FIVE) if fl[F_SKIP] else 0
    _advance(st, fl, seat, skips, buf)


@no_alloc
def _follow_up_due(st: np.ndarray, fl: np.ndarray, seat: int, given: bool) -> bool:
    if not fl[F_SEVEN] and not fl[F_TEN]:
        return False
    kind, low, size = st[TKIND], st[TLOW], st[TSIZE]
    held = _popcount(_hand(st, seat))
    sevens = _count_of(kind, low, size, SEVEN) if fl[F_SEVEN] and not given else 0
    if sevens:
        st[FU_KIND], st[FU_COUNT], st[FU_TO] = 1, min(sevens, held), _next_active(st, seat)
        return True
    tens = _count_of(kind, low, size, TEN) if fl[F_TEN] else 0
    if tens:
        st[FU_KIND], st[FU_COUNT], st[FU_TO] = 2, min(tens, held), -1
        return True
    return False


@no_alloc
def step(st: np.ndarray, move: np.uint64, fl: np.ndarray, buf: np.ndarray) -> bool:
    """Apply ``move`` for the seat to act, unchecked; return whether the game ended."""
    seat = st[TURN]
    if st[FU_KIND]:
        kind, to = st[FU_KIND], st[FU_TO]
        st[FU_KIND] = 0
        _set_hand(st, seat, _remove(_hand(st, seat), move))
        if kind == 1:
            _set_hand(st, to, _add_cards(_hand(st, to), move))
        else:
            st[DISCARDS] = np.int64(_add_cards(np.uint64(st[DISCARDS]), move))
        if _hand(st, seat) == 0:
            if _go_out(st, fl, seat):
                _end(st)
                return True
        elif kind == 1 and _follow_up_due(st, fl, seat, True):
            return False
        _after_play(st, fl, seat, buf)
        return bool(st[OVER] == 1)
    if move == 0:
        if _passes(st, fl, seat):
            return True
        _advance(st, fl, seat, 0, buf)
        return bool(st[OVER] == 1)
    kind, low, size, suits = move_info(move)
    returned = 0
    if st[TOP] != 0:
        if st[TKIND] == 0 and st[TLOW] == 13 and st[TSIZE] == 1 and move == np.uint64(1):
            returned = 1
        if fl[F_LOCK] and st[LOCK] == 0 and suits != 0 and suits == st[TSUITS]:
            st[LOCK] = suits
    _set_hand(st, seat, _remove(_hand(st, seat), move))
    base = HEAD + 4 * st[N]
    st[base + st[FCOUNT]] = np.int64(move)
    st[base + FMAX + st[FCOUNT]] = seat | returned << 3
    st[FCOUNT] += 1
    st[TOP] = np.int64(move)
    st[TKIND], st[TLOW], st[TSIZE], st[TSUITS] = kind, low, size, suits
    st[RETURNED] = returned
    st[LAST] = seat
    st[PASS_RUN] = 0
    if fl[F_REV] and not returned:
        if kind == 1:
            if 0 < fl[F_SEQREV] <= size:
                st[REVOLUTION] = 1 - st[REVOLUTION]
        elif size >= fl[F_REVSIZE] and low != 13:
            st[REVOLUTION] = 1 - st[REVOLUTION]
    if fl[F_BACK] and _count_of(kind, low, size, JACK):
        st[BACK] = 1 - st[BACK]
    if _hand(st, seat) == 0:
        if _go_out(st, fl, seat):
            _end(st)
            return True
    elif _follow_up_due(st, fl, seat, False):
        return False
    _after_play(st, fl, seat, buf)
    return bool(st[OVER] == 1)


ILLEGAL, HANDED_BACK, GAME_OVER = -1, -2, -3
"""What :func:`engine_step` answers instead of the next position (a game over carries its
:func:`engine_step` summary too: ``GAME_OVER - 4 * summary``)."""

INFO_SHIFT = 24
"""Where :func:`engine_step`'s summary of the step starts in its answer."""

(
    I_RETURNED,
    I_LOCKS,
    I_REVOLUTION,
    I_BACK,
    I_LOCK,
    I_NFIN,
    I_FLUSHED,
    I_OUT,
    I_FELL,
    I_FIRST,
    I_PASSED,
    I_LEADS,
) = (1, 2, 4, 8, 4, 8, 1 << 12, 1 << 13, 1 << 14, 15, 18, 1 << 26)
"""The summary's fields: bits (``I_RETURNED``: a spade-3 return; ``I_LOCKS``: the play locked
the suits; ``I_REVOLUTION``, ``I_BACK``: as they were before; ``I_FLUSHED``: the field flushed
after the turn went round; ``I_OUT``: the player went out; ``I_FELL``: 都落ち; ``I_LEADS``: the
field flushed, for any reason, and the seat to play leads) and shifts (``I_LOCK``: the lock
before, 4 bits; ``I_NFIN``: players out before, 4 bits, given only when the player went out;
``I_FIRST``: the first seat passed for, 3 bits; ``I_PASSED``: the seats passed for, 8 bits). A
summary holds nothing the step's events do not depend on, so that equal summaries (with the
move, the seat and, under ``I_LEADS``, the next seat) mean equal events."""


@no_alloc
def _round_info(
    st: np.ndarray, fl: np.ndarray, seat: int, skips: int, last: int, passed: int, flushed: bool
) -> int:
    """The seats :func:`_advance` passed for after ``seat``: their set and the first of them.

    The round is as :func:`_advance` saw it (``last``, ``passed``, the hands after the play);
    the seats passed for are the round's first ones from its ``skips``-th on, all of them when
    the field flushed.
    """
    n = st[N]
    i = st[HEAD + n + seat]
    count = 0
    for k in range(1, n + 1):
        if _in_round(st, fl, st[HEAD + (i + k) % n], last, passed):
            count += 1
    if count == 0:
        return 0
    start = skips % count
    first = -1
    ring = 0
    j = 0
    for k in range(1, n + 1):
        x = st[HEAD + (i + k) % n]
        if _in_round(st, fl, x, last, passed):
            if j == start:
                first = x
            j += 1
            ring |= 1 << x
    auto = ring if flushed else st[PASSED] & ~passed
    if auto == 0:
        return 0
    return first << I_FIRST | auto << I_PASSED


@no_alloc
def engine_step(st: np.ndarray, move: np.uint64, fl: np.ndarray, buf: np.ndarray) -> int:
    """The engine's play or pass ``move`` (0) of the seat to play, checked, on ``st`` in place.

    Returns ``summary << INFO_SHIFT | moves << 8 | turn << 1 | top``: what the step did for its
    events (the ``I_`` fields), how many legal plays the seat to play next has (listed in
    ``buf`` in the readable rules' order), that seat, and whether the field has a top. Or
    :data:`ILLEGAL` (not legal now); ``GAME_OVER - 4 * summary`` (the game ended: ``st`` holds
    its finishing order); :data:`HANDED_BACK` when the move makes a 千日手 or owes a 7 pass or
    10 discard: the engine's readable rules take those from the state before.
    """
    if st[FU_KIND] or st[OVER]:
        return HANDED_BACK
    seat = st[TURN]
    info = 0  # a pass's events depend on none of the position before
    nfin = st[NFIN]
    passed = st[PASSED]
    last = st[LAST]
    fallen = st[FALLEN]
    skips = 0
    advances = True
    if move == 0:
        if st[TOP] == 0 and not fl[F_LEADPASS]:
            return ILLEGAL
        passed |= 1 << seat
    else:
        hand = _hand(st, seat)
        if move & _CARDS & ~hand:
            return ILLEGAL
        info = st[REVOLUTION] * I_REVOLUTION | st[BACK] * I_BACK | st[LOCK] << I_LOCK
        kind, low, size, suits = move_info(move)
        if st[TOP] != 0:
            if st[RETURNED]:
                return ILLEGAL
            rev = 1 if st[REVOLUTION] != st[BACK] else 0
            if not _beats_top(move, st[TKIND], st[TLOW], st[TSIZE], rev, st[LOCK], fl[F_S3]):
                return ILLEGAL
            if st[TKIND] == 0 and st[TLOW] == 13 and st[TSIZE] == 1 and move == np.uint64(1):
                info |= I_RETURNED
            if fl[F_LOCK] and st[LOCK] == 0 and suits != 0 and suits == st[TSUITS]:
                info |= I_LOCKS
        last = seat
        if (fl[F_CUT] and _count_of(kind, low, size, EIGHT)) or (
            info & I_RETURNED and fl[F_S3FLUSH]
        ):
            advances = False
        elif fl[F_SKIP]:
            skips = _count_of(kind, low, size, FIVE)
    over = step(st, move, fl, buf)
    if st[STALE] or st[FU_KIND]:
        return HANDED_BACK
    if move != 0 and _hand(st, seat) == 0:
        info |= I_OUT | nfin << I_NFIN
        if fallen < 0 and st[FALLEN] >= 0:
            info |= I_FELL
    if over:
        return int(GAME_OVER - 4 * info)
    if advances:
        flushed = st[FCOUNT] == 0 and (move != 0 or st[PASSED] == 0)
        if flushed:
            info |= I_FLUSHED | I_LEADS
        info |= _round_info(st, fl, seat, skips, last, passed, flushed)
    else:
        info |= I_LEADS
    k: Any = legal_moves(st, fl, buf)
    return int(info << INFO_SHIFT | k << 8 | st[TURN] << 1 | (1 if st[TOP] != 0 else 0))


@no_alloc
def legal_moves(st: np.ndarray, fl: np.ndarray, buf: np.ndarray) -> int:
    """The legal plays of the seat to play (passing aside), in ``buf``; their count.

    The first :data:`MREG` are also kept in the vector's last entries.
    """
    k = gen_moves(_hand(st, st[TURN]), st, fl, buf)
    end = st.shape[0] - MREG
    for i in range(min(k, MREG)):
        st[end + i] = np.int64(buf[i])
    return k


# --- playouts ---------------------------------------------------------------------------------
@no_alloc
def _weakest(hand: np.uint64, count: int, reverse: int) -> np.uint64:
    """The ``count`` weakest cards of ``hand`` in the current order (jokers last)."""
    out = np.uint64(0)
    got = 0
    for i in range(13):
        r = 12 - i if reverse else i
        for s in range(4):
            bit = np.uint64(1) << np.uint64(4 * r + s)
            if got < count and hand & bit:
                out |= bit
                got += 1
    return out | _jbits(min(count - got, _jokers(hand)))


@no_alloc
def _choose(st: np.ndarray, fl: np.ndarray, buf: np.ndarray, policy: int, eps: float) -> np.uint64:
    seat = st[TURN]
    hand = _hand(st, seat)
    reverse = 1 if st[REVOLUTION] != st[BACK] else 0
    if st[FU_KIND]:
        return _weakest(hand, st[FU_COUNT], reverse)
    k = gen_moves(hand, st, fl, buf)
    can_pass = st[TOP] != 0 or fl[F_LEADPASS]
    if policy == 0 or np.random.random() < eps:
        total = k + (1 if can_pass else 0)
        i = np.random.randint(total)
        return buf[i] if i < k else np.uint64(0)
    # Greedy default policy: the weakest play, most cards first on a lead; keep jokers, the top
    # rank and 8s unless they are all that can be played.
    best = np.uint64(0)
    best_key: Any = 1 << 30
    lead = st[TOP] == 0
    for i in range(k):
        m = buf[i]
        kind, low, size, _ = move_info(m)
        r = low + size - 1 if (kind == 1 and reverse) else low
        strength = (12 - r if reverse else r) if r != 13 else 40
        top_rank = 0 if reverse else 12
        if (
            r == 13
            or _jokers(m)
            or _count_of(kind, low, size, top_rank)
            or _count_of(kind, low, size, EIGHT)
        ):
            strength += 20
        key = strength * 16 + _jokers(m) * 4 - (size if lead else 0)
        if key < best_key:
            best_key = key
            best = m
    if k == 0 or (can_pass and not lead and best_key >= 20 * 16 and _popcount(hand) > 4):
        return np.uint64(0)
    return best


@njit(cache=True)
def run(st: np.ndarray, fl: np.ndarray, policy: int, eps: float) -> None:
    """Play the game in ``st`` to its end with the default policy (0: random, 1: greedy)."""
    buf = np.zeros(MAXMOVES, dtype=np.uint64)
    if st[OVER] or st[TURN] < 0:
        return
    for _ in range(100_000):
        if step(st, _choose(st, fl, buf, policy, eps), fl, buf):
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
    rows = hands.shape[0]
    moves = first_moves.shape[0]
    out = np.zeros((rows, moves, n), dtype=np.int64)
    buf = np.zeros(MAXMOVES, dtype=np.uint64)
    for i in range(rows):
        for mv in range(moves):
            st = base.copy()
            for x in range(n):
                st[HEAD + 3 * n + x] = hands[i, x]
            if not step(st, first_moves[mv], flags, buf):
                for _ in range(100_000):
                    if step(st, _choose(st, flags, buf, policy, eps), flags, buf):
                        break
            for p in range(n):
                out[i, mv, st[HEAD + 2 * n + p]] = p
    return out


# --- the Python side ----------------------------------------------------------------------------
mask_of = C.card_set
"""The mask of cards given as codes: :func:`.cards.card_set`."""

cards_of = C.cards_in
"""The codes of a mask: :func:`.cards.cards_in`."""


def move_of(combo: C.Combo) -> int:
    """The move of an engine combination."""
    if combo.kind == C.SEQUENCE:
        return combo.cards | 1 << 58 | (combo.rank + 1) << 54
    named = 0
    for sq in combo.squares:
        named |= 1 << (sq & 3)
    return combo.cards | named << 59


def combo_of(move: int) -> C.Combo:
    """The engine combination of a (play) move."""
    cards = move & ((1 << 54) - 1)
    naturals = C.cards_in(cards & C.NATURALS)
    jokers = C.jokers_in(cards)
    if move & 1 << 58:
        low = (move >> 54 & 15) - 1
        suit = naturals[0] & 3
        run = [(low + i) * 4 + suit for i in range(len(naturals) + jokers)]
        combo = C.sequence_of(naturals, [sq for sq in run if sq not in naturals])
    else:
        rank = naturals[0] >> 2 if naturals else 0
        squares = [rank * 4 + s for s in range(4) if move >> (59 + s) & 1]
        combo = C.group_of(naturals, jokers, squares)
    assert combo is not None, move
    return combo


def flags_of(state: DaifugoState) -> np.ndarray:
    """The rule flags array of a state's rules."""
    return flags_of_rules(state.rules)


def flags_of_rules(rules: DaifugoRules) -> np.ndarray:
    """The rule flags array (:data:`FLAG_NAMES`) of rules."""
    values = [getattr(rules, name) for name in FLAG_NAMES]
    values[FLAG_NAMES.index("flush_on")] = rules.flush_on == "all_passed"
    return np.array([int(v) for v in values], dtype=np.int64)


def pack(state: DaifugoState, hands: Sequence[int] | None = None, *, engine: bool = False) -> Any:
    """The state vector of a play-phase state (``hands``: other hands, e.g. sampled ones).

    ``engine``: the engine drives it (:func:`engine_step`: a 千日手 stops rather than draws).
    """
    n = len(state.players)
    hs = state.hands if hands is None else hands
    st = np.zeros(size_of(n), dtype=np.int64)
    due = state.follow_up
    st[TURN] = state.turn
    st[LAST] = state.last
    st[NFIN] = len(state.finished)
    st[N] = n
    st[PASSED] = sum(1 << s for s in state.passed)
    st[REVOLUTION] = int(state.revolution)
    st[BACK] = int(state.back)
    st[LOCK] = state.lock
    st[PASS_RUN] = state.pass_run
    st[FALLEN] = state.fallen
    st[DISCARDS] = state.discards
    st[ENGINE] = int(engine)
    top = state.top
    if top:
        st[TOP] = move_of(top.combo)
        st[TKIND], st[TLOW], st[TSIZE], st[TSUITS] = (int(v) for v in move_info(np.uint64(st[TOP])))
        st[RETURNED] = int(top.returned)
    if due is not None:
        st[FU_KIND] = 1 if due.kind == "give" else 2
        st[FU_COUNT], st[FU_TO] = due.count, due.to
    st[DAIFUGO] = next((x for x, t in enumerate(state.titles) if t == "daifugo"), -1)
    for i, x in enumerate(state.order):
        st[HEAD + i] = x
        st[HEAD + n + x] = i
    for i, x in enumerate(state.finished):
        st[HEAD + 2 * n + i] = x
    for x in range(n):
        st[HEAD + 3 * n + x] = hs[x]
    base = HEAD + 4 * n
    st[FCOUNT] = len(state.field)
    for i, p in enumerate(state.field):
        st[base + i] = move_of(p.combo)
        st[base + FMAX + i] = p.seat | int(p.returned) << 3
    return st


class Sim:
    """One game's play phase as a compact array, built from an engine state.

    Args:
        state: An engine state in the play phase.
        hands: Hands (card sets) to use instead of the state's (e.g. sampled hidden hands).
    """

    def __init__(self, state: DaifugoState, hands: Sequence[int] | None = None) -> None:
        if state.phase != "play":
            raise ValueError("the simulator covers the play phase only")
        self.n = len(state.players)
        self.st = pack(state, hands)
        self.flags = flags_of(state)
        self._buf = np.zeros(MAXMOVES, dtype=np.uint64)

    @property
    def turn(self) -> int:
        """The seat to act (-1 when the game is over)."""
        return int(self.st[TURN])

    def hand(self, seat: int) -> int:
        """The card set of a seat's hand."""
        return int(self.st[HEAD + 3 * self.n + seat])

    def finish(self) -> list[int]:
        """Seats in finishing order so far."""
        n = self.n
        return [int(x) for x in self.st[HEAD + 2 * n : HEAD + 2 * n + self.st[NFIN]]]

    def legal_moves(self) -> list[int]:
        """The legal plays of the seat to play (0 = pass, listed last when allowed).

        Not for a 7 pass or 10 discard (any ``count`` cards of the hand, see :meth:`follow_up`).
        """
        st = self.st
        k = gen_moves(np.uint64(self.hand(self.turn)), st, self.flags, self._buf)
        out = [int(m) for m in self._buf[:k]]
        if st[TOP] != 0 or self.flags[F_LEADPASS]:
            out.append(0)
        return out

    def follow_up(self) -> tuple[str, int, int] | None:
        """The 7 pass or 10 discard owed: ``(kind, count, to)``, or ``None``."""
        kind = int(self.st[FU_KIND])
        if not kind:
            return None
        return ("give" if kind == 1 else "discard", int(self.st[FU_COUNT]), int(self.st[FU_TO]))

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
        hands: ``[samples, seats]`` hand card sets (int64).
        moves: Candidate first moves of the seat to act (0 = pass).
        policy: 0 random, 1 greedy with ``eps`` random moves.
        eps: Random move rate of the greedy policy.
        seed: Seed of the playouts' random stream.
    """
    first = np.array([np.uint64(m) for m in moves], dtype=np.uint64)
    return batch(sim.st, hands, first, sim.flags, policy, eps, seed)
