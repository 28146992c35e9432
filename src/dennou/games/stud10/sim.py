"""Whole 5-player hands of 10-card stud simulated in Numba, for statistics and benchmarks.

The same rules as the engine (``docs/games/stud10.md``), without records or views: a hand
is determined by a shuffled deck, because revealing a uniformly random remaining hole card is the
same as revealing the hole cards in the (already random) order they were dealt. Player ``i`` gets
``deck[10 i : 10 i + 5]`` face up and reveals ``deck[10 i + 5 : 10 i + 10]`` in that order.
Current strengths are kept as hand masks and re-scored only for the players who reveal, so a
hand costs about 30 evaluations. ``tests/games/stud10/test_sim.py`` holds it to the engine.
"""

from __future__ import annotations

import msgspec
import numba as nb
import numpy as np
import numpy.typing as npt

from dennou.games.stud10.eval import CARD_BIT, score_mask

PLAYERS = 5


@nb.njit(cache=True, inline="always")
def _play(
    deck: npt.NDArray[np.integer],
    scores: npt.NDArray[np.int64],
    up: npt.NDArray[np.int64],
    shown: npt.NDArray[np.int64],
) -> tuple[int, int]:
    """Play one hand from ``deck``; fill final ``scores``; return (winner bitmask, reveal steps).

    ``up`` and ``shown`` are work arrays of 5 (kept by the caller to avoid allocations).
    """
    for i in range(PLAYERS):
        shown[i] = 0
        h = np.int64(0)
        for j in range(5):
            h |= CARD_BIT[deck[10 * i + j]]
        up[i] = h
        scores[i] = score_mask(h)
    steps = 0
    while True:
        low = np.int64(1) << 40
        for i in range(PLAYERS):
            if shown[i] < 5 and scores[i] < low:
                low = scores[i]
        if low == np.int64(1) << 40:
            break
        # Everyone tied for weakest reveals (compared against `low`, fixed before any reveal).
        for i in range(PLAYERS):
            if shown[i] < 5 and scores[i] == low:
                up[i] |= CARD_BIT[deck[10 * i + 5 + shown[i]]]
                shown[i] += 1
                scores[i] = score_mask(up[i])
        steps += 1
    best = scores[0]
    for i in range(1, PLAYERS):
        if scores[i] > best:
            best = scores[i]
    winners = 0
    for i in range(PLAYERS):
        if scores[i] == best:
            winners |= 1 << i
    return winners, steps


@nb.njit(cache=True)
def _decks(
    decks: npt.NDArray[np.int8],
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int16], npt.NDArray[np.int64]]:
    n = decks.shape[0]
    winners = np.empty(n, dtype=np.int8)
    steps = np.empty(n, dtype=np.int16)
    scores = np.empty((n, PLAYERS), dtype=np.int64)
    up = np.empty(PLAYERS, dtype=np.int64)
    shown = np.empty(PLAYERS, dtype=np.int64)
    for g in range(n):
        w, s = _play(decks[g], scores[g], up, shown)
        winners[g] = w
        steps[g] = s
    return winners, steps, scores


@nb.njit(cache=True)
def _simulate(
    games: int, seed: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
    # xorshift64* : a few cycles per draw, where np.random costs several times more.
    x = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) | np.uint64(1)
    deck = np.arange(52, dtype=np.int8)
    scores = np.empty(PLAYERS, dtype=np.int64)
    up = np.empty(PLAYERS, dtype=np.int64)
    shown = np.empty(PLAYERS, dtype=np.int64)
    shares = np.zeros(PLAYERS, dtype=np.float64)
    steps_hist = np.zeros(26, dtype=np.int64)
    category = np.zeros(9, dtype=np.int64)
    ties = 0
    for _ in range(games):
        for j in range(50):
            x ^= x >> np.uint64(12)
            x ^= x << np.uint64(25)
            x ^= x >> np.uint64(27)
            r = (x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32)
            # multiply-shift range reduction: r * (52 - j) / 2^32 (bias < 2^-26)
            k = j + np.int64((r * np.uint64(52 - j)) >> np.uint64(32))
            deck[j], deck[k] = deck[k], deck[j]
        w, s = _play(deck, scores, up, shown)
        steps_hist[s] += 1
        count = 0
        for i in range(PLAYERS):
            if w >> i & 1:
                count += 1
        for i in range(PLAYERS):
            if w >> i & 1:
                shares[i] += 1.0 / count
                best = scores[i]
        category[best >> 20] += 1
        if count > 1:
            ties += 1
    return shares, steps_hist, category, ties


def play_decks(
    decks: npt.ArrayLike,
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int16], npt.NDArray[np.int64]]:
    """Play one hand per deck (``(n, 52)`` card codes, each a permutation).

    Returns:
        Per hand: the winners as a bitmask of seats, the number of reveal steps, and the five
        final scores.
    """
    arr = np.ascontiguousarray(np.asarray(decks, dtype=np.int8))
    if arr.ndim != 2 or arr.shape[1] != 52:
        raise ValueError(f"play_decks wants an (n, 52) array of decks, got {arr.shape}")
    return _decks(arr)


class SimStats(msgspec.Struct, frozen=True):
    """Totals over simulated hands.

    Attributes:
        games: Hands played.
        win_share: Pot share won per seat (ties split), summed over hands.
        steps: Histogram of reveal steps per hand (index = steps, 0..25).
        winning_category: Histogram of the winning hand's category (0 = high card).
        ties: Hands whose pot was split.
    """

    games: int
    win_share: tuple[float, ...]
    steps: tuple[int, ...]
    winning_category: tuple[int, ...]
    ties: int


def simulate(games: int, seed: int = 0) -> SimStats:
    """Simulate ``games`` 5-player hands from shuffled decks (seeded) and total the results."""
    shares, steps, category, ties = _simulate(games, seed & 0x7FFFFFFF)
    return SimStats(
        games,
        tuple(float(x) for x in shares),
        tuple(int(x) for x in steps),
        tuple(int(x) for x in category),
        int(ties),
    )
