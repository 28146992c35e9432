"""The model zoo: a trained policy for every game, shipped in the package, played as ``zoo``.

``dennou match smuggling --bots zoo,greedy --rules team_size=1 --rules small_games=10`` seats
the zoo's Smuggling policy; the bot ``zoo`` plays the entry of the game it is seated at, and is
listed among every such game's bots (``dennou games NAME``, the host's lobby), so the host seats
it and its leaderboard rates it as ``bot:zoo`` like any built-in bot. ``zoo:sample=true`` draws
from the policy's distribution instead of taking its most likely legal action.

Each entry is a policy file of :mod:`dennou.rl.policy` (an MLP over the encoding's observation,
NumPy only) next to this module, described in ``zoo.json``: the game, the rules options and
seat count it was trained for (the encoding's sizes depend on them: other rules or counts are
refused with the sizes), a version, the method and teacher, the command that trains it again
with its seeds, and its measured strength. ``examples/rl/zoo.py`` trains and measures them;
``docs/rl.md`` lists them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from dennou.core.errors import ConfigError
from dennou.core.game import Game
from dennou.rl.policy import PolicyBot

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "zoo.json"
"""The zoo's entries: ``{"entries": {game: {...}}}`` (see :func:`entries`)."""


@cache
def entries() -> Mapping[str, Mapping[str, Any]]:
    """Every entry of the zoo by game name, as ``zoo.json`` describes it.

    Each entry has ``game``, ``file`` (next to this module), ``version``, ``rules`` (the rules
    options it was trained for), ``players``, ``method``, ``teacher``, ``command`` (what trains
    it again), ``seeds`` and ``strength`` (measured results, with their commands).
    """
    data = json.loads(MANIFEST.read_text(encoding="utf-8"))
    found: dict[str, Mapping[str, Any]] = data["entries"]
    return found


def entry(game: str) -> Mapping[str, Any]:
    """The zoo's entry for ``game``.

    Raises:
        ConfigError: The zoo has no policy for that game (the message lists those it has).
    """
    found = entries().get(game)
    if found is None:
        raise ConfigError(f"the zoo has no policy for {game!r}; it has: {', '.join(entries())}")
    return found


def policy_path(game: str) -> Path:
    """The policy file of the zoo's entry for ``game``.

    Raises:
        ConfigError: No entry for that game.
    """
    return HERE / str(entry(game)["file"])


class ZooBot(PolicyBot):
    """The zoo's trained policy for the game it is seated at (``zoo``).

    The entry is the one of the game the bot is bound to (the arena and the host bind it), or
    else the one whose rules the table plays. It plays the rules and seat count it was trained
    for (``zoo.json``); a table with others is refused with a :class:`ConfigError`.

    Args:
        sample: Draw the action from the policy's distribution instead of taking the best.
    """

    name = "zoo"

    def __init__(self, sample: bool = False) -> None:
        self.sample = sample
        self.meta: dict[str, Any] = {}
        self.layers = []
        self.encoding = None
        self.seat = 0
        self.game_name: str | None = None

    def bind_game(self, game: Game[Any, Any]) -> None:
        """Load the entry of ``game``.

        Raises:
            ConfigError: The zoo has no policy for it.
        """
        self._load(game.spec.name)

    def _load(self, name: str) -> None:
        if self.game_name == name:
            return
        loaded = PolicyBot(path=str(policy_path(name)), sample=self.sample)
        self.meta, self.layers = loaded.meta, loaded.layers
        self.game_name = name

    def reset(self, *, seat: int, rules: Any, players: Sequence[str]) -> None:
        """Build the encoding (the entry is the bound game's, or the one these rules are of).

        Raises:
            ConfigError: No entry for the game, or rules or a seat count the entry does not
                fit.
        """
        if self.game_name is None:
            from dennou.games import REGISTRY

            name = next((g for g in entries() if REGISTRY[g].rules_type is type(rules)), None)
            if name is None:
                raise ConfigError(f"the zoo has no policy for {type(rules).__name__}")
            self._load(name)
        try:
            super().reset(seat=seat, rules=rules, players=players)
        except ConfigError as exc:
            trained = entry(str(self.game_name))
            raise ConfigError(
                f"the zoo's {self.game_name} policy plays {trained['players']} seats with rules "
                f"{json.dumps(trained['rules'])}: {exc.message}"
            ) from None


def _rules_text(entry: Mapping[str, Any]) -> str:
    rules = ", ".join(f"{k}={v}" for k, v in sorted(entry["rules"].items())) or "default rules"
    return f"{rules}; {entry['players']} seats"


def _number(x: float) -> str:
    return f"{x:+,.0f}" if abs(x) >= 10_000 else f"{x:+.3g}"


def _result(found: Mapping[str, Any] | None) -> str:
    if not found:
        return "not measured"
    low, high = found["win_rate_ci95"]
    mlow, mhigh = found["score_ci95"]
    return (
        f"{found['win_rate']:.3f} [{low:.3f}, {high:.3f}] (fair share {found['fair_share']:.3f});"
        f" score {_number(found['score_mean'])} [{_number(mlow)}, {_number(mhigh)}];"
        f" {found['games']} games"
    )


def markdown() -> str:
    """The zoo's table and commands for ``docs/rl.md`` (between its ``zoo`` markers)."""
    lines = [
        "| game | trained for | what it is | agrees with its teacher (held out) | vs `random`:"
        " win rate [95% CI]; mean score [95% CI] | vs its teacher and the strongest built-in |",
        "|---|---|---|---|---|---|",
    ]
    commands = []
    for name, found in entries().items():
        strength = dict(found.get("strength", {}))
        against_random = strength.pop("random", None)
        strongest = ", ".join(f"`{bot}`: {_result(r)}" for bot, r in strength.items())
        if found["decisions"]:
            what = (
                f"{found['method']} of `{found['teacher']}` ({found['decisions']:,} decisions,"
                f" {found['games_played']} games; MLP {found['hidden'][0]} tanh units)"
            )
            held = found["heldout_agreement"]
            agrees = f"{held:.3f}" if held is not None else "none held out"
        else:
            what = found["method"]
            agrees = "—"
        lines.append(
            f"| `{name}` | {_rules_text(found)} | {what} | {agrees} | {_result(against_random)}"
            f" | {strongest or 'not measured'} |"
        )
        commands.append(found["command"])
        commands += [r["command"] for r in found.get("strength", {}).values()]
    skip = "<!-- readme-test: skip (trains and measures for minutes) -->"
    return "\n".join([*lines, "", skip, "```bash", *commands, "```"]) + "\n"
