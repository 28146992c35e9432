"""Protocol 20070 over real TCP on loopback (docs/games/daifugo.md, "UECda"; rules/uecda.md).

The server is ``dennou uecda-serve`` (or ``dennou serve --uecda-port``) as a subprocess; the
clients are :mod:`tests.uecda.raw_client` (written from the protocol description only) and
``dennou uecda-client``.
"""

from __future__ import annotations

import asyncio
import socket
import struct
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from dennou.client import run_bot
from dennou.core import record as rec
from dennou.games import get
from dennou.games.daifugo.bots import GreedyBot
from dennou.server.testing import ServerProcess, free_port
from dennou.store import Store, database_url

from . import raw_client
from .conftest import StartServe, wait_until


def _play(port: int, modes: list[str], timeout: float = 60.0) -> list[raw_client.Log]:
    with ThreadPoolExecutor(len(modes)) as pool:
        futures = [
            pool.submit(raw_client.run, port, f"raw{i}", i, mode, timeout)
            for i, mode in enumerate(modes)
        ]
        return [f.result(timeout=timeout + 30) for f in futures]


def _stored_record(data_dir: Path) -> rec.Record:
    store = Store(database_url(None, str(data_dir)))
    try:
        [row] = store.tables(["finished"], 10)
        record = store.record(row.id)
        assert record is not None
        return record
    finally:
        store.close()


def test_five_protocol_clients_play_a_whole_set(uecda_serve: StartServe, tmp_path: Path) -> None:
    """Handshake, hands (10/11/11/11/10 of 53 cards), turns, 9/8, field tables, 0/1/2."""
    server = uecda_serve("--games", "3")
    logs = _play(server.port, [""] * 5)
    assert sorted(log.player for log in logs) == [0, 1, 2, 3, 4]
    for log in logs:
        assert not log.error and log.games == 3, log
        assert log.ends[-1] == 2 and log.ends.count(1) == 2 and set(log.ends) <= {0, 1, 2}
    assert sorted(log.hands[0] for log in logs) == [10, 10, 11, 11, 11]
    answers = {k for log in logs for k in log.answers}
    assert answers == {8, 9}  # random singles: some accepted, some rejected (passes)
    assert server.wait() == 0
    points = server.standings()
    assert len(points) == 5 and sum(points.values()) == 3 * 15  # 5+4+3+2+1 a game
    record = _stored_record(tmp_path / "data")
    assert record.game == "daifugo" and record.rules["sequences"] and record.rules["jokers"] == 1
    game = get("daifugo")
    final = list(rec.replay(record, game))[-1].state
    assert game.is_over(final) and record.outcome is not None
    assert list(game.outcome(final).scores) == [points[p] for p in record.players]
    assert record.outcome["scores"] == [points[p] for p in record.players]
    # 8: a play refused (the rules' default, a pass), or a pass on a field with cards (as
    # tndhms answers); 9: cards played, or a pass on an empty field
    eights = 0
    before = None
    for frame in rec.replay(record, game):
        step = frame.step
        if step is not None and step.seat is not None and step.seat >= 0 and before is not None:
            passed = step.action is not None and step.action.get("type") == "pass"
            if step.default == "illegal" or (passed and before.phase == "play" and before.field):
                eights += 1
        before = frame.state
    assert eights == sum(log.answers.get(8, 0) for log in logs)


def test_dennou_bots_play_through_uecda_client(uecda_serve: StartServe) -> None:
    """``dennou uecda-client BOT`` against ``dennou uecda-serve``: five bots, a whole set.

    The server answers 8 to every pass on a field with cards, as tndhms does; a client counts
    as rejected only its plays of cards, so bots that play legally report 0.
    """
    server = uecda_serve("--games", "2")  # the second game begins with the exchange
    bots = ["random", "greedy", "montecarlo:playouts=20", "greedy", "random"]
    clients = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "dennou",
                "uecda-client",
                bot,
                "--port",
                str(server.port),
                "--name",
                f"b{i}",
                "--seed",
                str(i),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i, bot in enumerate(bots)
    ]
    said = [c.communicate(timeout=120) for c in clients]
    assert [c.returncode for c in clients] == [0] * 5, said
    assert server.wait() == 0
    standings = server.standings()
    for i, (out, _) in enumerate(said):
        assert "2 games" in out and "0 plays rejected" in out, out
        points = int(out.split(" points")[0].rsplit(" ", 1)[1])
        assert standings[f"uecda:b{i}"] == points  # the client's count is the server's


def test_a_client_killed_mid_game_passes_and_the_set_goes_on(
    uecda_serve: StartServe,
) -> None:
    server = uecda_serve("--games", "2", "--time-limit", "1")
    logs = _play(server.port, ["", "", "die", "", ""])
    alive = [log for i, log in enumerate(logs) if i != 2]
    assert all(log.games == 2 and log.ends[-1] == 2 for log in alive), alive
    assert server.wait() == 0
    assert "closed its socket" in server.err


def test_malformed_silent_and_garbage_clients_never_stop_the_server(
    uecda_serve: StartServe,
) -> None:
    """Wrong protocol, short profiles, garbage tables and a silent client: all answered as
    tndhms does (refused, rejected as a pass, dropped) while the table plays to its end."""
    server = uecda_serve("--games", "2", "--time-limit", "0.3")
    with socket.create_connection(("127.0.0.1", server.port)) as bad:  # wrong protocol
        bad.sendall(struct.pack(">120i", 20069, *[0] * 119))
        assert bad.recv(4) == b""  # closed, no player number
    with socket.create_connection(("127.0.0.1", server.port)) as short:
        short.sendall(b"\x00" * 100)  # a third of a profile, then gone
    logs = _play(server.port, ["garbage", "garbage", "silent", "", "garbage"], timeout=90)
    for i, log in enumerate(logs):
        if i != 2:
            assert log.games == 2 and log.ends[-1] == 2, log
    assert sum(log.answers.get(8, 0) for log in logs) > 0
    assert server.wait() == 0
    assert "protocol 20069" in server.err and "closed after 100 bytes" in server.err
    assert "malformed table" in server.err and "silent for" in server.err
    assert "refused:" in server.err  # well-formed plays of cards not held
    assert len(server.standings()) == 5


def test_the_host_seats_a_uecda_client_with_bots_at_a_table_people_watch(tmp_path: Path) -> None:
    """``dennou serve --uecda-port``: the table is an ordinary one (listed, recorded, replayed)."""
    port = free_port()
    args = ["--uecda-port", str(port), "--uecda-games", "2"]
    args += ["--uecda-bots", "greedy,random", "--uecda-fill-after", "0.3"]
    server = ServerProcess(tmp_path, args=args)
    server.start()
    try:
        [log] = _play(port, [""])
        assert log.games == 2 and log.ends[-1] == 2 and log.player == 0
        tables = httpx.get(server.http + "/api/tables", params={"game": "daifugo"}).json()
        [info] = tables["tables"]
        assert info["status"] == "finished"
        assert [s.get("name") or s.get("bot") for s in info["seats"]][:2] == [
            "uecda:raw0",
            "greedy",
        ]
        [record] = rec.loads(httpx.get(f"{server.http}/api/tables/{info['id']}/record").text)
        game = get("daifugo")
        assert game.is_over(list(rec.replay(record, game))[-1].state)
        assert record.rules["stalemate_passes"] == 20
    finally:
        server.stop()


def test_a_uecda_table_survives_a_killed_host(tmp_path: Path) -> None:
    """SIGKILL mid-set: every stored step is kept; after the restart the table resumes with its
    UECda seats absent (a dead client passes) and plays to its end."""
    port = free_port()
    args = ["--uecda-port", str(port), "--uecda-games", "50"]
    server = ServerProcess(tmp_path, limits={"absent_grace_default": 0.1}, args=args)
    server.start()
    try:
        with ThreadPoolExecutor(5) as pool:
            runs = [pool.submit(raw_client.run, port, f"k{i}", i, "", 60) for i in range(5)]

            def some_steps() -> bool:
                page = httpx.get(server.http + "/api/tables").json()["tables"]
                return bool(page) and page[0]["version"] > 40

            wait_until(some_steps)
            table = httpx.get(server.http + "/api/tables").json()["tables"][0]["id"]
            killed_at = httpx.get(f"{server.http}/api/tables/{table}").json()["version"]
            server.kill()
            logs = [r.result(timeout=60) for r in runs]
        assert all(log.error and log.games < 50 for log in logs)  # cut off, not finished
        server.start()

        def info() -> dict[str, Any]:
            found: dict[str, Any] = httpx.get(f"{server.http}/api/tables/{table}").json()
            return found

        # Every step stored before the kill is there; with every seat absent the resumed table
        # may already have played to its end by the time the restarted host answers.
        assert info()["version"] >= killed_at
        wait_until(lambda: info()["status"] == "finished", timeout=120)
        end = info()
        assert end["version"] > killed_at + 20
        assert len(end["outcome"]["detail"]["games"]) == 50
    finally:
        server.stop()


def test_uecda_clients_and_a_websocket_player_share_one_table(tmp_path: Path) -> None:
    """A person's (or a WebSocket bot's) seat and four UECda clients at one ordinary table."""
    port = free_port()
    server = ServerProcess(tmp_path, args=["--uecda-port", str(port), "--uecda-games", "2"])
    server.start()
    try:
        token = httpx.post(server.http + "/api/accounts", json={"name": "wendy"}).json()["token"]
        with ThreadPoolExecutor(5) as pool:
            first = pool.submit(raw_client.run, port, "first", 0, "", 60)
            wait_until(lambda: httpx.get(server.http + "/api/tables").json()["tables"])
            table = httpx.get(server.http + "/api/tables").json()["tables"][0]["id"]
            web = pool.submit(
                asyncio.run, run_bot(GreedyBot(), server.ws, token, table=table, seed=1)
            )
            wait_until(
                lambda: (
                    sum(
                        s["kind"] == "player"
                        for s in httpx.get(f"{server.http}/api/tables/{table}").json()["seats"]
                    )
                    == 2
                )
            )
            rest = [pool.submit(raw_client.run, port, f"r{i}", i, "", 60) for i in range(3)]
            logs = [first.result(90), *(r.result(90) for r in rest)]
            result = web.result(90)
        assert all(log.games == 2 and log.ends[-1] == 2 for log in logs), logs
        assert result.seat == 1 and result.outcome is not None
        info = httpx.get(f"{server.http}/api/tables/{table}").json()
        assert info["status"] == "finished"
        assert [s["name"] for s in info["seats"]][:2] == ["uecda:first", "wendy"]
    finally:
        server.stop()


def _sit(port: int, name: str, source: str = "127.0.0.1") -> tuple[socket.socket, int | None]:
    """Connect from ``source``, send a profile; the player number (``None``: closed, refused)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    profile = [0] * 120
    profile[0] = 20070
    for i, ch in enumerate(name.encode()[:14]):
        profile[15 + i] = ch
    sock.sendall(struct.pack(">120i", *profile))
    got = b""
    while len(got) < 4:
        chunk = sock.recv(4 - len(got))
        if not chunk:
            return sock, None
        got += chunk
    return sock, int(struct.unpack(">i", got)[0])


def _waiting(server: ServerProcess) -> list[dict[str, Any]]:
    page: list[dict[str, Any]] = httpx.get(
        server.http + "/api/tables", params={"status": "waiting"}, timeout=10
    ).json()["tables"]
    return page


def test_clients_that_leave_before_the_start_leave_no_table_waiting(tmp_path: Path) -> None:
    """300 connect/close cycles: each seat is given back at once, so no table is left waiting
    with seats of clients long gone (at most the one forming table stays, empty)."""
    port = free_port()
    server = ServerProcess(tmp_path, args=["--uecda-port", str(port)])
    server.start()
    try:
        for i in range(300):
            sock, seat = _sit(port, f"c{i}")
            assert seat is not None
            sock.close()

        def settled() -> bool:
            waiting = _waiting(server)
            return len(waiting) <= 1 and all(
                s["kind"] == "open" for t in waiting for s in t["seats"]
            )

        wait_until(settled, timeout=10)
        log = server.log.read_text(errors="replace")
        assert "left before the start" in log
    finally:
        server.stop()


def test_one_name_plays_at_one_table_at_a_time(tmp_path: Path) -> None:
    """Ten clients all named ``same`` make two tables: every seat has its own name (``same``,
    ``same.2`` ... ``same.10``), never the same name at two tables at once."""
    port = free_port()
    server = ServerProcess(tmp_path, args=["--uecda-port", str(port), "--uecda-games", "1"])
    server.start()
    try:
        with ThreadPoolExecutor(10) as pool:
            runs = [pool.submit(raw_client.run, port, "same", i, "", 60) for i in range(10)]
            logs = [r.result(timeout=90) for r in runs]
        assert all(log.games == 1 for log in logs), logs
        tables = httpx.get(server.http + "/api/tables", timeout=10).json()["tables"]
        assert len(tables) == 2
        names = [s["name"] for t in tables for s in t["seats"]]
        assert sorted(names) == sorted(
            ["uecda:same", *(f"uecda:same.{k}" for k in range(2, 11))]
        ), names
    finally:
        server.stop()


def test_one_address_holds_seats_at_a_bounded_number_of_forming_tables(tmp_path: Path) -> None:
    """``uecda_tables_per_address``: a client that would put its address at one more table not
    yet started is closed unseated; another address is still seated. The full table, once its
    UECda client leaves it last, is closed (it is not the one forming any more)."""
    port = free_port()
    server = ServerProcess(
        tmp_path,
        limits={"uecda_tables_per_address": 1, "absent_grace_default": 60},
        args=["--uecda-port", str(port)],
    )
    server.start()
    socks: list[socket.socket] = []
    try:
        first, seat = _sit(port, "x1")
        socks.append(first)
        assert seat == 0
        [table] = _waiting(server)
        tokens = [server.register(name) for name in ("ann", "ben", "cat", "dan")]
        for token in tokens:  # the other seats, taken over HTTP: full
            joined = httpx.post(
                f"{server.http}/api/tables/{table['id']}/join",
                json={},
                headers={"authorization": f"Bearer {token}"},
                timeout=10,
            )
            assert joined.status_code == 200, joined.text
        second, seat = _sit(port, "x2")  # a second forming table for 127.0.0.1: refused
        socks.append(second)
        assert seat is None
        other, seat = _sit(port, "y", source="127.0.0.2")
        socks.append(other)
        assert seat == 0  # seated at a new table
        assert "uecda_tables_per_address" in server.log.read_text(errors="replace")
        for token in tokens:
            left = httpx.post(
                f"{server.http}/api/tables/{table['id']}/leave",
                headers={"authorization": f"Bearer {token}"},
                timeout=10,
            )
            assert left.status_code == 200, left.text
        first.close()

        def closed() -> bool:
            info = httpx.get(f"{server.http}/api/tables/{table['id']}", timeout=10).json()
            return bool(info["status"] == "aborted")

        wait_until(closed, timeout=10)
        assert [t["seats"][0]["name"] for t in _waiting(server)] == ["uecda:y"]
    finally:
        for sock in socks:
            sock.close()
        server.stop()


def test_uecda_serve_refuses_a_limit_it_does_not_know_before_it_listens(tmp_path: Path) -> None:
    """``--limit NAME=VALUE`` takes the host's limits; an unknown one is refused at once."""
    done = subprocess.run(
        [sys.executable, "-m", "dennou", "uecda-serve", "--port", "0", "--limit", "pace=0"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "--limit" in done.stderr, done.stderr
    assert "unknown" in done.stderr and "pace" in done.stderr, done.stderr
    assert not (tmp_path / "data").exists(), "it stopped before opening a store"


def test_uecda_serve_deals_unpaced_unless_the_operator_sets_a_pause() -> None:
    """Nobody can watch ``uecda-serve``'s tables (no web app): no pause between deals or before
    chance steps by default (docs/games/daifugo.md), and ``--limit`` still sets one."""
    from dennou.server.limits import Limits
    from dennou.uecda.cli import serve_limits

    default = serve_limits([])
    assert (default.deal_pause, default.reveal_pace) == (0, 0)
    assert Limits().deal_pause > 0  # the host's own tables keep theirs
    assert serve_limits(["deal_pause=4"]).deal_pause == 4
