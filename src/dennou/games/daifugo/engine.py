"""Daifugo (大富豪, "Millionaire"): the rules, as the rules page reads.

Rules: ``docs/games/daifugo.md``. 54 cards (two wild jokers) are dealt to 2-8 players. The
leader plays 1-6 cards of one rank; each next player plays as many cards of a stronger rank or
passes (and stays out until the field flushes). When everyone else has passed the field flushes
and the last player leads. 4+ cards make a revolution (革命: the order reverses); 8s flush the
field at once (八切り); the 3 of spades beats a single joker (スペ3返し). The first out is
大富豪, the last 大貧民; titles earn points, and the last game of a set of 10 earns more. From
game 2 the titles exchange cards before play; a broken exchange submission is cheating: the
cheater's hand is shown and discarded and they are 大貧民 (all cheat: the game is void and dealt
again). One state (and one record) is a whole set.

This module holds the rules. Listing plays and testing "can this hand beat the top" go through
:mod:`.fast` (tables on card sets, checked against :mod:`.cards` in the tests); views, rendering
and bots are assembled with these rules in :mod:`.game`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from dennou.core.actions import Action, LazyActions
from dennou.core.errors import GameOverError, IllegalActionError, NotYourTurnError
from dennou.core.game import CHANCE, JSON, Event, Game, GameSpec, Outcome, Seat
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import fast as F
from dennou.games.daifugo.actions import CODEC, Deal, Give, Pass, Play
from dennou.games.daifugo.cards import Combo
from dennou.games.daifugo.rules import TITLE_KANJI, DaifugoRules, titles_for
from dennou.games.daifugo.state import DaifugoState, ExchangeStep, GameResult, Played

State = DaifugoState

_PASS = Pass()
_SORTED_DECK = list(C.DECK)
_ONE_SEAT: dict[Seat, frozenset[Seat]] = {i: frozenset((i,)) for i in range(-1, 8)}


def _put(seq: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*seq[:i], value, *seq[i + 1 :])


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
        state = self._state
        if type(action) is Pass:
            return self._rules.may_pass(state)
        if type(action) is Play:
            try:
                self._rules.reading(state, self._seat, action)
            except IllegalActionError:
                return False
            return True
        return False


class DaifugoEngine(Game[DaifugoState, DaifugoRules]):
    """The rules of Daifugo (a whole set of games per state and record)."""

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
        return DaifugoState(
            rules=rules,
            players=tuple(players),
            order=tuple(sorted(range(n), key=lambda s: players[s])),
            hands=(0,) * n,
            titles=(None,) * n,
            points=(0,) * n,
        )

    def to_act(self, state: DaifugoState) -> frozenset[Seat]:
        """Deal: chance; exchange: the giver of the current step; play: the seat to play."""
        phase = state.phase
        if phase == "play":
            return _ONE_SEAT[state.turn]
        if phase == "deal":
            return _ONE_SEAT[CHANCE]
        if phase == "exchange":
            step = state.exchange_step()
            assert step is not None
            return _ONE_SEAT[step.giver]
        return frozenset()

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

        Deals are too many to list (any ordering of the deck is accepted). In the exchange the
        sequence lists the honest choices, but with ``cheating="penalty"`` it *contains* every
        ``give`` (a broken one is applied as cheating). Plays are listed in full; a play given
        in other card order or spelling (``Th`` for ``10h``) is contained too.
        """
        phase = state.phase
        if phase == "play":
            if seat != state.turn:
                return []
            out = LegalPlays()
            out._rules, out._state, out._seat = self, state, seat
            self._add_plays(out, F.PLAYS, state, seat)
            if self.may_pass(state):
                out.append(_PASS)
            return out
        if seat not in self.to_act(state) or seat == CHANCE:
            return []
        return self._exchange_actions(state, seat)

    def legal_combos(self, state: DaifugoState, seat: Seat) -> list[Combo]:
        """The combinations ``seat`` may play now (empty unless it is their turn)."""
        out: list[Combo] = []
        if state.phase == "play" and seat == state.turn:
            self._add_plays(out, F.COMBOS, state, seat)
        return out

    def _add_plays(self, out: list[Any], which: int, state: DaifugoState, seat: Seat) -> None:
        rules = state.rules
        hand = state.hands[seat]
        top = state.top
        if top is None:
            F.add_leads(out, which, hand, rules.max_group)
        else:
            F.add_follows(
                out,
                which,
                hand,
                top.combo,
                state.revolution,
                top.returned,
                rules.spade3_return,
                rules.max_group,
            )

    def may_pass(self, state: DaifugoState) -> bool:
        """Whether the seat to play may pass: not on an empty field (rules: Plays)."""
        return bool(state.field)

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
        if phase != "play" or seat != state.turn:  # the seat to play needs no more checking
            self._check_turn(state, seat)
        ev: list[Event] = []
        if phase == "play" and kind is Play:
            new = self._play(state, seat, action, ev)  # type: ignore[arg-type]
        elif phase == "play" and kind is Pass:
            new = self._pass(state, seat, ev)
        elif phase == "deal" and kind is Deal:
            new = self._deal(state, action, ev)  # type: ignore[arg-type]
        elif phase == "exchange" and kind is Give:
            new = self._give(state, seat, action.cards, ev)  # type: ignore[attr-defined]
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
        deck = [C.CARD_CODES.get(c) if type(c) is str else None for c in action.deck]
        if None in deck:
            deck = [C.parse_card(c) for c in action.deck]  # other spellings (``joker``)
        if None in deck or sorted(deck) != _SORTED_DECK:  # type: ignore[type-var]
            raise IllegalActionError(
                "a deal is the 54 cards (52 + 2 JK), each once, in dealing order — rules: Cards",
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
        s.revolution = False
        s.turn = -1
        ev.append(
            Event(
                "deal",
                f"game {s.game_no}: cards dealt; {s.players[s.order[0]]} leads",
                {"game": s.game_no, "order": list(s.order), "counts": [len(h) for h in dealt]},
            )
        )
        for seat, hand in enumerate(dealt):
            ev.append(
                Event(
                    "hand",
                    "your hand: " + C.cards_symbols(hand),
                    {"seat": seat, "cards": C.cards_str(hand)},
                    frozenset((seat,)),
                )
            )
        s.steps = self._exchange_plan(s) if s.rules.exchange and s.game_no > 1 else ()
        if s.steps:
            s.phase = "exchange"
            return s
        return self._start_play(s, ev)

    def _exchange_plan(self, s: State) -> tuple[ExchangeStep, ...]:
        """Rules, Exchange: 大貧民 → 大富豪, 大富豪 → 大貧民, 貧民 → 富豪, 富豪 → 貧民."""
        rules = s.rules

        def first(title: str) -> int | None:
            seats = [i for i, t in enumerate(s.titles) if t == title]
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
        cards = C.card_set(given)
        s.hands = _put(s.hands, giver, C.remove(s.hands[giver], cards))
        lost = receiver in s.cheaters
        if lost:
            s.discards = C.add(s.discards, cards)
        else:
            s.hands = _put(s.hands, receiver, C.add(s.hands[receiver], cards))
        done = ExchangeStep(giver, receiver, step.count, step.kind, given, False, True)
        s.steps = _put(s.steps, s.steps.index(step), done)
        host = " (the host chose, timeout)" if timeout else ""
        text = f"{s.players[giver]} gives {step.count} card(s) to {s.players[receiver]}{host}"
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
        """Rules, Cheating: the hand is shown to all and discarded; the cheater is out."""
        s = state.copy()
        hand = s.hand(seat)
        s.discards = C.add(s.discards, s.hands[seat])
        s.hands = _put(s.hands, seat, 0)
        s.cheaters = (*s.cheaters, seat)
        cheated = ExchangeStep(step.giver, step.receiver, step.count, step.kind, (), True, True)
        s.steps = _put(s.steps, s.steps.index(step), cheated)
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
            s.hands = (0,) * len(s.players)
            s.discards = 0
            return s
        if len(honest) == 1:
            return self._end_game(s, ev)
        return self._start_play(s, ev)

    # play
    def _start_play(self, s: State, ev: list[Event]) -> State:
        s.phase = "play"
        self._lead(s, next(seat for seat in s.order if s.active(seat)), ev)
        return s

    def reading(self, state: State, seat: Seat, action: Play) -> Combo:
        """The combination ``action`` plays, if ``seat`` may play it now (rules: Plays).

        Raises:
            IllegalActionError: Not cards, not a group, not in the hand, or does not beat the
                field; the message names the rule.
        """
        rules = state.rules
        readings = F.readings(action.cards, rules.max_group, False, False)
        if readings is None:
            raise IllegalActionError(
                f"{list(action.cards)} are not all cards (e.g. 3s 10h Qd JK)", seat=seat
            )
        if not readings:
            raise IllegalActionError(
                f"a play is 1-{rules.max_group} cards of one rank (jokers wild), not "
                f"{list(action.cards)} — rules: Plays",
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
                reverse=state.revolution,
                returned=top.returned,
                spade3_return=rules.spade3_return,
            ):
                return combo
        raise IllegalActionError(
            f"{list(readings[0].strs())} does not beat the field {list(top.combo.strs())}: a "
            f"play needs {top.combo.size} card(s), stronger"
            + (" under revolution" if state.revolution else "")
            + " — rules: Plays",
            seat=seat,
            rule="follow",
        )

    def _play(self, state: State, seat: Seat, action: Play, ev: list[Event]) -> State:
        """Rules, Plays: the play goes on the field; revolution, 8-cut, finishing; turn on."""
        combo = self.reading(state, seat, action)
        rules = state.rules
        top = state.top
        s = state.copy()
        returned = C.is_spade3_return(combo, top and top.combo)
        s.hands = _put(s.hands, seat, C.remove(s.hands[seat], combo.cards))
        s.field = (*s.field, Played(seat, combo, returned))
        revolts = (
            rules.revolution
            and combo.size >= rules.revolution_size
            and not combo.jokers_only
            and not returned
        )
        if revolts:
            s.revolution = not s.revolution
        cut = rules.eight_cut and combo.count(C.EIGHT) > 0
        ev.append(self._play_event(s, seat, combo, revolts=revolts, cut=cut, returned=returned))
        if not s.hands[seat]:
            s.finished = (*s.finished, seat)
            ev.append(
                Event(
                    "out",
                    f"{s.players[seat]} is out (#{len(s.finished)})",
                    {"seat": seat, "place": len(s.finished)},
                )
            )
            if sum(1 for h in s.hands if h) <= 1:
                return self._end_game(s, ev)
        if cut:
            self._flush(s, ev, "8-cut")
            self._lead(s, seat if s.active(seat) else self._next_active(s, seat), ev)
            return s
        return self._advance(s, seat, ev)

    def _play_event(
        self, s: State, seat: Seat, combo: Combo, *, revolts: bool, cut: bool, returned: bool
    ) -> Event:
        text = f"{s.players[seat]} plays {F.symbols(combo)}"
        tags = []
        if revolts:
            tags.append("revolution" if s.revolution else "counter-revolution")
        if cut:
            tags.append("8-cut")
        if returned:
            tags.append("spade-3 return")
        if tags:
            text += f" ({', '.join(tags)})"
        data = {
            "seat": seat,
            "cards": list(F.play_of(combo).cards),
            "revolution": s.revolution,
            "revolts": revolts,
            "cut": cut,
            "returned": returned,
        }
        return Event("play", text, data)

    def _pass(self, state: State, seat: Seat, ev: list[Event]) -> State:
        if not self.may_pass(state):
            raise IllegalActionError(
                "the leader may not pass on an empty field — rules: Plays", seat=seat, rule="lead"
            )
        s = state.copy()
        s.passed = s.passed | {seat}
        ev.append(Event("pass", f"{s.players[seat]} passes", {"seat": seat, "auto": False}))
        return self._advance(s, seat, ev)

    def _after(self, s: State, seat: Seat) -> tuple[Seat, ...]:
        """The other seats in turn order, starting after ``seat``."""
        i = s.order.index(seat)
        return s.order[i + 1 :] + s.order[:i]

    def _next_active(self, s: State, seat: Seat) -> Seat:
        """The next seat after ``seat`` in turn order that still holds cards."""
        return next(x for x in self._after(s, seat) if s.active(x))

    def _advance(self, s: State, seat: Seat, ev: list[Event]) -> State:
        """Rules, Passing: the turn goes to the next seat still in the round that can play.

        Seats in the round that cannot beat the top are passed for (the host says so); when
        nobody but the last player is left in the round, the field flushes and that player
        leads (or, if out, the next active player after them).
        """
        top = s.field[-1]
        last = top.seat
        rules = s.rules
        for x in self._after(s, seat):
            if x == last or x in s.passed or not s.hands[x]:
                continue
            if F.can_follow(
                s.hands[x],
                top.combo,
                s.revolution,
                top.returned,
                rules.spade3_return,
                rules.max_group,
            ):
                s.turn = x
                return s
            s.passed = s.passed | {x}
            ev.append(
                Event("pass", f"{s.players[x]} passes (no legal play)", {"seat": x, "auto": True})
            )
        self._flush(s, ev, "all passed")
        self._lead(s, last if s.active(last) else self._next_active(s, last), ev)
        return s

    def _flush(self, s: State, ev: list[Event], why: str) -> None:
        """The field flushes (流れる): its cards go to the discards; passes are forgotten."""
        for p in s.field:
            s.discards = C.add(s.discards, p.combo.cards)
        s.field = ()
        s.passed = frozenset()
        ev.append(Event("flush", f"the field flushes ({why})", {"reason": why}))

    def _lead(self, s: State, seat: Seat, ev: list[Event]) -> None:
        s.turn = seat
        ev.append(Event("lead", f"{s.players[seat]} leads", {"seat": seat}))

    # end of a game
    def _end_game(self, s: State, ev: list[Event]) -> State:
        """Rules, Titles and points; the next game's order (reverse finishing order)."""
        n = len(s.players)
        rules = s.rules
        finish = list(s.finished)
        last_hand: tuple[int, ...] = ()
        for x in s.order:
            if s.active(x):
                finish.append(x)
                last_hand = s.hand(x)
                s.discards = C.add(s.discards, s.hands[x])
        for p in s.field:
            s.discards = C.add(s.discards, p.combo.cards)
        s.field = ()
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
        s.hands = (0,) * n
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
            hand = state.hand(seat)
            pick = C.strongest if step.kind == "tribute" else C.weakest
            new = self._transfer(state, step, pick(hand, step.count), ev, timeout=True)
        elif self.may_pass(state):
            new = self._pass(state, seat, ev)
        else:
            weakest = Play((C.card_str(state.hand(seat)[0]),))
            new = self._play(state, seat, weakest, ev)
        new.log_chain = (new.log_chain, tuple(ev))
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
            bad = Give(tuple(C.cards_str(state.hand(seat)[:1])))
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
