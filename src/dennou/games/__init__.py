"""The games of dennou, listed explicitly.

Use :func:`get` (``dennou.games.get("numeron")``) or :data:`REGISTRY` (a mapping name -> game).
"""

from __future__ import annotations

from typing import Any

from dennou.core.game import Game
from dennou.core.registry import Registry

REGISTRY = Registry(
    {
        "numeron": "dennou.games.numeron:GAME",
        "daifugo": "dennou.games.daifugo:GAME",
        "stud10": "dennou.games.stud10:GAME",
        "hilo": "dennou.games.hilo:GAME",
        "smuggling": "dennou.games.smuggling:GAME",
        "pandemic": "dennou.games.pandemic:GAME",
        "chairs": "dennou.games.chairs:GAME",
    }
)
"""Every game, by name. Add a line here for a new game."""


def get(name: str) -> Game[Any, Any]:
    """The game called ``name``.

    Raises:
        ConfigError: No such game.
    """
    return REGISTRY.get_game(name)
