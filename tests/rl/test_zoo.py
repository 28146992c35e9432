"""The model zoo: a shipped policy for every game, played by name as ``zoo``."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from dennou.arena.bots import ZOO_GAMES, available_bots, make_bot, resolve_bot
from dennou.arena.match import run_match
from dennou.cli import app
from dennou.core.errors import ConfigError
from dennou.games import REGISTRY, get
from dennou.rl import zoo
from dennou.rl.table import encoding_for
from tests.rps import GAME as TOY

ROOT = Path(__file__).resolve().parents[2]

FAST: dict[str, dict[str, Any]] = {
    "stud10": {"view_odds": False},  # the odds only show in views; the encoding is the same
}
"""Rules options for a quick whole game that leave the entry's encoding as it was trained."""

OTHERS = {"numeron": "solver"}  # ends the game in a few calls (random calls take hundreds)


def test_every_game_of_the_registry_has_one_zoo_entry_and_the_bot_list_names_them() -> None:
    assert set(zoo.entries()) == set(REGISTRY) == ZOO_GAMES
    for name in REGISTRY:
        assert "zoo" in available_bots(get(name))
    assert "zoo" not in available_bots(TOY)


@pytest.mark.parametrize("name", sorted(ZOO_GAMES))
def test_a_zoo_entry_loads_and_its_metadata_matches_the_registry(name: str) -> None:
    entry = zoo.entry(name)
    game = get(name)
    assert entry["game"] == name and entry["file"] == f"{name}.npz"
    assert isinstance(entry["version"], int) and entry["version"] >= 1
    assert entry["command"].startswith(f"python examples/rl/zoo.py train {name} ")
    assert entry["teacher"] in available_bots(game) and "games" in entry["seeds"]
    rules = game.make_rules(entry["rules"])  # valid rules of this game
    assert game.spec.min_players <= entry["players"] <= game.spec.max_players
    with np.load(zoo.policy_path(name)) as data:
        meta = json.loads(str(data["meta"]))
    enc = encoding_for(name, rules, entry["players"])
    assert meta == {"game": name, "size": enc.size, "num_actions": enc.num_actions}
    assert zoo.policy_path(name).stat().st_size < 1 << 20  # small enough to ship


@pytest.mark.parametrize("name", sorted(ZOO_GAMES))
def test_a_zoo_policy_plays_a_whole_game_of_its_game_with_legal_actions(name: str) -> None:
    entry = zoo.entry(name)
    game = get(name)
    rules = game.make_rules({**entry["rules"], **FAST.get(name, {})})
    bots = ["zoo"] + [OTHERS.get(name, "random")] * (entry["players"] - 1)
    (record,) = run_match(game, rules, bots, 1, seed=7)
    assert record.outcome is not None
    mine = [step for step in record.steps if step.seat == 0 and step.talk is None]
    assert game.spec.decisions == bool(mine)
    assert not any(step.default for step in mine), "every zoo move was legal"


def test_zoo_is_a_bot_name_in_dennou_match() -> None:
    result = CliRunner().invoke(
        app, ["match", "hilo", "--bots", "zoo,random", "--games", "2", "--seed", "3", "--json"]
    )
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output[result.output.index("{") :])
    zoo_row = next(b for b in stats["bots"] if b["bot"] == "zoo")
    assert zoo_row["seats"] == 2 and zoo_row["defaults"] == 0


def test_the_host_resolves_zoo_as_a_built_in_bot() -> None:
    factory, options = resolve_bot(get("hilo"), "zoo:sample=true")
    assert options == {"sample": True}
    bot = factory(**options)
    assert isinstance(bot, zoo.ZooBot)
    bot.bind_game(get("hilo"))
    assert bot.meta["game"] == "hilo"


def test_unknown_zoo_names_and_rules_it_was_not_trained_for_are_refused_clearly() -> None:
    with pytest.raises(ConfigError, match=r"no policy for 'go'; it has: .*hilo"):
        zoo.entry("go")
    with pytest.raises(ConfigError, match="no bot 'zoo' for rps"):
        make_bot(TOY, "zoo")
    with pytest.raises(ConfigError, match="no policy for 'rps'"):
        zoo.ZooBot().bind_game(TOY)
    with pytest.raises(ConfigError, match=r"\bname\b"):
        make_bot(get("hilo"), "zoo:name=hilo")
    pandemic = get("pandemic")
    bot = make_bot(pandemic, "zoo")
    trained = zoo.entry("pandemic")["players"]
    with pytest.raises(ConfigError, match=f"zoo's pandemic policy plays {trained} seats"):
        bot.reset(seat=0, rules=pandemic.make_rules(), players=["a", "b", "c", "d"])


def test_the_zoo_table_in_the_docs_is_the_manifest() -> None:
    doc = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    table = doc.split("<!-- zoo:begin -->\n", 1)[1].split("<!-- zoo:end -->", 1)[0]
    assert table == zoo.markdown(), "run: python examples/rl/zoo.py docs"
    for name, entry in zoo.entries().items():
        assert entry["command"] in table and "vs `random`" in table, name


def test_the_zoo_files_ship_as_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["*"]
    assert "*.npz" in patterns and "*.json" in patterns
    assert (zoo.HERE / "__init__.py").exists()  # a package, found by setuptools
