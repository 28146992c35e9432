"""Named rule tests for the Pandemic Game; each cites ``docs/games/pandemic.md``."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from dennou.core.errors import (
    ConfigError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
)
from dennou.core.game import CHANCE
from dennou.games import get
from dennou.games.pandemic import GAME, PandemicRules, qualification
from dennou.games.pandemic.actions import Check, Contact, Cure, Idle, Infect, Tiebreak
from dennou.games.pandemic.state import PandemicState
from tests.games.pandemic.helpers import run_ticks, start, tick, with_status

# --- Setup --------------------------------------------------------------------------------------


def test_setup_two_hidden_infected_drawn_by_chance() -> None:
    """Setup: exactly 2 of 12 start infected, chosen by the host; every draw is an outcome."""
    state = GAME.new(GAME.make_rules(), [f"p{i}" for i in range(12)])
    assert GAME.to_act(state) == {CHANCE}
    outcomes = GAME.legal_actions(state, CHANCE)
    assert len(outcomes) == 66
    assert len(set(outcomes)) == 66
    assert all(isinstance(a, Infect) and len(a.seats) == 2 for a in outcomes)
    draw = GAME.sample_chance(state, random.Random(3))
    assert draw in outcomes
    after, events = GAME.apply(state, CHANCE, draw)
    assert sum(after.infected) == 2
    assert after.vaccines == (0,) * 12
    assert [e.kind for e in events if e.audience is None] == ["start"]
    # The draw itself is told to nobody during the game.
    assert all(not e.visible_to(s) for e in events if e.kind == "infect" for s in range(12))


def test_setup_player_counts_and_infected_option() -> None:
    """Setup: 4 to 24 players; the infected count is an option below the player count."""
    with pytest.raises(ConfigError):
        GAME.new(GAME.make_rules(), ["a", "b", "c"])
    with pytest.raises(ConfigError):
        GAME.new(GAME.make_rules(), [f"p{i}" for i in range(25)])
    with pytest.raises(ConfigError):
        GAME.new(GAME.make_rules({"infected": 4}), ["a", "b", "c", "d"])
    with pytest.raises(ConfigError):
        GAME.make_rules({"no_such_option": 1})
    rules = GAME.make_rules({"infected": "3", "qualifiers": "none", "min_vaccines": "4"})
    assert rules.infected == 3 and rules.qualifiers is None and rules.min_vaccines == 4


def test_registered_as_pandemic() -> None:
    """The registry lists the game as ``pandemic``."""
    assert get("pandemic") is GAME


# --- Contact outcomes (the source's table) -----------------------------------------------------


def test_contact_table_normal_normal_each_gets_a_vaccine() -> None:
    """Contact outcomes, row 1: normal + normal: both stay normal and get 1 vaccine each."""
    state = start((0, 1))
    state, _ = tick(state, {2: Contact(3), 3: Contact(2)})
    assert state.infected[2:4] == (False, False)
    assert state.vaccines[2:4] == (1, 1)


def test_contact_table_normal_without_vaccine_meets_infected() -> None:
    """Contact outcomes, row 2: normal with no vaccine + infected: the normal one is infected."""
    state = start((0, 1))
    state, _ = tick(state, {2: Contact(0), 0: Contact(2)})
    assert state.infected[0] and state.infected[2]
    assert state.vaccines[0] == state.vaccines[2] == 0


def test_contact_table_normal_with_vaccines_meets_infected() -> None:
    """Contact outcomes, row 3: normal with k >= 1 + infected: A loses 1, is infected; B normal."""
    state = with_status(start((0, 1)), {2: (False, 3), 0: (True, 1)})
    state, _ = tick(state, {0: Contact(2), 2: Contact(0)})
    assert state.infected[2] and state.vaccines[2] == 2
    assert not state.infected[0] and state.vaccines[0] == 1  # the source: the vaccine is lost


def test_contact_table_transfer_option_passes_the_vaccine() -> None:
    """Contact outcomes, row 3 with ``transfer`` (the manga): A's vaccine passes on to B."""
    state = with_status(start((0, 1), transfer=True), {2: (False, 3), 0: (True, 1)})
    state, _ = tick(state, {0: Contact(2), 2: Contact(0)})
    assert state.infected[2] and state.vaccines[2] == 2
    assert not state.infected[0] and state.vaccines[0] == 2


def test_contact_table_infected_infected_nothing() -> None:
    """Contact outcomes, row 4: infected + infected: nothing happens (vaccines too)."""
    state = with_status(start((0, 1)), {0: (True, 2), 1: (True, 0)})
    state, _ = tick(state, {0: Contact(1), 1: Contact(0)})
    assert state.infected[:2] == (True, True)
    assert state.vaccines[:2] == (2, 0)
    assert len(state.contacts) == 1


def test_contact_table_infected_with_vaccine_still_infects_an_unvaccinated_normal() -> None:
    """Contact outcomes, row 2: the infected player's own vaccines do not protect the other."""
    state = with_status(start((0, 1)), {0: (True, 2)})
    state, _ = tick(state, {0: Contact(5), 5: Contact(0)})
    assert state.infected[0] and state.vaccines[0] == 2
    assert state.infected[5] and state.vaccines[5] == 0


def test_pair_vaccine_once() -> None:
    """Contact outcomes, row 1: a pair earns vaccines only the first time (seed: 1回限り)."""
    state = start((0, 1))
    for _ in range(3):
        state, _ = tick(state, {2: Contact(3), 3: Contact(2)})
    assert state.vaccines[2:4] == (1, 1)
    assert len(state.contacts) == 3
    state, _ = tick(state, {2: Contact(4), 4: Contact(2)})  # a new pair still earns
    assert state.vaccines[2] == 2 and state.vaccines[4] == 1


def test_pair_vaccine_once_counts_normal_contacts_only_by_default() -> None:
    """``pair_rule`` default: a pair's first contact while one was infected does not use it up."""
    state = with_status(start((0, 1)), {0: (True, 1)})
    state, _ = tick(state, {0: Contact(2), 2: Contact(0)})  # 2 infected (no vaccine), 0 stays
    state, _ = tick(state, {0: Contact(3), 3: Contact(0)})  # 3 infected; 0 still infected
    state = with_status(state, {0: (False, 0), 2: (False, 0)})
    state, _ = tick(state, {0: Contact(2), 2: Contact(0)})
    assert state.vaccines[0] == 1 and state.vaccines[2] == 1


def test_pair_rule_first_contact_option() -> None:
    """``pair_rule=first_contact``: any first contact uses up the pair's vaccine."""
    state = with_status(start((0, 1), pair_rule="first_contact"), {0: (True, 0)})
    state, _ = tick(state, {0: Contact(2), 2: Contact(0)})
    state = with_status(state, {0: (False, 0), 2: (False, 0)})
    state, _ = tick(state, {0: Contact(2), 2: Contact(0)})
    assert state.vaccines[0] == 0 and state.vaccines[2] == 0


# --- Time: requests, matching, resolution order ----------------------------------------------


def test_contact_needs_mutual_requests() -> None:
    """Time: a contact happens only when both ask for each other; one-sided asks do nothing."""
    state = start((0, 1))
    state, events = tick(state, {2: Contact(3), 3: Contact(4), 4: Contact(5)})
    assert state.contacts == ()
    assert state.vaccines == (0,) * 12
    assert not [e for e in events if e.kind == "contact"]


def test_mutual_matching_pairs_up_several_couples_in_one_tick() -> None:
    """Time: every mutual pair in a tick makes its contact, independently."""
    state = start((0, 1))
    state, _ = tick(
        state, {2: Contact(3), 3: Contact(2), 4: Contact(5), 5: Contact(4), 6: Contact(7)}
    )
    assert [(c.a, c.b) for c in state.contacts] == [(2, 3), (4, 5)]
    assert state.vaccines[2:8] == (1, 1, 1, 1, 0, 0)


def test_player_asked_by_several_contacts_only_the_one_it_asks_back() -> None:
    """Time: a player asked by several, who asks for one of them back, contacts only that one."""
    state = start((0, 1))
    state, _ = tick(state, {2: Contact(4), 3: Contact(4), 5: Contact(4), 4: Contact(3)})
    assert [(c.a, c.b) for c in state.contacts] == [(3, 4)]
    assert state.vaccines[2:6] == (0, 1, 1, 0)


def test_player_asked_by_several_who_asks_none_back_contacts_nobody() -> None:
    """Time: requests to a player who asks someone else (or nobody) go unanswered."""
    state = start((0, 1))
    state, _ = tick(state, {2: Contact(4), 3: Contact(4), 4: Contact(7)})
    assert state.contacts == ()


def test_resolution_order_cures_then_contacts_then_checks() -> None:
    """Contact outcomes: a tick resolves cures, then contacts, then checks.

    Each player does one thing per tick, so the order can change no result; this pins what one
    tick with all three kinds gives: the cure works, the contact uses the statuses after cures,
    and the check reports the state after the tick.
    """
    state = with_status(start((0, 1)), {0: (True, 2), 1: (True, 0), 2: (False, 1)})
    state, events = tick(state, {0: Cure(), 1: Contact(2), 2: Contact(1), 3: Check()})
    assert not state.infected[0] and state.vaccines[0] == 1
    assert not state.infected[1] and state.infected[2] and state.vaccines[2] == 0
    kinds = [e.kind for e in events if e.kind in ("contact", "check")]
    assert kinds == ["contact", "check"]
    assert state.cures == ((1, 1, 0),)
    assert state.checks[-1].seat == 3 and not state.checks[-1].infected


def test_check_reports_own_status_and_vaccines_to_that_player_only() -> None:
    """Setup/What each player sees: the check room shows one's own status and vaccines."""
    state = start((0, 1))
    state, _ = tick(state, {2: Contact(0), 0: Contact(2)})
    state, events = tick(state, {2: Check(), 4: Check()})
    checks = [e for e in events if e.kind == "check"]
    assert [(e.data["seat"], e.data["infected"]) for e in checks] == [(2, True), (4, False)]
    assert all(e.audience == frozenset({e.data["seat"]}) for e in checks)
    assert GAME.view(state, 2)["checks"] == [
        {"round": 1, "tick": 2, "infected": True, "vaccines": 0}
    ]
    assert GAME.view(state, 3)["checks"] == []


def test_cure_spends_a_vaccine_only_when_infected() -> None:
    """Time, cure: infected with a vaccine spends one and is normal; otherwise nothing happens."""
    state = with_status(start((0, 1)), {0: (True, 2), 1: (True, 0), 2: (False, 3)})
    state, _ = tick(state, {0: Cure(), 1: Cure(), 2: Cure()})
    assert state.infected[:3] == (False, True, False)
    assert state.vaccines[:3] == (1, 0, 3)
    assert state.cures == ((1, 1, 0),)


def test_default_on_timeout_is_idle() -> None:
    """Time: a player who does not seal an action in time idles."""
    state = start((0, 1))
    state, _ = GAME.apply(state, 2, Contact(3))
    after, events = GAME.apply_default(state, 3)
    assert after.pending[3] == Idle()
    assert events[0].kind == "timeout"


def test_round_announcements() -> None:
    """Time: after each round the host announces how many are normal and infected."""
    state = start((0, 1), rounds=2, ticks=2)
    state, _ = tick(state, {0: Contact(5), 5: Contact(0)})
    state, events = tick(state, {})
    announce = [e for e in events if e.kind == "announce"]
    assert len(announce) == 1 and announce[0].audience is None
    assert announce[0].data == {"round": 1, "normal": 9, "infected": 3}
    assert GAME.view(state, None)["announcements"] == [{"round": 1, "normal": 9, "infected": 3}]
    quiet = run_ticks(start((0, 1), rounds=2, ticks=2, announce=False), 2)
    assert quiet.announcements == ()


def test_round_and_tick_counting_and_end() -> None:
    """Time: 3 rounds of 8 ticks by default, then the end."""
    state = start((0, 1))
    assert (state.round, state.tick) == (1, 1)
    state = run_ticks(state, 8)
    assert (state.round, state.tick) == (2, 1)
    state = run_ticks(state, 16)
    assert state.phase in ("tiebreak", "over")


# --- End: qualification -----------------------------------------------------------------------


def _end(statuses: dict[int, tuple[bool, int]], **options: Any) -> PandemicState:
    state = with_status(start((0, 1), rounds=1, ticks=1, **options), statuses)
    state, _ = tick(state, {})
    return state


def test_qualification_top6_normal_by_vaccines() -> None:
    """End: the normal players ranked by vaccines, most first; the top 6 qualify."""
    vacc = {s: (False, v) for s, v in enumerate([9, 0, 5, 4, 3, 2, 1, 1, 1, 0, 0, 0])}
    vacc[0] = (True, 9)  # infected: never qualifies, whatever its vaccines
    state = _end(vacc)
    assert state.phase == "tiebreak"  # 5th-6th places: seats 6, 7, 8 with 1 each, two slots
    assert state.qualified == (2, 3, 4, 5)
    assert state.tied == (6, 7, 8) and state.slots == 2
    outcomes = GAME.legal_actions(state, CHANCE)
    assert list(outcomes) == [Tiebreak((6, 7)), Tiebreak((6, 8)), Tiebreak((7, 8))]
    after, _ = GAME.apply(state, CHANCE, Tiebreak((6, 8)))
    assert after.phase == "over" and after.qualified == (2, 3, 4, 5, 6, 8)
    out = GAME.outcome(after)
    assert [s for s in range(12) if out.scores[s] == 1.0] == [2, 3, 4, 5, 6, 8]
    assert out.ranks[8] == 1 and out.ranks[7] == 7


def test_qualification_tie_at_the_cut_is_a_seeded_draw() -> None:
    """End: equal vaccines at the cut: the host's seeded draw decides (a chance action)."""
    vacc = {s: (False, 0) for s in range(12)}
    state = _end(vacc)
    assert state.tied == tuple(range(12)) and state.slots == 6
    assert len(GAME.legal_actions(state, CHANCE)) == 924
    a = GAME.sample_chance(state, random.Random(1))
    b = GAME.sample_chance(state, random.Random(1))
    assert a == b and a in GAME.legal_actions(state, CHANCE)
    with pytest.raises(IllegalActionError):
        GAME.apply(state, CHANCE, Tiebreak((0, 1, 2)))


def test_qualification_no_draw_when_the_cut_falls_between_counts() -> None:
    """End: no draw when the 6th and 7th normal players have different vaccine counts."""
    vacc = {s: (False, v) for s, v in enumerate([6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0])}
    state = _end(vacc)
    assert state.phase == "over" and state.qualified == (0, 1, 2, 3, 4, 5)


def test_qualification_fewer_normal_than_places() -> None:
    """End: if fewer than 6 are normal, every normal player qualifies."""
    vacc = {s: (s >= 4, 0) for s in range(12)}
    state = _end(vacc)
    assert state.phase == "over" and state.qualified == (0, 1, 2, 3)


def test_qualification_manga_option_at_least_4_vaccines() -> None:
    """End, option: the manga's rule: every normal player with at least 4 vaccines qualifies."""
    vacc = {s: (False, v) for s, v in enumerate([4, 5, 4, 3, 9, 4, 4, 4, 4, 0, 0, 0])}
    vacc[4] = (True, 9)
    state = _end(vacc, qualifiers=None, min_vaccines=4)
    assert state.phase == "over" and state.qualified == (0, 1, 2, 5, 6, 7, 8)


def test_qualification_function_matches_engine() -> None:
    """End: ``qualification`` returns the sure qualifiers, the tied and the slots."""
    rules = PandemicRules(qualifiers=2)
    assert qualification([False] * 4, [3, 2, 2, 1], rules) == ((0,), (1, 2), 1)
    assert qualification([False, True, False, False], [3, 2, 2, 1], rules) == ((0, 2), (), 0)


# --- What each player sees ---------------------------------------------------------------------


def test_player_never_sees_own_status_or_vaccines() -> None:
    """What each player sees: never a status or vaccine count, one's own included."""
    state = start((0, 1))
    state, _ = tick(state, {2: Contact(3), 3: Contact(2)})
    for seat in (0, 2, None):
        v = GAME.view(state, seat)
        for key in ("infected", "vaccines", "initially_infected", "history", "all_checks"):
            assert key not in v
    assert GAME.view(state, 2)["contacts"] == [{"round": 1, "tick": 1, "players": [2, 3]}]


def test_private_contact_log_option() -> None:
    """What each player sees: with ``public_contacts`` off, only one's own contacts."""
    state = start((0, 1), public_contacts=False)
    state, events = tick(state, {2: Contact(3), 3: Contact(2)})
    (contact,) = [e for e in events if e.kind == "contact"]
    assert contact.audience == frozenset({2, 3})
    assert GAME.view(state, 2)["contacts"] and GAME.view(state, 3)["contacts"]
    assert GAME.view(state, 4)["contacts"] == [] and GAME.view(state, None)["contacts"] == []


def test_sealed_orders_stay_hidden_until_the_end() -> None:
    """Time: actions are sealed: others see only that a player has sealed, not what."""
    state = start((0, 1))
    state, _ = GAME.apply(state, 2, Contact(3))
    v3 = GAME.view(state, 3)
    assert v3["submitted"][2] is True and "my_action" in v3 and v3["my_action"] is None
    assert GAME.view(state, 2)["my_action"] == {"type": "contact", "player": 3}
    assert "'player'" not in str(GAME.view(state, None))
    assert "'player'" not in str(GAME.view(state, 3))


def test_everything_is_public_after_the_end() -> None:
    """End: the public record: every final status and vaccines, and the full contact history."""
    state = start((0, 1), rounds=1, ticks=2, public_contacts=False)
    state, _ = tick(state, {2: Contact(3), 3: Contact(2), 4: Check()})
    state, _ = tick(state, {})
    assert state.phase == "tiebreak"
    v = GAME.view(state, None)
    assert v["infected"][:3] == [True, True, False] and v["vaccines"][2] == 1
    assert v["contacts"] == [{"round": 1, "tick": 1, "players": [2, 3]}]
    assert v["all_checks"][0]["seat"] == 4
    assert v["initially_infected"] == [0, 1]


def test_talk_public_and_private_pairs() -> None:
    """Time: free talk, public and private between any two players; it binds nobody."""
    state = start((0, 1))
    assert "pair:2-5" in GAME.talk_channels(state, 2)
    assert "pair:3-5" not in GAME.talk_channels(state, 2)
    assert GAME.talk_channels(state, None) == frozenset()
    state, (event,) = GAME.talk(state, 2, "pair:2-5", "I am normal, touch me")
    assert event.audience == frozenset({2, 5})
    state, _ = GAME.talk(state, 3, "public", "hello")
    assert [t["text"] for t in GAME.view(state, 5)["talk"]] == ["I am normal, touch me", "hello"]
    assert [t["text"] for t in GAME.view(state, 4)["talk"]] == ["hello"]
    assert [t["text"] for t in GAME.view(state, None)["talk"]] == ["hello"]
    with pytest.raises(IllegalActionError):
        GAME.talk(state, 3, "pair:2-5", "eavesdrop")
    with pytest.raises(IllegalActionError):
        GAME.talk(state, 3, "pair:5-3", "wrong order")


# --- Bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "action", "error"),
    [
        (2, Contact(2), IllegalActionError),
        (2, Contact(12), IllegalActionError),
        (2, Contact(-1), IllegalActionError),
        (2, Infect((0, 1)), IllegalActionError),
        (CHANCE, Idle(), NotYourTurnError),
        (12, Idle(), NotYourTurnError),
    ],
)
def test_bad_input_raises_and_leaves_state_unchanged(
    seat: int, action: object, error: type
) -> None:
    """Bad input raises the error that names the rule; the state is unchanged."""
    state = start((0, 1))
    before = copy.deepcopy(state)
    with pytest.raises(error):
        GAME.apply(state, seat, action)  # type: ignore[arg-type]
    assert state == before
    assert action not in GAME.legal_actions(state, seat)


def test_sealing_twice_is_not_your_turn() -> None:
    """Time: one sealed action per player per tick."""
    state = start((0, 1))
    state, _ = GAME.apply(state, 2, Check())
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, 2, Idle())


def test_after_the_end_game_over() -> None:
    """End: nothing applies after the game is over."""
    state = start((0, 1), rounds=1, ticks=1, qualifiers=None)
    state, _ = tick(state, {})
    assert state.phase == "over"
    with pytest.raises(GameOverError):
        GAME.apply(state, 2, Idle())
    with pytest.raises(GameOverError):
        GAME.apply_default(state, 2)


@pytest.mark.parametrize(
    "text", ["contact", "contact x", "fly", "contact 1 2", '{"type":"cure","x":1}']
)
def test_malformed_actions(text: str) -> None:
    """Actions: malformed text or JSON is an InvalidActionError."""
    with pytest.raises(InvalidActionError):
        GAME.parse_action(text)


def test_text_forms() -> None:
    """Actions: the text forms people type."""
    assert GAME.parse_action("contact 3") == Contact(3)
    assert GAME.parse_action("check") == Check()
    assert GAME.parse_action("cure") == Cure()
    assert GAME.parse_action("idle") == Idle()
    assert GAME.parse_action({"type": "contact", "player": 7}) == Contact(7)
    assert str(Infect((2, 7))) == "infect 2 7"
    assert GAME.parse_action("infect 2 7") == Infect((2, 7))


def test_views_do_not_depend_on_hidden_facts() -> None:
    """What each player sees: statuses, vaccines, sealed orders and others' private talk leave
    a player's view (and a spectator's) unchanged."""
    base = start((0, 1))
    base, _ = tick(base, {2: Contact(3), 3: Contact(2), 6: Check()})
    hidden = with_status(base, {0: (False, 4), 7: (True, 2)})
    hidden, _ = GAME.apply(hidden, 3, Contact(8))
    hidden, _ = GAME.talk(hidden, 7, "pair:7-8", "I am infected, do not tell")
    plain, _ = GAME.apply(base, 3, Idle())
    for seat in (5, 6, None):
        assert GAME.view(hidden, seat) == GAME.view(plain, seat)
    assert GAME.view(hidden, 3) != GAME.view(plain, 3)  # its own sealed action
    assert GAME.view(hidden, 8) != GAME.view(plain, 8)  # the private line


def test_render_and_describe_legal() -> None:
    """The terminal text: contacts, checks, the tick, and how to type actions."""
    state = start((0, 1))
    state, _ = tick(state, {2: Contact(3), 3: Contact(2), 4: Check()})
    text = GAME.render(GAME.view(state, 4))
    assert "p2 <-> p3" in text and "your check" in text and "tick 2/8" in text
    assert "contact <seat>" in GAME.describe_legal(GAME.legal_actions(state, 4))
    end = run_ticks(start((0, 1), rounds=1, ticks=1, qualifiers=None), 1)
    assert "QUALIFIED" in GAME.render(GAME.view(end, None))
