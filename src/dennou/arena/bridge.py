"""The engine bridge: a program in any language plays as a bot, over JSON lines on stdin/stdout.

:class:`CommandBot` starts the program (``cmd:./mybot args``: split like a shell would, never
run by one) when a game begins, writes it one JSON line per message and reads one line per
decision (``docs/protocol.md``, "The engine bridge"). The same bot plays in local matches and
tournaments (``dennou match``, ``dennou tournament --entrants cmd:./mybot``) and on a host
(``dennou bot run --cmd ./mybot``), so a program rehearses offline what runs on the host.

A program that crashes, hangs past the clock, or answers a line that is not an action gets the
rules' default for that decision (:class:`~dennou.core.bot.NoAnswer`), reported in the record's
note and on the ``dennou.bridge`` logger; a crashed or hung program is stopped and started
afresh for the next game. Its stderr goes to that logger line by line (and to the file named
by ``DENNOU_BRIDGE_LOG``, if set). Every read is bounded: a line longer than
:data:`MAX_LINE` stops the program, and so do input it leaves unread past :data:`MAX_UNREAD` and
lines nobody asked for past :data:`MAX_UNASKED`.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import queue
import random
import shlex
import shutil
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import msgspec

from dennou.arena.commands import COMMAND, is_command
from dennou.core.actions import Action
from dennou.core.bot import Bot, NoAnswer
from dennou.core.errors import ConfigError, GameError
from dennou.core.game import JSON, Event, Game, Seat, to_json
from dennou.core.turns import legal_parts

PROTOCOL = 1
"""Version of the line protocol, sent in ``hello``."""

MAX_LINE = 1 << 20
"""Longest line read from a program (bytes); a longer one stops it."""

MAX_UNREAD = 32 << 20
"""Most bytes written to a program and not yet read by it; past this it is stopped as stuck."""

MAX_UNASKED = 32 << 20
"""Most bytes of lines a program writes before they are read; past this it is stopped."""

DEFAULT_CLOCK = 60.0
"""Seconds per decision where the host gives no clock (a local match without --time-limit)."""

QUIT_WAIT = 1.0
"""Seconds a program has to exit after ``quit`` before it is killed."""

LOG_ENV = "DENNOU_BRIDGE_LOG"
"""A file path: every program's stderr and the bridge's reports are appended there too."""

STDERR_TAIL = 10
"""Last stderr lines quoted when a program crashes."""

log = logging.getLogger("dennou.bridge")
_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode


class BridgeError(NoAnswer):
    """The program gave no usable answer (it crashed, hung, or wrote something else)."""


def command_argv(cmd: str) -> list[str]:
    """The argument vector of a command line (shell quoting, no shell), checked to exist.

    Raises:
        ConfigError: An empty command, bad quoting, or a program that cannot be found.
    """
    try:
        argv = shlex.split(cmd)
    except ValueError as exc:
        raise ConfigError(f"command {cmd!r}: {exc}") from None
    if not argv:
        raise ConfigError("a command bot needs a command: cmd:./mybot args")
    program = argv[0]
    if shutil.which(program) is None:
        where = "" if os.sep in program else " (a program in this folder: ./name)"
        raise ConfigError(f"command {cmd!r}: no executable program {program!r}{where}")
    return argv


class CommandBot(Bot):
    """A program that plays over JSON lines (``docs/protocol.md``, "The engine bridge").

    Args:
        cmd: The command line (``./mybot --depth 3``), split like a shell would.
        game: The game it plays (the turns' actions are written in its JSON).
    """

    name = "cmd"

    def __init__(self, cmd: str, game: Game[Any, Any] | None = None) -> None:
        self.cmd = cmd
        self.argv = command_argv(cmd)
        self.game = game
        self.seat: Seat = 0
        self._proc: _Program | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._channels: list[str] = []
        self._decisions = 0

    # --- the Bot contract -----------------------------------------------------------------
    def reset(self, *, seat: Seat, rules: Any, players: Sequence[str]) -> None:
        """Start the program afresh and say ``hello``."""
        if self.game is None:
            raise ConfigError("a command bot needs its game")
        self._stop()
        self.seat = seat
        self._decisions = 0
        self._proc = _Program(self.argv, f"{Path(self.argv[0]).name}@{seat}")
        # a bot dropped without end() (or at exit) still leaves no program running
        self._finalizer = weakref.finalize(self, self._proc.kill)
        rules_json = rules if isinstance(rules, dict) else to_json(rules)
        self._proc.send(
            {
                "type": "hello",
                "protocol": PROTOCOL,
                "game": self.game.spec.name,
                "rules": rules_json,
                "seat": seat,
                "players": list(players),
            }
        )

    def observe(self, events: Sequence[Event]) -> None:
        """Pass the events on (a program may ignore them)."""
        if self._proc is not None:
            data = [{"kind": e.kind, "text": e.text, "data": to_json(e.data)} for e in events]
            self._proc.send({"type": "event", "events": data})

    def chat(
        self, view: JSON, channels: frozenset[str], rng: random.Random
    ) -> Sequence[tuple[str, str]]:
        """Keep the open channels for the ``turn`` line: the program talks with its answer."""
        self._channels = sorted(channels)
        return ()

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        """Write a ``turn`` line and read the program's answer before the clock runs out.

        Raises:
            BridgeError: The program is not running, hung past the clock, or answered a line
                that is not an action (the rules' default applies).
        """
        game, proc = self.game, self._proc
        assert game is not None, "reset() comes first"
        channels, self._channels = self._channels, []
        if proc is None or proc.failed is not None:
            why = proc.failed if proc is not None else "not started"
            raise BridgeError(f"the program is not running ({why}); it restarts next game")
        deadline = self.deadline if self.deadline is not None else time.monotonic() + DEFAULT_CLOCK
        left = deadline - time.monotonic()
        # the program is told a little less than the host allows: its line still has to travel
        margin = min(0.5, 0.1 * max(left, 0.0))
        self._decisions += 1
        listed, count, description, sample = legal_parts(game, legal, self._decisions, self.seat)
        proc.drop_unread()
        proc.send(
            {
                "type": "turn",
                "seat": self.seat,
                "view": view,
                "legal": listed,
                "legal_count": count,
                "legal_description": description,
                "legal_sample": sample,
                "channels": channels,
                "time_limit": round(max(left - margin, 0.0), 3),
            }
        )
        line = proc.read_line(deadline + 0.05)
        try:
            answer = _decode(line)
            if not isinstance(answer, dict) or "action" not in answer:
                raise ValueError("not an object with an action")
            action = game.parse_action(answer["action"])
        except (ValueError, msgspec.DecodeError, GameError) as exc:
            shown = line[:200].decode("utf-8", "replace")
            raise proc.report(f"answered a line that is not an action ({exc}): {shown!r}") from None
        self._talk(answer.get("say"), channels)
        return action

    def end(self, outcome: JSON | None) -> None:
        """Send ``end`` and ``quit``, then stop the program (it restarts next game)."""
        if self._proc is not None and self._proc.failed is None:
            self._proc.send({"type": "end", "outcome": outcome})
        self._stop()

    # --- helpers --------------------------------------------------------------------------
    def _talk(self, say: Any, channels: list[str]) -> None:
        """Say the answer's talk lines (``{"channel", "text"}``, one or a list) where open."""
        lines = say if isinstance(say, list) else [say] if isinstance(say, dict) else []
        for item in lines[:5]:
            if not isinstance(item, dict):
                continue
            channel, text = item.get("channel"), item.get("text")
            if channel in channels and isinstance(text, str) and self.say is not None:
                problem = self.say(channel, text[:500])
                if problem is not None:
                    _report(f"{self.argv[0]}: talk refused: {problem}")

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if proc is not None:
            proc.stop()

    def __deepcopy__(self, memo: dict[int, Any]) -> CommandBot:
        # a copy is a new bot for another game: the same command, its own program
        return CommandBot(self.cmd, self.game)


def _report(text: str) -> None:
    log.warning("%s", text)
    _append_log(f"bridge: {text}")


def _append_log(text: str) -> None:
    path = os.environ.get(LOG_ENV)
    if path:
        with contextlib.suppress(OSError), open(path, "a", encoding="utf-8") as out:
            out.write(text + "\n")


class _Program:
    """One run of the program: its pipes, a reader per output, a writer for its input."""

    def __init__(self, argv: list[str], label: str) -> None:
        self.label = label
        self.failed: str | None = None
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.tail: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL)
        self._inbox: queue.Queue[bytes | None] = queue.Queue()
        self._unread = 0
        self._unasked = 0
        self._lock = threading.Lock()
        try:
            # its own session: stopping it stops whatever it started too
            self.proc: subprocess.Popen[bytes] | None = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as exc:
            self.proc = None
            self.fail(f"cannot start {argv[0]}: {exc}")
            return
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        for target, stream in (
            (self._write, self.proc.stdin),
            (self._read, self.proc.stdout),
            (self._read_stderr, self.proc.stderr),
        ):
            threading.Thread(target=target, args=(stream,), daemon=True).start()

    def fail(self, why: str) -> BridgeError:
        """Mark the program failed (it is stopped) and return the error to raise."""
        with self._lock:
            first = self.failed is None
            if first:
                self.failed = why
        if first:
            self.kill()
        return self.report(why)

    def report(self, why: str) -> BridgeError:
        """Report a failure (with the last stderr lines) and return its error."""
        tail = " | ".join(self.tail)
        text = f"{self.label}: {why}" + (f" (stderr: {tail})" if tail else "")
        _report(text)
        return BridgeError(text[:500])

    def send(self, message: dict[str, Any]) -> None:
        """Queue one line for the program (dropped once it has failed)."""
        if self.failed is not None or self.proc is None:
            return
        data = _encode(message) + b"\n"
        with self._lock:
            self._unread += len(data)
            stuck = self._unread > MAX_UNREAD
        if stuck:
            self.fail(f"left more than {MAX_UNREAD >> 20} MiB of input unread")
            return
        self._inbox.put(data)

    def drop_unread(self) -> None:
        """Forget lines the program wrote when no answer was due (they answer nothing now)."""
        while True:
            try:
                line = self._take(self.lines.get_nowait())
            except queue.Empty:
                return
            if line is None:  # its output closed: keep that news for the reader of answers
                self.lines.put(None)
                return

    def _take(self, line: bytes | None) -> bytes | None:
        """A line off the queue, its bytes no longer counted, its line end removed."""
        if line is None:
            return None
        with self._lock:
            self._unasked -= len(line)
        return line.rstrip(b"\r\n")

    def read_line(self, deadline: float) -> bytes:
        """The program's next line, by ``deadline`` (monotonic).

        Raises:
            BridgeError: It exited, wrote too long a line, or did not answer in time.
        """
        try:
            line = self._take(self.lines.get(timeout=max(deadline - time.monotonic(), 0.0)))
        except queue.Empty:
            raise self.fail("did not answer before the clock ran out") from None
        if line is None:
            if self.failed is not None:
                raise self.report(self.failed)
            code = self.proc.wait(timeout=QUIT_WAIT) if self.proc is not None else None
            raise self.fail(f"exited (code {code}) without answering")
        return line

    def _write(self, stream: IO[bytes]) -> None:
        while True:
            data = self._inbox.get()
            if data is None:
                break
            try:
                stream.write(data)
                stream.flush()
            except (OSError, ValueError):
                break  # it closed its input: its answers (or their absence) tell the rest
            with self._lock:
                self._unread -= len(data)
        with contextlib.suppress(OSError, ValueError):
            stream.close()

    def _read(self, stream: IO[bytes]) -> None:
        try:
            while True:
                line = stream.readline(MAX_LINE + 1)
                if not line:
                    break
                if len(line) > MAX_LINE:
                    self.fail(f"wrote a line longer than {MAX_LINE} bytes")
                    break
                with self._lock:
                    self._unasked += len(line)
                    flooding = self._unasked > MAX_UNASKED
                if flooding:
                    self.fail(f"wrote more than {MAX_UNASKED >> 20} MiB of lines nobody asked for")
                    break
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        with contextlib.suppress(OSError):
            stream.close()
        self.lines.put(None)

    def _read_stderr(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            while True:
                line = stream.readline(MAX_LINE)
                if not line:
                    break
                text = line.decode("utf-8", "replace").rstrip("\r\n")
                self.tail.append(text[:200])
                log.info("%s: %s", self.label, text)
                _append_log(f"{self.label}: {text}")
        with contextlib.suppress(OSError):
            stream.close()

    def stop(self) -> None:
        """Send ``quit`` and close its input; kill it unless it exits within :data:`QUIT_WAIT`."""
        if self.proc is None:
            return
        self.send({"type": "quit"})
        self._inbox.put(None)
        try:
            self.proc.wait(timeout=QUIT_WAIT)
        except subprocess.TimeoutExpired:
            self.kill()
        self._close()

    def kill(self) -> None:
        """Kill the program and whatever it started (its session)."""
        proc = self.proc
        if proc is None:
            return
        self._inbox.put(None)
        if proc.poll() is None:
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)

    def _close(self) -> None:
        proc = self.proc
        if proc is not None and proc.poll() is None:
            self.kill()


__all__ = [
    "COMMAND",
    "DEFAULT_CLOCK",
    "LOG_ENV",
    "MAX_LINE",
    "MAX_UNASKED",
    "MAX_UNREAD",
    "BridgeError",
    "CommandBot",
    "command_argv",
    "is_command",
]
