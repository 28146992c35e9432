"""``dennou play`` driven through its real prompt: a process reading piped lines.

Refused actions are explained in the engine's own words; unknown words list what the player may
use; a bare number only picks from a numbered list; open talk channels are shown; a game quit
early is kept with ``--out``; bots are named by their seat.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from dennou.core import record as records
from tests.cli.run import dennou


def play(*args: str, lines: list[str], timeout: float = 120) -> str:
    """``dennou play ARGS`` given ``lines`` then end of input; everything it printed."""
    done = dennou("play", *args, input="\n".join(lines) + "\n", timeout=timeout)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    return done.stdout


SMUGGLER = shlex.split("smuggling --vs random --players 2 --seed 1 --rules selection=rotation")
"""Two players, seat 0 North's smuggler in the first small game: it packs the trunk first."""


def refusals(output: str) -> list[str]:
    return [line.split("✗ ", 1)[1] for line in output.splitlines() if "✗ " in line]


def test_a_repeated_digit_is_refused_with_the_rule() -> None:
    """docs/games/numeron.md, Setup: a number has distinct digits."""
    out = play("numeron", "--vs", "random", "--seed", "1", lines=["set 001"])
    [why] = refusals(out)
    assert "3 distinct digits" in why and "'001'" in why


def test_a_card_not_in_hand_is_refused_with_the_rule() -> None:
    """docs/games/daifugo.md: a play uses cards from one's own hand."""
    out = play("daifugo", "--vs", "greedy", "--seed", "3", "--rules", "games=1", lines=["play As"])
    [why] = refusals(out)
    assert "not all in your hand" in why


def test_an_amount_out_of_range_is_refused_with_the_rule() -> None:
    """docs/games/smuggling.md, a small game step 2: the trunk holds 0 to the limit."""
    out = play(*SMUGGLER, lines=["trunk 999999999999"])
    [why] = refusals(out)
    assert "the trunk holds 0 to 100,000,000 yen" in why


def test_a_closed_channel_is_refused_and_the_open_ones_are_named() -> None:
    out = play(*SMUGGLER, lines=["say @team:south hi", "say hello"])
    talk = "talk: say TEXT (in public) or say @CHANNEL TEXT (open to you: public, team:north)"
    assert talk in out
    [why] = refusals(out)
    assert "team:south" in why and "(open to you: public, team:north)" in why
    assert "(said in public)" in out


def test_talk_channels_open_to_the_player_are_shown() -> None:
    """Pandemic's private pair channels are listed beside the public one."""
    out = play("pandemic", "--vs", "random", "--players", "4", "--seed", "2", lines=[])
    talk = next(line for line in out.splitlines() if line.startswith("talk: "))
    for channel in ("public", "pair:0-1", "pair:0-2", "pair:0-3"):
        assert channel in talk


def test_unknown_words_list_only_the_actions_the_player_can_use() -> None:
    out = play("numeron", "--vs", "random", "--seed", "1", lines=["flip 123"])
    [why] = refusals(out)
    assert why.startswith("unknown word 'flip'; you may use: set (or help")
    assert "call" not in why and "shuffle" not in why  # Numeron has them, but not now


def test_a_bare_number_picks_only_from_a_numbered_list() -> None:
    # Numeron shows no numbered list: "12" is not the 12th number, and nothing is set
    out = play("numeron", "--vs", "random", "--seed", "1", lines=["12", "012"])
    assert refusals(out) == [
        "a bare number picks from a numbered list, and none is shown: type the action",
        "a bare number picks from a numbered list, and none is shown: type the action; "
        "did you mean `set 012`?",
    ]
    assert "human set a number" not in out
    # Daifugo numbers its plays: a shown number is a choice, an unshown one is refused
    out = play("daifugo", "--vs", "greedy", "--seed", "3", "--rules", "games=1", lines=["99", "2"])
    assert refusals(out) == ["pick one of the numbers shown (0-2)"]
    assert "human passes" in out  # [2] was pass


def test_quit_keeps_the_game_so_far_with_out(tmp_path: Path) -> None:
    out_file = tmp_path / "quit.jsonl"
    out = play(
        "numeron",
        "--vs",
        "solver",
        "--seed",
        "4",
        "--rules",
        "first=seat0",
        "--out",
        str(out_file),
        lines=["set 012", "call 345", "quit"],
    )
    assert "bye" in out and str(out_file) in out
    [record] = records.read(out_file)
    assert record.outcome is None and record.meta["quit"] is True
    assert record.players == ["human", "solver#1"]
    mine = [s.action for s in record.steps if s.seat == 0 and s.action]
    assert mine == [{"type": "set", "number": "012"}, {"type": "call", "number": "345"}]
    replay = dennou("replay", str(out_file))
    assert replay.returncode == 0 and "human calls 345" in replay.stdout


def test_bots_are_named_by_their_seat_around_the_person(tmp_path: Path) -> None:
    out_file = tmp_path / "d.jsonl"
    out = play(
        "daifugo",
        "--vs",
        "greedy,montecarlo",
        "--seat",
        "2",
        "--seed",
        "5",
        "--rules",
        "games=1",
        "--out",
        str(out_file),
        lines=["quit"],
    )
    expected = ["greedy#0", "montecarlo#1", "human", "greedy#3", "montecarlo#4"]
    assert "seats: 0 greedy#0, 1 montecarlo#1, 2 human, 3 greedy#3, 4 montecarlo#4" in out
    assert records.read(out_file)[0].players == expected


def test_play_refuses_more_bots_than_seats() -> None:
    done = dennou("play", "numeron", "--vs", "random,solver")
    assert done.returncode == 2
    assert "2 bots and you for numeron, which seats at most 2: name at most 1 bot" in done.stderr
    done = dennou("play", "daifugo", "--vs", "random,greedy,random", "--players", "3")
    assert done.returncode == 2
    assert "3 bots and you for 3 seats: name at most 2 bots, or more --players" in done.stderr
