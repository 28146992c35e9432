"""Regenerate the Daifugo golden files (run by hand, then review the diff).

PYTHONPATH=src python -m tests.games.daifugo.make_golden   # from the worktree root

- ``daifugo_5p_set``: a 10-game set under the source's rules (greedy and random bots, seed 2026).
- ``daifugo_uecda_set``: a 10-game set under the ``uecda`` preset (seed 7).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dennou.arena import make_bot, play
from dennou.core.jsondata import to_json
from dennou.core.record import Record, final_state, write
from dennou.games.daifugo import GAME

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
PLAYERS = ["alice", "bob", "carol", "dave", "eve"]


def make(options: dict[str, Any], bots: list[str], seed: int) -> Record:
    """A whole set played by bots from a seed."""
    rules = GAME.make_rules(options)
    return play(GAME, rules, [make_bot(GAME, b) for b in bots], seed, players=PLAYERS)


def store(name: str, record: Record) -> None:
    """Write the record and its expected final spectator view and outcome."""
    write(GOLDEN / f"{name}.jsonl", [record])
    state = final_state(record, GAME)
    expected = {"outcome": to_json(GAME.outcome(state)), "final_view": GAME.view(state, None)}
    text = json.dumps(expected, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    (GOLDEN / f"{name}.expected.json").write_text(text, encoding="utf-8")


def main() -> None:
    """Regenerate both golden sets."""
    store("daifugo_5p_set", make({}, ["greedy", "random", "greedy", "random", "greedy"], 2026))
    uecda = make({"preset": "uecda"}, ["greedy", "random", "greedy", "random", "random"], 7)
    store("daifugo_uecda_set", uecda)


if __name__ == "__main__":
    main()
