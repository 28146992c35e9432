"""``dennou uecda-serve`` sends what the organisers' server (tndhms) sends, message for message.

Each fixture (``data/tndhms_*.txt.gz``, written by ``bench/uecda_tndhms.py record`` from a run
of tndhms v0.29 built from the public FujiGokoroUECda repository) holds every message five
scripted clients got from tndhms and sent to it in a set of 3 games, and the hands it dealt.
Here ``uecda-serve --deals`` deals the same hands, five clients send what those clients sent,
and every hand table, turn table, field table and int must be the one tndhms sent: the card
counts, the field, the flags, the classes row, the exchange phase, the 8/9 answers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import StartServe
from .tndhms_fixture import FIXTURES, read_fixture, run_replay


@pytest.mark.parametrize("fixture", sorted(FIXTURES), ids=lambda path: path.name.split(".")[0])
def test_uecda_serve_sends_every_message_tndhms_sent_on_the_same_deals(
    fixture: Path, uecda_serve: StartServe, tmp_path: Path
) -> None:
    deals, logs = read_fixture(fixture)
    deals_file = tmp_path / "deals.json"
    deals_file.write_text(json.dumps({"deals": deals}))
    server = uecda_serve(
        "--games", str(len(deals)), "--deals", str(deals_file), "--time-limit", "60"
    )
    differences = run_replay(server.port, logs)
    assert differences == [[]] * 5, differences
    assert server.wait() == 0


def test_the_fixtures_cover_exchanges_revolutions_locks_and_both_answers_to_a_pass() -> None:
    """What the comparison above is worth: the recorded sets exercise these."""
    logs = [log for fixture in FIXTURES for log in read_fixture(fixture)[1]]
    tables = [v for log in logs for way, kind, v in log if way == "recv" and kind == "T"]
    assert any(t[5][0] == 1 and t[5][1] == 2 for t in tables)  # 大富豪 gives 2 back
    assert any(t[5][6] for t in tables) and any(t[5][7] for t in tables)
    passes: dict[bool, set[Any]] = {}  # the answer to a pass, by whether the field was empty
    for log in logs:
        for i, (way, _kind, value) in enumerate(log):
            turn = log[i - 1][2]
            if way == "send" and i > 1 and turn[5][2] == 1 and not any(map(any, value[:5])):
                passes.setdefault(bool(turn[5][4]), set()).add(log[i + 1][2])
    assert passes == {True: {9}, False: {8}}
