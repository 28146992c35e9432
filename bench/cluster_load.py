"""Cluster benchmark: actions/s and p99 with 1, 2 and 3 host processes of one site.

For each process count it starts that many ``dennou serve --db postgresql://... --broker
redis://...`` processes (one fresh PostgreSQL database, one Redis), pins them to the CPUs of
``--server-cpus`` and the load generator to ``--load-cpus`` (``sched_setaffinity``, as
``taskset`` does), then plays ``--tables`` tables of remote bots as ``bench/server_load.py``
does, but spread over the processes: table ``t`` is created on process ``t mod N`` and its
seat ``s`` and spectators connect to the following ones, so most clients reach their table
through another process (forwarded over Redis), as behind a load balancer (``--local``: every
client on its table's process, as behind one that routes by table). Prints actions/s,
acknowledgement and broadcast latency (p50/p99), CPU per action of the host processes, of
PostgreSQL and of Redis, errors and lost actions.

    DENNOU_TEST_POSTGRES_URL=postgresql://... DENNOU_TEST_REDIS_URL=redis://... \\
        python bench/cluster_load.py --processes 1,2,3 --tables 40 --seconds 10 --think 0

PostgreSQL and Redis are whatever the URLs name (``scripts/ci-services.sh`` starts both on
loopback); their CPU is read from ``/proc`` when they run on this machine (``--pg-pids``,
``--redis-pid`` find them by default by name).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import uvloop

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dennou.client import Client
from dennou.games import REGISTRY
from dennou.server.testing import ClusterProcesses
from server_load import Stats, cpu_seconds, pct, player, spectator, table_specs


async def client_part(
    args: argparse.Namespace, http: list[str], ws: list[str], part: int, ready: Any, go: Any
) -> dict[str, Any]:
    """One load-generating process: its share of the tables, spread over the processes."""
    specs = table_specs(args.game)
    n = len(ws)
    # --local: every client of table t on process t mod N (a load balancer that routes by table)
    step = 0 if args.local else 1
    mine = list(range(part, args.tables, args.procs))
    names = [f"p{t}_{s}" for t in mine for s in range(specs[t % len(specs)][1])]
    gate = asyncio.Semaphore(8)
    tokens: dict[str, str] = {}
    async with httpx.AsyncClient(timeout=60) as client:

        async def register(i: int, name: str) -> None:
            async with gate:
                reply = await client.post(f"{http[i % n]}/api/accounts", json={"name": name})
                tokens[name] = reply.json()["token"]

        await asyncio.gather(*(register(i, name) for i, name in enumerate(names)))
    stats = Stats()
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    clients: list[Client] = []

    async def open_table(t: int) -> None:
        name, seats = specs[t % len(specs)]
        game = REGISTRY[name]
        async with gate:
            first = await Client.open(ws[t % n], tokens[f"p{t}_0"], timeout=60)
            clients.append(first)
            info = await first.create_table(name, ["me"] + ["open"] * (seats - 1), absent_grace=60)
            table = info["id"]
            for k in range(args.spectators):
                c = await Client.open(ws[(t + step * (seats + k)) % n], None, timeout=60)
                clients.append(c)
                await c.request({"type": "spectate", "table": table})
                tasks.append(asyncio.create_task(spectator(c, table, stats, stop, k == 0)))
            tasks.append(
                asyncio.create_task(player(first, table, game, stats, stop, t * 10, args.think))
            )
            for s in range(1, seats):
                c = await Client.open(ws[(t + step * s) % n], tokens[f"p{t}_{s}"], timeout=60)
                clients.append(c)
                await c.request({"type": "join", "table": table})
                tasks.append(
                    asyncio.create_task(player(c, table, game, stats, stop, t * 10 + s, args.think))
                )

    await asyncio.gather(*(open_table(t) for t in mine))
    ready.put(part)
    while not go.is_set():
        await asyncio.sleep(0.05)
    stats.measuring = True
    before = stats.acked
    await asyncio.sleep(args.seconds)
    acts = stats.acked - before
    stats.measuring = False
    stop.set()
    await asyncio.sleep(1.5)
    for task in tasks:
        task.cancel()
    for c in clients:
        await c.close()
    lost = 0
    for versions in stats.seen.values():
        if versions and versions != list(range(versions[0], versions[0] + len(versions))):
            lost += 1
    return {
        "acts": acts,
        "ack": stats.ack,
        "broadcast": stats.broadcast,
        "errors": stats.errors,
        "lost": lost,
        "connections": len(clients),
    }


def _child(args: argparse.Namespace, http: list[str], ws: list[str], *rest: Any) -> None:
    part, ready, go, out = rest
    if args.load_cpus:
        os.sched_setaffinity(0, args.load_cpus)
    out.put(uvloop.run(client_part(args, http, ws, part, ready, go)))


def pids_named(name: str) -> list[int]:
    """Processes whose command is ``name`` (PostgreSQL's, Redis's), to read their CPU."""
    found = subprocess.run(["pgrep", "-x", name], capture_output=True, text=True).stdout
    return [int(p) for p in found.split()]


def total_cpu(pids: list[int]) -> float:
    out = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):  # gone meanwhile
            out += cpu_seconds(pid)
    return out


def run_one(args: argparse.Namespace, count: int, tmp: Path) -> dict[str, Any]:
    pg, broker = os.environ["DENNOU_TEST_POSTGRES_URL"], os.environ["DENNOU_TEST_REDIS_URL"]
    site = ClusterProcesses(tmp / f"n{count}", pg, broker, count)
    for proc in site.procs:
        proc.violations_file = None  # the bench measures the host, not the schema checks
    site.start()
    try:
        pids = []
        for proc in site.procs:
            assert proc.proc is not None
            pids.append(proc.proc.pid)
            if args.server_cpus:
                os.sched_setaffinity(proc.proc.pid, args.server_cpus)
        ctx = multiprocessing.get_context("spawn")
        ready, out, go = ctx.Queue(), ctx.Queue(), ctx.Event()
        http, ws = [p.http for p in site.procs], [p.ws for p in site.procs]
        loads = [
            ctx.Process(target=_child, args=(args, http, ws, i, ready, go, out))
            for i in range(args.procs)
        ]
        for load in loads:
            load.start()
        for _ in loads:
            ready.get(timeout=600)
        time.sleep(1.0)
        pg_pids, redis_pids = pids_named("postgres"), pids_named("redis-server")
        load_pids = [load.pid for load in loads if load.pid is not None]
        cpu0, pg0, redis0 = total_cpu(pids), total_cpu(pg_pids), total_cpu(redis_pids)
        load0 = total_cpu(load_pids)
        t0 = time.perf_counter()
        go.set()
        time.sleep(args.seconds)
        wall = time.perf_counter() - t0
        host_cpu = total_cpu(pids) - cpu0
        pg_cpu, redis_cpu = total_cpu(pg_pids) - pg0, total_cpu(redis_pids) - redis0
        load_cpu = total_cpu(load_pids) - load0
        parts = [out.get(timeout=600) for _ in loads]
        for load in loads:
            load.join(30)
    finally:
        site.stop()
    acts = sum(p["acts"] for p in parts)
    ack = [x for p in parts for x in p["ack"]]
    broadcast = [x for p in parts for x in p["broadcast"]]
    errors = [e for p in parts for e in p["errors"]]
    per = 1000 / max(acts, 1)
    return {
        "processes": count,
        "connections": sum(p["connections"] for p in parts),
        "actions_per_s": acts / args.seconds,
        "ack_p50_ms": pct(ack, 0.5) * 1000,
        "ack_p99_ms": pct(ack, 0.99) * 1000,
        "bcast_p99_ms": pct(broadcast, 0.99) * 1000,
        "host_cpu_cores": host_cpu / wall,
        "host_cpu_ms_per_action": host_cpu * per,
        "load_cpu_cores": load_cpu / wall,
        "pg_cpu_ms_per_action": pg_cpu * per,
        "redis_cpu_ms_per_action": redis_cpu * per,
        "errors": len(errors),
        "first_errors": errors[:2],
        "lost": sum(p["lost"] for p in parts),
    }


def cpus(text: str) -> list[int]:
    """``0`` or ``1-3`` or ``0,2``: a CPU list as ``taskset -c`` takes it."""
    out: list[int] = []
    for item in filter(None, text.split(",")):
        first, _, last = item.partition("-")
        out += range(int(first), int(last or first) + 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", default="1,2,3", help="process counts to measure")
    parser.add_argument("--game", default="numeron")
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--spectators", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--procs", type=int, default=1, help="load-generating processes")
    parser.add_argument("--think", type=float, default=0.0, help="mean think seconds (0: flat)")
    parser.add_argument(
        "--local",
        action="store_true",
        help="every client on its table's process (a load balancer routing by table)",
    )
    count = os.cpu_count() or 1
    parser.add_argument(
        "--server-cpus",
        type=cpus,
        default=cpus(f"1-{count - 1}") if count > 1 else [],
        help="CPUs of the host processes (default: all but CPU 0)",
    )
    parser.add_argument(
        "--load-cpus", type=cpus, default=[0], help="CPUs of the load generator (default: 0)"
    )
    args = parser.parse_args()
    random.seed(1)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in args.processes.split(",")):
            rows.append(run_one(args, n, Path(tmp)))
    mode = "clients on their table's process" if args.local else "clients spread"
    print(
        f"cluster_load: {args.game}, {args.tables} tables, think {args.think:g} s, "
        f"{mode}, "
        f"{args.seconds:g} s measured, host CPUs {args.server_cpus}, load CPUs {args.load_cpus}, "
        f"{os.cpu_count()} CPUs on the machine"
    )
    keys = [k for k in rows[0] if k != "first_errors"]
    print(f"{'metric':<24}" + "".join(f"{r['processes']:>12}" for r in rows))
    for key in keys[1:]:
        cells = (f"{r[key]:.3g}" if isinstance(r[key], float) else str(r[key]) for r in rows)
        print(f"{key:<24}" + "".join(f"{c:>12}" for c in cells))
    for r in rows:
        if r["first_errors"]:
            print(f"{r['processes']} processes, first errors: {r['first_errors']}")
    base = rows[0]["actions_per_s"]
    for r in rows[1:]:
        print(f"{r['processes']} processes: {r['actions_per_s'] / max(base, 1e-9):.2f}x of 1")


if __name__ == "__main__":
    main()
