"""Text forms, terminal rendering and the legal-play listing."""

from __future__ import annotations

import random

import pytest

from dennou.core.errors import InvalidActionError
from dennou.core.game import CHANCE
from dennou.games.daifugo import GAME, DaifugoRules
from dennou.games.daifugo.actions import Give, Pass, Play


def test_text_forms_round_trip() -> None:
    assert GAME.parse_action("play 8s 8h") == Play(("8s", "8h"))
    assert GAME.parse_action("pass") == Pass()
    assert GAME.parse_action("give 3c 4d") == Give(("3c", "4d"))
    assert GAME.parse_action({"type": "play", "cards": ["JK"]}) == Play(("JK",))
    assert str(Play(("10h", "JK"))) == "play 10h JK"
    with pytest.raises(InvalidActionError):
        GAME.parse_action("steal 3s")


@pytest.mark.parametrize(
    "action", ["play 1z", "give 9q 3c", {"type": "play", "cards": ["ZZ"]}, "play 3c XX"]
)
def test_a_card_that_does_not_exist_is_an_invalid_action(action: object) -> None:
    """Cards on the wire (docs/games/daifugo.md): an unknown card is not an action of the game
    (``invalid_action``); a real card not in the hand is a rule's refusal."""
    with pytest.raises(InvalidActionError, match="not a card") as refused:
        GAME.parse_action(action)
    assert refused.value.code == "invalid_action"


def test_render_shows_suits_ranks_and_legal_plays() -> None:
    rng = random.Random(5)
    s = GAME.new(DaifugoRules(), ["alice", "bob", "carol", "dave", "eve"])
    s, _ = GAME.apply(s, CHANCE, GAME.sample_chance(s, rng))
    for seat, cards in ((0, ("5d", "5c")), (1, ("7h", "7d")), (2, ("Qs", "Qh"))):
        s, _ = GAME.apply(s, seat, Play(cards))
    text = GAME.render(GAME.view(s, 3))
    assert "field: ♠Q ♥Q by carol" in text
    assert "your hand: ♦4 ♥6 ♦6 ♣6 ♣8 ♦9 ♠J ♣Q ♣2 JOKER JOKER" in text
    assert "> dave" in text
    legal = GAME.describe_legal(GAME.legal_actions(s, 3))
    assert legal == "[0] play 2c JK (♣2 JOKER)  [1] play JK JK (JOKER JOKER)  [2] pass"
    assert "your hand" not in GAME.render(GAME.view(s, None))


def test_editing_a_view_does_not_reach_the_state() -> None:
    rng = random.Random(5)
    s = GAME.new(DaifugoRules(), ["a", "b", "c"])
    s, _ = GAME.apply(s, CHANCE, GAME.sample_chance(s, rng))
    view = GAME.view(s, 0)
    before = GAME.view(s, 0)
    for entry in view["log"]:
        for value in entry["data"].values():
            if isinstance(value, list):
                value.append("junk")
    view["hand"].append("junk")
    assert GAME.view(s, 0) == before
