"""A short, readable reference evaluator: the oracle the fast path is held against.

Best of every 5-card subset, each classified by rank counts in the plainest way. It produces
the same score layout as ``dennou.games.stud10.eval`` (category << 20 | rank nibbles), so any
disagreement is an exact mismatch.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from dennou.games.stud10.cards import parse_cards


def _pack(category: int, ranks: list[int]) -> int:
    value = 0
    for r in ranks:
        value = value << 4 | r
    return category << 20 | value


def score5(cards: list[int]) -> int:
    """Score of exactly five card codes (rank = code // 4, suit = code % 4)."""
    ranks = sorted((c // 4 for c in cards), reverse=True)
    flush = len({c % 4 for c in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    straight_top = None
    if len(distinct) == 5 and distinct[0] - distinct[4] == 4:
        straight_top = distinct[0]
    elif distinct == [12, 3, 2, 1, 0]:  # A-2-3-4-5: the five is the top card
        straight_top = 3
    # Ranks ordered by (count, rank), biggest group first: [trips, pair] for a full house, etc.
    counts = Counter(ranks)
    groups = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if straight_top is not None and flush:
        return _pack(8, [straight_top])
    if shape == [4, 1]:
        return _pack(7, groups)
    if shape == [3, 2]:
        return _pack(6, groups)
    if flush:
        return _pack(5, ranks)
    if straight_top is not None:
        return _pack(4, [straight_top])
    if shape == [3, 1, 1]:
        return _pack(3, groups)
    if shape == [2, 2, 1]:
        return _pack(2, groups)
    if shape == [2, 1, 1, 1]:
        return _pack(1, groups)
    return _pack(0, groups)


def reference(cards: str | list[str] | list[int]) -> int:
    """Best 5-card score among 5 to 10 cards, by brute force over every 5-card subset."""
    codes = parse_cards(cards)
    return max(score5(list(sub)) for sub in combinations(codes, 5))
