"""``dennou cluster up``: one command starts PostgreSQL, Redis and the host processes on
loopback, and Ctrl-C stops them all."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import pytest

from dennou.server.testing import SRC, free_port

pytestmark = pytest.mark.slow


def listening(port: int) -> list[str]:
    """The local addresses something listens on at ``port`` (from ``ss``)."""
    out = subprocess.run(["ss", "-ltnH"], capture_output=True, text=True, check=True).stdout
    return [line.split()[3] for line in out.splitlines() if line.split()[3].endswith(f":{port}")]


def test_cluster_up_starts_a_site_on_loopback_and_ctrl_c_stops_it(tmp_path: Path) -> None:
    if not shutil.which("redis-server") or not list(Path("/usr/lib/postgresql").glob("*/bin")):
        if os.environ.get("DENNOU_REQUIRE_REDIS") == "1":
            pytest.fail("DENNOU_REQUIRE_REDIS=1 but redis-server or PostgreSQL is missing")
        pytest.skip("needs Debian's postgresql and redis-server (scripts/ci-services.sh)")
    if not shutil.which("ss"):
        pytest.skip("needs ss (iproute2) to see what listens where")
    port, pg_port, redis_port = free_port(), free_port(), free_port()
    ports = [port, port + 1]
    pg_dir = Path(tempfile.mkdtemp(prefix="dennou-up-pg-"))  # the postgres user may enter it
    pg_dir.chmod(0o755)
    cmd = [sys.executable, "-c", "from dennou.cli import main; main()", "cluster", "up"]
    cmd += ["--processes", "2"]
    cmd += ["--port", str(port), "--pg-port", str(pg_port), "--redis-port", str(redis_port)]
    cmd += ["--data-dir", str(tmp_path / "site"), "--pg-dir", str(pg_dir / "pg")]
    proc = subprocess.Popen(
        cmd,
        env={**os.environ, "PYTHONPATH": SRC},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        banner = ""
        deadline = time.monotonic() + 180
        while "Ctrl-C" not in banner:
            line = proc.stdout.readline()
            assert line, f"cluster up stopped: {banner}"
            banner += line
            assert time.monotonic() < deadline, banner
        for p in ports:
            assert httpx.get(f"http://127.0.0.1:{p}/api", timeout=10).status_code == 200
        for p in (*ports, pg_port, redis_port):
            found = listening(p)
            assert found and all(a.startswith("127.0.0.1:") for a in found), (p, found)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(60) == 0
        for p in (*ports, pg_port, redis_port):
            assert not listening(p), f"{p} still listens after Ctrl-C"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        shutil.rmtree(pg_dir, ignore_errors=True)
