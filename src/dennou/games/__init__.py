"""The games of dennou, listed explicitly.

Use :func:`get` (``dennou.games.get("numeron")``) or :data:`REGISTRY` (a mapping name -> game).

A process started with :data:`EXTRA_GAMES` in its environment lists those games too: a game
outside this package (the tests' toy game, an example) served, played and learned like the
others. Only whoever starts the process sets it: it names modules the process imports.
"""

from __future__ import annotations

import os
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

EXTRA_GAMES = "DENNOU_EXTRA_GAMES"
"""The environment variable that lists more games: ``name=package.module:attribute``, comma
separated."""

for _entry in filter(None, os.environ.get(EXTRA_GAMES, "").split(",")):
    _name, _, _target = _entry.strip().partition("=")
    REGISTRY.add(_name, _target)


def get(name: str) -> Game[Any, Any]:
    """The game called ``name``.

    Raises:
        ConfigError: No such game.
    """
    return REGISTRY.get_game(name)
