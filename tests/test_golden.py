"""Every golden playthrough in ``tests/golden/`` replays to its stored expectation.

One test for every game (see ``tests/goldens.py`` for the files; ``scripts/golden`` rewrites
them after a deliberate change). A game's own checks of its golden records, where it has any,
are in ``tests/games/<game>/test_golden.py``.
"""

from __future__ import annotations

import pytest

from dennou.core.record import Step
from tests.goldens import expectation, names, record_of, replayed, stored_expectation


@pytest.mark.parametrize("name", names())
def test_golden_playthrough_replays_to_its_stored_expectation(name: str) -> None:
    record = record_of(name)
    expected = stored_expectation(name)
    got = expectation(record)
    assert got["outcome"] == expected["outcome"] == record.outcome
    assert got["final_view"] == expected["final_view"]
    assert got["events"] == expected["events"]
    if record.meta.get("specs"):
        # A played record: the same bots from the same seed play it again, step for step.
        again = replayed(record)
        assert [_decision(s) for s in again.steps] == [_decision(s) for s in record.steps]


def _decision(step: Step) -> tuple[object, ...]:
    """What a step decided (not how long it took)."""
    return (step.seat, step.action, step.default, step.talk)
