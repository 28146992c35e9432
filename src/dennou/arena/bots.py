"""Bots by name: ``solver``, ``montecarlo:ms=500``, ``random`` (every game has ``random``)."""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dennou.core.bot import Bot, RandomBot
from dennou.core.errors import ConfigError
from dennou.core.game import Game, range_text, type_text

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


@dataclass(frozen=True)
class BotOption:
    """One option of a bot, as ``dennou games`` shows it.

    Attributes:
        name: The option's name (``playouts`` in ``montecarlo:playouts=500``).
        type: Its type, written for people.
        default: Its default value.
        range: The values it allows (``1 to 100000``), or ``""`` where the bot declares none.
        description: What it does.
    """

    name: str
    type: str
    default: Any
    range: str
    description: str


def bot_options(factory: Callable[..., Any]) -> list[BotOption]:
    """The options a bot factory takes, from its constructor.

    Types and ranges come from the annotations (``Annotated[int, Meta(ge=1, le=100_000)]``
    gives the range), descriptions from the ``Args:`` section of its docstring.
    """
    target = factory.__init__ if inspect.isclass(factory) else factory
    try:
        hints = typing.get_type_hints(target, include_extras=True)
    except (NameError, TypeError):
        hints = {}
    described = _docstring_args(inspect.getdoc(factory) or "")
    described.update(_docstring_args(inspect.getdoc(target) or ""))
    out = []
    for name, param in inspect.signature(factory).parameters.items():
        if name in ("self", "game") or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        hint = hints.get(name, type(param.default) if param.default is not param.empty else str)
        default = None if param.default is param.empty else param.default
        out.append(
            BotOption(name, type_text(hint), default, range_text(hint), described.get(name, ""))
        )
    return out


_ARG = re.compile(r"^(\s+)(\w+)(?:\s*\([^)]*\))?:\s*(.*)$")


def _docstring_args(doc: str) -> dict[str, str]:
    """``{name: text}`` from the ``Args:`` section of a Google-style docstring."""
    out: dict[str, str] = {}
    lines = doc.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "Args:")
    except StopIteration:
        return out
    indent: str | None = None
    current: str | None = None
    for line in lines[start + 1 :]:
        if line.strip() and not line.startswith((" ", "\t")):
            break  # the next section
        match = _ARG.match(line)
        if match and (indent is None or match.group(1) == indent):
            indent, current = match.group(1), match.group(2)
            out[current] = match.group(3).strip()
        elif current is not None and line.strip():
            out[current] += " " + line.strip()
    return out
