"""The evaluator against published tables, phevaluator and the reference in ``reference.py``.

Rules: ``docs/games/stud10.md``, Reveal loop (hand order; A-2-3-4-5 is the lowest
straight; suits never rank).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numba as nb
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from phevaluator import _pheval

from dennou.games.stud10 import describe, evaluate, evaluate_batch
from dennou.games.stud10.eval import CARD_BIT, SHIFT, evaluate_masks, hand_mask, score_mask
from tests.games.stud10.reference import reference

# Published counts, straight flush first.
FIVE_CARD_COUNTS = [40, 624, 3744, 5108, 10200, 54912, 123552, 1098240, 1302540]
FIVE_CARD_CLASSES = [10, 156, 156, 1277, 10, 858, 858, 2860, 1277]
SEVEN_CARD_COUNTS = [
    41584,
    224848,
    3473184,
    4047644,
    6180020,
    6461620,
    31433400,
    58627800,
    23294460,
]


@pytest.fixture(scope="module")
def all_fives() -> np.ndarray:
    return np.array(list(itertools.combinations(range(52), 5)), dtype=np.int8)


@pytest.fixture(scope="module")
def five_scores(all_fives: np.ndarray) -> np.ndarray:
    return evaluate_batch(all_fives)


def _by_category(scores: np.ndarray) -> list[int]:
    return [int(x) for x in np.bincount(scores >> SHIFT, minlength=9)[::-1]]


def test_five_card_hands_give_7462_classes_in_standard_order(five_scores: np.ndarray) -> None:
    distinct = np.unique(five_scores)
    assert len(distinct) == 7462
    assert _by_category(distinct) == FIVE_CARD_CLASSES
    assert _by_category(five_scores) == FIVE_CARD_COUNTS


def test_five_card_order_equals_phevaluator(all_fives: np.ndarray, five_scores: np.ndarray) -> None:
    """One hand per class: our order of the 7462 classes is phevaluator's (1 = best)."""
    _distinct, first = np.unique(five_scores, return_index=True)
    phe = np.array([_pheval.evaluate_5cards(*map(int, all_fives[i])) for i in first])
    # ascending our score = descending strength in phevaluator's ranks 7462..1
    assert (phe == np.arange(7462, 0, -1)).all()


@nb.njit(cache=True)
def _seven_card_counts() -> np.ndarray:
    counts = np.zeros(9, dtype=np.int64)
    for a in range(52):
        ha = CARD_BIT[a]
        for b in range(a + 1, 52):
            hb = ha | CARD_BIT[b]
            for c in range(b + 1, 52):
                hc = hb | CARD_BIT[c]
                for d in range(c + 1, 52):
                    hd = hc | CARD_BIT[d]
                    for e in range(d + 1, 52):
                        he = hd | CARD_BIT[e]
                        for f in range(e + 1, 52):
                            hf = he | CARD_BIT[f]
                            for g in range(f + 1, 52):
                                counts[score_mask(hf | CARD_BIT[g]) >> 20] += 1
    return counts


@pytest.mark.slow
def test_seven_card_category_counts_exhaustive() -> None:
    counts = _seven_card_counts()
    assert int(counts.sum()) == math.comb(52, 7)
    assert [int(x) for x in counts[::-1]] == SEVEN_CARD_COUNTS


# --- against phevaluator (independent oracle) -----------------------------------------------


def _colex(sub: np.ndarray) -> np.ndarray:
    binom = np.array([[math.comb(n, k) for k in range(6)] for n in range(53)], dtype=np.int64)
    s = np.sort(sub, axis=1).astype(np.int64)
    out: np.ndarray = sum(binom[s[:, j], j + 1] for j in range(5))
    return out


@pytest.fixture(scope="module")
def phe_table(all_fives: np.ndarray, five_scores: np.ndarray) -> dict[str, Any]:
    """phevaluator's rank of every 5-card hand by colex index, and our score -> its rank."""
    ranks = np.array([_pheval.evaluate_5cards(*map(int, h)) for h in all_fives], dtype=np.int32)
    table = np.empty(math.comb(52, 5), dtype=np.int32)
    table[_colex(all_fives)] = ranks
    score_to_rank = dict(zip(five_scores.tolist(), ranks.tolist(), strict=True))
    return {"table": table, "score_to_rank": score_to_rank}


def _brute_force_phe(hands: np.ndarray, table: np.ndarray) -> np.ndarray:
    k = hands.shape[1]
    best = np.full(len(hands), 10**9, dtype=np.int64)
    for idx in itertools.combinations(range(k), 5):
        best = np.minimum(best, table[_colex(hands[:, list(idx)])])
    return best


@pytest.mark.parametrize("k", [6, 7, 8, 9, 10])
def test_random_hands_agree_with_phevaluator_brute_force(k: int, phe_table: dict[str, Any]) -> None:
    rng = np.random.default_rng(k)
    n = 40_000
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.int8)
    ours = evaluate_batch(hands)
    want = _brute_force_phe(hands, phe_table["table"])
    got = np.array([phe_table["score_to_rank"][s] for s in ours.tolist()])
    bad = np.flatnonzero(got != want)
    assert not len(bad), f"{len(bad)} mismatches, e.g. {hands[bad[0]].tolist()}"


# --- against the readable reference ---------------------------------------------------------


def test_random_hands_agree_with_reference() -> None:
    rng = np.random.default_rng(7)
    for k in range(5, 11):
        hands = np.argsort(rng.random((120, 52)), axis=1)[:, :k]
        ours = evaluate_batch(hands)
        for hand, score in zip(hands.tolist(), ours.tolist(), strict=True):
            assert score == reference(hand), hand


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=10, unique=True))
def test_property_scalar_batch_mask_and_reference_agree(cards: list[int]) -> None:
    score = evaluate(cards)
    assert score == reference(cards)
    assert score == int(evaluate_batch(np.array([cards]))[0])
    assert score == int(evaluate_masks([hand_mask(cards)])[0])
    # order does not matter and strings equal codes
    assert evaluate(list(reversed(cards))) == score


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=6, max_size=10, unique=True))
def test_property_more_cards_never_weaker(cards: list[int]) -> None:
    assert evaluate(cards) >= evaluate(cards[:-1] if len(cards) > 5 else cards)


# --- crafted hands --------------------------------------------------------------------------

CRAFTED = [
    # two five-card flushes in one 10-card hand: the straight flush must win
    ("2h 5h 9h Jh Kh 5s 6s 7s 8s 9s", "straight flush, nine high"),
    ("5s 6s 7s 8s 9s 2h 5h 9h Jh Kh", "straight flush, nine high"),
    # two flushes, no straight flush: the better flush
    ("2h 5h 9h Jh Kh 3s 4s 7s 8s As", "flush, ace high (A-8-7-4-3)"),
    # flush beside a full house, beside quads
    ("2h 5h 9h Jh Kh Kd Kc 9s", "full house, kings over nines"),
    ("2h 5h 9h Jh Kh Ks Kd Kc", "four of a kind, kings, jack kicker"),
    # straight flush beats quads in the same hand
    ("9c Tc Jc Qc Kc 9d 9h 9s", "straight flush, king high"),
    # three pairs: two pair plus the best kicker, which may be the lowest pair's card
    ("Ah Ad Kh Kd 2c 2d 3s", "two pair, aces and kings, three kicker"),
    ("Ah Ad Kh Kd Qc Qd 2s", "two pair, aces and kings, queen kicker"),
    ("9h 9d 5h 5d 4c 4d 2s", "two pair, nines and fives, four kicker"),
    # two trips: a full house with the higher trips, the lower as the pair
    ("7h 7d 7c Qs Qd Qh 2c", "full house, queens over sevens"),
    # trips plus two pairs: higher pair with the trips
    ("7h 7d 7c 2s 2d Qh Qc", "full house, sevens over queens"),
    # wheel and steel wheel; a six-high straight beats the wheel
    ("Ah 2d 3c 4s 5h 9d Kc", "straight, five high (wheel)"),
    ("Ah 2d 3c 4s 5h 6d Kc", "straight, six high"),
    ("As 2s 3s 4s 5s Kd Qc", "straight flush, five high (steel wheel)"),
    ("As 2s 3s 4s 5s 6h Kd", "straight flush, five high (steel wheel)"),
    ("Ts Js Qs Ks As", "straight flush, ace high (royal flush)"),
    # quads with a kicker from trips (or from a pair)
    ("8h 8d 8c 8s 3h 3d 3c 2s", "four of a kind, eights, three kicker"),
    ("8h 8d 8c 8s Kh Kd Kc", "four of a kind, eights, king kicker"),
    # two quads in ten cards: the higher, the other's rank as kicker
    ("8h 8d 8c 8s Kh Kd Kc Ks 2c 3c", "four of a kind, kings, eight kicker"),
    ("Kh Kd 7c 7s 7d", "full house, sevens over kings"),
    ("2c 3d 4h 5s 7c", "high card, seven (7-5-4-3-2)"),
    ("Ac Kd 7h 7s 2c 3c", "one pair, sevens (A-K-3 kickers)"),
    ("7h 7d 7c As Kd Qc Jh", "three of a kind, sevens (A-K kickers)"),
    ("9c 9d Th Jh Qs Kd", "straight, king high"),
]


@pytest.mark.parametrize(("cards", "expected"), CRAFTED)
def test_crafted_hands(cards: str, expected: str) -> None:
    score = evaluate(cards.split())
    assert describe(score) == expected
    assert score == reference(cards)


def test_order_between_crafted_classes() -> None:
    assert evaluate("Ah 2d 3c 4s 5h") < evaluate("2h 3d 4c 5s 6h")
    assert evaluate("Ah 2d 3c 4s 5h") > evaluate("Ah Ad Ac Ks Qh")
    assert evaluate("As 2s 3s 4s 5s") > evaluate("Ah Ad Ac As Kh")
    # suits never rank
    assert evaluate("Ah Kh Qh Jh 9h") == evaluate("As Ks Qs Js 9s")
    assert evaluate("Ah Kd Qh Jc 9s 2c") == evaluate("As Kh Qd Js 9c 2h")


def test_full_house_kings_over_sevens() -> None:
    assert describe(evaluate(["Kh", "Kd", "Kc", "7s", "7d"])) == "full house, kings over sevens"


@pytest.mark.parametrize(
    "bad",
    [
        ["As", "Kd", "Qh", "Jc"],
        ["As"] * 5,
        "As Kd Qh Jc 9s 8s 7s 6s 5s 4s 3s".split(),  # noqa: SIM905 - eleven cards
        ["Xx"] * 5,
    ],
)
def test_bad_input_raises(bad: list[str]) -> None:
    with pytest.raises(ValueError):
        evaluate(bad)


def test_batch_bad_input_raises() -> None:
    with pytest.raises(ValueError):
        evaluate_batch(np.zeros((3, 4), dtype=np.int8))
    with pytest.raises(ValueError):
        evaluate_batch(np.full((3, 5), 52))
    with pytest.raises(ValueError):
        describe(-1)


def test_batch_accepts_int_types() -> None:
    hands = np.array([[48, 49, 50, 51, 44], [0, 4, 8, 12, 48]])
    for dtype in (np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint16):
        got = evaluate_batch(hands.astype(dtype))
        assert got.tolist() == [evaluate(h.tolist()) for h in hands]
    assert evaluate_batch(np.zeros((0, 7), dtype=np.int8)).shape == (0,)
