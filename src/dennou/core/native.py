"""Compiled code made ready in the background, for bots that must answer before it is.

The strongest bots run Numba code that compiles on its first use and is cached on disk. On a
fresh install (no cache yet) that first use takes 5 to 20 seconds, longer than a table's clock.
A :class:`Native` names such a group of compiled code and how to build it (a function that
runs the code once); a bot asks :meth:`Native.ready` before it searches.

What ``ready`` does depends on the process's mode (:func:`set_mode`, or the environment
variable ``DENNOU_WHILE_COMPILING``):

* ``wait`` (the default): always ``True``; the code compiles where it is first used, as Numba
  does, and that decision waits for it. The bot always plays at full strength and stays
  reproducible for a fixed seed (tests, benchmarks, research, ``dennou warm``).
* ``play-on`` (the host's bot workers, ``dennou bot run``): the build runs once on a background
  thread; ``ready`` waits at most :attr:`Native.budget` (time enough to load a cache) and
  otherwise answers ``False``, and the bot decides this time by its documented fallback
  (Daifugo's search bots: ``greedy``; Numeron's solvers: a random possible number, no item). No
  decision waits for a compiler; the bot is at full strength as soon as the build is done.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Literal

from dennou.core.errors import ConfigError

Mode = Literal["wait", "play-on"]
ENV = "DENNOU_WHILE_COMPILING"
"""The environment variable that sets the mode of new processes (``wait`` or ``play-on``)."""

_mode: Mode = "wait"
_on_fallback: Callable[[Native], None] | None = None


def on_fallback(report: Callable[[Native], None] | None) -> None:
    """Call ``report(code)`` once per :class:`Native` whose build a decision could not wait for.

    ``play-on`` mode only: the first time :meth:`Native.ready` answers ``False`` (the bot plays
    its fallback while the code compiles). ``dennou bot run`` says so in one line.
    """
    global _on_fallback
    _on_fallback = report


def set_mode(mode: str) -> None:
    """Set this process's mode: ``wait`` or ``play-on`` (see the module docstring).

    Raises:
        ConfigError: Not one of the two.
    """
    global _mode
    if mode not in ("wait", "play-on"):
        raise ConfigError(f"{ENV} must be 'wait' or 'play-on', not {mode!r}")
    _mode = "wait" if mode == "wait" else "play-on"


def mode() -> Mode:
    """This process's mode."""
    return _mode


class Native:
    """A group of compiled code and its build, run once per process on a background thread.

    Args:
        name: What it is, for messages (``daifugo search``).
        build: Runs the code once (compiling it, or loading it from Numba's cache).
        budget: Seconds ``ready`` waits in ``play-on`` mode before answering ``False``.
    """

    def __init__(self, name: str, build: Callable[[], object], budget: float = 0.5) -> None:
        self.name = name
        self.budget = budget
        self._build = build
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._done = threading.Event()
        self._error: BaseException | None = None
        self._fell_back = False
        _ALL.append(self)

    def start(self) -> None:
        """Start the build on a background thread (once; later calls do nothing)."""
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(
                target=self._run, name=f"dennou-native-{self.name}", daemon=True
            )
            self._thread.start()

    def build(self) -> None:
        """Build now (on the background thread, waiting for it); at once if already built.

        Raises:
            RuntimeError: The build failed (its error is the cause).
        """
        if self._on_build_thread():
            return
        self.start()
        self._done.wait()
        self._raise()

    def prepare(self) -> None:
        """Get ready before any timed decision (a bot's ``reset``).

        ``wait`` mode: build now; ``play-on``: start the build in the background.
        """
        if _mode == "wait":
            self.build()
        else:
            self.start()

    def _on_build_thread(self) -> bool:
        """Whether the caller is the build itself (which uses the code it builds)."""
        return self._thread is not None and threading.current_thread() is self._thread

    def _raise(self) -> None:
        if self._error is not None:
            raise RuntimeError(f"building the {self.name} code failed") from self._error

    def _run(self) -> None:
        try:
            self._build()
        except BaseException as exc:  # handed to whoever asks next
            self._error = exc
        finally:
            self._done.set()

    def ready(self) -> bool:
        """Whether the compiled code may be used now (see the module docstring).

        The build itself (code running on the build's thread) always gets ``True``.

        Raises:
            RuntimeError: The build failed (its error is the cause).
        """
        if not self._done.is_set():
            if _mode == "wait":
                return True
            if self._on_build_thread():
                return True
            self.start()
            if not self._done.wait(self.budget):
                if not self._fell_back:
                    self._fell_back = True
                    if _on_fallback is not None:
                        _on_fallback(self)
                return False
        self._raise()
        return True

    @property
    def built(self) -> bool:
        """Whether the build has finished (successfully or not), without starting it."""
        return self._done.is_set()


_ALL: list[Native] = []
"""Every :class:`Native` made in this process (:func:`build_all`)."""


def build_all() -> None:
    """Build every :class:`Native` made so far in this process (``dennou warm``).

    Raises:
        RuntimeError: A build failed (its error is the cause).
    """
    for code in list(_ALL):
        code.build()


set_mode(os.environ.get(ENV, "wait"))

__all__ = ["ENV", "Mode", "Native", "build_all", "mode", "on_fallback", "set_mode"]
