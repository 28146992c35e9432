"""``dennou warm``: every game's first decision with each of its bots, ahead of time."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time

from typer.testing import CliRunner

from dennou.arena.bots import available_bots
from dennou.arena.warmup import SKIPPED_BOTS, first_decision, one_at_a_time, warm_game
from dennou.cli import app
from dennou.games import get
from dennou.server.testing import SRC

runner = CliRunner()


def test_warm_makes_a_first_decision_with_every_bot_of_the_games_named() -> None:
    result = runner.invoke(app, ["warm", "chairs", "hilo"])
    assert result.exit_code == 0, result.output
    for name in ("chairs", "hilo"):
        line = next(x for x in result.output.splitlines() if x.startswith(name + ":"))
        for bot in set(available_bots(get(name))) - SKIPPED_BOTS:
            assert f"{bot} " in line, (bot, line)


def test_warm_refuses_an_unknown_game_with_a_message() -> None:
    result = runner.invoke(app, ["warm", "chess"])
    assert result.exit_code == 2 and "chess" in result.output


def test_a_game_whose_seats_never_decide_is_warmed_by_its_views() -> None:
    """10-card stud: the cards play; only the views (with their odds) have code to warm."""
    game = get("stud10")
    rules = game.make_rules({})
    assert first_decision(game, rules, ["a", "b", "c", "d", "e"], random.Random(0)) is None
    assert set(warm_game(game)) == {"view"}


def test_warm_builds_what_the_bots_later_decisions_use() -> None:
    """Daifugo's search bots: their first decision compiles only part of their code (the
    ending solver and the belief weights come later); ``warm`` builds the rest too."""
    from dennou.games.daifugo.ismcts import SEARCH

    taken = warm_game(get("daifugo"))
    assert {"ismcts", "montecarlo", "native"} <= set(taken)
    assert SEARCH.built


def test_one_warm_up_runs_at_a_time_the_next_waits_for_it() -> None:
    """Hosts started together (each starts ``dennou warm`` behind it) do not compile the same
    code side by side: a warm-up waits while another holds the installation's lock."""
    code = (
        "import sys\nfrom dennou.arena.warmup import warm\n"
        "print('ready', flush=True)\nwarm([])\nprint('done', flush=True)"
    )
    with one_at_a_time():
        # this checkout's package, whatever the environment installed: its lock is this one
        env = {**os.environ, "PYTHONPATH": SRC}
        command = [sys.executable, "-c", code]
        waiting = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
        try:
            assert waiting.stdout is not None
            assert waiting.stdout.readline().strip() == "ready"
            time.sleep(2)  # warm([]) alone takes milliseconds
            assert waiting.poll() is None  # it waits for the lock this test holds
        except BaseException:
            waiting.kill()
            raise
    out, _ = waiting.communicate(timeout=60)
    assert waiting.returncode == 0 and out.strip() == "done"
