"""Trained policies as bots (``policy:path=...``): they play legal moves from views alone."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import dennou.rl as rl
from dennou.arena.bots import make_bot
from dennou.arena.match import run_match
from dennou.core.errors import ConfigError
from dennou.games import get
from dennou.rl.policy import PolicyBot, save_policy

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rl" / "smuggling_ppo.npz"
EXAMPLE_RULES = {"team_size": 1, "small_games": 10}


def _random_policy(path: Path, game: str, players: int, **rules: object) -> None:
    enc = rl.encoding_for(game, rules, players)
    rng = np.random.default_rng(0)
    layers = [
        (rng.normal(size=(16, enc.size)), np.zeros(16)),
        (rng.normal(size=(enc.num_actions, 16)), np.zeros(enc.num_actions)),
    ]
    save_policy(path, game, enc, layers)


@pytest.mark.parametrize(
    ("game", "players", "rules", "others"),
    [
        ("pandemic", 4, {"infected": 1, "rounds": 1, "ticks": 3}, "random"),
        ("hilo", 3, {"max_games": 1, "max_rounds": 8}, "random"),
        ("chairs", 6, {}, "random"),
        ("numeron", 2, {"digits": 3}, "solver"),  # the solver ends the game in a few calls
    ],
)
def test_a_policy_file_plays_whole_games_with_legal_actions(
    tmp_path: Path, game: str, players: int, rules: dict[str, object], others: str
) -> None:
    path = tmp_path / "p.npz"
    _random_policy(path, game, players, **rules)
    g = get(game)
    bots = [f"policy:path={path}"] + [others] * (players - 1)
    records = run_match(g, g.make_rules(rules), bots, 2, seed=1)
    for record in records:
        assert record.outcome is not None
        assert not any(step.default for step in record.steps), "every policy move was legal"


def test_a_policy_refuses_other_rules_and_missing_files(tmp_path: Path) -> None:
    path = tmp_path / "p.npz"
    _random_policy(path, "pandemic", 4, rounds=1, ticks=3)
    bot = PolicyBot(path=str(path))
    g = get("pandemic")
    with pytest.raises(ConfigError, match="trained on pandemic"):
        bot.reset(seat=0, rules=g.make_rules({}), players=[f"p{i}" for i in range(6)])
    with pytest.raises(ConfigError, match="plays pandemic"):
        bot.reset(seat=0, rules=get("hilo").make_rules({}), players=["a", "b"])
    with pytest.raises(ConfigError, match="cannot read"):
        make_bot(g, f"policy:path={tmp_path / 'none.npz'}")


def test_the_example_agent_beats_the_random_bot() -> None:
    """examples/rl/smuggling_ppo.npz (MaskablePPO, examples/rl/train_smuggling.py) vs random."""
    g = get("smuggling")
    records = run_match(
        g, g.make_rules(EXAMPLE_RULES), [f"policy:path={EXAMPLE}", "random"], 40, seed=500
    )
    wins = sum(
        1 for i, r in enumerate(records) if r.outcome is not None and r.outcome["ranks"][i % 2] == 1
    )
    assert wins >= 36  # measured 400 of 400 (docs/rl.md); 36 of 40 leaves room for chance
