"""Bitmask move generation for the engine's play phase (the public API's hot path).

Rules: ``../shared/rules/daifugo.md`` (Plays). The state keeps hands as sorted card-code tuples
(see :mod:`.cards`); this module derives, and caches by hand, a 52-bit mask of the natural cards
(bit ``c`` = card code ``c``, so rank ``r`` is the nibble at bit ``4 * r``) and the joker count.
From those:

- :func:`can_beat` answers "does this hand hold a play on the field" in a few integer operations
  (a SWAR count of cards per rank), which the engine asks for every forced pass;
- :func:`lead_groups` and :func:`follow_groups` list the playable groups by looking up, rank by
  rank, a table of the groups one nibble of naturals and some jokers can form. The tables are
  filled lazily from :func:`.cards.groups`, so the groups come out in exactly the order of the
  readable functions :func:`.cards.groups` and :func:`.cards.follow_groups`, which stay the
  oracle (``tests/games/daifugo/test_daifugo_fast.py``).

Each table entry holds the groups and their :class:`~.actions.Play` actions side by side, so
``legal_actions`` builds no action objects.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dennou.games.daifugo import cards as C
from dennou.games.daifugo.actions import Play

Group = tuple[int, ...]
Entry = tuple[tuple[Group, ...], tuple[Play, ...]]

# SWAR counting of the cards of each rank (nibble): the usual 0x55.. and 0x33.. steps, then
# adding (8 - k) to every nibble sets its high bit exactly when the nibble counts >= k cards.
M5 = int("5" * 13, 16)
M3 = int("3" * 13, 16)
_M8 = int("8" * 13, 16)
ADD = (0, *(int(str(8 - k) * 13, 16) for k in range(1, 5)))
_LOW = tuple((1 << (4 * r)) - 1 for r in range(14))
"""``_LOW[r]``: the bits of the ranks below ``r``."""

HAND_BITS: dict[Group, tuple[int, int]] = {}
"""Hand (sorted codes) to its bits; read it directly on hot paths, fill it via hand_bits."""
CACHE_MAX = 50_000
"""Entries a cache may hold before it is cleared (hands and plays repeat; memory stays bounded)."""


def hand_bits(hand: Group) -> tuple[int, int]:
    """The natural-card mask and the joker count of a sorted hand (cached by hand)."""
    bits = HAND_BITS.get(hand)
    if bits is None:
        mask = 0
        jokers = 0
        for c in hand:
            if c == C.JOKER:
                jokers += 1
            else:
                mask |= 1 << c
        if len(HAND_BITS) > CACHE_MAX:
            HAND_BITS.clear()
        bits = HAND_BITS[hand] = (mask, jokers)
    return bits


def beating_ranks(top_rank: int, revolution: bool) -> int:
    """The high bit of the nibble of every natural rank that beats ``top_rank``."""
    return _M8 & (_LOW[top_rank] if revolution else ~_LOW[top_rank + 1])


def has_rank_with(mask: int, need: int, ranks: int) -> bool:
    """Whether one of ``ranks`` (from :func:`beating_ranks`) holds ``need`` (1-4) naturals."""
    c = mask - ((mask >> 1) & M5)
    c = (c & M3) + ((c >> 2) & M3)
    return bool((c + ADD[need]) & ranks)


def can_beat(
    hand: Group,
    size: int,
    top_rank: int,
    revolution: bool,
    returned: bool,
    spade3_return: bool,
    max_group: int,
) -> bool:
    """Whether ``hand`` holds a group beating a top of ``size`` cards and rank ``top_rank``.

    The same answer as :func:`.cards.can_beat` (the oracle), from the hand's bits.
    """
    if returned or size > max_group:
        return False
    mask, jokers = HAND_BITS.get(hand) or hand_bits(hand)
    if top_rank == C.JOKER_RANK:
        return spade3_return and size == 1 and bool(mask & 1)
    need = size - jokers
    if need <= 0:
        return True
    if need > 4:
        return False
    return has_rank_with(mask, need, beating_ranks(top_rank, revolution))


# Table keys are small ints (nibble | rank << 4 | jokers << 8 | size or max_group << 10): they
# hash faster than tuples.
_LEAD: dict[int, Entry] = {}
_FOLLOW: dict[int, Entry] = {}
_JOKERS: dict[int, Entry] = {}
_PLAYS: dict[Group, Play] = {}


PlayInfo = tuple[Play, Group, "int | None", int, int, str]
"""What the engine needs of a play it made: (action, group, rank, natural mask, jokers, text)."""

PLAY_INFO: dict[int, PlayInfo] = {}
"""``id(action)`` to the facts of each shared play of :func:`play_of`.

Keyed by id, since hashing the action's fields would cost as much as parsing them; check that
``PLAY_INFO[id(a)][0] is a`` before trusting an entry.
"""


def play_of(group: Group) -> Play:
    """The :class:`Play` of a group of sorted card codes (one shared object per group)."""
    action = _PLAYS.get(group)
    if action is None:
        if len(_PLAYS) > CACHE_MAX:
            _PLAYS.clear()
            PLAY_INFO.clear()
        action = _PLAYS[group] = Play(tuple(C.cards_str(group)))
        mask, jokers = hand_bits(group)
        # The entry keeps the action alive, so its id is not reused while the entry exists.
        PLAY_INFO[id(action)] = (
            action,
            group,
            C.group_rank(group),
            mask,
            jokers,
            C.cards_symbols(group),
        )
    return action


def _entry(groups: Sequence[Group]) -> Entry:
    return tuple(groups), tuple(play_of(g) for g in groups)


def _naturals(rank: int, nib: int) -> Group:
    return tuple(rank * 4 + s for s in range(4) if nib >> s & 1)


def _lead_entry(key: int) -> Entry:
    entry = _LEAD.get(key)
    if entry is None:
        nib, rank, jokers, max_group = key & 15, (key >> 4) & 15, (key >> 8) & 3, key >> 10
        # The readable generator on this rank alone (its joker-only groups come last: drop them).
        hand = _naturals(rank, nib) + (C.JOKER,) * jokers
        groups = [g for g in C.groups(hand, max_group) if g[0] != C.JOKER]
        entry = _LEAD[key] = _entry(groups)
    return entry


def _follow_entry(key: int) -> Entry:
    entry = _FOLLOW.get(key)
    if entry is None:
        nib, rank, jokers, size = key & 15, (key >> 4) & 15, (key >> 8) & 3, key >> 10
        hand = _naturals(rank, nib) + (C.JOKER,) * jokers
        # top_rank -1 (or 13 under revolution) lets every rank through; the joker-only group is
        # added by the caller, after every rank, as the oracle orders it.
        groups = [
            g
            for g in C.follow_groups(hand, size, -1, revolution=False, returned=False, max_group=6)
            if g[0] != C.JOKER
        ]
        entry = _FOLLOW[key] = _entry(groups)
    return entry


def _jokers_entry(count: int) -> Entry:
    entry = _JOKERS.get(count)
    if entry is None:
        entry = _JOKERS[count] = _entry([(C.JOKER,) * count])
    return entry


def lead_groups(hand: Group, max_group: int) -> list[Group]:
    """The groups a leader may play, in the order of :func:`.cards.groups` (the oracle)."""
    out: list[Any] = []
    add_lead(out, 0, HAND_BITS.get(hand) or hand_bits(hand), max_group)
    return out


def add_lead(out: list[Any], which: int, bits: tuple[int, int], max_group: int) -> None:
    """Extend ``out`` by the leader's groups (``which`` 0) or their plays (``which`` 1).

    ``bits`` are the hand's :func:`hand_bits`; the order is the oracle's.
    """
    extend = out.extend
    mask, jokers = bits
    extra = jokers << 8 | max_group << 10
    get = _LEAD.get
    while mask:
        r = ((mask & -mask).bit_length() - 1) >> 2
        shift = 4 * r
        key = (mask >> shift) & 15 | r << 4 | extra
        extend((get(key) or _lead_entry(key))[which])
        mask &= ~(15 << shift)
    for j in range(1, min(jokers, max_group) + 1):
        extend((_JOKERS.get(j) or _jokers_entry(j))[which])


def follow_groups(
    hand: Group,
    size: int,
    top_rank: int,
    revolution: bool,
    returned: bool,
    spade3_return: bool,
    max_group: int,
) -> list[Group]:
    """The groups beating the top, in the order of :func:`.cards.follow_groups` (the oracle)."""
    out: list[Any] = []
    add_follow(
        out,
        0,
        HAND_BITS.get(hand) or hand_bits(hand),
        size,
        top_rank,
        revolution,
        returned,
        spade3_return,
        max_group,
    )
    return out


def add_follow(
    out: list[Any],
    which: int,
    bits: tuple[int, int],
    size: int,
    top_rank: int,
    revolution: bool,
    returned: bool,
    spade3_return: bool,
    max_group: int,
) -> None:
    """Extend ``out`` by the groups (``which`` 0) or plays (``which`` 1) beating the top."""
    extend = out.extend
    if returned or size > max_group:
        return
    mask, jokers = bits
    if top_rank == C.JOKER_RANK:
        if spade3_return and size == 1 and mask & 1:
            extend(_entry_spade3()[which])
        return
    need = size - jokers
    if need > 4:
        return
    # Only ranks that beat the top and hold enough naturals (with the jokers) can play.
    if revolution:
        mask &= _LOW[top_rank]
    else:
        mask &= ~_LOW[top_rank + 1]
    if need > 1:
        c = mask - ((mask >> 1) & M5)
        c = (c & M3) + ((c >> 2) & M3)
        mask &= (((c + ADD[need]) & _M8) >> 3) * 15  # whole nibbles of the ranks with enough
    # What is left of the mask (ranks that can play), the jokers and the size decide the answer;
    # in random play about 2 follows in 3 repeat one already seen.
    key = mask | jokers << 52 | size << 54
    entry = _FOLLOWS.get(key)
    if entry is None:
        groups: list[Group] = []
        plays: list[Play] = []
        extra = jokers << 8 | size << 10
        get = _FOLLOW.get
        while mask:
            r = ((mask & -mask).bit_length() - 1) >> 2
            shift = 4 * r
            k = (mask >> shift) & 15 | r << 4 | extra
            part = get(k) or _follow_entry(k)
            groups.extend(part[0])
            plays.extend(part[1])
            mask &= ~(15 << shift)
        if jokers >= size:
            part = _JOKERS.get(size) or _jokers_entry(size)
            groups.extend(part[0])
            plays.extend(part[1])
        if len(_FOLLOWS) > CACHE_MAX:
            _FOLLOWS.clear()
        entry = _FOLLOWS[key] = (tuple(groups), tuple(plays))
    extend(entry[which])


_FOLLOWS: dict[int, Entry] = {}
"""Whole follow answers by (playable mask, jokers, size)."""


_SPADE3: list[Entry] = []


def _entry_spade3() -> Entry:
    if not _SPADE3:
        _SPADE3.append(_entry([(C.SPADE3,)]))
    return _SPADE3[0]
