"""``dennou cluster up``: a whole site on one machine, from one command.

It starts a PostgreSQL and a Redis of its own on loopback (from the Debian packages, installed
with apt-get when missing and run as root), unless ``--db`` and ``--broker`` name running ones,
then ``--processes`` host processes (``dennou serve --db ... --broker ...``) on consecutive
ports. Ctrl-C (or SIGTERM) stops the processes, then what it started. The data lives under
``--data-dir`` (``pg/``, ``redis/``, one log per process), so the next ``up`` finds it again.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from dennou.core.errors import DennouError


def _as_postgres(cmd: list[str]) -> list[str]:
    """``cmd`` as the ``postgres`` user when running as root (PostgreSQL refuses root)."""
    if os.geteuid() != 0:
        return cmd
    return ["su", "postgres", "-s", "/bin/sh", "-c", " ".join(cmd)]


def _apt_install(package: str) -> None:
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise DennouError(
            f"{package} is not installed: apt-get install {package} (or give its URL)"
        )
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", package], check=True, env=env)


def _pg_bin() -> Path:
    for _ in range(2):
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if found:
            return Path(found[-1]).parent
        _apt_install("postgresql")
    raise DennouError("PostgreSQL's initdb was not found after installing it")


def start_postgres(data: Path, port: int) -> tuple[str, list[str]]:
    """Start (creating if need be) a PostgreSQL in ``data`` on 127.0.0.1:``port``.

    Returns:
        Its URL, and the command that stops it.
    """
    bin_dir = _pg_bin()
    data.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(data, "postgres")
        data.chmod(0o700)
    if not (data / "PG_VERSION").exists():
        subprocess.run(
            _as_postgres([str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "dennou"]),
            check=True,
            stdout=subprocess.DEVNULL,
        )
    options = f"-h 127.0.0.1 -p {port} -k /tmp"
    subprocess.run(
        _as_postgres(
            [
                *(str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(data / "log"), "-w"),
                *("-o", f"'{options}'" if os.geteuid() == 0 else options, "start"),
            ]
        ),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    stop = _as_postgres([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"])
    return f"postgresql://dennou@127.0.0.1:{port}/postgres", stop


def start_redis(data: Path, port: int) -> tuple[str, subprocess.Popen[bytes]]:
    """Start a Redis on 127.0.0.1:``port`` (no disk writes); returns its URL and process."""
    if shutil.which("redis-server") is None:
        _apt_install("redis-server")
    data.mkdir(parents=True, exist_ok=True)
    log = (data / "log").open("ab")
    proc = subprocess.Popen(
        [
            *("redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", ""),
            *("--appendonly", "no", "--dir", str(data)),
        ],
        stdout=log,
        stderr=log,
    )
    return f"redis://127.0.0.1:{port}/0", proc


def _wait_http(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise DennouError(f"a host process stopped at start; see {log}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url, timeout=2).status_code == 200:
                return
        time.sleep(0.2)
    raise DennouError(f"{url} did not answer within {timeout:g} s; see {log}")


def cluster_up(
    processes: int,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    data_dir: Path = Path("./data/cluster"),
    db: str | None = None,
    broker: str | None = None,
    pg_port: int = 55433,
    redis_port: int = 56380,
    pg_dir: Path | None = None,
    serve_args: list[str] | None = None,
    bot_processes: int = 0,
    bot_workers: int = 2,
) -> None:
    """Run a site of ``processes`` host processes until Ctrl-C (see the module's docs).

    With ``bot_processes``, the hosts run ``--remote-bots`` and that many ``dennou cluster
    bots`` processes (``bot_workers`` worker processes each) think their bots.

    As root, PostgreSQL runs as the ``postgres`` user and its data lives in
    ``/var/lib/dennou/pg-PORT`` (``pg_dir``), where that user may read it.
    """
    data_dir = data_dir.resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    stop_pg: list[str] | None = None
    redis_proc: subprocess.Popen[bytes] | None = None
    hosts: list[subprocess.Popen[bytes]] = []
    stopping = False

    def on_term(*_: object) -> None:
        raise KeyboardInterrupt

    old_term = signal.signal(signal.SIGTERM, on_term)
    try:
        if db is None:
            if pg_dir is None:
                root = os.geteuid() == 0
                pg_dir = Path(f"/var/lib/dennou/pg-{pg_port}") if root else data_dir / "pg"
            db, stop_pg = start_postgres(pg_dir, pg_port)
        if broker is None:
            broker, redis_proc = start_redis(data_dir / "redis", redis_port)
        remote = ["--remote-bots"] if bot_processes else []
        for i in range(processes):
            cmd = [sys.executable, "-m", "dennou.server", "serve", "--host", host]
            cmd += ["--port", str(port + i), "--db", db, "--broker", broker, "--data-dir"]
            cmd += [str(data_dir), *remote, *(serve_args or [])]
            log = data_dir / f"serve-{i}.log"
            with log.open("ab") as out:
                hosts.append(subprocess.Popen(cmd, stdout=out, stderr=out))
            # one after the other: the first migrates the database
            _wait_http(f"http://{host}:{port + i}/api", hosts[-1], log)
        for i in range(bot_processes):
            cmd = [sys.executable, "-m", "dennou", "cluster", "bots", "--broker", broker]
            cmd += ["--workers", str(bot_workers)]
            with (data_dir / f"bots-{i}.log").open("ab") as out:
                hosts.append(subprocess.Popen(cmd, stdout=out, stderr=out))
        shown = f"[{host}]" if ":" in host else host
        lines = [f"dennou cluster: {processes} host processes, one site"]
        if bot_processes:
            lines.append(f"  bots       {bot_processes} processes of {bot_workers} workers")
        lines += [
            f"  http://{shown}:{port + i}/   ws://{shown}:{port + i}/ws" for i in range(processes)
        ]
        lines += [f"  database   {db.split('@')[-1]}", f"  broker     {broker.split('@')[-1]}"]
        lines += [f"  logs       {data_dir}/serve-N.log", "Ctrl-C stops them all."]
        print("\n".join(lines), flush=True)
        while all(h.poll() is None for h in hosts):
            time.sleep(0.5)
        raise DennouError("a host process stopped; see its log under " + str(data_dir))
    except KeyboardInterrupt:
        stopping = True
    finally:
        signal.signal(signal.SIGTERM, old_term)
        for h in hosts:
            if h.poll() is None:
                h.terminate()
        for h in hosts:
            try:
                h.wait(15)
            except subprocess.TimeoutExpired:
                h.kill()
                h.wait()
        if redis_proc is not None:
            redis_proc.terminate()
            redis_proc.wait(10)
        if stop_pg is not None:
            subprocess.run(stop_pg, check=False, stdout=subprocess.DEVNULL)
        if stopping:
            print("dennou cluster: stopped", flush=True)


__all__ = ["cluster_up", "start_postgres", "start_redis"]
