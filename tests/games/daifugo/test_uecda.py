"""The UECda rules (preset ``uecda``), one test per rule of ``docs/games/daifugo.md``.

Each test cites its section of the rules page ("The UECda rules"). States come from forced
deals (``helpers.dealt``): the listed seats keep exactly the listed cards.
"""

from __future__ import annotations

import random
from dataclasses import replace

import msgspec
import pytest

from dennou.cli import parse_rules_args
from dennou.core.errors import ConfigError, IllegalActionError
from dennou.core.game import CHANCE, Event
from dennou.core.jsondata import to_json
from dennou.games.daifugo import GAME, DaifugoRules
from dennou.games.daifugo import cards as C
from dennou.games.daifugo.actions import Deal, Give, Pass, Places, Play
from dennou.games.daifugo.engine import forced_deal
from dennou.games.daifugo.rules import PRESETS
from dennou.games.daifugo.state import DaifugoState

from .helpers import after_game1, dealt, hand, new, pass_, play, play_out, top

UECDA = {"preset": "uecda"}


def legal(state: object, seat: int) -> list[str]:
    return [str(a) for a in GAME.legal_actions(state, seat)]  # type: ignore[arg-type]


# --- the preset ------------------------------------------------------------------------------
def test_uecda_preset_selects_every_uecda_option() -> None:
    """Rules page, The UECda rules: ``preset=uecda`` selects them all."""
    rules = GAME.make_rules(UECDA)
    for name, value in PRESETS["uecda"].items():
        assert getattr(rules, name) == value, name
    assert rules == parse_rules_args(GAME, ["preset=uecda"])


def test_explicit_options_override_the_preset() -> None:
    """Rules page, Rules options: explicit options override the preset's."""
    rules = parse_rules_args(GAME, ["preset=uecda", "jokers=2", "games=3", "suit_lock=false"])
    assert (rules.jokers, rules.games, rules.suit_lock, rules.sequences) == (2, 3, False, True)
    with pytest.raises(ConfigError, match="preset"):
        GAME.make_rules({"preset": "nope"})


def test_a_preset_record_holds_every_option_and_replays() -> None:
    """Records hold the resolved options (no preset name), so they replay on any host."""
    rules = GAME.make_rules({"preset": "uecda", "games": 1})
    assert "preset" not in to_json(rules)
    assert GAME.make_rules(to_json(rules)) == rules


@pytest.mark.parametrize(
    "bad",
    [
        {"jokers": 3},
        {"jokers": -1},
        {"sequence_revolution_size": 2},
        {"sequence_revolution_size": 16},
        {"stalemate_passes": -1},
        {"first_lead": "spade3"},
        {"turn_order": "random"},
        {"flush_on": "never"},
        {"cheating": "maybe"},
        {"points": "1,2,3"},
        {"max_group": 7},
    ],
)
def test_every_option_range_is_checked_on_construction(bad: dict[str, object]) -> None:
    """Rules page, Rules options: every option has a range or values, checked."""
    with pytest.raises(ConfigError):
        GAME.make_rules(bad)


# --- cards and players ---------------------------------------------------------------------
def test_53_cards_one_joker_five_players_hands_11_11_11_10_10() -> None:
    """Rules page, Cards and players: 53 cards (one joker), dealt one at a time in seat order."""
    state = new(5, **UECDA)
    deck = C.cards_str(C.deck(1))
    assert len(deck) == 53
    state2, _ = GAME.apply(state, CHANCE, Deal(tuple(deck)))
    assert [C.size(state2.hands[s]) for s in range(5)] == [11, 11, 11, 10, 10]
    with pytest.raises(IllegalActionError, match="53 cards"):
        GAME.apply(state, CHANCE, Deal(tuple(C.cards_str(C.DECK))))
    drawn = GAME.sample_chance(state, random.Random(1))
    assert isinstance(drawn, Deal) and sorted(drawn.deck) == sorted(deck)


def test_jokers_option_zero_one_or_two() -> None:
    """Rules page, Rules options: ``jokers`` 0-2 (the deck is 52 + jokers cards)."""
    for jokers in (0, 1, 2):
        state = new(4, jokers=jokers)
        deal = forced_deal(state, {})
        assert len(deal.deck) == 52 + jokers
        after, _ = GAME.apply(state, CHANCE, deal)
        assert sum(C.size(h) for h in after.hands) == 52 + jokers


# --- sequences -----------------------------------------------------------------------------
def test_sequence_is_three_consecutive_ranks_of_one_suit_with_the_joker_anywhere() -> None:
    """Rules page, Sequences (階段): 3+ consecutive ranks of one suit, the joker anywhere."""
    s = dealt({0: "3d 5s 6s 7s 9h JK", 1: "4c"}, n=5, lead=0, **UECDA)
    moves = legal(s, 0)
    for cards in ("5s 6s 7s", "5s JK=6s 7s", "JK=4s 5s 6s", "5s 6s JK=7s", "5s 6s 7s JK=8s"):
        assert "play " + cards in moves, cards
    assert "play JK=4s 5s 6s 7s" in moves
    for bad in (("5s", "6s"), ("5s", "6s", "9h"), ("5s", "7s", "9h")):
        assert Play(bad) not in GAME.legal_actions(s, 0)
    with pytest.raises(IllegalActionError, match="sequence"):
        GAME.apply(s, 0, Play(("5s", "6s", "9h")))


def test_joker_may_stand_just_below_3_or_just_above_2() -> None:
    """Rules page, Sequences: UECda lets a joker end a sequence below 3 (``L``) or above 2
    (``H``), its table's columns 0 and 14."""
    s = dealt({0: "3d 3s 4s As 2s JK", 1: "4c"}, n=5, lead=0, **UECDA)
    moves = legal(s, 0)
    assert "play JK=Ls 3s 4s" in moves and "play As 2s JK=Hs" in moves
    after = play(s, 0, "JK=Ls 3s 4s")
    assert top(after) == ["JK=Ls", "3s", "4s"] and after.top is not None
    assert after.top.combo.rank == -1


def test_a_joker_without_a_square_takes_the_first_legal_one() -> None:
    """Rules page, Cards on the wire: ``JK`` alone takes the first square that makes the play
    legal: a gap, then above, then below."""
    s = dealt({0: "3d 5s 6s JK", 1: "4c"}, n=5, lead=0, **UECDA)
    assert top(play(s, 0, "5s 6s JK")) == ["5s", "6s", "JK=7s"]
    s2 = dealt({0: "3d 5s 7s JK", 1: "4c"}, n=5, lead=0, **UECDA)
    assert top(play(s2, 0, "5s JK 7s")) == ["5s", "JK=6s", "7s"]


def test_sequence_beaten_only_by_a_sequence_of_the_same_length_wholly_above() -> None:
    """Rules page, Sequences: a sequence is beaten by one of the same length whose lowest rank
    is above the top's highest."""
    s = dealt({0: "3d 5s 6s 7s", 1: "6h 7h 8h 9h 10h Jh 9c", 2: "4c"}, n=5, lead=0, **UECDA)
    s = play(s, 0, "5s 6s 7s")
    moves = legal(s, 1)
    assert "play 8h 9h 10h" in moves and "play 9h 10h Jh" in moves
    assert "play 6h 7h 8h" not in moves and "play 7h 8h 9h" not in moves  # overlap
    assert "play 8h 9h 10h Jh" not in moves and "play 9c" not in moves  # length, kind
    assert "pass" in moves


def test_sequence_under_revolution_must_lie_wholly_below() -> None:
    """Rules page, Sequences + Revolution: reversed, a sequence must lie wholly below."""
    s = dealt({0: "3d 9s 10s Js", 1: "5h 6h 7h 8h 9h", 2: "4c"}, n=5, lead=0, **UECDA)
    s = play(replace(s, revolution=True), 0, "9s 10s Js")
    moves = legal(s, 1)
    assert "play 5h 6h 7h" in moves and "play 6h 7h 8h" in moves
    assert "play 7h 8h 9h" not in moves


def test_sequences_option_off_refuses_sequences() -> None:
    """Rules page, Rules options: without ``sequences`` only groups are plays."""
    s = dealt({0: "3d 5s 6s 7s", 1: "4c"}, n=5, lead=0, **{**UECDA, "sequences": False})
    assert "play 5s 6s 7s" not in legal(s, 0)
    with pytest.raises(IllegalActionError, match="one rank"):
        GAME.apply(s, 0, Play(("5s", "6s", "7s")))


# --- suit lock -----------------------------------------------------------------------------
def test_suit_lock_same_suit_again_locks_until_the_flush() -> None:
    """Rules page, Suit lock (縛り): a play of the same suits as the one below locks them."""
    s = dealt({0: "3d 5s 10s", 1: "7s 8h", 2: "9s Qh"}, n=5, lead=0, **UECDA)
    s = play(s, 0, "5s")
    assert s.lock == 0
    s, events = GAME.apply(s, 1, Play(("7s",)))
    assert s.lock == 1 and GAME.view(s, 2)["lock"] == ["s"]
    assert "locks s" in events[0].text and events[0].data["lock"] == "s"
    assert "play Qh" not in legal(s, 2) and "play 9s" in legal(s, 2)
    with pytest.raises(IllegalActionError, match="locked"):
        GAME.apply(s, 2, Play(("Qh",)))
    s = play(s, 2, "9s")
    s = play(s, 0, "10s")  # still locked to spades
    s = pass_(pass_(pass_(s, 1), 2), 0)  # everyone passed: the field flushes
    assert s.top is None and s.lock == 0


def test_suit_lock_counts_the_suit_a_joker_stands_for() -> None:
    """Rules page, Suit lock: in a group a joker names its suit (``JK=7h``), which counts."""
    s = dealt({0: "3d 5s 5h 9s 9d", 1: "7s JK 8c", 2: "9h 9c"}, n=5, lead=0, **UECDA)
    s = play(s, 0, "5s 5h")
    moves = legal(s, 1)
    assert {"play 7s JK=7h", "play 7s JK=7d", "play 7s JK=7c"} <= set(moves)
    s = play(s, 1, "7s JK=7h")
    assert s.lock == 0b0011
    assert "play 9h 9c" not in legal(s, 2)
    assert "play 9s 9d" not in legal(s, 0)


def test_a_lone_joker_may_be_played_under_a_lock() -> None:
    """Rules page, Suit lock: a group of jokers only is exempt from the lock."""
    s = dealt({0: "3d 5s 6s", 1: "7s JK"}, n=5, lead=0, **UECDA)
    s = play(play(s, 0, "5s"), 1, "7s")
    assert s.lock == 1
    s = pass_(s, 0)
    assert "play JK" in legal(s, 1)


# --- revolution, 8-cut, spade-3 ----------------------------------------------------------
def test_revolution_by_a_group_of_four_or_a_sequence_of_five() -> None:
    """Rules page, Revolution (革命): a group of 4+ or a sequence of 5+."""
    base = dealt({0: "3d 9s 10s Js Qs Ks 4h 4d 4c 4s", 1: "6c"}, n=5, lead=0, **UECDA)
    assert play(base, 0, "9s 10s Js Qs Ks").revolution
    assert not play(base, 0, "9s 10s Js Qs").revolution
    assert play(base, 0, "4s 4h 4d 4c").revolution
    never = replace(base, rules=msgspec.structs.replace(base.rules, sequence_revolution_size=0))
    assert not play(never, 0, "9s 10s Js Qs Ks").revolution


def test_eight_cut_by_any_play_containing_an_8() -> None:
    """Rules page, 8-cut (八切り): any play containing an 8 flushes the field at once (a
    sequence through 8, a joker standing for an 8, a group of 8s)."""
    for cards in ("7s 8s 9s", "7s JK=8s 9s", "8h JK=8d"):
        s = dealt({0: "3d 7s 8s 9s 8h JK 4c", 1: "2c"}, n=5, lead=0, **UECDA)
        after, events = GAME.apply(s, 0, Play(tuple(cards.split())))
        assert after.top is None and after.turn == 0, cards
        assert [e.data["reason"] for e in events if e.kind == "flush"] == ["8-cut"]


def test_spade3_return_then_immediate_flush() -> None:
    """Rules page, Spade-3 return (スペ3返し): the 3 of spades on a lone joker, and the field
    flushes at once; its player leads."""
    s = dealt({0: "3d JK 4c", 1: "3s 5h", 2: "6d"}, n=5, lead=0, **UECDA)
    s = play(s, 0, "JK")
    assert s.turn == 1 and legal(s, 1) == ["play 3s", "pass"]
    s, events = GAME.apply(s, 1, Play(("3s",)))
    assert s.top is None and s.turn == 1
    assert [e.data["reason"] for e in events if e.kind == "flush"] == ["spade-3 return"]


# --- first lead, turn order ------------------------------------------------------------------
def test_first_lead_is_the_holder_of_the_diamond3_every_game() -> None:
    """Rules page, First lead and turn order: the holder of ♦3 leads, every game."""
    state = new(5, **UECDA)
    state, events = GAME.apply(state, CHANCE, forced_deal(state, {3: ["3d"]}))
    assert state.turn == 3 and events[-1].kind == "lead"
    titles = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")
    game2 = after_game1(5, titles, (0, 1, 2, 3, 4), **UECDA)
    game2, _ = GAME.apply(game2, CHANCE, forced_deal(game2, {2: ["3d"]}))
    while game2.phase == "exchange":
        game2, _ = GAME.apply_default(game2, next(iter(GAME.to_act(game2))))
    holder = next(x for x in range(5) if game2.hands[x] >> C.DIAMOND3 & 1)
    assert game2.turn == holder


def test_turn_order_by_seats_dealt_from_the_last_daifugo() -> None:
    """Rules page, First lead and turn order: by seat, every game; dealt from the 大富豪."""
    state = new(5, **UECDA)
    assert state.order == (0, 1, 2, 3, 4)
    s = dealt({0: "3d 4s", 1: "5s", 2: "6s 7s", 3: "8c 9c", 4: "10c Jc"}, n=5, lead=0, **UECDA)
    s = play_out(s)
    daifugo = s.results[-1].finish[0]
    assert s.order == tuple((daifugo + i) % 5 for i in range(5))


# --- passing ---------------------------------------------------------------------------------
def test_last_player_gets_one_more_turn_over_their_own_cards() -> None:
    """Rules page, Passing: the trick ends when all active players have passed; the last
    player gets one more turn over their own cards."""
    s = dealt({0: "3d 5s 9h", 1: "6c", 2: "4h"}, n=5, lead=0, **UECDA)
    s = play(s, 0, "5s")
    s = pass_(pass_(s, 1), 2)
    assert s.turn == 0 and top(s) == ["5s"]
    assert "play 9h" in legal(s, 0)
    s = play(s, 0, "9h")  # over its own 5; the others passed and are out until the flush
    assert s.turn == 0 and top(s) == ["9h"]
    s = pass_(s, 0)
    assert s.top is None and s.turn == 0


def test_a_passer_is_out_until_the_flush() -> None:
    """Rules page, Passing: a player who passes is out until the flush."""
    s = dealt({0: "3d 5s 9h", 1: "6c 10c", 2: "7h 4h"}, n=5, lead=0, **UECDA)
    s = pass_(play(s, 0, "5s"), 1)
    s = play(s, 2, "7h")
    assert s.turn == 0  # seat 1 passed: skipped
    s = pass_(s, 0)
    assert s.turn == 2  # seat 2, the last player, again; seats 0 and 1 passed
    s = pass_(s, 2)
    assert s.top is None and s.turn == 2


def test_pass_on_an_empty_field_is_legal_and_all_passing_gives_the_lead_back() -> None:
    """Rules page, Passing: passing on an empty field is legal; if all pass, the same player
    leads again."""
    s = dealt({0: "3d 5s", 1: "6c", 2: "4h"}, n=5, lead=0, **UECDA)
    assert "pass" in legal(s, 0)
    s = pass_(s, 0)
    assert s.turn == 1 and s.pass_run == 1
    s = pass_(pass_(s, 1), 2)
    assert s.turn == 0 and s.top is None and s.pass_run == 3 and not s.passed


def test_a_player_without_a_legal_play_is_still_asked() -> None:
    """Rules page, Passing: UECda asks every player in turn (no automatic passes)."""
    s = dealt({0: "3d 2s", 1: "4c", 2: "5c"}, n=5, lead=0, **UECDA)
    s, events = GAME.apply(s, 0, Play(("2s",)))
    assert s.turn == 1 and legal(s, 1) == ["pass"]
    assert not [e for e in events if e.kind == "pass"]


# --- stalemate -------------------------------------------------------------------------------
def test_stalemate_after_20_consecutive_passes_the_places_are_drawn_by_chance() -> None:
    """Rules page, Stalemate (千日手): after 20 passes in a row the remaining places are drawn
    at random, as an explicit chance step."""
    s = dealt({0: "3d 5s", 1: "6c", 2: "4h 9h"}, n=3, lead=0, **UECDA)
    passes = 0
    while s.phase == "play":
        s = pass_(s, s.turn)
        passes += 1
    assert passes == 20 and s.phase == "stalemate" and GAME.to_act(s) == {CHANCE}
    outcomes = GAME.legal_actions(s, CHANCE)
    assert len(outcomes) == 6 and Places((2, 0, 1)) in outcomes and Places((2, 0)) not in outcomes
    drawn = GAME.sample_chance(s, random.Random(3))
    assert drawn in outcomes
    with pytest.raises(IllegalActionError, match="places"):
        GAME.apply(s, CHANCE, Places((0, 0, 1)))
    with pytest.raises(IllegalActionError):
        GAME.apply(s, 0, Pass())
    end, _ = GAME.apply(s, CHANCE, Places((2, 0, 1)))
    assert end.results[-1].finish == (2, 0, 1)
    assert end.results[-1].titles == ("heimin", "daihinmin", "daifugo")
    assert any(e.kind == "stalemate" for e in GAME.view(s, 0)["log"] and s.log)


def test_stalemate_option_off_never_draws() -> None:
    """Rules page, Rules options: ``stalemate_passes=0`` never draws places."""
    s = dealt({0: "3d 5s", 1: "6c"}, n=2, lead=0, **{**UECDA, "stalemate_passes": 0})
    for _ in range(50):
        s = pass_(s, s.turn)
    assert s.phase == "play" and s.pass_run == 50


# --- exchange and scoring --------------------------------------------------------------------
def uecda_game2(hands: dict[int, str]) -> tuple[DaifugoState, list[Event]]:
    titles = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")
    state = after_game1(5, titles, (0, 1, 2, 3, 4), **UECDA)
    state, events = GAME.apply(
        state, CHANCE, forced_deal(state, {s: h.split() for s, h in hands.items()})
    )
    return state, events


def test_daihinmin_and_hinmin_give_their_strongest_cards_automatically() -> None:
    """Rules page, Exchange: 大貧民 and 貧民 give their strongest cards without being asked,
    with the deal; then 大富豪 and 富豪 choose what to give back."""
    state, events = uecda_game2({4: "JK 2s Ah 3c 4c", 3: "2h 5d", 0: "3s 3h 4s 5s"})
    kinds = [(e.data["giver"], e.data["kind"]) for e in events if e.kind == "exchange"]
    assert kinds == [(4, "tribute"), (3, "tribute")]
    dealt_to = {
        e.data["seat"]: C.parse_cards(e.data["cards"]) or () for e in events if e.kind == "hand"
    }
    assert state.steps[0].cards == C.strongest_spades_first(dealt_to[4], 2)
    assert C.JOKER in state.steps[0].cards
    assert state.steps[1].cards == C.strongest_spades_first(dealt_to[3], 1)
    assert C.holds(state.hands[0], C.card_set(state.steps[0].cards))
    assert C.holds(state.hands[1], C.card_set(state.steps[1].cards))
    assert state.phase == "exchange" and GAME.to_act(state) == {0}
    back = Give(("3s", "3h"))
    state, _ = GAME.apply(state, 0, back)
    assert GAME.to_act(state) == {1}
    assert state.hands[4] >> (C.parse_card("3s") or 0) & 1


def test_an_invalid_return_is_replaced_by_the_strongest_cards() -> None:
    """Rules page, Exchange: an invalid return (wrong count, cards not held, junk) is replaced
    by the giver's strongest cards."""
    state, _ = uecda_game2({4: "JK 2s Ah 3c 4c", 0: "3s 3h 4s 5s"})
    before = state.hand(0)
    assert Give(("2c",)) in GAME.legal_actions(state, 0)  # applied, replaced
    after, events = GAME.apply(state, 0, Give(("not", "cards")))
    given = after.steps[2].cards
    assert given == C.strongest(before, 2) and not after.cheaters
    assert any("replaced" in e.text for e in events)


def test_points_5_4_3_2_1_per_game_and_classes_carried() -> None:
    """Rules page, Scoring: 5/4/3/2/1 points per game by class; classes carry to the next
    game's exchange."""
    s = dealt({0: "3d 4s", 1: "5s", 2: "6s 7s", 3: "8c 9c", 4: "10c Jc"}, n=5, lead=0, **UECDA)
    rules = msgspec.structs.replace(s.rules, games=2)
    s = play_out(replace(s, rules=rules))
    result = s.results[-1]
    assert sorted(result.points) == [1, 2, 3, 4, 5]
    assert [result.points[x] for x in result.finish] == [5, 4, 3, 2, 1]
    s, _ = GAME.apply(s, CHANCE, forced_deal(s, {}))
    steps = [(st.giver, st.receiver) for st in s.steps]
    finish = result.finish
    assert steps[:2] == [(finish[4], finish[0]), (finish[3], finish[1])]


# --- illegal plays -----------------------------------------------------------------------------
def test_an_illegal_play_is_refused_and_the_hosts_default_is_a_pass() -> None:
    """Rules page, Illegal plays: the engine refuses an illegal play; under the UECda rules the
    host's default (what the UECda adapter applies for a refused play) is a pass, even on an
    empty field."""
    s = dealt({0: "3d 5s", 1: "6c"}, n=5, lead=0, **UECDA)
    with pytest.raises(IllegalActionError, match="not all in your hand"):
        GAME.apply(s, 0, Play(("Qs",)))
    after, events = GAME.apply_default(s, 0)
    assert [e.kind for e in events][:2] == ["timeout", "pass"] and after.turn == 1


# --- what a client sees ---------------------------------------------------------------------
def test_the_view_tells_which_square_the_joker_stands_for() -> None:
    """Rules page, The view: a played joker shows its square (``JK=6s``); the hand shows
    ``JK``."""
    s = dealt({0: "3d 5s 7s JK", 1: "6c"}, n=5, lead=0, **UECDA)
    s = play(s, 0, "5s JK 7s")
    view = GAME.view(s, 1)
    assert view["layout"] == {
        "seat": 0,
        "cards": ["5s", "JK=6s", "7s"],
        "kind": "sequence",
        "returned": False,
    }
    assert hand(s, 0) == ["3d"]
    assert GAME.view(s, 0)["last"] == 0 and view["reverse"] is False and view["lock"] == []


def test_uecda_rules_type_is_the_ordinary_rules() -> None:
    """The preset is a set of ordinary options: a struct like any other."""
    assert isinstance(GAME.make_rules(UECDA), DaifugoRules)


def test_uecda_strongest_cards_are_taken_spades_first_within_a_rank() -> None:
    """Rules (UECda), Exchange: the tribute and a broken return's replacement, as tndhms takes
    them (``trans_strong_card``): the joker, then by rank from the top, ♠ ♥ ♦ ♣ within a rank."""

    def pick(cards: list[str], count: int) -> set[str]:
        hand = C.parse_cards(cards)
        assert hand is not None
        return set(C.cards_str(C.strongest_spades_first(hand, count)))

    assert pick(["Ac", "Ah", "Ad", "5s"], 2) == {"Ah", "Ad"}
    assert pick(["2c", "2s", "JK", "3h"], 2) == {"JK", "2s"}
    assert pick(["Kc", "Kd", "4s"], 1) == {"Kd"}
