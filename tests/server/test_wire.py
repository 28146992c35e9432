"""What the wire carries is what the docs say: pushed seats, rate limits that never close a
socket, legal descriptions, listings across restarts, clocks, versions and number ranges."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from .conftest import LiveServer


def test_rate_limiting_alone_never_closes_the_connection(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "rl", rate=5.0, burst=5.0)
    try:
        ws = live.connect(None)
        for _ in range(40):  # 5 pass, 35 refused in a row: far past ten protocol errors
            ws.send({"type": "ping"})
        codes = [m.get("code") for m in ws.drain(0.5)]
        assert codes.count("rate_limited") >= 30
        time.sleep(1.2)
        assert ws.request({"type": "ping"})["type"] == "pong", "the socket is still open"
    finally:
        live.stop()


def _unused(_: Any) -> None:
    return None


def _unlisted_turns(game_name: str, max_steps: int = 300) -> list[tuple[str, Any, Any]]:
    """(phase, description, sample) of every turn without a list, over the conformance games."""
    import random

    from dennou.core.game import CHANCE
    from dennou.games import REGISTRY
    from dennou.server.work import turn_parts

    game = REGISTRY[game_name]
    out = []
    for i, rules in enumerate(game.conformance_rules()):
        rng = random.Random(i)
        n = game.default_players(rules)
        state = game.new(rules, [f"p{k}" for k in range(n)])
        for version in range(max_steps):
            if game.is_over(state):
                break
            acting = sorted(game.to_act(state))
            seat = acting[0]
            if seat == CHANCE:
                state, _ = game.apply(state, seat, game.sample_chance(state, rng))
                continue
            view, listed, count, description, sample = turn_parts(game, state, seat, version)
            if listed is None:
                out.append((str(view.get("phase")), description, sample))
            legal = game.legal_actions(state, seat)
            action = game.conformance_action(state, seat, legal, rng)
            state, _ = game.apply(state, seat, action)
    return out


def test_every_turn_without_a_list_carries_its_description_in_every_game_and_phase() -> None:
    from dennou.games import REGISTRY

    seen = {}
    for name in REGISTRY:
        for phase, description, sample in _unlisted_turns(name):
            assert description is not None, (name, phase)
            assert isinstance(description.get("form"), dict | str) or "kind" in description, (
                name,
                phase,
                description,
            )
            for listed in description.get("also", []):
                assert listed in sample, (name, phase, "the actions outside the forms are sampled")
            seen[name, phase] = description
    hilo = seen["hilo", "turn"]
    assert {"form", "text"} <= set(hilo) and {"type": "random_guess"} in hilo["also"]
    doubts = [d for (g, p), d in seen.items() if g == "smuggling" and p == "room"]
    assert doubts and {"type": "pass"} in doubts[0]["also"], seen.keys()
    assert {"min", "max", "step"} <= set(doubts[0])
