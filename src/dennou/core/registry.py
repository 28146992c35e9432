"""An explicit, lazily imported registry of games.

Games are listed by name with the module that defines them, not registered by import side
effects; a game's module (and its heavy dependencies) is imported the first time it is asked for.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from dennou.core.errors import ConfigError
from dennou.core.game import Game
from dennou.core.lazy import load


class Registry(Mapping[str, Game[Any, Any]]):
    """Name -> game, from ``{"name": "package.module:attribute"}`` entries.

    Args:
        entries: For each game name, where its :class:`Game` instance lives.
    """

    def __init__(self, entries: Mapping[str, str]) -> None:
        self._entries = dict(entries)
        self._loaded: dict[str, Game[Any, Any]] = {}

    def __getitem__(self, name: str) -> Game[Any, Any]:
        if name not in self._loaded:
            target = self._entries[name]
            game = load(target)
            assert isinstance(game, Game) and game.spec.name == name, target
            self._loaded[name] = game
        return self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def add(self, name: str, target: str) -> None:
        """List one more game (``package.module:attribute``), imported when first asked for.

        Raises:
            ConfigError: The name is taken, or the target is not ``module:attribute``.
        """
        module, sep, attribute = target.partition(":")
        if name in self._entries or not (name and module and sep and attribute):
            raise ConfigError(f"cannot list game {name!r} at {target!r}")
        self._entries[name] = target

    def remove(self, name: str) -> None:
        """Unlist a game (a no-op for a name not listed)."""
        self._entries.pop(name, None)
        self._loaded.pop(name, None)

    def get_game(self, name: str) -> Game[Any, Any]:
        """The game called ``name``.

        Raises:
            ConfigError: No such game (the message lists the games).
        """
        if name not in self._entries:
            raise ConfigError(f"unknown game {name!r}; games: {', '.join(self._entries)}")
        return self[name]
