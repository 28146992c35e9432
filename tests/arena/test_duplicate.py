"""Duplicate deals (docs/tournaments.md, "Duplicate deals"): identical deals, rotated seats.

Each game that supports it names the chance actions that are its deals
(``GameSpec.duplicate``). For every such game, a duplicate group is played between different
bots and its deals must be identical in every rotation while the entrants rotate through the
seats; for a game the rule refuses, the reason it gives is shown to be true.
"""

from __future__ import annotations

from typing import Any

import pytest

from dennou.arena.entrants import parse_entrants
from dennou.arena.runners import run_job
from dennou.arena.schedule import TournamentConfig, round_robin_round
from dennou.arena.tournament import Tournament, make_config
from dennou.core import record as records
from dennou.core.errors import ConfigError
from dennou.core.game import DuplicateDeals
from dennou.games import REGISTRY, get

from .conftest import quick_rules

DUPLICATE: dict[str, DuplicateDeals] = {
    name: rule for name in REGISTRY if (rule := REGISTRY[name].spec.duplicate) is not None
}

# different bots in the rotations, so that play really differs between them
LINEUPS = {
    "daifugo": "greedy,random,greedy",
    "numeron": "solver,random",
    "stud10": "random,random,random,random,random",
    "pandemic": "belief,random,belief,random",
    "chairs": "heuristic,random",
}


def play_group(game_name: str, entrants: str) -> list[records.Record]:
    game = get(game_name)
    config = make_config(
        game,
        parse_entrants(entrants),
        duplicate=True,
        seed=3,
        rules=game.make_rules(quick_rules(game_name)),
    )
    tour = Tournament(config, game=game)
    group = [m for m in round_robin_round(config, 0) if m.group == 0]
    assert len(group) == config.seats
    return [records.loads(run_job(tour.job(m)).record)[0] for m in group]


def deals(record: records.Record, types: tuple[str, ...]) -> list[dict[str, Any]]:
    return [
        s.action
        for s in record.steps
        if s.seat == -1 and s.action is not None and s.action["type"] in types
    ]


@pytest.mark.parametrize("game_name", sorted(DUPLICATE))
def test_duplicate_deals_are_identical_in_every_rotation(game_name: str) -> None:
    assert set(LINEUPS) == set(DUPLICATE), "every supported game is checked"
    played = play_group(game_name, LINEUPS[game_name])
    k = len(played)
    first = deals(played[0], DUPLICATE[game_name].deals)
    assert first, "the group drew its deals"
    for rec in played[1:]:
        assert deals(rec, DUPLICATE[game_name].deals) == first
    # the entrants rotate: rotation t seats entrant order[(s + t) % k] in seat s
    seatings = [rec.meta["tournament"]["entrants"] for rec in played]
    for turn, seating in enumerate(seatings):
        assert seating == [seatings[0][(s + turn) % k] for s in range(k)]
    for name in seatings[0]:
        assert sorted(seating.index(name) for seating in seatings) == list(range(k))
    if game_name != "stud10":  # stud10 has no decisions: every line-up plays alike
        assert len({tuple(map(str, r.steps)) for r in played}) > 1, "play differed"


def test_duplicate_daifugo_every_entrant_plays_every_hand_of_the_first_deal() -> None:
    # rules (daifugo.md, "Cards, seats, deal"): game 1 deals from the first seat in name order;
    # tournament player names start with the seat, so seat s gets the same hand in every
    # rotation, and each entrant holds each of those hands once
    game = get("daifugo")
    played = play_group("daifugo", "greedy,random,greedy")
    hands_by_entrant: dict[str, set[tuple[str, ...]]] = {}
    first_hands = None
    for rec in played:
        state = None
        for frame in records.replay(rec, game):
            if frame.step is not None and frame.step.seat == -1:
                state = frame.state
                break
        assert state is not None
        hands = [tuple(sorted(map(str, state.hand(i)))) for i in range(len(rec.players))]
        first_hands = first_hands or hands
        assert hands == first_hands
        for seat, name in enumerate(rec.meta["tournament"]["entrants"]):
            hands_by_entrant.setdefault(name, set()).add(hands[seat])
    assert all(len(h) == len(played) for h in hands_by_entrant.values())


def test_games_the_rule_refuses_are_refused_with_the_reason() -> None:
    for game_name, words in (("hilo", "depend on play"), ("smuggling", "no chance")):
        game = get(game_name)
        with pytest.raises(ConfigError, match=words):
            make_config(game, parse_entrants("random,random"), duplicate=True)
    stud = get("stud10")
    with pytest.raises(ConfigError, match="hands=1"):
        make_config(
            stud,
            parse_entrants("random," * 4 + "random"),
            duplicate=True,
            rules=stud.make_rules({"hands": 3}),
        )


def test_hilo_targets_after_the_first_depend_on_play() -> None:
    # why hilo is refused: the same seed, another line-up, and the second game's target moves
    game = get("hilo")
    rules = quick_rules("hilo")
    targets = []
    for lineup in ("random,bayes", "bayes,bayes"):
        config = TournamentConfig(
            game="hilo",
            rules=rules,
            entrants=parse_entrants(lineup),
            format="round-robin",
            seats=2,
            rounds=1,
            duplicate=False,
            seed=9,
        )
        match = round_robin_round(config, 0)[0]
        tour = Tournament(config, game=game)
        rec = records.loads(run_job(tour.job(match)).record)[0]
        targets.append([s.action for s in rec.steps if s.action and s.action["type"] == "target"])
    assert targets[0][0] == targets[1][0], "the first target is shared"
    assert targets[0][1:2] != targets[1][1:2], "a later target is not"
