"""OpenSpiel: every game registered as a pyspiel Python game and checked by pyspiel itself."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, exploitability, ismcts, mcts

import dennou.rl.openspiel as dos
from tests.rl.conftest import PRESETS, split

TINY_SMUGGLING: dict[str, Any] = {
    "players": 2,
    "small_games": 1,
    "unit": 50_000_000,
    "room_messages": 0,
}
"""One small game, 1 v 1, amounts in 50M units: trunk 0/50M/100M, doubts 50M/100M/200M."""


@pytest.mark.parametrize("game", list(PRESETS))
def test_pyspiel_random_simulation_checks_pass(game: str) -> None:
    players, rules = split(PRESETS[game][0])
    loaded = dos.load(game, players=players, **rules)
    assert loaded.get_type().short_name == f"python_dennou_{game}"
    # Random Numeron calls take hundreds of turns to hit: one simulation is plenty.
    sims = 1 if game == "numeron" else 3
    pyspiel.random_sim_test(loaded, num_sims=sims, serialize=False, verbose=False)


def test_every_game_is_registered_by_name() -> None:
    names = set(pyspiel.registered_names())
    assert {dos.short_name(g) for g in PRESETS} <= names
    game = pyspiel.load_game(
        "python_dennou_pandemic", {"players": 4, "rules": '{"rounds": 1, "ticks": 2}'}
    )
    assert game.num_players() == 4
    assert game.num_distinct_actions() == 3 + 4


def test_cfr_converges_on_a_tiny_smuggling_game() -> None:
    game = dos.load("smuggling", **TINY_SMUGGLING)
    uniform = exploitability.nash_conv(game, policy_lib.UniformRandomPolicy(game))
    solver = cfr.CFRSolver(game)
    for _ in range(40):
        solver.evaluate_and_update_policy()
    learned = exploitability.nash_conv(game, solver.average_policy())
    assert uniform > 0.3  # money in 100M yen: the uniform mix gives away a third of 100M
    assert learned < uniform / 10


def test_resampled_states_share_the_information_state() -> None:
    game = dos.load("pandemic", players=4, infected=1, rounds=1, ticks=3)
    rng = random.Random(0)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        player = state.current_player()
        other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.legal_actions() == state.legal_actions()
        checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 10


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("smuggling", TINY_SMUGGLING),
        ("pandemic", {"players": 4, "infected": 1, "rounds": 1, "ticks": 2}),
    ],
)
def test_mcts_and_information_set_mcts_play_whole_games(game: str, options: dict[str, Any]) -> None:
    loaded = dos.load(game, **options)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bots = [
        ismcts.ISMCTSBot(
            loaded, evaluator, uct_c=2.0, max_simulations=30, random_state=np.random.RandomState(1)
        ),
        mcts.MCTSBot(
            loaded,
            uct_c=2.0,
            max_simulations=30,
            evaluator=evaluator,
            random_state=np.random.RandomState(2),
        ),
    ]
    rng = random.Random(3)
    for first in range(2):
        state = loaded.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            player = state.current_player()
            bot = bots[(player + first) % 2] if player < 2 else None
            action = bot.step(state) if bot is not None else rng.choice(state.legal_actions())
            assert action in state.legal_actions()
            state.apply_action(action)
        assert len(state.returns()) == loaded.num_players()
