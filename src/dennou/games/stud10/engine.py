"""10-card stud (10カードスタッド): the weakest hand reveals until all cards are up.

Rules: ``docs/games/stud10.md`` (from source ``003``). Five players each ante and get ten cards:
five door cards face up and five hole cards face down, unknown even to their owner. While
anyone has hole cards, the players with hole cards whose best five face-up cards are weakest
(all of them when tied) each turn up one of their hole cards, chosen at random. Then the best
five of ten wins the pot; exact ties split it, the indivisible remainder to the lowest seat. A
session is a sequence of hands with stacks carried over; who cannot pay the ante sits out.

Players make no decisions: every step is a chance action of the host (the deal, then each
reveal), so the game runs by itself; it is still a full game of the contract, with views,
records and replay. Views carry each player's live odds (``views.live_odds``, from
:mod:`.odds`), computed only when a view asks: the engine never computes them.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from typing import Any

from dennou.core.actions import Action, LazyActions
from dennou.core.errors import GameOverError, IllegalActionError, NotYourTurnError
from dennou.core.game import (
    CHANCE,
    DuplicateDeals,
    Event,
    Game,
    GameSpec,
    Learning,
    Outcome,
    Seat,
    handles,
)
from dennou.core.immutable import replace
from dennou.games.stud10.actions import CODEC, Deal, Reveal
from dennou.games.stud10.cards import CODE as _CODE
from dennou.games.stud10.cards import DECK
from dennou.games.stud10.eval import describe
from dennou.games.stud10.rules import Stud10Rules
from dennou.games.stud10.state import Stud10State, strength

PLAYERS = 5
DOOR = 5
HOLE = 5


State = Stud10State


def split_pot(pot: int, winners: Sequence[int]) -> dict[int, int]:
    """Chips each winner takes: equal shares, the remainder to the lowest seat (rules: Showdown)."""
    share, rest = divmod(pot, len(winners))
    out = {w: share for w in winners}
    out[min(winners)] += rest
    return out


def one_hand_only(rules: dict[str, Any]) -> str | None:
    """Why duplicate deals are refused under ``rules`` (``None``: one-hand sessions share them)."""
    if rules.get("hands") != 1:
        return (
            "stud10 shares deals only in one-hand sessions (hands=1): the reveals of a hand "
            "draw from the stream, so later decks depend on play"
        )
    return None


class Stud10(Game[Stud10State, Stud10Rules]):
    """The 10-card stud engine."""

    spec = GameSpec(
        name="stud10",
        title="10-Card Stud (10カードスタッド)",
        version=1,
        min_players=PLAYERS,
        max_players=PLAYERS,
        chance=True,
        hidden_information=True,
        decisions=False,
        heavy_views=True,
        duplicate=DuplicateDeals(("deal",), "the deck (one-hand sessions)", one_hand_only),
        learning=Learning("dennou.games.stud10.encoding:Stud10Encoding", 5),
        board="stud10",
    )
    rules_type = Stud10Rules
    codec = CODEC
    unit = "session"

    # --- setup ------------------------------------------------------------------------------
    def new(self, rules: Stud10Rules, players: Sequence[str]) -> Stud10State:
        """Start a session: everyone has ``rules.stack`` chips; chance deals the first hand."""
        self.check_players(players)
        n = len(players)
        return Stud10State(
            rules=rules,
            players=tuple(players),
            stacks=(rules.stack,) * n,
            up=((),) * n,
            hole=((),) * n,
        )

    def to_act(self, state: Stud10State) -> frozenset[Seat]:
        """Chance alone acts (deals and reveals) until the session is over."""
        return frozenset() if state.phase == "over" else frozenset({CHANCE})

    def sample_chance(self, state: Stud10State, rng: random.Random) -> Action:
        """A shuffled deck, or one random hole card for each revealing player."""
        if state.phase == "deal":
            deck = list(DECK)
            rng.shuffle(deck)
            return Deal(tuple(deck))
        if state.phase == "reveal":
            return Reveal(tuple(DECK[rng.choice(state.hole[s])] for s in state.revealing()))
        raise GameOverError("the session is over")

    def legal_actions(self, state: Stud10State, seat: Seat) -> Sequence[Action]:
        """Chance's outcomes at a reveal (one hole card per revealing player); else nothing.

        Deals (52! orders) are too many to list: any permutation of the deck is legal.
        """
        if seat != CHANCE or state.phase != "reveal":
            return []
        options = [state.hole[s] for s in state.revealing()]
        total = math.prod(len(o) for o in options)
        if total <= 64:
            return all_reveals(state)

        def item(i: int) -> Reveal:
            picks: list[str] = []
            for o in reversed(options):
                i, r = divmod(i, len(o))
                picks.append(DECK[o[r]])
            return Reveal(tuple(reversed(picks)))

        def contains(a: object) -> bool:
            return isinstance(a, Reveal) and self._reveal_error(state, a) is None

        return LazyActions(total, item, contains, {"form": "reveal <card per revealing seat>"})

    # --- transitions ------------------------------------------------------------------------
    def check_turn(self, state: Stud10State, seat: Seat) -> None:
        """Only chance acts: a player's seat is told so (rules: Reveal loop)."""
        if seat != CHANCE and state.phase != "over":
            raise NotYourTurnError(
                f"seat {seat} never acts in 10-card stud: the host deals and reveals",
                section="Reveal loop",
                seat=seat,
                phase=state.phase,
            )
        super().check_turn(state, seat)

    def commit(self, old: State, new: State, events: list[Event]) -> State:
        """The log keeps every event (all public); odds are the views' (computed when asked)."""
        return replace(new, log=old.log + tuple(events))

    @handles("deal", Deal)
    def _deal(self, state: State, seat: Seat, action: Deal, ev: list[Event]) -> State:
        cards = action.cards
        if len(cards) != 52 or any(c not in _CODE for c in cards) or len(set(cards)) != 52:
            raise IllegalActionError(
                "a deal is the whole deck: each of the 52 cards (As, Td, 2c...) exactly once",
                section="Deal",
                phase="deal",
                rule="deal",
            )
        rules = state.rules
        n = len(state.players)
        seated = tuple(s for s in range(n) if state.stacks[s] >= rules.ante)
        hand = state.hand + 1
        stacks = tuple(st - rules.ante if s in seated else st for s, st in enumerate(state.stacks))
        pot = rules.ante * len(seated)
        up: list[tuple[int, ...]] = [()] * n
        hole: list[tuple[int, ...]] = [()] * n
        codes = [_CODE[c] for c in cards]
        for i, s in enumerate(seated):
            base = 10 * i
            up[s] = tuple(codes[base : base + DOOR])
            hole[s] = tuple(codes[base + DOOR : base + DOOR + HOLE])
        out = [s for s in range(n) if s not in seated]
        ev.append(
            Event(
                "deal",
                f"hand {hand}: {len(seated)} players ante {rules.ante}, pot {pot}"
                + (
                    "; sitting out (cannot pay the ante): "
                    + ", ".join(state.players[s] for s in out)
                    if out
                    else ""
                ),
                {"hand": hand, "in_hand": list(seated), "sitting_out": out, "pot": pot},
            )
        )
        for s in seated:
            ev.append(
                Event(
                    "door",
                    f"{state.players[s]} shows {' '.join(DECK[c] for c in up[s])}: "
                    f"{describe(strength(up[s]))}",
                    {"seat": s, "cards": [DECK[c] for c in up[s]]},
                )
            )
        dealt = replace(
            state,
            phase="reveal",
            hand=hand,
            stacks=stacks,
            pot=pot,
            in_hand=seated,
            up=tuple(up),
            hole=tuple(hole),
            reveals=0,
        )
        return dealt

    def _reveal_error(self, state: State, action: Reveal) -> str | None:
        seats = state.revealing()
        if len(action.cards) != len(seats):
            names = ", ".join(state.players[s] for s in seats)
            return (
                f"{len(seats)} player(s) reveal now ({names}: the weakest with hole cards, all "
                f"at once when tied), so a reveal names {len(seats)} card(s), got "
                f"{len(action.cards)}"
            )
        for s, card in zip(seats, action.cards, strict=True):
            code = _CODE.get(card)
            if code is None or code not in state.hole[s]:
                return f"{card!r} is not one of {state.players[s]}'s face-down hole cards"
        return None

    @handles("reveal", Reveal)
    def _reveal(self, state: State, seat: Seat, action: Reveal, ev: list[Event]) -> State:
        error = self._reveal_error(state, action)
        if error is not None:
            raise IllegalActionError(error, section="Reveal loop", phase=state.phase, rule="reveal")
        seats = state.revealing()
        up = list(state.up)
        hole = list(state.hole)
        tied = len(seats) > 1
        for s, card in zip(seats, action.cards, strict=True):
            code = _CODE[card]
            hole[s] = tuple(c for c in hole[s] if c != code)
            up[s] = (*up[s], code)
            ev.append(
                Event(
                    "reveal",
                    f"{state.players[s]} reveals {card}"
                    + (" (tied weakest)" if tied else "")
                    + f": {describe(strength(up[s]))}",
                    {"seat": s, "card": card, "tied": list(seats), "holes": len(hole[s])},
                )
            )
        state = replace(state, up=tuple(up), hole=tuple(hole), reveals=state.reveals + 1)
        if any(state.hole[s] for s in state.in_hand):
            return state
        return self._showdown(state, ev)

    def _showdown(self, state: State, ev: list[Event]) -> State:
        scores = {s: strength(state.up[s]) for s in state.in_hand}
        best = max(scores.values())
        winners = [s for s in state.in_hand if scores[s] == best]
        paid = split_pot(state.pot, winners)
        stacks = tuple(st + paid.get(s, 0) for s, st in enumerate(state.stacks))
        names = " and ".join(state.players[w] for w in winners)
        split = f" split {state.pot}" if len(winners) > 1 else f" wins {state.pot}"
        ev.append(
            Event(
                "showdown",
                f"hand {state.hand}: {names}{split} with {describe(best)}",
                {
                    "hand": state.hand,
                    "winners": winners,
                    "pot": state.pot,
                    "payouts": [paid.get(s, 0) for s in range(len(state.players))],
                    "scores": [scores.get(s) for s in range(len(state.players))],
                    "stacks": list(stacks),
                },
            )
        )
        state = replace(state, stacks=stacks, pot=0, phase="deal")
        rules = state.rules
        able = sum(1 for st in stacks if st >= rules.ante)
        if (rules.hands and state.hand >= rules.hands) or able < 2:
            why = (
                f"{state.hand} hand(s) played"
                if rules.hands and state.hand >= rules.hands
                else "fewer than two players can pay the ante"
            )
            ev.append(
                Event(
                    "session_over",
                    f"session over ({why}); stacks "
                    + ", ".join(f"{p} {st}" for p, st in zip(state.players, stacks, strict=True)),
                    {"hands": state.hand, "stacks": list(stacks), "reason": why},
                )
            )
            return replace(state, phase="over")
        return state

    def apply_default(self, state: Stud10State, seat: Seat) -> tuple[Stud10State, list[Event]]:
        """Players never act, so there is no default to apply.

        Raises:
            GameOverError: The session is over.
            NotYourTurnError: Always otherwise (only chance acts).
        """
        self.check_default(state, seat)
        raise AssertionError("unreachable: only chance acts")  # pragma: no cover

    # --- outcome ----------------------------------------------------------------------------
    def outcome(self, state: Stud10State) -> Outcome:
        """Scores are chips won or lost over the session; ranks follow them."""
        self.check_over(state)
        start = state.rules.stack
        return Outcome.from_scores(
            [st - start for st in state.stacks],
            detail={"stacks": list(state.stacks), "hands": state.hand},
        )

    # --- tests ------------------------------------------------------------------------------
    def conformance_rules(self) -> list[Stud10Rules]:
        """One hand with odds in views; sessions with small stacks, so that players sit out."""
        return [
            Stud10Rules(odds_samples=2_000, odds_exact_limit=20_000),
            Stud10Rules(hands=3, stack=2, ante=1, view_odds=False),
            Stud10Rules(hands=0, stack=1, ante=1, view_odds=False),
            Stud10Rules(hands=2, stack=5, ante=2, odds_samples=500, odds_exact_limit=2_000),
        ]


def all_reveals(state: Stud10State) -> list[Reveal]:
    """Every possible reveal now (for tests and tools)."""
    options = [state.hole[s] for s in state.revealing()]
    return [Reveal(tuple(DECK[c] for c in combo)) for combo in itertools.product(*options)]
