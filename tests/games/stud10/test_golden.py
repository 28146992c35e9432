"""Golden playthrough: a recorded 3-hand session replays to the stored final view and outcome.

Rules: docs/games/stud10.md (a session with stacks of 2 and an ante of 1, so players go
broke and sit out in the third hand).
"""

from __future__ import annotations

import json
from pathlib import Path

from dennou.core.jsondata import to_json
from dennou.core.record import final_state, read, replay
from dennou.games.stud10 import GAME

GOLDEN = Path(__file__).parents[2] / "golden"


def test_golden_session_replays() -> None:
    (record,) = read(GOLDEN / "stud10_session.jsonl")
    expected = json.loads((GOLDEN / "stud10_session.final.json").read_text(encoding="utf-8"))
    state = final_state(record, GAME)
    assert GAME.view(state, None) == expected["view"]
    assert to_json(GAME.outcome(state)) == expected["outcome"] == record.outcome
    frames = list(replay(record, GAME))
    deals = [f for f in frames if f.step is not None and f.step.action["type"] == "deal"]
    assert len(deals) == 3
    # Third hand: only the players who still had a chip were dealt in.
    assert deals[2].state.in_hand == (1, 3)
    # The odds after every deal and reveal that does not end a hand are in the log.
    kinds = [e["kind"] for e in expected["view"]["log"]]
    assert kinds.count("odds") == kinds.count("deal") + kinds.count("reveal") - 3
