"""The conformance harness on Star Hi-Lo: views leak neither the target nor secret results."""

from __future__ import annotations

import random

from dennou.core.conformance import check_game
from dennou.core.game import CHANCE
from dennou.games import get
from dennou.games.hilo import GAME, HiloRules
from dennou.games.hilo.actions import Guess, SecretGuess2, SecretGuess3, Target


def test_registered() -> None:
    assert get("hilo") is GAME


def test_conformance_harness() -> None:
    """Every contract check, over 2 and 8 players and every conformance rules config.

    With the other Star Hi-Lo tests this reaches every branch of the game's code that 30 games
    of 2, 3, 5 and 8 players do; those are ``bench/sweeps.py hilo-conformance``.
    """
    report = check_game(GAME, games=6, leak_draws=1)
    assert report.games == 6 and report.steps > 150
    assert report.leak_checks > 1_000 and report.determinized_differs > 500
    assert report.junk_rejected > 1_000 and report.mutations_checked > 100
    assert report.defaults_applied > 3


def test_determinize_keeps_what_the_seat_knows_and_resamples_the_rest() -> None:
    """The leak property reaches the target and the other players' secret results."""
    rules = HiloRules(max_number=1_000)
    state = GAME.new(rules, ["a", "b", "c"])
    state, _ = GAME.apply(state, CHANCE, Target(600))
    for action in (Guess(500, "high"), SecretGuess2(700, "low"), SecretGuess3(650, "high")):
        (actor,) = GAME.to_act(state)
        state, _ = GAME.apply(state, actor, action)
    rng = random.Random(3)
    for seat in (0, 1, 2, None):
        view = GAME.view(state, seat)
        targets = set()
        for _ in range(40):
            det = GAME.determinize(view, seat, rng)
            assert GAME.view(det, seat) == view
            assert det.target is not None
            targets.add(det.target)
            # The state is consistent with everything: its secret results match its target.
            for e in det.log:
                if e.kind == "secret_result":
                    d = e.data
                    assert (
                        det.target > d["x"] if d["direction"] == "high" else det.target < d["x"]
                    ) == d["right"]
        # The public log says target > 500; seat 1 also knows target < 700 (right low).
        assert all(t > 500 for t in targets)
        if seat == 1:
            assert all(t < 700 for t in targets)
        assert len(targets) > 20
