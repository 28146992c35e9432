"""Leaderboards: rules presets, and local boards over tournament directories."""

from __future__ import annotations

from pathlib import Path

from dennou.arena.entrants import parse_entrants
from dennou.arena.leaderboard import local_leaderboard, rules_preset
from dennou.arena.runners import InlineRunner
from dennou.arena.tournament import Tournament, make_config
from dennou.games import get


def test_a_preset_names_what_changes_the_game_and_nothing_else() -> None:
    daifugo = get("daifugo")
    assert rules_preset(daifugo, {}) == "default"
    assert rules_preset(daifugo, {"time_limit": 30}) == "default", "a time limit is not the game"
    assert rules_preset(daifugo, {"games": 3, "eight_cut": False}) == "eight_cut=false,games=3"
    assert rules_preset(daifugo, {"points": [3, 1, 0, -1, -3]}) == "points=3:1:0:-1:-3"
    stud = get("stud10")
    assert rules_preset(stud, {"view_odds": False, "odds_samples": 10}) == "default"
    hilo = get("hilo")
    assert rules_preset(hilo, {"start_accounts": [5, 0]}) == "default"
    assert rules_preset(hilo, {"max_games": 2}) == "max_games=2"


def test_local_boards_rate_directories_in_order_one_board_per_preset(tmp_path: Path) -> None:
    game = get("numeron")
    entrants = parse_entrants("solver,random")
    for name, digits, seed in (("a", 3, 1), ("b", 3, 2), ("c", 4, 3)):
        config = make_config(
            game, entrants, rounds=2, seed=seed, rules=game.make_rules({"digits": digits})
        )
        with Tournament(config, tmp_path / name) as tour:
            tour.run(InlineRunner())
    boards = local_leaderboard("numeron", [tmp_path / d for d in "abc"])
    assert [b["preset"] for b in boards] == ["default", "digits=4"]
    first = {r["name"]: r for r in boards[0]["ratings"]}
    assert first["solver"]["games"] == 8 and first["random"]["games"] == 8
    assert boards[0]["ratings"][0]["name"] == "solver"
    assert local_leaderboard("daifugo", [tmp_path / "a"]) == []
