"""``dennou tournament`` and ``dennou leaderboard`` from the command line, SIGKILL included."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from dennou.arena.entrants import parse_entrants
from dennou.arena.runners import InlineRunner
from dennou.arena.tournament import Tournament, make_config
from dennou.cli import app
from dennou.games import get
from dennou.server.testing import SRC

runner = CliRunner()

ARGS = [
    "daifugo",
    "--entrants",
    "greedy,random,g2=greedy,r2=random,r3=random",
    "--rules",
    "games=3",
    "--seed",
    "7",
]


def test_tournament_prints_standings_writes_records_that_replay(tmp_path: Path) -> None:
    out = tmp_path / "t"
    result = runner.invoke(app, ["tournament", *ARGS, "--games", "10", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "daifugo: 10 matches, round-robin" in result.output
    assert "ordinal" in result.output and "pairwise" in result.output
    for name in ("tournament.json", "records.jsonl", "results.jsonl", "standings.json"):
        assert (out / name).exists(), name
    assert (out / "standings.csv").read_text().startswith("rank,name")
    replay = runner.invoke(app, ["replay", str(out / "records.jsonl"), "--game", "9"])
    assert replay.exit_code == 0, replay.output
    assert "result" in replay.output
    again = runner.invoke(app, ["tournament", *ARGS, "--games", "10", "--out", str(out)])
    assert again.exit_code == 0 and "10 of 10 matches finished" in again.output
    board = runner.invoke(app, ["leaderboard", "daifugo", str(out)])
    assert board.exit_code == 0, board.output
    assert "daifugo leaderboard — games=3" in board.output and "greedy" in board.output


def test_tournament_bad_input_exits_with_a_message(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "dennou", "tournament", "daifugo", "--entrants", "greedy,bogus"]
    done = subprocess.run(
        [*cmd, "--out", str(tmp_path / "t")],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": SRC},
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: unknown entrant 'bogus'"), done.stderr
    assert not (tmp_path / "t").exists()


def test_sigkill_mid_tournament_then_the_same_command_finishes_the_same(tmp_path: Path) -> None:
    out = tmp_path / "killed"
    games = 100  # 20 finish before the kill; the rest prove the resume
    cmd = [sys.executable, "-m", "dennou", "tournament", *ARGS, "--games", str(games)]
    cmd += ["--workers", "2", "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": SRC}
    # its own process group: SIGKILL takes the worker processes too, as a crash would
    proc = subprocess.Popen(
        cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    results = out / "results.jsonl"
    deadline = time.time() + 120
    try:
        while time.time() < deadline:
            if results.exists() and results.read_bytes().count(b"\n") >= 20:
                break
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(30)
    finished_at_kill = results.read_bytes().count(b"\n")
    assert 20 <= finished_at_kill < games, "killed mid-way"

    again = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"resuming {out}" in again.stdout

    game = get("daifugo")
    config = make_config(
        game,
        parse_entrants("greedy,random,g2=greedy,r2=random,r3=random"),
        games=games,
        seed=7,
        rules=game.make_rules({"games": 3}),
    )
    with Tournament(config, tmp_path / "whole", game) as tour:
        tour.run(InlineRunner())
    for name in ("standings.json", "standings.csv", "ratings.json"):
        assert (out / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name
    matches = [json.loads(line)["result"]["match"] for line in results.read_text().splitlines()]
    assert sorted(matches) == list(range(games)), "every match kept, none played twice"
