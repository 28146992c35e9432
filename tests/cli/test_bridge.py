"""The engine bridge: programs in C and Java play over JSON lines, on a real host and locally.

The example bots (examples/bridge/) are built with their own build commands, then play Daifugo
sets and Numeron games to the end on a real ``dennou serve`` (``dennou bot run --cmd``) and in
a local match and tournament (``cmd:`` entrants). Programs that crash, hang or write garbage get
the rules' default, and the next game starts them afresh. A host never runs a command.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from dennou.arena.bridge import MAX_LINE, MAX_UNASKED, CommandBot
from dennou.arena.entrants import Entrant, check_entrant
from dennou.arena.match import run_match
from dennou.core.errors import ConfigError
from dennou.core.record import Record, loads
from dennou.games import get
from dennou.server.testing import ServerProcess
from tests.cli.run import BIN, ROOT, dennou, environment

EXAMPLES = ROOT / "examples" / "bridge"
REQUIRED = os.environ.get("DENNOU_REQUIRE_COMPILERS") == "1"
"""CI sets it: a missing compiler fails these tests instead of skipping them."""


def need(program: str) -> None:
    if shutil.which(program) is None:
        if REQUIRED:
            pytest.fail(f"{program} is needed (DENNOU_REQUIRE_COMPILERS=1)")
        pytest.skip(f"no {program}")


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The C example, built as its README says; the command that runs it."""
    need("cc")
    out = tmp_path_factory.mktemp("c") / "bot"
    subprocess.run(["cc", "-O2", "-o", str(out), str(EXAMPLES / "c" / "bot.c")], check=True)
    return str(out)


@pytest.fixture(scope="module")
def java_bot(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Java example, built as its README says; the command that runs it."""
    need("javac")
    need("java")
    out = tmp_path_factory.mktemp("java")
    subprocess.run(["javac", "-d", str(out), str(EXAMPLES / "java" / "Bot.java")], check=True)
    return f"java -cp {out} Bot"


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path_factory.mktemp("host") / "data")
    server.start()
    yield server
    server.stop()


def make_table(
    host: ServerProcess, token: str, game: str, seats: list[str], rules: dict[str, Any]
) -> httpx.Response:
    return httpx.post(
        f"{host.http}/api/tables",
        headers={"authorization": f"Bearer {token}"},
        json={"game": game, "seats": seats, "rules": rules},
        timeout=10,
    )


def start_bot_run(host: ServerProcess, token: str, cmd: str, table: str) -> subprocess.Popen[str]:

    return subprocess.Popen(
        [str(BIN / "dennou"), "bot", "run", "--cmd", cmd, "--table", table, "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment({"DENNOU_TOKEN": token, "DENNOU_SERVER": host.ws}),
    )


def finish(proc: subprocess.Popen[str], timeout: float = 240) -> dict[str, Any]:
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"bot run did not finish: {out} {err}") from None
    assert proc.returncode == 0, out + err
    line: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return line


def record_of(host: ServerProcess, table: str) -> Record:
    reply = httpx.get(f"{host.http}/api/tables/{table}/record", timeout=10)
    assert reply.status_code == 200, reply.text
    [record] = loads(reply.text)
    return record


def test_c_and_java_programs_play_daifugo_and_numeron_to_the_end_on_a_real_host(
    host: ServerProcess, c_bot: str, java_bot: str
) -> None:
    tokens = {name: host.register(name) for name in ("cbot", "javabot")}
    daifugo = make_table(
        host, tokens["cbot"], "daifugo", ["open", "open", "bot:random"], {"games": 2}
    )
    numeron = make_table(host, tokens["cbot"], "numeron", ["open", "open"], {})
    assert daifugo.status_code == 201 and numeron.status_code == 201
    tables = {"daifugo": daifugo.json()["id"], "numeron": numeron.json()["id"]}
    runs = [
        (game, start_bot_run(host, tokens[who], cmd, tables[game]))
        for game in tables
        for who, cmd in (("cbot", c_bot), ("javabot", java_bot))
    ]
    results = [(game, finish(proc)) for game, proc in runs]
    for game, result in results:
        assert result["table"] == tables[game] and result["outcome"]["ranks"], result
    for game, table in tables.items():
        record = record_of(host, table)
        assert record.outcome is not None
        players = {record.players.index(name) for name in ("cbot", "javabot")}
        # every decision of both programs was theirs: none defaulted
        assert [s for s in record.steps if s.seat in players and s.default] == [], game
        if game == "daifugo":  # the whole set: two deals
            deals = [s for s in record.steps if s.action and s.action.get("type") == "deal"]
            assert len(deals) == 2


def test_c_and_java_programs_play_a_host_tournament_with_bot_run_tournament(
    host: ServerProcess, c_bot: str, java_bot: str
) -> None:
    tokens = {name: host.register(name) for name in ("olga", "ctour", "javatour")}
    body = {
        "game": "numeron",
        "entrants": ["@ctour", "@javatour"],
        "games": 1,
        "options": {"tables": 2, "absent_grace": 60},
        "start": True,
    }
    created = httpx.post(
        f"{host.http}/api/tournaments",
        headers={"authorization": f"Bearer {tokens['olga']}"},
        json=body,
        timeout=10,
    )
    assert created.status_code == 201, created.text
    tid = created.json()["id"]

    def accepted(who: str) -> bool:
        info = httpx.get(f"{host.http}/api/tournaments/{tid}", timeout=10).json()
        return bool(info["invitations"].get(who) == "accepted")

    runs = []
    for who, cmd in (("ctour", c_bot), ("javatour", java_bot)):
        runs.append(
            subprocess.Popen(
                [str(BIN / "dennou"), "bot", "run", "--cmd", cmd, "--tournament", tid],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=environment({"DENNOU_TOKEN": tokens[who], "DENNOU_SERVER": host.ws}),
            )
        )
        # one acceptance at a time: two at the same moment can lose one (the host writes the
        # invitations it read before the other's write landed)
        waited = time.monotonic() + 60
        while not accepted(who) and time.monotonic() < waited:
            time.sleep(0.1)
    for proc in runs:
        try:
            out, err = proc.communicate(timeout=240)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            info = httpx.get(f"{host.http}/api/tournaments/{tid}", timeout=10).text
            raise AssertionError(f"not over: {info}\n{out}\n{err}") from None
        assert proc.returncode == 0, out + err
        assert len(out.strip().splitlines()) >= 1, out  # one JSON line per table played
    standings = httpx.get(f"{host.http}/api/tournaments/{tid}/standings", timeout=10).json()
    rows = {row["name"]: row for row in standings["standings"]}
    assert standings["complete"] and rows["ctour"]["defaults"] == rows["javatour"]["defaults"] == 0


def test_on_a_host_a_crashed_program_gets_the_default_when_the_clock_runs_out(
    host: ServerProcess, tmp_path: Path
) -> None:
    token = host.register("crasher")
    reply = httpx.post(
        f"{host.http}/api/tables",
        headers={"authorization": f"Bearer {token}"},
        json={"game": "numeron", "seats": ["open", "bot:random"], "options": {"time_limit": 1}},
        timeout=10,
    )
    assert reply.status_code == 201, reply.text
    table = reply.json()["id"]
    # a first run answers the trial decision before the seat is taken; the game's run crashes
    cmd = program(tmp_path, "crash", "sys.exit(3) if turns == 2 else None")  # at its 2nd turn
    result = finish(start_bot_run(host, token, cmd, table), timeout=120)
    assert result["outcome"]["ranks"], result
    record = record_of(host, table)
    mine = [s for s in record.steps if s.seat == 0 and s.default is not None]
    assert mine and {s.default for s in mine} == {"timeout"}, mine
    assert starts(tmp_path, "crash") == 2  # the trial, then the game


def test_the_host_never_runs_a_command(host: ServerProcess, tmp_path: Path) -> None:
    token = host.register("mallory")
    marker = tmp_path / "ran"
    seats = ["open", f"bot:cmd:touch {marker}"]
    reply = make_table(host, token, "numeron", seats, {})
    assert reply.status_code == 400 and "only on your machine" in reply.text
    assert not marker.exists()
    # nor may a host tournament name a command as an entrant
    with pytest.raises(ConfigError, match="never runs a command"):
        check_entrant(get("numeron"), Entrant("x", f"cmd:touch {marker}"), remote_ok=True)
    assert not marker.exists()


def test_local_match_and_tournament_play_programs_as_cmd_entrants(
    c_bot: str, java_bot: str, tmp_path: Path
) -> None:
    done = dennou(
        "match", "numeron", "--bots", f"cmd:{c_bot},cmd:{java_bot}", "--games", "2", "--json"
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [b["defaults"] for b in result["bots"]] == [0, 0], result
    assert sum(b["wins"] + b["losses"] + b["draws"] for b in result["bots"]) == 4
    out = tmp_path / "tour"
    done = dennou(
        "tournament",
        "daifugo",
        "--entrants",
        f"c=cmd:{c_bot},java=cmd:{java_bot},random,greedy",
        "--seats",
        "4",
        "--games",
        "1",
        "--rules",
        "games=2",
        "--workers",
        "2",
        "--out",
        str(out),
        timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    standings = json.loads((out / "standings.json").read_text())
    rows = {row["name"]: row for row in standings["standings"]}
    assert rows["c"]["games"] == rows["java"]["games"] == rows["random"]["games"] >= 2, rows
    assert rows["c"]["defaults"] == 0 and rows["java"]["defaults"] == 0, rows


# --- programs that misbehave: written in Python here, run like any program ------------------
def program(tmp_path: Path, name: str, body: str) -> str:
    """A Python program that logs each start and answers every turn; ``body`` runs before.

    ``body`` sees ``msg`` (the turn), ``turns`` (how many so far) and ``answer`` (the line it
    will write).
    """
    path = tmp_path / f"{name}.py"
    starts = tmp_path / f"{name}.starts"
    lines = [
        "import json, sys, time",
        f"open({str(starts)!r}, 'a').write('start\\n')",
        "turns = 0",
        "for line in sys.stdin:",
        "    msg = json.loads(line)",
        "    if msg['type'] == 'quit':",
        "        break",
        "    if msg['type'] != 'turn':",
        "        continue",
        "    turns += 1",
        "    answer = {'action': (msg['legal'] or msg['legal_sample'])[0]}",
        f"    {body or 'pass'}",
        "    print(json.dumps(answer), flush=True)",
    ]
    path.write_text("\n".join(lines) + "\n")
    return f"{sys.executable} {path}"


def numeron_games(cmd: str, games: int = 2) -> list[Record]:
    game = get("numeron")
    return run_match(game, None, [f"cmd:{cmd}", "random"], games, 7, rotate=False, time_limit=1.0)


def starts(tmp_path: Path, name: str) -> int:
    return len((tmp_path / f"{name}.starts").read_text().splitlines())


@pytest.mark.parametrize(
    ("name", "body", "reason", "note"),
    [
        ("crash", "sys.exit(3) if turns == 2 else None", "error", "exited (code 3)"),
        ("hang", "time.sleep(30) if turns == 2 else None", "timeout", "before the clock ran out"),
        ("garbage", "print('e2e4') if turns == 2 else None", "error", "not an action"),
    ],
)
def test_a_program_that_fails_a_decision_gets_the_default_and_restarts_next_game(
    tmp_path: Path, name: str, body: str, reason: str, note: str
) -> None:
    records = numeron_games(program(tmp_path, name, body))
    assert all(r.outcome is not None for r in records)  # each game went on to its end
    for record in records:
        defaults = [s for s in record.steps if s.seat == 0 and s.default is not None]
        first = defaults[0]
        assert first.default == reason and note in (first.note or ""), first
    assert starts(tmp_path, name) == 2  # started afresh for the second game


def test_a_program_talks_with_its_answer_where_the_turn_opens_a_channel(tmp_path: Path) -> None:
    body = "answer['say'] = {'channel': 'public', 'text': 'gl hf'} if turns == 1 else None"
    [record] = numeron_games(program(tmp_path, "talker", body), games=1)
    lines = [s.talk for s in record.steps if s.talk is not None]
    assert lines and (lines[0].channel, lines[0].text) == ("public", "gl hf")
    assert next(s.seat for s in record.steps if s.talk is not None) == 0


def test_a_line_longer_than_the_bound_stops_the_program(tmp_path: Path) -> None:
    body = f"print('x' * {MAX_LINE + 10}, flush=True) if turns == 1 else None"
    [record] = numeron_games(program(tmp_path, "long", body), games=1)
    first = next(s for s in record.steps if s.seat == 0 and s.default is not None)
    assert first.default == "error" and "longer than" in (first.note or "")


def test_a_program_flooding_lines_nobody_asked_for_is_stopped(tmp_path: Path) -> None:
    flood = tmp_path / "flood.py"
    lines = MAX_UNASKED // 1_000_000 + 8
    flood.write_text(
        f"import time\nfor _ in range({lines}): print('x' * 1_000_000)\ntime.sleep(60)\n"
    )
    numeron = get("numeron")
    bot = CommandBot(f"{sys.executable} {flood}", numeron)
    bot.reset(seat=0, rules=numeron.make_rules(), players=["a", "b"])
    proc = bot._proc
    assert proc is not None
    deadline = time.monotonic() + 30
    while proc.failed is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.failed is not None and "nobody asked for" in proc.failed
    assert proc.proc is not None and proc.proc.poll() is not None  # stopped, not left running
    bot.end(None)


def test_a_command_bot_stops_its_program_when_the_game_ends(tmp_path: Path) -> None:
    bot = CommandBot(program(tmp_path, "ends", ""), get("numeron"))
    run_match(get("numeron"), None, ["random", "random"], 1, 1)  # warm the game up
    from dennou.arena.play import play

    play(get("numeron"), None, [bot, get("numeron").bots()["random"]()], 3)
    assert bot._proc is None and starts(tmp_path, "ends") == 1


def test_a_missing_program_is_refused_before_any_game() -> None:
    done = dennou("match", "numeron", "--bots", "cmd:./no-such-bot,random", "--games", "1")
    assert done.returncode != 0 and "no-such-bot" in done.stderr + done.stdout
