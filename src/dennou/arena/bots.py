"""Bots by name: ``solver``, ``montecarlo:ms=500``, ``random`` (every game has ``random``)."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from typing import Any

from dennou.core.bot import Bot, RandomBot
from dennou.core.errors import ConfigError
from dennou.core.game import Game


def _policy(path: str = "", sample: bool = False) -> Bot:
    """A trained policy from ``dennou.rl`` (``policy:path=model.npz``; NumPy only)."""
    from dennou.rl.policy import PolicyBot

    return PolicyBot(path=path, sample=sample)


GENERIC_BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "policy": _policy}
"""Bots that play every game (``policy`` plays a policy file trained with ``dennou.rl``)."""


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

    Option values are converted to the types the bot's constructor declares.

    Raises:
        ConfigError: Unknown bot or option, or a value of the wrong type.
    """
    name, options = parse_bot_spec(spec)
    bots = available_bots(game)
    if name not in bots:
        raise ConfigError(f"no bot {name!r} for {game.spec.name}; bots: {', '.join(bots)}")
    factory = bots[name]
    params = inspect.signature(factory).parameters
    hints = typing.get_type_hints(factory.__init__ if inspect.isclass(factory) else factory)
    kwargs: dict[str, Any] = {}
    for key, raw in options.items():
        if key not in params:
            allowed = [p for p in params if p != "self"]
            raise ConfigError(f"bot {name!r} has no option {key!r}; options: {allowed or 'none'}")
        kwargs[key] = _convert(raw, hints.get(key, str), f"{name}:{key}")
    bot = factory(**kwargs)
    if not isinstance(bot, Bot):
        raise ConfigError(f"{name!r} did not make a Bot")
    return bot


def _convert(raw: str, tp: Any, where: str) -> Any:
    args = [a for a in typing.get_args(tp) if a is not type(None)]
    if args and typing.get_origin(tp) is not typing.Literal:
        tp = args[0]
    try:
        if tp is bool:
            if raw.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(raw)
            return raw.lower() in ("true", "1", "yes")
        if tp in (int, float):
            return tp(raw)
    except ValueError:
        raise ConfigError(f"{where} wants {tp.__name__}, got {raw!r}") from None
    return raw
