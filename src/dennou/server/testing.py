"""Real servers for tests and benchmarks.

A subprocess (:class:`ServerProcess`), an in-process uvicorn (:class:`LiveServer`) and a
blocking WebSocket client with timeouts (:class:`WS`): no mocks.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import httpx

if TYPE_CHECKING:
    from dennou.server.hub import Hub

T = TypeVar("T")

SRC = str(Path(__file__).resolve().parents[2])


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


TEST_LIMITS: dict[str, object] = {
    "rate": 1000,
    "burst": 2000,
    "time_limit_min": 0.1,
    "absent_grace_min": 0.1,
    "accounts_per_address": 10_000,
    "sign_in_per_address": 10_000,
    "connections_per_address": 10_000,
    "connections_per_account": 10_000,
    "bot_workers": 1,
    "tables_per_account": 1000,
    "talk_rate_account": 1000,
    "talk_burst_account": 1000,
    "talk_rate_table": 1000,
    "talk_burst_table": 1000,
    "replay_rate_address": 1000,
    "replay_burst_address": 1000,
    "pending_per_address": 10_000,
    "reveal_pace": 0,
    "deal_pause": 0,
}
"""Limits of the test servers: wide enough for tests that are not about limits (every test
client comes from 127.0.0.1, and tests run fast clocks and unpaced chance steps)."""


class ServerProcess:
    """`python -m dennou.server serve` as a real subprocess on a loopback port.

    Every message it sends is checked against the protocol's schemas (``check_messages``);
    :meth:`stop` fails if one did not validate.

    Args:
        data_dir: The data directory (its ``server.log`` gets the server's stderr).
        db: A database URL (default: SQLite in ``data_dir``).
        limits: Limits on top of :data:`TEST_LIMITS`.
        operators: Operator accounts.
        check_messages: Check every message sent against the schemas.
        args: More ``dennou serve`` options (``--uecda-port``...).
        env: More environment variables for the process (``DENNOU_EXTRA_GAMES``...).
    """

    def __init__(
        self,
        data_dir: Path,
        db: str | None = None,
        *,
        limits: Mapping[str, object] | None = None,
        operators: tuple[str, ...] = (),
        check_messages: bool = True,
        args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.args = list(args)
        self.env = dict(env or {})
        self.data_dir = data_dir
        self.db = db
        self.limits = {**TEST_LIMITS, **(limits or {})}
        self.operators = operators
        self.violations_file = (
            Path(data_dir) / "schema-violations.jsonl" if check_messages else None
        )
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        """The HTTP base URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        """The WebSocket URL."""
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> None:
        """Start the process and wait until it answers."""
        cmd = [sys.executable, "-m", "dennou.server", "serve", "--port", str(self.port)]
        cmd += ["--no-warm"]  # the test run's first process warms the caches
        cmd += ["--data-dir", str(self.data_dir)]
        for name, value in self.limits.items():
            cmd += ["--limit", f"{name}={value}"]
        for name in self.operators:
            cmd += ["--operator", name]
        if self.db:
            cmd += ["--db", self.db]
        cmd += self.args
        env = {**os.environ, "PYTHONPATH": SRC, **self.env}
        if self.violations_file is not None:
            env["DENNOU_CHECK_MESSAGES"] = str(self.violations_file)
        # A file, not a pipe: nobody reads a pipe while the server runs, and a full pipe would
        # block the server on its next log line.
        Path(self.data_dir).mkdir(parents=True, exist_ok=True)
        self.log = Path(self.data_dir) / "server.log"
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(cmd, env=env, stderr=log, stdout=log)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text(errors='replace')}")
            try:
                if httpx.get(self.http + "/api", timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        """SIGKILL the process (no clean-up of any kind)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        """Stop the server; fail if a message it sent broke the protocol's schemas."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        assert_no_violations(self.violations_file)

    def register(self, name: str) -> str:
        """Register an account; return its token."""
        reply = httpx.post(self.http + "/api/accounts", json={"name": name}, timeout=10)
        assert reply.status_code == 201, reply.text
        return str(reply.json()["token"])


def assert_no_violations(path: Path | None) -> None:
    """Fail if the server noted messages that do not validate against the schemas."""
    from dennou.server.checking import violations

    if path is None:
        return
    found = violations(path)
    assert not found, f"{len(found)} server messages broke the schemas, e.g. {found[0]}"


class LiveServer:
    """The app under uvicorn in a thread of this process (in-process, real sockets).

    As :class:`ServerProcess`, it checks every message it sends against the schemas.

    Args:
        data_dir: The data directory.
        limits: Limits on top of :data:`TEST_LIMITS`.
        check_messages: Check every message sent against the schemas.
        ws: uvicorn's WebSocket protocol (default: the host's own,
            :class:`~dennou.server.wsprotocol.HostWebSocketProtocol`; a name such as
            ``"websockets-sansio"`` runs ``/ws`` as under any other ASGI server).
        **app_options: More arguments of :func:`~dennou.server.app.create_app`.
    """

    def __init__(
        self,
        data_dir: Path,
        *,
        limits: Mapping[str, object] | None = None,
        check_messages: bool = True,
        ws: str | None = None,
        **app_options: object,
    ) -> None:
        import threading

        import uvicorn

        from dennou.server.app import create_app
        from dennou.server.httpprotocol import host_http_protocol
        from dennou.server.limits import Limits
        from dennou.server.wsprotocol import HostWebSocketProtocol

        self.port = free_port()
        Path(data_dir).mkdir(parents=True, exist_ok=True)
        self.violations_file = (
            Path(data_dir) / "schema-violations.jsonl" if check_messages else None
        )
        merged = Limits().with_options({**TEST_LIMITS, **(limits or {})})
        self.app = create_app(
            data_dir=str(data_dir),
            quiet=True,
            limits=merged,
            check_messages=str(self.violations_file) if self.violations_file else None,
            **app_options,  # type: ignore[arg-type]
        )
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="error",
            ws=ws or HostWebSocketProtocol,
            http=host_http_protocol(merged),
            ws_max_size=1 << 20,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if time.time() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)

    @property
    def http(self) -> str:
        """The HTTP base URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """The WebSocket URL."""
        return f"ws://127.0.0.1:{self.port}/ws"

    def register(self, name: str) -> str:
        """Register an account; return its token."""
        reply = httpx.post(self.http + "/api/accounts", json={"name": name}, timeout=10)
        assert reply.status_code == 201, reply.text
        return str(reply.json()["token"])

    def call(self, make: Callable[[Hub], Coroutine[Any, Any, T]], timeout: float = 60) -> T:
        """Run ``make(hub)`` on the server's event loop (server-side APIs) and return its result."""
        hub: Hub = self.app.state.hub
        future = asyncio.run_coroutine_threadsafe(make(hub), hub.loop)
        return future.result(timeout)

    def connect(self, token: str | None = None, hello: bool = True) -> WS:
        """A connection, logged in with ``token`` (``None``: a guest)."""
        ws = WS(self.ws_url)
        if hello:
            welcome = ws.request({"type": "hello", "token": token})
            assert welcome["type"] == "welcome", welcome
        return ws

    def stop(self) -> None:
        """Stop the server; fail if a message it sent broke the protocol's schemas."""
        self.server.should_exit = True
        self.thread.join(10)
        assert_no_violations(self.violations_file)


class WS:
    """A blocking WebSocket client with timeouts, for protocol tests."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect

        self.conn = connect(url, max_size=1 << 24).__enter__()
        self.backlog: list[dict[str, object]] = []
        self._ids = 0

    def send(self, message: object) -> None:
        """Send a message (a dict is encoded as JSON)."""
        import json

        self.conn.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def recv(self, timeout: float = 30) -> dict[str, object]:
        """The next message."""
        import json

        if self.backlog:
            return self.backlog.pop(0)
        return dict(json.loads(self.conn.recv(timeout)))

    def _next(self, timeout: float) -> dict[str, object]:
        import json

        return dict(json.loads(self.conn.recv(timeout)))

    def request(self, message: Mapping[str, object], timeout: float = 30) -> dict[str, object]:
        """Send with a fresh id; return the reply with that id (others go to the backlog)."""
        self._ids += 1
        rid = f"r{self._ids}"
        self.send({**message, "id": rid})
        deadline = time.time() + timeout
        while True:
            msg = self._next(max(0.01, deadline - time.time()))
            if msg.get("id") == rid:
                return msg
            self.backlog.append(msg)

    def wait_for(
        self, kind: str | tuple[str, ...], timeout: float = 30, **match: object
    ) -> dict[str, object]:
        """The next message of a type or of any of several (matching fields); drops the others."""
        kinds = (kind,) if isinstance(kind, str) else kind
        deadline = time.time() + timeout
        while True:
            if self.backlog:
                msg = self.backlog.pop(0)
            else:
                msg = self._next(max(0.01, deadline - time.time()))
            if msg.get("type") in kinds and all(msg.get(k) == v for k, v in match.items()):
                return msg

    def drain(self, quiet: float = 0.2) -> list[dict[str, object]]:
        """Everything that arrives until the line is quiet."""
        out = list(self.backlog)
        self.backlog.clear()
        while True:
            try:
                out.append(self._next(quiet))
            except TimeoutError:
                return out

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()


def postgres_url() -> str | None:
    """The test PostgreSQL URL; skips the test without one (fails it in CI).

    ``DENNOU_TEST_POSTGRES_URL`` names the server (``scripts/ci-services.sh`` exports it);
    ``DENNOU_REQUIRE_POSTGRES=1`` turns the skip into a failure.
    """
    import pytest

    url = os.environ.get("DENNOU_TEST_POSTGRES_URL")
    if not url:
        if os.environ.get("DENNOU_REQUIRE_POSTGRES") == "1":
            pytest.fail("DENNOU_REQUIRE_POSTGRES=1 but DENNOU_TEST_POSTGRES_URL is not set")
        pytest.skip("no PostgreSQL (source scripts/ci-services.sh to get one)")
    return url


def redis_url() -> str | None:
    """The test Redis URL; skips the test without one (fails it in CI).

    ``DENNOU_TEST_REDIS_URL`` names the server (``scripts/ci-services.sh`` exports it);
    ``DENNOU_REQUIRE_REDIS=1`` turns the skip into a failure.
    """
    import pytest

    url = os.environ.get("DENNOU_TEST_REDIS_URL")
    if not url:
        if os.environ.get("DENNOU_REQUIRE_REDIS") == "1":
            pytest.fail("DENNOU_REQUIRE_REDIS=1 but DENNOU_TEST_REDIS_URL is not set")
        pytest.skip("no Redis (source scripts/ci-services.sh to get one)")
    return url


class ClusterProcesses:
    """``count`` host processes of one cluster on loopback ports.

    They share one fresh PostgreSQL database and one Redis (under a site name of their own, so
    that test runs never hear each other).

    Args:
        data_dir: Each process's data directory is under it (``p0``, ``p1``...).
        postgres: The test PostgreSQL URL (:func:`postgres_url`).
        redis: The test Redis URL (:func:`redis_url`).
        count: Processes.
        limits: Limits on top of :data:`TEST_LIMITS`.
        args: More ``dennou serve`` options (``--remote-bots``).
    """

    def __init__(
        self,
        data_dir: Path,
        postgres: str,
        redis: str,
        count: int = 3,
        *,
        limits: Mapping[str, object] | None = None,
        args: Sequence[str] = (),
    ) -> None:
        self.postgres = postgres
        self.db, self.db_name = fresh_postgres_database(postgres)
        self.site = "dennou-test-" + secrets.token_hex(4)
        self.redis = redis
        args = ["--broker", redis, "--site", self.site, *args]
        self.procs = [
            ServerProcess(data_dir / f"p{i}", self.db, limits=limits, args=args)
            for i in range(count)
        ]

    def __getitem__(self, index: int) -> ServerProcess:
        return self.procs[index]

    def start(self) -> None:
        """Start every process, one after the other (the first migrates the database)."""
        for proc in self.procs:
            proc.start()

    def stop(self) -> None:
        """Stop the processes still running and drop the database."""
        try:
            for proc in self.procs:
                proc.stop()
        finally:
            drop_postgres_database(self.postgres, self.db_name)


def fresh_postgres_database(url: str) -> tuple[str, str]:
    """Create an empty database next to the one in ``url``; returns (its url, its name)."""
    import sqlalchemy as sa

    from dennou.store import database_url

    name = "dennou_test_" + secrets.token_hex(4)
    admin = sa.create_engine(database_url(url, "."), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    base = url.rsplit("/", 1)[0]
    return f"{base}/{name}", name


def drop_postgres_database(url: str, name: str) -> None:
    """Drop a database made by :func:`fresh_postgres_database`."""
    import sqlalchemy as sa

    from dennou.store import database_url

    admin = sa.create_engine(database_url(url, "."), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def rss_mib(pid: int) -> float:
    """Resident memory of a process, in MiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


class RawSocket:
    """A plain TCP client for what well-behaved clients never do.

    It can announce a huge body and go silent, stream without end, or never read.

    Args:
        port: The loopback port.
        timeout: Seconds any one socket operation may take.
    """

    def __init__(self, port: int, timeout: float = 10) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.upgraded = False

    def send(self, data: bytes) -> bool:
        """Send all of ``data``; ``False`` if the server closed or stopped reading meanwhile."""
        try:
            self.sock.sendall(data)
        except OSError:
            return False
        return True

    def read_response(self, timeout: float = 10) -> tuple[int, bytes]:
        """The HTTP status and the bytes received until the server closes (or ``timeout``)."""
        self.sock.settimeout(timeout)
        data = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                break
            except OSError:
                break
            if not chunk:
                break
            data += chunk
            if b"\r\n\r\n" in data and b"content-length:" in data.lower():
                head, _, body = data.partition(b"\r\n\r\n")
                length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                if len(body) >= length:
                    break
        status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
        return status, data

    def closed_by_server(self, timeout: float = 10) -> bool:
        """Whether the server closes the connection within ``timeout``.

        Closing is the TCP connection's end or, on a WebSocket, a close frame (the TCP close
        follows the closing handshake, which this client never answers). Data read meanwhile
        is dropped.
        """
        self.sock.settimeout(0.2)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                data = self.sock.recv(1 << 20)
            except TimeoutError:
                continue
            except OSError:
                return True
            if not data or (self.upgraded and data[:1] == b"\x88"):
                return True
        return False

    def websocket(self, path: str = "/ws") -> None:
        """Open a WebSocket on this connection (the handshake), then read nothing more."""
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("closed during the WebSocket handshake")
            data += chunk
        if b" 101 " not in data.split(b"\r\n", 1)[0]:
            raise ConnectionError(data.decode(errors="replace"))
        self.upgraded = True

    def send_text(self, text: str) -> bool:
        """Send one masked WebSocket text frame; ``False`` once the server is gone."""
        payload = text.encode()
        mask = secrets.token_bytes(4)
        header = bytearray([0x81])
        if len(payload) < 126:
            header.append(0x80 | len(payload))
        elif len(payload) < 1 << 16:
            header.append(0x80 | 126)
            header += len(payload).to_bytes(2, "big")
        else:
            header.append(0x80 | 127)
            header += len(payload).to_bytes(8, "big")
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        return self.send(bytes(header) + mask + masked)

    def close(self) -> None:
        """Close the socket."""
        with contextlib.suppress(OSError):
            self.sock.close()

    def __enter__(self) -> RawSocket:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
