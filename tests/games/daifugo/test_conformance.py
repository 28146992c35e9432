"""The conformance harness on Daifugo (views, leaks, determinize, records, junk, defaults)."""

from __future__ import annotations

import pytest

from dennou.core.conformance import check_game
from dennou.games import get
from dennou.games.daifugo import GAME, DaifugoRules


def test_registered() -> None:
    assert get("daifugo") is GAME


def test_conformance_short_sets_all_player_counts() -> None:
    report = check_game(
        GAME,
        rules=GAME.conformance_rules()[:3],
        games=7,
        player_counts=[2, 3, 4, 5, 6, 8, 5],
        leak_draws=1,
        seed=3,
    )
    assert report.games == 7
    assert report.steps > 200
    assert report.leak_checks > 1000 and report.determinized_differs > 500
    assert report.junk_rejected > 1000 and report.mutations_checked > 100
    assert report.defaults_applied > 5


def test_conformance_cheating_and_reject_options() -> None:
    """Short 2- and 4-player sets (everybody exchanges) so cheating and void games happen."""
    rules = [DaifugoRules(games=4), DaifugoRules(games=3, cheating="reject")]
    report = check_game(
        GAME, rules=rules, games=4, player_counts=[2, 4], leak_every=3, leak_draws=1, seed=11
    )
    assert report.games == 4 and report.steps > 100


def test_conformance_uecda_preset_and_every_local_rule() -> None:
    """The UECda preset (5 players, and 3 and 8) and every local rule with lead passes and a
    short 千日手: views, leaks, junk, defaults, records replaying."""
    uecda, local = GAME.conformance_rules()[3:5]
    report = check_game(
        GAME,
        rules=[uecda, local],
        games=6,
        player_counts=[5, 3, 8],
        leak_every=2,
        leak_draws=1,
        seed=5,
    )
    assert report.games == 6 and report.steps > 800
    assert report.leak_checks > 1000 and report.defaults_applied > 10


@pytest.mark.slow
def test_conformance_full_length_set() -> None:
    """One full set of 10 games (5 players), checking views every 4th step."""
    report = check_game(
        GAME, rules=[DaifugoRules()], games=1, player_counts=[5], leak_every=4, leak_draws=1
    )
    assert report.games == 1 and report.steps > 300
