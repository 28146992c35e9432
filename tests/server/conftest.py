from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

SRC = str(Path(__file__).resolve().parents[2] / "src")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """`python -m dennou.server serve` as a real subprocess on a loopback port."""

    def __init__(self, data_dir: Path, db: str | None = None) -> None:
        self.data_dir = data_dir
        self.db = db
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> None:
        cmd = [sys.executable, "-m", "dennou.server", "serve", "--port", str(self.port)]
        cmd += ["--data-dir", str(self.data_dir), "--rate", "1000", "--burst", "2000"]
        if self.db:
            cmd += ["--db", self.db]
        env = {**os.environ, "PYTHONPATH": SRC}
        self.proc = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE)
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.proc.stderr.read().decode()}")  # type: ignore[union-attr]
            try:
                if httpx.get(self.http + "/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def register(self, name: str) -> str:
        reply = httpx.post(self.http + "/api/accounts", json={"name": name}, timeout=10)
        assert reply.status_code == 201, reply.text
        return str(reply.json()["token"])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path / "data")
    proc.start()
    yield proc
    proc.stop()
