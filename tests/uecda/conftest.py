from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


class UecdaServe:
    """``dennou uecda-serve --port 0`` as a real subprocess; :attr:`port` is the port it took."""

    def __init__(self, data_dir: Path, *args: str) -> None:
        cmd = [sys.executable, "-m", "dennou", "uecda-serve", "--port", "0"]
        cmd += ["--data-dir", str(data_dir), *args]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()  # printed once it listens
        found = re.search(r"on 127\.0\.0\.1:(\d+)", line)
        assert found, line + (self.proc.stderr.read() if self.proc.stderr else "")
        self.port = int(found.group(1))
        self.out = ""
        self.err = ""

    def wait(self, timeout: float = 120) -> int:
        """Wait for it to exit (after its sets); keeps what it printed."""
        out, err = self.proc.communicate(timeout=timeout)
        self.out, self.err = out, err
        return self.proc.returncode

    def standings(self) -> dict[str, float]:
        """Name -> points, from what it printed."""
        return {
            m.group(1): float(m.group(2))
            for m in re.finditer(r"player \d\s+(\S+)\s+(-?[\d.]+)", self.out)
        }

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate(timeout=10)


StartServe = Callable[..., UecdaServe]
"""Starts ``dennou uecda-serve`` with these options (in the test's data directory)."""


@pytest.fixture
def uecda_serve(tmp_path: Path) -> Iterator[StartServe]:
    started: list[UecdaServe] = []

    def start(*args: str) -> UecdaServe:
        server = UecdaServe(tmp_path / "data", *args)
        started.append(server)
        return server

    yield start
    for server in started:
        server.kill()


def wait_until(check: object, timeout: float = 30.0) -> None:
    """Poll ``check()`` until true (bounded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError("timed out")
