"""Shared helpers of the Daifugo tests: forced deals, short moves, batch rows in the engine."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from dennou.core.game import CHANCE
from dennou.games.daifugo import GAME
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.actions import Deal, Discard, Give, Pass, Play
from dennou.games.daifugo.engine import forced_deal
from dennou.games.daifugo.rules import DaifugoRules
from dennou.games.daifugo.state import DaifugoState, GameResult


def new(n: int = 4, **opts: Any) -> DaifugoState:
    """A new set of ``n`` players ``p0``.. with these rules options (``preset`` allowed)."""
    return GAME.new(GAME.make_rules(opts), [f"p{i}" for i in range(n)])


def dealt(
    hands: dict[int, str], n: int = 4, *, lead: int | None = None, **opts: Any
) -> DaifugoState:
    """A forced deal, then each listed seat keeps exactly its listed cards (play phase).

    Seats not listed hold nothing; every other card goes to the discards, so every card stays
    accounted for. ``lead``: who is to lead (default: whom the rules chose on the deal).
    """
    state = new(n, **opts)
    spec = {s: h.split() for s, h in hands.items()}
    state, _ = GAME.apply(state, CHANCE, forced_deal(state, spec))
    s = state.copy()
    keep = {seat: C.card_set(C.parse_cards(h.split()) or ()) for seat, h in hands.items()}
    rest = 0
    for seat in range(n):
        rest = C.add(rest, C.remove(s.hands[seat], keep.get(seat, 0)))
    s.hands = tuple(keep.get(seat, 0) for seat in range(n))
    s.discards = C.add(s.discards, rest)
    if lead is not None:
        s.turn = s.last = lead
    return s


def play(state: DaifugoState, seat: int, cards: str) -> DaifugoState:
    """``seat`` plays ``cards`` (space-separated wire forms)."""
    new_state, _ = GAME.apply(state, seat, Play(tuple(cards.split())))
    return new_state


def pass_(state: DaifugoState, seat: int) -> DaifugoState:
    """``seat`` passes."""
    new_state, _ = GAME.apply(state, seat, Pass())
    return new_state


def top(state: DaifugoState) -> list[str]:
    """The top play's cards in wire form."""
    assert state.top is not None
    return list(state.top.combo.strs())


def hand(state: DaifugoState, seat: int) -> list[str]:
    """A seat's hand in wire form."""
    return C.cards_str(state.hand(seat))


def after_game1(n: int, titles: tuple[str, ...], finish: tuple[int, ...], **opts: Any) -> Any:
    """A state after game 1 with the given titles (finish order) ready for game 2's deal.

    The turn order is the rules': reverse finishing order (cheaters, the seats not in
    ``finish``, first), or by seat from the 大富豪 (``turn_order="seats"``).
    """
    state = new(n, **opts)
    cheaters = tuple(s for s in range(n) if s not in finish)
    if state.rules.turn_order == "seats":
        order = tuple((finish[0] + i) % n for i in range(n))
    else:
        names = [state.players[s] for s in cheaters]
        order = tuple(c for _, c in sorted(zip(names, cheaters, strict=True))) + finish[::-1]
    res = GameResult(1, finish, cheaters, titles, (0,) * n)
    return replace(state, game_no=2, titles=titles, order=order, results=(res,))


def play_out(state: DaifugoState) -> DaifugoState:
    """Play the current game to its end: each seat plays its first legal play (or passes)."""
    s = state
    game = s.game_no
    for _ in range(10_000):
        if s.game_no != game or s.phase in ("over", "deal"):
            return s
        (seat,) = GAME.to_act(s)
        if seat == CHANCE:
            s, _ = GAME.apply(s, CHANCE, GAME.sample_chance(s, random.Random(0)))
            continue
        legal = GAME.legal_actions(s, seat)
        plays = [a for a in legal if not isinstance(a, Pass)]
        s, _ = GAME.apply(s, seat, plays[0] if plays else legal[0])
    raise AssertionError("the game did not end")


def dealt_like_a_row(rules: DaifugoRules, hands: Sequence[int]) -> DaifugoState:
    """Game 1 of a set in the engine, dealt a batch row's hands (card sets; seat 0 dealt first).

    Seats are ``seat_0``.. in order, as the batch kernels seat them.
    """
    n = len(hands)
    state = GAME.new(rules, [f"seat_{i}" for i in range(n)])
    assert state.order == tuple(range(n))
    cards = [list(C.cards_in(int(h))) for h in hands]
    deck = [cards[i % n][i // n] for i in range(sum(len(c) for c in cards))]
    state, _ = GAME.apply(state, CHANCE, Deal(tuple(C.cards_str(deck))))
    assert state.phase == "play"
    return state


def made_for_the_player(state: DaifugoState) -> DaifugoState:
    """The batch kernels' 7 passes and 10 discards: the weakest cards in the current order."""
    while state.phase == "play" and state.follow_up is not None:
        due = state.follow_up
        seat = state.turn
        reverse = 1 if state.revolution != state.back else 0
        chosen = S._weakest(np.uint64(state.hands[seat]), due.count, reverse)
        texts = tuple(C.cards_str(C.cards_in(int(chosen))))
        action = Give(texts) if due.kind == "give" else Discard(texts)
        state, _ = GAME.apply(state, seat, action)
    return state
