"""Host isolation: what one client's big request costs everyone else, on a real server process.

    PYTHONPATH=src python bench/host_isolation.py [--hands 1000] [--steps 20000] [--talk 16000]

Two measurements, each against a fresh ``dennou serve`` subprocess of the code on ``PYTHONPATH``
(run it once with this tree and once with an older tree's ``src`` to compare):

* **cold load**: a finished table is written to the store before the server starts (a 10-card
  stud session of ``--hands`` hands among random bots; a Numeron game of ``--steps`` talk
  lines; 0 leaves one out); one client opens it (``GET /api/tables/{id}``) while another asks
  ``GET /api/games`` every 20 ms. Printed: how long the open took, and the other client's
  longest wait.
* **replay memory**: ``POST /api/replay`` of a record file of ``--talk`` talk lines, then of a
  second such file; printed: the server's resident memory added after each (it keeps its
  replays cached) and how long each took.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from dennou.arena.bots import resolve_bot
from dennou.arena.play import play
from dennou.core.game import TalkLine
from dennou.core.record import Record, Step
from dennou.games import REGISTRY
from dennou.server.testing import ServerProcess, rss_mib
from dennou.store import Store, TableRow, database_url


def talk_step(i: int, tag: str = "") -> Step:
    seat = i % 2
    return Step(seat, talk=TalkLine(seat, "ab"[seat], "public", f"{tag}line {i} of the chat"))


def talk_record(steps: int) -> Record:
    """A Numeron game of ``steps`` talk lines."""
    version = REGISTRY["numeron"].spec.version
    return Record("numeron", version, {}, ["a", "b"], [talk_step(i) for i in range(steps)])


def stud_record(hands: int) -> Record:
    """A 10-card stud session of ``hands`` hands among five random bots (no odds in views)."""
    game = REGISTRY["stud10"]
    bots = []
    for _ in range(game.spec.min_players):
        factory, kwargs = resolve_bot(game, "random")
        bots.append(factory(**kwargs))
    rules = game.make_rules({"hands": hands, "stack": 100 * hands, "view_odds": False})
    return play(game, rules, bots, 1, players=[f"p{i}" for i in range(len(bots))])


def store_finished(data: Path, record: Record) -> str:
    """``record`` as a finished table, written to the store directly."""
    store = Store(database_url(None, data))
    try:
        now = time.time()
        store.create_table(
            TableRow(
                id="tbig",
                game=record.game,
                version=record.version,
                rules=record.rules,
                seats=[{"kind": "player", "name": name} for name in record.players],
                options={"time_limit": 60.0, "absent_grace": 5.0},
                players=record.players,
                status="playing",
                seed=None,
                created_by=record.players[0],
                created_at=now,
                started_at=now,
            )
        )
        store.append_steps(("tbig", i, step) for i, step in enumerate(record.steps))
        seats = len(record.players)
        store.finish_table("tbig", {"scores": [0.0] * seats, "ranks": [1] * seats}, [], [])
    finally:
        store.close()
    return "tbig"


def cold_load(record: Record) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        table = store_finished(data, record)
        server = ServerProcess(data, check_messages=False)
        server.start()
        try:
            httpx.get(f"{server.http}/api/games", timeout=60)  # built once: not part of it
            took: list[float] = []

            def open_table() -> None:
                t0 = time.monotonic()
                httpx.get(f"{server.http}/api/tables/{table}", timeout=300).raise_for_status()
                took.append(time.monotonic() - t0)

            opener = threading.Thread(target=open_table)
            opener.start()
            waits = []
            with httpx.Client(timeout=300) as client:
                while opener.is_alive():
                    t0 = time.monotonic()
                    client.get(f"{server.http}/api/games").raise_for_status()
                    waits.append(time.monotonic() - t0)
                    time.sleep(0.02)
            opener.join()
        finally:
            server.stop()
    return {
        "game": record.game,
        "steps": len(record.steps),
        "open_s": round(took[0], 2),
        "others_longest_wait_s": round(max(waits), 3),
        "others_requests": len(waits),
    }


def replay_memory(lines: int) -> dict[str, Any]:
    game = REGISTRY["numeron"]
    texts = [
        Record(
            "numeron", game.spec.version, {}, ["a", "b"], [talk_step(i, t) for i in range(lines)]
        ).dumps()
        for t in ("", "again: ")
    ]
    out: dict[str, Any] = {"talk_lines": lines, "file_mib": round(len(texts[0]) / 2**20, 2)}
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp) / "data", check_messages=False)
        server.start()
        assert server.proc is not None
        try:
            small = Record("numeron", game.spec.version, {}, ["a", "b"], [talk_step(0)]).dumps()
            body = {"record": small, "seat": 0, "from": 0, "count": 1}
            httpx.post(f"{server.http}/api/replay", json=body, timeout=60).raise_for_status()
            base = rss_mib(server.proc.pid)
            for n, text in enumerate(texts, 1):
                body = {"record": text, "seat": 0, "from": lines - 9, "count": 10}
                t0 = time.monotonic()
                reply = httpx.post(f"{server.http}/api/replay", json=body, timeout=300)
                reply.raise_for_status()
                out[f"request{n}_s"] = round(time.monotonic() - t0, 2)
                out[f"added_after_{n}_mib"] = round(rss_mib(server.proc.pid) - base)
        finally:
            server.stop()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--steps", type=int, default=20_000, help="talk steps of the cold Numeron table"
    )
    parser.add_argument("--hands", type=int, default=1000, help="hands of the cold stud10 table")
    parser.add_argument("--talk", type=int, default=16_000, help="talk lines of a record file")
    args = parser.parse_args()
    import dennou

    print(json.dumps({"code": str(Path(dennou.__file__).parent)}))
    if args.hands:
        print(json.dumps({"cold_load": cold_load(stud_record(args.hands))}))
    if args.steps:
        print(json.dumps({"cold_load": cold_load(talk_record(args.steps))}))
    if args.talk:
        print(json.dumps({"replay_memory": replay_memory(args.talk)}))


if __name__ == "__main__":
    main()
