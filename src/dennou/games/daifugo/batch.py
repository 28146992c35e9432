"""Daifugo games in batches: N games stepped together, NumPy in and NumPy out.

For vectorised reinforcement learning and Monte Carlo search. One :class:`Batch` holds ``N``
games of ``players`` seats (one game each: a fresh deal, no exchange), all under one rules
object, as rows of the Numba kernel's state vectors (:mod:`.sim`). Every call works on all
unfinished games at once in compiled code::

    from dennou.games.daifugo.batch import Batch

    games = Batch(1024, {"preset": "uecda"}, seed=7)   # dealt
    while not games.done.all():
        flat, offsets = games.legal()                  # every game's legal moves
        pick = offsets[:-1] + (rng.random(1024) * np.diff(offsets)).astype(np.int64)
        games.step(flat[pick])                         # one move per game (finished: ignored)
    games.places                                       # (N, players): each seat's place, 0 first

**Moves** are the kernel's ``uint64`` encoding (:mod:`.sim`): the card set in bits 0-53 (card
``c`` at bit ``c``, jokers counted in bits 52-53), bit 58 for a sequence with its lowest rank
+ 1 in bits 54-57, the suits a group's jokers name in bits 59-62; ``0`` is a pass.
:func:`.sim.move_of` and :func:`.sim.combo_of` convert to and from the engine's
:class:`~.cards.Combo` (whose ``strs()`` is the wire form).

**Arrays** (views, updated in place by :meth:`Batch.step`): ``states`` ``(N, S)`` int64, the raw
vectors (layout: the constants of :mod:`.sim`); ``turn`` ``(N,)`` the seat to act (-1: over);
``done`` ``(N,)`` bool; ``hands`` ``(N, players)`` card sets; ``places`` ``(N, players)`` each
seat's finishing place once done (0 = 大富豪).

A 7 pass or 10 discard (local rules, off by default) is made by the kernel for the player
(its weakest cards in the current order: under a revolution or 11-back the highest ranks), so
every listed move is a play or a pass. A 千日手 is drawn from the batch's random stream. The
engine's readable rules stay the oracle: ``tests/games/daifugo/test_batch.py`` replays
batch games through the public API, and ``tests/rl/test_daifugo_batch.py`` the RL env's.

**Seeding.** Each batch keeps its own generator (``seed``): deals and 千日手 draws come from it
alone, so batches stepped side by side in one process do not change each other's games.

:func:`deal_rows` and :func:`step_rows` are the compiled kernels behind :class:`Batch`, for
callers that keep their own rows (the RL env deals a row again inside its own kernel).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit

from dennou.core.errors import ConfigError
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.rules import DaifugoRules, from_options


@S.no_alloc
def _deal_one(st: np.ndarray, deck: np.ndarray, diamond3: int) -> None:
    """A fresh game in ``st``: ``deck`` shuffled and dealt by seat from seat 0, the leader set."""
    np.random.shuffle(deck)
    n = st[S.N]
    hb = S.HEAD + 3 * n
    for x in range(n):  # seat x gets every n-th card from the x-th: one hand at a time
        h = np.uint64(0)
        for i in range(x, deck.shape[0], n):
            c = deck[i]
            if c >= 52:
                h = S._add_cards(h, np.uint64(1 << 52))
            else:
                h |= np.uint64(1) << np.uint64(c)
        st[hb + x] = np.int64(h)
    for k in range(S.HEAD):
        if k != S.N:
            st[k] = 0
    st[S.FALLEN] = -1
    st[S.DAIFUGO] = -1
    leader = 0
    if diamond3:
        for x in range(n):
            if st[hb + x] >> C.DIAMOND3 & 1:
                leader = x
    st[S.TURN] = leader
    st[S.LAST] = leader


@njit(cache=True)
def deal_rows(states: np.ndarray, flags: np.ndarray, jokers: int, diamond3: int, seed: int) -> None:
    """A fresh game in every row: shuffled deck dealt by seat from seat 0, the leader set."""
    if seed >= 0:
        np.random.seed(seed)
    _deal_each(states, np.arange(52 + jokers), diamond3, np.ones(states.shape[0], np.bool_))


@S.no_alloc
def _deal_each(states: np.ndarray, deck: np.ndarray, diamond3: int, which: np.ndarray) -> None:
    """A fresh game in each chosen row (one deck for all: shuffling it again is a fresh deal)."""
    for g in range(states.shape[0]):
        if which[g]:
            _deal_one(states[g], deck, diamond3)


@S.no_alloc
def _legal(states: np.ndarray, flags: np.ndarray, flat: np.ndarray, offsets: np.ndarray) -> int:
    """Every unfinished game's legal moves into ``flat`` (CSR by ``offsets``); the total."""
    total = 0
    for g in range(states.shape[0]):
        offsets[g] = total
        st = states[g]
        if st[S.OVER] or st[S.TURN] < 0:
            continue
        if total + S.MAXMOVES + 1 > flat.shape[0]:
            return -1  # the caller grows ``flat`` and asks again
        # written in place: gen_moves needs MAXMOVES of room after ``total``, checked above
        k = S.gen_moves(S._hand(st, st[S.TURN]), st, flags, flat[total:])
        total += k
        if st[S.TOP] != 0 or flags[S.F_LEADPASS]:
            flat[total] = np.uint64(0)
            total += 1
    offsets[states.shape[0]] = total
    return total


@njit(cache=True, inline="always")
def _among(values: np.ndarray, lo: int, hi: int, x: Any) -> bool:
    """Whether ``x`` is one of ``values[lo:hi]``."""
    for i in range(lo, hi):  # noqa: SIM110 - a plain loop compiles to a plain loop in Numba
        if values[i] == x:
            return True
    return False


@S.no_alloc
def _illegal(states: np.ndarray, moves: np.ndarray, flags: np.ndarray, buf: np.ndarray) -> int:
    """The first unfinished game whose move is not one of its legal moves (-1: none).

    ``buf``: scratch for one game's moves (:data:`.sim.MAXMOVES`).
    """
    for g in range(states.shape[0]):
        st = states[g]
        if st[S.OVER] or st[S.TURN] < 0:
            continue
        move = moves[g]
        if move == 0:
            if st[S.TOP] == 0 and not flags[S.F_LEADPASS]:
                return g
            continue
        k = S.gen_moves(S._hand(st, st[S.TURN]), st, flags, buf)
        if not _among(buf, 0, k, move):
            return g
    return -1


@S.no_alloc
def first_unlisted(values: np.ndarray, flat: np.ndarray, offsets: np.ndarray) -> int:
    """The first row whose value is not among its listed ones (CSR; -1: none).

    Rows with nothing listed (finished games) are skipped.
    """
    for g in range(values.shape[0]):
        lo, hi = offsets[g], offsets[g + 1]
        if lo != hi and not _among(flat, lo, hi, values[g]):
            return g
    return -1


@njit(cache=True)
def step_rows(states: np.ndarray, moves: np.ndarray, flags: np.ndarray) -> None:
    """Every unfinished game plays its move; a 7 pass or 10 discard owed is made at once.

    The moves are not checked (callers check them first: :meth:`Batch.step`, or a caller's own
    list of legal moves). The cards a 7 pass or 10 discard takes are the weakest in the current
    order (under a revolution or 11-back the highest ranks; jokers last).
    """
    _step_each(states, moves, flags, np.empty(S.MAXMOVES, dtype=np.uint64), -1)


@S.no_alloc
def _step_each(
    states: np.ndarray, moves: np.ndarray, flags: np.ndarray, buf: np.ndarray, seed: int
) -> None:
    """:func:`step_rows` with the caller's scratch ``buf`` (:data:`.sim.MAXMOVES`).

    ``seed`` (-1: none) seeds the kernel's stream before the first game whose step may end in
    a 千日手 (the only draw a step makes), so that most steps skip the seeding's cost.
    """
    stale = flags[S.F_STALE]
    for g in range(states.shape[0]):
        st = states[g]
        if st[S.OVER] or st[S.TURN] < 0:
            continue
        if seed >= 0 and stale and st[S.PASS_RUN] + st[S.N] >= stale:
            np.random.seed(seed)  # a step passes each seat at most once
            seed = -1
        if S.step(st, moves[g], flags, buf):
            continue
        while st[S.FU_KIND] and not st[S.OVER]:
            reverse = 1 if st[S.REVOLUTION] != st[S.BACK] else 0
            cards = S._weakest(S._hand(st, st[S.TURN]), st[S.FU_COUNT], reverse)
            S.step(st, cards, flags, buf)


@S.no_alloc
def _places(states: np.ndarray, out: np.ndarray) -> None:
    n = states[0, S.N]
    for g in range(states.shape[0]):
        st = states[g]
        for x in range(n):
            out[g, x] = -1
        for p in range(st[S.NFIN]):
            out[g, st[S.HEAD + 2 * n + p]] = p


class Batch:
    """``n_games`` games of Daifugo stepped together (see the module's documentation).

    Args:
        n_games: How many games.
        rules: A :class:`DaifugoRules` or options for ``make_rules`` (``{"preset": "uecda"}``).
        players: Seats per game (2-8).
        seed: Seed of the batch's generator (deals, 千日手).

    Raises:
        ValueError: A player count out of 2-8, no games, or bad rules options.
    """

    def __init__(
        self,
        n_games: int,
        rules: DaifugoRules | Mapping[str, Any] | None = None,
        players: int = 5,
        seed: int = 0,
    ) -> None:
        if not 2 <= players <= 8 or n_games < 1:
            raise ValueError(f"a batch holds 1+ games of 2-8 players, not {n_games} x {players}")
        if not isinstance(rules, DaifugoRules):
            try:
                rules = from_options(rules or {})
            except (ConfigError, TypeError) as exc:
                raise ValueError(f"bad rules: {exc}") from exc
        self.rules = rules
        self.players = players
        self.flags = S.flags_of_rules(rules)
        self.states = np.zeros((n_games, S.size_of(players)), dtype=np.int64)
        self.states[:, S.N] = players
        for i in range(players):
            self.states[:, S.HEAD + i] = i  # seats in order; seat 0 is dealt first
            self.states[:, S.HEAD + players + i] = i
        self._flat = np.zeros(n_games * 64 + S.MAXMOVES, dtype=np.uint64)
        self._offsets = np.zeros(n_games + 1, dtype=np.int64)
        self._listed = False  # whether _flat holds the legal moves of the states as they are
        self._buf = np.empty(S.MAXMOVES, dtype=np.uint64)  # one game's moves, scratch
        self._rng = np.random.default_rng(seed)
        self._seeds: list[int] = []  # the generator's next seeds for the kernel, last first
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        """Deal a fresh game in every row (``seed``: replace the batch's generator first)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self._seeds = []
        self._deal(np.ones(self.states.shape[0], dtype=np.bool_))

    def redeal(self, rows: Any) -> None:
        """Deal a fresh game in the chosen rows only (the others are untouched).

        For steady batches: read the ``places`` of the games that are ``done``, then
        ``redeal(games.done)``.

        Args:
            rows: ``(N,)`` bool, the rows to deal again.

        Raises:
            ValueError: ``rows`` is not an ``(N,)`` bool array.
        """
        which = np.asarray(rows)
        if which.shape != (self.states.shape[0],) or which.dtype != np.bool_:
            raise ValueError(f"rows: a bool array of shape {(self.states.shape[0],)}")
        self._deal(which)

    def _deal(self, which: Any) -> None:
        self._listed = False
        S._seed(self._draw())
        deck = np.arange(52 + self.rules.jokers)  # each call deals from the same order
        _deal_each(self.states, deck, self.rules.first_lead == "diamond3", which)

    def _draw(self) -> int:
        """A seed for the kernel's stream (shared by the process) from this batch's generator."""
        if not self._seeds:  # drawn 256 at a time: one draw costs as much as a step's share
            self._seeds = self._rng.integers(0, 2**32 - 1, size=256).tolist()[::-1]
        return self._seeds.pop()

    @property
    def turn(self) -> Any:
        """``(N,)`` the seat to act in each game (-1 once over)."""
        return np.where(self.states[:, S.OVER] != 0, -1, self.states[:, S.TURN])

    @property
    def done(self) -> Any:
        """``(N,)`` whether each game is over."""
        return self.states[:, S.OVER] != 0

    @property
    def hands(self) -> Any:
        """``(N, players)`` each seat's hand (card sets)."""
        n = self.players
        return self.states[:, S.HEAD + 3 * n : S.HEAD + 4 * n]

    @property
    def places(self) -> Any:
        """``(N, players)`` each seat's finishing place (0 first; -1 while not placed)."""
        out = np.zeros((self.states.shape[0], self.players), dtype=np.int64)
        _places(self.states, out)
        return out

    def legal(self) -> tuple[Any, Any]:
        """Every unfinished game's legal moves: ``(flat, offsets)``.

        Game ``g``'s moves are ``flat[offsets[g]:offsets[g + 1]]`` (``uint64``; a pass is 0,
        listed last when allowed); finished games list none. Both are read-only views reused by
        the next call: copy what you keep. :meth:`step` checks moves against this list (the
        ``states`` must not be written in between).
        """
        while True:
            total = _legal(self.states, self.flags, self._flat, self._offsets)
            if total >= 0:
                self._listed = True
                flat, offsets = self._flat[:total], self._offsets[:]
                # step() checks moves against this list: callers read it, never write it
                flat.flags.writeable = offsets.flags.writeable = False
                return flat, offsets
            self._flat = np.zeros(self._flat.shape[0] * 2, dtype=np.uint64)

    def step(self, moves: Any) -> None:
        """Every unfinished game plays its move (``moves``: ``(N,)`` uint64).

        Raises:
            ValueError: A move that is not legal in its game (the first such game is named;
                no game has moved).
        """
        moves = np.asarray(moves, dtype=np.uint64)
        if moves.shape != (self.states.shape[0],):
            raise ValueError(f"one move per game: shape {(self.states.shape[0],)}")
        if self._listed:  # checked against the list already made, not generated again
            bad = first_unlisted(moves, self._flat, self._offsets)
        else:
            bad = _illegal(self.states, moves, self.flags, self._buf)
        if bad >= 0:
            raise ValueError(f"game {bad}: move {int(moves[bad]):#x} is not legal now")
        self._listed = False
        _step_each(self.states, moves, self.flags, self._buf, self._draw())
