"""The best 5-card poker hand among 5 to 10 cards, as one integer (higher is stronger).

Rules: ``docs/games/stud10.md`` (hand order). Standard order straight flush > four of a
kind > full house > flush > straight > three of a kind > two pair > one pair > high card, with
the usual kickers; A-2-3-4-5 is the lowest straight; suits never rank. Equal scores are exact
ties.

How it is fast: a hand is a 64-bit mask with one 16-bit lane per suit (bit ``16 * suit + rank``),
so adding a card is an OR and no 5-card subset is ever enumerated. From the four suit lanes,
rank masks "held at least once / twice / three times / four times" are a few ANDs and ORs; a
flush is a lane with five bits; straights, the highest rank and the top five ranks of any
13-bit rank mask come from 8192-entry tables, and so does each suit's own flush or straight
flush score: the best of the four suits is taken, so when a 10-card hand holds two flushes the
straight flush (or the better flush) wins.

Score layout: ``category << 20 | payload``; the payload packs the deciding ranks (0 = deuce ..
12 = ace) in 4-bit nibbles, most significant first: the straight's top card, the quad and
kicker, trips and pair, five flush or high cards, trips and two kickers, two pairs and kicker,
the pair and three kickers. There are exactly 7,462 distinct scores.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt

from dennou.games.stud10.cards import RANKS, parse_cards

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
"""Hand categories, weakest first (``score >> 20``)."""

CATEGORY_NAMES: tuple[str, ...] = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
"""English category names by category number."""

CATEGORY_JA: tuple[str, ...] = (
    "ハイカード",
    "ワンペア",
    "ツーペア",
    "スリーカード",
    "ストレート",
    "フラッシュ",
    "フルハウス",
    "フォーカード",
    "ストレートフラッシュ",
)
"""Japanese category names (as the source writes them) by category number."""

SHIFT = 20
"""Bits of payload below the category."""


def _build_tables() -> tuple[
    npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.int32], npt.NDArray[np.int8]
]:
    masks = np.arange(8192)
    bits = (masks[:, None] >> np.arange(13)) & 1
    pop = bits.sum(axis=1).astype(np.int8)
    hi = np.full(8192, -1, dtype=np.int8)
    top5 = np.zeros(8192, dtype=np.int32)
    for m in range(1, 8192):
        ranks = [r for r in range(12, -1, -1) if m >> r & 1][:5]
        hi[m] = ranks[0]
        value = 0
        for i, r in enumerate(ranks):
            value |= r << (4 * (4 - i))
        top5[m] = value
    # A straight: five consecutive ranks, the ace also below the deuce. Bit 0 of x is the low ace.
    x = (masks << 1) | (masks >> 12)
    runs = x & (x >> 1) & (x >> 2) & (x >> 3) & (x >> 4)
    straight = np.zeros(8192, dtype=np.int8)
    for m in range(8192):
        if runs[m]:
            # top bit of `runs` is the run's low card in shifted space; +4 -1 = its top rank.
            straight[m] = int(runs[m]).bit_length() - 1 + 4 - 1 + 1
    return pop, hi, top5, straight


POP, HI, TOP5, STRAIGHT_TOP = _build_tables()
"""Per 13-bit rank mask: bit count, highest rank (-1 if empty), top five ranks packed
left-aligned in nibbles, and 1 + the top rank of its best straight (0: none)."""


def _flush_scores() -> npt.NDArray[np.int32]:
    out = np.full(8192, -1, dtype=np.int32)
    for m in range(8192):
        if POP[m] >= 5:
            top = int(STRAIGHT_TOP[m])
            out[m] = (
                (STRAIGHT_FLUSH << SHIFT | (top - 1)) if top else (FLUSH << SHIFT | int(TOP5[m]))
            )
    return out


FLUSH_SCORE = _flush_scores()
"""Per 13-bit mask of one suit's ranks: its straight flush or flush score, -1 if under 5 cards."""

CARD_BIT = np.array([1 << (16 * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.int64)
"""Per card code, its bit in a hand mask."""

_LANE = 0x1FFF


@nb.njit(cache=True, inline="always")
def score_mask(h: int | np.integer[Any]) -> Any:
    """Score of a hand given as a mask of card bits (5 to 10 cards; more also works).

    Args:
        h: OR of :data:`CARD_BIT` of the cards.

    Returns:
        The score, an integer (typed ``Any``: Numba returns a NumPy integer from Python).
    """
    s0 = h & _LANE
    s1 = (h >> 16) & _LANE
    s2 = (h >> 32) & _LANE
    s3 = (h >> 48) & _LANE
    # Flushes: every suit's own score (a 10-card hand may hold two flushes), branch-free.
    best = max(max(FLUSH_SCORE[s0], FLUSH_SCORE[s1]), max(FLUSH_SCORE[s2], FLUSH_SCORE[s3]))
    if best >= (STRAIGHT_FLUSH << SHIFT):
        return best
    m1 = s0 | s1 | s2 | s3
    a01 = s0 & s1
    a23 = s2 & s3
    m4 = a01 & a23
    m3 = (a01 & (s2 | s3)) | (a23 & (s0 | s1))
    m2 = a01 | a23 | ((s0 | s1) & (s2 | s3))
    if m4:
        q = HI[m4]
        return (QUADS << SHIFT) | (q << 4) | HI[m1 & ~(1 << q)]
    t = -1
    if m3:
        t = HI[m3]
        pairs = m2 & ~(1 << t)
        if pairs:
            return (FULL_HOUSE << SHIFT) | (t << 4) | HI[pairs]
    if best >= 0:
        return best
    st = STRAIGHT_TOP[m1]
    if st:
        return (STRAIGHT << SHIFT) | (st - 1)
    if t >= 0:
        return (TRIPS << SHIFT) | (t << 8) | (TOP5[m1 & ~(1 << t)] >> 12)
    if m2:
        p1 = HI[m2]
        rest = m2 & ~(1 << p1)
        if rest:
            p2 = HI[rest]
            kick = HI[m1 & ~((1 << p1) | (1 << p2))]
            return (TWO_PAIR << SHIFT) | (p1 << 8) | (p2 << 4) | kick
        return (PAIR << SHIFT) | (p1 << 12) | (TOP5[m1 & ~(1 << p1)] >> 8)
    return (HIGH_CARD << SHIFT) | TOP5[m1]


@nb.njit(cache=True)
def _masks(cards: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    n, k = cards.shape
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        h = np.int64(0)
        for j in range(k):
            h |= CARD_BIT[cards[i, j]]
        out[i] = h
    return out


@nb.njit(cache=True)
def _batch(cards: npt.NDArray[np.integer]) -> npt.NDArray[np.int32]:
    n, k = cards.shape
    out = np.empty(n, dtype=np.int32)
    for i in range(n):
        h = np.int64(0)
        for j in range(k):
            c = cards[i, j]
            # Checked here rather than with min()/max() first: one pass over the data.
            if c < 0 or c > 51:
                raise ValueError("card codes must be in 0..51")
            h |= CARD_BIT[c]
        out[i] = score_mask(h)
    return out


@nb.njit(cache=True)
def _batch_masks(masks: npt.NDArray[np.int64]) -> npt.NDArray[np.int32]:
    out = np.empty(masks.shape[0], dtype=np.int32)
    for i in range(masks.shape[0]):
        out[i] = score_mask(masks[i])
    return out


def hand_mask(cards: Iterable[str | int]) -> int:
    """The mask of a hand (OR of card bits) from card texts or codes."""
    h = 0
    for c in parse_cards(cards):
        h |= int(CARD_BIT[c])
    return h


def evaluate(cards: str | Iterable[str | int]) -> int:
    """Score of the best 5-card hand among 5 to 10 cards (``["As", "Kd", ...]`` or codes).

    Raises:
        ValueError: Fewer than 5 or more than 10 cards, a malformed card or a repeated one.
    """
    codes = parse_cards(cards)
    if not 5 <= len(codes) <= 10:
        raise ValueError(f"a hand has 5 to 10 cards, got {len(codes)}")
    h = 0
    for c in codes:
        h |= int(CARD_BIT[c])
    return int(score_mask(h))


def evaluate_batch(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Scores of many hands: an ``(n, k)`` integer array of card codes, 5 <= k <= 10.

    Cards in a row must be distinct (not checked, for speed: a repeated card counts once).

    Raises:
        ValueError: Wrong shape or a code outside 0..51.
    """
    arr = np.asarray(cards)
    if arr.ndim != 2 or not 5 <= arr.shape[1] <= 10:
        raise ValueError(f"evaluate_batch wants an (n, k) array with 5 <= k <= 10, got {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"card codes must be integers, got {arr.dtype}")
    if arr.dtype != np.int8:
        # One compiled specialisation: int8 codes. Out-of-range values must not wrap around.
        if arr.size and (arr.min() < 0 or arr.max() > 51):
            raise ValueError("card codes must be in 0..51")
        arr = arr.astype(np.int8)
    return _batch(np.ascontiguousarray(arr))


def evaluate_masks(masks: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Scores of hands given as masks (see :func:`hand_mask`), as an int32 array."""
    return _batch_masks(np.ascontiguousarray(np.asarray(masks, dtype=np.int64)))


def category(score: int) -> int:
    """The category (:data:`HIGH_CARD` .. :data:`STRAIGHT_FLUSH`) of a score."""
    return score >> SHIFT


_PLURAL = (
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
)
_SINGULAR = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)


def _nibbles(payload: int, count: int) -> list[int]:
    return [(payload >> (4 * (count - 1 - i))) & 15 for i in range(count)]


def describe(score: int) -> str:
    """A score in words: ``full house, kings over sevens``; ``two pair, aces and fours, 9 kicker``.

    Raises:
        ValueError: Not a score this evaluator makes.
    """
    cat, payload = score >> SHIFT, score & ((1 << SHIFT) - 1)
    if not 0 <= cat <= 8 or score < 0:
        raise ValueError(f"not a hand score: {score}")

    def short(ranks: list[int]) -> str:
        return "-".join(RANKS[r] for r in ranks)

    if cat == STRAIGHT_FLUSH:
        if payload == 12:
            return "straight flush, ace high (royal flush)"
        return f"straight flush, {_SINGULAR[payload]} high" + (
            " (steel wheel)" if payload == 3 else ""
        )
    if cat == QUADS:
        q, k = _nibbles(payload, 2)
        return f"four of a kind, {_PLURAL[q]}, {_SINGULAR[k]} kicker"
    if cat == FULL_HOUSE:
        t, p = _nibbles(payload, 2)
        return f"full house, {_PLURAL[t]} over {_PLURAL[p]}"
    if cat == FLUSH:
        ranks = _nibbles(payload, 5)
        return f"flush, {_SINGULAR[ranks[0]]} high ({short(ranks)})"
    if cat == STRAIGHT:
        return f"straight, {_SINGULAR[payload]} high" + (" (wheel)" if payload == 3 else "")
    if cat == TRIPS:
        t, *kickers = _nibbles(payload, 3)
        return f"three of a kind, {_PLURAL[t]} ({short(kickers)} kickers)"
    if cat == TWO_PAIR:
        a, b, k = _nibbles(payload, 3)
        return f"two pair, {_PLURAL[a]} and {_PLURAL[b]}, {_SINGULAR[k]} kicker"
    if cat == PAIR:
        p, *kickers = _nibbles(payload, 4)
        return f"one pair, {_PLURAL[p]} ({short(kickers)} kickers)"
    ranks = _nibbles(payload, 5)
    return f"high card, {_SINGULAR[ranks[0]]} ({short(ranks)})"


def describe_ja(score: int) -> str:
    """The category of a score in Japanese (``フルハウス``)."""
    return CATEGORY_JA[score >> SHIFT]
