"""The registry lists games by name and imports each when first asked for."""

from __future__ import annotations

import pytest

from dennou.core.errors import ConfigError
from dennou.core.registry import Registry


def test_a_game_added_by_one_line_is_imported_only_when_first_asked_for() -> None:
    registry = Registry({})
    registry.add("ghost", "tests.no_such_module:GAME")  # listing imports nothing
    registry.add("rps", "tests.rps:GAME")
    assert list(registry) == ["ghost", "rps"]
    assert registry.get_game("rps").spec.name == "rps"
    with pytest.raises(ModuleNotFoundError):
        registry.get_game("ghost")
    registry.remove("rps")
    with pytest.raises(ConfigError, match="unknown game 'rps'"):
        registry.get_game("rps")


@pytest.mark.parametrize(("name", "target"), [("numeron", "x:GAME"), ("x", "x"), ("", "x:G")])
def test_a_taken_name_or_a_target_that_is_not_module_attribute_is_refused(
    name: str, target: str
) -> None:
    registry = Registry({"numeron": "dennou.games.numeron:GAME"})
    with pytest.raises(ConfigError, match="cannot list game"):
        registry.add(name, target)
    assert list(registry) == ["numeron"]
