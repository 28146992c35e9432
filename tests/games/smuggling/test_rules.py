"""Rule tests for the Smuggling Game, one per rule of ``docs/games/smuggling.md``."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dennou.core.errors import (
    ConfigError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
)
from dennou.games.smuggling import GAME
from dennou.games.smuggling.actions import Doubt, Nominate, Pass, Ready, Trunk, parse_amount
from dennou.games.smuggling.settle import half, settle, settle_grid
from tests.games.smuggling.helpers import (
    OKU,
    M,
    nominate_first,
    play_small_game,
    start,
    with_balances,
)

UNIT = 10_000


# --- A small game, step 5: the four settlement cases -------------------------------------


def test_pass_sends_the_trunk_to_the_smugglers_third_country_account() -> None:
    """Rules page, "A small game" 5: pass -> s goes to the smuggler's third-country account."""
    s0 = start()
    s1 = play_small_game(s0, 30 * M, 0)
    smuggler, inspector = 0, 1
    assert s1.home[smuggler] == s0.home[smuggler] - 30 * M
    assert s1.third[smuggler] == s0.third[smuggler] + 30 * M
    assert s1.third[inspector] == s0.third[inspector]
    assert s1.results[-1].case == "pass"


def test_doubt_on_an_empty_trunk_pays_half_the_doubt_to_the_smuggler() -> None:
    """Rules page, step 5: doubt X with s == 0 -> the inspector pays X/2 to the smuggler."""
    s1 = play_small_game(start(), 0, 50 * M)
    assert s1.third == (OKU + 25 * M, OKU - 25 * M)
    assert s1.home == (3 * OKU, 3 * OKU)
    r = s1.results[-1]
    assert (r.case, r.compensation, r.to_smuggler, r.to_inspector) == (
        "empty",
        25 * M,
        25 * M,
        -25 * M,
    )


@pytest.mark.parametrize("doubt", [30 * M, 31 * M, 200 * M])
def test_doubt_at_or_above_the_amount_sends_the_trunk_to_the_inspector(doubt: int) -> None:
    """Rules page, step 5: doubt X with 0 < s <= X -> s goes to the inspector (no compensation)."""
    s1 = play_small_game(start(), 30 * M, doubt)
    assert s1.home[0] == 3 * OKU - 30 * M
    assert s1.third == (OKU, OKU + 30 * M)
    assert s1.results[-1].case == "caught"


def test_doubt_below_the_amount_lets_the_trunk_through_plus_compensation() -> None:
    """Rules page, step 5: X < s -> s to the smuggler, and the inspector pays X/2 on top."""
    s1 = play_small_game(start(), 30 * M, 30 * M - UNIT)
    comp = (30 * M - UNIT) // 2 // UNIT * UNIT
    assert s1.home[0] == 3 * OKU - 30 * M
    assert s1.third == (OKU + 30 * M + comp, OKU - comp)
    assert s1.results[-1].case == "through"


def test_half_of_the_doubt_rounds_down_to_the_unit() -> None:
    """Rules page, step 5: "X/2 rounds down to the unit" (10,000 yen)."""
    assert half(30_000, UNIT) == 10_000
    assert half(10_000, UNIT) == 0
    assert half(20_000, UNIT) == 10_000
    assert half(50 * M + 10_000, UNIT) == 25 * M
    s1 = play_small_game(start(), 0, 30_000)
    assert s1.third == (OKU + 10_000, OKU - 10_000)
    s2 = play_small_game(start(), 0, 10_000)
    assert s2.third == (OKU, OKU) and s2.results[-1].compensation == 0


@given(
    st.integers(0, 10_000).map(lambda u: u * UNIT),
    st.integers(0, 20_000).map(lambda u: u * UNIT),
)
def test_settlement_conserves_money_and_grid_matches(amount: int, doubt: int) -> None:
    """Rules page, step 5: what leaves home reaches a third account; compensation only moves."""
    st_ = settle(amount, doubt, UNIT)
    assert st_.to_smuggler + st_.to_inspector == amount
    to_s, to_i = settle_grid([amount], [doubt], UNIT)  # type: ignore[arg-type]
    assert (int(to_s[0, 0]), int(to_i[0, 0])) == (st_.to_smuggler, st_.to_inspector)


# --- limits ------------------------------------------------------------------------------


def test_doubt_limit_is_twice_the_inspectors_third_country_balance() -> None:
    """Rules page, step 4: X may be at most twice the inspector's third-country balance."""
    s = nominate_first(start())
    s = with_balances(s, third=(OKU, 35 * M + UNIT))
    s, _ = GAME.apply(s, 0, Trunk(10 * M))
    legal = GAME.legal_actions(s, 1)
    assert Doubt(70 * M + 2 * UNIT) in legal
    assert Doubt(70 * M + 3 * UNIT) not in legal
    assert Doubt(0) not in legal and Pass() in legal
    assert len(legal) == 1 + (70 * M + 2 * UNIT) // UNIT
    before = copy.deepcopy(s)
    with pytest.raises(IllegalActionError, match="step 4"):
        GAME.apply(s, 1, Doubt(70 * M + 3 * UNIT))
    assert s == before


def test_an_inspector_with_an_empty_third_account_can_only_pass() -> None:
    """Rules page, step 4: the compensation must be payable, so no doubt at all with 0."""
    s = nominate_first(start())
    s = with_balances(s, third=(OKU, 0))
    s, _ = GAME.apply(s, 0, Trunk(10 * M))
    assert list(GAME.legal_actions(s, 1)) == [Pass()]


def test_trunk_holds_at_most_100m_and_the_home_balance_in_units() -> None:
    """Rules page, step 2: 0 <= s <= min(100M, home balance), in 10,000-yen units."""
    s = nominate_first(start())
    legal = GAME.legal_actions(s, 0)
    assert len(legal) == OKU // UNIT + 1
    assert Trunk(OKU) in legal and Trunk(OKU + UNIT) not in legal
    assert Trunk(0) in legal and Trunk(-UNIT) not in legal and Trunk(UNIT + 1) not in legal
    for bad in (OKU + UNIT, UNIT + 1, -UNIT):
        with pytest.raises(IllegalActionError, match="step 2"):
            GAME.apply(s, 0, Trunk(bad))
    poor = with_balances(s, home=(40 * M, 3 * OKU))
    assert Trunk(40 * M) in GAME.legal_actions(poor, 0)
    assert Trunk(40 * M + UNIT) not in GAME.legal_actions(poor, 0)


# --- step 1: representatives -------------------------------------------------------------


def test_most_nominations_wins() -> None:
    """Rules page, step 1: each member nominates one teammate; most nominations wins."""
    s = start(3)
    for seat, nominee in [(0, 2), (1, 2), (2, 1), (3, 5), (4, 4), (5, 4)]:
        s, _ = GAME.apply(s, seat, Nominate(nominee))
    assert (s.smuggler, s.inspector) == (2, 4)
    assert s.votes is not None and s.votes.north == ((1, 1), (2, 2))
    assert s.represented == (0, 0, 1, 0, 1, 0)


def test_nomination_ties_go_to_the_least_represented_then_the_lowest_seat() -> None:
    """Rules page, step 1: ties go to the nominee who has represented least, then lowest seat."""
    s = start(3)
    s = replace(s, represented=(0, 2, 1, 0, 0, 0))
    for seat, nominee in [(0, 1), (1, 2), (2, 0), (3, 5), (4, 4), (5, 3)]:
        s, _ = GAME.apply(s, seat, Nominate(nominee))
    # North: 0, 1, 2 tie on one vote; 0 represented least. South: all tie at 0: lowest seat 3.
    assert (s.smuggler, s.inspector) == (0, 3)
    s = start(3)
    s = replace(s, represented=(2, 1, 1, 0, 0, 0))
    for seat, nominee in [(0, 2), (1, 1), (2, 0), (3, 3), (4, 3), (5, 3)]:
        s, _ = GAME.apply(s, seat, Nominate(nominee))
    assert (s.smuggler, s.inspector) == (1, 3)  # 1 and 2 tie on represented: lower seat


def test_only_teammates_may_be_nominated_and_nominations_are_sealed() -> None:
    """Rules page, step 1 and "What each player sees": a teammate only; sealed until all are in."""
    s = start(2)
    assert GAME.legal_actions(s, 0) == [Nominate(0), Nominate(1)]
    with pytest.raises(IllegalActionError, match="own team"):
        GAME.apply(s, 0, Nominate(2))
    s, _ = GAME.apply(s, 0, Nominate(1))
    assert GAME.view(s, 0)["my_nomination"] == 1
    assert GAME.view(s, 1)["my_nomination"] is None
    assert GAME.view(s, 1)["nominated"] == [True, False, False, False]
    with pytest.raises(NotYourTurnError):
        GAME.apply(s, 0, Nominate(0))


def test_rotation_picks_members_in_seat_order() -> None:
    """Rules page, step 1: "a team can also use a fixed rotation" (the `rotation` option)."""
    s = start(2, selection="rotation", small_games=6)
    picks = []
    while s.phase != "over":
        assert s.phase == "trunk"
        picks.append((s.smuggler, s.inspector))
        s = play_small_game(s, 0, 0)
    assert picks == [(0, 2), (2, 0), (1, 3), (3, 1), (0, 2), (2, 0)]


def test_roles_alternate_north_smuggles_in_odd_games() -> None:
    """Rules page, "A small game": odd games North smuggles, even games South."""
    s = start(2, small_games=4)
    teams = []
    while s.phase != "over":
        teams.append(s.smuggling_team)
        s = play_small_game(s, 0, 0)
    assert teams == ["north", "south", "north", "south"]
    assert [r.smuggler for r in s.results] == [0, 2, 0, 2]


# --- step 3: the inspection room ---------------------------------------------------------


def test_room_talk_is_bounded_and_private_to_the_representatives() -> None:
    """Rules page, step 3 and "What each player sees": the two alone, a bounded number of lines."""
    s = nominate_first(start(2, room_messages=2))
    assert "room" not in GAME.talk_channels(s, 0)  # not before the trunk is in the room
    s, _ = GAME.apply(s, 0, Trunk(5 * M))
    assert GAME.to_act(s) == frozenset({0, 2})
    assert "room" in GAME.talk_channels(s, 0) and "room" not in GAME.talk_channels(s, 1)
    for i in range(2):
        s, events = GAME.talk(s, 0, "room", f"line {i}")
        assert events[0].audience == frozenset({0, 2})
    assert "room" not in GAME.talk_channels(s, 0)
    with pytest.raises(IllegalActionError, match="2 lines each"):
        GAME.talk(s, 0, "room", "one more")
    s, _ = GAME.talk(s, 2, "room", "open it")
    assert [t["text"] for t in GAME.view(s, 2)["talk"]] == ["line 0", "line 1", "open it"]
    assert GAME.view(s, 1)["talk"] == [] and GAME.view(s, None)["talk"] == []
    assert GAME.view(s, 0)["room_left"] == 0 and GAME.view(s, 2)["room_left"] == 1


def test_room_closes_to_a_representative_once_they_have_acted() -> None:
    """Decision (docs): `ready` ends the smuggler's talk, the verdict the inspector's."""
    s = nominate_first(start(2))
    s, _ = GAME.apply(s, 0, Trunk(5 * M))
    s, _ = GAME.apply(s, 2, Doubt(5 * M))
    assert "room" not in GAME.talk_channels(s, 2) and "room" in GAME.talk_channels(s, 0)
    assert GAME.view(s, 0)["verdict_given"] and GAME.view(s, 0)["my_verdict"] is None
    assert GAME.view(s, 2)["my_verdict"] == 5 * M
    assert s.results == ()  # sealed until the smuggler is ready
    s, _ = GAME.apply(s, 0, Ready())
    assert s.results[-1].case == "caught"


def test_team_talk_is_for_the_team() -> None:
    """Rules page, "What each player sees": team chat (that team alone)."""
    s = start(2)
    s, events = GAME.talk(s, 1, "team:north", "nominate me")
    assert events[0].audience == frozenset({0, 1})
    assert GAME.view(s, 0)["talk"][0]["text"] == "nominate me"
    assert GAME.view(s, 2)["talk"] == []
    with pytest.raises(IllegalActionError):
        GAME.talk(s, 2, "team:north", "let me in")


# --- "What each player sees" ---------------------------------------------------------------


def test_trunk_is_seen_by_the_smuggler_alone_until_the_verdict() -> None:
    """Rules page, "What each player sees": s is private to the smuggler until the verdict."""
    s = nominate_first(start(2))
    s, _ = GAME.apply(s, 0, Trunk(42 * M))
    assert GAME.view(s, 0)["trunk"] == 42 * M
    for seat in (1, 2, 3, None):
        v = GAME.view(s, seat)
        assert v["trunk"] is None and v["trunk_packed"]
        assert 42 * M not in (v["home"] + v["third"])  # the withdrawal shows at the result
    s, _ = GAME.apply(s, 0, Ready())
    s, _ = GAME.apply(s, 2, Pass())
    for seat in (1, 2, 3, None):
        assert GAME.view(s, seat)["results"][0]["amount"] == 42 * M


# --- End ------------------------------------------------------------------------------------


def test_team_result_is_decided_before_the_leftover_transfer() -> None:
    """Rules page, End: the third-country totals decide; leftovers do not affect the result."""
    s = start(1, small_games=2)
    s = play_small_game(s, 10 * M, 0)  # North +10M third, 290M left at home
    s = play_small_game(s, 0, 0)  # South smuggles nothing: 300M left at home
    out = GAME.outcome(s)
    assert out.teams == {"north": 1.0, "south": 0.0}
    assert s.ending is not None and s.ending.totals.north == 110 * M
    # With the leftovers, South would hold more (100M + 290M vs 110M + 300M... but result stands)
    assert out.detail["prizes"] == [300 * M, 290 * M]
    assert out.scores == (float(110 * M + 300 * M - 4 * OKU), float(100 * M + 290 * M - 4 * OKU))
    assert out.scores[1] < out.scores[0]


def test_a_draw_when_the_totals_are_equal() -> None:
    """Rules page, End: "(equal: a draw)"."""
    s = start(1, small_games=2)
    s = play_small_game(s, 0, 0)
    s = play_small_game(s, 0, 0)
    out = GAME.outcome(s)
    assert out.teams == {"north": 0.5, "south": 0.5} and out.detail["winner"] is None


def test_leftovers_are_shared_by_the_other_team_remainder_to_the_lowest_seats() -> None:
    """Rules page, End: home leftovers go equally to the other team, remainder to lowest seats."""
    s = start(3, small_games=1, selection="rotation")
    s = with_balances(s, home=(10 * UNIT, 0, 2 * UNIT, 0, 0, 3 * OKU))
    s = play_small_game(s, 0, 0)
    assert s.ending is not None
    # Each player's leftover is shared on its own: p0's 10 units -> 4, 3, 3 and p2's 2 units
    # -> 1, 1, 0 to South; p5's 30000 units -> 10000 each to North.
    big = 10000 * UNIT
    assert s.ending.prizes == (big, big, big, 5 * UNIT, 4 * UNIT, 3 * UNIT)
    s = start(3, small_games=1, selection="rotation")
    s = with_balances(s, home=(0, 0, 0, 2 * UNIT, 0, 0))
    s = play_small_game(s, 0, 0)
    assert s.ending is not None and s.ending.prizes[:3] == (UNIT, UNIT, 0)


def test_everyone_repays_the_loan_and_a_shortfall_is_a_debt() -> None:
    """Rules page, End: repay 400M from the third-country account; shortfall = debt."""
    s = start(1, small_games=1)
    s = play_small_game(s, 60 * M, 60 * M)  # caught: inspector 160M, smuggler 100M
    out = GAME.outcome(s)
    # Smuggler: 100M third + 300M prize (inspector's home) - 400M = 0.
    # Inspector: 160M + 240M prize (smuggler's home left) - 400M = 0.
    assert out.scores == (0.0, 0.0)
    s = start(1, small_games=1)
    s = with_balances(s, third=(OKU, 10 * M))
    s = play_small_game(s, 30 * M, 0)
    out = GAME.outcome(s)
    assert out.detail["final"] == [130 * M + 300 * M - 4 * OKU, 10 * M + 270 * M - 4 * OKU]
    assert out.detail["debts"] == [0, 120 * M]
    assert out.ranks == (1, 2)


def test_outcome_before_the_end_and_actions_after_it_are_refused() -> None:
    """Contract: outcome needs a finished game; nothing is accepted after the end."""
    s = start(1, small_games=1)
    with pytest.raises(IllegalActionError):
        GAME.outcome(s)
    s = play_small_game(s, 0, 0)
    with pytest.raises(GameOverError):
        GAME.apply(s, 0, Nominate(0))
    with pytest.raises(GameOverError):
        GAME.apply_default(s, 0)
    assert GAME.talk_channels(s, 0) == frozenset()


# --- defaults, input, config ----------------------------------------------------------------


def test_defaults_nominate_least_represented_pack_nothing_ready_and_pass() -> None:
    """Decision (docs): timeout defaults for each phase."""
    s = start(2)
    s = replace(s, represented=(1, 0, 0, 1))
    for seat in range(4):
        s, _ = GAME.apply_default(s, seat)
    assert (s.smuggler, s.inspector) == (1, 2)
    s, _ = GAME.apply_default(s, 1)
    assert s.trunk == 0
    s, _ = GAME.apply_default(s, 1)
    assert s.ready
    s, _ = GAME.apply_default(s, 2)
    assert s.results[-1].case == "pass"


def test_amounts_may_be_typed_with_units() -> None:
    """Docs: people type `trunk 3000万`, `doubt 1.5億`, `doubt 30M`."""
    assert parse_amount("3000万") == 30 * M
    assert parse_amount("1.5億") == 150 * M
    assert parse_amount("30M") == 30 * M
    assert parse_amount("30,000,000") == 30 * M
    assert GAME.parse_action("doubt 5000万") == Doubt(50 * M)
    assert GAME.parse_action("trunk 0") == Trunk(0)
    assert GAME.parse_action("ｄｏｕｂｔ　５０００万円") == Doubt(50 * M)
    assert GAME.parse_action("ダウト 5000万") == Doubt(50 * M)
    assert GAME.parse_action("パス") == Pass()
    assert GAME.parse_action("指名 ３") == Nominate(3)
    assert GAME.parse_action("pass") == Pass()
    assert GAME.parse_action('{"type": "doubt", "amount": 10000}') == Doubt(10_000)
    with pytest.raises(InvalidActionError):
        GAME.parse_action("doubt 1.23456万")
    with pytest.raises(InvalidActionError):
        GAME.parse_action("smuggle 5")


@given(st.integers(0, 10**12))
def test_action_text_forms_round_trip(amount: int) -> None:
    """Contract: the text form round-trips."""
    for action in (Trunk(amount), Doubt(amount), Nominate(amount % 24)):
        assert GAME.parse_action(str(action)) == action


def test_wrong_phase_actions_are_refused_without_change() -> None:
    """Contract: a rejected action names the rule and leaves the state as it was."""
    s = nominate_first(start(2))
    before = copy.deepcopy(s)
    for action in (Pass(), Ready(), Doubt(UNIT), Nominate(0)):
        with pytest.raises(IllegalActionError):
            GAME.apply(s, 0, action)
    with pytest.raises(NotYourTurnError):
        GAME.apply(s, 2, Trunk(0))
    assert s == before


def test_player_count_sets_the_team_size_and_odd_counts_are_refused() -> None:
    """Rules page, Teams: two equal teams, 1 to 12 each."""
    s = GAME.new(GAME.make_rules(), [f"p{i}" for i in range(6)])
    assert s.rules.team_size == 3 and list(s.members("south")) == [3, 4, 5]
    with pytest.raises(ConfigError):
        GAME.new(GAME.make_rules(), ["a", "b", "c"])
    with pytest.raises(ConfigError):
        GAME.make_rules({"home_start": 12345})
    with pytest.raises(ConfigError):
        GAME.make_rules({"team_size": 13})
    with pytest.raises(ConfigError):
        GAME.make_rules({"selection": "lottery"})
    assert GAME.make_rules({"selection": "rotation", "small_games": "10"}).small_games == 10


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_money_is_conserved_and_accounts_stay_in_units(seed: int) -> None:
    """Rules page, Teams and money: money only moves, in 10,000-yen units; no account < 0."""
    rng = random.Random(seed)
    s = start(2, small_games=6)
    total = sum(s.home) + sum(s.third)
    while GAME.to_act(s):
        seat = rng.choice(sorted(GAME.to_act(s)))
        legal = GAME.legal_actions(s, seat)
        s, _ = GAME.apply(s, seat, legal[rng.randrange(len(legal))])
        assert sum(s.home) + sum(s.third) == total
        assert all(x >= 0 and x % UNIT == 0 for x in s.home + s.third)
    out = GAME.outcome(s)
    assert sum(out.detail["prizes"]) == sum(s.home)
    json.dumps(GAME.view(s, None))


def _assert_deeply_immutable(value: object, path: str = "state") -> None:
    import dataclasses

    import msgspec

    from dennou.core.immutable import Log

    if value is None or isinstance(value, int | float | str | bool):
        return
    if isinstance(value, tuple | Log):  # a Log never changes once made (dennou.core.immutable)
        for i, item in enumerate(value):
            _assert_deeply_immutable(item, f"{path}[{i}]")
        return
    if isinstance(value, msgspec.Struct):
        assert type(value).__struct_config__.frozen, f"{path} is a mutable struct"
        for name in value.__struct_fields__:
            _assert_deeply_immutable(getattr(value, name), f"{path}.{name}")
        return
    if dataclasses.is_dataclass(value):
        params = getattr(type(value), "__dataclass_params__")  # noqa: B009 - not typed
        assert params.frozen, f"{path} is a mutable dataclass"
        for f in dataclasses.fields(value):
            _assert_deeply_immutable(getattr(value, f.name), f"{path}.{f.name}")
        return
    raise AssertionError(f"{path} is a mutable {type(value).__name__}")


def test_states_are_deeply_immutable_so_deepcopy_may_share_them() -> None:
    """Contract: apply never mutates its input. The state's ``__deepcopy__`` returns itself,
    which is only sound because every part is immutable: this checks that it stays so."""
    rng = random.Random(9)
    s = start(2, small_games=4)
    s, _ = GAME.talk(s, 0, "team:north", "hi")
    while GAME.to_act(s):
        _assert_deeply_immutable(s)
        seat = rng.choice(sorted(GAME.to_act(s)))
        legal = GAME.legal_actions(s, seat)
        s, _ = GAME.apply(s, seat, legal[rng.randrange(len(legal))])
    _assert_deeply_immutable(s)
    assert copy.deepcopy(s) is s
