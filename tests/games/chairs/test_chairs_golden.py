"""Golden playthroughs: stored records replayed and compared with the stored final view/outcome.

Regenerate (only after a deliberate behaviour change, with a version bump) with
``DENNOU_REGEN_GOLDEN=1 python -m pytest tests/games/chairs/test_chairs_golden.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dennou.arena.bots import make_bot
from dennou.arena.play import play
from dennou.core.jsondata import to_json
from dennou.core.record import loads, replay
from dennou.games import get

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
CASES = {
    # name: (people, rules options, bot specs cycled over the seats, seed)
    "chairs_8_random": (8, {"chairs": 7}, ["random"], 11),
    "chairs_12_mixed": (12, {}, ["heuristic", "random", "random"], 5),
}


def _make(name: str) -> None:
    people, options, bots, seed = CASES[name]
    game = get("chairs")
    rules = game.make_rules(options)
    players = [make_bot(game, bots[i % len(bots)]) for i in range(people)]
    record = play(game, rules, players, seed)
    # Decision times differ from run to run: leave them out of the stored record.
    text = "".join(
        json.dumps({k: v for k, v in json.loads(line).items() if k != "ms"}, ensure_ascii=False)
        + "\n"
        for line in record.lines()
    )
    (GOLDEN / f"{name}.jsonl").write_text(text, encoding="utf-8")
    (record_back,) = loads(text)
    final = list(replay(record_back, game))[-1].state
    expected = {"view": game.view(final, None), "outcome": record_back.outcome}
    (GOLDEN / f"{name}.expected.json").write_text(
        json.dumps(expected, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    if os.environ.get("DENNOU_REGEN_GOLDEN"):
        _make(name)
    game = get("chairs")
    (record,) = loads((GOLDEN / f"{name}.jsonl").read_text(encoding="utf-8"))
    expected = json.loads((GOLDEN / f"{name}.expected.json").read_text(encoding="utf-8"))
    frames = list(replay(record, game))
    final = frames[-1].state
    assert game.is_over(final)
    assert game.view(final, None) == expected["view"]
    outcome = to_json(game.outcome(final))
    assert outcome == expected["outcome"] == record.outcome
