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
from collections.abc import Iterator, Sequence
from typing import Any, overload

import numpy as np

from dennou.core.actions import Action
from dennou.core.game import Event
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.actions import Deal, Pass, Play
from dennou.games.daifugo.cards import Combo
from dennou.games.daifugo.rules import DaifugoRules
from dennou.games.daifugo.state import STATE_FIELDS, DaifugoState, Played

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


# --- states held by the kernel ------------------------------------------------------------------
# The public API's play phase runs on the Numba kernel (sim.py): a state the fast path made is a
# KernelState, the kernel's vector plus the seat to play's legal moves; its other fields are
# unpacked from the vector the first time anything reads them. The engine's readable rules stay
# the oracle: the tests compare every successor state, event and legal list with theirs on
# hundreds of thousands of random positions.

KERNEL_FIELDS = (
    "hands",
    "field",
    "discards",
    "passed",
    "last",
    "revolution",
    "back",
    "lock",
    "pass_run",
    "finished",
    "fallen",
)
"""Fields a KernelState unpacks from the kernel's vector."""

GAME_FIELDS = (
    "rules",
    "players",
    "game_no",
    "deals",
    "order",
    "titles",
    "points",
    "steps",
    "cheaters",
    "results",
    "void_games",
)
"""Fields that do not change during a game's play phase: a KernelState reads them from the
readable state it started from (``_base``)."""


class Kernel:
    """What the fast path keeps per rules: the kernel's flags, a move buffer, move caches."""

    __slots__ = ("buf", "flags", "lead_pass", "moves_of_cards", "rules")

    def __init__(self, rules: DaifugoRules) -> None:
        self.rules = rules
        self.flags = S.flags_of_rules(rules)
        self.buf = np.zeros(S.MAXMOVES, dtype=np.uint64)
        self.lead_pass = rules.lead_pass
        self.moves_of_cards: dict[tuple[str, ...], np.uint64 | None] = {}

    def move_of(self, cards: tuple[str, ...]) -> np.uint64 | None:
        """The kernel move of a play's cards (its first reading), ``None`` if not a play."""
        move = self.moves_of_cards.get(cards, _MISSING)
        if move is _MISSING:
            rules = self.rules
            got = readings(cards, rules.max_group, rules.suit_lock, rules.sequences)
            move = np.uint64(S.move_of(got[0])) if got else None
            if len(self.moves_of_cards) > CACHE_MAX:
                self.moves_of_cards.clear()
            self.moves_of_cards[cards] = move
        return move  # type: ignore[no-any-return]


_MISSING: Any = object()
_KERNELS: dict[int, Kernel] = {}


def kernel(rules: DaifugoRules) -> Kernel:
    """The :class:`Kernel` of a rules object (kept while the rules object lives)."""
    got = _KERNELS.get(id(rules))
    if got is None or got.rules is not rules:
        if len(_KERNELS) > 1000:
            _KERNELS.clear()
        got = _KERNELS[id(rules)] = Kernel(rules)
    return got


_PLAY_OF_MOVE: dict[int, Play] = {}
_COMBO_OF_MOVE: dict[int, Combo] = {}


def combo_of_move(move: int) -> Combo:
    """The combination of a kernel move (cached)."""
    combo = _COMBO_OF_MOVE.get(move)
    if combo is None:
        if len(_COMBO_OF_MOVE) > CACHE_MAX:
            _COMBO_OF_MOVE.clear()
        combo = _COMBO_OF_MOVE[move] = S.combo_of(move)
    return combo


def play_of_move(move: int) -> Play:
    """The shared :class:`Play` of a kernel move."""
    play = _PLAY_OF_MOVE.get(move)
    if play is None:
        if len(_PLAY_OF_MOVE) > CACHE_MAX:
            _PLAY_OF_MOVE.clear()
        play = _PLAY_OF_MOVE[move] = play_of(combo_of_move(move))
    return play


_SLOTS = {name: getattr(DaifugoState, name) for name in (*KERNEL_FIELDS, *GAME_FIELDS)}
"""The readable state's own storage of each field (slot descriptors)."""


class KernelState(DaifugoState):
    """A play-phase state held in the kernel's vector; a :class:`DaifugoState` in every way.

    Set when it is made: ``turn`` and ``log_chain`` (``phase`` is
    ``"play"`` and ``follow_up`` ``None``: class constants). The fields of
    :data:`KERNEL_FIELDS` are unpacked from the vector when any of them is first read; those of
    :data:`GAME_FIELDS` come from ``_base``, the readable state the game's play phase started
    from. It compares, copies (into a plain state) and pickles (as a plain state) like any
    state.
    """

    __slots__ = ("_base", "_k", "_kernel", "_many", "_r")
    _base: DaifugoState
    _k: Any
    _kernel: Kernel
    _r: int
    """The kernel's answer (:func:`.sim.engine_step`): legal moves << 8 | turn << 1 | may pass
    (``lead_pass`` included)."""
    _many: Any
    """The legal moves when more than the vector keeps (set only then)."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        """Made with fields (``dataclasses.replace``, copying code): a plain state."""
        if args or kwargs:
            return DaifugoState(*args, **kwargs)
        return object.__new__(cls)

    def __reduce__(self) -> Any:
        """Pickled as the plain state with the same fields."""
        return (DaifugoState, tuple(getattr(self, name) for name in STATE_FIELDS))

    def moves(self) -> Any:
        """The legal kernel moves of the seat to play, in order (an array; ``pass`` apart)."""
        k = self._r >> 8
        if k > S.MREG:
            return self._many
        st = self._k
        start = len(st) - S.MREG
        return st[start : start + k]

    def unpack(self) -> None:
        """Fill the fields of :data:`KERNEL_FIELDS` from the vector."""
        for name, value in unpacked(self._k).items():
            _SLOTS[name].__set__(self, value)


KernelState.phase = "play"  # type: ignore[misc]
KernelState.follow_up = None  # type: ignore[misc]


def unpacked(st: Any, *, closing: bool = False) -> dict[str, Any]:
    """The fields of :data:`KERNEL_FIELDS` that the kernel's vector ``st`` holds.

    ``closing`` (a game that just ended, closed next): the field's cards already in the
    discards and the field empty, as the close leaves them, without building its plays.
    """
    # whole slices converted at once: reading a NumPy array's items one by one costs more
    n = int(st[S.N])
    base = S.HEAD + 4 * n
    v = st[:base].tolist()
    count = v[S.FCOUNT]
    moves = st[base : base + count].tolist() if count else ()
    discards = v[S.DISCARDS]
    if closing:
        for move in moves:
            discards = C.add(discards, combo_of_move(move).cards)
        field: tuple[Played, ...] = ()
    else:
        metas = st[base + S.FMAX : base + S.FMAX + count].tolist() if count else ()
        field = tuple(
            Played(meta & 7, combo_of_move(move), bool(meta >> 3))
            for move, meta in zip(moves, metas, strict=True)
        )
    passed = v[S.PASSED]
    return {
        "hands": tuple(v[S.HEAD + 3 * n : S.HEAD + 4 * n]),
        "field": field,
        "discards": discards,
        "passed": frozenset(x for x in range(n) if passed >> x & 1) if passed else frozenset(),
        "last": v[S.LAST],
        "revolution": bool(v[S.REVOLUTION]),
        "back": bool(v[S.BACK]),
        "lock": v[S.LOCK],
        "pass_run": v[S.PASS_RUN],
        "finished": tuple(v[S.HEAD + 2 * n : S.HEAD + 2 * n + v[S.NFIN]]),
        "fallen": v[S.FALLEN],
    }


def _unpacked_field(name: str) -> property:
    slot = _SLOTS[name]

    def get(self: KernelState) -> Any:
        try:
            return slot.__get__(self, KernelState)
        except AttributeError:  # not unpacked yet
            self.unpack()
            return slot.__get__(self, KernelState)

    def put(self: KernelState, value: Any) -> None:
        get(self)
        slot.__set__(self, value)

    return property(get, put, doc=f"``{name}``, unpacked from the kernel's vector when read.")


def _game_field(name: str) -> property:
    def get(self: KernelState) -> Any:
        return getattr(self._base, name)

    return property(get, doc=f"``{name}``: unchanged during the play phase (from ``_base``).")


for _name in KERNEL_FIELDS:
    setattr(KernelState, _name, _unpacked_field(_name))
for _name in GAME_FIELDS:
    setattr(KernelState, _name, _game_field(_name))

_new_state = object.__new__


def _successor(base: DaifugoState, st: Any, kern: Kernel, r: int) -> KernelState:
    """A kernel-held state from an :func:`.sim.engine_step` answer ``r`` (moves, turn, top)."""
    new = _new_state(KernelState)
    new.turn = r >> 1 & 127
    new._base = base
    new._k = st
    new._kernel = kern
    new._r = r | kern.lead_pass
    if r >> 8 > S.MREG:
        new._many = kern.buf[: r >> 8].astype(np.int64)
    return new


def kernel_state(state: DaifugoState) -> KernelState | None:
    """``state`` held by the kernel (a play-phase state owing no 7 pass or 10 discard)."""
    if state.phase != "play" or state.follow_up is not None:
        return None
    if isinstance(state, KernelState):
        return state
    kern = kernel(state.rules)
    st = S.pack(state, engine=True)
    base = state.copy()
    base.log_chain = ()
    k = _legal_moves(st, kern.flags, kern.buf)
    r = k << 8 | state.turn << 1 | bool(state.field)
    new = _successor(base, st, kern, r)
    new.log_chain = state.log_chain
    return new


GAME_OVER = S.GAME_OVER
_MREG = S.MREG


def _last_position(now: KernelState, st: Any) -> DaifugoState:
    """The plain state of a game that just ended in the kernel (closed by the engine next)."""
    last = now._base.copy()
    last.rules, last.players, last.phase, last.turn = now.rules, now.players, "play", now.turn
    last.follow_up = None
    for name, value in unpacked(st, closing=True).items():
        setattr(last, name, value)
    return last


def _entry_point(name: str, dispatcher: Any) -> Any:
    """A stand-in for the module global ``name``: calls ``dispatcher`` once, then rebinds.

    Once ``dispatcher`` has compiled for the arguments of its first call, the global becomes
    that compilation's entry point: later calls skip the dispatcher's type resolution (a third
    of a small kernel call).
    """

    def first_call(*args: Any) -> Any:
        result = dispatcher(*args)
        compiled = dispatcher.overloads.get(tuple(map(dispatcher.typeof_pyval, args)))
        if compiled is not None:
            globals()[name] = compiled.entry_point
        return result

    return first_call


_engine_step = _entry_point("_engine_step", S.engine_step)
_legal_moves = _entry_point("_legal_moves", S.legal_moves)


_PASS_MOVE = np.uint64(0)


def kernel_deal(state: DaifugoState, deck: tuple[str, ...]) -> KernelState | None:
    """The state after the deal ``deck`` when play starts at once (no exchange), or ``None``."""
    rules = state.rules
    if rules.exchange and state.game_no > 1:
        return None
    n = len(state.players)
    if len(deck) != 52 + rules.jokers:
        return None
    order = state.order
    hands = [0] * n
    naturals = 0
    count = 0
    jokers = 0
    try:
        for i, x in enumerate(order):
            # A sum of the cards' bits: a card twice carries, so the counts below catch it;
            # jokers add up above the naturals and their carries (at most 54 cards < 2**6).
            total = sum(map(_BITS.__getitem__, deck[i::n]))
            held = total >> _JOKER_SHIFT
            mask = total & _BELOW_JOKERS
            hands[x] = mask | C.JOKER_BITS[held]
            naturals |= mask
            count += mask.bit_count()
            jokers += held
    except (KeyError, TypeError, IndexError):
        return None  # another spelling, not cards, three jokers: the readable rules
    if naturals != C.NATURALS or count != 52 or jokers != rules.jokers:
        return None  # not each card once: the readable rules explain
    leader = order[0]
    if rules.first_lead == "diamond3":
        leader = next(x for x in order if hands[x] >> C.DIAMOND3 & 1)
    base = state.copy()
    base.deals += 1
    base.steps = ()
    base.log_chain = ()
    kern = kernel(rules)
    st = _blank(order).copy()
    st[S.TURN] = st[S.LAST] = leader
    if "daifugo" in state.titles:
        st[S.DAIFUGO] = state.titles.index("daifugo")
    for x in range(n):
        st[S.HEAD + 3 * n + x] = hands[x]
    k = _legal_moves(st, kern.flags, kern.buf)
    return _successor(base, st, kern, k << 8 | leader << 1)


_JOKER_SHIFT = 60
_BELOW_JOKERS = (1 << _JOKER_SHIFT) - 1
_BITS = {C.card_str(c): 1 << c for c in range(52)} | {"JK": 1 << _JOKER_SHIFT}
"""What each card's canonical wire form adds to a hand's sum (jokers count from bit 60)."""
_BLANKS: dict[tuple[int, ...], Any] = {}


def _blank(order: tuple[int, ...]) -> Any:
    """The engine-mode vector of a game in this turn order, before the deal."""
    st = _BLANKS.get(order)
    if st is None:
        n = len(order)
        st = np.zeros(S.size_of(n), dtype=np.int64)
        st[S.N] = n
        st[S.FALLEN] = -1
        st[S.DAIFUGO] = -1
        st[S.ENGINE] = 1
        for i, x in enumerate(order):
            st[S.HEAD + i] = x
            st[S.HEAD + n + x] = i
        if len(_BLANKS) > 1000:
            _BLANKS.clear()
        _BLANKS[order] = st
    return st


class KernelPlays(Sequence[Action]):
    """The legal actions of a kernel-held state: its moves as shared plays, then ``pass``.

    Indexing builds only the play asked for; ``in`` is the engine's own legality check (any
    spelling), like the readable rules' :class:`~.engine.LegalPlays`.
    """

    __slots__ = ("_engine", "_len", "_seat", "_state")
    _engine: Any
    _len: int
    _seat: int
    _state: KernelState

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        state = self._state
        count = state._r >> 8
        if type(index) is int and 0 <= index < count:
            # the vector keeps up to MREG moves at its end: a negative index reads them
            move = state._k.item(index - _MREG) if count <= _MREG else state._many.item(index)
            return _PLAY_OF_MOVE.get(move) or play_of_move(move)
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += self._len
        if 0 <= index < count:
            return play_of_move(state.moves().item(index))
        if index == count and self._len > count:
            return PASS
        raise IndexError(index)

    def __iter__(self) -> Iterator[Action]:
        state = self._state
        for move in state.moves().tolist():
            yield play_of_move(move)
        if self._len > state._r >> 8:
            yield PASS

    def __contains__(self, action: object) -> bool:
        return bool(self._engine.allows(self._state, self._seat, action))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"KernelPlays({list(self)!r})"


def legal_actions(engine: Any, state: DaifugoState, seat: int) -> Sequence[Action]:
    """``DaifugoEngine.legal_actions``: the actions ``seat`` may take now.

    Of a kernel-held state (the play phase, nothing owed), a :class:`KernelPlays` for the seat
    to play and nothing for the others; of any other state, the readable rules'
    (``engine.legal_actions_rules``). The engine's method itself, so that the hot path of
    every random or search player makes one call.
    """
    if type(state) is not KernelState:
        return engine.legal_actions_rules(state, seat)  # type: ignore[no-any-return]
    if seat != state.turn:
        return []
    plays = _new_state(KernelPlays)
    plays._state = state
    plays._engine = engine
    plays._seat = seat
    r = state._r
    plays._len = (r >> 8) + (r & 1)
    return plays


PASS = Pass()


class LazyEvents(list[Event]):
    """The events of a transition the fast path made, built by the readable rules when read.

    The kernel computes transitions without events. Their events are the readable rules' own:
    the first time this list is read it runs the readable transition (``engine.apply_rules``)
    on the state before (same state, same action) and keeps its events; until then it costs
    nothing. It is a real ``list`` (filled on first use), so callers need nothing new; only C
    code that reads a list's storage directly (``json.dumps``, ``msgspec``) before any Python
    read would see it empty, which is why the engine reads its logs through iteration.
    """

    __slots__ = ("_source",)
    _source: tuple[Any, DaifugoState, int, Action] | None

    def _fill(self) -> None:
        source = self._source
        if source is not None:
            self._source = None
            engine, state, seat, action = source
            list.extend(self, engine.apply_rules(state, seat, action)[1])

    def __iter__(self) -> Any:
        self._fill()
        return list.__iter__(self)

    def __len__(self) -> int:
        self._fill()
        return list.__len__(self)

    def __getitem__(self, index: Any) -> Any:
        self._fill()
        return list.__getitem__(self, index)

    def __reversed__(self) -> Any:
        self._fill()
        return list.__reversed__(self)

    def __contains__(self, item: object) -> bool:
        self._fill()
        return list.__contains__(self, item)

    def __eq__(self, other: object) -> bool:
        self._fill()
        if isinstance(other, LazyEvents):
            other._fill()
        return list.__eq__(self, other)

    __hash__ = None

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __repr__(self) -> str:
        self._fill()
        return list.__repr__(self)

    def __reduce__(self) -> Any:
        """Pickled (and copied) as the plain list of its events."""
        return (list, (list(self),))

    def copy(self) -> list[Event]:
        """A plain list of the events."""
        return list(self)


_lazy = list.__new__


def apply(
    engine: Any, state: DaifugoState, seat: int, action: Action
) -> tuple[DaifugoState, list[Event]]:
    """``DaifugoEngine.apply``: apply an action after checking it (never mutates ``state``).

    Plays and passes of the seat to play, and a deal that starts play at once, run on the
    Numba kernel, their events built by the readable rules when read (:class:`LazyEvents`);
    a game's end is closed by ``engine._close_game``. Everything else, and every refusal (the
    readable rules explain it), a 千日手, a 7 pass or 10 discard owed, goes to the readable
    rules (``engine.apply_rules``), which the tests hold the kernel to. The engine's method
    itself, so that the hot path of every random or search player makes one call.
    """
    if type(state) is not KernelState:
        if state.phase == "play" and seat == state.turn:
            now = kernel_state(state)  # None: a 7 pass or 10 discard is owed
            if now is not None:
                return apply(engine, now, seat, action)
        elif state.phase == "deal" and seat == -1 and type(action) is Deal:
            dealt = _deal(engine, state, action)
            if dealt is not None:
                return dealt
        return engine.apply_rules(state, seat, action)  # type: ignore[no-any-return]
    if seat != state.turn:
        return engine.apply_rules(state, seat, action)  # type: ignore[no-any-return]
    # The hot path of every random player and search: kept in one function on purpose.
    kern = state._kernel
    kind = type(action)
    if kind is Play:
        move = kern.moves_of_cards.get(action.cards)  # type: ignore[attr-defined]
        if move is None:
            move = kern.move_of(action.cards)  # type: ignore[attr-defined]
            if move is None:
                return engine.apply_rules(state, seat, action)  # type: ignore[no-any-return]
    elif kind is Pass:
        move = _PASS_MOVE
    else:
        return engine.apply_rules(state, seat, action)  # type: ignore[no-any-return]
    st = state._k.copy()
    r = _engine_step(st, move, kern.flags, kern.buf)
    new: DaifugoState
    if r >= 0:
        held: KernelState = _new_state(KernelState)
        held.turn = r >> 1 & 127
        held._base = state._base
        held._k = st
        held._kernel = kern
        held._r = r | kern.lead_pass
        if r >> 8 > _MREG:
            held._many = kern.buf[: r >> 8].astype(np.int64)
        new = held
    elif r == GAME_OVER:
        new = _last_position(state, st)
        engine._close_game(new)
    else:
        return engine.apply_rules(state, seat, action)  # type: ignore[no-any-return]
    events = _lazy(LazyEvents)
    events._source = (engine, state, seat, action)
    new.log_chain = (state.log_chain, events)
    return new, events


def _deal(
    engine: Any, state: DaifugoState, action: Deal
) -> tuple[DaifugoState, list[Event]] | None:
    """The deal by the kernel when play starts at once, with lazy events; else ``None``."""
    dealt = kernel_deal(state, action.deck)
    if dealt is None:
        return None
    source = state
    if state.log_chain:  # the deal's events need nothing of the last game's log
        source = state.copy()
        source.log_chain = ()
    events = _lazy(LazyEvents)
    events._source = (engine, source, -1, action)
    dealt.log_chain = ((), events)
    return dealt, events


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
