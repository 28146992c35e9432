"""The conformance harness on the Smuggling Game (contract: ``docs/architecture.md``)."""

from __future__ import annotations

import time

from dennou.core.conformance import check_game
from dennou.games.smuggling import GAME, SmugglingRules


def test_conformance_every_config_one_v_one() -> None:
    """Every conformance config with 1 v 1 (the spec's fewest players)."""
    report = check_game(GAME, games=10, seed=1, player_counts=[2])
    assert report.games == 10
    assert report.leak_checks > 500 and report.determinized_differs > 100
    assert report.junk_rejected > 500 and report.mutations_checked > 100
    assert report.talk_lines > 5 and report.defaults_applied > 5


def test_conformance_twelve_v_twelve() -> None:
    """The spec's most players (12 v 12), leak checks on every other step."""
    report = check_game(GAME, games=2, seed=4, player_counts=[24], leak_every=2)
    assert report.games == 2 and report.leak_checks > 1000 and report.determinized_differs > 100


def test_conformance_with_six_and_four_players() -> None:
    """Middle team sizes, more talk and more defaults."""
    report = check_game(
        GAME, games=6, seed=2, player_counts=[6, 4], talk_rate=0.3, default_rate=0.1
    )
    assert report.games == 6 and report.talk_lines > 30 and report.defaults_applied > 10


def test_conformance_one_default_game_9_v_9_50_small_games() -> None:
    """One whole game at the rules page's defaults (leak checks sampled to stay fast)."""
    started = time.process_time()  # CPU time: a busy machine does not count
    report = check_game(
        GAME,
        rules=[SmugglingRules()],
        games=1,
        seed=3,
        player_counts=[18],
        leak_every=37,
        deep_every=5,
    )
    assert report.games == 1 and report.end_lengths[0] > 50 * 21
    assert report.leak_checks > 100
    assert time.process_time() - started < 60
