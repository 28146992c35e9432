"""The conformance harness on 10-card stud (rules: docs/games/stud10.md)."""

from dennou.core.conformance import check_game
from dennou.games import get
from dennou.games.stud10 import GAME


def test_registered() -> None:
    assert get("stud10") is GAME


def test_conformance() -> None:
    report = check_game(GAME, games=6, seed=1)
    assert report.games == 6
    assert report.steps > 6 * 6
    assert report.leak_checks > 100
    assert report.determinized_differs > 50
    # Sessions with small stacks play several hands.
    assert max(report.end_lengths) > 26
