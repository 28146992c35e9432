"""Text forms, the text map and the legal-action summary (what `dennou play chairs` shows)."""

from __future__ import annotations

import pytest

from dennou.core.actions import Action
from dennou.core.errors import InvalidActionError
from dennou.games.chairs import GAME
from dennou.games.chairs.actions import Gift, NoBlock, Order, Vote
from tests.games.chairs.helpers import all_ready, period, start


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("order 7 3 12", Order((7, 3, 12))),
        ("order", Order(())),
        ("gift 5 0 3", Gift(5, 0, 3)),
        ("no_block", NoBlock()),
        ("vote 1", Vote(1)),
    ],
)
def test_text_forms_round_trip(text: str, action: Action) -> None:
    assert GAME.parse_action(text) == action and str(action) == text
    assert GAME.parse_action(GAME.dump_action(action)) == action


def test_malformed_text_is_invalid() -> None:
    for text in ("order x", "gift 1", "vote", "fly 3"):
        with pytest.raises(InvalidActionError):
            GAME.parse_action(text)


def test_render_draws_the_island_each_period() -> None:
    s = period(start(), {0: [1], 1: [2]})
    text = GAME.render(GAME.view(s, 0))
    rows = text.splitlines()
    assert any(" T " in r or r.endswith(" T") for r in rows)
    assert any(" 1*" in r for r in rows) and any(" 2*" in r for r in rows)
    assert "period 1/3" in text and "p0: 1 -> sat on 1" in text
    assert "your medals" in text and "medals" not in GAME.render(GAME.view(s, None))


def test_describe_legal_groups_by_kind() -> None:
    s = all_ready(start(people=12, starting_players=6, spots=[(40 * i + 50, 0) for i in range(9)]))
    text = GAME.describe_legal(GAME.legal_actions(s, 0))
    assert "block_chair {1,2,3,4,5,6,7,8,9}" in text and "order <chair>" in text
