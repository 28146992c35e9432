"""One test per decision of the rules page (``docs/games/daifugo.md``), each from a forced deal.

Play-rule tests deal a forced hand through the public API and then keep only the cards the test
needs in each hand (the others go to the discards, so every card stays accounted for).
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest

from dennou.core.errors import IllegalActionError, NotYourTurnError
from dennou.core.game import CHANCE
from dennou.games.daifugo import GAME, DaifugoRules, can_follow
from dennou.games.daifugo import cards as C
from dennou.games.daifugo.actions import Deal, Give, Pass, Play
from dennou.games.daifugo.engine import forced_deal
from dennou.games.daifugo.rules import titles_for
from dennou.games.daifugo.state import DaifugoState, Played

from .helpers import after_game1, dealt, hand, new, pass_, play, top


# --- Cards, seats, deal ------------------------------------------------------------------------
def test_first_game_seats_in_lexicographic_id_order_first_leads() -> None:
    """Rules page, Cards, seats, deal: game 1 order is ids in lexicographic order ("10" < "2")."""
    state = GAME.new(DaifugoRules(), ["2", "10", "b", "a"])
    assert [state.players[s] for s in state.order] == ["10", "2", "a", "b"]
    state, _ = GAME.apply(state, CHANCE, forced_deal(state, {}))
    assert GAME.to_act(state) == {1}


def test_deal_one_at_a_time_first_seats_get_one_more() -> None:
    """Rules page, Cards, seats, deal: 54 cards dealt from the leader; first seats get extra."""
    state = new(5)
    deck = [C.card_str(c) for c in C.DECK]
    state, _ = GAME.apply(state, CHANCE, Deal(tuple(deck)))
    assert [C.size(state.hands[s]) for s in state.order] == [11, 11, 11, 11, 10]
    assert state.hand(0)[:2] == (0, 5)  # the leader got cards 0 and 5 of the deck
    state8 = new(8)
    state8, _ = GAME.apply(state8, CHANCE, Deal(tuple(deck)))
    assert sorted(C.size(h) for h in state8.hands) == [6, 6, 7, 7, 7, 7, 7, 7]


def test_bad_deal_rejected() -> None:
    """Rules page, Cards: a deal is the 54 cards each once."""
    state = new(4)
    deck = [C.card_str(c) for c in C.DECK]
    with pytest.raises(IllegalActionError):
        GAME.apply(state, CHANCE, Deal(tuple([*deck[:-1], "3s"])))


# --- Plays ---------------------------------------------------------------------------------------
def test_play_is_one_to_six_cards_of_one_rank_jokers_wild() -> None:
    """Rules page, Plays: 1-6 same-rank cards; jokers take the rank of the naturals."""
    state = dealt({0: "5s 5h 5d 5c JK JK 7s", 1: "3s"})
    legal = GAME.legal_actions(state, 0)
    assert Play(("5s", "5h", "5d", "5c", "JK", "JK")) in legal
    assert Play(("5s", "7s")) not in legal
    with pytest.raises(IllegalActionError, match="one rank"):
        GAME.apply(state, 0, Play(("5s", "7s")))
    state = dealt({0: "5s 5h 5d 5c JK JK 7s", 1: "3s 6s 6h"})
    s = play(state, 0, "5s JK")
    assert s.top is not None and s.top.combo.rank == 2  # the joker is a 5
    assert Play(("6s", "6h")) in GAME.legal_actions(s, 1)


def test_lead_may_not_pass() -> None:
    """Rules page, Plays: on an empty field the leader may not pass."""
    state = dealt({0: "5s", 1: "3s"})
    assert Pass() not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalActionError, match="leader may not pass"):
        GAME.apply(state, 0, Pass())


def test_follow_needs_same_count_and_stronger() -> None:
    """Rules page, Plays: same number of cards, strictly stronger."""
    state = dealt({0: "9s 9h 4c", 1: "10s 10h 9d 9c 10d"})
    s = play(state, 0, "9s 9h")
    legal = GAME.legal_actions(s, 1)
    assert Play(("10s", "10h")) in legal
    assert Play(("9d", "9c")) not in legal
    assert Play(("10s",)) not in legal
    with pytest.raises(IllegalActionError, match="does not beat"):
        GAME.apply(s, 1, Play(("9d", "9c")))


def test_joker_pair_beats_every_pair_and_nothing_beats_it() -> None:
    """Rules page, Plays: a group made only of jokers ranks above every natural group of its size
    in either order, and no group beats it."""
    state = dealt({0: "2s 2h 4c", 1: "JK JK 5s", 2: "3s 3h 3d"})
    s = play(state, 0, "2s 2h")
    s = play(s, 1, "JK JK")
    # nobody can beat it: seats 2 and 3 pass automatically, the field flushes, seat 1 leads
    assert s.turn == 1 and s.top is None


def test_single_joker_beats_any_single() -> None:
    """Rules page, Plays: a single joker beats any single natural card (also under revolution)."""
    for rev, lead in ((False, "2s"), (True, "3h")):
        state = replace(dealt({0: "2s 3h 4c", 1: "JK 5s", 2: "6h"}), revolution=rev)
        s = play(state, 0, lead)
        assert s.turn == 1 and Play(("JK",)) in GAME.legal_actions(s, 1)


def test_spade3_beats_single_joker_also_under_revolution() -> None:
    """Rules page, Plays, Spade-3 return: the single 3 of spades beats a single joker, in
    either order; nothing beats it; the field flushes when everyone else has passed."""
    for rev in (False, True):
        state = replace(dealt({0: "JK 4c", 1: "3s 5h", 2: "2s 2h 6d", 3: "7c"}), revolution=rev)
        s = play(state, 0, "JK")
        assert s.turn == 1  # seat 1 has the 3 of spades; the others could not be asked
        assert GAME.legal_actions(s, 1)[0] == Play(("3s",))
        s = play(s, 1, "3s")
        assert s.revolution is rev  # a return is never a revolution
        # nothing beats it: everyone else passes automatically; seat 1 leads on a flushed field
        assert s.turn == 1 and s.top is None
        assert C.holds(s.discards, C.card_set([C.SPADE3, C.JOKER]))


def test_spade3_return_option_off() -> None:
    """Rules page, Plays (option spade3_return=False): nothing beats a single joker."""
    state = dealt({0: "JK 4c", 1: "3s 5h"}, spade3_return=False)
    s = play(state, 0, "JK")
    assert s.turn == 0 and s.top is None


def test_three_of_spades_on_a_single_natural_is_not_a_return() -> None:
    """Rules page, Plays: the spade-3 return needs a single joker on the field."""
    state = replace(dealt({0: "4c 9c", 1: "3s 5h", 2: "6h"}), revolution=True)
    s = play(state, 0, "4c")
    s, ev = GAME.apply(s, 1, Play(("3s",)))  # under revolution 3 is the strongest natural
    assert [e.data["returned"] for e in ev if e.kind == "play"] == [False]


# --- Revolution ---------------------------------------------------------------------------------
def test_four_cards_revolt_and_reverse_the_order() -> None:
    """Rules page, Revolution: 4+ cards (jokers included) reverse the order until the next one."""
    state = dealt({0: "9s 9h 9d JK 4c", 1: "3s 10s", 2: "2h 5d"})
    s = play(state, 0, "9s 9h 9d JK")
    assert s.revolution
    s = pass_(s, 1) if s.turn == 1 else s
    assert s.turn == 0 and s.top is None
    s = play(s, 0, "4c")
    legal = GAME.legal_actions(s, s.turn)
    assert Play(("3s",)) in legal and Play(("10s",)) not in legal


def test_counter_revolution_restores_the_order() -> None:
    """Rules page, Revolution: a second revolution reverses the order back."""
    state = replace(dealt({0: "9s 9h 9d 9c 6c", 1: "4s 4h 4d 4c 5s", 2: "Qh"}), revolution=True)
    s = play(state, 0, "9s 9h 9d 9c")
    assert not s.revolution
    s2 = replace(dealt({0: "9s 9h 9d 9c 6c", 1: "4s 4h 4d 4c 5s", 2: "Qh"}), revolution=False)
    s2 = play(s2, 0, "9s 9h 9d 9c")
    assert s2.revolution
    assert s2.turn == 1
    s2 = play(s2, 1, "4s 4h 4d 4c")  # 4 beats 9 under revolution, and revolts back
    assert not s2.revolution


def test_revolution_option_off() -> None:
    """Rules page, Revolution (option revolution=False)."""
    state = dealt({0: "9s 9h 9d 9c 6c", 1: "3s"}, revolution=False)
    assert not play(state, 0, "9s 9h 9d 9c").revolution


# --- 8-cut -------------------------------------------------------------------------------------
def test_eight_cut_flushes_and_same_player_leads() -> None:
    """Rules page, 8-cut: a play of 8s flushes at once and its player leads again."""
    state = dealt({0: "8s 4c", 1: "2s", 2: "JK"})
    s = play(state, 0, "8s")
    assert s.turn == 0 and s.top is None and C.holds(s.discards, 1 << (C.EIGHT * 4))


def test_joker_standing_in_as_eight_cuts() -> None:
    """Rules page, 8-cut: jokers standing in as 8s count."""
    state = dealt({0: "8h JK 4c", 1: "2s 2h"})
    s = play(state, 0, "8h JK")
    assert s.turn == 0 and s.top is None


def test_8888_revolts_and_cuts() -> None:
    """Rules page, 8-cut + Revolution: 8888 both revolts and cuts."""
    state = dealt({0: "8s 8h 8d 8c 4c", 1: "2s", 2: "3h"})
    s = play(state, 0, "8s 8h 8d 8c")
    assert s.revolution and s.turn == 0 and s.top is None


def test_eight_cut_option_off() -> None:
    """Rules page, 8-cut (option eight_cut=False)."""
    state = dealt({0: "8s 4c", 1: "9s"}, eight_cut=False)
    s = play(state, 0, "8s")
    assert s.turn == 1 and s.top is not None


# --- Passing ----------------------------------------------------------------------------------
def test_passed_player_locked_out_until_flush() -> None:
    """Rules page, Passing: a player who passes cannot play again until the field flushes."""
    state = dealt({0: "4s 6s 2c", 1: "5s 7s", 2: "9s 10s", 3: "Qs"})
    s = play(state, 0, "4s")
    s = pass_(s, 1)
    s = play(s, 2, "9s")
    s = play(s, 3, "Qs") if s.turn == 3 else s
    # seat 3 finished on Qs; seat 0 may answer; seat 1 passed earlier and is skipped
    assert s.turn == 0
    s = play(s, 0, "2c")
    assert s.turn == 0 and s.top is None  # the others passed (1 passed, 2 cannot beat)


def test_all_others_pass_flush_and_last_player_leads() -> None:
    """Rules page, Passing: when every other active player has passed, the last player leads."""
    state = dealt({0: "4s 6s", 1: "5s 7s", 2: "9s 10s", 3: "Qs Ks"})
    s = play(state, 0, "4s")
    s = play(s, 1, "5s")
    s = pass_(s, 2)
    s = pass_(s, 3)
    s = pass_(s, 0)
    assert s.turn == 1 and s.top is None and s.passed == frozenset()


def test_forced_pass_is_automatic_and_announced() -> None:
    """Rules page, Passing: a player with no legal play passes automatically (the host says so)."""
    state = dealt({0: "Ks 4c", 1: "5s 7s", 2: "Ah 3d"})
    s, events = GAME.apply(state, 0, Play(("Ks",)))
    auto = [e for e in events if e.kind == "pass" and e.data["auto"]]
    assert [e.data["seat"] for e in auto] == [1]
    assert s.turn == 2
    assert GAME.to_act(s) == {2}


# --- Finishing ---------------------------------------------------------------------------------
def test_finisher_play_stays_and_next_active_plays() -> None:
    """Rules page, Finishing: the finisher's last play stays; the next active player plays."""
    state = dealt({0: "9s", 1: "10s 4d", 2: "Js 5h", 3: "3c"})
    s = play(state, 0, "9s")
    assert 0 in s.finished and top(s) == ["9s"] and s.turn == 1


def test_all_pass_after_finisher_next_active_after_finisher_leads() -> None:
    """Rules page, Finishing: if all the others pass, the field flushes and the next active
    player after the finisher leads."""
    state = dealt({0: "5s 2h", 1: "6s 4d", 2: "3h 7c", 3: "4c 5c"})
    s = play(state, 0, "5s")
    s = pass_(s, 1)
    s = pass_(s, 2)  # seat 3 cannot beat 5s: passed for; the field flushes and seat 0 leads
    assert s.turn == 0 and s.top is None
    s = play(s, 0, "2h")  # seat 0 finishes on 2h; nobody can beat it
    assert s.finished == (0,)
    assert s.turn == 1 and s.top is None  # the next active player after seat 0


def test_finishing_on_8_next_active_leads() -> None:
    """Rules page, Finishing: a player who finishes with an 8-cut: the field flushes and the next
    active player leads."""
    state = dealt({0: "8s", 1: "4d 5d", 2: "3h 7c", 3: "4c 5c"})
    s = play(state, 0, "8s")
    assert s.finished == (0,) and s.top is None and s.turn == 1


def test_no_forbidden_finish() -> None:
    """Rules page, Finishing: there are no forbidden finishes (a joker, a 2, 8s or 3s all end)."""
    for last in ("JK", "2s", "8s", "3s"):
        state = dealt({0: last, 1: "4d 5d", 2: "6h 7c"})
        s = play(state, 0, last)
        assert s.finished == (0,)


def test_game_ends_when_one_player_holds_cards() -> None:
    """Rules page, Finishing: a game ends when only one player holds cards; that player is last."""
    state = dealt({0: "Ks", 1: "4d 5d"}, n=2, games=2)
    s, events = GAME.apply(state, 0, Play(("Ks",)))
    assert s.phase == "deal" and s.results[-1].finish == (0, 1)
    assert s.results[-1].titles == ("daifugo", "daihinmin")
    assert any(e.kind == "game_end" for e in events)


# --- Titles and points ---------------------------------------------------------------------
def test_titles_by_player_count() -> None:
    """Rules page, Titles and points: the table by player count."""
    assert titles_for(2) == ("daifugo", "daihinmin")
    assert titles_for(3) == ("daifugo", "heimin", "daihinmin")
    assert titles_for(4) == ("daifugo", "fugo", "hinmin", "daihinmin")
    assert titles_for(5) == ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")
    assert titles_for(8).count("heimin") == 4


def test_points_per_game_and_final_bonus() -> None:
    """Rules page, Titles and points: +2 +1 0 -1 -2; the last game adds +10 +5 0 -5 -10."""
    rules = DaifugoRules()
    assert [rules.title_points(t, final=False) for t in titles_for(5)] == [2, 1, 0, -1, -2]
    assert [rules.title_points(t, final=True) for t in titles_for(5)] == [12, 6, 0, -6, -12]
    state = dealt({0: "Ks", 1: "4d 5d"}, n=2, games=1)
    s = play(state, 0, "Ks")
    assert s.phase == "over" and s.points == (12, -12)
    assert GAME.outcome(s).ranks == (1, 2)


# --- Order across games and the exchange ------------------------------------------------------
def test_from_game2_daihinmin_leads_reverse_finishing_order() -> None:
    """Rules page, Cards, seats, deal: from game 2 the 大貧民 leads, order = reverse finish."""
    state = dealt({0: "Ks", 1: "Qs 5d", 2: "Js 3c 4c", 3: "10s 6c 7c 8c"}, games=3, exchange=False)
    s = play(state, 0, "Ks")
    s = play(s, s.turn, "10s") if s.turn == 3 else s
    # drive game 1 to its end by defaults and check the next order
    while s.phase == "play":
        s, _ = GAME.apply_default(s, s.turn)
    finish = s.results[-1].finish
    assert s.order == tuple(reversed(finish))
    s, _ = GAME.apply(s, CHANCE, forced_deal(s, {}))
    assert s.turn == finish[-1]


def test_several_daihinmin_lead_in_id_order_and_first_exchanges() -> None:
    """Rules page, Cards/Exchange: several 大貧民 lead in id order; only the first by id
    exchanges with the 大富豪."""
    titles = ("daihinmin", "daifugo", "daihinmin", "fugo", "hinmin")
    state = after_game1(5, titles, (1, 3, 4))
    assert state.order[:2] == (0, 2)
    s, _ = GAME.apply(state, CHANCE, forced_deal(state, {}))
    steps = [(st.giver, st.receiver, st.count, st.kind) for st in s.steps]
    assert steps == [
        (0, 1, 2, "tribute"),
        (1, 0, 2, "gift"),
        (4, 3, 1, "tribute"),
        (3, 4, 1, "gift"),
    ]


def exchange_state(**opts: Any) -> DaifugoState:
    titles = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")
    state = after_game1(5, titles, (0, 1, 2, 3, 4), **opts)
    hands = {4: "JK 2s Ah 3c 4c", 0: "3s 3h 4s 5s", 3: "Kd Kh 5d", 1: "6h 6d"}
    state, _ = GAME.apply(
        state, CHANCE, forced_deal(state, {s: h.split() for s, h in hands.items()})
    )
    return state


def test_exchange_four_steps_in_order() -> None:
    """Rules page, Exchange: 大貧民→大富豪 2 strongest, 大富豪→大貧民 any 2, 貧民→富豪 strongest,
    富豪→貧民 any 1, in this order."""
    s = exchange_state()
    assert s.phase == "exchange" and GAME.to_act(s) == {4}
    hand4 = s.hand(4)
    s1, _ = GAME.apply(
        s,
        4,
        Give(("JK", "JK") if hand4.count(52) == 2 else tuple(C.cards_str(C.strongest(hand4, 2)))),
    )
    assert GAME.to_act(s1) == {0}
    given = C.cards_str(C.weakest(s1.hand(0), 2))
    s2, _ = GAME.apply(s1, 0, Give(tuple(given)))
    assert GAME.to_act(s2) == {3}
    s3, _ = GAME.apply_default(s2, 3)
    assert GAME.to_act(s3) == {1}
    s4, _ = GAME.apply_default(s3, 1)
    assert s4.phase == "play" and s4.turn == s4.order[0] == 4
    assert sum(C.size(h) for h in s4.hands) == 54
    assert not s4.cheaters


def test_tribute_must_be_strongest_ties_of_rank_free() -> None:
    """Rules page, Exchange: "strongest" means no kept card is stronger; ties of rank are free."""
    hand = C.parse_cards(["Ks", "Kh", "Kd", "5c", "3s"]) or ()
    honest = C.honest_tributes(hand, 2)
    assert len(honest) == 3 and all(C.rank_of(c) == 10 for g in honest for c in g)
    assert C.is_honest_tribute(hand, C.parse_cards(["Kd", "Ks"]) or ())
    assert not C.is_honest_tribute(hand, C.parse_cards(["Kd", "5c"]) or ())
    jk = C.parse_cards(["JK", "2s", "2h", "4c"]) or ()
    assert C.honest_tributes(jk, 2) == [C.parse_cards(["2s", "JK"]), C.parse_cards(["2h", "JK"])]


def test_daifugo_may_give_back_what_it_got() -> None:
    """Rules page, Exchange: 大富豪 may give back what it got."""
    s = exchange_state()
    tribute = C.strongest(s.hand(4), 2)
    s1, _ = GAME.apply(s, 4, Give(tuple(C.cards_str(tribute))))
    back = Give(tuple(C.cards_str(tribute)))
    assert back in GAME.legal_actions(s1, 0)
    s2, _ = GAME.apply(s1, 0, back)
    assert not s2.cheaters and s2.hands[4] == s.hands[4]


def test_timeout_exchange_is_the_hosts_legal_choice_not_cheating() -> None:
    """Rules page, Exchange + Time: a timeout is not cheating; the host gives the strongest cards
    for a tribute, the weakest for a gift."""
    s = exchange_state()
    s1, ev = GAME.apply_default(s, 4)
    assert not s1.cheaters and s1.steps[0].cards == C.strongest(s.hand(4), 2)
    s2, _ = GAME.apply_default(s1, 0)
    assert s2.steps[1].cards == C.weakest(s1.hand(0), 2)
    assert any(e.kind == "timeout" for e in ev)


def test_cheating_tribute_hand_discarded_titles_of_honest() -> None:
    """Rules page, Exchange/Cheating: a tribute that is not the strongest is cheating: the hand is
    shown to all and discarded, the cheater is 大貧民, and the honest players get, in finishing
    order, the titles of an (honest + 1)-player game without its 大貧民."""
    s = exchange_state(games=3)
    weak = C.weakest(s.hand(4), 2)
    assert Give(tuple(C.cards_str(weak))) in GAME.legal_actions(s, 4)  # contained: applied
    s1, ev = GAME.apply(s, 4, Give(tuple(C.cards_str(weak))))
    cheat = [e for e in ev if e.kind == "cheat"]
    assert cheat and cheat[0].audience is None and cheat[0].data["hand"]
    assert s1.hands[4] == 0 and s1.cheaters == (4,)
    assert GAME.view(s1, 2)["discards"] == hand(s, 4)
    # step 2 still runs: 大富豪's gift to the cheater is discarded in public
    s2, ev2 = GAME.apply_default(s1, 0)
    assert any(e.data.get("discarded") for e in ev2)
    s3, _ = GAME.apply_default(s2, 3)
    s4, _ = GAME.apply_default(s3, 1)
    assert s4.phase == "play" and s4.turn == 3  # 4 cheated: the next in order leads
    while s4.phase == "play":
        s4, _ = GAME.apply_default(s4, s4.turn)
    r = s4.results[-1]
    assert r.cheaters == (4,) and len(r.finish) == 4
    # 4 honest players: the titles of a 5-player game without its 大貧民
    assert [r.titles[x] for x in r.finish] == ["daifugo", "fugo", "heimin", "hinmin"]
    assert r.titles[4] == "daihinmin" and r.points[4] == -2
    assert s4.order[0] == 4  # the cheater is 大貧民 and leads next game


def test_one_honest_player_is_daifugo_others_daihinmin() -> None:
    """Rules page, Cheating: if one player is honest: 大富豪, all others 大貧民."""
    state = after_game1(2, ("daifugo", "daihinmin"), (0, 1), games=2)
    state, _ = GAME.apply(state, CHANCE, forced_deal(state, {}))
    s, _ = GAME.apply(state, 1, Give(("not-a-card",)))
    s, _ = GAME.apply(s, 0, Give(tuple(C.cards_str(C.weakest(s.hand(0), 2)))))
    r = s.results[-1]
    assert r.titles == ("daifugo", "daihinmin") and s.phase == "over"
    assert s.points == (2 + 10, -2 - 10)


def test_all_cheat_game_void_and_redealt() -> None:
    """Rules page, Cheating: if nobody is honest the game is void, the cards are dealt again, and
    a void game does not count toward the set."""
    state = after_game1(2, ("daifugo", "daihinmin"), (0, 1), games=2)
    state, _ = GAME.apply(state, CHANCE, forced_deal(state, {}))
    s, _ = GAME.apply(state, 1, Give(("3s",)))  # wrong count
    s, ev = GAME.apply(s, 0, Give(("2s", "2s")))  # not held twice
    assert any(e.kind == "void" for e in ev)
    assert s.phase == "deal" and s.game_no == 2 and s.void_games == 1
    assert len(s.results) == 1 and s.points == (0, 0)
    s, _ = GAME.apply(s, CHANCE, forced_deal(s, {}))
    assert s.phase == "exchange" and s.deals == 2 and not s.cheaters


def test_cheating_reject_option_refuses_like_an_illegal_play() -> None:
    """Rules page, Exchange (option cheating="reject"): a broken exchange is refused."""
    s = exchange_state(cheating="reject")
    bad = Give(tuple(C.cards_str(C.weakest(s.hand(4), 2))))
    assert bad not in GAME.legal_actions(s, 4)
    snapshot = copy.deepcopy(s)
    with pytest.raises(IllegalActionError, match="tribute"):
        GAME.apply(s, 4, bad)
    assert s == snapshot


# --- Time and absence; bad input -----------------------------------------------------------
def test_timeout_passes_and_leader_plays_weakest_single() -> None:
    """Rules page, Time and absence: on timeout the host passes (a leader plays its weakest)."""
    state = dealt({0: "5s 9h", 1: "6s 7s", 2: "Ah"})
    s, _ = GAME.apply_default(state, 0)
    assert top(s) == ["5s"]
    s2, ev = GAME.apply_default(s, 1)
    assert 1 in s2.passed and ev[0].kind == "timeout"


def test_illegal_play_rejected_with_reason_state_unchanged() -> None:
    """Rules page, Time and absence: an illegal play is rejected with a reason; retry allowed."""
    state = dealt({0: "5s 9h", 1: "6s 7s"})
    snapshot = copy.deepcopy(state)
    for action, match in ((Play(("Qs",)), "not all in your hand"), (Play(("xx",)), "not all")):
        with pytest.raises(IllegalActionError, match=match):
            GAME.apply(state, 0, action)
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, 1, Play(("6s",)))
    assert state == snapshot
    play(state, 0, "9h")  # the retry works


def test_card_spellings_and_order_accepted() -> None:
    """Cards: "10h" or "Th", any order and case, are the same play."""
    state = dealt({0: "10h 10s 4c", 1: "3s"})
    for text in ("play Th 10s", "play 10s th", "play 10S 10H"):
        a = GAME.parse_action(text)
        assert a in GAME.legal_actions(state, 0)
        _, ev = GAME.apply(state, 0, a)
        assert ev[0].data["cards"] == ["10s", "10h"]


# --- Views -------------------------------------------------------------------------------------
def test_view_shows_own_hand_counts_and_field_not_other_hands() -> None:
    """Rules page, What each player sees."""
    state = dealt({0: "5s 9h", 1: "6s 7s", 2: "Ah"})
    s = play(state, 0, "5s")
    v = GAME.view(s, 1)
    assert v["hand"] == ["6s", "7s"] and v["counts"][:3] == [1, 2, 1]
    assert v["layout"] == {"seat": 0, "cards": ["5s"], "kind": "group", "returned": False}
    assert v["lead"] == v["layout"] and v["field"] == [v["layout"]]
    assert "hand" not in GAME.view(s, None)
    assert "6s" not in str(GAME.view(s, 0)["log"])


def test_exchange_cards_seen_by_pair_only() -> None:
    """Rules page, What each player sees: giver and receiver see the cards, others only that an
    exchange happened."""
    s = exchange_state()
    s1, _ = GAME.apply_default(s, 4)
    cards = C.cards_str(C.strongest(s.hand(4), 2))
    assert GAME.view(s1, 4)["exchange"][0]["cards"] == cards
    assert GAME.view(s1, 0)["exchange"][0]["cards"] == cards
    assert GAME.view(s1, 2)["exchange"][0]["cards"] is None
    assert GAME.view(s1, None)["exchange"][0]["done"]


def test_can_follow_pure_function() -> None:
    """Rules page, Plays: the seed's "can I play this on that" check, on wire strings."""
    assert can_follow(["5s"], None)
    assert can_follow(["6s"], ["5s"]) and not can_follow(["4s"], ["5s"])
    assert can_follow(["4s"], ["5s"], revolution=True)
    assert can_follow(["JK"], ["2s"]) and can_follow(["JK"], ["3s"], revolution=True)
    assert can_follow(["3s"], ["JK"]) and can_follow(["3s"], ["JK"], revolution=True)
    assert not can_follow(["3h"], ["JK"]) and not can_follow(["2s"], ["3s"], returned=True)
    assert can_follow(["JK", "JK"], ["2s", "2h"]) and not can_follow(["2s", "2h"], ["JK", "JK"])
    assert can_follow(["9s", "JK"], ["8s", "8h"]) and not can_follow(["9s", "9h"], ["8s"])
    assert not can_follow(["9s", "10h"], None) and not can_follow(["zz"], None)
    assert can_follow(["Th", "10s"], ["9s", "9h"])


def test_played_struct_roundtrip() -> None:
    p = Played(0, C.Combo(C.GROUP, 0, 1, 1, 1), True)
    assert p.returned and p.combo.strs() == ("3s",)


def test_cheating_with_two_honest_players_gives_daifugo_and_heimin() -> None:
    """Rules page, Cheating: the honest players take the titles of an (honest + 1)-player game
    without its 大貧民; with 2 honest players that is a 3-player game: 大富豪 and 平民."""
    state = after_game1(3, ("daifugo", "heimin", "daihinmin"), (0, 1, 2), games=2)
    state, _ = GAME.apply(state, CHANCE, forced_deal(state, {}))
    s, _ = GAME.apply(state, 2, Give(("3s", "3h", "3d")))  # wrong count
    s, _ = GAME.apply_default(s, 0)
    assert s.phase == "play" and s.cheaters == (2,)
    while s.phase == "play":
        s, _ = GAME.apply_default(s, s.turn)
    r = s.results[-1]
    assert sorted(r.titles) == ["daifugo", "daihinmin", "heimin"] and r.titles[2] == "daihinmin"
