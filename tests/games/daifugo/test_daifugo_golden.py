"""Golden playthrough: a full 5-player set of 10 games replayed from its record."""

from __future__ import annotations

import json
from pathlib import Path

from dennou.core.jsondata import to_json
from dennou.core.record import final_state, read, replay
from dennou.games.daifugo import GAME

GOLDEN = Path(__file__).parents[2] / "golden"


def test_golden_5_player_set_replays_to_the_stored_final_view_and_outcome() -> None:
    (record,) = read(GOLDEN / "daifugo_5p_set.jsonl")
    expected = json.loads((GOLDEN / "daifugo_5p_set.expected.json").read_text(encoding="utf-8"))
    state = final_state(record, GAME)
    assert GAME.view(state, None) == expected["final_view"]
    assert to_json(GAME.outcome(state)) == expected["outcome"] == record.outcome
    assert len(state.results) == 10 and state.players == ("alice", "bob", "carol", "dave", "eve")
    deals = sum(1 for f in replay(record, GAME) if f.step and f.step.seat == -1)
    assert deals == 10
