"""Numeron passes the conformance harness (docs/architecture.md) over 3/4/5 digits, items on/off."""

from __future__ import annotations

from dennou.core.conformance import check_game
from dennou.games.numeron import GAME


def test_numeron_conformance() -> None:
    """60 games, every conformance rules config ten times.

    They reach every branch of the game's code that 240 games do; the 240 (seeds 0-3) are
    ``bench/sweeps.py numeron-conformance``.
    """
    report = check_game(GAME, games=60, seed=0, leak_every=2)
    assert report.games == 60
    assert report.leak_checks > 1000
    assert report.determinized_differs > 0
    assert report.junk_rejected > 1000
    assert report.mutations_checked > 100
    assert report.defaults_applied > 0 and report.talk_lines > 0
