"""Golden playthroughs: what a stored record must replay to, and how the files are (re)made.

Every game's golden files live in ``tests/golden/``, two per playthrough:

- ``<name>.jsonl``: the record (the source of truth: a hand-written script or a game played by
  bots from a seed, whose header then names the bot specs in ``meta.specs``);
- ``<name>.expected.json``: what replaying it must give: the final spectator view, the outcome
  and the text of every public event in order.

``tests/test_golden.py`` checks them all; ``scripts/golden`` rewrites them after a deliberate
change of behaviour (bump ``GameSpec.version`` and add a ``CHANGELOG.md`` entry when replays of
old records would differ).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from dennou.arena.bots import make_bot
from dennou.arena.play import play
from dennou.core.jsondata import to_json
from dennou.core.record import Record, read, replay, write
from dennou.games import get

GOLDEN = Path(__file__).resolve().parent / "golden"
"""The folder of golden files."""


def names() -> list[str]:
    """Every golden playthrough, by name (``<name>.jsonl`` in :data:`GOLDEN`)."""
    return sorted(p.name.removesuffix(".jsonl") for p in GOLDEN.glob("*.jsonl"))


def record_of(name: str) -> Record:
    """The stored record of a golden playthrough."""
    (record,) = read(GOLDEN / f"{name}.jsonl")
    return record


def stored_expectation(name: str) -> dict[str, Any]:
    """The stored expectation of a golden playthrough."""
    data: dict[str, Any] = json.loads(
        (GOLDEN / f"{name}.expected.json").read_text(encoding="utf-8")
    )
    return data


def expectation(record: Record) -> dict[str, Any]:
    """What replaying ``record`` gives: final spectator view, outcome, public event texts."""
    game = get(record.game)
    events: list[str] = []
    state = None
    for frame in replay(record, game):
        state = frame.state
        events.extend(e.text for e in frame.events if e.audience is None)
    return {
        "final_view": game.view(state, None),
        "outcome": to_json(game.outcome(state)),
        "events": events,
    }


def replayed(record: Record) -> Record:
    """The record a played golden gives when played again from its header (seed and specs).

    Raises:
        ValueError: The record was not played by bots from a seed (it is a script).
    """
    specs = record.meta.get("specs")
    if record.seed is None or not specs:
        raise ValueError("not a played record: its header names no seed and no bot specs")
    game = get(record.game)
    bots = [make_bot(game, spec) for spec in specs]
    again = play(game, game.make_rules(record.rules), bots, record.seed, players=record.players)
    again.meta["specs"] = list(specs)
    # Decision times differ from run to run: they are no part of a golden file.
    again.steps = [msgspec.structs.replace(s, ms=None) for s in again.steps]
    return again


def save(name: str, record: Record) -> None:
    """Write a golden playthrough's record and its expectation."""
    write(GOLDEN / f"{name}.jsonl", [record])
    text = json.dumps(expectation(record), ensure_ascii=False, indent=1, sort_keys=True)
    (GOLDEN / f"{name}.expected.json").write_text(text + "\n", encoding="utf-8")
