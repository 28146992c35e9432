"""The bot contract: a bot sees what a remote client would see, nothing more."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from dennou.core.actions import Action
from dennou.core.game import JSON, Event, Seat


class Bot(ABC):
    """Base of every bot, built-in or remote.

    The arena (or the SDK, over the wire) calls :meth:`reset` once per game, :meth:`observe` with
    the events the seat may see, :meth:`chat` when the seat may talk, and :meth:`act` whenever a
    decision is due.
    """

    name: str = "bot"
    say: Callable[[str, str], str | None] | None = None
    """Set by the host (arena or SDK) while a game runs: ``say(channel, text)`` speaks at once
    and returns an error message or ``None``. Interactive bots use it to talk mid-decision."""

    def reset(self, *, seat: Seat, rules: Any, players: Sequence[str]) -> None:  # noqa: B027
        """Start a new game as ``seat`` (default: nothing to do)."""

    def observe(self, events: Sequence[Event]) -> None:  # noqa: B027
        """Events this seat may see, in order (default: ignored)."""

    def chat(
        self, view: JSON, channels: frozenset[str], rng: random.Random
    ) -> Sequence[tuple[str, str]]:
        """Lines to say before acting, as ``(channel, text)`` (default: none)."""
        return ()

    @abstractmethod
    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose an action from ``legal`` given only ``view``."""


class RandomBot(Bot):
    """Uniform over the legal actions (works for every game, lazy spaces included)."""

    name = "random"

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Pick a legal action uniformly at random."""
        return legal[rng.randrange(len(legal))]
