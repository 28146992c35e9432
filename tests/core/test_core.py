"""Core pieces: codec, rules parsing, records, registry, rng, errors."""

from __future__ import annotations

import pytest

from dennou.core import record as records
from dennou.core.actions import Concat, LazyActions
from dennou.core.errors import (
    ConfigError,
    DennouError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
)
from dennou.core.game import Outcome, rules_options
from dennou.core.record import Record, Step
from dennou.core.rng import derive_seed, make_rng
from dennou.games import REGISTRY, get
from tests.core.toygame import Guess, Hint, Toy, ToyRules


def test_codec_parses_json_text_and_objects() -> None:
    codec = Toy.codec
    assert codec.parse("hint 3") == Hint(3)
    assert codec.parse('{"type": "hint", "digit": 3}') == Hint(3)
    assert codec.parse({"type": "guess", "digit": 2}) == Guess(2)
    assert codec.dump(Hint(3)) == {"type": "hint", "digit": 3}
    assert str(Hint(3)) == "hint 3"


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "hint",
        "hint x",
        "hint 1 2",
        "nope 1",
        '{"type": "hint", "digit": "x"}',
        '{"type": "hint", "digit": 1, "extra": 2}',
        "{",
        [1],
        7,
        None,
    ],
)
def test_codec_rejects_malformed(bad: object) -> None:
    with pytest.raises(InvalidActionError):
        Toy.codec.parse(bad)


def test_codec_schema_names_every_action() -> None:
    schema = Toy.codec.schema()
    text = str(schema)
    assert "hint" in text and "guess" in text and "secret" in text


def test_rules_from_strings_and_errors() -> None:
    game = Toy()
    assert game.make_rules({"top": "5"}) == ToyRules(top=5)
    with pytest.raises(ConfigError, match="unknown rules option 'tpo'"):
        game.make_rules({"tpo": "5"})
    with pytest.raises(ConfigError, match="invalid rules"):
        game.make_rules({"top": "99"})
    with pytest.raises(ConfigError, match="invalid rules"):
        game.make_rules({"top": "many"})
    assert rules_options(ToyRules) == [("top", "int", 3, "largest secret digit")]


def test_player_count_is_checked() -> None:
    game = Toy()
    with pytest.raises(ConfigError, match="takes 2 players"):
        game.new(ToyRules(), ["a"])
    with pytest.raises(ConfigError, match="distinct"):
        game.new(ToyRules(), ["a", "a"])


def test_lazy_actions_and_concat() -> None:
    lazy = LazyActions(10, lambda i: Hint(i), lambda a: isinstance(a, Hint) and 0 <= a.digit < 10)
    both = Concat([Guess(1)], lazy)
    assert len(both) == 11 and both[0] == Guess(1) and both[5] == Hint(4) and both[-1] == Hint(9)
    assert Hint(3) in both and Hint(10) not in both and Guess(2) not in both
    assert list(lazy[2:4]) == [Hint(2), Hint(3)]
    with pytest.raises(IndexError):
        lazy[10]


def test_outcome_ranks_share_ties() -> None:
    out = Outcome.from_scores([3, 5, 5, 1])
    assert out.ranks == (3, 1, 1, 4)
    assert out.result(1) == "draw" and out.result(0) == "loss"
    assert Outcome.from_scores([1, 0]).result(0) == "win"


def test_record_jsonl_roundtrip_with_several_records(tmp_path) -> None:  # type: ignore[no-untyped-def]
    a = Record("toy", 1, {"top": 3}, ["x", "y"], [Step(-1, action={"type": "secret", "digit": 1})])
    b = Record(
        "toy",
        1,
        {"top": 3},
        ["x", "y"],
        [Step(0, default="timeout", note="slow")],
        outcome={"scores": [1.0, 0.0], "ranks": [1, 2]},
    )
    path = tmp_path / "r.jsonl"
    records.write(path, [a, b])
    assert records.read(path) == [a, b]


def test_record_rejects_garbage() -> None:
    with pytest.raises(DennouError, match="line 1"):
        records.loads("not json\n")
    with pytest.raises(DennouError, match="format"):
        records.loads('{"type": "header", "format": 99, "game": "toy"}\n')


def test_replay_refuses_other_version_or_game() -> None:
    game = Toy()
    with pytest.raises(ConfigError, match="v2"):
        records.start(Record("toy", 2, {}, ["a", "b"]), game)
    with pytest.raises(ConfigError, match="not 'toy'"):
        records.start(Record("numeron", 1, {}, ["a", "b"]), game)


def test_registry_is_explicit_and_lazy() -> None:
    assert "numeron" in REGISTRY
    assert get("numeron").spec.name == "numeron"
    with pytest.raises(ConfigError, match="unknown game 'chess'"):
        get("chess")


def test_rng_streams_are_stable_and_distinct() -> None:
    assert derive_seed(7, "bot", 0) == derive_seed(7, "bot", 0)
    assert derive_seed(7, "bot", 0) != derive_seed(7, "bot", 1)
    assert make_rng(1, "x").random() == make_rng(1, "x").random()


def test_errors_carry_context() -> None:
    err = IllegalActionError("nope", seat=1, phase="call", rule=None)
    assert err.to_json() == {
        "code": "illegal_action",
        "error": "IllegalActionError",
        "message": "nope",
        "seat": 1,
        "phase": "call",
    }


def test_an_error_about_a_rule_names_its_section_in_one_format() -> None:
    err = IllegalActionError("a call is 3 distinct digits", section="Setup", rule="number")
    assert err.message == "a call is 3 distinct digits — rules: Setup"
    assert err.to_json()["section"] == "Setup" and err.to_json()["rule"] == "number"
    assert [c.code for c in (NotYourTurnError, GameOverError, ConfigError, InvalidActionError)] == [
        "not_your_turn",
        "game_over",
        "config",
        "invalid_action",
    ]
