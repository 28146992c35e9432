"""The conformance harness on the Pandemic Game (docs/games/pandemic.md, all sections)."""

from __future__ import annotations

from dennou.core.conformance import check_game
from dennou.games.pandemic import GAME, PandemicRules


def test_conformance_12_players() -> None:
    # One determinization per seat every other step keeps this under ~10 s on a quiet machine;
    # the 4-player and the slow runs check every step twice.
    report = check_game(GAME, games=4, player_counts=[12], seed=1, leak_every=2, leak_draws=1)
    assert report.games == 4
    assert report.steps > 4 * 100
    assert report.leak_checks > 1000 and report.determinized_differs > 500
    assert report.talk_lines > 0 and report.defaults_applied > 0
    assert report.junk_rejected > 0 and report.mutations_checked > 0


def test_conformance_4_players() -> None:
    report = check_game(GAME, games=8, player_counts=[4], seed=2)
    assert report.games == 8 and report.leak_checks > 500 and report.determinized_differs > 0


def test_conformance_24_players() -> None:
    rules = [PandemicRules(rounds=2, ticks=3, infected=3), PandemicRules(rounds=1, ticks=4)]
    report = check_game(GAME, rules=rules, games=2, player_counts=[24], seed=3, leak_every=5)
    assert report.games == 2 and report.steps > 24 * 10 and report.leak_checks > 1000


def test_conformance_default_rules_12_players_past_the_exact_belief() -> None:
    """One game at the defaults with 12 players: its hidden worlds outgrow the belief's cap, so
    determinizing goes through the sampled (particle filter) path and its resampling.

    With the tests above this reaches every branch of the game's code that 12 games of 4, 12
    and 24 players do; those are ``bench/sweeps.py pandemic-conformance``.
    """
    report = check_game(
        GAME, rules=[PandemicRules()], games=1, player_counts=[12], seed=4, leak_every=4
    )
    assert report.games == 1 and report.steps > 100 and report.determinized_differs > 100
