"""Load benchmark: N concurrent tables of remote SDK bots over real WebSockets on loopback.

Starts ``python -m dennou.server serve`` as a subprocess (SQLite in a temporary directory),
opens N tables of a game (or of several games in turn: ``--game numeron,daifugo:5``) with every
seat a remote bot (``dennou.client.Client`` connections, each answering its turns with a random
legal action) plus S spectator connections per table, plays for a fixed time, and prints:
actions/s, latency from sending an action to its acknowledgement (the acting client) and to its
broadcast reaching the spectators (p50/p99, and p99.9 of the broadcast), server CPU per action
(every thread of the server process), server memory (RSS, and per connection above the idle
server's), errors, and lost actions (an action acknowledged but missing from what the
spectators saw, or a gap in the versions anyone saw).

    python bench/server_load.py --tables 200 --spectators 3 --seconds 20 [--think 0.5]

Bots think ``--think`` seconds on average before each action (0: flat out, a throughput test).
Latencies include the time the client process needs to see the message, so on a busy machine
they measure the machine too; ``server_cpu_ms_per_action`` is the server's own cost.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import uvloop

from dennou.client import Client
from dennou.core.bot import RandomBot
from dennou.games import REGISTRY
from dennou.server.testing import ServerProcess


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


class Stats:
    def __init__(self) -> None:
        self.ack: list[float] = []
        self.broadcast: list[float] = []
        self.sent: dict[str, float] = {}
        self.acts = 0
        self.acked = 0
        self.errors: list[str] = []
        self.seen: dict[str, list[int]] = {}
        self.acked_versions: dict[str, set[int]] = {}
        self.measuring = False


async def player(
    client: Client,
    table: str,
    game: Any,
    stats: Stats,
    stop: asyncio.Event,
    seed: int,
    think: float,
) -> None:
    bot = RandomBot()
    rng = random.Random(seed)
    while not stop.is_set():
        msg = await client.messages.get()  # cancelled once the run is over
        if msg is None:
            stats.errors.append(f"{table}: connection closed")
            return
        kind = msg["type"]
        if kind == "turn":
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))  # a bot that thinks, on average
            options = msg["legal"] if msg["legal"] is not None else msg["legal_sample"]
            legal = [game.parse_action(a) for a in options]
            action = bot.act(msg["view"], legal, rng)
            stats.sent[table] = time.perf_counter()
            stats.acts += 1
            rid = f"a{stats.acts}"
            await client.send(
                {
                    "type": "act",
                    "table": table,
                    "action": game.dump_action(action),
                    "version": msg["version"],
                    "id": rid,
                }
            )
        elif kind == "event" and isinstance(msg.get("id"), str):
            stats.acked += 1
            stats.acked_versions.setdefault(table, set()).add(msg["version"])
            if stats.measuring and table in stats.sent:
                stats.ack.append(time.perf_counter() - stats.sent[table])
        elif kind == "error" and msg.get("code") not in ("stale_version", "not_your_turn"):
            stats.errors.append(f"{table}: {msg.get('code')}: {msg.get('message')}")
        elif kind == "end":
            return


async def spectator(
    client: Client, table: str, stats: Stats, stop: asyncio.Event, primary: bool
) -> None:
    while not stop.is_set():
        msg = await client.messages.get()  # cancelled once the run is over
        if msg is None:
            stats.errors.append(f"{table}: spectator connection closed")
            return
        if msg["type"] == "event":
            if primary:
                stats.seen.setdefault(table, []).append(msg["version"])
            if stats.measuring and msg["step"] == "action" and table in stats.sent:
                stats.broadcast.append(time.perf_counter() - stats.sent[table])
        elif msg["type"] == "view" and primary:
            stats.seen.setdefault(table, []).append(msg["version"])
        elif msg["type"] == "end":
            return


async def client_part(
    args: argparse.Namespace, http_url: str, ws_url: str, part: int, ready: Any, go: Any
) -> dict[str, Any]:
    """One load-generating process: its share of the tables, measured from ``go``."""
    specs = table_specs(args.game)
    mine = list(range(part, args.tables, args.procs))
    names = [f"p{t}_{s}" for t in mine for s in range(specs[t % len(specs)][1])]
    started = time.perf_counter()
    gate = asyncio.Semaphore(8)  # set up tables a few at a time
    tokens: dict[str, str] = {}
    async with httpx.AsyncClient(timeout=60) as http:

        async def register(name: str) -> None:
            async with gate:
                reply = await http.post(f"{http_url}/api/accounts", json={"name": name})
                tokens[name] = reply.json()["token"]

        await asyncio.gather(*(register(n) for n in names))
    stats = Stats()
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    clients: list[Client] = []

    async def open_table(t: int) -> None:
        name, seats = specs[t % len(specs)]
        game = REGISTRY[name]
        async with gate:
            first = await Client.open(ws_url, tokens[f"p{t}_0"], timeout=60)
            clients.append(first)
            info = await first.create_table(name, ["me"] + ["open"] * (seats - 1), absent_grace=60)
            table = info["id"]
            for k in range(args.spectators):
                c = await Client.open(ws_url, None, timeout=60)
                clients.append(c)
                await c.request({"type": "spectate", "table": table})
                tasks.append(asyncio.create_task(spectator(c, table, stats, stop, k == 0)))
            tasks.append(
                asyncio.create_task(player(first, table, game, stats, stop, t * 10, args.think))
            )
            for s in range(1, seats):
                c = await Client.open(ws_url, tokens[f"p{t}_{s}"], timeout=60)
                clients.append(c)
                await c.request({"type": "join", "table": table})
                tasks.append(
                    asyncio.create_task(player(c, table, game, stats, stop, t * 10 + s, args.think))
                )

    await asyncio.gather(*(open_table(t) for t in mine))
    setup = time.perf_counter() - started
    ready.put(part)
    while not go.is_set():
        await asyncio.sleep(0.05)
    stats.measuring = True
    acts_before, cpu0 = stats.acked, time.process_time()
    await asyncio.sleep(args.seconds)
    acts = stats.acked - acts_before
    cpu = time.process_time() - cpu0
    stats.measuring = False
    stop.set()
    await asyncio.sleep(1.5)  # in-flight acknowledgements and broadcasts land
    for task in tasks:
        task.cancel()
    for c in clients:
        await c.close()
    lost = 0
    for table, versions in stats.seen.items():
        if versions and versions != list(range(versions[0], versions[0] + len(versions))):
            lost += 1
        acked = stats.acked_versions.get(table, set())
        if versions:  # acknowledged while the spectator watched, yet never broadcast to it
            lost += len({v for v in acked if versions[0] < v <= versions[-1]} - set(versions))
    return {
        "connections": len(clients),
        "setup": setup,
        "acts": acts,
        "ack": stats.ack,
        "broadcast": stats.broadcast,
        "cpu": cpu,
        "errors": stats.errors,
        "lost": lost,
    }


def table_specs(text: str) -> list[tuple[str, int]]:
    """``numeron,daifugo:5``: the games the tables take in turn, each with its player count
    (by default the game's smallest table)."""
    specs = []
    for item in text.split(","):
        name, _, players = item.strip().partition(":")
        if name not in REGISTRY:
            raise SystemExit(f"--game: unknown game {name!r}: one of {', '.join(REGISTRY)}")
        spec = REGISTRY[name].spec
        count = int(players) if players.isdigit() else spec.min_players if not players else -1
        if not spec.min_players <= count <= spec.max_players:
            raise SystemExit(
                f"--game: {item.strip()!r}: {name} takes {spec.min_players} to "
                f"{spec.max_players} players"
            )
        specs.append((name, count))
    return specs


def _child(
    args: argparse.Namespace, http_url: str, ws_url: str, part: int, ready: Any, go: Any, out: Any
) -> None:
    # uvloop (uvicorn's own loop, installed with the server extra): the load generators share
    # the machine with the server, so what they spend is taken from it
    out.put(uvloop.run(client_part(args, http_url, ws_url, part, ready, go)))


def run(args: argparse.Namespace, server: ServerProcess) -> dict[str, Any]:
    """Start the load processes, measure the server over the common window, merge."""
    assert server.proc is not None
    idle_rss = rss_mib(server.proc.pid)
    ctx = multiprocessing.get_context("spawn")
    ready, out, go = ctx.Queue(), ctx.Queue(), ctx.Event()
    procs = [
        ctx.Process(target=_child, args=(args, server.http, server.ws, i, ready, go, out))
        for i in range(args.procs)
    ]
    for proc in procs:
        proc.start()
    if args.pin:  # the server alone on the first core, the load generators on the others
        cores = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(server.proc.pid, cores[:1])
        for thread in Path(f"/proc/{server.proc.pid}/task").iterdir():
            os.sched_setaffinity(int(thread.name), cores[:1])
        for proc in procs:
            assert proc.pid is not None
            os.sched_setaffinity(proc.pid, cores[1:] or cores)
        os.sched_setaffinity(0, cores[1:] or cores)
    for _ in procs:
        ready.get(timeout=1800)
    time.sleep(1.0)  # let every table get going before measuring
    assert server.proc is not None
    profiler = None
    if args.profile:
        import subprocess

        profiler = subprocess.Popen(
            [
                str(Path(sys.executable).with_name("py-spy")),  # installed beside Python
                "record",
                "--pid",
                str(server.proc.pid),
                "--duration",
                str(int(args.seconds)),
                "--rate",
                "250",
                "--format",
                "raw",
                "--nonblocking",
                "--gil",  # the thread holding the GIL: where the CPU goes, not the waits
                "-o",
                args.profile,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    load_before = os.getloadavg()[0]
    cpu0, t0 = cpu_seconds(server.proc.pid), time.perf_counter()
    go.set()
    time.sleep(args.seconds)
    server_cpu = (cpu_seconds(server.proc.pid) - cpu0) / (time.perf_counter() - t0)
    load_after = os.getloadavg()[0]
    if profiler is not None:
        profiler.wait(timeout=120)
    memory = rss_mib(server.proc.pid)
    server_stats = httpx.get(f"{server.http}/api/stats", timeout=30).json()
    parts = [out.get(timeout=600) for _ in procs]
    for proc in procs:
        proc.join(30)
    acts = sum(p["acts"] for p in parts)
    connections = sum(p["connections"] for p in parts)
    ack = [x for p in parts for x in p["ack"]]
    broadcast = [x for p in parts for x in p["broadcast"]]
    errors = [e for p in parts for e in p["errors"]]
    return {
        "tables": args.tables,
        "connections": connections,
        "client_processes": args.procs,
        "setup_s": max(p["setup"] for p in parts),
        "actions_per_s": acts / args.seconds,
        "ack_p50_ms": pct(ack, 0.5) * 1000,
        "ack_p99_ms": pct(ack, 0.99) * 1000,
        "bcast_p50_ms": pct(broadcast, 0.5) * 1000,
        "bcast_p99_ms": pct(broadcast, 0.99) * 1000,
        "bcast_p999_ms": pct(broadcast, 0.999) * 1000,
        "server_rss_mib": memory,
        "server_idle_rss_mib": idle_rss,
        "rss_kib_per_conn": (memory - idle_rss) * 1024 / max(1, connections),
        "server_cpu_cores": server_cpu,
        "client_cpu_cores": sum(p["cpu"] for p in parts) / args.seconds,
        "server_cpu_ms_per_action": server_cpu * args.seconds * 1000 / max(acts, 1),
        "store_commits": server_stats["store"]["commits"],
        "store_steps": server_stats["store"]["steps_written"],
        "store_loop_s": server_stats["store"]["seconds_writing_on_loop"],
        "store_slowest_ms": server_stats["store"]["slowest_write_ms"],
        "load_average_1min": f"{load_before:.1f}-{load_after:.1f}",
        "errors": len(errors),
        "first_errors": errors[:3],
        "lost": sum(p["lost"] for p in parts),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--game",
        default="numeron",
        help="the game, or games the tables take in turn, each NAME[:PLAYERS] "
        "(numeron,daifugo:5: Numeron and 5-player Daifugo mixed)",
    )
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--spectators", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--procs", type=int, default=2, help="load-generating processes")
    parser.add_argument(
        "--think", type=float, default=0.5, help="mean seconds a bot thinks (0: flat out)"
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the server alone on the first core, the load generators on the others (taskset)",
    )
    parser.add_argument(
        "--profile", help="write a py-spy profile of the server's measured window here (raw)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        # the bench measures the server, not the test mode's schema checks
        server = ServerProcess(Path(tmp) / "data", check_messages=False)
        server.start()
        try:
            result = run(args, server)
        finally:
            server.stop()
    python = sys.version.split()[0]
    print(
        f"server_load: {args.game}, think {args.think:g} s, {args.seconds:g} s measured, "
        f"SQLite, loopback, py {python}"
    )
    print(f"{'metric':<22}{'value':>14}")
    for key, value in result.items():
        text = f"{value:.3g}" if isinstance(value, float) else str(value)
        print(f"{key:<22}{text:>14}")


if __name__ == "__main__":
    main()
