"""Star Hi-Lo's golden playthroughs: one of them uses every kind of action.

The shared runner (``tests/test_golden.py``) replays them and plays them again from their seed.
"""

from __future__ import annotations

from tests.goldens import record_of, stored_expectation


def test_golden_all_actions_covers_every_kind() -> None:
    record = record_of("hilo_all_actions")
    used = {s.action["type"] for s in record.steps if s.action}
    assert used >= {
        "target",
        "draw",
        "guess",
        "random_guess",
        "pick",
        "check",
        "random_check",
        "secret_guess_3",
        "secret_guess_2",
    }


def test_golden_series_end_with_the_target_shown() -> None:
    for name in ("hilo_all_actions", "hilo_bayes_vs_random"):
        view = stored_expectation(name)["final_view"]
        assert view["phase"] == "over" and view["target"] is not None
