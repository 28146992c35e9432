"""Daifugo states held by the Numba kernel: the public API's fast play phase.

The public API's play phase runs on the Numba kernel (:mod:`.sim`): a state the fast path made
is a :class:`KernelState`, the kernel's vector plus the seat to play's legal moves; its other
fields are unpacked from the vector the first time anything reads them. :func:`apply` and
:func:`legal_actions` are the engine's own methods. The engine's readable rules stay the oracle:
the tests compare every successor state, event and legal list with theirs on many random
positions.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

import numpy as np

from dennou.core.actions import Action
from dennou.core.game import Event
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import events as E
from dennou.games.daifugo import fast as F
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.actions import Deal, Pass, Play
from dennou.games.daifugo.cards import Combo
from dennou.games.daifugo.fast import CACHE_MAX, play_of, readings
from dennou.games.daifugo.rules import DaifugoRules
from dennou.games.daifugo.state import STATE_FIELDS, DaifugoState, Played

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

    __slots__ = ("buf", "events", "flags", "lead_pass", "moves_of_cards", "rules")

    def __init__(self, rules: DaifugoRules) -> None:
        self.rules = rules
        self.flags = S.flags_of_rules(rules)
        self.buf = np.zeros(S.MAXMOVES, dtype=np.uint64)
        self.lead_pass = rules.lead_pass
        self.moves_of_cards: dict[tuple[str, ...], np.uint64 | None] = {}
        self.events: dict[Any, dict[int, tuple[Event, ...]]] = {}

    def events_of(self, base: DaifugoState) -> dict[int, tuple[Event, ...]]:
        """The events of the steps already seen among these players in this turn order.

        Keyed by ``move << 34 | summary << 6 | seat << 3 | turn`` (:func:`.sim.engine_step`;
        the turn only where the field flushed): a step's events depend on nothing else (the
        rules aside).
        """
        key = (base.players, base.order)
        got = self.events.get(key)
        if got is None:
            if len(self.events) > 100:
                self.events.clear()
            got = self.events[key] = {}
        return got

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

    __slots__ = ("_base", "_events", "_k", "_kernel", "_many", "_r")
    _base: DaifugoState
    _k: Any
    _kernel: Kernel
    _events: dict[int, tuple[Event, ...]]
    """:meth:`Kernel.events_of` the game's players and turn order."""
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
    new._events = kern.events_of(base)
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


def apply(
    engine: Any, state: DaifugoState, seat: int, action: Action
) -> tuple[DaifugoState, list[Event]]:
    """``DaifugoEngine.apply``: apply an action after checking it (never mutates ``state``).

    Plays and passes of the seat to play, and a deal that starts play at once, run on the
    Numba kernel, their events built from the vectors before and after (:func:`play_events`);
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
            dealt = _deal(state, action)
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
        turn = held.turn = r >> 1 & 127
        held._base = state._base
        held._k = st
        held._kernel = kern
        held._events = seen = state._events
        held._r = r & _ANSWER | kern.lead_pass
        if r >> 8 & _MOVES > _MREG:
            held._many = kern.buf[: r >> 8 & _MOVES].astype(np.int64)
        info = r >> _INFO
        key = int(move) << 34 | info << 6 | seat << 3 | (turn if info & _LEADS else 0)
        got = seen.get(key)
        if got is None:
            events = play_events(state, st, seat, int(move), turn, info)
            if not info & S.I_FELL:  # the fallen hand is no part of the key
                if len(seen) > CACHE_MAX:
                    seen.clear()
                seen[key] = tuple(events)
        else:
            events = list(got)
        new = held
    elif r & 3 == 1:  # GAME_OVER - 4 * summary
        new = _last_position(state, st)
        events = play_events(state, st, seat, int(move), -1, (GAME_OVER - r) >> 2)
        base = state._base
        finish, last_hand, pts = engine._close_game(new)
        over = new.points if new.phase == "over" else None
        cheaters = new.results[-1].cheaters
        E.end_events(
            base.players, base.game_no, finish, new.titles, pts, cheaters, last_hand, over, events
        )
    else:
        return engine.apply_rules(state, seat, action)  # type: ignore[no-any-return]
    new.log_chain = (state.log_chain, events)
    return new, events


_INFO = S.INFO_SHIFT
_LEADS = S.I_LEADS
_ANSWER = (1 << _INFO) - 1
_MOVES = (1 << (_INFO - 8)) - 1


def play_events(
    state: KernelState, st: Any, seat: int, move: int, turn: int, info: int
) -> list[Event]:
    """The events of ``seat``'s play ``move`` (0: a pass) on ``state``, which made ``st``.

    What the readable rules say step by step comes from the kernel's summary of the step
    (``info``, :func:`.sim.engine_step`): the position before (revolution, 11-back, lock,
    players out), what the play did (a spade-3 return, a lock, going out, 都落ち), the seats
    passed for and whether the field flushed. ``turn``: the seat to play after (-1: the game
    is over; its end's events are the caller's).
    """
    base = state._base
    rules = state._kernel.rules
    players = base.players
    if move == 0:
        events = [E.pass_event(players[seat], seat, False)]
    else:
        combo = _COMBO_OF_MOVE.get(move) or combo_of_move(move)
        lock = info >> S.I_LOCK & 15
        flags = (info & S.I_RETURNED) << 1 | (info & S.I_REVOLUTION) << 2 | (info & S.I_BACK) << 2
        if info & S.I_LOCKS:
            lock = combo.suits
            flags |= 4
        if rules.revolution and not flags & 2 and F.revolts(combo, rules):
            flags ^= 1 | 16
        if rules.eleven_back and combo.count(C.JACK):
            flags ^= 8 | 32
        events = [E.play_event(rules, players[seat], seat, combo, flags, lock)]
        if info & S.I_OUT:
            place = (info >> S.I_NFIN & 15) + 1
            events.append(E.out_event(players[seat], seat, place))
            if info & S.I_FELL:
                fallen = st.item(S.FALLEN)
                lost = C.cards_in(state._k.item(S.HEAD + 3 * len(players) + fallen))
                events.append(E.fall_event(players[fallen], fallen, lost))
        if turn < 0:
            return events
        if rules.eight_cut and combo.count(C.EIGHT):
            events += (E.flush_event("8-cut"), E.lead_event(players[turn], turn))
            return events
        if flags & 2 and rules.spade3_flush:
            events += (E.flush_event("spade-3 return"), E.lead_event(players[turn], turn))
            return events
    auto = info >> S.I_PASSED & 255
    if auto:
        order = base.order
        i = order.index(info >> S.I_FIRST & 7)
        for x in (*order[i:], *order[:i]):
            if auto >> x & 1:
                events.append(E.pass_event(players[x], x, True))
    if info & S.I_FLUSHED:
        events += (E.flush_event("all passed"), E.lead_event(players[turn], turn))
    return events


def _deal(state: DaifugoState, action: Deal) -> tuple[DaifugoState, list[Event]] | None:
    """The deal by the kernel when play starts at once, with its events; else ``None``."""
    dealt = kernel_deal(state, action.deck)
    if dealt is None:
        return None
    events: list[Event] = []
    st = dealt._k
    at = S.HEAD + 3 * len(state.players)
    hands = [C.cards_in(h) for h in st[at : at + len(state.players)].tolist()]
    diamond3 = state.rules.first_lead == "diamond3"
    E.deal_events(state.game_no, state.players, state.order, hands, diamond3, events)
    events.append(E.lead_event(state.players[dealt.turn], dealt.turn))
    dealt.log_chain = ((), events)
    return dealt, events
