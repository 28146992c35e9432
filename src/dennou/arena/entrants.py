"""Tournament entrants: built-in bots with options, any Python ``Bot``, remote accounts.

An entrant is a name and what plays for it:

- a built-in bot spec, ``greedy`` or ``montecarlo:playouts=500`` (see :mod:`dennou.arena.bots`);
- a program, ``cmd:./mybot args``, played over the engine bridge (:mod:`dennou.arena.bridge`;
  locally only);
- a language model, ``llm:model=NAME`` (:mod:`dennou.arena.llm`; locally only: a host seats
  the models its operator declared, by their names);
- a Python bot, ``package.module:Class`` (the module part has a dot, so it cannot be mistaken
  for a bot name with options); the class is built with no arguments, or with the game if its
  constructor takes ``game``;
- on the host only, ``@account``: a registered account whose program connects remotely.

``name=spec`` gives an entrant a display name (``mc500=montecarlo:playouts=500``); without one
the spec is the name (a remote entrant's is its account), and a repeated name gets ``#2``...
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Sequence
from typing import Any

import msgspec

from dennou.arena.bots import available_bots, make_bot, parse_bot_spec, refuse_local_bot
from dennou.arena.bridge import is_command
from dennou.arena.llm import is_llm
from dennou.core.bot import Bot
from dennou.core.errors import ConfigError
from dennou.core.game import Game

REMOTE = "@"
"""Prefix of a remote entrant's spec: ``@alice`` is the account ``alice``."""


class Entrant(msgspec.Struct, frozen=True):
    """One entrant of a tournament.

    Attributes:
        name: Unique within the tournament; standings and ratings use it.
        spec: A bot spec, ``package.module:Class``, or ``@account`` (host only).
    """

    name: str
    spec: str

    @property
    def remote(self) -> bool:
        """Whether a remote program plays for this entrant (a host account)."""
        return self.spec.startswith(REMOTE)

    @property
    def account(self) -> str | None:
        """The account of a remote entrant."""
        return self.spec[len(REMOTE) :] if self.remote else None


def is_class_target(spec: str) -> bool:
    """Whether ``spec`` names a Python class (``package.module:Class``), not a bot spec."""
    module, sep, attribute = spec.partition(":")
    return bool(sep) and "." in module and "=" not in attribute and attribute.isidentifier()


def parse_entrants(text: str | Sequence[str]) -> list[Entrant]:
    """Entrants from ``a,b,name=spec`` (or a list of such items), names made unique.

    Raises:
        ConfigError: An empty item or a bad name.
    """
    items = text.split(",") if isinstance(text, str) else list(text)
    out: list[Entrant] = []
    seen: dict[str, int] = {}
    for raw in items:
        item = raw.strip()
        if not item:
            raise ConfigError("an entrant is empty (two commas in a row?)")
        name, sep, spec = item.partition("=")
        # ``montecarlo:playouts=500`` has an ``=`` too: a name has no ``:`` in it
        if not sep or ":" in name or not name.strip():
            # no name given: a remote entrant is named by its account, others by their spec
            name, spec = item.removeprefix(REMOTE), item
        name, spec = name.strip(), spec.strip()
        if not spec:
            raise ConfigError(f"entrant {name!r} has no spec")
        count = seen.get(name, 0) + 1
        seen[name] = count
        out.append(Entrant(name if count == 1 else f"{name}#{count}", spec))
    return out


def check_entrant(game: Game[Any, Any], entrant: Entrant, *, remote_ok: bool = False) -> None:
    """Raise a clear :class:`ConfigError` unless ``entrant`` can play ``game``.

    Built-in specs are built once (unknown bot, unknown option, bad value); Python classes are
    imported and checked to make a :class:`Bot`.
    """
    if entrant.remote:
        if not remote_ok:
            raise ConfigError(
                f"entrant {entrant.name!r} is a remote account ({entrant.spec}); remote "
                "entrants play in host tournaments (dennou tournament --server ...)"
            )
        return
    if is_command(entrant.spec):
        if remote_ok:
            raise ConfigError(
                f"entrant {entrant.name!r}: the host never runs a command ({entrant.spec}); "
                "run it as a remote program (dennou bot run --cmd ...)"
            )
        make_bot(game, entrant.spec)
        return
    if is_llm(entrant.spec):
        if remote_ok:
            raise ConfigError(
                f"entrant {entrant.name!r}: a host asks only the models its operator declared "
                f"(dennou serve --llm NAME=URL), by their names, not {entrant.spec!r}"
            )
        make_bot(game, entrant.spec)
        return
    if is_class_target(entrant.spec):
        make_entrant_bot(game, entrant.spec)
        return
    if remote_ok:
        refuse_local_bot(entrant.spec)
    name, _ = parse_bot_spec(entrant.spec)
    if name not in available_bots(game):
        bots = ", ".join(available_bots(game))
        raise ConfigError(
            f"unknown entrant {entrant.spec!r} for {game.spec.name}: not a bot ({bots}) "
            "and not a package.module:Class"
        )
    make_bot(game, entrant.spec)


def make_entrant_bot(game: Game[Any, Any], spec: str) -> Bot:
    """A fresh bot for one game from a bot spec or ``package.module:Class``.

    Raises:
        ConfigError: The spec names nothing that makes a :class:`Bot`.
    """
    if not is_class_target(spec):
        return make_bot(game, spec)
    module_name, _, attribute = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(f"cannot import {module_name} for entrant {spec!r}: {exc}") from None
    factory = getattr(module, attribute, None)
    if factory is None:
        raise ConfigError(f"{module_name} has no {attribute!r} (entrant {spec!r})")
    try:
        if isinstance(factory, type) and "game" in inspect.signature(factory).parameters:
            bot = factory(game=game)
        else:
            bot = factory() if callable(factory) else factory
    except Exception as exc:
        raise ConfigError(f"{spec} could not be built: {type(exc).__name__}: {exc}") from None
    if not isinstance(bot, Bot):
        raise ConfigError(f"{spec} is not a dennou.core.bot.Bot")
    return bot


__all__ = [
    "REMOTE",
    "Entrant",
    "check_entrant",
    "is_class_target",
    "make_entrant_bot",
    "parse_entrants",
]
