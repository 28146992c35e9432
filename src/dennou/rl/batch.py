"""Daifugo as a batched environment: N games stepped together, observations and masks in Numba.

For self-play and vectorised training at speed (``docs/rl.md``, "Batched: DaifugoBatchEnv").
One :class:`DaifugoBatchEnv` holds ``num_envs`` games over
:class:`~dennou.games.daifugo.batch.Batch` (rows of the Numba kernel's state vectors). Each row
is **game 1 of a set**: a fresh deal, no exchange, no titles or points yet. Every call works on
all rows at once in compiled code::

    from dennou.rl.batch import DaifugoBatchEnv

    env = DaifugoBatchEnv(1024, {"preset": "uecda"}, seed=7)
    obs, mask, seat = env.reset()
    rng = np.random.default_rng(0)                   # for the random play below
    for _ in range(1000):
        obs, mask, seat, rewards, done = env.step(env.sample_actions(rng))

Observations, masks and action numbers are :class:`~dennou.games.daifugo.encoding.DaifugoEncoding`'s
(``env.encoding``), for the seat to act in each row: byte for byte what the encoding gives for
the same state through the engine (``tests/rl/test_daifugo_batch.py`` replays the rows' moves
through the engine's public API and compares).

**Auto-reset.** A row whose game ends in a step gets its ``rewards`` (each seat's points for its
title, as the PettingZoo env pays them when the first game of a set ends; with ``games=1`` the
set's final points too), ``done`` is set, and the row is dealt a fresh game at once: the
observation, mask and seat returned for it are the new game's. The ended game's finishing places
stay in :attr:`DaifugoBatchEnv.final_places` until the next step.

**Made for the player.** A 7 pass or 10 discard (local rules) is made by the kernel as part of
the play that owes it: the weakest cards in the current order (under a revolution or 11-back,
the highest ranks; jokers last). So every decision is a play or a pass, and the give and discard
numbers of the encoding never appear in a mask. A 千日手 draws the remaining places from the
env's random stream.

**Buffers.** The arrays ``reset`` and ``step`` return are the env's own output buffers, filled
again in place by the next ``reset`` or ``step``: keep one past the next call with ``.copy()``.
Fresh arrays for every call would be mapped and unmapped by the allocator each step (a page
fault per 4 KiB touched, most of a step's time); ``copy=True`` gives fresh arrays anyway, with
the same values.

**Seeding.** Each env keeps its own generator (``seed``; ``reset(seed)`` replaces it): the deals
and 千日手 draws of a step come from it alone, so two envs with the same seed play the same games
under the same actions, whatever else runs between their calls.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit

from dennou.core.errors import ConfigError
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.batch import Batch, deal_rows, first_unlisted, step_rows
from dennou.games.daifugo.encoding import CARD_BITS, DaifugoEncoding
from dennou.games.daifugo.rules import DaifugoRules, from_options, titles_for
from dennou.rl.table import encoding_for

_NOT_A_PLAY = np.uint64(1) << np.uint64(63)
"""The move of a give or discard number: never a kernel move, never listed as legal."""

_GOLDEN = 0x9E3779B97F4A7C15
"""Fibonacci hashing's multiplier (2**64 / the golden ratio): spreads a move's bits over a slot."""

_EMPTY = -1
"""A free slot of the move table (no kernel move is negative as an int64)."""

# Offsets into the observation (the encoding's fields), passed to the kernels as one array.
(
    L_CARDS,
    L_ME,
    L_PHASE_PLAY,
    L_SET,
    L_COUNTS,
    L_TITLES,
    L_STATUS,
    L_PLACE,
    L_ORDER,
    L_TURN,
    L_LAST,
    L_TOP,
    L_FLAGS,
) = range(13)


@njit(cache=True, inline="always")
def _card_bits(o: np.ndarray, at: int, cards: np.uint64) -> None:
    while cards:
        b = S._lowest(cards)
        o[at + b] = 1.0
        cards &= cards - np.uint64(1)


@njit(cache=True, inline="always")
def _bit_length(x: int) -> int:
    bits = 0
    while x:
        bits += 1
        x >>= 1
    return bits


def _move_table(plays: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An open-addressing table from kernel move to play number (1 + index in ``plays``).

    At most a quarter full, so a lookup reads about one slot: the binary search it replaces
    took a tenth of a step. ``keys`` holds each move as an int64 (``_EMPTY`` where free),
    ``numbers`` its number; the slot of a move is the top bits of ``move * _GOLDEN``.
    """
    bits = max(4, (4 * len(plays) - 1).bit_length())
    size, shift, mask64 = 1 << bits, 64 - bits, (1 << 64) - 1
    keys = np.full(size, _EMPTY, dtype=np.int64)
    numbers = np.zeros(size, dtype=np.int64)
    for index, move in enumerate(int(m) for m in plays):
        slot = ((move * _GOLDEN) & mask64) >> shift
        while keys[slot] != _EMPTY:
            slot = (slot + 1) & (size - 1)
        keys[slot] = move
        numbers[slot] = index + 1
    return keys, numbers


@njit(cache=True)
def _settle(
    states: np.ndarray,
    flags: np.ndarray,
    jokers: int,
    diamond3: int,
    points: np.ndarray,
    done: np.ndarray,
    places: np.ndarray,
    rewards: np.ndarray,
) -> None:
    """Ended rows: their places and rewards, then a fresh deal (from the kernel's stream)."""
    n = states[0, S.N]
    for g in range(states.shape[0]):
        st = states[g]
        if not st[S.OVER]:
            done[g] = False
            for x in range(n):
                places[g, x] = -1
                rewards[g, x] = 0.0
            continue
        done[g] = True
        for p in range(st[S.NFIN]):
            x = st[S.HEAD + 2 * n + p]
            places[g, x] = p
            rewards[g, x] = points[p]
        deal_rows(states[g : g + 1], flags, jokers, diamond3, -1)


@njit(cache=True)
def _observe(
    states: np.ndarray,
    flags: np.ndarray,
    lay: np.ndarray,
    scales: np.ndarray,
    move_keys: np.ndarray,
    move_numbers: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    seat: np.ndarray,
    numbers: np.ndarray,
    offsets: np.ndarray,
    buf: np.ndarray,
    listed: bool,
) -> int:
    """Every row's observation, mask and seat to act; the legal numbers in CSR form.

    ``obs`` and ``mask`` are the env's buffers, filled again: each observation row is cleared
    then filled while it is in the cache; with ``listed`` the mask's true entries are exactly
    the legal numbers of ``numbers`` and ``offsets`` (the last call's), cleared one by one, else
    every mask row is cleared. Returns the count of legal numbers, ``-1`` when
    ``numbers`` is too short (the caller grows it and asks again), or ``-2 - g`` when a legal
    move of row ``g`` has no number (a numbering bug: a mask must never be silently wrong).
    """
    n = states[0, S.N]
    head = S.HEAD
    top_at = lay[L_TOP]
    flags_at = lay[L_FLAGS]
    wrap = move_keys.shape[0] - 1
    shift = np.uint64(64 - _bit_length(wrap))
    golden = np.uint64(_GOLDEN)
    total = 0
    if listed:
        for g in range(states.shape[0]):
            row = mask[g]
            for i in range(offsets[g], offsets[g + 1]):
                row[numbers[i]] = False
    for g in range(states.shape[0]):
        st = states[g]
        o = obs[g]
        o[:] = 0.0
        if not listed:
            mask[g, :] = False
        x = st[S.TURN]
        seat[g] = x
        hand = np.uint64(st[head + 3 * n + x])
        plays = st[S.FCOUNT]
        base = head + 4 * n
        field = np.uint64(0)
        field_jokers = np.int64(0)
        for i in range(plays):
            m = np.uint64(st[base + i])
            field |= m & S.NAT
            field_jokers += S._jokers(m)
        _card_bits(o, lay[L_CARDS], hand)
        if plays:
            _card_bits(o, lay[L_CARDS] + CARD_BITS, np.uint64(st[base + plays - 1]) & S._CARDS)
        _card_bits(o, lay[L_CARDS] + 2 * CARD_BITS, field | S._jbits(field_jokers))
        _card_bits(o, lay[L_CARDS] + 3 * CARD_BITS, np.uint64(st[S.DISCARDS]))
        o[lay[L_ME] + x] = 1.0
        o[lay[L_PHASE_PLAY]] = 1.0
        o[lay[L_SET]] = scales[0]
        o[lay[L_SET] + 1] = scales[1]
        passed = st[S.PASSED]
        for s in range(n):
            o[lay[L_COUNTS] + s] = S._popcount(np.uint64(st[head + 3 * n + s])) / 27
            o[lay[L_TITLES] + 6 * s] = 1.0  # no titles in a set's first game
            if passed >> s & 1:
                o[lay[L_STATUS] + 4 * s] = 1.0
            o[lay[L_ORDER] + st[head + s]] = s / n
        for p in range(st[S.NFIN]):
            s = st[head + 2 * n + p]
            o[lay[L_STATUS] + 4 * s + 1] = 1.0
            o[lay[L_PLACE] + s] = (p + 1) / n
        if st[S.FALLEN] >= 0:
            o[lay[L_STATUS] + 4 * st[S.FALLEN] + 3] = 1.0
        o[lay[L_TURN] + x] = 1.0
        if st[S.LAST] >= 0:
            o[lay[L_LAST] + st[S.LAST]] = 1.0
        if plays:
            o[top_at + st[S.TKIND]] = 1.0
            o[top_at + 3 + st[S.TLOW]] = 1.0
            o[top_at + 16 + st[S.TSIZE]] = 1.0
            for s in range(4):
                if st[S.TSUITS] >> s & 1:
                    o[top_at + 32 + s] = 1.0
            if st[S.RETURNED]:
                o[top_at + 36] = 1.0
        if st[S.REVOLUTION]:
            o[flags_at] = 1.0
        if st[S.BACK]:
            o[flags_at + 1] = 1.0
        if st[S.REVOLUTION] != st[S.BACK]:
            o[flags_at + 2] = 1.0
        for s in range(4):
            if st[S.LOCK] >> s & 1:
                o[flags_at + 3 + s] = 1.0
        o[flags_at + 7] = min(1.0, plays / 10)
        o[flags_at + 8] = min(1.0, st[S.PASS_RUN] * scales[2])
        # the mask: the kernel's moves by number (binary search in the numbering's moves)
        k = S.gen_moves(hand, st, flags, buf)
        if total + k + 1 > numbers.shape[0]:
            return -1
        offsets[g] = total
        row = mask[g]
        if st[S.TOP] != 0 or flags[S.F_LEADPASS]:
            row[0] = True
            numbers[total] = 0
            total += 1
        for i in range(k):
            move = buf[i]
            slot = np.int64((move * golden) >> shift)
            key = np.int64(move)
            while move_keys[slot] != key:
                if move_keys[slot] == _EMPTY:
                    return -2 - g
                slot = (slot + 1) & wrap
            number = move_numbers[slot]
            if not row[number]:
                row[number] = True
                numbers[total] = number
                total += 1
    offsets[states.shape[0]] = total
    return total


@njit(cache=True)
def _pick(offsets: np.ndarray, numbers: np.ndarray, u: np.ndarray, out: np.ndarray) -> None:
    for g in range(out.shape[0]):
        lo = offsets[g]
        count = offsets[g + 1] - lo
        out[g] = numbers[lo + min(count - 1, int(u[g] * count))]


class DaifugoBatchEnv:
    """``num_envs`` games of Daifugo stepped together (see the module's documentation).

    Args:
        num_envs: How many games (rows).
        rules: Rules options (``{"preset": "uecda"}``, ``{"sequences": True}``...) or a
            :class:`DaifugoRules`; ``None``: the seed rules.
        players: Seats per game (2-8).
        seed: Seed of the env's generator (deals, 千日手); ``None``: fresh entropy.
        copy: Return new arrays from every ``reset`` and ``step`` (default: the env's buffers,
            overwritten by the next call; see the module's documentation).

    Raises:
        ValueError: ``num_envs`` below 1, ``players`` out of 2-8, or bad rules options.

    Attributes:
        encoding: The :class:`DaifugoEncoding` whose observations and numbers the env uses.
        num_envs: The number of rows.
        players: Seats per game.
        num_actions: Action numbers (the mask's width).
        obs_size: Observation values.
        final_places: ``(N, players)`` the finishing places (0 = 大富豪) of each game that
            ended in the last step; -1 in rows that did not end.
        place_rewards: ``(players,)`` float32: the reward of each finishing place (the
            points of its title, in the encoding's scale).
        batch: The underlying :class:`~dennou.games.daifugo.batch.Batch` (its ``states`` are
            the rows' kernel vectors).
    """

    def __init__(
        self,
        num_envs: int,
        rules: DaifugoRules | Mapping[str, Any] | None = None,
        players: int = 5,
        seed: int | None = 0,
        *,
        copy: bool = False,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer):
            raise ValueError(f"num_envs must be an int, not {num_envs!r}")
        if isinstance(players, bool) or not isinstance(players, int | np.integer):
            raise ValueError(f"players must be an int, not {players!r}")
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        if not 2 <= players <= 8:
            raise ValueError(f"players must be 2-8, not {players}")
        if not isinstance(rules, DaifugoRules):
            if rules is not None and not isinstance(rules, Mapping):
                raise ValueError(f"rules must be a mapping of options, not {rules!r}")
            try:
                rules = from_options(rules or {})
            except (ConfigError, ValueError, TypeError) as exc:
                raise ValueError(f"bad rules: {exc}") from exc
        self.rules: DaifugoRules = rules
        self.num_envs = int(num_envs)
        self.players = n = int(players)
        enc = encoding_for("daifugo", rules, n)
        assert isinstance(enc, DaifugoEncoding)
        self.encoding = enc
        self.num_actions = enc.num_actions
        self.obs_size = enc.size
        self.batch = Batch(self.num_envs, rules, n, seed=0)
        self._flags = self.batch.flags
        # number -> kernel move (gives and discards have none); kernel move -> number
        table = np.full(enc.num_actions, _NOT_A_PLAY, dtype=np.uint64)
        table[0] = 0
        plays = enc.play_moves
        table[1 : 1 + len(plays)] = plays.astype(np.uint64)
        self._move_of_number = table
        self._move_keys, self._move_numbers = _move_table(plays)
        self._layout = np.array(
            [
                enc.f_cards,
                enc.f_me,
                enc.f_phase + 2,  # "play": the only phase a row is observed in
                enc.f_set,
                enc.f_counts,
                enc.f_titles,
                enc.f_status,
                enc.f_place,
                enc.f_order,
                enc.f_turn,
                enc.f_last,
                enc.f_top_kind,
                enc.f_flags,
            ],
            dtype=np.int64,
        )
        games = rules.games
        self._scales = np.array(
            [min(1, games) / games, float(games == 1), enc.pass_scale], dtype=np.float64
        )
        final = games == 1
        self._points = np.array(
            [rules.title_points(t, final=final) * enc.reward_scale for t in titles_for(n)],
            dtype=np.float32,
        )
        self.place_rewards = self._points.copy()
        self._jokers = rules.jokers
        self._diamond3 = 1 if rules.first_lead == "diamond3" else 0
        self._buf = np.zeros(S.MAXMOVES, dtype=np.uint64)
        self._numbers = np.zeros(self.num_envs * 64, dtype=np.int64)
        self._offsets = np.zeros(self.num_envs + 1, dtype=np.int64)
        self._seat = np.zeros(self.num_envs, dtype=np.int64)
        self.copy = bool(copy)
        self._listed = False
        # the output buffers (the caller's to read until the next call; _seat stays private)
        self._obs = np.zeros((self.num_envs, self.obs_size), np.float32)
        self._mask = np.zeros((self.num_envs, self.num_actions), np.bool_)
        self._seat_out = np.zeros(self.num_envs, dtype=np.int64)
        self._rewards = np.zeros((self.num_envs, n), np.float32)
        self._done = np.zeros(self.num_envs, np.bool_)
        self.final_places = np.full((self.num_envs, n), -1, dtype=np.int64)
        self._rng = np.random.default_rng(seed)
        self.reset(seed)

    # --- the loop -----------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> tuple[Any, Any, Any]:
        """Deal a fresh game in every row.

        Args:
            seed: Replaces the env's generator (``None``: keep drawing from it).

        Returns:
            ``(obs, mask, seat)``: ``(N, obs_size)`` float32 observations and ``(N,
            num_actions)`` bool masks of the seat to act, and that seat ``(N,)``. They are
            the env's buffers, overwritten by the next call (unless ``copy``).
        """
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        deal_rows(self.batch.states, self._flags, self._jokers, self._diamond3, self._kernel_seed())
        self.final_places[:] = -1
        return self._observe()

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, Any]:
        """Every row's seat to act takes its action number; ended rows are dealt again.

        Args:
            actions: ``(N,)`` integer action numbers (the encoding's), each legal in its row.

        Returns:
            ``(obs, mask, seat, rewards, done)``: the next decision's observation, mask and
            seat in each row (a new game's in ended rows), ``(N, players)`` float32 rewards
            (each seat's, nonzero only in rows whose game ended now) and ``(N,)`` bool
            ``done``. The arrays are the env's buffers, overwritten by the next ``step`` or
            ``reset``: copy what you keep (``copy=True``: new arrays each step).

        Raises:
            ValueError: Wrong shape or type, or an action that is not legal in its row (the
                first such row is named; nothing has changed).
        """
        actions = self._check(actions)
        moves = self._move_of_number[actions]
        S._seed(self._kernel_seed())
        step_rows(self.batch.states, moves, self._flags)
        done, rewards = self._done, self._rewards
        rewards[:] = 0.0
        _settle(
            self.batch.states,
            self._flags,
            self._jokers,
            self._diamond3,
            self._points,
            done,
            self.final_places,
            rewards,
        )
        obs, mask, seat = self._observe()
        if self.copy:
            return obs, mask, seat, rewards.copy(), done.copy()
        return obs, mask, seat, rewards, done

    def _kernel_seed(self) -> int:
        """A seed for the kernel's stream, drawn from this env's generator."""
        return int(self._rng.integers(0, 2**32 - 1))

    def _check(self, actions: Any) -> Any:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"one action number per row: shape ({self.num_envs},), not {a.shape}")
        if a.dtype.kind not in "iu":
            raise ValueError(f"action numbers are integers, not {a.dtype}")
        a = a.astype(np.int64, copy=False)
        bad = first_unlisted(a, self._numbers, self._offsets)
        if bad >= 0:
            raise ValueError(
                f"row {bad}: action number {int(a[bad])} is not legal for seat "
                f"{int(self._seat[bad])} now"
            )
        return a

    def _observe(self) -> tuple[Any, Any, Any]:
        obs, mask = self._obs, self._mask
        while True:
            total = _observe(
                self.batch.states,
                self._flags,
                self._layout,
                self._scales,
                self._move_keys,
                self._move_numbers,
                obs,
                mask,
                self._seat,
                self._numbers,
                self._offsets,
                self._buf,
                self._listed,
            )
            # the mask's true entries are the listed numbers only after a whole pass
            self._listed = total >= 0
            if total >= 0:
                np.copyto(self._seat_out, self._seat)
                if self.copy:
                    return obs.copy(), mask.copy(), self._seat_out.copy()
                return obs, mask, self._seat_out
            if total == -1:
                self._numbers = np.zeros(self._numbers.shape[0] * 2, dtype=np.int64)
                continue
            row = -2 - total
            raise AssertionError(f"row {row}: a legal move without a number")

    # --- helpers ------------------------------------------------------------------------
    def legal(self) -> tuple[Any, Any]:
        """Every row's legal action numbers: ``(flat, offsets)``.

        Row ``g``'s are ``flat[offsets[g]:offsets[g + 1]]`` (pass first when legal, then in
        the kernel's order; not sorted). Both are copies.
        """
        end = int(self._offsets[-1])
        return self._numbers[:end].copy(), self._offsets.copy()

    def sample_actions(self, rng: np.random.Generator) -> Any:
        """A legal action number per row, uniform over each row's mask.

        Args:
            rng: The generator to draw from (one uniform draw per row).
        """
        out = np.empty(self.num_envs, dtype=np.int64)
        _pick(self._offsets, self._numbers, rng.random(self.num_envs), out)
        return out

    def move_of(self, actions: Any) -> Any:
        """The kernel moves (``uint64``, :mod:`dennou.games.daifugo.sim`) of play numbers.

        Pass is 0. :func:`~dennou.games.daifugo.sim.combo_of` turns a move into the engine's
        combination.

        Raises:
            ValueError: A number out of range, or a give or discard number (not a play).
        """
        a = np.asarray(actions)
        if a.dtype.kind not in "iu" or ((a < 0) | (a >= self.num_actions)).any():
            raise ValueError(f"action numbers are integers in 0..{self.num_actions - 1}")
        moves = self._move_of_number[a]
        if (moves == _NOT_A_PLAY).any():
            raise ValueError("a give or discard number has no kernel move")
        return moves

    @property
    def seat(self) -> Any:
        """``(N,)`` the seat to act in each row (a copy)."""
        return self._seat.copy()

    def hands(self) -> Any:
        """``(N, players)`` each seat's hand as a card set (:mod:`dennou.games.daifugo.cards`)."""
        return self.batch.hands.copy()


__all__ = ["DaifugoBatchEnv"]
