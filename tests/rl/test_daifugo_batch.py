"""The batched Daifugo env (``dennou.rl.batch``, ``dennou.rl.vector``) against the engine.

Every row of random batch play is replayed through the engine's public API (``GAME.new``, a
``Deal`` of the row's hands, ``GAME.apply`` of ``encoding.action`` for each number, the kernel's
7 pass and 10 discard as ``Give`` / ``Discard``, a 千日手's drawn places as ``Places``); at
every step each row's observation and mask must equal ``DaifugoEncoding``'s on the engine's
state, and each ended game's rewards and places the engine's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from dennou.core.game import CHANCE
from dennou.games.daifugo import GAME
from dennou.games.daifugo.actions import Places
from dennou.games.daifugo.rules import LOCAL_RULES
from dennou.games.daifugo.state import DaifugoState
from dennou.rl.batch import DaifugoBatchEnv
from tests.games.daifugo.helpers import dealt_like_a_row, made_for_the_player

CONFIGS: dict[str, tuple[int, dict[str, Any]]] = {
    "seed rules": (5, {}),
    "uecda": (5, {"preset": "uecda"}),
    "local rules, one game a set": (4, {**LOCAL_RULES, "games": 1}),
    "local rules, lead pass, 千日手": (
        3,
        {**LOCAL_RULES, "lead_pass": True, "auto_pass": False, "stalemate_passes": 6},
    ),
    "two seats, sequences": (2, {"sequences": True, "suit_lock": True, "seven_pass": True}),
}
"""Seats and rules: both presets, every local rule (the set's last game pays final points too),
a short 千日手 with passes on an empty field so that drawn places happen, and two seats (hands of
27 cards: hundreds of legal plays, more than the legal-number buffer first holds)."""

ROWS = 24
STEPS = 300


def _check_row(
    env: DaifugoBatchEnv, state: DaifugoState, g: int, obs: Any, mask: Any, seat: Any
) -> None:
    enc = env.encoding
    assert state.phase == "play" and state.follow_up is None
    assert seat[g] == state.turn, g
    want = enc.observe(state, state.turn)
    assert obs.dtype == want.dtype
    assert obs[g].tobytes() == want.tobytes(), (g, np.nonzero(obs[g] != want))
    assert np.array_equal(mask[g], enc.action_mask(state, state.turn).astype(bool)), g


def _replay(players: int, rules: dict[str, Any], seed: int) -> dict[str, int]:
    env = DaifugoBatchEnv(ROWS, rules, players, seed=seed)
    enc = env.encoding
    rng = np.random.default_rng(seed)
    obs, mask, seat = env.reset()
    assert obs.shape == (ROWS, enc.size) and mask.shape == (ROWS, enc.num_actions)
    assert mask.dtype == np.bool_
    hands = env.hands()
    states = [dealt_like_a_row(env.rules, hands[g]) for g in range(ROWS)]
    seen = {"games": 0, "stalemates": 0, "follow-ups": 0}
    for g in range(ROWS):
        _check_row(env, states[g], g, obs, mask, seat)
    for _ in range(STEPS):
        actions = env.sample_actions(rng)
        obs, mask, seat, rewards, done = env.step(actions)
        hands = env.hands()
        for g in range(ROWS):
            state = states[g]
            x = state.turn
            state, _ = GAME.apply(state, x, enc.action(state, x, int(actions[g])))
            if state.follow_up is not None:
                seen["follow-ups"] += 1
            state = made_for_the_player(state)
            if state.phase == "stalemate":
                seen["stalemates"] += 1
                placed = env.final_places[g]
                left = sorted(
                    (s for s in range(players) if state.hands[s]), key=lambda s: placed[s]
                )
                state, _ = GAME.apply(state, CHANCE, Places(tuple(left)))
            assert done[g] == (state.game_no == 2), g
            if not done[g]:
                assert not rewards[g].any()
                assert (env.final_places[g] == -1).all()
                states[g] = state
            else:
                seen["games"] += 1
                result = state.results[0]
                places = [result.finish.index(s) for s in range(players)]
                assert env.final_places[g].tolist() == places
                assert rewards[g].tolist() == [float(p) for p in state.points]
                if state.phase == "over":  # a one-game set: the outcome is the reward
                    assert rewards[g].tolist() == list(GAME.outcome(state).scores)
                states[g] = dealt_like_a_row(env.rules, hands[g])
            _check_row(env, states[g], g, obs, mask, seat)
    return seen


@pytest.mark.parametrize("config", list(CONFIGS))
def test_rows_match_the_engine_observation_mask_and_rewards(config: str) -> None:
    players, rules = CONFIGS[config]
    seen = _replay(players, rules, seed=3)
    assert seen["games"] >= ROWS  # whole games ended and were dealt again
    if rules.get("seven_pass"):
        assert seen["follow-ups"] > 0
    if rules.get("stalemate_passes"):
        assert seen["stalemates"] > 0


def _trajectory(env: DaifugoBatchEnv, steps: int, seed: int) -> list[bytes]:
    rng = np.random.default_rng(seed)
    out = [b"".join(a.tobytes() for a in env.reset())]
    for _ in range(steps):
        got = env.step(env.sample_actions(rng))
        out.append(b"".join(a.tobytes() for a in got))
    return out


def test_same_seed_same_trajectory_other_seed_other_trajectory() -> None:
    rules = {"preset": "uecda"}
    a = DaifugoBatchEnv(8, rules, seed=11)
    b = DaifugoBatchEnv(8, rules, seed=11)
    c = DaifugoBatchEnv(8, rules, seed=12)
    # interleaved: each env's deals and draws come from its own generator
    ta, tb, tc = [], [], []
    for _ in range(2):
        ta += _trajectory(a, 150, 0)
        tb += _trajectory(b, 150, 0)
        tc += _trajectory(c, 150, 0)
    assert ta == tb
    assert ta[0] != tc[0]
    assert a.reset(seed=5)[0].tobytes() == c.reset(seed=5)[0].tobytes()
    assert a.reset()[0].tobytes() == c.reset()[0].tobytes()


@pytest.mark.parametrize("config", ["seed rules", "two seats, sequences"])
def test_step_returns_the_env_buffers_each_call_with_the_values_of_fresh_copies(
    config: str,
) -> None:
    players, rules = CONFIGS[config]
    reused = DaifugoBatchEnv(16, rules, players, seed=3)
    fresh = DaifugoBatchEnv(16, rules, players, seed=3, copy=True)
    rng = np.random.default_rng(4)
    first = reused.reset()
    kept: tuple[Any, ...] = fresh.reset()
    assert [a.tobytes() for a in first] == [a.tobytes() for a in kept]
    buffers: tuple[Any, ...] = ()
    ended = 0
    for step in range(250):
        actions = reused.sample_actions(rng)
        before = [a.copy() for a in kept]
        got = reused.step(actions)
        want = fresh.step(actions)
        # the same values as fresh arrays, in the same buffers every step
        assert [a.tobytes() for a in got] == [a.tobytes() for a in want], step
        assert [a.dtype for a in got] == [a.dtype for a in want]
        if step == 0:
            buffers = got
            assert got[0] is first[0] and got[1] is first[1] and got[2] is first[2]
        assert all(a is b for a, b in zip(got, buffers, strict=True))
        # copies: new arrays, and the last step's are left as they were
        assert not any(np.shares_memory(a, b) for a, b in zip(want, kept[:3], strict=False))
        assert all(np.array_equal(a, b) for a, b in zip(kept, before, strict=True))
        kept = want
        ended += int(want[4].sum())
    assert ended > 0  # rows were dealt again (auto-reset) under both
    # a kept buffer shows the newest step: what the docs say to copy
    assert first[0] is reused.step(reused.sample_actions(rng))[0]


def test_vector_env_without_copies_steps_as_with_them() -> None:
    from dennou.rl.vector import DaifugoVectorEnv

    a = DaifugoVectorEnv(8, {"preset": "uecda"}, seed=5)
    b = DaifugoVectorEnv(8, {"preset": "uecda"}, seed=5, copy=False)
    rng = np.random.default_rng(6)
    oa, _ = a.reset()
    ob, _ = b.reset()
    for _ in range(200):
        mask = oa["action_mask"].astype(bool)
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        oa, ra, da, _, ia = a.step(actions)
        ob, rb, db, _, ib = b.step(actions)
        assert oa["observation"].tobytes() == ob["observation"].tobytes()
        assert oa["action_mask"].tobytes() == ob["action_mask"].tobytes()
        assert ra.tolist() == rb.tolist() and da.tolist() == db.tolist()
        assert ia["seat"].tolist() == ib["seat"].tolist()


def test_a_new_env_deals_again_from_its_seed() -> None:
    first = DaifugoBatchEnv(4, seed=9).hands()
    DaifugoBatchEnv(4, seed=10)  # another env in between changes nothing
    assert np.array_equal(DaifugoBatchEnv(4, seed=9).hands(), first)
    rows = {tuple(h) for h in first.tolist()}
    assert len(rows) == 4  # every row its own deal


def _snapshot(env: DaifugoBatchEnv) -> tuple[bytes, ...]:
    return (
        env.batch.states.tobytes(),
        env.legal()[0].tobytes(),
        env.seat.tobytes(),
        env.final_places.tobytes(),
    )


@pytest.mark.parametrize(
    ("make_actions", "message"),
    [
        (lambda ok: ok[:-1], "shape"),
        (lambda ok: ok.reshape(-1, 1), "shape"),
        (lambda ok: ok.astype(np.float64), "integers"),
        (lambda ok: np.where(np.arange(len(ok)) == 2, -1, ok), "row 2"),
        (lambda ok: np.where(np.arange(len(ok)) == 3, 10**6, ok), "row 3"),
    ],
)
def test_bad_actions_raise_and_change_nothing(make_actions: Any, message: str) -> None:
    env = DaifugoBatchEnv(6, seed=1)
    rng = np.random.default_rng(0)
    for _ in range(5):
        env.step(env.sample_actions(rng))
    ok = env.sample_actions(rng)
    before = _snapshot(env)
    with pytest.raises(ValueError, match=message):
        env.step(make_actions(ok))
    assert _snapshot(env) == before
    env.step(ok)  # still steps


def test_an_illegal_number_names_its_row_and_changes_nothing() -> None:
    env = DaifugoBatchEnv(6, {"preset": "uecda"}, seed=2)
    _, mask, _, *_ = env.reset()
    actions = env.sample_actions(np.random.default_rng(0))
    illegal = int(np.flatnonzero(~mask[4])[0])
    actions[4] = illegal
    before = _snapshot(env)
    with pytest.raises(ValueError, match="row 4"):
        env.step(actions)
    assert _snapshot(env) == before


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_envs": 0},
        {"num_envs": -3},
        {"num_envs": 2.5},
        {"num_envs": 2, "players": 1},
        {"num_envs": 2, "players": 9},
        {"num_envs": 2, "rules": {"no_such_rule": True}},
        {"num_envs": 2, "rules": {"preset": "nope"}},
        {"num_envs": 2, "rules": {"jokers": 7}},
        {"num_envs": 2, "rules": "uecda"},
    ],
)
def test_bad_constructor_arguments_raise_value_error(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        DaifugoBatchEnv(**kwargs)


def test_move_of_gives_the_kernel_moves_of_play_numbers() -> None:
    env = DaifugoBatchEnv(3, {"preset": "uecda"}, seed=4)
    flat, _ = env.legal()
    moves = env.move_of(flat)
    enc = env.encoding
    for number, move in zip(flat.tolist(), moves.tolist(), strict=True):
        assert number == 0 if move == 0 else enc.number_of_play(move) == number
    with pytest.raises(ValueError):
        env.move_of(np.array([enc.num_actions]))
    with pytest.raises(ValueError):
        env.move_of(np.array([enc.num_actions - 1]))  # a give: not a play


def test_sample_actions_is_uniform_over_the_mask() -> None:
    env = DaifugoBatchEnv(1, seed=0)
    flat, _ = env.legal()
    rng = np.random.default_rng(1)
    counts: dict[int, int] = {}
    for _ in range(4000):
        a = int(env.sample_actions(rng)[0])
        counts[a] = counts.get(a, 0) + 1
    assert set(counts) == set(flat.tolist())
    expected = 4000 / len(flat)
    assert all(abs(c - expected) < 5 * expected**0.5 for c in counts.values())


def test_vector_env_runs_random_episodes() -> None:
    import gymnasium
    from gymnasium.vector import VectorEnv

    from dennou.rl.vector import DaifugoVectorEnv

    env = DaifugoVectorEnv(16, {"preset": "uecda"}, seed=0)
    assert isinstance(env, VectorEnv)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert isinstance(env.single_observation_space, gymnasium.spaces.Dict)
    assert env.single_observation_space["action_mask"].shape == (env.batch.num_actions,)
    ended = 0
    rng = np.random.default_rng(0)
    for _ in range(400):
        mask = obs["action_mask"].astype(bool)
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        assert env.action_space.contains(actions)
        obs, reward, terminated, truncated, info = env.step(actions)
        assert env.observation_space.contains(obs)
        assert reward.shape == (16,) and reward.dtype == np.float32
        assert not truncated.any()
        assert np.array_equal(info["rewards"][~terminated], np.zeros((16 - terminated.sum(), 5)))
        ended += int(terminated.sum())
    assert ended > 0
    env.close()


@pytest.mark.parametrize("rules", [{}, {"preset": "uecda"}])
def test_vector_env_pays_each_seat_its_own_place(rules: dict[str, Any]) -> None:
    """Each step's reward is the acting seat's: over a game, a seat's steps add up to its
    title's points above the last place's (the seat left last is owed 0 and never moves
    again), and the step that ends a game pays the seat that moved, whatever its place."""
    from dennou.rl.vector import DaifugoVectorEnv

    n, rows = 5, 16
    env = DaifugoVectorEnv(rows, rules, players=n, seed=0)
    low = float(env.batch.place_rewards[-1])
    _, info = env.reset(seed=1)
    paid = np.zeros((rows, n))
    rng = np.random.default_rng(0)
    seen: set[float] = set()
    games = 0
    for _ in range(600):
        acting = info["seat"]
        actions = env.batch.sample_actions(rng)
        _, reward, terminated, _, info = env.step(actions)
        paid[np.arange(rows), acting] += reward
        seen.update(reward.tolist())
        for g in np.flatnonzero(terminated):
            assert reward[g] == info["rewards"][g, acting[g]] - low
            np.testing.assert_allclose(paid[g], info["rewards"][g] - low)
            paid[g] = 0.0
            games += 1
    assert games > 50
    # Every place but the last is paid to someone (the last place's 0 is every other step's).
    assert seen == {0.0, *(float(p) - low for p in env.batch.place_rewards[:-1])}
