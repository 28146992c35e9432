"""The worked example in ``docs/games/smuggling.md`` is what the engine really shows."""

from __future__ import annotations

import json
import re
from pathlib import Path

from dennou.games.smuggling import GAME
from dennou.games.smuggling.actions import Doubt, Nominate, Ready, Trunk

DOC = Path(__file__).resolve().parents[3] / "docs" / "games" / "smuggling.md"


def test_docs_view_example_matches_the_engine() -> None:
    """docs/games/smuggling.md, "View JSON": the example is fukunaga's view after these steps."""
    rules = GAME.make_rules({"team_size": 2, "small_games": 4})
    s = GAME.new(rules, ["akiyama", "fukunaga", "nao", "yokoya"])
    for seat, nominee in [(0, 0), (1, 0), (2, 3), (3, 3)]:
        s, _ = GAME.apply(s, seat, Nominate(nominee))
    s, _ = GAME.apply(s, 0, Trunk(0))
    s, _ = GAME.apply(s, 0, Ready())
    s, _ = GAME.apply(s, 3, Doubt(50_000_000))
    for seat, nominee in [(0, 1), (1, 1), (2, 2), (3, 2)]:
        s, _ = GAME.apply(s, seat, Nominate(nominee))
    s, _ = GAME.apply(s, 2, Trunk(30_000_000))
    s, _ = GAME.talk(s, 2, "room", "空っぽですよ。")
    s, _ = GAME.talk(s, 1, "room", "本当に？")
    s, _ = GAME.talk(s, 1, "team:north", "nao looks nervous")
    match = re.search(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert match is not None
    assert json.loads(match.group(1)) == GAME.view(s, 1)
