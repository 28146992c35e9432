"""Numeron's golden playthrough (``tests/golden/numeron_items.jsonl``): every item used once.

The shared runner (``tests/test_golden.py``) replays it to its stored expectation; here, what it
must contain. The record is a script of a 4-digit game (docs/games/numeron.md, Items).
"""

from __future__ import annotations

from tests.goldens import record_of, stored_expectation


def test_the_items_golden_uses_every_item_and_bob_wins() -> None:
    record = record_of("numeron_items")
    used = {s.action["type"] for s in record.steps if s.action}
    assert used >= {"double", "high_low", "target", "slash", "shuffle", "change", "move"}
    expected = stored_expectation("numeron_items")
    assert expected["outcome"]["scores"] == [0.0, 1.0]
    assert "bob used CHANGE: hundreds place, HIGH" in expected["events"]
