"""The bot contract: a bot sees what a remote client would see, nothing more.

A bot's options are the keyword parameters of its constructor, declared with their types,
defaults and ranges like rules options (``Annotated[int, Meta(ge=1, le=100_000)] = 2000``) and
described in the class docstring's ``Args:``; :mod:`dennou.core.options` lists them for people
and converts spec strings (``montecarlo:playouts=500``), and every construction checks the
ranges (a :class:`~dennou.core.errors.ConfigError` names the option and its range).
"""

from __future__ import annotations

import functools
import inspect
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from dennou.core.actions import Action
from dennou.core.errors import ConfigError, DennouError
from dennou.core.game import JSON, Event, Seat
from dennou.core.options import check_arguments


class Bot(ABC):
    """Base of every bot, built-in or remote.

    The arena (or the SDK, over the wire) calls :meth:`reset` once per game, :meth:`observe` with
    the events the seat may see, :meth:`chat` when the seat may talk, :meth:`act` whenever a
    decision is due, and :meth:`end` when the game is over.
    """

    name: str = "bot"
    say: Callable[[str, str], str | None] | None = None
    """Set by the host (arena or SDK) while a game runs: ``say(channel, text)`` speaks at once
    and returns an error message or ``None``. Interactive bots use it to talk mid-decision."""
    deadline: float | None = None
    """Set by the host (arena or SDK) before each :meth:`act`: the :func:`time.monotonic` time
    by which the decision is due, or ``None`` where the decision has no clock."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None or getattr(init, "__checks_options__", False):
            return
        signature = inspect.signature(init)

        # Every construction checks the ranges the options declare.
        @functools.wraps(init)
        def checked(self: Bot, *args: Any, **kwargs: Any) -> None:
            bound = signature.bind(self, *args, **kwargs)
            problem = check_arguments(init, bound.arguments)
            if problem:
                raise ConfigError(f"bot {cls.name!r}: {problem}")
            init(self, *args, **kwargs)

        checked.__checks_options__ = True  # type: ignore[attr-defined]
        setattr(cls, "__init__", checked)  # noqa: B010 - replacing a method on purpose

    def reset(self, *, seat: Seat, rules: Any, players: Sequence[str]) -> None:  # noqa: B027
        """Start a new game as ``seat`` (default: nothing to do)."""

    def observe(self, events: Sequence[Event]) -> None:  # noqa: B027
        """Events this seat may see, in order (default: ignored)."""

    def chat(
        self, view: JSON, channels: frozenset[str], rng: random.Random
    ) -> Sequence[tuple[str, str]]:
        """Lines to say before acting, as ``(channel, text)`` (default: none)."""
        return ()

    def end(self, outcome: JSON | None) -> None:  # noqa: B027
        """The game is over (``outcome``: its scores and ranks), or stopped (``None``).

        Bots holding resources (a program, a connection) release them here (default: nothing).
        """

    @abstractmethod
    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose an action from ``legal`` given only ``view``."""


class NoAnswer(DennouError):
    """Raised by :meth:`Bot.act` when the bot has no answer: the rules' default applies.

    In the arena the default is applied at once (reason ``error``, or ``timeout`` past the
    clock); over the wire the SDK sends nothing and the host applies it when the clock runs out.
    """


class RandomBot(Bot):
    """Uniform over the legal actions (works for every game, lazy spaces included)."""

    name = "random"

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Pick a legal action uniformly at random."""
        return legal[rng.randrange(len(legal))]
