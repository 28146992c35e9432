"""``dennou match``: seats filled like ``play``, --json, the defaults column, ETA, Ctrl-C."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import time
from pathlib import Path

import pytest

from dennou.arena.seating import seat_players
from dennou.cli import interrupts_deferred
from dennou.core import record as records
from dennou.core.errors import ConfigError
from dennou.games import get
from tests.cli.run import BIN, dennou, environment, interruptible


def test_pandemic_with_two_bots_fills_the_rules_twelve_seats(tmp_path: Path) -> None:
    """docs/games/pandemic.md: 12 players; belief and random take the seats in turn."""
    out = tmp_path / "p.jsonl"
    done = dennou("match", "pandemic", "--bots", "belief,random", "--games", "2", "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    names = [f"{'belief' if i % 2 == 0 else 'random'}#{i}" for i in range(12)]
    assert "seats: " + ", ".join(f"{i} {n}" for i, n in enumerate(names)) in done.stdout
    assert "10 seats filled from the bots named, in turn" in done.stdout
    first, second = records.read(out)
    assert first.players == names
    assert second.players == [f"{'random' if i % 2 == 0 else 'belief'}#{i}" for i in range(12)]


def test_players_sets_the_table_size_and_too_many_bots_are_refused() -> None:
    done = dennou(
        "match",
        "daifugo",
        "--bots",
        "greedy,random",
        "--players",
        "3",
        "--games",
        "1",
        "--rules",
        "games=1",
    )
    assert done.returncode == 0, done.stdout
    assert "seats: 0 greedy#0, 1 random#1, 2 greedy#2" in done.stdout
    done = dennou("match", "numeron", "--bots", "random,random,solver")
    assert done.returncode == 2
    assert "3 bots for numeron, which seats at most 2: name at most 2 bots" in done.stderr


def test_match_and_play_seat_players_the_same_way() -> None:
    game = get("daifugo")
    rules = game.make_rules()
    bots = seat_players(game, rules, ["greedy", "montecarlo"])
    person = seat_players(game, rules, ["greedy", "montecarlo"], person=2)
    assert bots.specs == ("greedy", "montecarlo", "greedy", "montecarlo", "greedy")
    assert person.specs == ("greedy", "montecarlo", None, "greedy", "montecarlo")
    assert person.names == ("greedy#0", "montecarlo#1", "human", "greedy#3", "montecarlo#4")
    with pytest.raises(ConfigError, match="--seat must be 0-4"):
        seat_players(game, rules, ["greedy"], person=5)
    with pytest.raises(ConfigError, match="name at least one bot"):
        seat_players(game, rules, [])


def test_json_output_is_the_results(tmp_path: Path) -> None:
    done = dennou("match", "numeron", "--bots", "solver,random", "--games", "4", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)  # nothing else on stdout
    assert result["game"] == "numeron" and result["games"] == 4
    assert [b["bot"] for b in result["bots"]] == ["solver", "random"]
    solver = result["bots"][0]
    assert solver["wins"] + solver["draws"] + solver["losses"] == solver["seats"] == 4
    lo, hi = solver["win_rate_ci95"]
    assert lo <= solver["win_rate"] <= hi
    assert "seats: 0 solver#0, 1 random#1" in done.stderr


def test_the_defaults_column_is_explained_with_its_reasons() -> None:
    done = dennou(
        "match", "numeron", "--bots", "solver,random", "--games", "2", "--time-limit", "0.000001"
    )
    assert done.returncode == 0, done.stdout
    note = done.stdout[done.stdout.index("defaults: ") :]
    assert "moves the arena made for a bot (the rules' default)" in note
    assert "solver: " in note and "timeout" in note


def test_progress_shows_an_eta() -> None:
    """In a terminal the progress bar says how long is left."""
    main, child = pty.openpty()
    proc = subprocess.Popen(
        [str(BIN / "dennou"), "match", "numeron", "--bots", "random,random", "--games", "400"],
        stdin=child,
        stdout=child,
        stderr=child,
        env=environment({"COLUMNS": "120", "LINES": "40", "TERM": "xterm"}),
    )
    os.close(child)
    seen = b""
    try:
        deadline = time.monotonic() + 120
        while b"ETA" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 1)
            if ready:
                try:
                    seen += os.read(main, 65536)
                except OSError:
                    break
    finally:
        proc.kill()
        proc.wait(10)
        os.close(main)
    assert b"ETA" in seen, seen[-2000:]


def test_ctrl_c_prints_the_table_of_the_games_finished(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    proc = subprocess.Popen(
        [
            str(BIN / "dennou"),
            "match",
            "numeron",
            "--bots",
            "solver,random",
            "--games",
            "10000",
            "--out",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=environment(),
        preexec_fn=interruptible,
    )
    try:
        # On a fresh clone the solver's first decisions compile its kernels (tens of seconds on
        # a loaded 2-core machine); the interrupt is meant for a match under way, after that.
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if out.exists() and out.read_text().count('"type": "end"') >= 2:
                break
            time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        output, _ = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert proc.returncode == 130, output
    assert "Traceback" not in output
    finished = len(records.read(out))
    assert finished >= 2
    assert f"interrupted: {finished} of 10000 games finished" in output
    assert f"numeron: {finished} games" in output and "win rate [95% CI]" in output


def test_a_ctrl_c_while_a_finished_game_is_saved_waits_until_it_is_saved_and_counted() -> None:
    """The records written and the games in the table agree whenever Ctrl-C comes.

    A SIGINT between writing a game's record and counting it once printed "32 of 10000 games
    finished" over a file of 33.
    """
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    steps: list[str] = []
    try:
        with pytest.raises(KeyboardInterrupt):
            with interrupts_deferred():
                os.kill(os.getpid(), signal.SIGINT)
                steps.append("written")
                steps.append("counted")
            steps.append("after")  # never: the Ctrl-C is raised as the block ends
        assert steps == ["written", "counted"]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        # A match run with Ctrl-C ignored (in the background) keeps ignoring it.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        with interrupts_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            steps.append("ignored")
        assert steps[-1] == "ignored"
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_team_game_seats_a_team_per_bot_and_rotates_whole_teams() -> None:
    """docs/games/smuggling.md: North is seats 0..n-1, South n..2n-1; teammates stay together."""
    from dennou.arena.match import run_match

    game = get("smuggling")
    rules = game.make_rules({"team_size": 2, "small_games": 2})
    seating = seat_players(game, rules, ["planner", "random"])
    assert seating.specs == ("planner", "planner", "random", "random")
    played = run_match(game, rules, [s for s in seating.specs if s], 2, seed=3)
    assert [r.meta["bot_specs"] for r in played] == [
        ["planner", "planner", "random", "random"],
        ["random", "random", "planner", "planner"],
    ]
    for record in played:
        assert record.outcome is not None
        team_of = record.outcome["detail"]["team_of"]
        lineup = record.meta["bot_specs"]
        assert all(
            lineup[a] == lineup[b] for a in range(4) for b in range(4) if team_of[a] == team_of[b]
        )


@pytest.mark.parametrize(
    "bots",
    ["greedy,random", "greedy,greedy,random,random"],
    ids=["a-bot-a-team", "each-side-seated-by-hand"],
)
def test_match_of_a_team_game_rotates_whole_teams_and_counts_the_teams_results(
    bots: str, tmp_path: Path
) -> None:
    """Smuggling 2 v 2 (North seats 0-1, South 2-3): teammates sit together in every game, the
    sides swap each game, and W/D/L are each seat's team's result (its score its own money)."""
    out = tmp_path / "s.jsonl"
    done = dennou(
        "match",
        "smuggling",
        "--bots",
        bots,
        "--games",
        "3",
        "--rules",
        "team_size=2",
        "--rules",
        "small_games=2",
        "--seed",
        "5",
        "--out",
        str(out),
        "--json",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "seats: 0 greedy#0, 1 greedy#1, 2 random#2, 3 random#3" in done.stderr
    assert "whole teams rotate each game" in done.stderr
    north, south = ["greedy#0", "greedy#1"], ["random#2", "random#3"]
    played = records.read(out)
    assert [r.players for r in played] == [
        north + south,
        ["random#0", "random#1", "greedy#2", "greedy#3"],
        north + south,
    ]
    results = json.loads(done.stdout)
    assert results["team_results"] is True
    by_bot = {b["bot"]: b for b in results["bots"]}
    greedy_wins = 0.0
    for record in played:
        assert record.outcome is not None
        team_of, teams = record.outcome["detail"]["team_of"], record.outcome["teams"]
        assert team_of[0] == team_of[1] != team_of[2] == team_of[3]
        side = 0 if record.players[0].startswith("greedy") else 2
        greedy_wins += 2 * teams[team_of[side]]
    greedy, rand = by_bot["greedy"], by_bot["random"]
    assert greedy["seats"] == rand["seats"] == 6
    assert greedy["wins"] + greedy["draws"] / 2 == greedy_wins
    assert (greedy["wins"], greedy["draws"]) == (rand["losses"], rand["draws"])
