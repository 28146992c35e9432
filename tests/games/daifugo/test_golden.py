"""Daifugo's golden playthroughs: whole 5-player sets of 10 games.

``daifugo_5p_set``: the source's rules; ``daifugo_uecda_set``: the ``uecda`` preset. The shared
runner (``tests/test_golden.py``) replays them and plays them again from their seed;
``scripts/golden --replay daifugo_5p_set daifugo_uecda_set`` makes them again.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from dennou.core.jsondata import to_json
from dennou.core.record import final_state, read, replay
from dennou.games.daifugo import GAME

GOLDEN = Path(__file__).parents[2] / "golden"


@pytest.mark.parametrize("name", ["daifugo_5p_set", "daifugo_uecda_set"])
def test_golden_set_replays_to_the_stored_final_view_and_outcome(name: str) -> None:
    (record,) = read(GOLDEN / f"{name}.jsonl")
    expected = json.loads((GOLDEN / f"{name}.expected.json").read_text(encoding="utf-8"))
    state = final_state(record, GAME)
    assert GAME.view(state, None) == expected["final_view"]
    assert to_json(GAME.outcome(state)) == expected["outcome"] == record.outcome
    assert len(state.results) == 10 and state.players == ("alice", "bob", "carol", "dave", "eve")
    deals = sum(1 for f in replay(record, GAME) if f.step and f.step.seat == -1)
    assert deals == 10


def test_uecda_golden_set_plays_the_uecda_rules() -> None:
    """The UECda set exercises sequences, the suit lock, 8-cuts, exchanges and 5/4/3/2/1."""
    (record,) = read(GOLDEN / "daifugo_uecda_set.jsonl")
    assert record.rules == to_json(GAME.make_rules({"preset": "uecda"}))
    seen: Counter[str] = Counter()
    for frame in replay(record, GAME):
        for e in frame.events:
            seen[e.kind] += 1
            if e.kind == "play":
                seen["sequence"] += e.data.get("kind") == "sequence"
                seen["lock"] += "locks" in e.text
                seen["cut"] += e.data["cut"]
    assert seen["sequence"] and seen["lock"] and seen["cut"] and seen["exchange"] == 36
    state = final_state(record, GAME)
    assert all(sorted(r.points) == [1, 2, 3, 4, 5] for r in state.results)
