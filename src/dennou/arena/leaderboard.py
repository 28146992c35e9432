"""Leaderboards: ratings per game and per rules preset, from local tournaments or a host.

A *rules preset* names the rules a rating was earned under: ``default``, or the options that
differ from the defaults (``games=3,revolution=false``). Settings that do not change the game
(:data:`NOT_THE_GAME`: time limits, what views show, accounts carried over by the host) are left
out, so a Daifugo set with a 30 s time limit counts on the same board as one with 10 s.
"""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from dennou.arena.ratings import Ratings
from dennou.arena.standings import ordered
from dennou.client.urls import host_urls
from dennou.core.errors import ConfigError
from dennou.core.game import Game
from dennou.core.jsondata import to_json

NOT_THE_GAME = frozenset(
    {
        "time_limit",
        "start_accounts",
        "view_odds",
        "odds_samples",
        "odds_exact_limit",
        "spectator_digits",
        "spectator_strikes",
    }
)
"""Rules options that never change who wins (host settings and what views show)."""

MAX_BODY = 8 << 20
"""Most bytes read from a host's leaderboard answer."""


def rules_preset(game: Game[Any, Any], rules: Mapping[str, Any]) -> str:
    """The preset of ``rules``: ``default`` or ``key=value,...`` of what differs from defaults.

    Raises:
        ConfigError: The rules are not valid for the game.
    """
    made = to_json(game.make_rules(dict(rules)))
    defaults = to_json(game.make_rules())
    parts = []
    for key in sorted(made):
        if key in NOT_THE_GAME or made[key] == defaults.get(key):
            continue
        parts.append(f"{key}={_text(made[key])}")
    return ",".join(parts) if parts else "default"


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ":".join(_text(v) for v in value)
    if value is None:
        return "none"
    return str(value)


def local_leaderboard(game_name: str, dirs: Iterable[str | Path]) -> list[dict[str, Any]]:
    """Ratings over local tournament directories of ``game_name``, one board per preset.

    Directories are rated in the order given, each one's matches in match order.

    Raises:
        ConfigError: A directory holds no tournament.
    """
    from dennou.arena.tournament import load_config, read_results
    from dennou.games import get

    game = get(game_name)
    boards: dict[str, Ratings] = {}
    for d in dirs:
        config = load_config(d)
        if config.game != game_name:
            continue
        preset = rules_preset(game, config.rules)
        ratings = boards.setdefault(preset, Ratings())
        results, _, _ = read_results(Path(d) / "results.jsonl")
        names = config.names
        for r in ordered(results):
            ratings.rate_outcome(
                [names[e] for e in r.seats], r.ranks, team_of=r.team_of, teams=r.teams
            )
    return [
        {"game": game_name, "preset": preset, "ratings": ratings.to_json()}
        for preset, ratings in sorted(boards.items())
    ]


def server_leaderboard(server: str, game_name: str, preset: str | None) -> list[dict[str, Any]]:
    """A host's leaderboard of ``game_name`` (``GET /api/leaderboard/{game}``).

    Raises:
        ConfigError: The host cannot be reached or refuses.
    """
    query = f"?preset={urllib.parse.quote(preset)}" if preset else ""
    url = f"{host_urls(server).http}/api/leaderboard/{urllib.parse.quote(game_name)}{query}"
    try:
        with urllib.request.urlopen(url, timeout=30) as reply:
            body = reply.read(MAX_BODY + 1)
    except OSError as exc:
        raise ConfigError(f"cannot read {url}: {exc}") from None
    if len(body) > MAX_BODY:
        raise ConfigError(f"{url} answered more than {MAX_BODY} bytes")
    data = json.loads(body)
    boards: list[dict[str, Any]] = data["boards"]
    return boards


__all__ = ["NOT_THE_GAME", "local_leaderboard", "rules_preset", "server_leaderboard"]
