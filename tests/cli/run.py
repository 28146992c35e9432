"""Run the ``dennou`` command as a person would: a real process, real input, real servers."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx

from dennou.server.cli import CHECK_MESSAGES_ENV
from dennou.server.testing import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
"""Where this environment's ``dennou`` (and ``python``, ``pip``) live."""


def interruptible() -> None:
    """``preexec_fn`` of a child a test will Ctrl-C: SIGINT back to its default disposition.

    A shell without job control starts background commands with SIGINT ignored, and children
    inherit that (CI launched as ``bash .ci/run &`` did): Python then never raises
    KeyboardInterrupt, and a test of what Ctrl-C does would test nothing.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a command: this venv first on PATH, plain output, no stray token."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DENNOU_TOKEN")}
    # the caller's services are the caller's: a command under test never sees their directory
    # or port, so nothing a test starts or stops can be CI's own PostgreSQL or Redis
    for name in ("DENNOU_SERVER", "DENNOU_PG_DIR", "DENNOU_PG_PORT", "DENNOU_REDIS_PORT"):
        env.pop(name, None)
    env.update(
        PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}",
        NO_COLOR="1",
        TERM="dumb",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra or {})
    return env


def dennou(
    *args: str,
    input: str = "",
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """``dennou ARGS`` with ``input`` on stdin (then end of input); output and exit code."""
    return subprocess.run(
        [str(BIN / "dennou"), *args],
        input=input,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment(env),
        timeout=timeout,
        check=False,
    )


class Served(ServerProcess):
    """A ``dennou serve`` process started from a command line (as the README writes it)."""

    def __init__(self, command: str, cwd: Path) -> None:
        super().__init__(cwd / "data")  # where `dennou serve` keeps its data by default
        self.violations_file = cwd / "schema-violations.jsonl"  # not in data/: the test looks
        self.command = command
        self.cwd = cwd

    def start(self) -> None:
        """Run the command with ``--port`` added; wait until it answers."""
        self.log = self.cwd / "serve.log"
        args = [*shlex.split(self.command), "--port", str(self.port)]
        env = environment()
        if self.violations_file is not None:  # every message it sends checked against the schemas
            env[CHECK_MESSAGES_ENV] = str(self.violations_file)
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                args, cwd=self.cwd, env=env, stdout=out, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"{self.command} exited: {self.log.read_text()}")
            try:
                if httpx.get(f"{self.http}/api/games", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.command} gave no answer: {self.log.read_text()}")
            time.sleep(0.1)


@contextmanager
def served(command: str = "dennou serve", cwd: Path | None = None) -> Iterator[Served]:
    """Run ``command`` (a ``dennou serve`` line) on a free port; stop it afterwards."""
    server = Served(command, cwd or Path.cwd())
    try:
        server.start()
        yield server
    finally:
        server.stop()
