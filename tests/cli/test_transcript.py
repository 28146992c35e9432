"""What a newcomer reads from the command line: short lists, whole tables, plain words.

Each test runs the real ``dennou`` process and reads its output as a person would.
"""

from __future__ import annotations

import re

from tests.cli.run import dennou
from tests.cli.test_play import play


def test_games_without_a_name_is_a_short_summary_without_docstring_markup() -> None:
    done = dennou("games")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) < 32, done.stdout  # a bots cell may wrap onto a second line
    numeron = next(line for line in lines if "│ numeron" in line)
    assert "random, policy, zoo, solver, optimal, race" in numeron
    assert "(no decisions)" in next(line for line in lines if "│ stud10" in line)
    assert "`dennou games GAME`" in done.stdout
    details = dennou("games", "numeron").stdout
    for markup in ("``", ":class:", ":func:"):
        assert markup not in details


def test_match_table_keeps_its_numbers_with_a_long_bot_spec_and_one_game() -> None:
    spec = "solver:lookahead=0:sample=2000:calls=3000:items=true:defend=12:relabel=true"
    done = dennou("match", "numeron", "--bots", f"{spec},random", "--games", "1")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "numeron: 1 game, mean length" in out
    for header in ("seats", "W", "D", "L", "win rate [95% CI]", "score ± 95% CI", "defaults"):
        assert f" {header} " in out
    assert "…" not in out
    random_row = next(line for line in out.splitlines() if "│ random" in line)
    # one game gives no interval: "± -", not a confident "± 0.000"
    assert re.search(r"│ +1 │ +[01] │ +0 │ +[01] │ .* ± - │", random_row), random_row
    assert "± 0.000" not in out


def test_on_off_flags_show_no_value_placeholder_in_help() -> None:
    for command in (["match"], ["bot", "run"], ["replay"], ["tournament"], []):
        out = dennou(*command, "--help").stdout
        assert "<bool>" not in out, (command, out)
        assert "--help" in out
    refused = dennou("match", "numeron", "--bots", "random", "--json", "true")
    assert refused.returncode == 2


def test_play_texts_name_the_person_in_the_third_person() -> None:
    out = play("numeron", "--vs", "random", "--seed", "1", lines=["set 012", "call 345"])
    for wrong in ("you attacks", "you calls", "you sets", "you set a number", "you uses"):
        assert wrong not in out
    assert "human set a number" in out and "human calls 345" in out


def test_play_examples_have_the_rules_digit_count() -> None:
    for digits, example in ((3, "031"), (4, "0318"), (5, "03185")):
        out = play("numeron", "--seed", "1", "--rules", f"digits={digits}", lines=[])
        assert f"set a number of {digits} distinct digits (`set {example}`)" in out
        match = re.search(r"e\.g\. set (\d+)", out)
        assert match is not None and len(match.group(1)) == digits, out


def test_play_shows_each_event_once_and_daifugo_seats_in_seat_order() -> None:
    args = ("daifugo", "--vs", "greedy", "--seed", "3", "--rules", "games=1")
    out = play(*args, lines=["0", "0", "0"])
    events = [line.strip() for line in out.splitlines() if line.startswith("  · ")]
    texts = [e.removeprefix("· ") for e in events]
    # an event is printed as it happens (with "·"), not again in the view's text after it
    again = [line.strip() for line in out.splitlines() if re.match(r"  [^ ·]", line)]
    assert not set(again) & set(texts), set(again) & set(texts)
    assert "  · greedy#1 plays ♠6" in out and out.count("greedy#1 plays ♠6") == 1
    status = re.findall(r"^ [ >] (\S+) +\S+ +[+-]\d+ pts", out, re.MULTILINE)
    assert status[:5] == ["human", "greedy#1", "greedy#2", "greedy#3", "greedy#4"], out


def test_numeron_defence_lists_its_actions_numbered() -> None:
    out = play(
        "numeron",
        "--seed",
        "1",
        "--rules",
        "digits=4",
        lines=["set 1234", "0"],  # seat 1 attacks first with seed 1: seat 0 defends
    )
    assert "actions, e.g." not in out
    assert "[0] decline" in out and re.search(r"\[4\d\] ", out), out
