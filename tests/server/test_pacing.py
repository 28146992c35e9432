"""Chance steps paced while people watch: a 10-card stud session is seen card by card, and the
next deal of a Daifugo set waits so that the end of the game before it is seen; a table nobody
watches is not slowed."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .checks import quick_rules
from .conftest import WS, LiveServer

PACE = 0.3
PAUSE = 1.2


@pytest.fixture
def paced(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(
        tmp_path / "data",
        rate=1000.0,
        burst=2000.0,
        limits={"reveal_pace": PACE, "deal_pause": PAUSE},
    )
    yield server
    server.stop()


def timed_events(ws: WS, table: str, timeout: float = 120) -> list[tuple[float, dict[str, object]]]:
    """Every event until the end, with when it arrived."""
    out = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        msg = ws.recv(timeout=max(0.1, deadline - time.monotonic()))
        if msg.get("table") != table:
            continue
        if msg["type"] == "event":
            out.append((time.monotonic(), msg))
        if msg["type"] == "end":
            return out
    raise AssertionError("the game did not end")


def test_a_watched_stud_session_shows_its_cards_one_by_one(paced: LiveServer) -> None:
    ann = paced.connect(paced.register("ann"))
    made = ann.request(
        {
            "type": "create_table",
            "game": "stud10",
            "rules": quick_rules("stud10"),
            "seats": ["me", *["bot:random"] * 4],
        }
    )
    assert made["type"] == "table", made
    table = str(made["table"]["id"])  # type: ignore[index]
    events = timed_events(ann, table)
    chance = [at for at, msg in events if msg["step"] == "chance"]
    assert len(chance) > 5
    gaps = sorted(b - a for a, b in itertools.pairwise(chance))
    # what arrives is paced as sent, give or take a busy machine's delays
    assert gaps[len(gaps) // 2] > PACE * 0.8, gaps
    assert chance[-1] - chance[0] > PACE * (len(chance) - 1) * 0.85


def test_the_next_deal_of_a_watched_set_waits_and_an_unwatched_table_does_not(
    paced: LiveServer,
) -> None:
    token = paced.register("ann")
    rules = {**quick_rules("daifugo"), "games": 3}
    made = httpx.post(
        f"{paced.http}/api/tables",
        json={"game": "daifugo", "rules": rules, "seats": ["bot:greedy"] * 4},
        headers={"authorization": f"Bearer {token}"},
        timeout=10,
    )
    table = made.json()["id"]
    watcher = paced.connect(None)
    watcher.request({"type": "spectate", "table": table})
    watcher.drain(quiet=0.05)  # what happened before it watched
    events = timed_events(watcher, table)
    pauses = []
    for (at, msg), (then, nxt) in itertools.pairwise(events):
        kinds = {e["kind"] for e in msg["events"]}  # type: ignore[attr-defined]
        if "game_end" in kinds and nxt["step"] == "chance":
            pauses.append(then - at)
    assert pauses and min(pauses) > PAUSE - 0.15, pauses
    # nobody watches: the same set runs without a pause
    started = time.monotonic()
    made = httpx.post(
        f"{paced.http}/api/tables",
        json={"game": "daifugo", "rules": rules, "seats": ["bot:greedy"] * 4},
        headers={"authorization": f"Bearer {token}"},
        timeout=10,
    )
    other = made.json()["id"]
    while httpx.get(f"{paced.http}/api/tables/{other}", timeout=10).json()["status"] != "finished":
        assert time.monotonic() - started < 60
        time.sleep(0.05)
    assert time.monotonic() - started < 2 * PAUSE + sum(pauses)
