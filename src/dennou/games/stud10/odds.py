"""Win probabilities from the face-up cards alone (rules: ``docs/games/stud10.md``, Odds).

Every card not face up (the players' hole cards and the dead cards) is equally likely to be
anywhere hidden: the reveal loop chooses who reveals from face-up cards only and which card at
random, so what has been seen says nothing more about where the hidden cards are. A player's
final hand is its face-up cards plus as many hidden cards as it has hole cards left, and ties
count as fractional shares.

The count of equally likely completions is the multinomial ``P! / (h_1! ... h_n! d!)`` over the
``P`` unseen cards, ``h_i`` hole cards per player and ``d`` dead cards. Up to ``exact_limit``
completions every one is enumerated (each player's hand is evaluated once per node of the
enumeration, not once per leaf); beyond it, Monte Carlo with ``samples`` deals and the standard
error of each estimate. Both run in Numba on the hand masks of :mod:`.eval`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

import msgspec
import numba as nb
import numpy as np
import numpy.typing as npt

from dennou.games.stud10.cards import parse_cards
from dennou.games.stud10.eval import CARD_BIT, describe, evaluate, score_mask

DEFAULT_SAMPLES = 100_000
DEFAULT_EXACT_LIMIT = 10_000_000


class Odds(msgspec.Struct, frozen=True):
    """Each player's chance of winning the pot (ties as fractional shares).

    Attributes:
        win: Probability per player, in the order given; they sum to 1.
        se: Standard error per player (0 for exact enumeration).
        method: ``exact`` or ``monte_carlo``.
        samples: Completions enumerated (exact) or deals sampled (Monte Carlo).
        completions: How many equally likely completions of the hidden cards exist.
    """

    win: tuple[float, ...]
    se: tuple[float, ...]
    method: Literal["exact", "monte_carlo"]
    samples: int
    completions: int


def completions(holes: Sequence[int], unseen: int) -> int:
    """Equally likely ways to place ``unseen`` cards: ``holes[i]`` to player i, the rest dead."""
    out = math.factorial(unseen) // math.factorial(unseen - sum(holes))
    for h in holes:
        out //= math.factorial(h)
    return out


@nb.njit(cache=True)
def _share(scores: npt.NDArray[np.int64], acc: npt.NDArray[np.float64], sq: bool) -> None:
    n = scores.shape[0]
    best = scores[0]
    for i in range(1, n):
        if scores[i] > best:
            best = scores[i]
    ties = 0
    for i in range(n):
        if scores[i] == best:
            ties += 1
    share = 1.0 / ties
    for i in range(n):
        if scores[i] == best:
            acc[i] += share
            if sq:
                acc[n + i] += share * share


@nb.njit(cache=True)
def _monte_carlo(
    up: npt.NDArray[np.int64],
    holes: npt.NDArray[np.int64],
    pool: npt.NDArray[np.int64],
    samples: int,
    seed: int,
) -> npt.NDArray[np.float64]:
    np.random.seed(seed)
    n = up.shape[0]
    deck = pool.copy()
    p = deck.shape[0]
    total = 0
    for i in range(n):
        total += holes[i]
    acc = np.zeros(2 * n, dtype=np.float64)
    scores = np.empty(n, dtype=np.int64)
    for _ in range(samples):
        # A partial Fisher-Yates shuffle: only the first `total` places matter.
        for j in range(total):
            k = j + np.random.randint(0, p - j)
            deck[j], deck[k] = deck[k], deck[j]
        pos = 0
        for i in range(n):
            h = up[i]
            for _j in range(holes[i]):
                h |= CARD_BIT[deck[pos]]
                pos += 1
            scores[i] = score_mask(h)
        _share(scores, acc, True)
    return acc


@nb.njit(cache=True)
def _next_combination(c: npt.NDArray[np.int64], k: int, n: int) -> bool:
    i = k - 1
    while i >= 0 and c[i] == n - k + i:
        i -= 1
    if i < 0:
        return False
    c[i] += 1
    for j in range(i + 1, k):
        c[j] = c[j - 1] + 1
    return True


@nb.njit(cache=True)
def _exact(
    up: npt.NDArray[np.int64], holes: npt.NDArray[np.int64], pool: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.float64], int]:
    n = up.shape[0]
    p = pool.shape[0]
    scores = np.empty(n, dtype=np.int64)
    levels = np.empty(n, dtype=np.int64)
    nl = 0
    for i in range(n):
        if holes[i] > 0:
            levels[nl] = i
            nl += 1
        else:
            scores[i] = score_mask(up[i])
    acc = np.zeros(2 * n, dtype=np.float64)
    if nl == 0:
        _share(scores, acc, False)
        return acc, 1
    # Level l chooses player levels[l]'s hidden cards among the cards the earlier levels left
    # (rem[l]); the dead cards are whatever the last level leaves.
    comb = np.zeros((nl, 10), dtype=np.int64)
    rem = np.zeros((nl + 1, p), dtype=np.int64)
    remn = np.zeros(nl + 1, dtype=np.int64)
    for j in range(p):
        rem[0, j] = pool[j]
    remn[0] = p
    for j in range(holes[levels[0]]):
        comb[0, j] = j
    count = 0
    lv = 0
    last = levels[nl - 1]
    while True:
        player = levels[lv]
        k = holes[player]
        if lv < nl - 1:
            h = up[player]
            for j in range(k):
                h |= CARD_BIT[rem[lv, comb[lv, j]]]
            scores[player] = score_mask(h)
            # Descend: the next level draws from what this level left.
            m = 0
            j = 0
            for x in range(remn[lv]):
                if j < k and comb[lv, j] == x:
                    j += 1
                else:
                    rem[lv + 1, m] = rem[lv, x]
                    m += 1
            remn[lv + 1] = m
            lv += 1
            for j in range(holes[levels[lv]]):
                comb[lv, j] = j
            continue
        # The last level: everyone else's score is fixed here, so only count how often the
        # last player beats, ties or loses to the best of the others, then share once.
        best = np.int64(-1)
        tied = 0
        for i in range(n):
            if i != last:
                if scores[i] > best:
                    best = scores[i]
                    tied = 1
                elif scores[i] == best:
                    tied += 1
        wins = 0
        ties = 0
        losses = 0
        while True:
            h = up[last]
            for j in range(k):
                h |= CARD_BIT[rem[lv, comb[lv, j]]]
            sc = score_mask(h)
            if sc > best:
                wins += 1
            elif sc == best:
                ties += 1
            else:
                losses += 1
            if not _next_combination(comb[lv], k, remn[lv]):
                break
        count += wins + ties + losses
        acc[last] += wins + ties / (tied + 1)
        for i in range(n):
            if i != last and scores[i] == best:
                acc[i] += ties / (tied + 1) + losses / tied
        lv -= 1
        while lv >= 0 and not _next_combination(comb[lv], holes[levels[lv]], remn[lv]):
            lv -= 1
        if lv < 0:
            break
    return acc, count


def odds_masks(
    up: Sequence[int],
    holes: Sequence[int],
    *,
    samples: int = DEFAULT_SAMPLES,
    exact_limit: int = DEFAULT_EXACT_LIMIT,
    seed: int = 0,
) -> Odds:
    """Odds from hand masks (see :func:`.eval.hand_mask`) and hole-card counts per player.

    Raises:
        ValueError: Two players share a card, or there are too few unseen cards.
    """
    seen = 0
    for m in up:
        if seen & m:
            raise ValueError("two players show the same card")
        seen |= m
    pool = [c for c in range(52) if not seen & int(CARD_BIT[c])]
    if sum(holes) > len(pool):
        raise ValueError(f"{sum(holes)} hole cards but only {len(pool)} cards are unseen")
    return _cached(tuple(up), tuple(holes), tuple(pool), samples, exact_limit, seed)


@lru_cache(maxsize=4096)
def _cached(
    up: tuple[int, ...],
    holes: tuple[int, ...],
    pool: tuple[int, ...],
    samples: int,
    exact_limit: int,
    seed: int,
) -> Odds:
    n = len(up)
    total = completions(holes, len(pool))
    up_a = np.array(up, dtype=np.int64)
    holes_a = np.array(holes, dtype=np.int64)
    pool_a = np.array(pool, dtype=np.int64)
    if total <= exact_limit:
        acc, count = _exact(up_a, holes_a, pool_a)
        win = tuple(float(x) / count for x in acc[:n])
        return Odds(win, (0.0,) * n, "exact", int(count), total)
    if samples < 1:
        raise ValueError("Monte Carlo needs at least 1 sample")
    acc = _monte_carlo(up_a, holes_a, pool_a, samples, seed & 0x7FFFFFFF)
    mean = acc[:n] / samples
    var = np.maximum(acc[n:] / samples - mean * mean, 0.0)
    se = np.sqrt(var / max(samples - 1, 1))
    return Odds(
        tuple(float(x) for x in mean), tuple(float(x) for x in se), "monte_carlo", samples, total
    )


def odds(
    face_up: Sequence[Sequence[str | int]],
    *,
    samples: int = DEFAULT_SAMPLES,
    exact_limit: int = DEFAULT_EXACT_LIMIT,
    seed: int = 0,
) -> Odds:
    """Each player's chance to win given only the face-up cards.

    Args:
        face_up: Per player (2 to 5 players), their 5 to 10 face-up cards (``"As"`` or codes);
            a player has ``10 - len(face_up)`` hole cards still down.
        samples: Monte Carlo deals when the completions exceed ``exact_limit``.
        exact_limit: Enumerate every completion when there are at most this many.
        seed: Seed of the Monte Carlo stream (the result is a function of the arguments).

    Raises:
        ValueError: Malformed or repeated cards, a wrong count of players or cards.
    """
    if not 2 <= len(face_up) <= 5:
        raise ValueError(f"odds need 2 to 5 players, got {len(face_up)}")
    masks: list[int] = []
    holes: list[int] = []
    for i, cards in enumerate(face_up):
        codes = parse_cards(cards)
        if not 5 <= len(codes) <= 10:
            raise ValueError(f"player {i} shows {len(codes)} cards; a player shows 5 to 10")
        m = 0
        for c in codes:
            m |= int(CARD_BIT[c])
        masks.append(m)
        holes.append(10 - len(codes))
    return odds_masks(masks, holes, samples=samples, exact_limit=exact_limit, seed=seed)


def odds_command(players: str, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> str:
    """The text ``dennou odds stud10 --players "As Kd Qh Jc 9s|..."`` prints.

    Args:
        players: Each player's face-up cards, players separated by ``|``.
        samples: Monte Carlo deals when exact enumeration is too big.
        seed: Monte Carlo seed.

    Raises:
        ValueError: Malformed input (the message says what is wrong).
    """
    face_up = [p.split() for p in players.split("|")]
    result = odds(face_up, samples=samples, seed=seed)
    if result.method == "exact":
        head = f"exact: all {result.samples:,} completions of the hidden cards"
    else:
        head = (
            f"Monte Carlo: {result.samples:,} deals of {result.completions:.3e} completions "
            f"(seed {seed})"
        )
    lines = [head, f"{'seat':<5} {'win %':>8} {'± se':>7}  {'holes':>5}  face up — showing"]
    for i, cards in enumerate(face_up):
        se = f"{100 * result.se[i]:.2f}" if result.method != "exact" else "exact"
        lines.append(
            f"{i:<5} {100 * result.win[i]:>8.3f} {se:>7}  {10 - len(cards):>5}  "
            f"{' '.join(cards)} — {describe(evaluate(cards))}"
        )
    return "\n".join(lines)
