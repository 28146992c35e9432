"""The shipped networks of ``ismcts`` (``net.npz``): they load, their version is the code's, and
the policy network only ever chooses legal plays."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dennou.arena.play import play
from dennou.core.game import CHANCE
from dennou.games.daifugo import GAME
from dennou.games.daifugo import net as N
from dennou.games.daifugo import sim as S
from dennou.games.daifugo.actions import Pass, Play
from dennou.games.daifugo.ismcts import IsmctsBot
from dennou.games.daifugo.policy import NF, NV, policy, position_value
from tests.games.daifugo.test_sim import random_options, start


def test_shipped_networks_load_with_this_codes_version_and_their_provenance() -> None:
    nets = N.load()
    assert nets.meta["version"] == N.VERSION
    assert nets.policy.shape[0] > NF and nets.value.shape[0] > NV
    for key in ("command", "teacher", "train_set_seeds", "policy_heldout", "value_heldout"):
        assert nets.meta[key], key
    assert N.NET_FILE.stat().st_size < 64 * 1024  # small enough to ship in the package


def test_networks_of_another_version_or_shape_are_refused(tmp_path: Path) -> None:
    nets = N.load()
    other = tmp_path / "net.npz"
    N.save(other, nets.policy, nets.value, {**nets.meta, "version": "0"})
    with pytest.raises(ValueError, match="version"):
        N.load(other)
    N.save(other, nets.policy[:-1], nets.value, nets.meta)
    with pytest.raises(ValueError, match="policy"):
        N.load(other)


def test_policy_network_chooses_only_legal_plays_under_random_rules() -> None:
    """Games of random rule combinations played by the network's most likely play: each one
    is among the engine's legal plays (a pass only where passing is allowed)."""
    w = N.load().policy
    rng = random.Random(11)
    buf = np.zeros(S.MAXMOVES, dtype=np.uint64)
    probs = np.zeros(S.MAXMOVES + 1)
    feats = np.zeros(NF + N.SCRATCH)
    checked = 0
    for _ in range(25):
        n = rng.choice([3, 4, 5, 5, 6])
        rules = GAME.make_rules(random_options(rng))
        state = start(GAME.new(rules, [f"p{i}" for i in range(n)]), rng, rng.choice([1, 2]))
        fl = S.flags_of_rules(rules)
        for _ in range(2000):
            if state.phase != "play":
                break
            seat = state.turn
            action: Any
            if state.follow_up is not None:
                state, _ = GAME.apply_default(state, seat)
            else:
                st = S.pack(state)
                hand = np.uint64(st[S.HEAD + 3 * n + seat])
                k, can_pass = policy(st, fl, hand, w, buf, probs, feats)
                total = k + int(can_pass)
                assert total > 0 and abs(probs[:total].sum() - 1.0) < 1e-9
                best = int(np.argmax(probs[:total]))
                move = int(buf[best]) if best < k else 0
                engine = {S.move_of(c) for c in GAME.legal_combos(state, seat)}
                if GAME.may_pass(state):
                    engine.add(0)
                assert move in engine
                action = Pass() if move == 0 else Play(S.combo_of(move).strs())
                state, _ = GAME.apply(state, seat, action)
                checked += 1
            if state.phase == "stalemate":
                state, _ = GAME.apply(state, CHANCE, GAME.sample_chance(state, rng))
    assert checked > 500


def test_value_network_judges_positions_between_zero_and_one() -> None:
    v = N.load().value
    rng = random.Random(3)
    rules = GAME.make_rules({"games": 1})
    state = start(GAME.new(rules, [f"p{i}" for i in range(5)]), rng, 1)
    st = S.pack(state)
    fl = S.flags_of_rules(rules)
    values = [position_value(st, fl, x, v, np.zeros(NV)) for x in range(5)]
    assert all(0.0 < x < 1.0 for x in values)


def test_ismcts_with_the_networks_plays_a_set_to_its_end() -> None:
    bot = IsmctsBot(playouts=40, samples=4, mcmc=2, net=True, net_value=True, cutoff=6)
    assert bot.playout_weights.shape[0] > NF and bot.value_weights.shape[0] > NV
    bots = [bot, *(IsmctsBot(playouts=40, samples=4, mcmc=2) for _ in range(4))]
    record = play(GAME, GAME.make_rules({"games": 2}), bots, 5)
    assert record.outcome is not None
