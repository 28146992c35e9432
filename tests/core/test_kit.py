"""The kit every engine shares: turn check, transition map, talk helpers, options, views header."""

from __future__ import annotations

from typing import Annotated

import pytest
from msgspec import Meta

from dennou.arena.bots import make_bot
from dennou.core.bot import Bot, RandomBot
from dennou.core.errors import ConfigError, GameOverError, IllegalActionError, NotYourTurnError
from dennou.core.game import CHANCE, Game, TalkLine
from dennou.core.immutable import replace_at
from dennou.core.options import option_info
from dennou.core.talk import (
    MAX_TALK,
    RECENT_TALK,
    check_line,
    hears,
    pair_channel,
    pair_seats,
    recent,
    talk_event,
)
from dennou.games import get
from dennou.games.numeron import NumeronRules
from dennou.games.stud10 import Stud10Rules


def test_replace_at_builds_a_new_tuple() -> None:
    values = (1, 2, 3)
    assert replace_at(values, 1, 9) == (1, 9, 3) and values == (1, 2, 3)
    assert replace_at(("a", "b"), 0, "z") == ("z", "b")


def test_pair_channels_are_spelled_one_way() -> None:
    assert pair_channel(7, 3) == pair_channel(3, 7) == "pair:3-7"
    assert pair_seats("pair:3-7") == (3, 7)
    for bad in ("pair:7-3", "pair:3-3", "pair:03-7", "pair:3-x", "public", "team:north"):
        assert pair_seats(bad) is None, bad
    assert hears("public", None) and hears("pair:3-7", 7) and not hears("pair:3-7", 4)
    assert not hears("pair:3-7", None) and not hears("team:north", 0)


def test_a_line_of_talk_has_1_to_max_talk_characters() -> None:
    check_line("x" * MAX_TALK, "public")
    for bad in ("", "   ", "x" * (MAX_TALK + 1)):
        with pytest.raises(IllegalActionError, match=f"1-{MAX_TALK} characters"):
            check_line(bad, "public")


def test_talk_events_name_the_channel_and_mark_spectators() -> None:
    said = talk_event(TalkLine(2, "ann", "pair:2-5", "hi"), frozenset({2, 5}))
    assert said.text == "[pair:2-5] ann: hi" and said.audience == frozenset({2, 5})
    assert (
        talk_event(TalkLine(None, "guest", "public", "gg")).text == "[public] guest (spectator): gg"
    )


def test_views_carry_only_the_recent_talk_and_the_record_keeps_it_all() -> None:
    """A chatty table cannot grow every view without bound."""
    game = get("numeron")
    state = game.new(game.make_rules(), ["a", "b"])
    for i in range(RECENT_TALK + 30):
        state, _ = game.talk(state, i % 2, "public", f"line {i}")
    assert len(state.talk) == RECENT_TALK + 30
    lines = game.view(state, 0)["talk"]
    assert len(lines) == RECENT_TALK and lines[-1]["text"] == f"line {RECENT_TALK + 29}"
    assert recent([1, 2, 3], 2) == [2, 3] and recent([1], 0) == []


def test_the_turn_check_says_who_acts_and_when_the_game_is_over() -> None:
    game = get("numeron")
    state = game.new(game.make_rules(), ["a", "b"])
    with pytest.raises(
        NotYourTurnError, match=r"seat -1 may not act now \(setup; to act: \[0, 1\]\)"
    ):
        game.check_turn(state, CHANCE)
    game.check_turn(state, 0)
    record = game.make_rules({"digits": 3})
    assert record.digits == 3
    hilo = get("hilo")
    over = hilo.new(hilo.make_rules({"max_games": 1}), ["a", "b"])
    over = type(over)(**{**over.__dict__, "phase": "over"})
    with pytest.raises(GameOverError, match="the series is over"):
        hilo.check_turn(over, 0)


def test_a_move_the_phase_does_not_take_names_what_it_takes() -> None:
    game = get("numeron")
    state = game.new(game.make_rules(), ["a", "b"])
    with pytest.raises(
        IllegalActionError, match="call is not allowed in the setup phase; expected set"
    ):
        game.apply(state, 0, game.parse_action("call 012"))


def test_the_transition_map_is_built_once_per_engine_class() -> None:
    game = get("numeron")
    transitions = type(game)._transitions
    assert ("call", type(game.parse_action("call 012"))) in transitions
    state = game.new(game.make_rules(), ["a", "b"])
    game.apply(state, 0, game.parse_action("set 012"))
    assert type(game)._transitions is transitions
    assert Game._transitions == {}


def test_views_start_with_the_common_header() -> None:
    game = get("numeron")
    state = game.new(game.make_rules(), ["a", "b"])
    view = game.view(state, 1)
    assert {k: view[k] for k in ("game", "players", "seat", "phase", "to_act")} == {
        "game": "numeron",
        "players": ["a", "b"],
        "seat": 1,
        "phase": "setup",
        "to_act": [0, 1],
    }
    assert view["rules"]["digits"] == 3


def test_rules_options_out_of_range_are_refused_from_data_and_in_python() -> None:
    """An option out of range is refused: stud10 odds_samples=8000000 would hold a host."""
    game = get("stud10")
    with pytest.raises(ConfigError, match=r"odds_samples wants int in 1\.\.200000, got '8000000'"):
        game.make_rules({"odds_samples": "8000000"})
    with pytest.raises(ValueError, match="odds_samples must be <= 200000"):
        Stud10Rules(odds_samples=8_000_000)
    with pytest.raises(ValueError, match="digits must be >= 3"):
        NumeronRules(digits=2)
    info = {o.name: o for o in option_info(Stud10Rules)}
    assert info["odds_samples"].range == "1..200000" and info["view_odds"].range == ""


class _Counter(Bot):
    """A bot with declared options.

    Args:
        playouts: Playouts per decision.
        rate: A share.
        mode: How it plays.
    """

    def __init__(
        self,
        playouts: Annotated[int, Meta(ge=1, le=1000)] = 10,
        rate: Annotated[float, Meta(gt=0, lt=1)] = 0.5,
        mode: str = "fast",
    ) -> None:
        self.playouts, self.rate, self.mode = playouts, rate, mode

    def act(self, view: object, legal: object, rng: object) -> object:  # type: ignore[override]
        raise NotImplementedError


def test_bot_options_are_declared_once_and_listed_with_their_ranges() -> None:
    info = {o.name: o for o in option_info(_Counter)}
    assert info["playouts"].range == "1..1000" and info["playouts"].default == 10
    assert info["rate"].range == "> 0 and < 1" and info["rate"].type == "float"
    assert info["mode"].type == "text" and info["mode"].description == "How it plays."
    assert option_info(RandomBot) == []


def test_bot_options_out_of_range_are_config_errors_naming_the_range() -> None:
    with pytest.raises(ConfigError, match="playouts must be <= 1000"):
        _Counter(playouts=5000)
    game = get("numeron")
    with pytest.raises(ConfigError, match=r"solver:lookahead wants int in 0\.\.64, got '-5'"):
        make_bot(game, "solver:lookahead=-5")
    with pytest.raises(ConfigError, match="wants bool"):
        make_bot(game, "solver:items=maybe")
    assert make_bot(game, "solver:lookahead=3:items=no").lookahead == 3  # type: ignore[attr-defined]
