"""Objects named by where they live (``"package.module:attribute"``), imported when first used.

The registries of games (:class:`dennou.core.registry.Registry`) and of a game's bots
(:class:`Bots`) list every entry explicitly, by name, instead of registering by import side
effects; an entry given by its place is imported the first time it is asked for, so listing the
names imports nothing (a bot's LP solver or compiled code comes with the bot).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any


def load(target: str) -> Any:
    """The object at ``"package.module:attribute"`` (its module imported if it was not)."""
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


BotEntry = Callable[..., Any] | str
"""A bot's factory, or where it lives (``"package.module:attribute"``)."""


class Bots(Mapping[str, Callable[..., Any]]):
    """Bot name -> factory; a factory given by its place is imported when first looked up.

    A game lists its bots explicitly (``Bots({"random": RandomBot, "optimal":
    "dennou.games.numeron.race:OptimalBot"})``): the names are known without importing anything,
    and a bot that needs a solver or compiled code brings it in only when it is built or its
    options are read.

    Args:
        entries: For each bot name, its factory or where it lives.
    """

    def __init__(self, entries: Mapping[str, BotEntry] | None = None) -> None:
        self._entries: dict[str, BotEntry] = dict(entries or {})

    def __getitem__(self, name: str) -> Callable[..., Any]:
        entry = self._entries[name]
        if isinstance(entry, str):
            factory = load(entry)
            if not callable(factory):
                raise TypeError(f"bot {name!r}: {entry} is not callable")
            self._entries[name] = entry = factory
        return entry

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def entries(self) -> dict[str, BotEntry]:
        """Every name with its factory or place, importing nothing (to combine registries)."""
        return dict(self._entries)
