"""The worker process side of the host's built-in bots (see :mod:`dennou.server.bots`).

A worker keeps the bots of many seats, keyed by ``(table, seat)``. For each decision the host
sends a :class:`Decide`: the bot's spec (to build it if this worker does not have it), the
events the seat saw since the worker last heard (for the bot to observe), then the state.
The worker answers twice: ``ready`` once the bot is built and up to date (not the bot's
thinking: the host gives this generous time), then the decision (this is what the seat's clock
bounds). To stop a decision the host sends the worker :data:`CANCEL` (a signal): the thinking is
interrupted where it stands (at the next Python instruction: compiled code finishes its call
first), that bot is dropped (it is rebuilt for its next decision), and the worker answers
``cancelled`` and serves on with every other bot it keeps. A worker that does not answer soon
after is killed by the host. Only the standard library and ``dennou.core`` are imported here;
games and bots come in with the first request that names them.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from dennou.core import native
from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import Event, Game

Key = tuple[str, int]
"""A bot's key: ``(table id, seat)``."""

CANCEL = signal.SIGUSR1
"""The signal that stops the decision being thought (ignored between decisions)."""


class Cancelled(BaseException):
    """Raised inside a bot's thinking by :data:`CANCEL`.

    A ``BaseException``: bots that catch ``Exception`` do not swallow it.
    """


_thinking = False


def _cancel(signum: int, frame: object) -> None:
    global _thinking
    if _thinking:
        _thinking = False  # once: a second signal must not interrupt the answer being sent
        raise Cancelled


@dataclass
class BotSpec:
    """How to build one seat's bot: ``factory(**kwargs)``, reset for the seat and the game."""

    game: Game[Any, Any]
    factory: Callable[..., Bot]
    kwargs: dict[str, Any]
    seat: int
    rules: Any
    players: list[str]


@dataclass
class Decide:
    """One decision for the bot at ``key``.

    Attributes:
        key: The bot.
        spec: How to build it (used when ``fresh`` or when this worker lacks it).
        fresh: Build the bot anew and replay ``batches`` from the start.
        batches: Events the seat saw since the worker last heard, one list per step.
        state: The state the decision began in.
        rng_seed: Seeds the decision's ``random.Random``.
        channels: Channels the seat may talk in now (the bot may ``chat`` first).
        think: Seconds the seat's clock allows (the bot's :attr:`~Bot.deadline`; ``None``:
            no clock).
    """

    key: Key
    spec: BotSpec
    fresh: bool
    batches: list[list[Event]]
    state: Any
    rng_seed: int
    channels: frozenset[str]
    think: float | None = None


@dataclass
class Forget:
    """Drop the bot at ``key`` (its table is over)."""

    key: Key


@dataclass
class Answer:
    """A bot's decision, or why there is none.

    Attributes:
        action: The action's JSON (or whatever the bot returned, for the host to refuse).
        chat: Lines the bot says first, ``(channel, text)``.
        error: Set when the bot raised (or the host gave up: ``timeout``).
        timeout: The seat's clock ran out.
        ms: Thinking time in milliseconds.
        cancelled: The host cancelled the decision (:data:`CANCEL`).
    """

    action: Any = None
    chat: list[tuple[str, str]] | None = None
    error: str | None = None
    timeout: bool = False
    ms: float = 0.0
    cancelled: bool = False


def _prepare(bots: dict[Key, Bot], job: Decide) -> Bot:
    bot = None if job.fresh else bots.get(job.key)
    if bot is None:
        spec = job.spec
        bot = spec.factory(**spec.kwargs)
        bind = getattr(bot, "bind_game", None)
        if callable(bind):  # a bot that needs its game (a language model's prompt)
            bind(spec.game)
        bot.reset(seat=spec.seat, rules=spec.rules, players=spec.players)
        bots[job.key] = bot
    for batch in job.batches:
        with contextlib.suppress(Exception):  # a bot's bookkeeping never stops a table
            bot.observe(batch)
    return bot


def _decide(bot: Bot, job: Decide) -> Answer:
    game, seat = job.spec.game, job.spec.seat
    rng = random.Random(job.rng_seed)
    started = time.perf_counter()
    view = game.view(job.state, seat)
    chat: list[tuple[str, str]] = []
    if job.channels and type(bot).chat is not Bot.chat:
        with contextlib.suppress(Exception):  # chat is optional: a failing chat says nothing
            chat = [(str(c), str(t)) for c, t in list(bot.chat(view, job.channels, rng))[:5]]
    legal = game.legal_actions(job.state, seat)
    if job.channels:
        # a bot that talks mid-decision (a language model answers its talk with its action):
        # its lines go with the answer, and the host checks them like chat()'s
        def say(channel: str, text: str) -> str | None:
            chat.append((str(channel), str(text)))
            return None

        bot.say = say
    if job.think is not None:
        bot.deadline = time.monotonic() + job.think - (time.perf_counter() - started)
    try:
        action = bot.act(view, legal, rng)
    finally:
        bot.say, bot.deadline = None, None
    ms = round((time.perf_counter() - started) * 1000, 3)
    dumped = game.dump_action(action) if isinstance(action, Action) else action
    return Answer(action=dumped, chat=chat, ms=ms)


def _think(bots: dict[Key, Bot], bot: Bot, job: Decide) -> Answer:
    global _thinking
    try:
        _thinking = True
        try:
            return _decide(bot, job)
        finally:
            _thinking = False
    except Cancelled:
        bots.pop(job.key, None)  # stopped mid-thought: its state may be half-updated
        return Answer(error="cancelled", cancelled=True)
    except BaseException as exc:
        return Answer(error=f"{type(exc).__name__}: {exc}"[:500])


def main(conn: Connection) -> None:
    """Serve decisions on ``conn`` until the host closes it."""
    # Ctrl-C at the terminal reaches the whole process group: the host stops its workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(CANCEL, _cancel)
    # A decision is bounded by the seat's clock: a bot whose compiled code is not built yet (a
    # fresh install) decides by its fallback meanwhile, unless the operator asked it to wait.
    native.set_mode(os.environ.get(native.ENV, "play-on"))
    bots: dict[Key, Bot] = {}
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        if isinstance(job, Forget):
            bots.pop(job.key, None)
            continue
        try:
            bot = _prepare(bots, job)
        except BaseException as exc:
            bots.pop(job.key, None)
            conn.send(Answer(error=f"building the bot: {type(exc).__name__}: {exc}"[:500]))
            continue
        conn.send("ready")
        answer = _think(bots, bot, job)
        try:
            conn.send(answer)
        except Exception as exc:  # an action that cannot be pickled
            conn.send(Answer(error=f"cannot send the action: {exc}"[:500]))


__all__ = ["CANCEL", "Answer", "BotSpec", "Cancelled", "Decide", "Forget", "Key", "main"]
