"""Golden playthroughs of the Pandemic Game (docs/games/pandemic.md, all sections).

Each record under ``tests/golden/`` is replayed through the engine; the final spectator view
(everything is public after the end) and the outcome must equal the stored expectation.
Regenerate (only after a deliberate rules change, with a version bump):
``PYTHONPATH=src python tests/games/pandemic/test_pandemic_golden.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dennou.core.jsondata import to_json
from dennou.core.record import final_state, read, replay
from dennou.games.pandemic import GAME

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
CASES = {
    "pandemic_default": ({}, ["belief"] * 4 + ["random"] * 8, 7),
    "pandemic_options": (
        {"public_contacts": False, "transfer": True, "qualifiers": None, "min_vaccines": 1},
        ["belief"] * 6 + ["random"] * 2,
        11,
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    (record,) = read(GOLDEN / f"{name}.jsonl")
    expected = json.loads((GOLDEN / f"{name}.expected.json").read_text(encoding="utf-8"))
    state = final_state(record, GAME)
    assert GAME.is_over(state)
    assert GAME.view(state, None) == expected["final_view"]
    assert to_json(GAME.outcome(state)) == expected["outcome"] == record.outcome
    frames = list(replay(record, GAME))
    assert len(frames) == len(record.steps) + 1


def _generate() -> None:
    from dennou.arena.bots import make_bot
    from dennou.arena.play import play
    from dennou.core.record import write

    for name, (options, specs, seed) in CASES.items():
        rules = GAME.make_rules(options)
        bots = [make_bot(GAME, s) for s in specs]
        record = play(GAME, rules, bots, seed)
        for i, step in enumerate(record.steps):  # timings are noise in a golden file
            record.steps[i] = type(step)(
                step.seat, step.action, step.default, step.talk, None, step.note
            )
        write(GOLDEN / f"{name}.jsonl", [record])
        state = final_state(record, GAME)
        expected = {"final_view": GAME.view(state, None), "outcome": to_json(GAME.outcome(state))}
        (GOLDEN / f"{name}.expected.json").write_text(
            json.dumps(expected, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )


if __name__ == "__main__":
    _generate()
