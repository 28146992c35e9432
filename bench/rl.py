"""RL environment speed: PettingZoo AEC steps/s with masks for every game, beside peers.

    python bench/rl.py                 # every row, 3 CPU seconds each
    python bench/rl.py --seconds 1 --only numeron,pandemic
    python bench/rl.py --only batched  # the batched Daifugo env alone

Every row drives a PettingZoo AEC env the way a training loop does: ``last()`` (observation and
action mask), a uniform choice among the legal numbers, ``step``; dead steps at the end of an
episode are not counted, resets are. Peers in the same run: PettingZoo's ``leduc_holdem_v4``
and ``texas_holdem_v4`` (AEC, same loop) and RLCard's ``doudizhu`` (its own ``step`` with the
legal actions of its state). Speeds are per CPU second (``time.process_time``): one core.

The ``batched`` rows step :class:`dennou.rl.batch.DaifugoBatchEnv` (``--batch`` games at once):
each step is one decision in every game, chosen by ``sample_actions`` (uniform over the mask),
and its time includes the next observations and masks of every row; steps/s counts decisions
(rows x steps). Numba's compilation is done before the clock starts.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import numpy as np

import dennou.rl as rl
from dennou.games.daifugo.rules import LOCAL_RULES

ROWS: dict[str, dict[str, Any]] = {
    "numeron": {"digits": 3},
    "numeron (4 digits, items)": {"game": "numeron", "digits": 4},
    "stud10": {"view_odds": False},
    "hilo": {"players": 4, "max_games": 1, "max_rounds": 50},
    "smuggling": {},
    "smuggling (1 v 1)": {"game": "smuggling", "team_size": 1},
    "pandemic": {},
    "chairs": {"players": 24},
    "chairs (6 people)": {"game": "chairs", "players": 6},
    "daifugo": {},
    "daifugo (uecda)": {"game": "daifugo", "preset": "uecda"},
    "daifugo (local rules)": {"game": "daifugo", **LOCAL_RULES, "miyako_ochi": False},
}
"""Our rows: default rules unless said (seats: the game's default)."""

BATCHED: dict[str, dict[str, Any]] = {
    "batched daifugo": {},
    "batched daifugo (uecda)": {"preset": "uecda"},
    "batched daifugo (local rules)": LOCAL_RULES,
}
"""The batched env's rows: rules options, five seats."""


def aec_steps_per_s(make: Any, seconds: float, seed: int = 0) -> tuple[float, int]:
    env = make()
    rng = random.Random(seed)
    steps = episodes = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.reset(seed=seed + episodes)
        episodes += 1
        for k, _ in enumerate(env.agent_iter()):
            if k % 256 == 255 and time.process_time() - start > seconds:
                break  # a long episode (random Numeron calls rarely hit) may end the row
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps / (time.process_time() - start), episodes


def batched_steps_per_s(rules: dict[str, Any], seconds: float, n: int) -> tuple[float, int]:
    from dennou.rl.batch import DaifugoBatchEnv

    env = DaifugoBatchEnv(n, rules, seed=0)
    rng = np.random.default_rng(0)
    env.step(env.sample_actions(rng))  # compiled (or loaded from Numba's cache) off the clock
    env.reset()
    steps = episodes = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        *_, done = env.step(env.sample_actions(rng))
        steps += n
        episodes += int(done.sum())
    return steps / (time.process_time() - start), episodes


def rlcard_doudizhu_steps_per_s(seconds: float, seed: int = 0) -> tuple[float, int]:
    import rlcard

    env = rlcard.make("doudizhu", config={"seed": seed})
    rng = random.Random(seed)
    steps = episodes = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state, _ = env.reset()
        episodes += 1
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            steps += 1
    return steps / (time.process_time() - start), episodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per row")
    parser.add_argument("--only", default="", help="comma-separated row names (prefixes)")
    parser.add_argument("--batch", type=int, default=1024, help="games in a batched env")
    args = parser.parse_args()
    only = [s.strip() for s in args.only.split(",") if s.strip()]

    def wanted(name: str) -> bool:
        return not only or any(name.startswith(o) for o in only)

    rows: list[tuple[str, str, float, int, str]] = []
    for label, preset in ROWS.items():
        if not wanted(label):
            continue
        options = dict(preset)
        game = options.pop("game", label)
        env = rl.env(game, **options)
        size = f"{env.encoding.size} obs, {env.encoding.num_actions} actions"
        speed, episodes = aec_steps_per_s(lambda g=game, o=options: rl.env(g, **o), args.seconds)
        rows.append(("dennou " + label, "AEC", speed, episodes, size))
    for label, rules in BATCHED.items():
        if wanted(label):
            speed, episodes = batched_steps_per_s(rules, args.seconds, args.batch)
            rows.append((f"dennou {label}", "batched", speed, episodes, f"N={args.batch}"))
    if wanted("leduc") or wanted("texas"):
        from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4

        for label, module in (
            ("leduc_holdem_v4", leduc_holdem_v4),
            ("texas_holdem_v4", texas_holdem_v4),
        ):
            if wanted(label) or not only:
                speed, episodes = aec_steps_per_s(module.env, args.seconds)
                rows.append((f"PettingZoo {label}", "AEC", speed, episodes, "peer"))
    if wanted("doudizhu") or not only:
        speed, episodes = rlcard_doudizhu_steps_per_s(args.seconds)
        rows.append(("RLCard doudizhu", "env.step", speed, episodes, "peer"))

    width = max(len(r[0]) for r in rows)
    print(f"{'env':<{width}}  {'API':<8}  {'steps/s':>10}  {'episodes':>8}  notes")
    for name, api, speed, episodes, note in rows:
        print(f"{name:<{width}}  {api:<8}  {speed:>10,.0f}  {episodes:>8}  {note}")


if __name__ == "__main__":
    main()
