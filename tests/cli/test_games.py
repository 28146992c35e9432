"""``dennou games`` and ``dennou odds --help`` for a newcomer (issue 12.17)."""

from __future__ import annotations

import re
import shlex
from typing import Annotated

from msgspec import Meta

from dennou.arena.bots import bot_options
from dennou.core.bot import RandomBot
from tests.cli.run import dennou


def test_types_are_readable_and_ranges_shown() -> None:
    done = dennou("games")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for unreadable in ("Optional[", "Annotated", "Literal[", "NoneType", "typing."):
        assert unreadable not in out
    numeron = dennou("games", "numeron").stdout
    digits = next(line for line in numeron.splitlines() if "│ digits" in line)
    assert re.search(r"│ digits\s+│ int\s+│ 3 to 5\s+│ 3\s+│", digits), digits
    assert "coin | seat0" in numeron
    chairs = dennou("games", "chairs").stdout
    assert re.search(r"│ chairs\s+│ int or none\s+│ 2 to 99\s+│ none", chairs), chairs


def test_each_bot_option_is_listed_with_its_meaning() -> None:
    out = dennou("games", "daifugo").stdout
    assert "daifugo bots (options: --bots name:key=value:key=value)" in out
    playouts = next(line for line in out.splitlines() if "│ playouts" in line)
    assert re.search(r"│ playouts\s+│ int\s+│ \S+\s+│ 2000\s+│ Playouts per decision", playouts)
    assert re.search(r"│ greedy\s+│ \(none\)", out)


def test_declared_bot_option_ranges_are_shown() -> None:
    """A bot whose options declare their ranges gets them listed (the range column)."""

    class Bounded(RandomBot):
        def __init__(
            self,
            playouts: Annotated[int, Meta(ge=1, le=100_000)] = 500,
            ms: Annotated[float, Meta(gt=0)] = 50.0,
        ) -> None:
            """A bot with bounded options.

            Args:
                playouts: Playouts per decision.
                ms: Time per decision.
            """

    options = {o.name: o for o in bot_options(Bounded)}
    assert (options["playouts"].type, options["playouts"].range) == ("int", "1 to 100000")
    assert (options["ms"].type, options["ms"].range, options["ms"].default) == ("number", "> 0", 50)
    assert options["playouts"].description == "Playouts per decision."


def test_a_game_without_decisions_says_so() -> None:
    out = dennou("games", "stud10").stdout
    assert "no decisions: in stud10 chance decides everything" in " ".join(out.split())
    assert "stud10 bots" not in out
    assert "no decisions" not in dennou("games", "numeron").stdout


def test_the_odds_help_example_works() -> None:
    helptext = " ".join(dennou("odds", "--help").stdout.split())
    example = re.search(r'e\.g\. (dennou odds \S+ --players "[^"]+")', helptext)
    assert example, helptext
    args = shlex.split(example.group(1))[1:]
    done = dennou(*args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "win" in done.stdout.lower()
