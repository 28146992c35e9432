"""docs/first-bot.md: each game's first bot plays whole games against the built-in bots with
`dennou match`'s own machinery, and never needs the rules' default."""

from __future__ import annotations

import pytest

from dennou.arena.match import run_match
from dennou.arena.seating import seat_players
from dennou.games import get

FIRST_BOTS = {
    "numeron": "examples.first_bots.numeron:NeverTwice",
    "daifugo": "examples.daifugo_bot:BigGroupsFirst",
    "hilo": "examples.first_bots.hilo:PlainGuesser",
    "smuggling": "examples.first_bots.smuggling:Trusting",
    "pandemic": "examples.first_bots.pandemic:Careful",
    "chairs": "examples.first_bots.chairs:Bystander",
}
SMALL = {
    "daifugo": {"games": 1},
    "hilo": {"max_games": 1, "max_rounds": 5},
    "smuggling": {"team_size": 2, "small_games": 2},
    "pandemic": {},
    "chairs": {},
    "numeron": {},
}


def test_every_game_with_decisions_has_a_first_bot_in_the_walk_through() -> None:
    from pathlib import Path

    from dennou.games import REGISTRY

    page = (Path(__file__).resolve().parents[2] / "docs" / "first-bot.md").read_text("utf-8")
    for name, game in REGISTRY.items():
        if game.spec.decisions:
            assert name in FIRST_BOTS, name
            assert FIRST_BOTS[name] in page, name


@pytest.mark.parametrize("name", sorted(FIRST_BOTS))
def test_the_first_bot_plays_whole_games_with_no_default(name: str) -> None:
    game = get(name)
    rules = game.make_rules(SMALL[name])
    seating = seat_players(game, rules, [FIRST_BOTS[name], "random"])
    records = run_match(game, rules, [s for s in seating.specs if s], 2, seed=7)
    for record in records:
        assert record.outcome is not None
        mine = {s for s, spec in enumerate(record.meta["bot_specs"]) if spec == FIRST_BOTS[name]}
        assert not [s for s in record.steps if s.seat in mine and s.default], "no default"
