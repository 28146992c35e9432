"""Bots by name: ``solver``, ``montecarlo:ms=500``, ``random`` (every game has ``random``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dennou.core.bot import Bot, RandomBot
from dennou.core.errors import ConfigError
from dennou.core.game import Game
from dennou.core.options import bot_options

GENERIC_BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}
"""Bots that play every game."""


def available_bots(game: Game[Any, Any]) -> dict[str, Callable[..., Any]]:
    """Every bot name usable for ``game`` (the game's own first)."""
    return {**GENERIC_BOTS, **game.bots()}


def parse_bot_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value:key=value`` into the name and its options.

    Raises:
        ConfigError: An option is not ``key=value``.
    """
    name, *parts = spec.strip().split(":")
    options: dict[str, str] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise ConfigError(f"bot option {part!r} in {spec!r} is not key=value")
        options[key.strip()] = value.strip()
    return name.strip(), options


def make_bot(game: Game[Any, Any], spec: str) -> Bot:
    """Build a bot for ``game`` from a spec such as ``montecarlo:playouts=200``.

    Option values are converted to the types the bot's constructor declares and checked against
    the ranges it declares (:mod:`dennou.core.options`).

    Raises:
        ConfigError: Unknown bot or option, a value of the wrong type or out of its range.
    """
    name, options = parse_bot_spec(spec)
    bots = available_bots(game)
    if name not in bots:
        raise ConfigError(f"no bot {name!r} for {game.spec.name}; bots: {', '.join(bots)}")
    factory = bots[name]
    bot = factory(**bot_options(factory, options, name=name))
    if not isinstance(bot, Bot):
        raise ConfigError(f"{name!r} did not make a Bot")
    return bot
