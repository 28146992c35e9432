"""Bots by name: ``solver``, ``montecarlo:ms=500``, ``random`` (every game has ``random``).

Locally (:func:`make_bot`) a spec may also be a program: ``cmd:./mybot args`` plays over the
engine bridge (:mod:`dennou.arena.bridge`), or a language model: ``llm:model=NAME`` asks an
OpenAI-compatible endpoint (:mod:`dennou.arena.llm`), or ``policy:path=FILE`` reads a trained
policy file. The host runs none of these: :func:`resolve_bot`, which builds the host's bot seats,
refuses them (a client must not make the host run a program or read a file it names); a host
seats its built-in bots, the model zoo, and only the models its operator declared
(``dennou serve --llm NAME=URL``), by their names.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

from dennou.arena.commands import COMMAND, is_command
from dennou.core.bot import Bot, RandomBot
from dennou.core.errors import ConfigError
from dennou.core.game import Game
from dennou.core.lazy import Bots
from dennou.core.options import bot_options

POLICY_BOT = "dennou.rl.policy:PolicyBot"
"""The policy bot, named as the registry names games: :mod:`dennou.rl` builds on this module
(its environments' opponents are bots made here), so the bot table does not import it."""


def _policy(path: str = "", sample: bool = False) -> Bot:
    """A trained policy from ``dennou.rl`` (``policy:path=model.npz``; NumPy only)."""
    module, _, attribute = POLICY_BOT.partition(":")
    bot = getattr(importlib.import_module(module), attribute)(path=path, sample=sample)
    assert isinstance(bot, Bot)
    return bot


ZOO_BOT = "dennou.rl.zoo:ZooBot"
"""The model zoo's bot (``zoo``: the trained policy shipped for the game), named by its place."""

ZOO_GAMES = frozenset({"daifugo", "numeron", "stud10", "hilo", "smuggling", "pandemic", "chairs"})
"""The games the zoo has a policy for (``dennou/rl/zoo/zoo.json``; a test holds them equal)."""


def _zoo(sample: bool = False) -> Bot:
    """The model zoo's trained policy for this game (``zoo``; NumPy only)."""
    module, _, attribute = ZOO_BOT.partition(":")
    bot = getattr(importlib.import_module(module), attribute)(sample=sample)
    assert isinstance(bot, Bot)
    return bot


GENERIC_BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "policy": _policy, "zoo": _zoo}
"""Bots that play every game (``policy`` plays a policy file trained with ``dennou.rl``;
``zoo`` only the games of :data:`ZOO_GAMES`)."""


LOCAL_BOTS: dict[str, str] = {
    "policy": "a policy file is read only on your machine (dennou match, dennou tournament); "
    "a host plays its built-in bots and the model zoo (zoo)",
}
"""Bots a host never builds, with the reason its refusal gives: they read what the spec names."""


def host_bots(game: Game[Any, Any]) -> list[str]:
    """The sorted names of the bots a host seats for ``game``: :data:`LOCAL_BOTS` left out."""
    return sorted(name for name in available_bots(game) if name not in LOCAL_BOTS)


def refuse_local_bot(spec: str) -> None:
    """Raise :class:`ConfigError` if ``spec`` names a bot only a local run builds.

    Raises:
        ConfigError: ``spec`` is one of :data:`LOCAL_BOTS`.
    """
    name = spec.strip().split(":", 1)[0].strip()
    if name in LOCAL_BOTS:
        raise ConfigError(f"{spec!r}: {LOCAL_BOTS[name]}")


def available_bots(game: Game[Any, Any]) -> Bots:
    """Every bot usable for ``game`` by name (the generic ones first, then declared models).

    Listing the names imports no bot: a bot the game names by its place is imported when it is
    looked up (:class:`~dennou.core.lazy.Bots`).
    """
    from dennou.arena.llm import LLMBot, declared_models

    models = dict.fromkeys(declared_models(), LLMBot)
    generic = {k: v for k, v in GENERIC_BOTS.items() if k != "zoo" or game.spec.name in ZOO_GAMES}
    return Bots({**generic, **game.bots().entries(), **models})


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


def resolve_bot(
    game: Game[Any, Any], spec: str, *, host: bool = True
) -> tuple[Callable[..., Bot], dict[str, Any]]:
    """The factory of a bot spec and its options converted to the types it declares.

    Option values are converted to the types the bot's constructor declares and checked against
    the ranges it declares (:mod:`dennou.core.options`). Building the bot is then
    ``factory(**options)`` (the host does that in a worker process).

    Args:
        game: The game the bot plays.
        spec: The bot spec.
        host: Build it for a host (the default): :data:`LOCAL_BOTS` are refused.

    Raises:
        ConfigError: Unknown bot or option, a value of the wrong type or out of its range; on a
            host, a bot only a local run builds.
    """
    from dennou.arena.llm import declared_model_options, is_llm

    if is_command(spec):
        raise ConfigError(
            f"{spec!r}: a command bot runs only on your machine (dennou match, dennou "
            "tournament, dennou bot run --cmd); a host plays built-in bots"
        )
    if is_llm(spec):
        raise ConfigError(
            f"{spec!r}: a host asks only the models its operator declared (dennou serve --llm "
            "NAME=URL), by their names; llm:... runs on your machine (dennou match)"
        )
    if host:
        refuse_local_bot(spec)
    name, options = parse_bot_spec(spec)
    bots = available_bots(game)
    if name not in bots:
        raise ConfigError(f"no bot {name!r} for {game.spec.name}; bots: {', '.join(bots)}")
    factory = bots[name]
    model = declared_model_options(name, options)
    if model is not None:
        return factory, model
    return factory, bot_options(factory, options, name=name)


def check_table_fits(game: Game[Any, Any], spec: str, rules: Any, seats: int) -> None:
    """Raise :class:`ConfigError` now if ``spec`` cannot play a table of ``rules`` and ``seats``.

    Only a bot trained for one set-up knows that before it is reset (``zoo``: its policy fits
    the rules and seat count it was trained for); a host checks it when the table is made, so
    such a seat never sits at a table it would play by defaults.

    Raises:
        ConfigError: The bot cannot play such a table (the message says what it plays).
    """
    name, _ = parse_bot_spec(spec)
    if name == "zoo" and name in available_bots(game):
        factory, kwargs = resolve_bot(game, spec, host=False)
        bot = factory(**kwargs)
        bind_game(bot, game)
        bot.reset(seat=0, rules=rules, players=[f"seat {i}" for i in range(seats)])


def make_bot(game: Game[Any, Any], spec: str) -> Bot:
    """Build a bot for ``game`` from a spec such as ``montecarlo:playouts=200``.

    ``cmd:./mybot args`` makes a :class:`~dennou.arena.bridge.CommandBot` (its program starts
    when a game begins).

    Raises:
        ConfigError: Unknown bot or option, a value of the wrong type or out of its range.
    """
    from dennou.arena.llm import LLMBot, is_llm, parse_llm_spec

    if is_command(spec):
        from dennou.arena.bridge import CommandBot  # a program's machinery, for `cmd:` only

        return CommandBot(spec.strip()[len(COMMAND) :], game)
    if is_llm(spec):
        bot: Bot = LLMBot(**bot_options(LLMBot, parse_llm_spec(spec), name="llm"))
    else:
        factory, kwargs = resolve_bot(game, spec, host=False)
        bot = factory(**kwargs)
    if not isinstance(bot, Bot):
        raise ConfigError(f"{spec!r} did not make a Bot")
    bind_game(bot, game)
    return bot


def load_bot(target: str) -> Bot | Any:
    """A bot from ``package.module:Class``, or a factory of a bot spec (``cmd:`` included).

    ``package.module:Class`` is built with no arguments (or with the game, if its constructor
    takes ``game``); a built-in spec (``random``,
    ``montecarlo:ms=500``) is built for the game once the table's game is known.

    Raises:
        ConfigError: The target names nothing usable.
    """
    module_name, sep, attribute = target.partition(":")
    if sep and "." in module_name and "=" not in attribute:
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise ConfigError(f"cannot import {module_name}: {exc}") from None
        obj = getattr(module, attribute, None)
        if obj is None:
            raise ConfigError(f"{module_name} has no {attribute!r}")
        if isinstance(obj, type) and "game" in inspect.signature(obj).parameters:
            return obj  # built per game: Class(game)
        bot = obj() if isinstance(obj, type) else obj
        if not isinstance(bot, Bot):
            raise ConfigError(f"{target} is not a dennou.core.bot.Bot")
        return bot

    def factory(game: Game[Any, Any]) -> Bot:
        return make_bot(game, target)

    return factory


def bind_game(bot: Bot, game: Game[Any, Any]) -> None:
    """Tell a bot that needs it which game it plays (``bind_game(game)``, if it has one)."""
    bind = getattr(bot, "bind_game", None)
    if callable(bind):
        bind(game)
