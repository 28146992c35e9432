"""Numeron passes the conformance harness (docs/architecture.md) over 3/4/5 digits, items on/off."""

from __future__ import annotations

import pytest

from dennou.core.conformance import check_game
from dennou.games.numeron import GAME


@pytest.mark.parametrize("seed", range(4))
def test_numeron_conformance(seed: int) -> None:
    report = check_game(GAME, games=60, seed=seed, leak_every=2)
    assert report.games == 60
    assert report.leak_checks > 1000
    assert report.determinized_differs > 0
    assert report.junk_rejected > 1000
    assert report.mutations_checked > 100
    assert report.defaults_applied > 0 and report.talk_lines > 0
