"""Daifugo (大富豪, "Millionaire"): the rules, as the rules page reads.

Rules: ``docs/games/daifugo.md``. The deck (52 cards and up to two wild jokers) is dealt to 2-8
players. The leader plays a group (cards of one rank) or, where played, a sequence (階段); each
next player plays a stronger play of the same kind and size or passes (and stays out until the
field flushes). When the others (or, by option, all) have passed the field flushes and the last
player leads. Big plays make a revolution (革命); an 8 flushes the field at once (八切り); the 3
of spades beats a single joker (スペ3返し); options add the suit lock (縛り), 11-back, 5 skip,
7 pass, 10 discard, 都落ち and 千日手. The first out is 大富豪, the last 大貧民; titles earn
points. From game 2 the titles exchange cards before play. One state (and one record) is a
whole set of games.

This module holds the rules. Listing plays and testing "can this hand beat the top" go through
:mod:`.fast` (tables on card sets, checked against :mod:`.cards` in the tests); views, rendering
and bots are assembled with these rules in the package (:mod:`dennou.games.daifugo`).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping, Sequence
from math import comb, factorial
from typing import Any

from dennou.core.actions import Action, LazyActions
from dennou.core.errors import IllegalActionError
from dennou.core.game import (
    CHANCE,
    JSON,
    DuplicateDeals,
    Event,
    Game,
    GameSpec,
    Learning,
    Outcome,
    Seat,
)
from dennou.core.immutable import replace_at
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import events as E
from dennou.games.daifugo import fast as F
from dennou.games.daifugo import held as H
from dennou.games.daifugo.actions import CODEC, Deal, Discard, Give, Pass, Places, Play
from dennou.games.daifugo.cards import Combo
from dennou.games.daifugo.rules import DaifugoRules, from_options, titles_for
from dennou.games.daifugo.state import (
    DaifugoState,
    ExchangeStep,
    FollowUp,
    GameResult,
    Played,
)

State = DaifugoState

_PASS = Pass()
_ONE_SEAT: dict[Seat, frozenset[Seat]] = {i: frozenset((i,)) for i in range(-1, 8)}


_DECK_STR = tuple(tuple(C.cards_str(C.deck(jokers))) for jokers in range(3))
"""The deck's wire forms in code order, by the number of jokers (what a deal shuffles)."""


class LegalPlays(list[Action]):
    """The legal plays of the seat to play, listed; ``in`` is the engine's own legality check.

    A plain list for indexing and length (the hot path of every random or search player), with
    ``in`` answering exactly "``apply`` accepts it" (other card order or spelling included).
    """

    __slots__ = ("_rules", "_seat", "_state")
    _rules: DaifugoEngine
    _state: DaifugoState
    _seat: Seat

    def __contains__(self, action: object) -> bool:
        return self._rules.allows(self._state, self._seat, action)


class DaifugoEngine(Game[DaifugoState, DaifugoRules]):
    """The rules of Daifugo (a whole set of games per state and record)."""

    spec = GameSpec(
        name="daifugo",
        title="Daifugo (大富豪)",
        version=3,
        min_players=2,
        max_players=8,
        chance=True,
        hidden_information=True,
        host_clock=True,
        duplicate=DuplicateDeals(
            ("deal",), "every game's deck of the set (the only chance draws of a set)"
        ),
        learning=Learning("dennou.games.daifugo.encoding:DaifugoEncoding", 5, {"preset": "uecda"}),
        board="daifugo",
    )
    rules_type = DaifugoRules
    codec = CODEC
    unit = "set"

    # --- setup ------------------------------------------------------------------------------
    def make_rules(self, options: Mapping[str, Any] | None = None) -> DaifugoRules:
        """The rules from options; ``preset`` (``uecda``) starts from a named set of options.

        Explicit options override the preset's (``{"preset": "uecda", "games": 100}``).

        Raises:
            ConfigError: An unknown preset or option, or an impossible value.
        """
        return from_options(options or {})

    def default_players(self, rules: DaifugoRules) -> int:
        """Five players, as both contests played."""
        return 5

    def new(self, rules: DaifugoRules, players: Sequence[str]) -> DaifugoState:
        """Start a set: game 1's turn order is by id (lexicographic), or by seat (``seats``)."""
        self.check_players(players)
        n = len(players)
        if rules.turn_order == "seats":
            order = tuple(range(n))
        else:
            order = tuple(sorted(range(n), key=lambda s: players[s]))
        return DaifugoState(
            rules=rules,
            players=tuple(players),
            order=order,
            hands=(0,) * n,
            titles=(None,) * n,
            points=(0,) * n,
        )

    def to_act(self, state: DaifugoState) -> frozenset[Seat]:
        """Deal and 千日手: chance; exchange: the giver of the step; play: the seat to play."""
        phase = state.phase
        if phase == "play":
            return _ONE_SEAT[state.turn]
        if phase == "deal" or phase == "stalemate":
            return _ONE_SEAT[CHANCE]
        if phase == "exchange":
            step = state.exchange_step()
            assert step is not None
            return _ONE_SEAT[step.giver]
        return frozenset()

    def sample_chance(self, state: DaifugoState, rng: random.Random) -> Action:
        """A shuffled deck (the whole deal as one chance action), or the drawn places."""
        if state.phase == "stalemate":
            return Places(tuple(F.shuffled(self._unplaced(state), rng)))
        if state.phase != "deal":
            raise IllegalActionError("no deal is due", phase=state.phase)
        return Deal(tuple(F.shuffled(list(_DECK_STR[state.rules.jokers]), rng)))

    # --- legal actions ----------------------------------------------------------------------
    legal_actions = H.legal_actions
    apply = H.apply

    def legal_actions_rules(self, state: DaifugoState, seat: Seat) -> Sequence[Action]:
        """The actions ``seat`` may take now, by the readable rules (:meth:`legal_actions`).

        Deals are too many to list (any ordering of the deck is accepted); the places of a
        千日手 are listed lazily. In the exchange the sequence lists the honest choices, but
        unless ``cheating="reject"`` it *contains* every ``give`` (a broken one is cheating, or
        replaced by the strongest cards). Plays are listed in full; a play given in other card
        order or spelling (``Th`` for ``10h``, ``JK`` for ``JK=7h`` where that is the first
        legal reading) is contained too.
        """
        phase = state.phase
        if phase == "play":
            if seat != state.turn:
                return []
            if state.follow_up is not None:
                return self._follow_up_actions(state, seat, state.follow_up)
            out = LegalPlays()
            out._rules, out._state, out._seat = self, state, seat
            self._add_plays(out, F.PLAYS, state, seat)
            if self.may_pass(state):
                out.append(_PASS)
            return out
        if phase == "stalemate":
            return self._places_actions(state) if seat == CHANCE else []
        if seat not in self.to_act(state) or seat == CHANCE:
            return []
        return self._exchange_actions(state, seat)

    def legal_combos(self, state: DaifugoState, seat: Seat) -> list[Combo]:
        """The combinations ``seat`` may play now (empty unless it is their turn to play)."""
        out: list[Combo] = []
        if state.phase == "play" and seat == state.turn and state.follow_up is None:
            self._add_plays(out, F.COMBOS, state, seat)
        return out

    def _add_plays(self, out: list[Any], which: int, state: DaifugoState, seat: Seat) -> None:
        hand = state.hands[seat]
        top = state.top
        if top is None:
            F.add_leads(out, which, hand, state.rules)
        else:
            F.add_follows(out, which, hand, top, state.reverse, state.lock, state.rules)

    def allows(self, state: DaifugoState, seat: Seat, action: object) -> bool:
        """Whether ``seat`` (the seat to play) may play or pass ``action`` now (any spelling)."""
        if type(action) is Pass:
            return self.may_pass(state)
        if type(action) is Play:
            try:
                self.reading(state, seat, action)
            except IllegalActionError:
                return False
            return True
        return False

    def may_pass(self, state: DaifugoState) -> bool:
        """Whether the seat to play may pass: on a field with cards, or always (``lead_pass``)."""
        return state.follow_up is None and (bool(state.field) or state.rules.lead_pass)

    def can_play(self, state: DaifugoState, seat: Seat) -> bool:
        """Whether ``seat`` holds a play beating the top (anything, on an empty field)."""
        top = state.top
        if top is None:
            return state.hands[seat] != 0
        return F.can_follow(state.hands[seat], top, state.reverse, state.lock, state.rules)

    def _follow_up_actions(self, state: State, seat: Seat, due: FollowUp) -> Sequence[Action]:
        """Every choice of ``due.count`` cards of the hand: ``give`` (7渡し) or ``discard``."""
        kind = Give if due.kind == "give" else Discard
        return _subset_actions(state.hand(seat), due.count, kind)

    def _exchange_actions(self, state: DaifugoState, seat: Seat) -> Sequence[Action]:
        step = state.exchange_step()
        assert step is not None
        hand = state.hand(seat)
        if step.kind == "tribute":
            honest = C.honest_tributes(hand, step.count)
        else:
            honest = C.all_subsets(hand, step.count)
        acts = [Give(tuple(C.cards_str(g))) for g in honest]
        keys = set(honest)
        lenient = state.rules.cheating != "reject"

        def contains(action: object) -> bool:
            if type(action) is not Give:
                return False
            return lenient or C.parse_cards(action.cards) in keys

        return LazyActions(
            len(acts),
            acts.__getitem__,
            contains,
            {"kind": step.kind, "count": step.count, "to": step.receiver},
        )

    def _unplaced(self, state: State) -> list[Seat]:
        """The seats still holding cards, whose places a 千日手 draws."""
        return [x for x in state.order if state.active(x)]

    def _places_actions(self, state: State) -> Sequence[Action]:
        seats = self._unplaced(state)

        def item(i: int) -> Action:
            return Places(_nth_permutation(seats, i))

        def contains(action: object) -> bool:
            return type(action) is Places and sorted(action.seats) == sorted(seats)

        return LazyActions(factorial(len(seats)), item, contains, {"seats": seats})

    # --- transitions ------------------------------------------------------------------------
    def apply_rules(
        self, state: DaifugoState, seat: Seat, action: Action
    ) -> tuple[DaifugoState, list[Event]]:
        """:meth:`apply` by the readable rules alone (the oracle of the fast layer)."""
        kind = type(action)
        phase = state.phase
        if phase != "play" or seat != state.turn:  # the seat to play needs no more checking
            self.check_turn(state, seat)
        ev: list[Event] = []
        due = state.follow_up
        if phase == "play" and due is None and kind is Play:
            new = self._play(state, seat, action, ev)  # type: ignore[arg-type]
        elif phase == "play" and due is None and kind is Pass:
            new = self._pass(state, seat, ev, auto=False)
        elif (
            phase == "play"
            and due is not None
            and kind is (Give if due.kind == "give" else Discard)
        ):
            new = self._follow_up(state, seat, action.cards, ev)  # type: ignore[attr-defined]
        elif phase == "deal" and kind is Deal:
            new = self._deal(state, action, ev)  # type: ignore[arg-type]
        elif phase == "exchange" and kind is Give:
            new = self._give(state, seat, action.cards, ev)  # type: ignore[attr-defined]
        elif phase == "stalemate" and kind is Places:
            new = self._places(state, action.seats, ev)  # type: ignore[attr-defined]
        else:
            raise IllegalActionError(
                f"{kind.__name__} is not allowed now; expected {self._expected_now(state)}",
                seat=seat,
                phase=phase,
            )
        new.log_chain = (new.log_chain, list(ev))
        return new, ev

    def _expected_now(self, state: State) -> str:
        if state.phase == "play" and state.follow_up is not None:
            return f"{state.follow_up.kind} {state.follow_up.count} card(s)"
        return {
            "deal": "deal",
            "exchange": "give",
            "play": "play or pass",
            "stalemate": "places",
        }.get(state.phase, "nothing")

    # deal
    def _deal(self, state: State, action: Deal, ev: list[Event]) -> State:
        """Rules, Cards, seats, deal: one card at a time in turn order from the first seat."""
        rules = state.rules
        deck = [C.CARD_CODES.get(c) if type(c) is str else None for c in action.deck]
        if None in deck:
            deck = [C.parse_card(c) for c in action.deck]  # other spellings (``joker``)
        if None in deck or sorted(deck) != list(C.deck(rules.jokers)):  # type: ignore[type-var]
            raise IllegalActionError(
                f"a deal is the {52 + rules.jokers} cards (52 + {rules.jokers} JK), each once, "
                "in dealing order — rules: Cards",
                rule="deal",
            )
        s = state.copy()
        n = len(s.players)
        dealt: list[list[int]] = [[] for _ in range(n)]
        for i, card in enumerate(deck):
            dealt[s.order[i % n]].append(card)  # type: ignore[arg-type]
        for hand in dealt:
            hand.sort()
        s.hands = tuple(C.card_set(h) for h in dealt)
        s.deals += 1
        s.log_chain = ()
        s.field, s.discards, s.passed, s.finished, s.cheaters = (), 0, frozenset(), (), ()
        s.revolution, s.back, s.lock, s.pass_run, s.fallen = False, False, 0, 0, -1
        s.turn = s.last = -1
        diamond3 = rules.first_lead == "diamond3"
        E.deal_events(s.game_no, s.players, s.order, [tuple(h) for h in dealt], diamond3, ev)
        s.steps = self._exchange_plan(s) if rules.exchange and s.game_no > 1 else ()
        s.phase = "exchange"
        return self._after_step(s, ev)

    def _exchange_plan(self, s: State) -> tuple[ExchangeStep, ...]:
        """Rules, Exchange: 大貧民 → 大富豪, 大富豪 → 大貧民, 貧民 → 富豪, 富豪 → 貧民.

        With ``auto_tribute`` both tributes come first (UECda gives them with the deal).
        """
        rules = s.rules

        def first(title: str) -> int | None:
            seats = [i for i, t in enumerate(s.titles) if t == title]
            return min(seats, key=lambda i: s.players[i]) if seats else None

        tributes: list[ExchangeStep] = []
        gifts: list[ExchangeStep] = []
        for high, low, count in (
            ("daifugo", "daihinmin", rules.daifugo_exchange),
            ("fugo", "hinmin", rules.fugo_exchange),
        ):
            a, b = first(high), first(low)
            if a is None or b is None or count == 0:
                continue
            tributes.append(ExchangeStep(b, a, count, "tribute"))
            gifts.append(ExchangeStep(a, b, count, "gift"))
        if rules.auto_tribute:
            return (*tributes, *gifts)
        return tuple(step for pair in zip(tributes, gifts, strict=True) for step in pair)

    # exchange
    def _give(self, state: State, seat: Seat, texts: tuple[str, ...], ev: list[Event]) -> State:
        step = state.exchange_step()
        assert step is not None
        hand = state.hand(seat)
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
        if not why:
            assert given is not None
            return self._transfer(state, step, given, ev, how="")
        cheating = state.rules.cheating
        if cheating == "reject":
            raise IllegalActionError(
                f"illegal exchange: {why} — rules: Exchange", seat=seat, rule="exchange"
            )
        if cheating == "strongest":
            strongest = C.strongest_spades_first(hand, step.count)
            return self._transfer(state, step, strongest, ev, how=f"replaced, {why}")
        return self._cheat(state, seat, step, why, ev)

    def _transfer(
        self,
        state: State,
        step: ExchangeStep,
        given: tuple[int, ...],
        ev: list[Event],
        *,
        how: str,
    ) -> State:
        """Move the cards of an exchange step; ``how`` says why the host chose them, if it did."""
        s = state.copy()
        giver, receiver = step.giver, step.receiver
        cards = C.card_set(given)
        s.hands = replace_at(s.hands, giver, C.remove(s.hands[giver], cards))
        lost = receiver in s.cheaters
        if lost:
            s.discards = C.add(s.discards, cards)
        else:
            s.hands = replace_at(s.hands, receiver, C.add(s.hands[receiver], cards))
        done = ExchangeStep(giver, receiver, step.count, step.kind, given, False, True)
        s.steps = replace_at(s.steps, s.steps.index(step), done)
        note = f" ({how})" if how else ""
        text = f"{s.players[giver]} gives {step.count} card(s) to {s.players[receiver]}{note}"
        data: JSON = {
            "giver": giver,
            "receiver": receiver,
            "count": step.count,
            "kind": step.kind,
            "timeout": how.startswith("the host chose"),
        }
        if how and not how.startswith("the host chose"):
            data["host"] = how
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
        """Rules, Cheating: the hand is shown to all and discarded; the cheater is out."""
        s = state.copy()
        hand = s.hand(seat)
        s.discards = C.add(s.discards, s.hands[seat])
        s.hands = replace_at(s.hands, seat, 0)
        s.cheaters = (*s.cheaters, seat)
        cheated = ExchangeStep(step.giver, step.receiver, step.count, step.kind, (), True, True)
        s.steps = replace_at(s.steps, s.steps.index(step), cheated)
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
        """The next exchange step (a tribute given automatically with ``auto_tribute``), or play."""
        step = s.exchange_step()
        if step is not None:
            if step.kind == "tribute" and s.rules.auto_tribute:
                given = C.strongest_spades_first(s.hand(step.giver), step.count)
                return self._transfer(s, step, given, ev, how="automatic")
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
            s.hands = (0,) * len(s.players)
            s.discards = 0
            return s
        if len(honest) == 1:
            return self._end_game(s, ev)
        return self._start_play(s, ev)

    # play
    def _start_play(self, s: State, ev: list[Event]) -> State:
        """Rules, Cards: the first in turn order leads, or the holder of the ♦3 (``diamond3``)."""
        s.phase = "play"
        leader = next(seat for seat in s.order if s.active(seat))
        if s.rules.first_lead == "diamond3":
            leader = next((x for x in s.order if s.hands[x] >> C.DIAMOND3 & 1), leader)
        self._lead(s, leader, ev)
        return s

    def reading(self, state: State, seat: Seat, action: Play) -> Combo:
        """The combination ``action`` plays, if ``seat`` may play it now (rules: Plays).

        Of the readings of the cards (:func:`.cards.interpretations`) the first legal one.

        Raises:
            IllegalActionError: Not cards, not a group or sequence, not in the hand, or does not
                beat the field; the message names the rule.
        """
        rules = state.rules
        readings = F.readings(action.cards, rules.max_group, rules.suit_lock, rules.sequences)
        if readings is None:
            raise IllegalActionError(
                f"{list(action.cards)} are not all cards (e.g. 3s 10h Qd JK JK=6s)", seat=seat
            )
        if not readings:
            kinds = f"1-{rules.max_group} cards of one rank (jokers wild)"
            if rules.sequences:
                kinds = f"a group ({kinds}) or a sequence (3+ ranks in a row of one suit)"
            raise IllegalActionError(
                f"a play is {kinds}, not {list(action.cards)} — rules: Plays",
                seat=seat,
                rule="group",
            )
        if not C.holds(state.hands[seat], readings[0].cards):
            raise IllegalActionError(
                f"{C.cards_str(C.cards_in(readings[0].cards))} are not all in your hand",
                seat=seat,
                rule="hand",
            )
        top = state.top
        if top is None:
            return readings[0]
        for combo in readings:
            if C.beats(
                combo,
                top.combo,
                reverse=state.reverse,
                returned=top.returned,
                lock=state.lock,
                spade3_return=rules.spade3_return,
            ):
                return combo
        locked = f" of suits {E.SUIT_SETS[state.lock]} (locked)" if state.lock else ""
        raise IllegalActionError(
            f"{list(readings[0].strs())} does not beat the field {list(top.combo.strs())}: a "
            f"play needs {top.combo.size} card(s) of the same kind{locked}, stronger"
            + (" in the reversed order" if state.reverse else "")
            + " — rules: Plays",
            seat=seat,
            rule="follow",
        )

    def _play(self, state: State, seat: Seat, action: Play, ev: list[Event]) -> State:
        """Rules, Plays: the play goes on the field and takes its effects; then the turn moves."""
        combo = self.reading(state, seat, action)
        rules = state.rules
        top = state.top
        s = state.copy()
        returned = C.is_spade3_return(combo, top and top.combo)
        s.hands = replace_at(s.hands, seat, C.remove(s.hands[seat], combo.cards))
        s.field = (*s.field, Played(seat, combo, returned))
        s.last = seat
        s.pass_run = 0
        locks = rules.suit_lock and not s.lock and C.locks(combo, top and top.combo)
        if locks:
            s.lock = combo.suits
        revolts = rules.revolution and not returned and F.revolts(combo, rules)
        if revolts:
            s.revolution = not s.revolution
        backs = rules.eleven_back and combo.count(C.JACK) > 0
        if backs:
            s.back = not s.back
        flags = revolts | returned << 1 | locks << 2 | backs << 3 | s.revolution << 4 | s.back << 5
        ev.append(E.play_event(rules, s.players[seat], seat, combo, flags, s.lock))
        if not s.hands[seat] and self._go_out(s, seat, ev):
            return self._end_game(s, ev)
        if s.hands[seat]:
            due = self._follow_up_due(s, seat, combo, given=False)
            if due is not None:
                s.follow_up = due
                return s
        return self._after_play(s, seat, ev)

    def _go_out(self, s: State, seat: Seat, ev: list[Event]) -> bool:
        """Rules, Finishing: ``seat`` is out; 都落ち. Whether the game is over."""
        s.finished = (*s.finished, seat)
        ev.append(E.out_event(s.players[seat], seat, len(s.finished)))
        if s.rules.miyako_ochi and len(s.finished) == 1:
            fallen = next((x for x, t in enumerate(s.titles) if t == "daifugo"), -1)
            if fallen not in (-1, seat) and s.active(fallen):
                hand = s.hand(fallen)
                s.discards = C.add(s.discards, s.hands[fallen])
                s.hands = replace_at(s.hands, fallen, 0)
                s.fallen = fallen
                ev.append(E.fall_event(s.players[fallen], fallen, hand))
        return sum(1 for h in s.hands if h) <= 1

    def _follow_up_due(self, s: State, seat: Seat, combo: Combo, *, given: bool) -> FollowUp | None:
        """Rules, 7 pass then 10 discard: one card per 7 (10) played, at most the cards held.

        ``given``: the 7 pass is done, only the 10 discard may be due.
        """
        rules = s.rules
        held = C.size(s.hands[seat])
        sevens = combo.count(C.SEVEN) if rules.seven_pass and not given else 0
        if sevens:
            return FollowUp("give", min(sevens, held), self._next_active(s, seat))
        tens = combo.count(C.TEN) if rules.ten_discard else 0
        if tens:
            return FollowUp("discard", min(tens, held))
        return None

    def _follow_up(
        self, state: State, seat: Seat, texts: tuple[str, ...], ev: list[Event]
    ) -> State:
        """Rules, 7 pass / 10 discard: the cards go to the next player or to the discards."""
        due = state.follow_up
        assert due is not None
        cards = C.parse_cards(texts)
        if cards is None or len(cards) != due.count or not C.contains(state.hand(seat), cards):
            raise IllegalActionError(
                f"{due.kind} {due.count} card(s) of your hand, not {list(texts)} — rules: "
                + ("7 pass" if due.kind == "give" else "10 discard"),
                seat=seat,
                rule=due.kind,
            )
        s = state.copy()
        cards_set = C.card_set(cards)
        s.hands = replace_at(s.hands, seat, C.remove(s.hands[seat], cards_set))
        name = s.players[seat]
        if due.kind == "give":
            s.hands = replace_at(s.hands, due.to, C.add(s.hands[due.to], cards_set))
            text = f"{name} gives {due.count} card(s) to {s.players[due.to]} (7 pass)"
            data: JSON = {"seat": seat, "to": due.to, "count": due.count}
            ev.append(Event("pass7", text, data))
            ev.append(
                Event(
                    "pass7_cards",
                    text + ": " + C.cards_symbols(cards),
                    {**data, "cards": C.cards_str(cards)},
                    frozenset((seat, due.to)),
                )
            )
        else:
            s.discards = C.add(s.discards, cards_set)
            ev.append(
                Event(
                    "discard10",
                    f"{name} discards {C.cards_symbols(cards)} (10 discard)",
                    {"seat": seat, "cards": C.cards_str(cards)},
                )
            )
        s.follow_up = None
        if not s.hands[seat]:
            if self._go_out(s, seat, ev):
                return self._end_game(s, ev)
        elif due.kind == "give":
            then = self._follow_up_due(s, seat, s.field[-1].combo, given=True)
            if then is not None:
                s.follow_up = then
                return s
        return self._after_play(s, seat, ev)

    def _after_play(self, s: State, seat: Seat, ev: list[Event]) -> State:
        """What the play on top does to the turn: 8-cut, the spade-3 flush, 5 skip, or on."""
        rules = s.rules
        top = s.field[-1]
        if rules.eight_cut and top.combo.count(C.EIGHT):
            return self._flush_and_lead(s, seat, ev, "8-cut")
        if top.returned and rules.spade3_flush:
            return self._flush_and_lead(s, seat, ev, "spade-3 return")
        skips = top.combo.count(C.FIVE) if rules.five_skip else 0
        return self._advance(s, seat, ev, skips)

    def _flush_and_lead(self, s: State, seat: Seat, ev: list[Event], why: str) -> State:
        self._flush(s, ev, why)
        self._lead(s, seat if s.active(seat) else self._next_active(s, seat), ev)
        return s

    def _pass(self, state: State, seat: Seat, ev: list[Event], *, auto: bool) -> State:
        if not self.may_pass(state):
            raise IllegalActionError(
                "the leader may not pass on an empty field — rules: Plays", seat=seat, rule="lead"
            )
        s = state.copy()
        self._passes(s, seat, ev, auto=False)
        if s.phase == "stalemate":
            return s
        return self._advance(s, seat, ev, 0)

    def _passes(self, s: State, seat: Seat, ev: list[Event], *, auto: bool) -> None:
        """``seat`` passes (rules: Passing); 千日手 after ``stalemate_passes`` in a row."""
        s.passed = s.passed | {seat}
        s.pass_run += 1
        ev.append(E.pass_event(s.players[seat], seat, auto))
        limit = s.rules.stalemate_passes
        if limit and s.pass_run >= limit:
            s.phase = "stalemate"
            s.turn = -1
            ev.append(
                Event(
                    "stalemate",
                    f"{limit} passes in a row (千日手): the remaining places are drawn",
                    {"passes": s.pass_run},
                )
            )

    def _after(self, s: State, seat: Seat) -> tuple[Seat, ...]:
        """The other seats in turn order, starting after ``seat``."""
        i = s.order.index(seat)
        return s.order[i + 1 :] + s.order[:i]

    def _next_active(self, s: State, seat: Seat) -> Seat:
        """The next seat after ``seat`` in turn order that still holds cards."""
        return next(x for x in self._after(s, seat) if s.active(x))

    def _advance(self, s: State, seat: Seat, ev: list[Event], skips: int) -> State:
        """Rules, Passing: the turn goes to the next seat still in the round.

        In the round: holding cards, not passed, and not the last player (unless
        ``flush_on="all_passed"``: then the last player gets one more turn over their own
        cards). ``skips`` of them are skipped first (5 skip), going round. With ``auto_pass``
        a seat that cannot play is passed for (the host says so). When nobody is left in the
        round, the field flushes and the last player leads (or, if out, the next active player
        after them).
        """
        last = s.last
        keep_last = s.rules.flush_on == "all_passed"
        ring = [
            x
            for x in (*self._after(s, seat), seat)
            if s.hands[x] and x not in s.passed and (x != last or keep_last)
        ]
        if ring:
            start = skips % len(ring)
            auto = s.rules.auto_pass
            for x in ring[start:] + ring[:start]:
                if not auto or self.can_play(s, x):
                    s.turn = x
                    return s
                self._passes(s, x, ev, auto=True)
                if s.phase == "stalemate":
                    return s
        return self._flush_and_lead(s, last, ev, "all passed")

    def _flush(self, s: State, ev: list[Event], why: str) -> None:
        """The field flushes (流れる).

        Its cards go to the discards; passes, the suit lock and 11-back end.
        """
        for p in s.field:
            s.discards = C.add(s.discards, p.combo.cards)
        s.field = ()
        s.passed = frozenset()
        s.lock = 0
        s.back = False
        ev.append(E.flush_event(why))

    def _lead(self, s: State, seat: Seat, ev: list[Event]) -> None:
        s.turn = s.last = seat
        ev.append(E.lead_event(s.players[seat], seat))

    def _places(self, state: State, seats: tuple[int, ...], ev: list[Event]) -> State:
        """Rules, 千日手: the drawn order places the seats still holding cards."""
        if sorted(seats) != sorted(self._unplaced(state)):
            raise IllegalActionError(
                f"places are the seats still holding cards {self._unplaced(state)} in some "
                f"order, not {list(seats)}",
                rule="stalemate",
            )
        s = state.copy()
        s.finished = (*s.finished, *seats)
        for x in seats:
            s.discards = C.add(s.discards, s.hands[x])
        s.hands = tuple(0 if x in seats else h for x, h in enumerate(s.hands))
        ev.append(
            Event(
                "places",
                "places drawn: " + ", ".join(s.players[x] for x in seats),
                {"seats": list(seats)},
            )
        )
        return self._end_game(s, ev)

    # end of a game
    def _end_game(self, s: State, ev: list[Event]) -> State:
        """Rules, Titles and points; the next game's order; the game's events."""
        game_no = s.game_no
        finish, last_hand, pts = self._close_game(s)
        cheaters = s.results[-1].cheaters
        over = s.points if s.phase == "over" else None
        E.end_events(s.players, game_no, finish, s.titles, pts, cheaters, last_hand, over, ev)
        return s

    def _close_game(self, s: State) -> tuple[list[int], tuple[int, ...], tuple[int, ...]]:
        """The end of a game on ``s``: places, titles, points, the next order (no events).

        Returns the finishing order, the last player's hand and the game's points.
        """
        n = len(s.players)
        rules = s.rules
        finish = list(s.finished)
        last_hand: tuple[int, ...] = ()
        hands = s.hands
        for x in s.order:
            if hands[x]:
                finish.append(x)
                last_hand = s.hand(x)
                s.discards = C.add(s.discards, hands[x])
        if s.fallen >= 0:
            finish.append(s.fallen)
        for p in s.field:
            s.discards = C.add(s.discards, p.combo.cards)
        s.field = ()
        s.passed = frozenset()
        s.lock, s.back, s.follow_up = 0, False, None
        titles: list[str] = ["daihinmin"] * n
        names = titles_for(len(finish) + 1)[: len(finish)] if s.cheaters else titles_for(n)
        for x, t in zip(finish, names, strict=True):
            titles[x] = t
        final = s.game_no == rules.games
        tp = rules.title_points
        pts = tuple([tp(t, final=final) for t in titles])
        s.results = (
            *s.results,
            GameResult(s.game_no, tuple(finish), s.cheaters, tuple(titles), pts, last_hand),
        )
        s.points = tuple(map(operator.add, s.points, pts))
        s.titles = tuple(titles)
        if rules.turn_order == "seats":
            dealer = finish[0] if finish else 0  # UECda deals from the 大富豪
            s.order = tuple((dealer + i) % n for i in range(n))
        else:
            cheaters = sorted(s.cheaters, key=lambda x: s.players[x])
            s.order = (*cheaters, *reversed(finish))
        s.hands = (0,) * n
        s.turn = s.last = -1
        s.steps = ()
        s.game_no += 1
        s.phase = "over" if s.game_no > rules.games else "deal"
        return finish, last_hand, pts

    # --- defaults ---------------------------------------------------------------------------
    def apply_default(self, state: DaifugoState, seat: Seat) -> tuple[DaifugoState, list[Event]]:
        """The host's choice on a timeout, an absence or an illegal play (rules: Time and absence).

        Play: pass; a leader who may not pass plays its weakest single card. A 7 pass or 10
        discard: the weakest cards. Exchange: the strongest cards for a tribute, the weakest for
        a gift (never cheating).
        """
        self.check_turn(state, seat)
        if seat == CHANCE:
            raise IllegalActionError("chance has no default; draw with sample_chance")
        ev = [
            Event(
                "timeout",
                f"{state.players[seat]} timed out; the host acts",
                {"seat": seat, "phase": state.phase},
            )
        ]
        due = state.follow_up
        if state.phase == "exchange":
            step = state.exchange_step()
            assert step is not None
            hand = state.hand(seat)
            pick = C.strongest if step.kind == "tribute" else C.weakest
            how = "the host chose, timeout"
            new = self._transfer(state, step, pick(hand, step.count), ev, how=how)
        elif due is not None:
            weakest = tuple(C.cards_str(C.weakest(state.hand(seat), due.count)))
            new = self._follow_up(state, seat, weakest, ev)
        elif self.may_pass(state):
            new = self._pass(state, seat, ev, auto=False)
        else:
            weakest_single = Play((C.card_str(state.hand(seat)[0]),))
            new = self._play(state, seat, weakest_single, ev)
        new.log_chain = (new.log_chain, list(ev))
        return new, ev

    # --- outcome and tests ------------------------------------------------------------------
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

    def conformance_rules(self) -> list[DaifugoRules]:
        """Short sets with the source's rules, the UECda rules, and every local rule."""
        return [
            DaifugoRules(games=3),
            DaifugoRules(games=2, revolution=False, eight_cut=False, spade3_return=False),
            DaifugoRules(games=2, cheating="reject", daifugo_exchange=1, max_group=4),
            self.make_rules({"preset": "uecda", "games": 3}),
            DaifugoRules(
                games=3,
                sequences=True,
                suit_lock=True,
                eleven_back=True,
                five_skip=True,
                seven_pass=True,
                ten_discard=True,
                miyako_ochi=True,
                lead_pass=True,
                stalemate_passes=6,
            ),
            DaifugoRules(),
        ]

    def conformance_action(
        self, state: DaifugoState, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """Uniform, except that an exchange is sometimes a broken one (to exercise cheating)."""
        if state.phase == "exchange" and state.rules.cheating != "reject" and rng.random() < 0.15:
            bad = Give(tuple(C.cards_str(state.hand(seat)[:1])))
            if bad in legal:
                return bad
        return legal[rng.randrange(len(legal))]


def _subset_actions(
    hand: tuple[int, ...], count: int, kind: type[Give] | type[Discard]
) -> Sequence[Action]:
    """Every distinct choice of ``count`` cards of ``hand`` as ``kind`` actions, listed lazily."""
    distinct = sorted(set(hand))
    jokers = hand.count(C.JOKER)
    naturals = [c for c in distinct if c != C.JOKER]
    # Choices = naturals chosen (combinations) x jokers chosen (0..jokers), counted exactly.
    sizes = [(j, comb(len(naturals), count - j)) for j in range(min(jokers, count) + 1)]
    total = sum(k for _, k in sizes)

    def item(i: int) -> Action:
        for j, k in sizes:
            if i < k:
                chosen = _nth_combination(naturals, count - j, i)
                return kind(tuple(C.cards_str((*chosen, *(C.JOKER,) * j))))
            i -= k
        raise IndexError(i)

    def contains(action: object) -> bool:
        if type(action) is not kind:
            return False
        cards = C.parse_cards(action.cards)
        return cards is not None and len(cards) == count and C.contains(hand, cards)

    return LazyActions(total, item, contains, {"kind": kind.__name__.lower(), "count": count})


def _nth_combination(pool: Sequence[int], k: int, index: int) -> tuple[int, ...]:
    """The ``index``-th ``k``-combination of ``pool`` in lexicographic order."""
    out = []
    start = 0
    for left in range(k, 0, -1):
        for i in range(start, len(pool)):
            count = comb(len(pool) - i - 1, left - 1)
            if index < count:
                out.append(pool[i])
                start = i + 1
                break
            index -= count
    return tuple(out)


def _nth_permutation(items: Sequence[int], index: int) -> tuple[int, ...]:
    """The ``index``-th permutation of ``items`` (in the order of ``itertools.permutations``)."""
    pool = list(items)
    out = []
    for left in range(len(pool), 0, -1):
        i, index = divmod(index, factorial(left - 1))
        out.append(pool.pop(i))
    return tuple(out)


def forced_deal(state: DaifugoState, hands: Mapping[int, Sequence[str]]) -> Deal:
    """A deal giving each listed seat the listed cards first (the rest in deck order).

    For tests and puzzles: ``forced_deal(state, {0: ["3s", "JK"]})`` deals seat 0 both cards
    plus fillers up to its deal size (rules: Deal, one card at a time from the first seat).

    Raises:
        ValueError: A card is unknown, listed twice, or a seat gets more than its deal size.
    """
    n = len(state.players)
    order = state.order
    deck = C.deck(state.rules.jokers)
    sizes = {order[i]: len(range(i, len(deck), n)) for i in range(n)}
    pool = list(deck)
    want: dict[int, list[int]] = {}
    for seat, texts in hands.items():
        got = C.parse_cards(texts)
        if got is None or len(got) > sizes[seat]:
            raise ValueError(f"seat {seat}: bad or too many cards {list(texts)}")
        for c in got:
            if c not in pool:
                raise ValueError(f"seat {seat}: {C.card_str(c)} is not in the deck or dealt twice")
            pool.remove(c)
        want[seat] = list(got)
    for seat in order:
        mine = want.setdefault(seat, [])
        while len(mine) < sizes[seat]:
            mine.append(pool.pop(0))
    dealt = [want[order[i % n]][i // n] for i in range(len(deck))]
    return Deal(tuple(C.cards_str(dealt)))
