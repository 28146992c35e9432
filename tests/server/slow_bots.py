"""Bots that misbehave on purpose, for the host's tests (module level: worker processes import
them by name)."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dennou.core.actions import Action
from dennou.core.bot import Bot, RandomBot
from dennou.core.game import JSON, Event


class Spinner(Bot):
    """Thinks for ever, burning CPU, and writes the time to ``beat`` while it does."""

    name = "spinner"

    def __init__(self, beat: str = "") -> None:
        self.beat = Path(beat) if beat else None

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        last = 0.0
        while True:
            now = time.time()
            if self.beat is not None and now - last > 0.05:
                # write then rename: a kill mid-write must not leave an empty file
                partial = self.beat.with_suffix(".partial")
                partial.write_text(repr(now))
                partial.replace(self.beat)
                last = now


class Recorder(RandomBot):
    """Plays at random and says, before every decision, how many steps it has observed.

    Its first decision ever (while the file ``mark`` does not exist) thinks for ever, so the host
    must kill its worker and rebuild it from what the seat observed.
    """

    name = "recorder"

    def __init__(self, mark: str = "") -> None:
        self.mark = Path(mark)
        self.seen = 0

    def observe(self, events: Sequence[Event]) -> None:
        self.seen += 1

    def chat(
        self, view: JSON, channels: frozenset[str], rng: random.Random
    ) -> Sequence[tuple[str, str]]:
        return [("public", f"seen {self.seen}")] if "public" in channels else []

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        if not self.mark.exists():
            self.mark.write_text("overran once")
            while True:
                time.sleep(0.01)
        return super().act(view, legal, rng)


class ModeTeller(RandomBot):
    """Plays at random and says, before every decision, its process's ``dennou.core.native``
    mode (what a search bot does while its compiled code is not built yet)."""

    name = "mode-teller"

    def chat(
        self, view: JSON, channels: frozenset[str], rng: random.Random
    ) -> Sequence[tuple[str, str]]:
        from dennou.core import native

        return [("public", f"mode {native.mode()}")] if "public" in channels else []


class Sleeper(RandomBot):
    """Plays at random after sleeping its time budget ``ms`` (a bot that keeps its budget), and
    notes every time it is built in the file ``builds`` (one line each)."""

    name = "sleeper"

    def __init__(self, ms: float = 100.0, builds: str = "") -> None:
        self.ms = ms
        if builds:
            with Path(builds).open("a") as out:
                out.write("built\n")

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        time.sleep(self.ms / 1000)
        return super().act(view, legal, rng)


class Stubborn(Bot):
    """Thinks for ever and cannot be interrupted (it swallows whatever is raised in it)."""

    name = "stubborn"

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        while True:
            try:
                while True:
                    time.sleep(0.01)
            except BaseException:  # the point of this bot: nothing interrupts it
                pass


def register() -> dict[str, Any]:
    """Add these bots to every game (the host resolves bot names in its own process)."""
    from dennou.arena import bots

    added = {
        "spinner": Spinner,
        "recorder": Recorder,
        "mode-teller": ModeTeller,
        "sleeper": Sleeper,
        "stubborn": Stubborn,
    }
    bots.GENERIC_BOTS.update(added)
    return added
