"""PettingZoo's own test suite on every game, two rules presets each (docs/rl.md)."""

from __future__ import annotations

import functools
import types
import warnings
from typing import Any

import pytest
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    render_test,
    seed_test,
)
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import dennou.rl as rl
from dennou.core.errors import ConfigError
from tests.rl.conftest import CASE_IDS, CASES, MAX_CYCLES_PRESETS, PRESETS, finishing_choice


def _quiet() -> None:
    # Dict observations (observation + action_mask) are what PettingZoo's classic games use too;
    # api_test still warns that they are not Box/Discrete.
    warnings.filterwarnings("ignore", message="Observation space for each agent probably")
    warnings.filterwarnings("ignore", message="Observation is not a NumPy array")


@pytest.mark.parametrize(("game", "i"), CASES, ids=CASE_IDS)
def test_api_test_passes(game: str, i: int) -> None:
    _quiet()
    api_test(rl.env(game, **PRESETS[game][i]), num_cycles=200)


@pytest.mark.parametrize(("game", "i"), CASES, ids=CASE_IDS)
def test_parallel_api_test_passes(game: str, i: int) -> None:
    parallel_api_test(rl.parallel_env(game, **PRESETS[game][i]), num_cycles=200)


@pytest.mark.parametrize(("game", "i"), CASES, ids=CASE_IDS)
def test_seed_test_passes(game: str, i: int) -> None:
    seed_test(functools.partial(rl.env, game, **PRESETS[game][i]), num_cycles=100)


@pytest.mark.parametrize(("game", "i"), CASES, ids=CASE_IDS)
def test_max_cycles_test_passes(game: str, i: int) -> None:
    preset = MAX_CYCLES_PRESETS[game][i]
    mod = types.SimpleNamespace(
        env=functools.partial(rl.env, game, **preset),
        parallel_env=functools.partial(rl.parallel_env, game, **preset),
    )
    max_cycles_test(mod)


@pytest.mark.parametrize(("game", "i"), CASES, ids=CASE_IDS)
@pytest.mark.parametrize("cap", [1, 3, 7])
def test_max_cycles_caps_every_seat(game: str, i: int, cap: int) -> None:
    """No seat makes more than max_cycles decisions; the game is cut when a capped seat is due."""
    env = rl.env(game, max_cycles=cap, seed=5, **PRESETS[game][i])
    env.reset()
    made = dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter(max_iter=100_000):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        made[agent] += 1
        env.step(finishing_choice(env.table, obs, made[agent]))
    table = env.table
    assert max(made.values()) <= cap
    if table.truncated:
        assert not table.over()
        assert max(made.values()) == cap


@pytest.mark.parametrize(("game", "i"), CASES, ids=CASE_IDS)
def test_same_seed_same_game_and_rewards_add_up_to_the_outcome(game: str, i: int) -> None:
    """A seeded game replays exactly; the rewards each agent got sum to its final reward."""
    runs = []
    for _ in range(2):
        env = rl.env(game, **PRESETS[game][i])
        env.reset(seed=11)
        totals: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
        trail: list[Any] = []
        for k, agent in enumerate(env.agent_iter(max_iter=20_000)):
            obs, reward, term, trunc, _ = env.last()
            totals[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            action = finishing_choice(env.table, obs, k)
            trail.append((agent, action, obs["observation"].tobytes()))
            env.step(action)
        table = env.table
        assert table.over(), "the game should end within the iteration bound"
        final = table.final_rewards(table.game.outcome(table.state))
        assert [totals[a] for a in env.possible_agents] == pytest.approx(final)
        runs.append(trail)
    assert runs[0] == runs[1]


@pytest.mark.parametrize("game", ["hilo", "stud10"])
def test_pettingzoo_turn_based_conversion_plays_a_game(game: str) -> None:
    par = turn_based_aec_to_parallel(rl.env(game, **PRESETS[game][0]))
    obs, _ = par.reset(seed=3)
    for _ in range(20_000):
        if not par.agents:
            break
        active = next(iter(par.agents))
        actions = {}
        for agent in par.agents:
            mask = obs[agent]["action_mask"]
            if mask.any():
                active = agent
                actions[agent] = int(mask.nonzero()[0][0])
        assert active in actions
        obs, _, _, _, _ = par.step(actions)
    assert not par.agents


@pytest.mark.parametrize("reward", ["rank", "team"])
def test_rank_and_team_rewards(reward: str) -> None:
    """``rank``: 1 for the sole winner, 0 for the last; ``team``: the team's result."""
    env = rl.env("smuggling", players=4, small_games=2, reward=reward, seed=3)
    env.reset()
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for k, agent in enumerate(env.agent_iter(max_iter=10_000)):
        obs, r, term, trunc, _ = env.last()
        totals[agent] += r
        env.step(None if term or trunc else finishing_choice(env.table, obs, k))
    outcome = env.table.game.outcome(env.table.state)
    values = [totals[a] for a in env.possible_agents]
    if reward == "team":
        teams = outcome.teams or {}
        assert values == [teams[t] for t in outcome.detail["team_of"]]
    else:
        assert values == [(4 - rank) / 3 for rank in outcome.ranks]


def test_team_reward_needs_teams() -> None:
    with pytest.raises(ConfigError, match="no teams"):
        rl.env("pandemic", players=4, reward="team")


@pytest.mark.parametrize("game", list(PRESETS))
def test_render_test_passes(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``ansi`` returns the acting seat's view in words; ``human`` prints it."""
    preset = PRESETS[game][0]
    render_test(functools.partial(rl.env, game, **preset))
    capsys.readouterr()
    env = rl.env(game, render_mode="ansi", **preset)
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text.strip()
    env.step(int(env.observe(env.agent_selection)["action_mask"].nonzero()[0][0]))
    assert capsys.readouterr().out == ""  # ansi returns the text, never prints
