"""The walk-through game of CONTRIBUTING.md (``examples/twenty``) is a complete dennou game."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from dennou.arena.bots import make_bot
from dennou.arena.play import play
from dennou.core.conformance import check_game
from dennou.core.errors import ConfigError
from dennou.core.registry import Registry

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))

from twenty import GAME


def test_twenty_passes_the_conformance_harness() -> None:
    report = check_game(GAME, games=20, seed=1)
    assert report.games == 20 and report.leak_checks > 100 and report.junk_rejected > 100


def test_twenty_is_listed_by_one_registry_line() -> None:
    registry = Registry({"twenty": "twenty:GAME"})
    assert registry.get_game("twenty") is GAME


def test_the_perfect_bot_wins_when_it_counts_first_and_its_option_is_bounded() -> None:
    rules = GAME.make_rules({"target": 21})
    wins = 0
    for seed in range(20):
        record = play(GAME, rules, [make_bot(GAME, "perfect"), make_bot(GAME, "random")], seed)
        assert record.outcome is not None
        wins += record.outcome["scores"][0] == 1.0
    assert wins >= 10
    with pytest.raises(ConfigError, match=r"mistakes wants float in 0\.\.1"):
        make_bot(GAME, "perfect:mistakes=2")
