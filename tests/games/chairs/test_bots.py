"""The Musical Chairs bots play legal moves only, and the heuristic's choices follow its rules."""

from __future__ import annotations

import random

from dennou.arena.bots import make_bot
from dennou.arena.play import play
from dennou.games import get
from dennou.games.chairs import GAME
from dennou.games.chairs.actions import BlockPlayer, Gift, NoBlock, Order, Ready, Remove, Vote
from dennou.games.chairs.heuristic import HeuristicBot
from dennou.games.chairs.state import ChairsState
from tests.games.chairs.helpers import act, all_ready, period, start, vote


def test_heuristic_and_random_never_need_a_default() -> None:
    game = get("chairs")
    for seed, people in ((1, 6), (2, 9)):
        bots = [make_bot(game, "heuristic" if i % 2 == 0 else "random") for i in range(people)]
        record = play(game, game.make_rules({"chairs": 7}), bots, seed)
        assert record.outcome is not None
        assert not [s for s in record.steps if s.default is not None]


def test_heuristic_orders_near_chairs_and_runs_on_nearby() -> None:
    s = all_ready(start(people=4, starting_players=2))
    s = act(s, 0, NoBlock())
    bot = HeuristicBot(crowd_penalty=0.0)
    choice = bot.act(GAME.view(s, 0), GAME.legal_actions(s, 0), random.Random(0))
    assert choice == Order((1, 2, 3, 4))  # nearest first, then nearest from there


def test_heuristic_avoids_the_crowd() -> None:
    # p1 sat on chair 2 in period 1, so in period 2 it is expected at chair 1: p0 prefers chair 2
    # although chair 1 is a little nearer.
    spots = ((100, 0), (0, 110), (-900, 0), (0, -950))
    s = period(start(people=4, starting_players=2, spots=spots), {0: [3], 1: [2]})
    for seat in range(4):
        s = act(s, seat, Vote(0))
    s = act(all_ready(act(s, 0, Remove(4))), 0, NoBlock())
    choice = HeuristicBot().act(GAME.view(s, 0), GAME.legal_actions(s, 0), random.Random(0))
    assert choice == Order((2, 1))
    greedy = HeuristicBot(crowd_penalty=0.0)
    assert greedy.act(GAME.view(s, 0), GAME.legal_actions(s, 0), random.Random(0)) == Order((1, 2))


def test_heuristic_votes_for_the_player_whose_medals_it_holds_most() -> None:
    s = start(people=4, starting_players=2, medals=3)
    s = act(s, 1, Gift(3, 1, 2))
    s = period(s, {0: [1], 1: [2]})
    rng = random.Random(0)
    for seat, expected in ((0, 0), (1, 1), (3, 1)):
        assert HeuristicBot().act(GAME.view(s, seat), GAME.legal_actions(s, seat), rng) == Vote(
            expected
        )


def test_heuristic_gaya_blocks_a_rival_of_its_favourite() -> None:
    s = act(start(people=4, starting_players=2, medals=3), 1, Gift(3, 1, 2))
    s = all_ready(s)
    rng = random.Random(0)
    assert HeuristicBot().act(GAME.view(s, 3), GAME.legal_actions(s, 3), rng) == BlockPlayer(0)
    assert HeuristicBot().act(GAME.view(s, 2), GAME.legal_actions(s, 2), rng) == NoBlock()


def test_heuristic_buys_helpers_only_while_it_pays() -> None:
    bot = HeuristicBot()
    s = start(24, [(10 * i + 50, 0) for i in range(25)], starting_players=12, medals=23)
    rng = random.Random(0)
    first = bot.act(GAME.view(s, 0), GAME.legal_actions(s, 0), rng)
    assert isinstance(first, Gift) and first.name == 0 and first.count == 1 and first.to >= 12
    # With one own medal left there is nothing to gain.
    s = start(people=4, starting_players=2, medals=1)
    assert bot.act(GAME.view(s, 0), GAME.legal_actions(s, 0), rng) == Ready()
    # Gaya do not buy anything.
    assert bot.act(GAME.view(s, 3), GAME.legal_actions(s, 3), rng) == Ready()


def test_heuristic_parent_removes_a_chair_it_will_not_use() -> None:
    s = period(start(people=4, starting_players=2), {0: [1], 1: [2]})
    for seat in range(4):
        s = act(s, seat, Vote(0))
    choice = HeuristicBot().act(GAME.view(s, 0), GAME.legal_actions(s, 0), random.Random(0))
    assert choice == Remove(1)  # its own chair: nearest the totem and forbidden to it next


def _bought_and_voted(loyal: bool) -> ChairsState:
    s = start(people=6, starting_players=2, medals=5)
    s = act(act(s, 0, Gift(2, 0, 1)), 0, Gift(3, 0, 1))
    s = period(s, {0: [1], 1: [2]})
    ballots = {0: 0, 1: 1, 2: 0, 3: 0} if loyal else {0: 0, 1: 1, 2: 1, 3: 1}
    return vote(s, ballots)


def test_heuristic_measures_whether_bought_votes_show_up() -> None:
    assert HeuristicBot.response(GAME.view(start(), 0)) == 1.0  # no evidence yet
    assert HeuristicBot.response(GAME.view(_bought_and_voted(True), 0)) == 1.0  # 3 - 1 over 2
    assert HeuristicBot.response(GAME.view(_bought_and_voted(False), 0)) == 0.0  # 1 - 3
