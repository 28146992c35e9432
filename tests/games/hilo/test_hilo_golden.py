"""Golden playthroughs: stored records replayed against stored final views and outcomes.

Regenerate (after a deliberate behaviour change, with a version bump) with
``HILO_GOLDEN=write python -m pytest tests/games/hilo/test_hilo_golden.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from dennou.arena import play
from dennou.core.jsondata import to_json
from dennou.core.record import Record, final_state, read, write
from dennou.games.hilo import GAME, HiloRules
from dennou.games.hilo.bots import BayesBot, HiloRandomBot

GOLDEN = Path(__file__).resolve().parents[2] / "golden"

CASES: dict[str, tuple[HiloRules, list[str], int]] = {
    # A realistic game: bayes against two random players, the source's rules, one game.
    "hilo_bayes_vs_random": (HiloRules(max_games=1), ["random", "bayes", "random"], 5),
    # Every action kind: random players on a small range with easy checks.
    "hilo_all_actions": (
        HiloRules(max_number=50, check_min=3, random_check_max=0, max_games=2),
        ["random", "random", "random"],
        2,
    ),
}


def _make(rules: HiloRules, bots: list[str], seed: int) -> Record:
    made = [BayesBot() if b == "bayes" else HiloRandomBot() for b in bots]
    return play(GAME, rules, made, seed)


def _expected(record: Record) -> dict[str, Any]:
    state = final_state(record, GAME)
    return {"view": GAME.view(state, None), "outcome": to_json(GAME.outcome(state))}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    record_path = GOLDEN / f"{name}.jsonl"
    expected_path = GOLDEN / f"{name}.expected.json"
    if os.environ.get("HILO_GOLDEN") == "write":
        record = _make(*CASES[name])
        write(record_path, [record])
        expected_path.write_text(
            json.dumps(_expected(record), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
    (record,) = read(record_path)
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    got = _expected(record)
    assert got["outcome"] == expected["outcome"] == record.outcome
    assert got["view"] == expected["view"]
    assert got["view"]["phase"] == "over" and got["view"]["target"] is not None
    # Playing again from the seed gives the same record: engine and bots are deterministic.
    again = _make(*CASES[name])
    assert [s.action for s in again.steps] == [s.action for s in record.steps]


def test_golden_all_actions_covers_every_kind() -> None:
    (record,) = read(GOLDEN / "hilo_all_actions.jsonl")
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
