"""``dennou games`` and ``dennou odds --help`` for a newcomer."""

from __future__ import annotations

import re
import shlex

from tests.cli.run import dennou


def test_types_are_readable_and_ranges_shown() -> None:
    done = dennou("games")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for unreadable in ("Optional[", "Annotated", "Literal[", "NoneType", "typing."):
        assert unreadable not in out
    numeron = dennou("games", "numeron").stdout
    digits = next(line for line in numeron.splitlines() if "│ digits" in line)
    assert re.search(r"│ digits\s+│ int\s+│ 3\.\.5\s+│ 3\s+│", digits), digits
    assert "one of coin|seat0" in numeron
    chairs = dennou("games", "chairs").stdout
    assert re.search(r"│ chairs\s+│ int or none\s+│ 2\.\.99\s+│ none", chairs), chairs


def test_each_bot_option_is_listed_with_its_range_and_meaning() -> None:
    out = dennou("games", "numeron").stdout
    assert "numeron bots (options: --bots name:key=value:key=value)" in out
    lookahead = next(line for line in out.splitlines() if "│ lookahead" in line)
    assert re.search(r"│ solver\s+│ lookahead\s+│ int\s+│ 0\.\.64\s+│ 8\s+│ Best calls", lookahead)
    assert re.search(r"│ random\s+│ \(none\)", out)


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
