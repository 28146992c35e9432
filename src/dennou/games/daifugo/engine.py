"""Daifugo (大富豪, "Millionaire"): the climbing card game of the 2017 AI contest JK大富豪電脳戦.

Rules: ``../shared/rules/daifugo.md`` (seed ``002``). 54 cards (two wild jokers) are dealt to 2-8
players. The leader plays 1-6 cards of one rank; each next player plays as many cards of a
stronger rank or passes (and stays out until the field flushes). When everyone else has passed the
field flushes and the last player leads. 4+ cards make a revolution (革命: the order reverses);
8s flush the field at once (八切り); the 3 of spades beats a single joker (スペ3返し). The first
out is 大富豪, the last 大貧民; titles earn points, and the last game of a set of 10 earns more.
From game 2 the titles exchange cards before play; a broken exchange submission is cheating: the
cheater's hand is shown and discarded and they are 大貧民 (all cheat: the game is void and dealt
again). One state (and one record) is a whole set.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dennou.core.actions import Action, LazyActions
from dennou.core.errors import GameOverError, IllegalActionError, NotYourTurnError
from dennou.core.game import CHANCE, JSON, Event, Game, GameSpec, Outcome, Seat
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import fast as F
from dennou.games.daifugo.actions import CODEC, Deal, Give, Pass, Play
from dennou.games.daifugo.rules import TITLE_KANJI, DaifugoRules, titles_for
from dennou.games.daifugo.state import DaifugoState, ExchangeStep, GameResult, Played

RULES_PAGE = "../shared/rules/daifugo.md"

State = DaifugoState


def _put(seq: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*seq[:i], value, *seq[i + 1 :])


play_of = F.play_of
_INFO = F.PLAY_INFO
_HANDS = F.HAND_BITS

_PASS = Pass()
_TO_ACT: dict[Seat, frozenset[Seat]] = {i: frozenset((i,)) for i in range(-1, 8)}
_CHANCE_TO_ACT: frozenset[Seat] = frozenset((CHANCE,))
_NOBODY: frozenset[Seat] = frozenset()


class _PlayActions(list[Action]):
    """The legal plays of one seat, listed; membership is the engine's own legality check.

    A plain list for indexing and length (the hot path of every random or search player), with
    ``in`` answering exactly "``apply`` accepts it" (other card order or spelling included).
    """

    __slots__ = ("_seat", "_state")
    _state: DaifugoState
    _seat: Seat

    def __contains__(self, action: object) -> bool:
        state = self._state
        if type(action) is Pass:
            return bool(state.plays)
        if type(action) is Play:
            group = C.parse_cards(action.cards)
            return group is not None and not _play_error(state, self._seat, group)
        return False


_new_tuple = tuple.__new__
_SORTED_DECK = sorted(C.DECK)
_M5, _M3, _ADD = F.M5, F.M3, F.ADD
_BEATING = tuple(tuple(F.beating_ranks(r, rev) for r in range(13)) for rev in (False, True))
"""``_BEATING[revolution][rank]``: :func:`fast.beating_ranks`, looked up on every move."""


def _beats(
    group: tuple[int, ...], rank: int, top: Played, revolution: bool, spade3_return: bool
) -> bool:
    # cards.beats (rules: Plays) with positional arguments: this runs on every play.
    if len(group) != len(top.cards) or top.returned:
        return False
    if top.rank == C.JOKER_RANK:
        return spade3_return and len(group) == 1 and group[0] == C.SPADE3
    if rank == C.JOKER_RANK:
        return True
    return rank < top.rank if revolution else rank > top.rank


def _play_error(state: DaifugoState, seat: Seat, group: tuple[int, ...]) -> str:
    """Why ``seat`` may not play ``group`` now (``""`` if it may): the rule of Plays it breaks."""
    rules = state.rules
    rank = C.group_rank(group, rules.max_group)
    if rank is None:
        return "group"
    if not C.contains(state.hands[seat], group):
        return "hand"
    plays = state.plays
    if plays:
        top = plays[-1]
        if not C.beats(
            group,
            rank,
            top.cards,
            top.rank,
            revolution=state.revolution,
            returned=top.returned,
            spade3_return=rules.spade3_return,
        ):
            return "follow"
    return ""


def _merge(a: tuple[int, ...], b: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted((*a, *b)))


class Daifugo(Game[DaifugoState, DaifugoRules]):
    """The Daifugo engine (a whole set of games per state and record)."""

    spec = GameSpec(
        name="daifugo",
        title="Daifugo (大富豪)",
        version=1,
        min_players=2,
        max_players=8,
        chance=True,
        hidden_information=True,
    )
    rules_type = DaifugoRules
    codec = CODEC

    # --- setup ------------------------------------------------------------------------------
    def default_players(self, rules: DaifugoRules) -> int:
        """Five players, as the AI contest played."""
        return 5

    def new(self, rules: DaifugoRules, players: Sequence[str]) -> DaifugoState:
        """Start a set: game 1's turn order is the players' ids in lexicographic order."""
        self.check_players(players)
        n = len(players)
        order = tuple(sorted(range(n), key=lambda s: players[s]))
        return DaifugoState(
            rules=rules,
            players=tuple(players),
            order=order,
            hands=((),) * n,
            titles=(None,) * n,
            points=(0,) * n,
        )

    def to_act(self, state: DaifugoState) -> frozenset[Seat]:
        """Deal: chance; exchange: the giver of the current step; play: the seat to play."""
        phase = state.phase
        if phase == "play":
            turn = state.turn
            return _TO_ACT.get(turn) or frozenset((turn,))
        if phase == "deal":
            return _CHANCE_TO_ACT
        if phase == "exchange":
            step = state.exchange_step()
            assert step is not None
            return _TO_ACT.get(step.giver) or frozenset((step.giver,))
        return _NOBODY

    def sample_chance(self, state: DaifugoState, rng: random.Random) -> Action:
        """A shuffled deck (the whole deal as one chance action)."""
        if state.phase != "deal":
            raise IllegalActionError("no deal is due", phase=state.phase)
        deck = list(C.DECK)
        rng.shuffle(deck)
        return Deal(tuple(C.cards_str(deck)))

    # --- legal actions ----------------------------------------------------------------------
    def legal_actions(self, state: DaifugoState, seat: Seat) -> Sequence[Action]:
        """The actions ``seat`` may take now.

        Deals are too many to list (any ordering of the 54 cards is accepted). In the exchange
        the sequence lists the honest choices, but with ``cheating="penalty"`` it *contains*
        every ``give`` (a broken one is applied as cheating). Plays are listed in full; a play
        given in other card order or spelling (``Th`` for ``10h``) is contained too.
        """
        phase = state.phase
        if phase == "play":
            if seat != state.turn:
                return []
            out = _PlayActions()
            out._state = state
            out._seat = seat
            hand = state.hands[seat]
            bits = _HANDS.get(hand) or F.hand_bits(hand)
            rules = state.rules
            field = state.plays
            if field:
                top = field[-1]
                F.add_follow(
                    out,
                    1,
                    bits,
                    len(top.cards),
                    top.rank,
                    state.revolution,
                    top.returned,
                    rules.spade3_return,
                    rules.max_group,
                )
                out.append(_PASS)
            else:
                F.add_lead(out, 1, bits, rules.max_group)
            return out
        if seat not in self.to_act(state) or seat == CHANCE:
            return []
        return self._exchange_actions(state, seat)

    def legal_groups(self, state: DaifugoState, seat: Seat) -> list[tuple[int, ...]]:
        """The groups ``seat`` may play now (sorted codes); empty unless it is their turn."""
        if state.phase != "play" or seat != state.turn:
            return []
        hand = state.hands[seat]
        rules = state.rules
        if not state.plays:
            return F.lead_groups(hand, rules.max_group)
        top = state.plays[-1]
        return F.follow_groups(
            hand,
            len(top.cards),
            top.rank,
            state.revolution,
            top.returned,
            rules.spade3_return,
            rules.max_group,
        )

    def _exchange_actions(self, state: DaifugoState, seat: Seat) -> Sequence[Action]:
        step = state.exchange_step()
        assert step is not None
        hand = state.hands[seat]
        if step.kind == "tribute":
            honest = C.honest_tributes(hand, step.count)
        else:
            honest = C.all_subsets(hand, step.count)
        acts = [Give(tuple(C.cards_str(g))) for g in honest]
        keys = set(honest)
        penalty = state.rules.cheating == "penalty"

        def contains(action: object) -> bool:
            if type(action) is not Give:
                return False
            return penalty or C.parse_cards(action.cards) in keys

        return LazyActions(
            len(acts),
            acts.__getitem__,
            contains,
            {"kind": step.kind, "count": step.count, "to": step.receiver},
        )

    # --- transitions ------------------------------------------------------------------------
    def _check_turn(self, state: DaifugoState, seat: Seat) -> None:
        if state.phase == "over":
            raise GameOverError("the set is over", seat=seat)
        due = self.to_act(state)
        if seat not in due:
            raise NotYourTurnError(
                f"seat {seat} may not act now ({state.phase}; to act: {sorted(due)})",
                seat=seat,
                phase=state.phase,
            )

    def apply(
        self, state: DaifugoState, seat: Seat, action: Action
    ) -> tuple[DaifugoState, list[Event]]:
        """Apply an action after checking it against the rules (never mutates ``state``)."""
        kind = type(action)
        phase = state.phase
        ev: list[Event] = []
        if phase == "play" and seat == state.turn:
            # The hot path: the seat to play (what _check_turn would accept) plays or passes.
            if kind is Play:
                new = self._play(state, seat, action, ev)  # type: ignore[arg-type]
                new.log_chain = (new.log_chain, tuple(ev))
                return new, ev
            if kind is Pass:
                new = self._pass(state, seat, ev)
                new.log_chain = (new.log_chain, tuple(ev))
                return new, ev
        self._check_turn(state, seat)
        if phase == "deal" and kind is Deal:
            new = self._deal(state, action, ev)  # type: ignore[arg-type]
        elif phase == "exchange" and kind is Give:
            new = self._give(state, seat, action.cards, ev)  # type: ignore[attr-defined]
        elif phase == "play" and kind is Play:
            new = self._play(state, seat, action, ev)  # type: ignore[arg-type]
        elif phase == "play" and kind is Pass:
            new = self._pass(state, seat, ev)
        else:
            expected = {"deal": "deal", "exchange": "give", "play": "play or pass"}[phase]
            raise IllegalActionError(
                f"{kind.__name__} is not allowed in the {phase} phase; expected {expected}",
                seat=seat,
                phase=phase,
            )
        new.log_chain = (new.log_chain, tuple(ev))
        return new, ev

    # deal
    def _deal(self, state: State, action: Deal, ev: list[Event]) -> State:
        fast = C.CARD_CODES.get
        deck = [fast(c) if type(c) is str else None for c in action.deck]
        if None in deck:
            deck = [C.parse_card(c) for c in action.deck]  # other spellings (``Th``, ``joker``)
        if None in deck or sorted(deck) != _SORTED_DECK:  # type: ignore[type-var]
            raise IllegalActionError(
                "a deal is the 54 cards (52 + 2 JK), each once, in dealing order — rules: Cards",
                rule="deal",
            )
        s = state.copy()
        n = len(s.players)
        hands: list[list[int]] = [[] for _ in range(n)]
        order = s.order
        for i, c in enumerate(deck):
            hands[order[i % n]].append(c)  # type: ignore[arg-type]
        s.hands = tuple(tuple(sorted(h)) for h in hands)
        s.deals += 1
        s.log_chain = ()
        s.plays, s.discards, s.passed, s.finished, s.cheaters = (), (), frozenset(), (), ()
        s.revolution = False
        s.turn = -1
        counts = [len(h) for h in s.hands]
        ev.append(
            Event(
                "deal",
                f"game {s.game_no}: cards dealt; {s.players[s.order[0]]} leads",
                {"game": s.game_no, "order": list(s.order), "counts": counts},
            )
        )
        for seat in range(n):
            ev.append(
                Event(
                    "hand",
                    "your hand: " + C.cards_symbols(s.hands[seat]),
                    {"seat": seat, "cards": C.cards_str(s.hands[seat])},
                    frozenset((seat,)),
                )
            )
        s.steps = self._exchange_plan(s) if s.rules.exchange and s.game_no > 1 else ()
        if s.steps:
            s.phase = "exchange"
            return s
        return self._start_play(s, ev)

    def _exchange_plan(self, s: State) -> tuple[ExchangeStep, ...]:
        titles = s.titles
        rules = s.rules

        def first(title: str) -> int | None:
            seats = [i for i, t in enumerate(titles) if t == title]
            return min(seats, key=lambda i: s.players[i]) if seats else None

        steps: list[ExchangeStep] = []
        for high, low, count in (
            ("daifugo", "daihinmin", rules.daifugo_exchange),
            ("fugo", "hinmin", rules.fugo_exchange),
        ):
            a, b = first(high), first(low)
            if a is None or b is None or count == 0:
                continue
            steps.append(ExchangeStep(b, a, count, "tribute"))
            steps.append(ExchangeStep(a, b, count, "gift"))
        return tuple(steps)

    # exchange
    def _give(self, state: State, seat: Seat, texts: tuple[str, ...], ev: list[Event]) -> State:
        step = state.exchange_step()
        assert step is not None
        hand = state.hands[seat]
        given = C.parse_cards(texts)
        why = ""
        if given is None:
            why = f"{list(texts)} are not all cards"
        elif len(given) != step.count:
            why = f"a {step.kind} is {step.count} card(s), got {len(given)}"
        elif not C.contains(hand, given):
            why = f"{C.cards_str(given)} are not all in the hand"
        elif step.kind == "tribute" and not C.is_honest_tribute(hand, given):
            why = f"a tribute is the {step.count} strongest card(s), not {C.cards_str(given)}"
        if why:
            if state.rules.cheating == "reject":
                raise IllegalActionError(
                    f"illegal exchange: {why} — rules: Exchange", seat=seat, rule="exchange"
                )
            return self._cheat(state, seat, step, why, ev)
        assert given is not None
        return self._transfer(state, step, given, ev, timeout=False)

    def _transfer(
        self,
        state: State,
        step: ExchangeStep,
        given: tuple[int, ...],
        ev: list[Event],
        *,
        timeout: bool,
    ) -> State:
        s = state.copy()
        giver, receiver = step.giver, step.receiver
        names = s.players
        hands = list(s.hands)
        hands[giver] = C.remove(hands[giver], given)
        lost = receiver in s.cheaters
        if lost:
            s.discards = _merge(s.discards, given)
        else:
            hands[receiver] = _merge(hands[receiver], given)
        s.hands = tuple(hands)
        i = s.steps.index(step)
        s.steps = _put(
            s.steps, i, ExchangeStep(giver, receiver, step.count, step.kind, given, False, True)
        )
        host = " (the host chose, timeout)" if timeout else ""
        text = f"{names[giver]} gives {step.count} card(s) to {names[receiver]}{host}"
        data: JSON = {
            "giver": giver,
            "receiver": receiver,
            "count": step.count,
            "kind": step.kind,
            "timeout": timeout,
        }
        if lost:
            # The receiver cheated earlier: the cards follow its hand to the discards, shown.
            ev.append(
                Event(
                    "exchange",
                    text + f"; discarded: {C.cards_symbols(given)}",
                    {**data, "cards": C.cards_str(given), "discarded": True},
                )
            )
        else:
            ev.append(Event("exchange", text, data))
            ev.append(
                Event(
                    "exchange_cards",
                    text + ": " + C.cards_symbols(given),
                    {**data, "cards": C.cards_str(given)},
                    frozenset((giver, receiver)),
                )
            )
        return self._after_step(s, ev)

    def _cheat(
        self, state: State, seat: Seat, step: ExchangeStep, why: str, ev: list[Event]
    ) -> State:
        s = state.copy()
        hand = s.hands[seat]
        s.discards = _merge(s.discards, hand)
        s.hands = _put(s.hands, seat, ())
        s.cheaters = (*s.cheaters, seat)
        i = s.steps.index(step)
        s.steps = _put(
            s.steps,
            i,
            ExchangeStep(step.giver, step.receiver, step.count, step.kind, (), True, True),
        )
        ev.append(
            Event(
                "cheat",
                f"{s.players[seat]} cheated in the exchange ({why}): hand shown and discarded: "
                f"{C.cards_symbols(hand)}; out as 大貧民",
                {"seat": seat, "reason": why, "hand": C.cards_str(hand)},
            )
        )
        return self._after_step(s, ev)

    def _after_step(self, s: State, ev: list[Event]) -> State:
        if s.exchange_step() is not None:
            return s
        honest = [i for i in range(len(s.players)) if i not in s.cheaters]
        if not honest:
            ev.append(
                Event(
                    "void",
                    f"everybody cheated: game {s.game_no} is void and the cards are dealt again",
                    {"game": s.game_no},
                )
            )
            s.void_games += 1
            s.phase = "deal"
            s.hands = ((),) * len(s.players)
            s.discards = ()
            return s
        if len(honest) == 1:
            return self._end_game(s, ev)
        return self._start_play(s, ev)

    # play
    def _start_play(self, s: State, ev: list[Event]) -> State:
        s.phase = "play"
        leader = next(seat for seat in s.order if s.active(seat))
        s.turn = leader
        ev.append(Event("lead", f"{s.players[leader]} leads", {"seat": leader}))
        return s

    def _play(self, state: State, seat: Seat, action: Play, ev: list[Event]) -> State:
        rules = state.rules
        info = _INFO.get(id(action))
        if info is not None and info[0] is action:
            # One of the engine's own shared plays (every listed legal play): already parsed.
            _, group, rank, gmask, gjokers, symbols = info
            if len(group) > rules.max_group:
                rank = None
        else:
            parsed = C.parse_cards(action.cards)
            if parsed is None:
                raise IllegalActionError(
                    f"{list(action.cards)} are not all cards (e.g. 3s 10h Qd JK)", seat=seat
                )
            group = parsed
            rank = C.group_rank(group, rules.max_group)
            gmask, gjokers = F.hand_bits(group)
            symbols = ""  # not one of the shared plays: formatted below
        if rank is None:
            raise IllegalActionError(
                f"a play is 1-{rules.max_group} cards of one rank (jokers wild), not "
                f"{C.cards_str(group)} — rules: Plays",
                seat=seat,
                rule="group",
            )
        hand = state.hands[seat]
        hmask, hjokers = _HANDS.get(hand) or F.hand_bits(hand)
        # A natural card twice in the group is one bit: the count check catches it.
        if gmask & ~hmask or gjokers > hjokers or gmask.bit_count() + gjokers != len(group):
            raise IllegalActionError(
                f"{C.cards_str(group)} are not all in your hand", seat=seat, rule="hand"
            )
        top = state.plays[-1] if state.plays else None
        if top is not None and not _beats(group, rank, top, state.revolution, rules.spade3_return):
            raise IllegalActionError(
                f"{C.cards_str(group)} does not beat the field {C.cards_str(top.cards)}: a play "
                f"needs {len(top.cards)} card(s), stronger"
                + (" under revolution" if state.revolution else "")
                + " — rules: Plays",
                seat=seat,
                rule="follow",
            )
        s = state.copy()
        returned = top is not None and top.rank == C.JOKER_RANK and len(top.cards) == 1
        if len(group) == 1:  # most plays: two slices instead of a list round trip
            i = hand.index(group[0])
            left = hand[:i] + hand[i + 1 :]
        else:
            left = C.remove(hand, group)
        if len(_HANDS) < F.CACHE_MAX:
            _HANDS[left] = (hmask & ~gmask, hjokers - gjokers)
        hands = list(s.hands)
        hands[seat] = left
        s.hands = tuple(hands)
        s.plays = (*s.plays, _new_tuple(Played, (seat, group, rank, returned)))
        name = s.players[seat]
        revolts = (
            rules.revolution
            and len(group) >= rules.revolution_size
            and rank != C.JOKER_RANK
            and not returned
        )
        cut = rules.eight_cut and rank == C.EIGHT
        text = f"{name} plays {symbols or C.cards_symbols(group)}"
        if revolts or cut or returned:
            tags = []
            if revolts:
                s.revolution = not s.revolution
                tags.append("revolution" if s.revolution else "counter-revolution")
            if cut:
                tags.append("8-cut")
            if returned:
                tags.append("spade-3 return")
            text += f" ({', '.join(tags)})"
        ev.append(
            Event(
                "play",
                text,
                {
                    "seat": seat,
                    "cards": list(action.cards) if symbols else C.cards_str(group),
                    "revolution": s.revolution,
                    "revolts": bool(revolts),
                    "cut": bool(cut),
                    "returned": returned,
                },
            )
        )
        if not left:
            s.finished = (*s.finished, seat)
            ev.append(
                Event(
                    "out",
                    f"{name} is out (#{len(s.finished)})",
                    {"seat": seat, "place": len(s.finished)},
                )
            )
            # Only a player going out can leave fewer than two holding cards.
            if sum(1 for h in s.hands if h) <= 1:
                return self._end_game(s, ev)
        if cut:
            self._flush(s, ev, "8-cut")
            lead = seat if s.active(seat) else self._next_active(s, seat)
            s.turn = lead
            ev.append(Event("lead", f"{s.players[lead]} leads", {"seat": lead}))
            return s
        return self._advance(s, seat, ev)

    def _pass(self, state: State, seat: Seat, ev: list[Event]) -> State:
        if not state.plays:
            raise IllegalActionError(
                "the leader may not pass on an empty field — rules: Plays", seat=seat, rule="lead"
            )
        s = state.copy()
        s.passed = s.passed | {seat}
        ev.append(Event("pass", f"{s.players[seat]} passes", {"seat": seat, "auto": False}))
        return self._advance(s, seat, ev)

    def _next_active(self, s: State, seat: Seat) -> Seat:
        order = s.order
        i = order.index(seat)
        n = len(order)
        for k in range(1, n + 1):
            nxt = order[(i + k) % n]
            if s.hands[nxt]:
                return nxt
        raise AssertionError("no active player")  # pragma: no cover

    def _flush(self, s: State, ev: list[Event], why: str) -> None:
        cards = [c for p in s.plays for c in p.cards]
        s.discards = _merge(s.discards, cards)
        s.plays = ()
        s.passed = frozenset()
        ev.append(Event("flush", f"the field flushes ({why})", {"reason": why}))

    def _advance(self, s: State, seat: Seat, ev: list[Event]) -> State:
        """Turn passes on from ``seat``; forced passes are applied here (rules: Passing).

        One sweep of the turn order from ``seat``: the first seat still in the round that can
        beat the top plays; those before it that cannot are passed for them; nobody: flush.
        """
        order = s.order
        n = len(order)
        hands = s.hands
        top = s.plays[-1]
        last = top.seat
        size, rank = len(top.cards), top.rank
        rules = s.rules
        # How to test "can beat the top" on a hand's bits (as fast.can_beat does):
        # 0 nobody can, 1 only the single 3 of spades, 2 a group of a rank in ``ranks``.
        if top.returned or size > rules.max_group:
            kind = 0
        elif rank == C.JOKER_RANK:
            kind = 1 if rules.spade3_return and size == 1 else 0
        else:
            kind = 2
        ranks = _BEATING[s.revolution][rank] if kind == 2 else 0
        hget = _HANDS.get
        passed = s.passed
        auto: list[Seat] = []
        players = s.players
        i = order.index(seat)
        for k in range(1, n + 1):
            x = order[(i + k) % n]
            if x == last or x in passed:
                continue
            hand = hands[x]
            if not hand:
                continue
            if kind == 2:
                mask, jokers = hget(hand) or F.hand_bits(hand)
                need = size - jokers
                if need <= 0:
                    ok = True
                elif need > 4:
                    ok = False
                else:
                    # fast.has_rank_with, inlined: count the cards of every rank at once.
                    c = mask - ((mask >> 1) & _M5)
                    c = (c & _M3) + ((c >> 2) & _M3)
                    ok = bool((c + _ADD[need]) & ranks)
            elif kind == 1:
                ok = bool((hget(hand) or F.hand_bits(hand))[0] & 1)
            else:
                ok = False
            if ok:
                s.turn = x
                if auto:
                    s.passed = passed.union(auto)
                return s
            auto.append(x)
            ev.append(
                Event("pass", f"{players[x]} passes (no legal play)", {"seat": x, "auto": True})
            )
        self._flush(s, ev, "all passed")
        lead = last if hands[last] else self._next_active(s, last)
        s.turn = lead
        ev.append(Event("lead", f"{s.players[lead]} leads", {"seat": lead}))
        return s

    def has_follow(self, state: State, seat: Seat) -> bool:
        """Whether ``seat`` holds a group that beats the field top."""
        top = state.top
        if top is None:
            return bool(state.hands[seat])
        rules = state.rules
        return F.can_beat(
            state.hands[seat],
            len(top.cards),
            top.rank,
            state.revolution,
            top.returned,
            rules.spade3_return,
            rules.max_group,
        )

    # end of a game
    def _end_game(self, s: State, ev: list[Event]) -> State:
        n = len(s.players)
        rules = s.rules
        holders = [x for x in s.order if s.hands[x]]
        last_hand: tuple[int, ...] = ()
        finish = list(s.finished)
        for x in holders:
            finish.append(x)
            last_hand = s.hands[x]
        field = [c for p in s.plays for c in p.cards]
        s.discards = _merge(s.discards, [*field, *last_hand])
        s.plays = ()
        s.passed = frozenset()
        titles: list[str] = ["daihinmin"] * n
        names = titles_for(len(finish) + 1)[: len(finish)] if s.cheaters else titles_for(n)
        for x, t in zip(finish, names, strict=True):
            titles[x] = t
        final = s.game_no == rules.games
        pts = tuple(rules.title_points(t, final=final) for t in titles)
        s.results = (
            *s.results,
            GameResult(s.game_no, tuple(finish), s.cheaters, tuple(titles), pts, last_hand),
        )
        s.points = tuple(a + b for a, b in zip(s.points, pts, strict=True))
        s.titles = tuple(titles)
        summary = ", ".join(
            f"{s.players[x]} {TITLE_KANJI[titles[x]]} {pts[x]:+d}" for x in range(n)
        )
        ev.append(
            Event(
                "game_end",
                f"game {s.game_no} over: {summary}"
                + (f"; last hand {C.cards_symbols(last_hand)}" if last_hand else ""),
                {
                    "game": s.game_no,
                    "finish": finish,
                    "titles": titles,
                    "points": list(pts),
                    "cheaters": list(s.cheaters),
                    "last_hand": C.cards_str(last_hand),
                },
            )
        )
        cheaters = sorted(s.cheaters, key=lambda x: s.players[x])
        s.order = (*cheaters, *reversed(finish))
        s.hands = ((),) * n
        s.turn = -1
        s.steps = ()
        s.game_no += 1
        if s.game_no > rules.games:
            s.phase = "over"
            ev.append(
                Event(
                    "set_end",
                    "the set is over: "
                    + ", ".join(f"{s.players[x]} {s.points[x]:+d}" for x in range(n)),
                    {"points": list(s.points)},
                )
            )
        else:
            s.phase = "deal"
        return s

    # --- defaults ---------------------------------------------------------------------------
    def apply_default(self, state: DaifugoState, seat: Seat) -> tuple[DaifugoState, list[Event]]:
        """The host's choice on a timeout or absence (rules: Time and absence).

        Play: pass; the leader (who may not pass) plays its weakest single card. Exchange: the
        strongest cards for a tribute, the weakest for a gift (never cheating).
        """
        self._check_turn(state, seat)
        if seat == CHANCE:
            raise IllegalActionError("chance has no default; draw with sample_chance")
        ev = [
            Event(
                "timeout",
                f"{state.players[seat]} timed out; the host acts",
                {"seat": seat, "phase": state.phase},
            )
        ]
        if state.phase == "exchange":
            step = state.exchange_step()
            assert step is not None
            hand = state.hands[seat]
            pick = C.strongest if step.kind == "tribute" else C.weakest
            new = self._transfer(state, step, pick(hand, step.count), ev, timeout=True)
        elif state.plays:
            new = self._pass(state, seat, ev)
        else:
            new = self._play(state, seat, Play((C.card_str(state.hands[seat][0]),)), ev)
        new.log_chain = (new.log_chain, tuple(ev))
        return new, ev

    # --- views and outcome ------------------------------------------------------------------
    def view(self, state: DaifugoState, seat: Seat | None) -> JSON:
        """What ``seat`` knows: see ``views.view``."""
        from dennou.games.daifugo.views import view

        return view(self, state, seat)

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> DaifugoState:
        """A state consistent with ``view``: see ``views.determinize``."""
        from dennou.games.daifugo.views import determinize

        return determinize(view, seat, rng)

    def outcome(self, state: DaifugoState) -> Outcome:
        """Points over the set (higher is better), with every game's titles in ``detail``."""
        if state.phase != "over":
            raise IllegalActionError("the set is not over")
        return Outcome.from_scores(
            state.points,
            detail={
                "points": list(state.points),
                "games": [
                    {
                        "titles": list(r.titles),
                        "points": list(r.points),
                        "cheaters": list(r.cheaters),
                    }
                    for r in state.results
                ],
                "void_games": state.void_games,
            },
        )

    # --- presentation -----------------------------------------------------------------------
    def render(self, view: JSON) -> str:
        """The view as text: field, hands as ``♠3 ♥8 JOKER``, players and points."""
        from dennou.games.daifugo.views import render

        return render(view)

    def describe_legal(self, legal: Sequence[Action]) -> str:
        """The legal plays with cards as symbols, numbered."""
        from dennou.games.daifugo.views import describe_legal

        return describe_legal(legal)

    def bots(self) -> Mapping[str, Callable[..., Any]]:
        """``random``, ``greedy`` and ``montecarlo``."""
        from dennou.games.daifugo.bots import BOTS

        return BOTS

    def conformance_rules(self) -> list[DaifugoRules]:
        """Short sets (2-3 games) with and without options, and one full-length set."""
        return [
            DaifugoRules(games=3),
            DaifugoRules(games=2, revolution=False, eight_cut=False, spade3_return=False),
            DaifugoRules(games=2, cheating="reject", daifugo_exchange=1, max_group=4),
            DaifugoRules(),
        ]

    def conformance_action(
        self, state: DaifugoState, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """Uniform, except that an exchange is sometimes a cheating one (to exercise cheating)."""
        if state.phase == "exchange" and state.rules.cheating == "penalty" and rng.random() < 0.15:
            hand = state.hands[seat]
            bad = Give(tuple(C.cards_str(hand[:1])))
            if bad in legal:
                return bad
        return legal[rng.randrange(len(legal))]


def forced_deal(state: DaifugoState, hands: Mapping[int, Sequence[str]]) -> Deal:
    """A deal giving each listed seat the listed cards first (the rest in deck order).

    For tests and puzzles: ``forced_deal(state, {0: ["3s", "JK"]})`` deals seat 0 both cards
    plus fillers up to its deal size (rules: Deal, one card at a time from the leader).

    Raises:
        ValueError: A card is unknown, listed twice, or a seat gets more than its deal size.
    """
    n = len(state.players)
    order = state.order
    sizes = {order[i]: len(range(i, len(C.DECK), n)) for i in range(n)}
    pool = list(C.DECK)
    want: dict[int, list[int]] = {}
    for seat, texts in hands.items():
        got = C.parse_cards(texts)
        if got is None or len(got) > sizes[seat]:
            raise ValueError(f"seat {seat}: bad or too many cards {list(texts)}")
        for c in got:
            pool.remove(c)
        want[seat] = list(got)
    for seat in order:
        mine = want.setdefault(seat, [])
        while len(mine) < sizes[seat]:
            mine.append(pool.pop(0))
    deck = [want[order[i % n]][i // n] for i in range(len(C.DECK))]
    return Deal(tuple(C.cards_str(deck)))


GAME = Daifugo()
"""The Daifugo game, as listed in the registry."""
