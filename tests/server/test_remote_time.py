"""A remote seat's time is its own: from its turn to its answer's arrival, not the host's work.

A fresh host compiles an engine's native code on its first use (seconds, on a loaded machine a
minute or more); that work on a remote answer used to be counted as the seat's time, so a record
showed a first decision of 80 s that had arrived within half a second, and within the clock.
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from dennou.core import record as rec
from dennou.core.actions import Action
from dennou.core.game import Event, GameSpec, Seat
from dennou.core.registry import Registry
from dennou.server.testing import LiveServer
from tests.server.test_accounts import Pot, PotState

SLOW_APPLY = 2.0


class SlowPot(Pot):
    """Pot whose engine takes seconds on seat 0's move (a first use that compiles)."""

    spec = GameSpec("slowpot", "Slow pot", 1, 2, 2, simultaneous=True)

    def apply(self, state: PotState, seat: Seat, action: Action) -> tuple[PotState, list[Event]]:
        if seat == 0:
            time.sleep(SLOW_APPLY)
        return super().apply(state, seat, action)


SLOW = SlowPot()


def test_a_remote_decision_is_timed_to_its_arrival_not_the_host_applying_it(
    tmp_path: Path,
) -> None:
    live = LiveServer(tmp_path / "data", games=Registry({"slowpot": f"{__name__}:SLOW"}))
    try:
        ann = live.connect(live.register("ann"))
        ben = live.connect(live.register("ben"))
        made = ann.request({"type": "create_table", "game": "slowpot", "seats": ["me", "open"]})
        table = str(made["table"]["id"])  # type: ignore[index]
        ben.request({"type": "join", "table": table})
        ann.wait_for("turn", table=table)
        ben.wait_for("turn", table=table)
        ann.request({"type": "act", "table": table, "action": {"type": "bet", "amount": 10}})
        ben.request({"type": "act", "table": table, "action": {"type": "bet", "amount": 0}})
        ann.wait_for("end", table=table)
        reply = httpx.get(f"{live.http}/api/tables/{table}/record", timeout=10)
        [record] = rec.loads(reply.text)
        [mine] = [s for s in record.steps if s.seat == 0 and s.action is not None]
        assert mine.ms is not None and mine.ms < SLOW_APPLY * 1000 / 2, mine.ms
    finally:
        live.stop()
