"""Regenerate the Smuggling Game golden files (run by hand, then review the diff).

PYTHONPATH=src python -m tests.games.smuggling.make_golden   # from the worktree root
"""

from __future__ import annotations

import json
from pathlib import Path

from dennou.arena import make_bot, play
from dennou.core.game import TalkLine
from dennou.core.jsondata import to_json
from dennou.core.record import Record, Step, final_state
from dennou.games.smuggling import GAME

GOLDEN = Path(__file__).resolve().parents[2] / "golden"


def scripted() -> Record:
    """1 v 1, four small games: one of each settlement case, room talk, team talk, a timeout."""
    rules = GAME.make_rules({"team_size": 1, "small_games": 5, "room_messages": 2})
    record = Record("smuggling", GAME.spec.version, to_json(rules), ["akiyama", "nao"])
    s = [
        Step(0, action={"type": "nominate", "seat": 0}),
        Step(1, action={"type": "nominate", "seat": 1}),
        Step(0, action={"type": "trunk", "amount": 0}),
        Step(0, talk=TalkLine(0, "akiyama", "room", "空っぽですよ。")),
        Step(1, talk=TalkLine(1, "nao", "room", "信じます…ダウト、5000万。")),
        Step(1, action={"type": "doubt", "amount": 50_000_000}),  # empty: nao pays 25M
        Step(0, action={"type": "ready"}),
        Step(0, action={"type": "nominate", "seat": 0}),
        Step(1, action={"type": "nominate", "seat": 1}),
        Step(1, action={"type": "trunk", "amount": 60_000_000}),
        Step(1, action={"type": "ready"}),
        Step(0, action={"type": "doubt", "amount": 60_000_000}),  # caught: akiyama +60M
        Step(0, talk=TalkLine(0, "akiyama", "team:north", "one more")),
        Step(0, action={"type": "nominate", "seat": 0}),
        Step(1, action={"type": "nominate", "seat": 1}),
        Step(0, action={"type": "trunk", "amount": 100_000_000}),
        Step(0, action={"type": "ready"}),
        Step(1, action={"type": "doubt", "amount": 30_010_000}),  # through: +100M + 15M
        Step(0, action={"type": "nominate", "seat": 0}),
        Step(1, action={"type": "nominate", "seat": 1}),
        Step(1, action={"type": "trunk", "amount": 40_000_000}),
        Step(0, default="timeout"),  # akiyama's verdict times out: pass
        Step(1, action={"type": "ready"}),
        Step(0, action={"type": "nominate", "seat": 0}),
        Step(1, action={"type": "nominate", "seat": 1}),
        Step(0, action={"type": "trunk", "amount": 10_000}),
        Step(0, action={"type": "ready"}),
        Step(1, action={"type": "pass"}),
    ]
    record.steps.extend(s)
    record.outcome = to_json(GAME.outcome(final_state(record, GAME)))
    return record


def bots() -> Record:
    """2 v 2 bots (equilibrium and greedy North, random and selfish equilibrium South)."""
    rules = GAME.make_rules({"team_size": 2, "small_games": 8})
    specs = ["equilibrium", "greedy", "random", "equilibrium:objective=self"]
    return play(GAME, rules, [make_bot(GAME, b) for b in specs], seed=11)


def main() -> None:
    for name, record in (("smuggling_scripted", scripted()), ("smuggling_bots", bots())):
        (GOLDEN / f"{name}.jsonl").write_text(record.dumps(), encoding="utf-8")
        state = final_state(record, GAME)
        expected = {"outcome": record.outcome, "spectator_view": GAME.view(state, None)}
        text = json.dumps(expected, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
        (GOLDEN / f"{name}.expected.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
