"""The common local rules, each an option that defaults off (rules page: Local rules).

11-back (イレブンバック), 都落ち, 5 skip (5飛ばし), 7 pass (7渡し), 10 discard (10捨て): one
test per rule and a test that each is off by default (``docs/games/daifugo.md``).
"""

from __future__ import annotations

import pytest

from dennou.core.errors import IllegalActionError
from dennou.core.game import CHANCE
from dennou.games.daifugo import GAME, DaifugoRules
from dennou.games.daifugo import cards as C
from dennou.games.daifugo.actions import Discard, Give, Pass, Play
from dennou.games.daifugo.engine import forced_deal
from dennou.games.daifugo.state import DaifugoState

from .helpers import after_game1, dealt, hand, pass_, play, play_out, top


def legal(state: object, seat: int) -> list[str]:
    return [str(a) for a in GAME.legal_actions(state, seat)]  # type: ignore[arg-type]


def test_local_rules_are_off_by_default() -> None:
    """Rules page, Local rules: each defaults off."""
    rules = DaifugoRules()
    assert not any(
        (rules.eleven_back, rules.miyako_ochi, rules.five_skip, rules.seven_pass, rules.ten_discard)
    )
    s = dealt({0: "Js 7s 10s 5s 4c", 1: "9h", 2: "Qh"})
    for cards in ("Js", "7s", "10s", "5s"):
        after = play(s, 0, cards)
        assert not after.back and after.follow_up is None and after.turn in (1, 2)


# --- 11-back ------------------------------------------------------------------------------------
def test_eleven_back_reverses_the_order_until_the_flush() -> None:
    """Rules page, 11-back: a play containing a J reverses the order until the field flushes."""
    s = dealt({0: "Js 4c", 1: "9s Qs", 2: "2h"}, eleven_back=True)
    s, events = GAME.apply(s, 0, Play(("Js",)))
    assert s.back and s.reverse and "11-back" in events[0].text and events[0].data["back"]
    assert "play 9s" in legal(s, 1) and "play Qs" not in legal(s, 1)
    s = play(s, 1, "9s")  # seat 2 (2h: the weakest now) is passed for; seat 0 may answer
    assert s.turn == 0 and 2 in s.passed
    s = pass_(s, 0)
    assert s.top is None and not s.back and s.turn == 1


def test_eleven_back_and_revolution_cancel_out() -> None:
    """Rules page, 11-back: under a revolution a J turns the order back to normal."""
    s = dealt({0: "Js 4c", 1: "9s Qs", 2: "2h"}, eleven_back=True)
    s.revolution = True
    s = play(s, 0, "Js")
    assert s.back and s.revolution and not s.reverse
    assert "play Qs" in legal(s, 1) and "play 9s" not in legal(s, 1)


# --- 都落ち ----------------------------------------------------------------------------------
def game2(n: int = 4, **opts: object) -> DaifugoState:
    titles = ("daifugo", "fugo", "hinmin", "daihinmin")[:n]
    state = after_game1(n, titles, tuple(range(n)), exchange=False, games=3, **opts)
    state, _ = GAME.apply(state, CHANCE, forced_deal(state, {}))
    return state


def test_miyako_ochi_the_daifugo_not_first_out_falls_to_daihinmin() -> None:
    """Rules page, 都落ち: when another player goes out first, the last 大富豪 falls to 大貧民 at
    once (its cards are discarded)."""
    s = game2(miyako_ochi=True)
    leader = s.turn
    assert leader == 3 and s.titles[0] == "daifugo"
    s.hands = (C.card_set(C.parse_cards(["9s", "9h"]) or ()), *s.hands[1:3], 1 << 40)
    s.hands = (*s.hands[:3], C.card_set(C.parse_cards(["Qd"]) or ()))
    s, events = GAME.apply(s, 3, Play(("Qd",)))
    assert s.finished == (3,) and s.fallen == 0 and s.hands[0] == 0
    fall = [e for e in events if e.kind == "fall"]
    assert fall and fall[0].data["hand"] == ["9s", "9h"]
    assert GAME.view(s, 1)["fallen"] == 0
    s = play_out(s)
    result = s.results[1]
    assert result.finish[0] == 3 and result.finish[-1] == 0
    assert result.titles[0] == "daihinmin" and result.titles[3] == "daifugo"


def test_miyako_ochi_no_fall_when_the_daifugo_goes_out_first() -> None:
    """Rules page, 都落ち: a 大富豪 that goes out first keeps its place."""
    s = game2(miyako_ochi=True)
    s.hands = (C.card_set(C.parse_cards(["Qd"]) or ()), *s.hands[1:])
    s.turn = s.last = 0
    s = play(s, 0, "Qd")
    assert s.fallen == -1 and s.finished == (0,)


# --- 5 skip --------------------------------------------------------------------------------------
def test_five_skip_skips_one_player_per_five() -> None:
    """Rules page, 5 skip: a play skips the next player for each 5 in it (round the players
    still in the round); a skipped player has not passed."""
    s = dealt({0: "5s 5h 4c", 1: "9s 9h", 2: "10s 10h", 3: "Js Jh"}, five_skip=True)
    one = play(s, 0, "5s")
    assert one.turn == 2 and 1 not in one.passed
    two = play(s, 0, "5s 5h")
    assert two.turn == 3


def test_five_skip_in_a_sequence_counts_once() -> None:
    """Rules page, 5 skip: a sequence through 5 holds one 5."""
    s = dealt(
        {0: "4s 5s 6s 2c", 1: "9s 10s Js", 2: "9h 10h Jh", 3: "9d 10d Jd"},
        five_skip=True,
        sequences=True,
    )
    assert play(s, 0, "4s 5s 6s").turn == 2


# --- 7 pass ------------------------------------------------------------------------------------
def test_seven_pass_gives_one_card_per_seven_to_the_next_player() -> None:
    """Rules page, 7 pass: after playing 7s the player gives as many cards to the next player
    still holding cards (a decision), then the turn goes on."""
    s = dealt({0: "7s 7h 4c 9d Kd", 1: "9s", 2: "8h"}, seven_pass=True)
    s, events = GAME.apply(s, 0, Play(("7s", "7h")))
    assert s.turn == 0 and s.follow_up is not None and s.follow_up.count == 2
    assert s.follow_up.to == 1 and GAME.view(s, 2)["follow_up"] == {
        "seat": 0,
        "kind": "give",
        "count": 2,
        "to": 1,
    }
    moves = GAME.legal_actions(s, 0)
    assert len(moves) == 3 and Give(("4c", "9d")) in moves and Pass() not in moves
    with pytest.raises(IllegalActionError, match="7 pass"):
        GAME.apply(s, 0, Give(("4c",)))
    with pytest.raises(IllegalActionError):
        GAME.apply(s, 0, Pass())
    s, events = GAME.apply(s, 0, Give(("4c", "9d")))
    assert hand(s, 1) == ["4c", "9s", "9d"] and hand(s, 0) == ["Kd"]
    secret = [e for e in events if e.kind == "pass7_cards"]
    assert secret and secret[0].audience == frozenset({0, 1})
    assert s.follow_up is None and s.turn == 1


def test_seven_pass_of_the_last_cards_finishes() -> None:
    """Rules page, 7 pass: giving away the last cards is going out."""
    s = dealt({0: "7s 4c", 1: "9s", 2: "8h"}, seven_pass=True)
    s = play(s, 0, "7s")
    s, events = GAME.apply(s, 0, Give(("4c",)))
    assert s.finished == (0,) and any(e.kind == "out" for e in events)


# --- 10 discard ------------------------------------------------------------------------------
def test_ten_discard_discards_one_card_per_ten() -> None:
    """Rules page, 10 discard: after playing 10s the player discards as many cards."""
    s = dealt({0: "10s 4c 9d", 1: "Js", 2: "8h"}, ten_discard=True)
    s = play(s, 0, "10s")
    assert [str(a) for a in GAME.legal_actions(s, 0)] == ["discard 4c", "discard 9d"]
    s, events = GAME.apply(s, 0, Discard(("4c",)))
    assert C.holds(s.discards, 1 << (C.parse_card("4c") or 0))
    assert any(e.kind == "discard10" and e.audience is None for e in events)
    assert s.turn == 1 and top(s) == ["10s"]


def test_seven_pass_then_ten_discard_then_the_8_cut() -> None:
    """Rules page, Local rules: a sequence 7-8-9-10 gives one card, discards one, then cuts."""
    s = dealt(
        {0: "7s 8s 9s 10s 4c 5d 6h", 1: "Js", 2: "8h"},
        seven_pass=True,
        ten_discard=True,
        sequences=True,
    )
    s = play(s, 0, "7s 8s 9s 10s")
    assert s.follow_up is not None and s.follow_up.kind == "give"
    s = GAME.apply(s, 0, Give(("4c",)))[0]
    assert s.follow_up is not None and s.follow_up.kind == "discard"
    s, events = GAME.apply(s, 0, Discard(("5d",)))
    assert [e.data["reason"] for e in events if e.kind == "flush"] == ["8-cut"]
    assert s.turn == 0 and s.top is None and hand(s, 0) == ["6h"]


def test_the_hosts_default_for_a_follow_up_is_the_weakest_cards() -> None:
    """Rules page, Time and absence: on a timeout the host gives (discards) the weakest cards."""
    s = play(dealt({0: "7s Kd 4c", 1: "9s", 2: "8h"}, seven_pass=True), 0, "7s")
    after, _ = GAME.apply_default(s, 0)
    assert hand(after, 1) == ["4c", "9s"]
