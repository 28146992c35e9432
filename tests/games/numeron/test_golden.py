"""Golden playthrough: a scripted 4-digit game using every item, replayed from its record.

The record (tests/golden/numeron-items.jsonl) and its transcript and final views
(tests/golden/numeron-items.expected.json) are checked in; any change of behaviour shows up as a
diff here. Regenerate deliberately with DENNOU_REGEN_GOLDEN=1 (and bump GameSpec.version).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from dennou.core import record as records
from dennou.core.game import CHANCE, to_json
from dennou.core.record import Record, Step
from dennou.games.numeron import GAME

GOLDEN = Path(__file__).parents[2] / "golden"
RECORD = GOLDEN / "numeron-items.jsonl"
EXPECTED = GOLDEN / "numeron-items.expected.json"

SCRIPT: list[tuple[int, str]] = [
    (0, "set 1907"),
    (1, "set 3809"),
    (CHANCE, '{"type": "coin", "first": 0}'),
    (1, "decline"),
    (0, "high_low"),
    (0, "call 2815"),
    (0, "move 3 0 2"),  # alice, defending: 1907 -> 3905
    (1, "target 9"),
    (1, "call 3950"),
    (1, "change 1 7"),  # bob, defending: 3809 -> 3709 (hundreds, HIGH)
    (0, "slash"),
    (0, "call 3708"),
    (0, "shuffle 0593"),  # alice: 3905 -> 0593
    (1, "double"),
    (0, "reveal 1"),  # alice, defending, picks which of bob's digits she sees
    (1, "call 0593"),
]


def build() -> Record:
    state = GAME.new(GAME.make_rules({"digits": "4"}), ["alice", "bob"])
    rec = Record("numeron", GAME.spec.version, to_json(state.rules), ["alice", "bob"])
    for seat, text in SCRIPT:
        action = GAME.parse_action(text)
        state, _ = GAME.apply(state, seat, action)
        rec.steps.append(Step(seat, action=GAME.dump_action(action)))
    rec.outcome = to_json(GAME.outcome(state))
    return rec


def transcript(rec: Record) -> dict[str, object]:
    frames = list(records.replay(rec, GAME))
    final = frames[-1].state
    return {
        "events": [e.text for f in frames for e in f.events if e.audience is None],
        "final_view_spectator": GAME.view(final, None),
        "final_view_alice": GAME.view(final, 0),
        "outcome": to_json(GAME.outcome(final)),
    }


def test_numeron_golden_playthrough() -> None:
    if os.environ.get("DENNOU_REGEN_GOLDEN"):
        records.write(RECORD, [build()])
        (rec,) = records.read(RECORD)
        EXPECTED.write_text(json.dumps(transcript(rec), ensure_ascii=False, indent=1) + "\n")
    (rec,) = records.read(RECORD)
    assert rec == build(), "the script and the stored record disagree"
    expected = json.loads(EXPECTED.read_text())
    got = transcript(rec)
    assert got == expected
    assert got["outcome"]["scores"] == [0.0, 1.0]
    assert "bob used CHANGE: hundreds place, HIGH" in got["events"]
