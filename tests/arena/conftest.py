"""Shared helpers for the tournament tests."""

from __future__ import annotations

from typing import Any

from dennou.arena.entrants import Entrant, parse_entrants
from dennou.arena.schedule import TournamentConfig
from dennou.core.jsondata import to_json
from dennou.games import REGISTRY


def quick_rules(game_name: str) -> dict[str, Any]:
    """The game's first conformance rules: chosen so that a whole match is short."""
    return to_json(REGISTRY[game_name].conformance_rules()[0])  # type: ignore[no-any-return]


def config(
    n: int,
    seats: int,
    *,
    fmt: str = "round-robin",
    rounds: int = 1,
    duplicate: bool = False,
    seed: int = 0,
    game: str = "daifugo",
    entrants: list[Entrant] | None = None,
) -> TournamentConfig:
    """A configuration for schedule tests (nothing is played)."""
    return TournamentConfig(
        game=game,
        rules={},
        entrants=entrants or parse_entrants([f"e{i}=random" for i in range(n)]),
        format=fmt,
        seats=seats,
        rounds=rounds,
        duplicate=duplicate,
        seed=seed,
    )
