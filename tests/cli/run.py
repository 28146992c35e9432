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

from dennou.server.testing import free_port

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
"""Where this environment's ``dennou`` (and ``python``, ``pip``) live."""


def environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a command: this venv first on PATH, plain output, no stray token."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DENNOU_TOKEN")}
    env.pop("DENNOU_SERVER", None)
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


class Served:
    """A ``dennou serve`` process started from a command line, on a free loopback port."""

    def __init__(self, proc: subprocess.Popen[str], port: int, log: Path) -> None:
        self.proc = proc
        self.port = port
        self.log = log

    @property
    def http(self) -> str:
        """The HTTP base URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        """The WebSocket URL."""
        return f"ws://127.0.0.1:{self.port}/ws"

    def register(self, name: str) -> str:
        """Register an account; its token."""
        reply = httpx.post(f"{self.http}/api/accounts", json={"name": name}, timeout=10)
        assert reply.status_code == 201, reply.text
        return str(reply.json()["token"])


@contextmanager
def served(command: str = "dennou serve", cwd: Path | None = None) -> Iterator[Served]:
    """Run ``command`` (a ``dennou serve`` line) with ``--port`` added; stop it afterwards."""
    port = free_port()
    cwd = cwd or Path.cwd()
    log = cwd / "serve.log"
    args = [*shlex.split(command), "--port", str(port)]
    with log.open("w") as out:
        proc = subprocess.Popen(
            args, cwd=cwd, env=environment(), stdout=out, stderr=subprocess.STDOUT, text=True
        )
    server = Served(proc, port, log)
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"{command} exited: {log.read_text()}")
            try:
                if httpx.get(f"{server.http}/api/games", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"{command} did not answer in 60 s: {log.read_text()}")
            time.sleep(0.1)
        yield server
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
