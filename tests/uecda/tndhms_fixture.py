"""The tndhms fixture: what the organisers' UECda server sent five scripted clients, replayed.

``bench/uecda_tndhms.py record`` writes the fixtures of :data:`FIXTURES` from runs of tndhms
(its docstring says how and in what format); :func:`replay` connects to a server as one of those
clients, sends what that client sent and compares every message it gets with what tndhms sent.
"""

from __future__ import annotations

import gzip
import socket
import struct
import threading
import time
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
FIXTURES = {
    DATA / "tndhms_revolution.txt.gz": 1,
    DATA / "tndhms_tribute.txt.gz": 50000,
}
"""Each fixture, with the seed its ``record`` run searches from (``--seed``): a set with
revolutions, and one whose tribute takes one of two cards of a rank."""
TABLE = struct.Struct(">120i")
INT = struct.Struct(">i")


def text_table(text: str) -> list[list[int]]:
    """The table of :func:`table_text`."""
    out = []
    for row in text.split("/"):
        values = [int(v) for v in row.split(",")] if row else []
        out.append(values + [0] * (15 - len(values)))
    return out


Message = tuple[str, str, Any]
"""(``recv`` or ``send``, ``T`` or ``I``, a table or an int)."""


def read_fixture(path: Path) -> tuple[list[list[list[str]]], list[list[Message]]]:
    """The deals and each player's messages of a fixture."""
    deals: list[list[list[str]]] = []
    logs: list[list[Message]] = [[] for _ in range(5)]
    for line in gzip.decompress(path.read_bytes()).decode().splitlines():
        if not line or line.startswith("#"):
            continue
        if line.startswith("deal "):
            _, _, rest = line.split(" ", 2)
            deals.append([h.split() for h in rest.split(" | ")])
            continue
        p, way, kind, text = line.split(" ", 3)
        logs[int(p)].append((way, kind, text_table(text) if kind == "T" else int(text)))
    return deals, logs


def replay(
    port: int, log: list[Message], seated: threading.Event, timeout: float = 120.0
) -> list[str]:
    """Send what the recorded client sent; the messages that differ (at most a few).

    ``seated`` is set once the player number came (the next client may connect then).
    """
    diffs: list[str] = []
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    except OSError as exc:
        seated.set()
        return [f"no connection: {exc!r}"]
    try:
        for i, (way, kind, value) in enumerate(log):
            if i == 2:
                seated.set()
            if way == "send":
                sock.sendall(TABLE.pack(*(v for row in value for v in row)))
                continue
            size = 480 if kind == "T" else 4
            got = b""
            while len(got) < size:
                chunk = sock.recv(size - len(got))
                if not chunk:
                    diffs.append(f"message {i}: closed, expected {kind} {value}")
                    return diffs
                got += chunk
            if kind == "I":
                n = INT.unpack(got)[0]
                if n != value:
                    diffs.append(f"message {i}: int {n}, tndhms sent {value}")
            else:
                flat = TABLE.unpack(got)
                table = [list(flat[r * 15 : (r + 1) * 15]) for r in range(8)]
                if table != value:
                    cells = [
                        f"[{r}][{c}] {table[r][c]} (tndhms {value[r][c]})"
                        for r in range(8)
                        for c in range(15)
                        if table[r][c] != value[r][c]
                    ]
                    diffs.append(f"message {i}: table differs at " + ", ".join(cells))
            if len(diffs) >= 3:
                return diffs
    except (OSError, EOFError) as exc:
        diffs.append(f"stopped: {exc!r}")
    finally:
        seated.set()
        sock.close()
    return diffs


def run_replay(port: int, logs: list[list[Message]]) -> list[list[str]]:
    """Five replaying clients, connected in player order; each one's differences."""
    results: list[list[str]] = [[] for _ in logs]
    threads = []
    for p, log in enumerate(logs):
        seated = threading.Event()

        def go(p: int = p, log: list[Message] = log, seated: threading.Event = seated) -> None:
            results[p] = replay(port, log, seated)

        t = threading.Thread(target=go, daemon=True)
        t.start()
        threads.append(t)
        seated.wait(60)  # the server numbers its players in the order they come
    deadline = time.monotonic() + 300
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    return results
