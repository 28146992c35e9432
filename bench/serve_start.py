"""Start-up: how long `dennou serve` takes to answer, beside a bare Starlette + uvicorn app.

    python bench/serve_start.py [--repeats 3] [--no-warm]

In one run, alternately, a new process of each is started on a free loopback port and polled
until it answers HTTP (any status): the bare app is a Starlette app of one route served by
uvicorn, started the way ``dennou serve`` starts uvicorn; ``dennou serve`` runs as a person types
it (SQLite in a new temporary directory, so its migrations run each time; ``dennou warm`` starting
in the background unless ``--no-warm``). Printed per repeat: seconds from starting the process to
its first answer (``GET /``), for ``dennou serve`` also to its game list (``GET /api/games``, which
loads every game), and the ratio of the first answers. The target: ``dennou serve`` answers
within 1.5× the bare app's time.
"""

from __future__ import annotations

import argparse
import http.client
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BARE = r"""
import sys
import uvicorn
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route


async def home(request):
    return PlainTextResponse("ok")


app = Starlette(routes=[Route("/", home)])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def answered(port: int, path: str) -> bool:
    """Whether the server on ``port`` answers ``GET path`` now (any status)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        conn.getresponse().read()
        return True
    except OSError:
        return False
    finally:
        conn.close()


def time_start(command: list[str], port: int, paths: list[str]) -> list[float]:
    """Seconds from starting ``command`` until each of ``paths`` answered, in order."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    t0 = time.perf_counter()
    process = subprocess.Popen(
        command,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own group: `dennou warm` goes down with it
    )
    times: list[float] = []
    try:
        deadline = t0 + 120
        for path in paths:
            while not answered(port, path):
                if process.poll() is not None or time.perf_counter() > deadline:
                    raise RuntimeError(f"{command} did not answer {path}")
                time.sleep(0.005)
            times.append(time.perf_counter() - t0)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="interleaved starts of each")
    parser.add_argument("--no-warm", action="store_true", help="dennou serve --no-warm")
    args = parser.parse_args()
    python = sys.executable
    print("| repeat | bare app s | dennou serve s | ratio | dennou game list s |")
    print("|---|---|---|---|---|")
    bare_all: list[float] = []
    serve_all: list[float] = []
    ratios: list[float] = []
    for repeat in range(1, args.repeats + 1):
        port = free_port()
        (bare,) = time_start([python, "-c", BARE, str(port)], port, ["/"])
        with tempfile.TemporaryDirectory(prefix="dennou-serve-") as data:
            port = free_port()
            command = [python, "-m", "dennou", "serve", "--port", str(port), "--data-dir", data]
            if args.no_warm:
                command.append("--no-warm")
            serve, games = time_start(command, port, ["/", "/api/games"])
        bare_all.append(bare)
        serve_all.append(serve)
        ratios.append(serve / bare)
        print(f"| {repeat} | {bare:.2f} | {serve:.2f} | {serve / bare:.2f}× | {games:.2f} |")
    print(
        f"\nmedian: bare app {statistics.median(bare_all):.2f} s, dennou serve "
        f"{statistics.median(serve_all):.2f} s, ratio {statistics.median(ratios):.2f}× "
        f"(range {min(ratios):.2f}–{max(ratios):.2f}×; target ≤ 1.5×)"
    )


if __name__ == "__main__":
    main()
