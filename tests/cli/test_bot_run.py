"""``dennou bot run`` against a real host.

It checks the bot against the game before it takes a seat, says what it is doing, fails in one
line when there is no server, and gives the seat back when stopped before the game begins.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from dennou.server.testing import ServerProcess, free_port
from tests.cli.run import BIN, ROOT, dennou, environment, interruptible


@pytest.fixture
def host(tmp_path: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path / "data")
    server.start()
    yield server
    server.stop()


def make_table(host: ServerProcess, token: str, game: str, seats: list[str]) -> str:
    reply = httpx.post(
        f"{host.http}/api/tables",
        headers={"authorization": f"Bearer {token}"},
        json={"game": game, "seats": seats},
        timeout=10,
    )
    assert reply.status_code in (200, 201), reply.text
    return str(reply.json()["id"])


def table_info(host: ServerProcess, table: str) -> dict[str, Any]:
    info: dict[str, Any] = httpx.get(f"{host.http}/api/tables/{table}", timeout=10).json()
    return info


def tables(host: ServerProcess) -> list[dict[str, Any]]:
    page: dict[str, Any] = httpx.get(f"{host.http}/api/tables", timeout=10).json()
    assert page["next"] is None, "one page is enough here"
    found: list[dict[str, Any]] = page["tables"]
    return found


def history(host: ServerProcess, account: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = httpx.get(
        f"{host.http}/api/accounts/{account}", timeout=10
    ).json()["history"]
    return found


class BotProcess:
    """``dennou bot run`` in the background; its output read by a thread, line by line."""

    def __init__(self, host: ServerProcess, token: str, *args: str, path: str = "") -> None:
        extra = {"DENNOU_TOKEN": token} | ({"PYTHONPATH": path} if path else {})
        self.proc = subprocess.Popen(
            [str(BIN / "dennou"), "bot", "run", *args, "--server", host.ws],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=environment(extra),
            preexec_fn=interruptible,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        with self.proc.stdout as out:  # closed at the end of the output, not left to the collector
            for line in out:
                self.lines.put(line.rstrip())
        self.lines.put(None)

    def read_until(self, text: str, timeout: float = 60) -> list[str]:
        """Lines printed up to one containing ``text``."""
        seen: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no line with {text!r} in {timeout:g} s: {seen}") from None
            if line is None:
                raise AssertionError(f"exited without a line with {text!r}: {seen}")
            seen.append(line)
            if text in line:
                return seen

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        self.reader.join(10)


def wait_for(check: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:g} s: {what}")
        time.sleep(0.2)


def test_a_bot_that_cannot_play_the_game_takes_no_seat(host: ServerProcess) -> None:
    token = host.register("ann")
    table = make_table(host, token, "daifugo", ["open", "bot:greedy", "bot:random"])
    for target in ("solver", "dennou.games.numeron.solver:SolverBot"):
        done = dennou(
            "bot",
            "run",
            target,
            "--join",
            "daifugo",
            "--server",
            host.ws,
            env={"DENNOU_TOKEN": token},
        )
        assert done.returncode == 2, done.stdout + done.stderr
        assert "Traceback" not in done.stderr and done.stderr.startswith("error: ")
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "daifugo" in done.stderr
    info = table_info(host, table)
    assert info["status"] == "waiting" and info["seats"][0]["kind"] == "open"
    assert len(tables(host)) == 1  # nor did it open a table of its own
    done = dennou(
        "bot",
        "run",
        "random",
        "--table",
        "tnothing",
        "--server",
        host.ws,
        env={"DENNOU_TOKEN": token},
    )
    assert done.returncode == 2 and done.stderr == f"error: no table 'tnothing' on {host.ws}\n"


def test_it_says_where_it_waits_what_it_plays_and_the_result(host: ServerProcess) -> None:
    tokens = [host.register("ann"), host.register("ben")]
    table = make_table(host, tokens[0], "numeron", ["open", "open"])
    first = BotProcess(host, tokens[0], "random", "--table", table, "--seed", "1")
    try:
        waiting = first.read_until("waiting at table")
        assert f"waiting at table {table} (numeron): 1 of 2 seats taken, 1 open" in waiting[-1]
        second = dennou(
            "bot",
            "run",
            "solver",
            "--table",
            table,
            "--server",
            host.ws,
            env={"DENNOU_TOKEN": tokens[1]},
            timeout=300,
        )
        assert second.returncode == 0, second.stdout + second.stderr
        out = second.stdout
        assert f"playing numeron at table {table} as seat 1 (seats: 0 ann, 1 ben)" in out
        # the solver nearly always wins, but a random caller may hit first (about 1 game in
        # 100): the two results must agree, whoever won
        won = re.search(r"result: rank ([12]) of 2, score ([0-9.]+) \(record: (\S+)\)", out)
        assert won is not None and won[3].endswith(f"/api/tables/{table}/record"), out
        rest = first.read_until("result:")
        assert any("playing numeron" in line for line in rest)
        assert f"result: rank {3 - int(won[1])} of 2" in rest[-1], rest
        assert first.proc.wait(30) == 0
    finally:
        first.stop()


def test_no_server_is_one_line_not_a_traceback() -> None:
    url = f"ws://127.0.0.1:{free_port()}/ws"
    done = dennou("bot", "run", "random", "--join", "numeron", "--token", "x", "--server", url)
    assert done.returncode == 2
    assert "Traceback" not in done.stdout + done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith(f"error: cannot reach a dennou server at {url}")
    assert "dennou serve" in line


def test_ctrl_c_while_waiting_gives_the_seat_back(host: ServerProcess) -> None:
    token = host.register("ann")
    table = make_table(host, token, "hilo", ["open", "open"])
    bot = BotProcess(host, token, "random", "--table", table)
    try:
        bot.read_until("waiting at table")
        assert table_info(host, table)["seats"][0]["name"] == "ann"
        bot.proc.send_signal(signal.SIGINT)
        assert bot.proc.wait(60) == 130  # generous: a loaded CI machine is slow
        seats = table_info(host, table)["seats"]
        assert [s["kind"] for s in seats] == ["open", "open"]
    finally:
        bot.stop()


# --- a seat abandoned before the start is given back ----------------------------------------
def test_a_bot_playing_its_fallback_while_its_code_compiles_says_so(host: ServerProcess) -> None:
    token = host.register("ann")
    table = make_table(host, token, "numeron", ["open", "bot:random"])
    path = os.pathsep.join([str(ROOT / "src"), str(ROOT)])
    bot = BotProcess(
        host, token, "tests.cli.slow_native_bot:SlowNativeBot", "--table", table, path=path
    )
    try:
        said = bot.read_until("compiling the slow test code")[-1]
        assert said == (
            "compiling the slow test code in the background (`dennou warm` does it ahead); "
            "playing the fallback meanwhile"
        )
        bot.read_until("playing numeron at table")
    finally:
        bot.stop()


def test_ctrl_c_before_the_game_closes_the_table_it_opened_when_nobody_else_sits(
    host: ServerProcess,
) -> None:
    token = host.register("ann")
    bot = BotProcess(host, token, "random", "--join", "hilo")
    try:
        [line] = [x for x in bot.read_until("waiting at table") if "waiting at table" in x]
        table = line.split()[3]
        assert table_info(host, table)["status"] == "waiting"
        bot.proc.send_signal(signal.SIGINT)
        assert bot.proc.wait(60) == 130
        assert table_info(host, table)["status"] == "aborted"
        assert [t["id"] for t in tables(host) if t["status"] == "waiting"] == []
    finally:
        bot.stop()


def test_ctrl_c_before_the_game_keeps_the_table_waiting_for_the_others_seated(
    host: ServerProcess,
) -> None:
    tokens = [host.register("ann"), host.register("ben")]
    table = make_table(host, tokens[0], "daifugo", ["open", "open", "open"])
    ann = BotProcess(host, tokens[0], "random", "--table", table)
    ben = None
    try:
        ann.read_until("waiting at table")
        ben = BotProcess(host, tokens[1], "random", "--table", table)
        ben.read_until("2 of 3 seats taken")
        ann.proc.send_signal(signal.SIGINT)
        assert ann.proc.wait(60) == 130
        info = table_info(host, table)
        assert info["status"] == "waiting"
        assert [s.get("name") for s in info["seats"] if s["kind"] == "player"] == ["ben"]
    finally:
        ann.stop()
        if ben is not None:
            ben.stop()


# --- issue 12.14: a seat abandoned before the start is given back --------------------------


def test_a_killed_bot_seat_is_released_before_the_start(host: ServerProcess) -> None:
    tokens = [host.register("ann"), host.register("ben")]
    table = make_table(host, tokens[0], "numeron", ["open", "open"])
    bot = BotProcess(host, tokens[0], "random", "--table", table)
    bot.read_until("waiting at table")
    bot.proc.send_signal(signal.SIGKILL)  # no chance to say goodbye
    bot.proc.wait(10)
    try:
        wait_for(
            lambda: table_info(host, table)["seats"][0]["kind"] == "open",
            timeout=20,
            what="the dead bot's seat is open again",
        )
    finally:
        bot.stop()
    ben = BotProcess(host, tokens[1], "random", "--table", table)
    try:  # ben waits for a real opponent: he does not win against a seat nobody holds
        ben.read_until("waiting at table")
        assert table_info(host, table)["status"] == "waiting"
    finally:
        ben.stop()
    assert history(host, "ann") == []


def test_nobody_history_gets_a_game_nobody_played(host: ServerProcess) -> None:
    """A seat taken over HTTP and never played: the table does not play itself to a result."""
    token = host.register("ann")
    reply = httpx.post(
        f"{host.http}/api/tables",
        headers={"authorization": f"Bearer {token}"},
        json={"game": "numeron", "seats": ["open", "bot:random"], "options": {"absent_grace": 1}},
        timeout=10,
    )
    assert reply.status_code in (200, 201), reply.text
    table = str(reply.json()["id"])
    joined = httpx.post(
        f"{host.http}/api/tables/{table}/join",
        headers={"authorization": f"Bearer {token}"},
        json={},
        timeout=10,
    )
    assert joined.status_code == 200, joined.text
    time.sleep(4)  # past the absent grace (1 s): a game with ann away would be over by now
    assert history(host, "ann") == []
    assert table_info(host, table)["status"] != "finished"
