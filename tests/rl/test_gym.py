"""Gymnasium single-agent environments: registered ids, env_checker, bots as opponents."""

from __future__ import annotations

import subprocess
import sys

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import dennou.rl as rl
from dennou.core.bot import Bot, RandomBot
from dennou.games import get
from tests.rl.conftest import CASE_IDS, CASES, PRESETS, finishing_choice


@pytest.mark.parametrize(("game", "i"), CASES, ids=CASE_IDS)
def test_check_env_passes(game: str, i: int) -> None:
    env = gymnasium.make(rl.gym_id(game), **PRESETS[game][i])
    check_env(env.unwrapped, skip_render_check=False)


@pytest.mark.parametrize(("game", "i"), CASES, ids=CASE_IDS)
def test_an_episode_against_bots_ends_with_the_outcome_reward(game: str, i: int) -> None:
    env = gymnasium.make(rl.gym_id(game), seat=1, **PRESETS[game][i])
    inner = env.unwrapped
    assert isinstance(inner, rl.DennouGym)
    obs, info = env.reset(seed=2)
    total, done, k = 0.0, False, 0
    while not done:
        assert obs["action_mask"].any(), "the learner is only asked when it must act"
        obs, reward, term, trunc, info = env.step(finishing_choice(inner.table, obs, k))
        assert not info["illegal"]
        total += float(reward)
        done = term or trunc
        k += 1
    table = inner.table
    assert table.over()
    assert total == pytest.approx(table.final_rewards(table.game.outcome(table.state))[1])


def test_opponents_by_spec_and_by_object() -> None:
    env = rl.DennouGym("numeron", opponents="solver", digits=3)
    assert type(env.bots[1]).__name__ != "RandomBot"
    bot: Bot = RandomBot()
    env = rl.DennouGym("numeron", opponents=[bot], digits=3)
    assert env.bots[1] is bot


def test_gymnasium_make_with_module_prefix_needs_no_import() -> None:
    env = gymnasium.make("dennou.rl:dennou/Pandemic-v0", players=4, rounds=1, ticks=2)
    obs, _ = env.reset(seed=0)
    space = env.observation_space
    assert isinstance(space, gymnasium.spaces.Dict)
    assert obs["observation"].shape == space["observation"].shape


def test_illegal_number_applies_the_default_or_raises() -> None:
    env = rl.DennouGym("pandemic", players=4, rounds=1, ticks=2)
    env.reset(seed=0)
    seat_self = 3 + env.seat  # contact oneself: never legal
    _, _, _, _, info = env.step(seat_self)
    assert info["illegal"]
    strict = rl.DennouGym("pandemic", players=4, rounds=1, ticks=2, illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(rl.IllegalActionNumber):
        strict.step(seat_self)


def test_ansi_render_shows_the_view_in_words() -> None:
    env = rl.DennouGym("numeron", digits=3, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "set a number" in text and "you (seat_0" in text


def test_gymnasium_vector_envs_run_with_masks() -> None:
    """``gymnasium.make_vec`` batches any game (terminal steps carry an all-zero mask)."""
    vec = gymnasium.make_vec(
        rl.gym_id("pandemic"),
        num_envs=3,
        vectorization_mode="sync",
        players=4,
        rounds=1,
        ticks=3,
    )
    obs, _ = vec.reset(seed=0)
    enc = rl.encoding_for("pandemic", {"rounds": 1, "ticks": 3}, 4)
    assert obs["observation"].shape == (3, enc.size)
    assert obs["action_mask"].shape == (3, enc.num_actions)
    episodes = 0
    for _ in range(40):
        legal = [row.nonzero()[0] for row in obs["action_mask"]]
        actions = np.array([int(ix[-1]) if len(ix) else 0 for ix in legal])
        obs, _, term, trunc, _ = vec.step(actions)
        episodes += int(np.sum(term | trunc))
    assert episodes >= 3


def test_make_takes_a_seed_that_fixes_the_first_unseeded_episode() -> None:
    """``seed`` is the env's own option (as in the PettingZoo envs), not a rules option."""
    envs = [gymnasium.make(rl.gym_id("numeron"), seed=1, digits=3) for _ in range(2)]
    check_env(gymnasium.make(rl.gym_id("numeron"), seed=1, digits=3).unwrapped)
    firsts = []
    for env in envs:
        env.reset()
        inner = env.unwrapped
        assert isinstance(inner, rl.DennouGym)
        firsts.append((inner.table.seed, [int(env.action_space.sample()) for _ in range(5)]))
    assert firsts[0] == firsts[1]
    other = gymnasium.make(rl.gym_id("numeron"), seed=2, digits=3)
    other.reset()
    assert other.unwrapped.table.seed != firsts[0][0]  # type: ignore[attr-defined]


def test_star_hilo_registers_an_episode_step_limit() -> None:
    """Its default rules never end a series for a learner that plays at random: its game says so."""
    env = gymnasium.make(rl.gym_id("hilo"), players=2)
    assert env.unwrapped.max_cycles == 2_000  # type: ignore[attr-defined]
    assert get("hilo").spec.learning.max_episode_steps == 2_000  # type: ignore[union-attr]
    short = gymnasium.make(rl.gym_id("hilo"), players=2, max_episode_steps=30)
    obs, _ = short.reset(seed=0)
    rng = np.random.default_rng(0)
    steps, term, trunc = 0, False, False
    while not (term or trunc) and steps < 100:
        action = rng.choice(np.flatnonzero(obs["action_mask"]))
        obs, _, term, trunc, _ = short.step(action)
        steps += 1
    assert trunc and not term and steps == 30


def test_importing_dennou_rl_registers_every_game_s_id_without_importing_a_game() -> None:
    """The ids follow from the registry's names; a game is imported when its env is made."""
    code = (
        "import sys, gymnasium, dennou.rl\n"
        "from dennou.games import REGISTRY\n"
        "assert not [m for m in sys.modules if m.startswith('dennou.games.')]\n"
        "assert {f'dennou/{n.capitalize()}-v0' for n in REGISTRY} <= set(gymnasium.registry)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
