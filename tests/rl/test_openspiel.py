"""OpenSpiel: every game registered as a pyspiel Python game and checked by pyspiel itself."""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, exploitability, ismcts, mcts

import dennou.rl.openspiel as dos
from dennou.core.errors import ConfigError
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


CFR_SMUGGLING: dict[str, Any] = {**TINY_SMUGGLING, "players": 2}
"""The CFR configuration of docs/rl.md (several rules options: commas in the game string)."""


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("smuggling", CFR_SMUGGLING),
        ("hilo", {"players": 2, "max_games": 2, "max_number": 1000, "max_rounds": 30}),
        ("pandemic", {"players": 4, "infected": 1, "rounds": 1, "ticks": 2}),
        ("chairs", {"players": 8, "starting_players": 3, "chairs": 6, "public_gifts": True}),
    ],
)
def test_game_string_with_several_rules_options_loads_and_serializes(
    game: str, options: dict[str, Any]
) -> None:
    """``load_game(str(game))`` gives the same game, and pyspiel's own simulation test passes
    with serialization on (every state through ``serialize``/``deserialize_state``)."""
    loaded = dos.load(game, **options)
    again = pyspiel.load_game(str(loaded))
    assert str(again) == str(loaded)
    assert again.get_parameters() == loaded.get_parameters()
    pyspiel.random_sim_test(again, num_sims=1, serialize=True, verbose=False)


def test_rules_parameter_round_trips_awkward_text() -> None:
    options = {"items": ["double", "target"], "note": "a,b=(c)%2C"}
    text = dos.rules_parameter(options)
    assert not set(",()=") & set(text)
    assert dos.parse_rules(text) == options
    assert dos.parse_rules('{"small_games": 1, "unit": 50000000}') == {
        "small_games": 1,
        "unit": 50_000_000,
    }
    with pytest.raises(ValueError, match="JSON object"):
        dos.parse_rules("[1]")


def _random_walk(state: Any, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game", list(PRESETS))
def test_pickled_games_and_states_play_on_identically(game: str) -> None:
    players, rules = split(PRESETS[game][1])
    loaded = dos.load(game, players=players, **rules)
    copy = pickle.loads(pickle.dumps(loaded))
    assert str(copy) == str(loaded)
    state = loaded.new_initial_state()
    _random_walk(state, random.Random(0), 25)
    twin = pickle.loads(pickle.dumps(state))
    assert twin.history() == state.history() and str(twin) == str(state)
    assert twin.get_game().num_players() == loaded.num_players()
    # The same moves from here lead both to the same place.
    _random_walk(state, random.Random(1), 40)
    _random_walk(twin, random.Random(1), 40)
    assert twin.history() == state.history() and str(twin) == str(state)
    assert twin.is_terminal() == state.is_terminal() and twin.returns() == state.returns()


def test_information_state_tensor_is_not_provided_anywhere() -> None:
    """The game type says no information state tensor, and asking for one says so too."""
    game = dos.load("smuggling", **CFR_SMUGGLING)
    assert not game.get_type().provides_information_state_tensor
    assert game.get_type().provides_information_state_string
    state = game.new_initial_state()
    assert json.loads(state.information_state_string(0))["mine"] == []
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
    with pytest.raises(NotImplementedError, match="no information state tensor"):
        state.information_state_tensor(0)
    with pytest.raises(NotImplementedError, match="no information state tensor"):
        game.information_state_tensor_size()


@pytest.mark.parametrize("players", [1, 3, 25])
def test_load_game_refuses_a_player_count_outside_the_game(players: int) -> None:
    with pytest.raises(ConfigError, match="pandemic takes 4-24 players"):
        pyspiel.load_game("python_dennou_pandemic", {"players": players})
