"""Warm-up: compile every game's and every bot's native code before anyone waits for it.

The fast paths (the Daifugo simulator, the Numeron solvers, the stud odds) are Numba functions
compiled on first use and cached on disk (``cache=True``). On a fresh install that first use
costs seconds (12 s for the Daifugo ``montecarlo`` bot's first decision on this project's 2-core
machine), longer than a table's clock. :func:`warm` makes each game's first decisions here, once:
for every game, a state at its first decision, the spectators' view of it, one decision of
every built-in bot, and the build of every :class:`~dennou.core.native.Native` those made (what
the bots' later decisions use). After it, a new process loads the compiled code from the cache
in well under a second (``bench/cold_start.py`` measures both).

``dennou warm`` runs it; ``dennou serve`` runs it in a background process at start (the host's
event loop and its bot workers never wait for it). One warm-up runs at a time per installation
(a lock file in the temporary directory): hosts started together do not compile the same code
side by side; the later ones wait, then load what the first compiled.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from dennou.arena.bots import available_bots, make_bot
from dennou.arena.llm import LLMBot
from dennou.core import native
from dennou.core.game import CHANCE, Game

SKIPPED_BOTS = frozenset({"policy", "zoo"})
"""Bots that need a file to be built (a trained policy): nothing to compile ahead (a zoo
policy also fits only the rules it was trained for)."""


def first_decision(
    game: Game[Any, Any], rules: Any, names: Sequence[str], rng: random.Random
) -> tuple[Any, int] | None:
    """A new game's state at the first decision a seat owes, and that seat.

    Chance is drawn from ``rng``. ``None``: the seats never decide (10-card stud: the cards
    play).
    """
    state = game.new(rules, list(names))
    for _ in range(10_000):
        acting = game.to_act(state)
        if not acting:
            return None
        if CHANCE not in acting:
            return state, min(acting)
        state, _ = game.apply(state, CHANCE, game.sample_chance(state, rng))
    return None


def warm_game(game: Game[Any, Any]) -> dict[str, float]:
    """Make ``game``'s first decision with each of its bots; seconds taken per bot."""
    rules = game.make_rules({})
    players = players_of(game, rules)
    found = first_decision(game, rules, players, random.Random(0))
    taken: dict[str, float] = {}
    if found is None:  # the cards play: warm what its spectators' views compute (odds)
        start = time.perf_counter()
        state = game.new(rules, players)
        rng = random.Random(0)
        for _ in range(8):
            game.view(state, None)
            if CHANCE not in game.to_act(state):
                break
            state, _ = game.apply(state, CHANCE, game.sample_chance(state, rng))
        taken["view"] = time.perf_counter() - start
        return taken
    state, seat = found
    start = time.perf_counter()
    game.view(state, None)
    view = game.view(state, seat)
    legal = game.legal_actions(state, seat)
    taken["view"] = time.perf_counter() - start
    for name, factory in sorted(available_bots(game).items()):
        if name in SKIPPED_BOTS or factory is LLMBot:  # a model has nothing to compile
            continue
        start = time.perf_counter()
        bot = make_bot(game, name)
        bot.reset(seat=seat, rules=rules, players=players)
        bot.act(view, legal, random.Random(0))
        taken[name] = time.perf_counter() - start
    start = time.perf_counter()
    native.build_all()  # what the bots' later decisions use (the game's ending, beliefs...)
    taken["native"] = time.perf_counter() - start
    return taken


def players_of(game: Game[Any, Any], rules: Any) -> list[str]:
    """Player names for the game's default number of players."""
    return [f"p{i}" for i in range(game.default_players(rules))]


def lock_path() -> Path:
    """The lock file of this installation's warm-ups (named by where the package lives)."""
    here = str(Path(__file__).resolve().parent.parent)
    digest = hashlib.sha256(here.encode()).hexdigest()[:16]
    user = os.getuid() if hasattr(os, "getuid") else 0
    return Path(tempfile.gettempdir()) / f"dennou-warm-{user}-{digest}.lock"


@contextlib.contextmanager
def one_at_a_time() -> Iterator[None]:
    """Hold the installation's warm-up lock (waiting for another warm-up to finish)."""
    try:
        import fcntl
    except ImportError:  # no POSIX locks: warm-ups may overlap (they only cost time)
        yield
        return
    try:
        held = open(lock_path(), "a")  # noqa: SIM115 - held for the whole warm-up
    except OSError:  # an unwritable temporary directory: the same as no locks
        yield
        return
    with held:
        fcntl.flock(held, fcntl.LOCK_EX)
        yield


def warm(
    games: Iterable[Game[Any, Any]], report: Callable[[str, dict[str, float]], None] | None = None
) -> None:
    """Warm every game in ``games`` (see the module's docstring); ``report(name, seconds)``."""
    with one_at_a_time():
        for game in games:
            taken = warm_game(game)
            if report is not None:
                report(game.spec.name, taken)


__all__ = ["SKIPPED_BOTS", "first_decision", "lock_path", "one_at_a_time", "warm", "warm_game"]
