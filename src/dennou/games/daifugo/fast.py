"""The engine's fast layer: legal plays from tables, "can this hand play?" in a few operations.

What it offers the engine (rules: ``docs/games/daifugo.md``, Plays):

- :func:`add_leads` and :func:`add_follows` (and :func:`lead_plays`, :func:`follow_plays`):
  the combinations a hand may play on an empty field or on a top, or their shared
  :class:`~.actions.Play` actions, in the order of the readable generator
  :func:`.cards.groups` (the oracle in the tests);
- :func:`can_follow`: whether a hand holds any play beating the top (the engine asks it for
  every forced pass), from a SWAR count of the cards of each rank;
- :func:`readings`: the readings (:func:`.cards.interpretations`) of a play's wire form, cached
  by the form, so that applying one of the listed plays parses nothing.

Groups come from tables of what one rank's cards (a 4-bit suit set) and some jokers can form,
filled lazily from :func:`.cards.groups`. Everything here is a pure function of its arguments;
the caches only remember answers.
"""

from __future__ import annotations

import random
from typing import Any

from dennou.games.daifugo import cards as C
from dennou.games.daifugo.actions import Play
from dennou.games.daifugo.cards import Combo
from dennou.games.daifugo.rules import DaifugoRules
from dennou.games.daifugo.state import Played

Entry = tuple[tuple[Combo, ...], tuple[Play, ...]]
"""Combinations and their actions, side by side."""

CACHE_MAX = 50_000
"""Entries a cache may hold before it is cleared (memory stays bounded on any input)."""

# SWAR counting of the cards of each rank (nibble): the usual 0x55.. and 0x33.. steps, then
# adding (8 - k) to every nibble sets its high bit exactly when the nibble counts >= k cards.
_M5 = int("5" * 13, 16)
_M3 = int("3" * 13, 16)
_M8 = int("8" * 13, 16)
_ADD = (0, *(int(str(8 - k) * 13, 16) for k in range(1, 5)))
_LOW = tuple((1 << (4 * r)) - 1 for r in range(14))
"""``_LOW[r]``: the bits of the ranks below ``r``."""


def _ranks_beating(rank: int, reverse: bool) -> int:
    """The bits of every rank stronger than ``rank`` (weaker ranks under ``reverse``)."""
    return _LOW[rank] if reverse else C.NATURALS & ~_LOW[rank + 1]


def _ranks_holding(mask: int, need: int) -> int:
    """The whole nibbles of the ranks of which ``mask`` holds at least ``need`` (1-4) cards."""
    c = mask - ((mask >> 1) & _M5)
    c = (c & _M3) + ((c >> 2) & _M3)
    return (((c + _ADD[need]) & _M8) >> 3) * 15


_PLAYS: dict[Combo, Play] = {}
_SYMBOLS: dict[Combo, str] = {}


def play_of(combo: Combo) -> Play:
    """The :class:`Play` of a combination (one shared object per combination)."""
    action = _PLAYS.get(combo)
    if action is None:
        if len(_PLAYS) > CACHE_MAX:
            _PLAYS.clear()
        action = _PLAYS[combo] = Play(combo.strs())
    return action


def symbols(combo: Combo) -> str:
    """:meth:`.cards.Combo.symbols`, cached: the text of every play event."""
    text = _SYMBOLS.get(combo)
    if text is None:
        if len(_SYMBOLS) > CACHE_MAX:
            _SYMBOLS.clear()
        text = _SYMBOLS[combo] = combo.symbols()
    return text


def _entry(combos: list[Combo]) -> Entry:
    return tuple(combos), tuple(play_of(c) for c in combos)


def _store(table: dict[int, Entry], key: int, combos: list[Combo]) -> Entry:
    if len(table) > CACHE_MAX:
        table.clear()
    entry = table[key] = _entry(combos)
    return entry


_GROUPS: dict[int, Entry] = {}
"""Groups by one rank's cards: key ``suits | rank << 4 | jokers << 8 | max size << 10``, plus
``1 << 13`` when jokers name their suit (the suit lock is played)."""

_SUIT_JOKERS = 1 << 13
"""The key bit of :func:`_rank_groups` for jokers naming suits (bits 14-17 hold a lock)."""


def _rank_groups(key: int) -> Entry:
    """The groups one rank's naturals and some jokers form (jokers not alone), by table key."""
    entry = _GROUPS.get(key)
    if entry is None:
        nib, rank, jokers, max_group = key & 15, key >> 4 & 15, key >> 8 & 3, key >> 10 & 7
        hand = nib << (4 * rank) | C.JOKER_BITS[jokers]
        groups = C.groups(hand, max_group, suit_jokers=bool(key & _SUIT_JOKERS))
        entry = _store(_GROUPS, key, [g for g in groups if not g.jokers_only])
    return entry


_JOKER_GROUPS = tuple(
    _entry([C.Combo(C.GROUP, C.JOKER_RANK, k, C.JOKER_BITS[k], 0)]) for k in (1, 2)
)
"""``_JOKER_GROUPS[k - 1]``: the group of ``k`` jokers only."""

_SPREAD = tuple(sum(1 << (16 * s) for s in range(4) if nib >> s & 1) for nib in range(16))
"""``_SPREAD[suits]``: bit ``16 * suit`` for each suit of a 4-bit suit set."""


def _suit_ranks(hand: int) -> int:
    """The hand by suit: the 13-bit set of the ranks of suit ``s`` at bits ``16 * s``."""
    out = 0
    rank = 0
    mask = hand & C.NATURALS
    while mask:
        nib = mask & 15
        if nib:
            out |= _SPREAD[nib] << rank
        mask >>= 4
        rank += 1
    return out


_SEQUENCES: dict[int, Entry] = {}
"""Sequences of one suit: key ``ranks held (13 bits) | suit << 13 | jokers << 15``."""


def _suit_sequences(ranks: int, suit: int, jokers: int) -> Entry:
    key = ranks | suit << 13 | jokers << 15
    entry = _SEQUENCES.get(key)
    if entry is None:
        entry = _store(_SEQUENCES, key, C.suit_sequences(ranks, suit, jokers))
    return entry


COMBOS, PLAYS = 0, 1
"""What :func:`add_leads` and :func:`add_follows` list: the combinations or their actions."""


def add_leads(out: list[Any], which: int, hand: int, rules: DaifugoRules) -> None:
    """Extend ``out`` by every combination of ``hand``: what a leader may play.

    ``which`` picks the combinations or their actions; the order is :func:`.cards.combos`'s.
    """
    max_group = rules.max_group
    jokers = hand >> 52 and C.jokers_in(hand)
    extra = jokers << 8 | max_group << 10 | (_SUIT_JOKERS if rules.suit_lock else 0)
    mask = hand & C.NATURALS
    while mask:
        rank = ((mask & -mask).bit_length() - 1) >> 2
        out += _rank_groups(mask >> (4 * rank) & 15 | rank << 4 | extra)[which]
        mask &= ~(15 << (4 * rank))
    for count in range(1, min(jokers, max_group) + 1):
        out += _JOKER_GROUPS[count - 1][which]
    if rules.sequences:
        by_suit = _suit_ranks(hand)
        for suit in range(4):
            out += _suit_sequences(by_suit >> (16 * suit) & 0x1FFF, suit, jokers)[which]


_SPADE3 = _entry([C.Combo(C.GROUP, 0, 1, 1 << C.SPADE3, 1)])
_LOCKED = tuple(sum(nib << (4 * r) for r in range(13)) for nib in range(16))
"""``_LOCKED[suits]``: the natural cards of those suits."""


def add_follows(
    out: list[Any],
    which: int,
    hand: int,
    top: Played,
    reverse: bool,
    lock: int,
    rules: DaifugoRules,
) -> None:
    """Extend ``out`` by the combinations of ``hand`` that beat ``top`` (or their actions).

    The order is that of filtering :func:`.cards.combos` with :func:`.cards.beats`. For groups,
    only ranks that beat the top and hold enough naturals (of the locked suits, under a lock)
    with the jokers can play; each rank's answer comes from a table.
    """
    combo = top.combo
    size = combo.size
    if top.returned:
        return
    if combo.rank == C.JOKER_RANK:
        if rules.spade3_return and size == 1 and hand & 1 << C.SPADE3:
            out += _SPADE3[which]
        return
    if combo.kind == C.SEQUENCE:
        _add_sequence_follows(out, which, hand, combo, reverse, lock)
        return
    if size > rules.max_group:
        return
    jokers = hand >> 52 and C.jokers_in(hand)
    need = size - jokers
    if need > 4:
        return
    mask = hand & _ranks_beating(combo.rank, reverse)
    if lock:
        mask &= _LOCKED[lock]
    if need > 1:
        mask &= _ranks_holding(mask, need)
    extra = jokers << 8 | size << 10 | lock << 14 | (_SUIT_JOKERS if rules.suit_lock else 0)
    while mask:
        rank = ((mask & -mask).bit_length() - 1) >> 2
        out += _rank_follows(mask >> (4 * rank) & 15 | rank << 4 | extra)[which]
        mask &= ~(15 << (4 * rank))
    if jokers >= size:
        out += _JOKER_GROUPS[size - 1][which]


_FOLLOWS: dict[int, Entry] = {}
"""Groups of exactly one size by one rank's cards, of the locked suits: the key of
:func:`_rank_groups` (the size in place of the max size) plus ``lock << 14``."""


def _rank_follows(key: int) -> Entry:
    entry = _FOLLOWS.get(key)
    if entry is None:
        size, lock = key >> 10 & 7, key >> 14 & 15
        groups = _rank_groups(key & ~(15 << 14))[0]
        chosen = [g for g in groups if g.size == size and (not lock or g.suits == lock)]
        entry = _store(_FOLLOWS, key, chosen)
    return entry


def _add_sequence_follows(
    out: list[Any], which: int, hand: int, top: Combo, reverse: bool, lock: int
) -> None:
    jokers = hand >> 52 and C.jokers_in(hand)
    by_suit = _suit_ranks(hand)
    size = top.size
    for suit in range(4):
        if lock and not lock >> suit & 1:
            continue
        combos, plays = _suit_sequences(by_suit >> (16 * suit) & 0x1FFF, suit, jokers)
        for combo, play in zip(combos, plays, strict=True):
            if combo.size == size and (
                combo.rank + size - 1 < top.rank if reverse else combo.rank > top.high
            ):
                out.append(combo if which == COMBOS else play)


def lead_plays(hand: int, rules: DaifugoRules) -> Entry:
    """:func:`add_leads` as ``(combinations, actions)``."""
    combos: list[Combo] = []
    add_leads(combos, COMBOS, hand, rules)
    return tuple(combos), tuple(play_of(c) for c in combos)


def follow_plays(hand: int, top: Played, reverse: bool, lock: int, rules: DaifugoRules) -> Entry:
    """:func:`add_follows` as ``(combinations, actions)``."""
    combos: list[Combo] = []
    add_follows(combos, COMBOS, hand, top, reverse, lock, rules)
    return tuple(combos), tuple(play_of(c) for c in combos)


def can_follow(hand: int, top: Played, reverse: bool, lock: int, rules: DaifugoRules) -> bool:
    """Whether :func:`add_follows` would list anything (groups: without listing it)."""
    combo = top.combo
    size = combo.size
    if top.returned:
        return False
    if combo.rank == C.JOKER_RANK:
        return rules.spade3_return and size == 1 and bool(hand & 1 << C.SPADE3)
    if combo.kind == C.SEQUENCE:
        found: list[Combo] = []
        _add_sequence_follows(found, COMBOS, hand, combo, reverse, lock)
        return bool(found)
    if size > rules.max_group:
        return False
    jokers = hand >> 52 and C.jokers_in(hand)
    if jokers >= size:
        return True  # the jokers alone (exempt from any lock)
    need = size - jokers
    if need > 4:
        return False
    mask = hand & _ranks_beating(combo.rank, reverse)
    if lock:
        mask &= _LOCKED[lock]
    return bool(mask & _ranks_holding(mask, need))


def revolts(combo: Combo, rules: DaifugoRules) -> bool:
    """Rules, Revolution: whether ``combo`` is big enough to revolt.

    A group of ``revolution_size`` cards or more (never jokers only), a sequence of
    ``sequence_revolution_size`` or more.
    """
    if combo.kind == C.SEQUENCE:
        return 0 < rules.sequence_revolution_size <= combo.size
    return combo.size >= rules.revolution_size and not combo.jokers_only


_READINGS: dict[Any, tuple[Combo, ...] | None] = {}


def readings(
    cards: tuple[str, ...], max_group: int, suit_jokers: bool, sequences: bool
) -> tuple[Combo, ...] | None:
    """The readings of a play's cards that these rules allow, cached by wire form and rules.

    :func:`.cards.combo_from` without groups of more than ``max_group`` cards; ``None`` if the
    strings are not all cards.
    """
    key = (cards, max_group, suit_jokers, sequences)
    try:
        return _READINGS[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable card (a list inside): not cards
        return None
    got = C.combo_from(cards, suit_jokers=suit_jokers, sequences=sequences)
    if got is not None:
        got = [c for c in got if c.kind == C.SEQUENCE or c.size <= max_group]
    if len(_READINGS) > CACHE_MAX:
        _READINGS.clear()
    _READINGS[key] = found = None if got is None else tuple(got)
    return found


def shuffled(items: list[Any], rng: random.Random) -> list[Any]:
    """``rng.shuffle(items)`` (the same order from the same stream), faster; returns ``items``.

    ``random.shuffle`` draws each index with a method call; this inlines the same draws
    (``getrandbits`` until below the bound) for the plain ``random.Random``.
    """
    if type(rng)._randbelow is not random.Random._randbelow_with_getrandbits:  # type: ignore[attr-defined]
        rng.shuffle(items)
        return items
    getrandbits = rng.getrandbits
    steps = _SHUFFLE_STEPS.get(len(items))
    if steps is None:
        steps = tuple((i, (i + 1).bit_length()) for i in range(len(items) - 1, 0, -1))
        if len(_SHUFFLE_STEPS) < 100:
            _SHUFFLE_STEPS[len(items)] = steps
    for i, bits in steps:
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]
    return items


_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}
"""Per list length: each index a shuffle swaps into, from the last, and the bits it draws."""
