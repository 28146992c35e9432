"""Rules presets and random-state helpers shared by the RL environment tests (docs/rl.md)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from dennou.core.game import CHANCE, Game
from dennou.rl import Table

PRESETS: dict[str, list[dict[str, Any]]] = {
    "numeron": [{"digits": 3}, {"digits": 4}],
    "stud10": [{"view_odds": False}, {"view_odds": False, "hands": 3, "ante": 2, "stack": 10}],
    "hilo": [
        {"players": 3, "max_games": 1, "max_rounds": 10},
        {"players": 2, "max_games": 2, "max_number": 1000, "max_rounds": 30},
    ],
    "smuggling": [
        {"team_size": 1, "small_games": 4},
        {"players": 4, "small_games": 6, "selection": "rotation"},
    ],
    "pandemic": [
        {"players": 4, "infected": 1, "rounds": 1, "ticks": 4},
        {"players": 6, "rounds": 2, "ticks": 3, "public_contacts": False},
    ],
    "chairs": [
        {"players": 6},
        {"players": 8, "starting_players": 3, "chairs": 6, "public_gifts": True},
    ],
    "daifugo": [
        {"players": 4, "games": 2},
        {"players": 5, "preset": "uecda", "games": 2},
    ],
}
"""Two small rules presets per game (``players`` is the env's seat count, the rest rules)."""

MAX_CYCLES_PRESETS: dict[str, list[dict[str, Any]]] = {
    **{game: [{**p, "seed": 0} for p in presets] for game, presets in PRESETS.items()},
    # PettingZoo's max_cycles_test samples actions without masks and wants the median agent to
    # make exactly max_cycles decisions. Smuggling's representatives and Musical Chairs' gaya
    # decide less often than the others, so those presets seat only people who decide at every
    # step. Even so, whether every seat decides equally often in the first cycles depends on
    # the random play in Star Hi-Lo (a random guess is two decisions: 2.2, then the pick) and
    # Musical Chairs (a go is one or two decisions; the parent removes a chair): their env seed
    # (chance and the action spaces' sampling) is one where they do.
    # test_max_cycles_caps_every_seat checks the cap itself on every game with any play.
    "hilo": [
        {**PRESETS["hilo"][0], "seed": 4},
        {**PRESETS["hilo"][1], "seed": 0},
    ],
    "smuggling": [
        {"team_size": 1, "small_games": 4, "seed": 0},
        {"team_size": 1, "room_messages": 0, "seed": 0},
    ],
    # Daifugo passes for a seat that cannot play (auto_pass) and, with an even seat count,
    # the median of the seats' counts falls between two seats: five seats that are always asked.
    "daifugo": [
        {"players": 5, "games": 2, "auto_pass": False, "seed": 0},
        {"players": 5, "preset": "uecda", "games": 2, "seed": 0},
    ],
    "chairs": [
        {"players": 4, "starting_players": 4, "gifts_per_phase": 0, "seed": 4},
        {
            "players": 6,
            "starting_players": 6,
            "gifts_per_phase": 0,
            "public_gifts": True,
            "seed": 4,
        },
    ],
}

CASES = [(game, i) for game in PRESETS for i in range(2)]
CASE_IDS = [f"{game}-{i}" for game, i in CASES]


def split(preset: dict[str, Any]) -> tuple[int | None, dict[str, Any]]:
    """``(players, rules)`` of a preset."""
    rules = dict(preset)
    return rules.pop("players", None), rules


def random_states(
    table: Table, states: int, seed: int, *, max_steps: int = 400
) -> Iterator[tuple[Any, int]]:
    """``(state, seat)`` pairs along random games (seats that must act), ``states`` of them."""
    game: Game[Any, Any] = table.game
    rng = random.Random(seed)
    made = 0
    while made < states:
        state = game.new(table.rules, [f"p{i}" for i in range(table.n)])
        for _ in range(max_steps):
            acting = game.to_act(state)
            if not acting:
                break
            if CHANCE in acting:
                if table.passive:  # seats only watch: every draw is a state to observe
                    yield state, rng.randrange(table.n)
                    made += 1
                    if made >= states:
                        return
                state, _ = game.apply(state, CHANCE, game.sample_chance(state, rng))
                continue
            seat = rng.choice(sorted(acting))
            legal = game.legal_actions(state, seat)
            yield state, seat
            made += 1
            if made >= states:
                return
            state, _ = game.apply(state, seat, legal[rng.randrange(len(legal))])


def finishing_choice(table: Table, obs: dict[str, Any], k: int) -> int:
    """A legal action number that makes games end: varied, and in Numeron a possible number.

    (Uniform calls almost never find a Numeron number; calling a candidate always does.)
    """
    legal = obs["action_mask"].nonzero()[0]
    enc = table.encoding
    if table.name == "numeron" and table.state.phase == "call":
        cands = next(f for f in enc.fields if f.name == "candidates")
        vector = obs["observation"][cands.start : cands.start + cands.size]
        hits = [int(i) for i in legal if vector[i - enc.blocks[0].start] > 0]
        if hits:
            return hits[k % len(hits)]
    return int(legal[k % len(legal)])
