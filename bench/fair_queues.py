"""Fair shares between accounts: one account's heavy load against another's cheap tables.

Starts ``python -m dennou.server serve`` as a subprocess (two bot workers, one engine process)
three times and prints one JSON line per scenario:

- ``bots``: account ``heavy`` plays 4 Daifugo tables of ``montecarlo:ms=20000`` (the game's
  10 s clock); then account ``victim`` starts one Daifugo table of ``random`` bots. Printed:
  the seconds the victim's table took for its first ``--steps`` steps (or the steps it made in
  ``--seconds``), and its steps per second.
- ``kills``: ``heavy`` plays one Daifugo table of ``montecarlo:ms=20000`` at a 1 s clock while
  ``victim`` plays 3 tables of ``random``: worker kills, decisions past their clock, and bots
  rebuilt by replay (``GET /api/stats``) in ``--seconds``.
- ``views``: ``victim`` asks for views of its 10-card stud table (default rules), alone and then
  while ``heavy`` asks for views of 6 tables whose odds cost tens of milliseconds each
  (``odds_samples=200000``): the victim's view latency (median, 90th percentile).

Before and after: run it on the old commit's sources with the same script, e.g.

    git worktree add /tmp/old 3d4158b
    PYTHONPATH=/tmp/old/src python bench/fair_queues.py     # before
    PYTHONPATH=src python bench/fair_queues.py              # after

(the server runs the sources the script imported). About 1.5 minutes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

import dennou
from dennou.server.testing import WS, ServerProcess

LIMITS: dict[str, object] = {"bot_workers": 2, "engine_workers": 1}


def create(server: ServerProcess, token: str, game: str, seats: list[str], **extra: Any) -> str:
    reply = httpx.post(
        f"{server.http}/api/tables",
        json={"game": game, "seats": seats, **extra},
        headers={"authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert reply.status_code in (200, 201), reply.text
    return str(reply.json()["id"])


def version(server: ServerProcess, table: str) -> int:
    return int(httpx.get(f"{server.http}/api/tables/{table}", timeout=30).json()["version"])


def stats(server: ServerProcess) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{server.http}/api/stats", timeout=30).json()
    return data


def warm(server: ServerProcess, game: str = "daifugo") -> None:
    """Play a table of random bots until its bots and engine process are started."""
    token = server.register(f"warm-{game}")
    table = create(server, token, game, ["bot:random"] * 5)
    until = time.monotonic() + 120
    while time.monotonic() < until:
        info = httpx.get(f"{server.http}/api/tables/{table}", timeout=30).json()
        if info["version"] >= 30 or info["status"] == "finished":
            return
        time.sleep(0.1)


def bots(data: Path, steps: int, seconds: float) -> dict[str, Any]:
    server = ServerProcess(data / "bots", limits=LIMITS, check_messages=False)
    server.start()
    try:
        warm(server)
        heavy = server.register("heavy")
        for _ in range(4):
            create(server, heavy, "daifugo", ["bot:montecarlo:ms=20000"] * 5)
        time.sleep(2)  # the heavy tables are thinking
        victim = server.register("victim")
        table = create(server, victim, "daifugo", ["bot:random"] * 5)
        started = time.monotonic()
        done = 0
        while time.monotonic() - started < seconds:
            done = version(server, table)
            if done >= steps:
                break
            time.sleep(0.05)
        took = time.monotonic() - started
        after = stats(server)
        return {
            "scenario": "bots",
            "victim_steps": done,
            "victim_seconds": round(took, 2),
            "victim_steps_per_s": round(done / took, 1),
            "bot_kills": after.get("bot_kills"),
            "bot_rebuilds": after.get("bot_rebuilds", "n/a"),
        }
    finally:
        server.stop()


def kills(data: Path, seconds: float) -> dict[str, Any]:
    server = ServerProcess(data / "kills", limits=LIMITS, check_messages=False)
    server.start()
    try:
        warm(server)
        before = stats(server)
        victim = server.register("victim")
        tables = [create(server, victim, "daifugo", ["bot:random"] * 5) for _ in range(3)]
        heavy = server.register("heavy")
        create(
            server,
            heavy,
            "daifugo",
            ["bot:montecarlo:ms=20000"] * 5,
            options={"time_limit": 1},
        )
        started = time.monotonic()
        time.sleep(seconds)
        took = time.monotonic() - started
        after = stats(server)
        steps = sum(version(server, t) for t in tables)

        def delta(name: str) -> Any:
            return after[name] - before[name] if name in after else "n/a"

        return {
            "scenario": "kills",
            "seconds": round(took, 1),
            "bot_kills": delta("bot_kills"),
            "bot_overruns": delta("bot_overruns"),
            "bot_rebuilds": delta("bot_rebuilds"),
            "victim_steps": steps,
        }
    finally:
        server.stop()


def view_latencies(ws: WS, table: str, seconds: float) -> list[float]:
    out = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        started = time.perf_counter()
        reply = ws.request({"type": "get_view", "table": table}, timeout=60)
        assert reply["type"] == "view", reply
        out.append(time.perf_counter() - started)
        ws.backlog.clear()
        time.sleep(0.1)
    return out


def views(data: Path, seconds: float) -> dict[str, Any]:
    server = ServerProcess(data / "views", limits=LIMITS, check_messages=False)
    server.start()
    stop = threading.Event()
    threads: list[threading.Thread] = []
    try:
        warm(server, "stud10")
        victim = server.register("victim")
        mine = create(server, victim, "stud10", ["bot:random"] * 5)
        ws = WS(server.ws)
        ws.request({"type": "hello", "token": victim})
        ws.request({"type": "spectate", "table": mine})
        alone = view_latencies(ws, mine, 3)
        heavy = server.register("heavy")
        rules = {"odds_samples": 200_000, "odds_exact_limit": 0, "hands": 0}
        loaded = [
            create(server, heavy, "stud10", ["bot:random"] * 5, rules=rules) for _ in range(6)
        ]

        def ask(table: str) -> None:
            conn = WS(server.ws)
            conn.request({"type": "hello", "token": heavy})
            conn.request({"type": "spectate", "table": table})
            while not stop.is_set():
                conn.request({"type": "get_view", "table": table}, timeout=120)
                conn.backlog.clear()
            conn.close()

        threads = [threading.Thread(target=ask, args=(t,), daemon=True) for t in loaded]
        for thread in threads:
            thread.start()
        time.sleep(2)
        busy = view_latencies(ws, mine, seconds)
        work = stats(server)["work"].get("stud10/view", {})
        ws.close()

        def ms(values: list[float], q: float) -> float:
            values = sorted(values)
            return round(values[min(len(values) - 1, int(q * len(values)))] * 1000, 1)

        return {
            "scenario": "views",
            "victim_view_ms_alone": {"p50": ms(alone, 0.5), "p90": ms(alone, 0.9)},
            "victim_view_ms_loaded": {"p50": ms(busy, 0.5), "p90": ms(busy, 0.9)},
            "victim_views_loaded": len(busy),
            "heavy_view_cpu_ms_mean": work.get("cost_ms"),
            "median_s": round(statistics.median(busy), 3),
        }
    finally:
        stop.set()
        for thread in threads:
            thread.join(5)
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=50, help="victim steps to time (bots)")
    parser.add_argument("--seconds", type=float, default=25, help="longest wait per scenario")
    parser.add_argument("--only", choices=["bots", "kills", "views"], action="append")
    args = parser.parse_args()
    print(json.dumps({"sources": str(Path(dennou.__file__).parents[1])}))
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        only = args.only or ["bots", "kills", "views"]
        if "bots" in only:
            print(json.dumps(bots(data, args.steps, args.seconds)), flush=True)
        if "kills" in only:
            print(json.dumps(kills(data, args.seconds)), flush=True)
        if "views" in only:
            print(json.dumps(views(data, min(args.seconds, 10))), flush=True)


if __name__ == "__main__":
    main()
