"""The command line end to end: games, match, replay, play (through typer's runner)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from dennou.cli import app
from dennou.games.numeron.state import all_numbers

runner = CliRunner()


def test_games_lists_options_and_defaults() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    assert "numeron" in result.output and "daifugo" in result.output
    result = runner.invoke(app, ["games", "numeron"])
    assert result.exit_code == 0, result.output
    assert "digits" in result.output and "equal_turns" in result.output


def test_match_then_replay(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    result = runner.invoke(
        app,
        [
            "match",
            "numeron",
            "--bots",
            "random,random",
            "--games",
            "3",
            "--seed",
            "4",
            "--rules",
            "digits=3",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output and "random" in result.output
    lines = out.read_text().splitlines()
    assert sum(json.loads(line)["type"] == "header" for line in lines) == 3
    spectator = runner.invoke(app, ["replay", str(out), "--game", "0"])
    assert spectator.exit_code == 0, spectator.output
    assert "result" in spectator.output
    seat = runner.invoke(app, ["replay", str(out), "--game", "0", "--seat", "1"])
    assert seat.exit_code == 0, seat.output
    assert len(seat.output) > len(spectator.output)  # the seat also saw its own cards


def test_play_drives_a_game_through_its_input(tmp_path: Path) -> None:
    out = tmp_path / "p.jsonl"
    # bad input of every kind first, then a legal game: the human calls every number in turn.
    lines = ["", "help", "set 11", "flip 123", "{", "say hello", "set 012"]
    lines += [f"call {n}" for n in all_numbers(3)]  # the game ends before these run out
    result = runner.invoke(
        app,
        [
            "play",
            "numeron",
            "--vs",
            "random",
            "--seed",
            "2",
            "--rules",
            "first=seat0",
            "--out",
            str(out),
        ],
        input="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    out_text = result.output
    assert "3 distinct digits 0-9" in out_text
    assert "unknown word 'flip'" in out_text
    assert "malformed JSON" in out_text
    assert "(said in public)" in out_text
    assert "Traceback" not in out_text
    assert out.exists() and "result" in out_text


def test_play_quits_cleanly_on_end_of_input() -> None:
    result = runner.invoke(app, ["play", "numeron", "--vs", "random", "--seed", "1"], input="")
    assert result.exit_code == 0 and "bye" in result.output


def test_errors_are_messages_not_tracebacks() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "dennou", "match", "chess", "--bots", "random,random"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": "src", "PATH": ""},
        check=False,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("error: unknown game 'chess'") and "Traceback" not in proc.stderr
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "dennou",
            "match",
            "numeron",
            "--bots",
            "random,random",
            "--rules",
            "digits=9",
        ],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": "src", "PATH": ""},
        check=False,
    )
    assert proc.returncode == 2 and "invalid rules" in proc.stderr


def test_the_command_line_starts_without_the_host_or_the_engines() -> None:
    # `dennou --help`, `dennou games` and the clients should not wait for the web app, the store
    # or compiled engines: they load with the command that needs them.
    heavy = ("dennou.server.app", "starlette", "sqlalchemy", "numba", "dennou.games.daifugo")
    probe = f"import sys, dennou.cli; print([m for m in {heavy!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_reading_a_game_s_options_loads_no_store() -> None:
    """``dennou games NAME`` reads the host's clock rule from the lobby, not its store."""
    probe = (
        "import sys\nfrom typer.testing import CliRunner\nfrom dennou.cli import app\n"
        "out = CliRunner().invoke(app, ['games', 'numeron'])\n"
        "assert out.exit_code == 0, out.output\n"
        "print([m for m in ('sqlalchemy', 'dennou.store.store') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"
