"""The kernel's move list and forced-pass test against the readable rules, field by field.

Rules page ``docs/games/daifugo.md``, Plays, Sequences, Suit lock, Revolution: every table,
bot and batch lists its moves with :func:`.sim.gen_moves` and passes a seat that cannot play
with ``sim._can_play``. Their shortcuts (suits that cannot hold a sequence skipped, only the
ranks above the top looked at) must not change the list or its order: the readable
:func:`.cards.combos` filtered by :func:`.cards.beats` is the oracle, on random hands and fields.
"""

from __future__ import annotations

import random

import numpy as np

from dennou.games.daifugo import DaifugoRules
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import sim as S

FIELDS = 10_000
"""Random (hand, field) pairs a test run compares (a few seconds on one core); ``bench/sweeps.py
daifugo-moves`` runs the same comparison on 40,000 and more."""


def _hand(rng: random.Random) -> int:
    """A hand of 1-14 naturals (often bunched by rank or suit, as sequences and groups need)."""
    size = rng.randint(1, 14)
    if rng.random() < 0.3:  # one suit's run of ranks: sequences
        suit, low = rng.randrange(4), rng.randrange(13)
        cards = {4 * ((low + i) % 13) + suit for i in range(rng.randint(2, 7))}
        cards |= set(rng.sample(range(52), size // 2))
    else:
        cards = set(rng.sample(range(52), size))
    return C.card_set(sorted(cards)) | C.JOKER_BITS[rng.choice((0, 0, 1, 2))]


def _vector(
    hand: int, top: C.Combo | None, reverse: bool, back: bool, lock: int, ret: bool
) -> np.ndarray:
    """Seat 0 of 5 to play ``hand`` on the field ``top`` (``None``: a lead)."""
    st = np.zeros(S.size_of(5), dtype=np.int64)
    st[S.N] = 5
    st[S.HEAD + 3 * 5] = np.int64(hand)
    st[S.REVOLUTION], st[S.BACK] = int(reverse != back), int(back)
    if top is not None:
        move = np.uint64(S.move_of(top))
        st[S.TOP] = np.int64(move)
        st[S.TKIND], st[S.TLOW], st[S.TSIZE], st[S.TSUITS] = S.move_info(move)
        st[S.LOCK], st[S.RETURNED] = lock, int(ret)
    return st


def compare_moves(fields: int, seed: int = 20261126) -> dict[str, int]:
    """Compare the kernel's moves with the oracle's on ``fields`` random (hand, field) pairs.

    Asserts at the first difference, and that every kind of case came up in proportion to
    ``fields`` (leads, follows, sequences on the field, locked suits, no play); returns the
    counts of each kind.
    """
    rng = random.Random(seed)
    buf = np.empty(S.MAXMOVES, dtype=np.uint64)
    seen = {"lead": 0, "follow": 0, "sequence": 0, "locked": 0, "empty": 0}
    for _ in range(fields):
        rules = DaifugoRules(
            max_group=rng.randint(2, 6),
            suit_lock=rng.random() < 0.5,
            sequences=rng.random() < 0.6,
            spade3_return=rng.random() < 0.8,
        )
        flags = S.flags_of_rules(rules)
        hand = _hand(rng)
        readable = C.combos(
            hand, rules.max_group, suit_jokers=rules.suit_lock, seqs=rules.sequences
        )
        reverse, back = rng.random() < 0.3, rng.random() < 0.15
        top: C.Combo | None = None
        lock, ret = 0, False
        if rng.random() < 0.7:
            other = _hand(rng)
            tops = C.combos(
                other, rules.max_group, suit_jokers=rules.suit_lock, seqs=rules.sequences
            )
            top = rng.choice(tops)
            lock = top.suits if rules.suit_lock and rng.random() < 0.4 else 0
            ret = rng.random() < 0.05  # the top is a spade-3 return: nothing beats it
        st = _vector(hand, top, reverse, back, lock, ret)
        if top is None:
            expect = readable
            seen["lead"] += 1
        else:
            expect = [
                c
                for c in readable
                if C.beats(
                    c,
                    top,
                    reverse=reverse,
                    returned=ret,
                    lock=lock,
                    spade3_return=rules.spade3_return,
                )
            ]
            seen["follow"] += 1
            seen["sequence"] += top.kind == C.SEQUENCE
            seen["locked"] += lock != 0
            seen["empty"] += not expect
        k = S.gen_moves(np.uint64(hand), st, flags, buf)
        assert [int(m) for m in buf[:k]] == [S.move_of(c) for c in expect], (hand, top)
        if top is not None:
            assert S._can_play(st, flags, 0, buf) == bool(expect), (hand, top)
    assert seen["lead"] > fields // 5 and seen["follow"] > fields // 2
    rare = fields // 40
    assert seen["sequence"] > rare and seen["locked"] > rare and seen["empty"] > rare
    return seen


def test_kernel_moves_are_the_readable_plays_that_beat_the_field_in_order() -> None:
    """Rules page, Plays: a lead lists every combination; a follow the ones that beat the top
    (same kind and size, stronger in the current order, of the locked suits; nothing on a
    spade-3 return), in the readable order; a seat can play exactly when the list is not empty.

    :data:`FIELDS` pairs here; the long sweep is ``bench/sweeps.py daifugo-moves``."""
    compare_moves(FIELDS)
