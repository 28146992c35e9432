"""The conformance harness: every registered game passes it, and each check can fail."""

from __future__ import annotations

import pytest

from dennou.core.conformance import ConformanceError, check_game
from dennou.games import REGISTRY, get
from tests.core.toygame import (
    ForgetfulToy,
    JunkEatingToy,
    LaxToy,
    LeakyToy,
    MutatingToy,
    NeverEndingToy,
    SilentToy,
    Toy,
)


def test_correct_toy_passes_and_report_counts_coverage() -> None:
    report = check_game(Toy(), games=30, seed=1, talk_rate=0.3, default_rate=0.2)
    assert report.games == 30
    assert report.steps >= 90
    assert report.leak_checks > 100
    assert report.determinized_differs > 0
    assert report.junk_rejected > 100
    assert report.talk_lines > 0
    assert report.defaults_applied > 0


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (LeakyToy(), "leak"),
        (MutatingToy(), "mutated"),
        (LaxToy(), "not in legal_actions"),
        (ForgetfulToy(), "replay"),
        (JunkEatingToy(), "junk"),
        (SilentToy(), "no decisions"),
    ],
    ids=["leak", "mutation", "lax-apply", "replay", "junk", "no-decisions"],
)
def test_harness_catches_broken_games(game: Toy, message: str) -> None:
    with pytest.raises(ConformanceError, match=message):
        check_game(game, games=40, seed=3, default_rate=0.0, talk_rate=0.0)


def test_harness_catches_games_that_never_end() -> None:
    with pytest.raises(ConformanceError, match="no end"):
        check_game(NeverEndingToy(), games=1, max_steps=200, default_rate=0.0)


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_registered_game_passes_the_harness(name: str) -> None:
    """A smoke run over the whole registry (each game's own tests run the harness in depth)."""
    game = get(name)
    report = check_game(game, games=2, seed=99, leak_every=7, player_counts=[game.spec.min_players])
    assert report.games == 2 and report.steps > 0
    if game.spec.hidden_information:
        assert report.leak_checks > 0
