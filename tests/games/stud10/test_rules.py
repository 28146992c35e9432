"""One test per rule of ``docs/games/stud10.md`` (the section is in each docstring)."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dennou.core.actions import Action
from dennou.core.errors import ConfigError, GameOverError, IllegalActionError, NotYourTurnError
from dennou.core.game import CHANCE
from dennou.games.stud10 import GAME, Stud10Rules, evaluate, split_pot
from dennou.games.stud10.actions import Deal, Reveal
from dennou.games.stud10.cards import DECK, parse_cards
from dennou.games.stud10.engine import all_reveals
from dennou.games.stud10.state import Stud10State

PLAYERS = ["p0", "p1", "p2", "p3", "p4"]


def deal_of(*hands: str) -> Deal:
    """A deal giving each listed player (in seat order) ``door`` then ``hole`` cards."""
    cards = [c for h in hands for c in h.split()]
    rest = [c for c in DECK if c not in cards]
    return Deal(tuple(cards + rest))


def dealt(deal: Deal, rules: Stud10Rules | None = None) -> Stud10State:
    state = GAME.new(rules or Stud10Rules(view_odds=False), PLAYERS)
    state, _ = GAME.apply(state, CHANCE, deal)
    return state


def run_to_end(state: Stud10State, seed: int = 0) -> Stud10State:
    rng = random.Random(seed)
    while GAME.to_act(state):
        state, _ = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
    return state


# Seat 2 shows the weakest door cards (7-high); the others hold pairs or better.
WEAK_2 = (
    "As Ad 3c 4c 5c  Kh Kd Kc Ks 2c",
    "Qs Qd 3d 4d 5d  Jh Jd Jc Js 2d",
    "7h 5h 4h 3h 2s  Th Td Tc Ts 2h",
    "9s 9d 3s 4s 6c  8h 8d 8c 8s 6d",
    "7s 7d 6h 6s Ac  5s Ah Qh Qc 9c",
)


def _reveal(action: Action) -> Reveal:
    assert isinstance(action, Reveal)
    return action


def test_deal_five_door_cards_up_five_hole_cards_down() -> None:
    """Deal: 10 cards each, 5 door cards face up, 5 hole cards face down, 2 dead cards."""
    deal = deal_of(*[h.replace("Kh", "Kh") for h in WEAK_2[:4]])
    state = dealt(deal)
    for seat in range(5):
        assert len(state.up[seat]) == 5 and len(state.hole[seat]) == 5
    assert state.up[0] == tuple(parse_cards("As Ad 3c 4c 5c"))
    assert state.hole[0] == tuple(parse_cards("Kh Kd Kc Ks 2c"))
    dead = set(range(52)) - {c for s in range(5) for c in state.up[s] + state.hole[s]}
    assert len(dead) == 2


def test_hole_cards_unknown_to_everyone_including_owner() -> None:
    """Deal: hole cards are unknown to everyone, their owner included; dead cards never seen."""
    state = dealt(deal_of(*WEAK_2), Stud10Rules(odds_samples=200, odds_exact_limit=0))
    hidden = {DECK[c] for s in range(5) for c in state.hole[s]}
    hidden |= set(DECK) - {DECK[c] for s in range(5) for c in state.up[s] + state.hole[s]}
    for seat in [*range(5), None]:
        text = json.dumps(GAME.view(state, seat))
        assert not [c for c in hidden if f'"{c}"' in text], seat
    final = run_to_end(state)
    dead = set(DECK) - {DECK[c] for s in range(5) for c in final.up[s]}
    assert len(dead) == 2
    text = json.dumps(GAME.view(final, 0))
    assert not [c for c in dead if f'"{c}"' in text]


def test_weakest_current_strength_reveals() -> None:
    """Reveal loop: among players with hole cards, the weakest current strength reveals."""
    state = dealt(deal_of(*WEAK_2))
    assert state.revealing() == (2,)
    with pytest.raises(IllegalActionError, match="not one of p2's"):
        GAME.apply(state, CHANCE, Reveal(("Kh",)))
    new, events = GAME.apply(state, CHANCE, Reveal(("Td",)))
    assert DECK.index("Td") in new.up[2] and DECK.index("Td") not in new.hole[2]
    assert [e.kind for e in events] == ["reveal"]
    # p2 shows ten high now, still the weakest: p2 reveals again.
    assert new.revealing() == (2,)
    new, _ = GAME.apply(new, CHANCE, Reveal(("Tc",)))
    # A pair of tens beats p3's pair of nines: p3 is the weakest now.
    assert new.revealing() == (3,)


def test_ties_reveal_together() -> None:
    """Reveal loop, simultaneous reveals: players tied for weakest each reveal one card at once."""
    state = dealt(
        deal_of(
            "As Ad 3c 4c 5c  Kh Kd Kc Ks 2c",
            "8h 6h 4d 3d 2s  Jh Jd Jc Js 2d",  # 8-high
            "8s 6s 4h 3h 2h  Th Td Tc Ts 7h",  # the same 8-high: a tie in strength
            "9s 9d 3s 4s 6c  8c 8d Qd Qc 6d",
            "7s 7d 9h 5s Ac  5h Ah Qh Qs 9c",
        )
    )
    assert evaluate("8h 6h 4d 3d 2s") == evaluate("8s 6s 4h 3h 2h")
    assert state.revealing() == (1, 2)
    with pytest.raises(IllegalActionError, match="2 player"):
        GAME.apply(state, CHANCE, Reveal(("Jh",)))
    legal = GAME.legal_actions(state, CHANCE)
    assert len(legal) == 25
    assert Reveal(("Jh", "Th")) in legal and Reveal(("Th", "Jh")) not in legal
    new, events = GAME.apply(state, CHANCE, Reveal(("Jh", "Th")))
    assert [e.data["seat"] for e in events] == [1, 2]
    assert len(new.hole[1]) == len(new.hole[2]) == 4
    assert new.reveals == 1


def test_player_without_hole_cards_is_skipped_even_when_weakest() -> None:
    """Reveal loop: a player whose hole cards are all up no longer takes part, even if weakest."""
    state = dealt(deal_of(*WEAK_2))
    codes = parse_cards("2c 3d 4h 5s 7c 8d 9h Jc Qd Ks")  # ten cards up, king high
    rest = [c for c in range(52) if c not in codes]
    ups = [tuple(codes)] + [tuple(rest[10 * i : 10 * i + 5]) for i in range(4)]
    holes = [()] + [tuple(rest[10 * i + 5 : 10 * i + 10]) for i in range(4)]
    state = Stud10State(
        rules=state.rules,
        players=state.players,
        phase="reveal",
        hand=1,
        stacks=state.stacks,
        pot=5,
        in_hand=(0, 1, 2, 3, 4),
        up=tuple(ups),
        hole=tuple(holes),
    )
    assert state.current(0) < min(state.current(s) for s in range(1, 5))
    assert 0 not in state.revealing() and state.revealing()
    # The loop goes on until nobody has hole cards, and then the showdown pays the pot.
    final = run_to_end(state)
    assert final.phase == "over" and sum(final.stacks) == 5 * 100


def test_loop_runs_until_every_hole_card_is_up() -> None:
    """Reveal loop: repeat until no player has a hole card (5 to 25 steps, not "5 rounds")."""
    for seed in range(20):
        state = GAME.new(Stud10Rules(view_odds=False), PLAYERS)
        state = run_to_end(state, seed)
        assert all(len(state.up[s]) == 10 for s in range(5))
        assert 5 <= state.reveals <= 25
        revealed = sum(len(e.data.get("tied", [])) > 0 for e in state.log if e.kind == "reveal")
        assert revealed == 25


def test_reveal_outcomes_are_listed_and_sampled_uniformly() -> None:
    """Deal: the revealed hole card is chosen uniformly at random among the remaining ones."""
    state = dealt(deal_of(*WEAK_2))
    assert list(GAME.legal_actions(state, CHANCE)) == all_reveals(state)
    rng = random.Random(3)
    seen = {_reveal(GAME.sample_chance(state, rng)).cards[0] for _ in range(200)}
    assert seen == {"Th", "Td", "Tc", "Ts", "2h"}


def test_showdown_highest_final_strength_wins_the_pot() -> None:
    """Showdown: the best 5 of 10 cards wins; the pot is every ante."""
    state = run_to_end(dealt(deal_of(*WEAK_2)))
    # p3 holds four eights; p0 four kings; p1 four jacks; p2 four tens: four kings win.
    assert state.stacks == (104, 99, 99, 99, 99)
    assert GAME.outcome(state).scores == (4.0, -1.0, -1.0, -1.0, -1.0)
    assert GAME.outcome(state).ranks == (1, 2, 2, 2, 2)


def test_pot_split_remainder_to_lowest_seat() -> None:
    """Showdown: exact ties split equally; the indivisible remainder goes to the lowest seat."""
    assert split_pot(5, [1, 3]) == {1: 3, 3: 2}
    assert split_pot(10, [4, 2, 0]) == {0: 4, 2: 3, 4: 3}
    assert split_pot(6, [2, 3]) == {2: 3, 3: 3}
    state = dealt(
        deal_of(
            "2c 3d 4h 5s 7c  8d 9h Jc Qd Kc",
            "As Ks Qs Js Ts  2d 3c 4d 5d 6d",  # royal flush
            "2h 3h 4c 5c 6c  7h 8h 9c Tc Jd",
            "Ah Kh Qh Jh Th  2s 3s 4s 5h 6h",  # royal flush: tie with seat 1
            "6s 7s 8s 9s 7d  8c 9d Td Qc Kd",
        )
    )
    final = run_to_end(state)
    assert final.stacks == (99, 102, 99, 101, 99)
    showdown = next(e for e in final.log if e.kind == "showdown")
    assert showdown.data["winners"] == [1, 3] and showdown.data["payouts"] == [0, 3, 0, 2, 0]
    assert GAME.outcome(final).ranks == (3, 1, 3, 2, 3)


def test_session_antes_stacks_and_sitting_out() -> None:
    """Showdown, the pot: antes each hand, stacks carried over; who cannot pay sits out."""
    rules = Stud10Rules(hands=6, stack=2, ante=1, view_odds=False)
    for seed in range(10):
        state = GAME.new(rules, PLAYERS)
        rng = random.Random(seed)
        while GAME.to_act(state):
            before = state.stacks
            action = GAME.sample_chance(state, rng)
            state, _ = GAME.apply(state, CHANCE, action)
            if isinstance(action, Deal):
                assert state.in_hand == tuple(s for s in range(5) if before[s] >= 1)
                assert len(state.in_hand) >= 2
                assert state.pot == len(state.in_hand)
                for s in range(5):
                    if s not in state.in_hand:
                        assert state.up[s] == () and state.stacks[s] == before[s]
            assert sum(state.stacks) + state.pot == 10
        over = next(e for e in state.log if e.kind == "session_over")
        assert state.hand == 6 or sum(st >= 1 for st in state.stacks) < 2, over.text
        assert GAME.outcome(state).scores == tuple(float(st - 2) for st in state.stacks)


def test_session_until_broke() -> None:
    """Showdown, sessions: hands=0 plays until fewer than two players can pay the ante."""
    state = run_to_end(GAME.new(Stud10Rules(hands=0, stack=3, ante=1, view_odds=False), PLAYERS))
    assert sum(st >= 1 for st in state.stacks) < 2
    assert sum(state.stacks) == 15


def test_players_never_act_and_defaults_are_refused() -> None:
    """Deal: the owner has nothing to choose, so players never act: only chance does."""
    state = GAME.new(Stud10Rules(view_odds=False), PLAYERS)
    snapshot = copy.deepcopy(state)
    for seat in range(5):
        with pytest.raises(NotYourTurnError):
            GAME.apply(state, seat, deal_of())
        with pytest.raises(NotYourTurnError):
            GAME.apply_default(state, seat)
        assert not GAME.legal_actions(state, seat)
    assert state == snapshot
    final = run_to_end(state)
    with pytest.raises(GameOverError):
        GAME.apply(final, CHANCE, Reveal(()))
    with pytest.raises(GameOverError):
        GAME.apply_default(final, 0)


@pytest.mark.parametrize(
    "cards",
    [
        DECK[:51],
        (*DECK[:50], "2c", "As"),
        (*DECK[:51], "as"),
        (*DECK[:51], "1x"),
        (*DECK, "2c"),
    ],
)
def test_deal_must_be_the_whole_deck(cards: tuple[str, ...]) -> None:
    """Deal: 52 cards, no jokers: a deal names each card exactly once."""
    state = GAME.new(Stud10Rules(), PLAYERS)
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalActionError, match="whole deck"):
        GAME.apply(state, CHANCE, Deal(tuple(cards)))
    assert state == snapshot


def test_wrong_action_for_the_phase() -> None:
    state = GAME.new(Stud10Rules(), PLAYERS)
    with pytest.raises(IllegalActionError, match="reveal is not allowed in the deal phase"):
        GAME.apply(state, CHANCE, Reveal(("As",)))
    state = dealt(deal_of(*WEAK_2))
    with pytest.raises(IllegalActionError, match="deal is not allowed in the reveal phase"):
        GAME.apply(state, CHANCE, deal_of())


def test_text_forms() -> None:
    assert GAME.parse_action("reveal As 7d") == Reveal(("As", "7d"))
    deal = deal_of()
    assert GAME.parse_action(str(deal)) == deal
    assert str(Reveal(("As",))) == "reveal As"


@pytest.mark.parametrize(
    "options",
    [{"stack": 0, "ante": 1}, {"hands": 0, "ante": 0}, {"ante": -1}, {"bogus": 1}],
)
def test_bad_rules(options: dict[str, int]) -> None:
    with pytest.raises(ConfigError):
        GAME.make_rules(options)


def test_five_players_exactly() -> None:
    """Deal: exactly 5 players."""
    with pytest.raises(ConfigError):
        GAME.new(Stud10Rules(), PLAYERS[:4])


def test_views_carry_live_odds() -> None:
    """Odds: views carry every player's win probability after each reveal."""
    rules = Stud10Rules(odds_samples=500, odds_exact_limit=5_000)
    state = GAME.new(rules, PLAYERS)
    assert GAME.view(state, None)["odds"] is None
    rng = random.Random(5)
    while GAME.to_act(state):
        state, _ = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
        odds = GAME.view(state, 0)["odds"]
        assert odds is not None
        assert sum(odds["win"]) == pytest.approx(1.0)
        assert odds["method"] in ("exact", "monte_carlo")
    odds = GAME.view(state, None)["odds"]
    assert odds["method"] == "exact" and odds["samples"] == 1
    winners = next(e for e in state.log if e.kind == "showdown").data["winners"]
    assert all((odds["win"][s] > 0) == (s in winners) for s in range(5))
    off = dealt(deal_of(*WEAK_2), Stud10Rules(view_odds=False))
    assert GAME.view(off, 1)["odds"] is None


def test_render_shows_hand_and_odds() -> None:
    state = dealt(deal_of(*WEAK_2), Stud10Rules(odds_samples=300, odds_exact_limit=0))
    text = GAME.render(GAME.view(state, None))
    assert "p2" in text and "next to reveal: p2" in text and "%" in text
    assert "Monte Carlo" in text


@settings(max_examples=40, deadline=None)
@given(st.permutations(DECK), st.integers(0, 2**32))
def test_property_any_deal_plays_out(deck: list[str], seed: int) -> None:
    """Reveal loop and Showdown: whatever the deal, the loop reveals exactly the weakest players
    with hole cards, ends with all cards up, and pays the whole pot to the best final hands."""
    state = dealt(Deal(tuple(deck)))
    rng = random.Random(seed)
    while state.phase == "reveal":
        live = [s for s in range(5) if state.hole[s]]
        low = min(evaluate(list(state.up[s])) for s in live)
        assert state.revealing() == tuple(s for s in live if evaluate(list(state.up[s])) == low)
        action = GAME.sample_chance(state, rng)
        assert action in GAME.legal_actions(state, CHANCE)
        state, _ = GAME.apply(state, CHANCE, action)
    finals = [evaluate(list(state.up[s])) for s in range(5)]
    winners = [s for s in range(5) if finals[s] == max(finals)]
    assert sum(state.stacks) == 500
    assert all(state.stacks[s] > 99 for s in winners)
    assert all(state.stacks[s] == 99 for s in range(5) if s not in winners)
    assert state.stacks[min(winners)] == 99 + 5 // len(winners) + 5 % len(winners)


def test_rejected_reveal_leaves_state_unchanged() -> None:
    """Reveal loop: a reveal of someone else's card, or of too many cards, changes nothing."""
    state = dealt(deal_of(*WEAK_2))
    snapshot = copy.deepcopy(state)
    for bad in (Reveal(("Kh",)), Reveal(("Td", "Tc")), Reveal(()), Reveal(("T",)), Reveal(("td",))):
        assert bad not in GAME.legal_actions(state, CHANCE)
        with pytest.raises(IllegalActionError):
            GAME.apply(state, CHANCE, bad)
        assert state == snapshot


def test_every_seat_sees_the_same() -> None:
    """Deal: nobody, the owner included, knows a hole card, so all views agree but for `seat`."""
    state = dealt(deal_of(*WEAK_2), Stud10Rules(odds_samples=300, odds_exact_limit=0))
    spectator = GAME.view(state, None)
    for seat in range(5):
        assert {**GAME.view(state, seat), "seat": None} == spectator
