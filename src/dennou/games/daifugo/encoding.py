"""Daifugo for learning agents: the seat's view as a vector, every play and give numbered.

The numbering is fixed for one rules config and seat count (``docs/rl.md`` prints it for the
reference configs). Its blocks, in order (a block the rules can never use is left out):

- ``pass`` (0).
- ``group``: 13 ranks x ``F`` forms, number ``start + rank * F + form`` (rank 0 = 3 ... 12 = 2).
  The forms are the groups of a hand holding all four cards of the rank and the rules' jokers,
  in :func:`.cards.groups` order: by size, then by jokers, then the natural cards' suits
  (combinations in ♠ ♥ ♦ ♣ order), then, when the suit lock is played (jokers name a suit in a
  group), the suits the jokers stand for. ``F`` is 45 with two jokers, 67 with two jokers and
  the suit lock, 44 under UECda's rules (one joker, the suit lock).
- ``jokers``: a group of jokers alone (one, then two).
- ``sequence`` (sequences on): 4 suits x ``Q`` forms, number ``start + suit * Q + form``, in
  :func:`.cards.suit_sequences` order for a whole suit: by lowest square (-1: a joker just below
  3), then length (to square 13: a joker just above 2), then how many held cards the jokers
  replace (none first), then which. ``Q`` is 2,042 with two jokers, 508 with one, 66 with none.
- ``cards1``, ``cards2``: give (the exchange, 7渡し) or discard (10捨て) these cards, whichever
  is due now. One card by code (3♠ = 0, 3♥ = 1 ... 2♣ = 51, then the joker); two cards: the
  natural pairs ``(a, b)``, ``a < b``, in lexicographic order, then each natural card with a
  joker, then two jokers. Present when the rules ask for gives or discards of that size.
- ``cards3+`` (only when the rules ask for three or more cards at once: 7渡し or 10捨て of three
  or more 7s or 10s, an exchange of three or more cards): a pair numbered as in ``cards2``,
  plus the ``k - 2`` weakest other cards of the hand (lowest codes; in a tribute, which must be
  the strongest cards, the ``k - 2`` strongest).

Left out (:attr:`DaifugoEncoding.abstraction` says which apply to a config): a give or discard of
three or more cards that is not "a chosen pair plus the weakest (strongest) others"; and
cheating in the exchange (any give that is not an honest choice: the engine's ``legal_actions``
lists only those, and a broken one is penalised or replaced by the strongest cards). Every
play (group or sequence) and pass has its number, and every give or discard of one or two cards.

A play's number means the engine's listed play (``Play`` with the wire form of
:meth:`.cards.Combo.strs`). On a field whose top is a sequence, group numbers mean nothing (and
sequence numbers on a group): a group is never legal there, and the free jokers of a one-card
group with two jokers (``8s JK JK``) would read as a sequence.

The observation (:meth:`DaifugoEncoding.observe`) reads the state, but only what the seat's view
shows; :meth:`DaifugoEncoding.encode_view` builds the same bytes from the view itself (the tests
in ``tests/rl`` compare them on thousands of states, and with states whose hidden hands were
redrawn).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

import numpy as np

from dennou.core.actions import Action
from dennou.core.encoding import Encoding, Layout, Mask, NotEncodable, Obs
from dennou.core.errors import IllegalActionError
from dennou.core.game import JSON, Game, Seat
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import fast as F
from dennou.games.daifugo import held as H
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.actions import Discard, Give, Pass, Play
from dennou.games.daifugo.rules import TITLES, DaifugoRules
from dennou.games.daifugo.state import DaifugoState

PHASES = ("deal", "exchange", "play", "stalemate", "over")
TITLE_SLOTS = ("none", *TITLES)
CARD_BITS = 54
"""A card set as a vector: bits 0-51 the natural cards by code, 52 and 53 the jokers held."""

Top = tuple[int, int, int, int, bool]
"""The top play as the vector shows it: kind, lowest rank, size, suits, a spade-3 return."""

_CARDS = (1 << 54) - 1
"""The card bits of a kernel move."""


def _top_kind(state: DaifugoState) -> int:
    """The kind of the top play (-1: an empty field), without unpacking a kernel-held state."""
    if type(state) is H.KernelState:
        st = state._k
        return int(st[S.TKIND]) if st[S.FCOUNT] else -1
    top = state.top
    return -1 if top is None else top.combo.kind


def _mask_of(texts: Iterable[str]) -> int:
    """The card set of wire strings (a joker named ``JK=7h`` counts as a joker)."""
    codes = C.parse_cards(texts)
    assert codes is not None
    return C.card_set(codes)


class DaifugoEncoding(Encoding[DaifugoState, DaifugoRules]):
    """Observation: hand, field, discards, every seat's count, title, points and status.

    Numbering: pass, every group, every sequence, gives and discards by card set (see the
    module's doc).
    """

    def __init__(
        self, game: Game[DaifugoState, DaifugoRules], rules: DaifugoRules, players: int
    ) -> None:
        super().__init__(game, rules, players)
        n = players
        self._build_numbering(rules, n)
        lay = Layout()
        # The six card sets come first and side by side: one lookup writes them all.
        self.f_cards = lay.field(
            "hand", CARD_BITS, "my cards: [code] 3s 3h 3d 3c 4s ... 2c, then jokers held (2)"
        )
        lay.field("top", CARD_BITS, "the top play's cards")
        lay.field("field", CARD_BITS, "every card on the field since the flush")
        lay.field("discards", CARD_BITS, "every card out of play this game (flushed, discarded)")
        lay.field("gave", CARD_BITS, "cards I gave in this game's exchange")
        lay.field("got", CARD_BITS, "cards I received in this game's exchange")
        self.f_me = lay.field("me", n, "one-hot: the observer's seat")
        self.f_phase = lay.field("phase", len(PHASES), f"one-hot: {', '.join(PHASES)}")
        self.f_set = lay.field("set", 2, "game number / games, this is the set's last game")
        self.f_counts = lay.field("counts", n, "per seat: cards held / 27 (0..2)", 0.0, 2.0)
        self.f_titles = lay.field(
            "titles", len(TITLE_SLOTS) * n, f"per seat one-hot: {', '.join(TITLE_SLOTS)}"
        )
        self.f_points = lay.field(
            "points", n, "per seat: points / the most a set can give (-1..1)", -1.0, 1.0
        )
        self.f_status = lay.field(
            "status", 4 * n, "per seat: passed since the flush, out this game, cheated, fell"
        )
        self.f_place = lay.field("place", n, "per seat: finishing place this game / n (0: in)")
        self.f_order = lay.field("order", n, "per seat: position in this game's turn order / n")
        self.f_turn = lay.field("turn", n, "one-hot: the seat to act (to play, or to give)")
        self.f_last = lay.field(
            "last", n, "one-hot: the seat of the top play (empty field: the seat given the lead)"
        )
        self.f_top_kind = lay.field(
            "top_kind",
            37,
            "the top play: group, sequence; lowest rank one-hot (-1..13, 13: jokers alone); "
            "size one-hot (1..15); suits (4); a spade-3 return",
        )
        self.f_flags = lay.field(
            "flags",
            9,
            "revolution, 11-back, order reversed, locked suits (4), plays on the field / 10, "
            "passes in a row / (stalemate_passes or n) (both saturate)",
        )
        self.f_follow = lay.field(
            "follow_up", 3 + n, "7 pass due, 10 discard due, cards / 6, receiver one-hot"
        )
        self.f_exchange = lay.field(
            "exchange",
            3 + n,
            "the exchange step due: a tribute, a gift, cards / 5, receiver one-hot",
        )
        for name, size, doc in self._blocks:
            lay.block(name, size, doc)
        self._finish(lay)
        worst = max(abs(p) for p in (*rules.points, 1))
        final = max(abs(p) for p in rules.final_points)
        self._points_scale = 1.0 / (rules.games * worst + final)
        self.pass_scale = 1.0 / (rules.stalemate_passes or n)
        """The observation's run-of-passes entry is the run times this (1.0 at a 千日手)."""
        self._title_slot = {t: i for i, t in enumerate(TITLE_SLOTS)} | {None: 0}
        self._phase_one = {p: self.f_phase + i for i, p in enumerate(PHASES)}
        self._zeros = np.zeros(self.size, np.float32)

    # --- the numbering ------------------------------------------------------------------
    def _build_numbering(self, rules: DaifugoRules, n: int) -> None:
        """Every play as a kernel move, every card set of a give or discard, in number order."""
        jokers = rules.jokers
        blocks: list[tuple[str, int, str]] = [("pass", 1, "pass")]
        combos: list[C.Combo] = []
        forms = [
            g
            for g in C.groups(
                15 | C.JOKER_BITS[jokers], rules.max_group, suit_jokers=rules.suit_lock
            )
            if not g.jokers_only
        ]
        self.group_forms = len(forms)
        for rank in range(13):
            hand = 15 << (4 * rank) | C.JOKER_BITS[jokers]
            got = C.groups(hand, rules.max_group, suit_jokers=rules.suit_lock)
            combos += [g for g in got if not g.jokers_only]
        blocks.append(
            (
                "group",
                len(combos),
                f"rank * {self.group_forms} + form: the groups of the rank's four cards and "
                f"{jokers} joker(s) in cards.groups order (size, jokers, suits"
                + (", joker suits" if rules.suit_lock else "")
                + ")",
            )
        )
        alone = [
            C.Combo(C.GROUP, C.JOKER_RANK, k, C.JOKER_BITS[k], 0)
            for k in range(1, min(jokers, rules.max_group) + 1)
        ]
        if alone:
            combos += alone
            blocks.append(
                (
                    "jokers",
                    len(alone),
                    "jokers alone: " + ", then ".join(("one", "two")[: len(alone)]),
                )
            )
        self.sequence_forms = 0
        if rules.sequences:
            per_suit = [C.suit_sequences(0x1FFF, suit, jokers) for suit in range(4)]
            self.sequence_forms = len(per_suit[0])
            for seqs in per_suit:
                combos += seqs
            blocks.append(
                (
                    "sequence",
                    4 * self.sequence_forms,
                    f"suit * {self.sequence_forms} + form: cards.suit_sequences order of a "
                    "whole suit (lowest square from -1, length, jokers replacing held cards)",
                )
            )
        self.combos = combos
        self.plays: list[Play] = [F.play_of(c) for c in combos]
        moves = np.array([S.move_of(c) for c in combos], dtype=np.int64)
        self.play_moves = moves
        """The kernel move (:mod:`.sim`) of each play: number ``i + 1`` is ``play_moves[i]``."""
        self._sorted = np.argsort(moves, kind="stable")
        self._sorted_moves = moves[self._sorted]
        self._number_of_move: dict[int, int] = {int(m): 1 + i for i, m in enumerate(moves)}
        assert len(self._number_of_move) == len(combos), "two plays share a move"
        # Gives and discards: the sizes these rules can ask for.
        sizes: set[int] = set()
        if rules.exchange:
            sizes.add(rules.daifugo_exchange)
            if n >= 4:  # 富豪 and 貧民 exist from four players
                sizes.add(rules.fugo_exchange)
        if rules.seven_pass or rules.ten_discard:
            # one card per 7 (10) played, jokers in a group of 7s counting: up to 4 + jokers
            sizes |= set(range(1, min(rules.max_group, 4 + jokers) + 1))
        sizes.discard(0)
        self.sizes = frozenset(sizes)
        naturals = list(range(52))
        singles: list[tuple[int, ...]] = [(c,) for c in naturals]
        if jokers >= 1:
            singles.append((C.JOKER,))
        pairs: list[tuple[int, ...]] = list(combinations(naturals, 2))
        if jokers >= 1:
            pairs += [(c, C.JOKER) for c in naturals]
        if jokers >= 2:
            pairs.append((C.JOKER, C.JOKER))
        self._sets: dict[str, list[tuple[int, ...]]] = {}
        self._set_number: dict[str, dict[int, int]] = {}
        plays_end = 1 + len(combos)
        start = plays_end
        self._card_blocks: list[tuple[str, int, int]] = []
        for name, table, wanted, doc in (
            ("cards1", singles, 1 in sizes, "give or discard card c (code; the joker last)"),
            (
                "cards2",
                pairs,
                2 in sizes,
                "give or discard pair (a, b): natural pairs lexicographic, then card + joker"
                + (", then two jokers" if jokers >= 2 else ""),
            ),
            (
                "cards3+",
                pairs,
                any(k >= 3 for k in sizes),
                "give or discard k >= 3 cards: pair (as cards2) + the k-2 weakest others "
                "(a tribute: strongest)",
            ),
        ):
            if not wanted:
                continue
            self._sets[name] = table
            self._set_number[name] = {C.card_set(t): i for i, t in enumerate(table)}
            self._card_blocks.append((name, start, len(table)))
            blocks.append((name, len(table), doc))
            start += len(table)
        self._plays_end = plays_end
        self._blocks = blocks
        left_out = []
        if any(k >= 3 for k in sizes):
            left_out.append(
                "gives and discards of 3+ cards other than a chosen pair plus the weakest "
                "(tribute: strongest) others"
            )
        if rules.exchange and not rules.auto_tribute and rules.cheating != "reject":
            left_out.append("cheating in the exchange (a give that is not an honest choice)")
        self.abstraction = "; ".join(left_out)

    def number_of_play(self, move: int) -> int:
        """The number of a play given as a kernel move (:mod:`.sim`).

        Raises:
            NotEncodable: Not a play these rules allow.
        """
        number = self._number_of_move.get(move)
        if number is None:
            raise NotEncodable(f"move {move:#x} is not a play of these rules")
        return number

    def _numbers_of_moves(self, moves: Any) -> Any:
        """The numbers of an array of kernel moves (every one a play of these rules).

        Raises:
            AssertionError: A move the numbering lacks (a mask must never be silently wrong).
        """
        at = np.searchsorted(self._sorted_moves, moves)
        found = self._sorted_moves[np.minimum(at, len(self._sorted_moves) - 1)]
        if not np.array_equal(found, moves):
            raise AssertionError(f"plays without a number: {moves[found != moves]}")
        return self._sorted[at] + 1

    # --- actions ------------------------------------------------------------------------
    def _due(
        self, state: DaifugoState, seat: Seat
    ) -> tuple[type[Give] | type[Discard], int, bool] | None:
        """The give or discard ``seat`` owes now: (kind, cards, a tribute), or ``None``."""
        if state.phase == "play":
            due = state.follow_up
            if due is None or seat != state.turn:
                return None
            return (Give if due.kind == "give" else Discard), due.count, False
        if state.phase == "exchange":
            step = state.exchange_step()
            if step is None or step.giver != seat:
                return None
            return Give, step.count, step.kind == "tribute"
        return None

    def _card_block(self, k: int) -> tuple[str, int, int] | None:
        name = "cards1" if k == 1 else "cards2" if k == 2 else "cards3+"
        for block in self._card_blocks:
            if block[0] == name:
                return block
        return None

    @staticmethod
    def _fill(hand: tuple[int, ...], pair: tuple[int, ...], k: int, tribute: bool) -> list[int]:
        """A pair plus the ``k - 2`` weakest (a tribute: strongest) other cards of ``hand``."""
        rest = list(C.without(hand, pair))
        extra = rest[len(rest) - (k - 2) :] if tribute else rest[: k - 2]
        return sorted((*pair, *extra))

    def action(self, state: DaifugoState, seat: Seat, index: int) -> Action:
        """The action numbered ``index`` for ``seat`` now (a play may be illegal now).

        Raises:
            NotEncodable: Out of range; a group on a sequence top (or the reverse); a give or
                discard when none of that size is due, of cards the seat does not hold, or a
                dishonest tribute (cheating has no number).
        """
        if index == 0:
            return H.PASS
        if 0 < index < self._plays_end:
            top = _top_kind(state)
            if top >= 0 and top != self.combos[index - 1].kind:
                raise NotEncodable("a group on a sequence, or a sequence on a group: impossible")
            return self.plays[index - 1]
        for name, start, size in self._card_blocks:
            if start <= index < start + size:
                return self._give(state, seat, name, self._sets[name][index - start])
        raise NotEncodable(f"action number {index} is outside 0..{self.num_actions - 1}")

    def _give(self, state: DaifugoState, seat: Seat, name: str, cards: tuple[int, ...]) -> Action:
        due = self._due(state, seat)
        if due is None:
            raise NotEncodable("no give or discard is due")
        kind, k, tribute = due
        block = self._card_block(k)
        if block is None or block[0] != name:
            raise NotEncodable(f"{k} card(s) are due, not a {name} number")
        hand_mask = state.hands[seat]
        if not C.holds(hand_mask, C.card_set(cards)):
            raise NotEncodable(f"{C.cards_str(cards)} are not all in the hand")
        hand = state.hand(seat)
        chosen = list(cards) if k <= 2 else self._fill(hand, cards, k, tribute)
        if tribute and not C.is_honest_tribute(hand, chosen):
            raise NotEncodable("a dishonest tribute is cheating: it has no number")
        return kind(tuple(C.cards_str(chosen)))

    def index(self, state: DaifugoState, seat: Seat, action: Action) -> int:
        """The number of ``action`` for ``seat`` now.

        Raises:
            NotEncodable: Not a play, pass, give or discard; or (3+ cards) not a pair plus the
                weakest (strongest) others.
        """
        kind = type(action)
        if kind is Pass:
            return 0
        if kind is Play:
            return self.number_of_play(S.move_of(self._combo_of(state, seat, action)))  # type: ignore[arg-type]
        if kind is Give or kind is Discard:
            cards = C.parse_cards(action.cards)  # type: ignore[attr-defined]
            if cards is None or not cards:
                raise NotEncodable(f"{action}: not cards")
            k = len(cards)
            block = self._card_block(k)
            if block is None:
                raise NotEncodable(f"these rules never ask for {k} card(s) at once")
            name, start, _ = block
            numbers = self._set_number[name]
            if k <= 2:
                number = numbers.get(C.card_set(cards))
                if number is None:
                    raise NotEncodable(f"{action}: more jokers than the deck holds")
                return start + number
            due = self._due(state, seat)
            tribute = due is not None and due[2]
            hand = state.hand(seat)
            if C.contains(hand, cards):
                for pair in sorted(
                    set(combinations(cards, 2)), key=lambda p: numbers[C.card_set(p)]
                ):
                    if self._fill(hand, pair, k, tribute) == list(cards):
                        return start + numbers[C.card_set(pair)]
            raise NotEncodable(f"{action}: not a pair plus the weakest others (the abstraction)")
        raise NotEncodable(f"{action}: not a seat's action")

    def _combo_of(self, state: DaifugoState, seat: Seat, action: Play) -> C.Combo:
        """The combination ``action`` plays now (its first reading when it is not legal)."""
        try:
            return self.game.reading(state, seat, action)  # type: ignore[attr-defined,no-any-return]
        except IllegalActionError:
            pass
        rules = self.rules
        got = F.readings(action.cards, rules.max_group, rules.suit_lock, rules.sequences)
        if not got:
            raise NotEncodable(f"{action}: not a play of these rules")
        return got[0]

    def legal_indices(self, state: DaifugoState, seat: Seat) -> list[int]:
        """The legal numbers of ``seat``, ascending (every listed legal action, once)."""
        numbers = self._legal(state, seat)
        return numbers if isinstance(numbers, list) else numbers.tolist()

    def action_mask(self, state: DaifugoState, seat: Seat) -> Mask:
        """1 for every legal number (written from an array: the hot path of every step)."""
        mask = np.zeros(self.num_actions, np.int8)
        mask[self._legal(state, seat)] = 1
        return mask

    def _legal(self, state: DaifugoState, seat: Seat) -> Any:
        if state.phase == "play" and seat == state.turn and state.follow_up is None:
            if type(state) is H.KernelState:
                numbers = np.sort(self._numbers_of_moves(state.moves()))
                passes = state._r & 1
            else:
                combos = self.game.legal_combos(state, seat)  # type: ignore[attr-defined]
                moves = np.array([S.move_of(c) for c in combos], dtype=np.int64)
                numbers = np.sort(self._numbers_of_moves(moves))
                passes = self.game.may_pass(state)  # type: ignore[attr-defined]
            if passes:
                return np.concatenate(([0], numbers))
            return numbers
        due = self._due(state, seat)
        if due is None:
            return []
        _, k, tribute = due
        block = self._card_block(k)
        if block is None:  # pragma: no cover - the sizes cover every rule that asks
            raise AssertionError(f"{k} card(s) due, but no block numbers them")
        name, start, _ = block
        hand = state.hand(seat)
        numbers_of = self._set_number[name]
        if k <= 2:
            if tribute:
                chosen: Iterable[Sequence[int]] = C.honest_tributes(hand, k)
            else:
                chosen = C.all_subsets(hand, k)
            return sorted(start + numbers_of[C.card_set(c)] for c in chosen)
        found: dict[tuple[int, ...], int] = {}
        for pair in C.all_subsets(hand, 2):
            cards = tuple(self._fill(hand, pair, k, tribute))
            if tribute and not C.is_honest_tribute(hand, cards):
                continue
            number = start + numbers_of[C.card_set(pair)]
            if number < found.get(cards, self.num_actions):
                found[cards] = number
        return sorted(found.values())

    # --- rewards ------------------------------------------------------------------------
    def running_scores(self, state: DaifugoState) -> Sequence[float]:
        """Each seat's points so far: paid as each game of the set ends."""
        return state.points

    # --- observations -------------------------------------------------------------------
    def observe(self, state: DaifugoState, seat: Seat) -> Obs:
        """The observation of ``seat``, read from the state (only what its view shows)."""
        if type(state) is H.KernelState:
            return self._observe_kernel(state, seat)
        phase = state.phase
        top: Top | None = None
        top_cards = field_cards = 0
        field = state.field
        for p in field:
            field_cards = C.add(field_cards, p.combo.cards)
        if field:
            played = field[-1]
            c = played.combo
            top_cards = c.cards
            top = (c.kind, c.rank, c.size, c.suits, played.returned)
        acting = -1
        if phase == "play":
            acting = state.turn
        elif phase == "exchange":
            step = state.exchange_step()
            acting = step.giver if step is not None else -1
        due = state.follow_up
        follow = None if due is None else (due.kind, due.count, due.to)
        step_now, gave, got = self._exchange(state, seat)
        return self._encode(
            seat,
            phase,
            state.game_no,
            [h.bit_count() for h in state.hands],
            state.titles,
            state.points,
            state.passed,
            state.finished,
            state.cheaters,
            state.fallen,
            acting,
            state.order,
            state.last,
            top,
            len(field),
            (state.revolution, state.back, state.lock, state.pass_run),
            follow,
            step_now,
            (state.hands[seat], top_cards, field_cards, state.discards, gave, got),
        )

    @staticmethod
    def _exchange(state: DaifugoState, seat: Seat) -> tuple[tuple[str, int, int] | None, int, int]:
        """The exchange step due, and the cards ``seat`` gave and got in this game's exchange."""
        step_now = None
        gave = got = 0
        for st in state.steps:
            if step_now is None and not st.done:
                step_now = (st.kind, st.count, st.receiver)
            if st.done and not st.cheated and st.cards:  # the cards the view shows
                if st.giver == seat:
                    gave = C.add(gave, C.card_set(st.cards))
                elif st.receiver == seat:
                    got = C.add(got, C.card_set(st.cards))
        return step_now, gave, got

    def _observe_kernel(self, state: H.KernelState, seat: Seat) -> Obs:
        """:meth:`observe` of a state the kernel holds, from its vector (nothing unpacked)."""
        n = self.players
        st = state._k.tolist()
        head = S.HEAD
        hands = st[head + 3 * n : head + 4 * n]
        plays = st[S.FCOUNT]
        base = head + 4 * n
        field_cards = jokers = 0
        for move in st[base : base + plays]:
            field_cards |= move & C.NATURALS
            jokers += (move >> 52 & 3).bit_count()
        field_cards |= C.JOKER_BITS[jokers]
        top: Top | None = None
        top_cards = 0
        if plays:
            top_cards = st[base + plays - 1] & _CARDS
            top = (st[S.TKIND], st[S.TLOW], st[S.TSIZE], st[S.TSUITS], bool(st[S.RETURNED]))
        passed_bits = st[S.PASSED]
        step_now, gave, got = self._exchange(state, seat)
        return self._encode(
            seat,
            "play",
            state.game_no,
            [h.bit_count() for h in hands],
            state.titles,
            state.points,
            [x for x in range(n) if passed_bits >> x & 1],
            st[head + 2 * n : head + 2 * n + st[S.NFIN]],
            state.cheaters,
            st[S.FALLEN],
            state.turn,
            state.order,
            st[S.LAST],
            top,
            plays,
            (bool(st[S.REVOLUTION]), bool(st[S.BACK]), st[S.LOCK], st[S.PASS_RUN]),
            None,
            step_now,
            (hands[seat], top_cards, field_cards, st[S.DISCARDS], gave, got),
        )

    def encode_view(self, view: JSON) -> Obs:
        """The observation of the view's seat (the same bytes as :meth:`observe`)."""
        seat = view["seat"]
        rules = self.rules
        top: Top | None = None
        top_cards = field_cards = 0
        for p in view["field"]:
            field_cards = C.add(field_cards, _mask_of(p["cards"]))
        layout = view["layout"]
        if layout is not None:
            kind = C.SEQUENCE if layout["kind"] == "sequence" else C.GROUP
            readings = C.combo_from(
                layout["cards"], suit_jokers=rules.suit_lock, sequences=rules.sequences
            )
            c = next(r for r in readings or () if r.kind == kind)
            top_cards = c.cards
            top = (c.kind, c.rank, c.size, c.suits, layout["returned"])
        acting = next((s for s in view["to_act"] if s >= 0), -1)
        due = view["follow_up"]
        follow = None if due is None else (due["kind"], due["count"], due["to"])
        step_now = None
        gave = got = 0
        for st in view["exchange"]:
            if step_now is None and not st["done"]:
                step_now = (st["kind"], st["count"], st["receiver"])
            if st["cards"]:
                if st["giver"] == seat:
                    gave = C.add(gave, _mask_of(st["cards"]))
                elif st["receiver"] == seat:
                    got = C.add(got, _mask_of(st["cards"]))
        hand = _mask_of(view["hand"]) if seat is not None else 0
        return self._encode(
            seat,
            view["phase"],
            view["game_no"],
            view["counts"],
            view["titles"],
            view["points"],
            view["passed"],
            view["finished"],
            view["cheaters"],
            -1 if view["fallen"] is None else view["fallen"],
            acting,
            view["order"],
            -1 if view["last"] is None else view["last"],
            top,
            len(view["field"]),
            (view["revolution"], view["back"], C.suit_set(view["lock"]), view["passes"]),
            follow,
            step_now,
            (hand, top_cards, field_cards, _mask_of(view["discards"]), gave, got),
        )

    def _encode(
        self,
        seat: Seat | None,
        phase: str,
        game_no: int,
        counts: Sequence[int],
        titles: Sequence[str | None],
        points: Sequence[int],
        passed: Iterable[int],
        finished: Sequence[int],
        cheaters: Iterable[int],
        fallen: int,
        acting: int,
        order: Sequence[int],
        last: int,
        top: Top | None,
        plays: int,
        flags: tuple[bool, bool, int, int],
        follow: tuple[str, int, int] | None,
        step: tuple[str, int, int] | None,
        cards: tuple[int, int, int, int, int, int],
    ) -> Obs:
        """The vector from the parts of a view (both :meth:`observe` and :meth:`encode_view`).

        The entries are gathered in two lists and written with two assignments: a NumPy write
        per entry would cost more than the rest of a step. Every value is within its field's
        bounds by construction (the two saturating ones take a ``min``), so no clip is needed.
        """
        out = self._zeros.copy()
        n = self.players
        games = self.rules.games
        raw = b"".join([m.to_bytes(7, "little") for m in cards])
        bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little").reshape(6, 56)
        out[self.f_cards : self.f_cards + 6 * CARD_BITS] = bits[:, :CARD_BITS].ravel()
        ones = [self._phase_one[phase]]
        where = [self.f_set, self.f_set + 1]
        values = [min(game_no, games) / games, float(game_no == games)]
        if seat is not None:
            ones.append(self.f_me + seat)
        f_counts, f_titles, f_points = self.f_counts, self.f_titles, self.f_points
        slot = self._title_slot
        scale = self._points_scale
        for s in range(n):
            where += (f_counts + s, f_points + s)
            values += (counts[s] / 27, points[s] * scale)
            ones.append(f_titles + 6 * s + slot[titles[s]])
        f_status = self.f_status
        ones += [f_status + 4 * s for s in passed]
        for place, s in enumerate(finished):
            ones.append(f_status + 4 * s + 1)
            where.append(self.f_place + s)
            values.append((place + 1) / n)
        ones += [f_status + 4 * s + 2 for s in cheaters]
        if fallen >= 0:
            ones.append(f_status + 4 * fallen + 3)
        f_order = self.f_order
        for position, s in enumerate(order):
            where.append(f_order + s)
            values.append(position / n)
        if acting >= 0:
            ones.append(self.f_turn + acting)
        if last >= 0:
            ones.append(self.f_last + last)
        if top is not None:
            kind, rank, size, suits, returned = top
            base = self.f_top_kind
            ones += (base + kind, base + 3 + rank, base + 16 + size)
            ones += [base + 32 + s for s in range(4) if suits >> s & 1]
            if returned:
                ones.append(base + 36)
        revolution, back, lock, pass_run = flags
        base = self.f_flags
        if revolution:
            ones.append(base)
        if back:
            ones.append(base + 1)
        if revolution != back:
            ones.append(base + 2)
        ones += [base + 3 + s for s in range(4) if lock >> s & 1]
        where += (base + 7, base + 8)
        values += (min(1.0, plays / 10), min(1.0, pass_run * self.pass_scale))
        if follow is not None:
            kind_name, count, to = follow
            base = self.f_follow
            ones += (base + (0 if kind_name == "give" else 1), base + 3 + to)
            where.append(base + 2)
            values.append(count / 6)
        if step is not None:
            kind_name, count, receiver = step
            base = self.f_exchange
            ones += (base + (0 if kind_name == "tribute" else 1), base + 3 + receiver)
            where.append(base + 2)
            values.append(count / 5)
        out[ones] = 1.0
        out[where] = values
        return out
