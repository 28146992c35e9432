"""Named rule tests for Musical Chairs; each cites ``docs/games/chairs.md`` and its section."""

from __future__ import annotations

import json
import math
import random

import pytest

from dennou.core.actions import Action
from dennou.core.errors import ConfigError, IllegalActionError, NotYourTurnError
from dennou.core.game import CHANCE
from dennou.games.chairs import GAME
from dennou.games.chairs.actions import (
    Abstain,
    BlockChair,
    BlockPlayer,
    Gift,
    Map,
    NoBlock,
    Order,
    Ready,
    Remove,
    Tiebreak,
    Vote,
)
from dennou.games.chairs.state import ChairsState, Run
from tests.conftest import refused
from tests.games.chairs.helpers import SPOTS, act, all_ready, go, period, race, rules, start, vote


def rejects(state: ChairsState, seat: int, action: Action, match: str) -> None:
    """``action`` is refused with a message matching ``match`` and nothing changes."""
    refused(GAME, state, seat, action, IllegalActionError, match)


def _tiebreak(action: Action) -> Tiebreak:
    assert isinstance(action, Tiebreak)
    return action


def run_of(state: ChairsState, seat: int) -> Run:
    return next(r for r in state.history[-1].race if r.seat == seat)


# --- Race ---------------------------------------------------------------------------------------
def test_race_first_arrival_wins_the_chair() -> None:
    """chairs.md, A period, 3 (Race): arrival = distance / speed + jitter; first arrival sits."""
    s = period(start(), {0: [2], 1: [2, 1]}, tenths=[5, 3])
    assert run_of(s, 1).chair == 2 and run_of(s, 1).time == pytest.approx(0.3 + 40)
    loser = run_of(s, 0)
    assert loser.legs[0].result == "taken" and loser.legs[0].time == pytest.approx(40.5)


def test_race_loser_runs_on_from_where_they_are() -> None:
    """chairs.md, A period, 3 (Race): a player who loses a chair runs on from where they are."""
    s = period(start(), {0: [2, 1], 1: [2]}, tenths=[5, 0])
    loser = run_of(s, 0)
    assert [leg.chair for leg in loser.legs] == [2, 1]
    leg_time = math.hypot(100, 200) / 5
    assert loser.chair == 1 and loser.time == pytest.approx(40.5 + leg_time, abs=1e-3)


def test_race_equal_times_go_to_the_lower_seat() -> None:
    """chairs.md, A period, 3 (Race) — decision: equal arrival times: the lower seat sits."""
    s = period(start(), {0: [1], 1: [1]}, tenths=[0, 0])
    assert run_of(s, 0).chair == 1 and run_of(s, 1).chair is None


def test_race_runner_skips_chairs_already_lit() -> None:
    """chairs.md, A period, 3 (Race) — decision: a runner heading on skips chairs already taken."""
    # p1 sits on chair 1 at 20 s; p0 is blocked twice (120 s) so chair 1's lamp is lit when p0
    # leaves: p0 goes straight to chair 2.
    s = period(
        start(),
        {0: [1, 2], 1: [1]},
        blocks={2: BlockPlayer(0), 3: BlockPlayer(0)},
        tenths=[0, 0],
    )
    run = run_of(s, 0)
    assert run.blockers == 2 and run.start == pytest.approx(120)
    assert [leg.chair for leg in run.legs] == [2] and run.time == pytest.approx(160)


# --- Blocks -------------------------------------------------------------------------------------
def test_block_chair_cannot_be_taken_this_period() -> None:
    """chairs.md, A period, 2 (Go): a chair stood on by a blocker cannot be taken this period."""
    s = period(start(), {0: [1, 3], 1: [2]}, blocks={2: BlockChair(1)})
    run = run_of(s, 0)
    assert run.legs[0].result == "blocked" and run.chair == 3
    assert s.history[-1].blocks[0].by == 2 and s.history[-1].blocks[0].chair == 1


def test_block_player_adds_a_fixed_delay_per_blocker() -> None:
    """chairs.md, A period, 3 (Race): being blocked adds a fixed delay per blocker."""
    s = period(
        start(block_delay=25.0),
        {0: [1], 1: [2]},
        blocks={1: BlockPlayer(0), 2: BlockPlayer(0), 3: BlockPlayer(1)},
    )
    assert run_of(s, 0).blockers == 2 and run_of(s, 0).time == pytest.approx(50 + 20)
    assert run_of(s, 1).blockers == 1 and run_of(s, 1).time == pytest.approx(25 + 40)


def test_blocks_are_open_to_gaya_and_players_but_name_another_player() -> None:
    """chairs.md, A period, 2 (Go): every gaya and every player may block a chair or a player."""
    s = all_ready(start())
    assert BlockPlayer(0) in GAME.legal_actions(s, 2)  # gaya
    assert BlockPlayer(1) in GAME.legal_actions(s, 0)  # player
    rejects(s, 0, BlockPlayer(0), "another player")
    rejects(s, 0, BlockPlayer(3), "another player")  # seat 3 is gaya
    rejects(s, 2, BlockChair(9), "not in play")
    s = act(s, 2, NoBlock())
    rejects(s, 2, BlockChair(1), "may not act")  # one block per person: seat 2 no longer acts
    assert 2 not in GAME.to_act(s)


# --- No same chair --------------------------------------------------------------------------
def test_no_same_chair_twice_in_a_row() -> None:
    """chairs.md, A period, 2 (Go): no chair sat on in the previous period may be on the list."""
    s = period(start(), {0: [1], 1: [2]})
    s = act(vote(s, {0: 0, 1: 0}), 0, Remove(4))
    s = all_ready(s)
    s = act(s, 0, NoBlock())
    rejects(s, 0, Order((2, 1)), "twice in a row")
    assert Order((2, 3)) in GAME.legal_actions(s, 0)
    assert Order((1, 3)) in GAME.legal_actions(s, 1)
    # Two periods later it is allowed again.
    s = race(go(s, {0: [2], 1: [3]}))
    assert s.last_chair[0] == 2
    s = act(vote(s, {0: 0}), 0, Remove(3))
    s = act(all_ready(s), 0, NoBlock())
    assert Order((1,)) in GAME.legal_actions(s, 0)


# --- Elimination -------------------------------------------------------------------------------
def test_not_seated_within_the_time_limit_becomes_gaya() -> None:
    """chairs.md, A period, 3 (Race): anyone not seated within the time limit becomes gaya."""
    s = start(people=5, starting_players=3, time_limit=70.0)
    s = period(s, {0: [1], 1: [3], 2: [4]})  # chair 4 is 80 s away
    assert s.history[-1].eliminated == (2,)
    assert not s.playing[2] and s.last_chair[2] is None
    assert Vote(2) not in GAME.legal_actions(s, 0)


def test_an_empty_order_stays_at_the_totem_and_is_eliminated() -> None:
    """chairs.md, A period, 3 (Race): a player who runs for nothing is not seated."""
    s = start(people=5, starting_players=3)
    s = period(s, {0: [1], 1: [2]})
    assert s.history[-1].eliminated == (2,)


def test_gaya_do_not_run() -> None:
    """chairs.md, People: players who fail to sit become gaya; gaya vote and help but do not run."""
    s = all_ready(start())
    assert not any(isinstance(a, Order) for a in GAME.legal_actions(s, 2))
    rejects(s, 2, Order((1,)), "gaya do not run")


# --- Vote ---------------------------------------------------------------------------------------
def test_vote_totals_only_and_most_votes_wins() -> None:
    """chairs.md, A period, 4 (Vote): most votes wins; only the count per candidate is published."""
    s = period(start(), {0: [1], 1: [2]})
    s = act(s, 0, Vote(1))
    s = act(s, 1, Vote(1))
    view = GAME.view(s, 3)
    assert view["voted"] == [True, True, False, False] and "my_vote" in view
    assert view["my_vote"] is None
    assert GAME.view(s, 0)["my_vote"] == {"type": "vote", "candidate": 1}
    s = act(act(s, 2, Vote(0)), 3, Abstain())
    log = s.history[-1]
    assert log.votes == (1, 2, 0, 0) and log.abstained == 1 and log.parent == 1
    assert s.phase == "remove" and GAME.to_act(s) == {1}
    assert all(v is None for v in s.votes)  # ballots are not kept


def test_vote_only_for_players_but_everyone_votes() -> None:
    """chairs.md, A period, 4 (Vote): all people vote; only players can be parent."""
    s = period(start(), {0: [1], 1: [2]})
    assert GAME.to_act(s) == {0, 1, 2, 3}
    rejects(s, 2, Vote(3), "only players")
    rejects(s, 2, Vote(9), "only players")


def test_vote_tie_is_a_seeded_draw_among_the_tied() -> None:
    """chairs.md, A period, 4 (Vote): ties: seeded random draw among the tied."""
    s = period(start(), {0: [1], 1: [2]})
    s = vote(s, {0: 0, 1: 1, 2: 0, 3: 1})
    assert s.phase == "tiebreak" and GAME.to_act(s) == {CHANCE}
    assert GAME.legal_actions(s, CHANCE) == [Tiebreak(0), Tiebreak(1)]
    rejects(s, CHANCE, Tiebreak(2), "tied")
    drawn = {_tiebreak(GAME.sample_chance(s, random.Random(i))).parent for i in range(30)}
    assert drawn == {0, 1}
    s = act(s, CHANCE, Tiebreak(1))
    assert s.history[-1].parent == 1 and s.phase == "remove"


def test_vote_everyone_abstains_draws_among_all_players() -> None:
    """chairs.md, A period, 4 (Vote) — decision: no votes at all is a tie of every player."""
    s = vote(period(start(), {0: [1], 1: [2]}), {})
    assert s.phase == "tiebreak" and s.history[-1].tied == (0, 1)


# --- Removal ------------------------------------------------------------------------------------
def test_parent_removes_one_chair() -> None:
    """chairs.md, A period, 5 (Removal): the parent removes one chair (any, by number)."""
    s = vote(period(start(), {0: [1], 1: [2]}), {0: 1, 1: 1})
    assert GAME.to_act(s) == {1}
    with pytest.raises(NotYourTurnError):
        GAME.apply(s, 0, Remove(3))
    rejects(s, 1, Remove(7), "not in play")
    assert Remove(2) in GAME.legal_actions(s, 1)  # even the parent's own chair
    s = act(s, 1, Remove(2))
    assert s.in_play == {1, 3, 4} and s.history[-1].removed == 2
    assert s.phase == "free" and s.period == 2
    s = act(all_ready(s), 0, NoBlock())
    rejects(s, 0, Order((2,)), "not in play")


# --- The end and the payout -------------------------------------------------------------------
def test_game_ends_when_one_player_is_left() -> None:
    """chairs.md, A period (end): the game ends as soon as one player is left; they win."""
    s = start(people=4, starting_players=3)
    s = period(s, {0: [1], 1: [2]})
    assert s.phase == "vote"  # two left
    s = act(vote(s, {0: 0}), 0, Remove(4))
    s = period(s, {0: [3], 1: []})
    assert s.phase == "over" and s.winner == 0 and s.end == "last_player"


def test_periods_run_out_with_several_players_nobody_wins() -> None:
    """chairs.md, A period (end): several left when the periods run out: none wins."""
    s = start(periods=1)
    s = act(vote(period(s, {0: [1], 1: [2]}), {0: 0}), 0, Remove(4))
    assert s.phase == "over" and s.winner is None and s.end == "periods"
    out = GAME.outcome(s)
    assert out.scores == (0.0,) * 4 and out.ranks == (1,) * 4


def test_medal_payout_counts_medals_bearing_the_winners_name() -> None:
    """chairs.md, People, chairs, medals: score = medals bearing the winner's name x 100M."""
    s = start(people=4, starting_players=2, medals=3)
    s = act(s, 0, Gift(2, 0, 2))  # gaya 2 gets two of p0's medals
    s = act(s, 1, Gift(3, 1, 3))  # gaya 3 gets all of p1's
    s = act(s, 2, Gift(3, 0, 1))  # gaya 2 passes one p0 medal on to gaya 3
    s = period(s, {0: [1], 1: []})
    assert s.winner == 0
    out = GAME.outcome(s)
    assert out.scores == (100_000_000.0, 0.0, 100_000_000.0, 100_000_000.0)
    assert out.detail["winner_medals"] == [1, 0, 1, 1]


def test_gifts_are_checked() -> None:
    """chairs.md, People, chairs, medals: medals can be given to anyone during a free phase."""
    s = start(gifts_per_phase=2)
    rejects(s, 0, Gift(0, 0, 1), "another person")
    rejects(s, 0, Gift(1, 0, 4), "hold 3")
    rejects(s, 0, Gift(1, 1, 1), "hold 0")
    s = act(act(s, 0, Gift(1, 0, 1)), 0, Gift(1, 0, 1))
    rejects(s, 0, Gift(1, 0, 1), "gifts_per_phase")
    assert GAME.legal_actions(s, 0) == [Ready()]
    s = all_ready(s)
    rejects(s, 1, Gift(0, 0, 1), "not allowed in the go")


# --- Views --------------------------------------------------------------------------------------
def test_views_hide_sealed_orders_gifts_and_private_talk() -> None:
    """chairs.md, What each person sees: own medals and gifts, talk addressed to them."""
    s = start()
    s = act(s, 0, Gift(1, 0, 2))
    s, _ = GAME.talk(s, 2, "pair:2-3", "block p0?")
    s, _ = GAME.talk(s, 1, "public", "hello")
    v3, v0, spec = GAME.view(s, 3), GAME.view(s, 0), GAME.view(s, None)
    assert v3["medals"] == [0, 0, 0, 3] and v3["gifts"] == []
    assert v0["medals"] == [1, 0, 0, 0] and len(v0["gifts"]) == 1
    assert [t["text"] for t in v3["talk"]] == ["block p0?", "hello"]
    assert [t["text"] for t in v0["talk"]] == ["hello"]
    assert "medals" not in spec and spec["gifts"] == []
    s = act(all_ready(s), 0, Order((3, 1)))
    assert GAME.view(s, 0)["my_order"] == [3, 1]
    assert "[3, 1]" not in str(GAME.view(s, 1)) and GAME.view(s, 1)["sealed_order"][0]


def test_public_gifts_option_shows_gifts_to_all() -> None:
    """chairs.md, People, chairs, medals: a gift is seen by giver and receiver (option: public)."""
    s = act(start(public_gifts=True), 0, Gift(1, 0, 2))
    assert len(GAME.view(s, 3)["gifts"]) == 1 and len(GAME.view(s, None)["gifts"]) == 1


def test_talk_only_in_the_free_phase() -> None:
    """chairs.md, A period, 1 (Free phase): talk, public and private between any two people."""
    s = start()
    assert GAME.talk_channels(s, 0) >= {"public", "pair:0-3"}
    assert GAME.talk_channels(start(private_talk=False), 0) == {"public"}
    with pytest.raises(IllegalActionError):
        GAME.talk(all_ready(s), 0, "public", "hi")
    with pytest.raises(IllegalActionError):
        GAME.talk(s, 0, "pair:1-2", "eavesdrop")


# --- Defaults, map, config -----------------------------------------------------------------------
def test_defaults_ready_nearest_chairs_abstain_lowest_chair() -> None:
    """chairs.md, A period — decision: defaults for an absent person (see docs/games/chairs.md)."""
    s = start(max_choices=2)
    s, _ = GAME.apply_default(s, 0)
    assert 0 in s.ready
    s = all_ready(s)
    s, _ = GAME.apply_default(s, 1)
    assert s.orders[1] == Order((1, 2)) and s.blocks[1] == NoBlock()
    s = race(go(s, {0: [3]}))
    s, _ = GAME.apply_default(s, 0)
    assert s.votes[0] == Abstain()
    for seat in (1, 2, 3):
        s = act(s, seat, Vote(1))
    s, _ = GAME.apply_default(s, 1)
    assert s.history[-1].removed == 1


def test_map_is_a_checked_chance_action() -> None:
    """chairs.md, People, chairs, medals: chairs stand on an island the host draws (chance)."""
    r = rules(chairs=2)
    s = GAME.new(r, ["a", "b", "c"])
    assert GAME.to_act(s) == {CHANCE}
    rejects(s, CHANCE, Map((1, 1)), "4 numbers")
    rejects(s, CHANCE, Map((1, 1, 5000, 0)), "not on the island")
    rejects(s, CHANCE, Map((1, 1, 1, 1)), "same spot")
    rejects(s, CHANCE, Map((0, 0, 1, 1)), "not on the island")
    drawn = GAME.sample_chance(s, random.Random(3))
    assert drawn == GAME.sample_chance(s, random.Random(3))
    s = act(s, CHANCE, drawn)
    assert s.phase == "free" and s.in_play == {1, 2}


def test_default_counts_follow_the_rules_page() -> None:
    """chairs.md, People, chairs, medals: 24 people, 12 players, 25 chairs, 23 medals each."""
    s = GAME.new(GAME.make_rules(), [f"p{i}" for i in range(24)])
    assert sum(s.playing) == 12 and s.holdings[5][5] == 23
    s = act(s, CHANCE, GAME.sample_chance(s, random.Random(0)))
    assert len(s.in_play) == 25 and GAME.view(s, 0)["periods"] == 24


def test_impossible_configs_are_refused() -> None:
    """chairs.md, A period: at most chairs - 1 periods; at least 2 players."""
    with pytest.raises(ConfigError):
        GAME.new(GAME.make_rules({"chairs": 4, "periods": 4}), ["a", "b", "c"])
    with pytest.raises(ConfigError):
        GAME.new(GAME.make_rules({"starting_players": 5}), ["a", "b", "c"])
    with pytest.raises(ConfigError):
        GAME.make_rules({"starting_players": 1})
    with pytest.raises(ConfigError):
        GAME.make_rules({"no_such": 1})


def test_spots_helper_distances() -> None:
    assert [math.hypot(*p) / 5 for p in SPOTS] == [20, 40, 60, 80]


def test_determinize_samples_what_a_seat_cannot_see() -> None:
    """chairs.md, What each person sees: sealed orders, others' gifts and pair talk stay hidden."""
    s = start(people=5, starting_players=2)
    s = act(s, 0, Gift(2, 0, 2))
    s, _ = GAME.talk(s, 0, "pair:0-2", "deal?")
    s = act(all_ready(s), 0, Order((3, 1)))
    s = act(s, 2, BlockPlayer(1))
    view = GAME.view(s, 1)
    orders, truths = set(), 0
    for i in range(40):
        det = GAME.determinize(json.loads(json.dumps(view)), 1, random.Random(i))
        assert GAME.view(det, 1) == view
        assert det.talk == () and det.gifts == ()
        assert det.holdings[0][0] == 3 and det.holdings[2][0] == 0  # the gift is not known
        orders.add(det.orders[0])
        truths += det.blocks[2] == BlockPlayer(1)
    assert len(orders) > 5 and truths < 40
