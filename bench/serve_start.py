"""Start-up: how long `dennou serve` takes to answer, beside a bare Starlette + uvicorn app.

    python bench/serve_start.py [--repeats 3] [--no-warm] [--before OTHER/src]

In one run, alternately, a new process of each is started on a free loopback port and polled
until it answers HTTP (any status): the bare app is a Starlette app of one route served by
uvicorn, started the way ``dennou serve`` starts uvicorn; ``dennou serve`` runs as a person types
it (SQLite in a new temporary directory, so its schema is created each time; ``dennou warm``
starting in the background unless ``--no-warm``). Printed per repeat: seconds from starting the
process to its first answer (``GET /``), for ``dennou serve`` also to its game list
(``GET /api/games``, which loads every game), and the ratio of the first answers. The target:
``dennou serve`` answers within 1.5× the bare app's time. ``--before`` also starts, in the same
rounds, the ``dennou serve`` of another source tree (an earlier commit's ``src``, to compare).

Python must be able to write its bytecode caches (``PYTHONDONTWRITEBYTECODE`` unset), as an
installed package has them: otherwise every start compiles the changed modules again.
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


def time_start(
    command: list[str], port: int, paths: list[str], src: Path = ROOT / "src"
) -> list[float]:
    """Seconds from starting ``command`` (``src`` first on its path) until each of ``paths``
    answered, in order."""
    env = {**os.environ, "PYTHONPATH": str(src)}
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
    parser.add_argument("--before", type=Path, help="another source tree's src to start too")
    args = parser.parse_args()
    if sys.flags.dont_write_bytecode or os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("note: PYTHONDONTWRITEBYTECODE is set: changed modules compile at every start")
    trees = {"dennou serve": ROOT / "src"}
    if args.before is not None:
        trees = {"before": args.before.resolve(), **trees}
    heads = " | ".join(f"{name} s | ratio | game list s" for name in trees)
    print(f"| repeat | bare app s | {heads} |")
    print("|---|---|" + "---|---|---|" * len(trees))
    bare_all: list[float] = []
    ratios: dict[str, list[float]] = {name: [] for name in trees}
    served: dict[str, list[float]] = {name: [] for name in trees}
    for repeat in range(1, args.repeats + 1):
        port = free_port()
        (bare,) = time_start([sys.executable, "-c", BARE, str(port)], port, ["/"])
        bare_all.append(bare)
        cells = []
        for name, src in trees.items():
            with tempfile.TemporaryDirectory(prefix="dennou-serve-") as data:
                port = free_port()
                command = [sys.executable, "-m", "dennou", "serve", "--port", str(port)]
                command += ["--data-dir", data] + (["--no-warm"] if args.no_warm else [])
                serve, games = time_start(command, port, ["/", "/api/games"], src)
            served[name].append(serve)
            ratios[name].append(serve / bare)
            cells.append(f"{serve:.2f} | {serve / bare:.2f}× | {games:.2f}")
        print(f"| {repeat} | {bare:.2f} | {' | '.join(cells)} |", flush=True)
    print(f"\nmedian: bare app {statistics.median(bare_all):.2f} s", end="")
    for name in trees:
        print(
            f"; {name} {statistics.median(served[name]):.2f} s, ratio "
            f"{statistics.median(ratios[name]):.2f}× ({min(ratios[name]):.2f}–"
            f"{max(ratios[name]):.2f}×)",
            end="",
        )
    print(" (target ≤ 1.5×)")


if __name__ == "__main__":
    main()
