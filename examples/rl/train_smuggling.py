"""Train a Smuggling Game agent with Stable-Baselines3 (MaskablePPO) and export it as a bot.

    pip install 'dennou[rl]' sb3-contrib          # torch comes with it (CPU is plenty)
    python examples/rl/train_smuggling.py --steps 200000 --out examples/rl/smuggling_ppo.npz
    dennou match smuggling --bots policy:path=examples/rl/smuggling_ppo.npz,random \
        --games 400 --rules team_size=1 --rules small_games=10

The agent plays one seat of a 1 v 1 game of ten small games (it smuggles in one half, inspects
in the other) against the built-in ``random`` bot. Its reward is what ``dennou match`` counts
as a win (``reward="rank"``: 1 for finishing first in money, 0 for second). Its seat is drawn at
every reset, so it learns both sides. The trained network is written as a NumPy policy file
that ``dennou``'s ``policy`` bot plays without PyTorch (``dennou.rl.policy``).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium
import numpy as np
import torch  # type: ignore[import-not-found]
from sb3_contrib import MaskablePPO  # type: ignore[import-not-found]
from sb3_contrib.common.wrappers import ActionMasker  # type: ignore[import-not-found]

import dennou.rl
from dennou.rl.policy import save_policy

RULES: dict[str, Any] = {"team_size": 1, "small_games": 10}


class ObservationOnly(gymnasium.ObservationWrapper):
    """The observation vector alone (the mask goes to MaskablePPO through ``action_masks``)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        """The vector part."""
        return observation["observation"]


def make_env(opponents: str) -> Any:
    """The learner's env: a random seat of a 1 v 1 game against ``opponents``, masks for PPO."""
    env = gymnasium.make(
        "dennou/Smuggling-v0", opponents=opponents, seat=None, reward="rank", **RULES
    )
    return ActionMasker(ObservationOnly(env), lambda e: e.unwrapped.action_masks())


def export(model: MaskablePPO, path: str) -> None:
    """Write the policy network (tanh MLP, then the action logits) as a dennou policy file."""
    layers = [
        (m.weight.detach().numpy(), m.bias.detach().numpy())
        for m in model.policy.mlp_extractor.policy_net
        if isinstance(m, torch.nn.Linear)
    ]
    head = model.policy.action_net
    layers.append((head.weight.detach().numpy(), head.bias.detach().numpy()))
    enc = dennou.rl.encoding_for("smuggling", RULES, 2)
    save_policy(path, "smuggling", enc, layers)


def main() -> None:
    """Train, report the time, export."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=200_000, help="environment steps")
    parser.add_argument("--opponents", default="random", help="bot spec of the other seat")
    parser.add_argument("--out", default="examples/rl/smuggling_ppo.npz")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    env = make_env(args.opponents)
    env.reset(seed=args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=2048,
        batch_size=256,
        gamma=0.995,
        ent_coef=0.01,
        seed=args.seed,
        verbose=1,
        policy_kwargs={"net_arch": [64, 64]},
    )
    started = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    print(f"trained {args.steps} steps in {time.perf_counter() - started:.0f} s")
    export(model, args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
