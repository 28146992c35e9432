"""The conformance harness on Musical Chairs: small tables for breadth, one full-size game."""

from __future__ import annotations

from dennou.core.conformance import check_game
from dennou.games import get


def test_conformance_small_tables() -> None:
    game = get("chairs")
    report = check_game(game, games=24, player_counts=[2, 3, 5, 7], talk_rate=0.2)
    assert report.games == 24
    assert report.steps > 300
    assert report.leak_checks > 2000 and report.determinized_differs > 500
    assert report.junk_rejected > 1000 and report.mutations_checked > 200
    assert report.defaults_applied > 0 and report.talk_lines > 10


def test_conformance_default_size_game() -> None:
    """24 people (12 players, 12 gaya), 25 chairs: the rules page's own table."""
    game = get("chairs")
    report = check_game(
        game,
        rules=[game.make_rules()],
        games=1,
        player_counts=[24],
        leak_every=15,
        deep_every=15,
        leak_draws=1,
    )
    assert report.games == 1 and report.steps > 200
    assert report.leak_checks > 25 * 10 and report.determinized_differs > 0
