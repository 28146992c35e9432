"""A table's time bank: seconds each seat may spend beyond its decisions' clocks, over the whole
table, kept and enforced by the host (a client's word on time counts for nothing)."""

from __future__ import annotations

import time

from .conftest import WS, LiveServer

CLOCK = 0.4
BANK = 1.0


def my_turn(ws: WS, table: str) -> dict[str, object]:
    """ann's next turn (the bot's moves meanwhile are dropped)."""
    return ws.wait_for("turn", table=table, seat=0)


def test_a_decision_past_its_clock_draws_on_the_bank_and_the_host_defaults_when_it_is_spent(
    live: LiveServer,
) -> None:
    ann = live.connect(live.register("ann"))
    made = ann.request(
        {
            "type": "create_table",
            "game": "numeron",
            "seats": ["me", "bot:random"],
            "options": {"time_limit": CLOCK, "time_bank": BANK},
        }
    )
    table = str(made["table"]["id"])  # type: ignore[index]
    assert made["table"]["time_bank"] == BANK  # type: ignore[index]
    turn = my_turn(ann, table)
    assert turn["time_bank"] == BANK
    assert CLOCK < float(turn["time_limit"]) <= CLOCK + BANK  # type: ignore[arg-type]
    # past the clock, within the bank: accepted, and 0.5 s comes out of the bank
    time.sleep(CLOCK + 0.5)
    reply = ann.request({"type": "act", "table": table, "action": "set 012"})
    assert reply["type"] != "error", reply
    turn = my_turn(ann, table)
    left = float(turn["time_bank"])  # type: ignore[arg-type]
    assert BANK - 0.5 - 0.2 < left <= BANK - 0.5 + 0.01, left
    # nothing sent: the host defaults it once the clock and the rest of the bank are gone
    started = time.monotonic()
    event = ann.wait_for("event", table=table, step="default", seat=0, timeout=10)
    waited = time.monotonic() - started
    assert event["reason"] == "timeout"
    assert CLOCK + left - 0.15 < waited < CLOCK + left + 1.5, waited
    # the bank is spent: the next decision has the bare clock
    turn = my_turn(ann, table)
    assert turn["time_bank"] == 0
    assert float(turn["time_limit"]) <= CLOCK  # type: ignore[arg-type]


def test_time_bank_is_bounded_and_shown(live: LiveServer) -> None:
    ann = live.connect(live.register("ann"))
    for bank, code in ((-1, "bad_message"), (1e300, "bad_message"), (7200, "config")):
        options = {"time_bank": bank}
        reply = ann.request({"type": "create_table", "game": "numeron", "options": options})
        assert reply["type"] == "error" and reply["code"] == code, (bank, reply)
    made = ann.request({"type": "create_table", "game": "numeron", "options": {"time_bank": 300}})[
        "table"
    ]
    assert made["time_bank"] == 300  # type: ignore[index]
    listed = ann.request({"type": "list_tables"})["tables"][0]  # type: ignore[index]
    assert listed["time_bank"] == 300
    plain = ann.request({"type": "create_table", "game": "numeron"})["table"]
    assert plain["time_bank"] == 0  # type: ignore[index]
