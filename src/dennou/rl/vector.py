"""Daifugo self-play as a Gymnasium vector env over :class:`~dennou.rl.batch.DaifugoBatchEnv`.

Every seat of every game is played by the same policy: each sub-env is one game, and each step
is the decision of whichever seat is due to act in it (``infos["seat"]`` says which)::

    from dennou.rl.vector import DaifugoVectorEnv

    env = DaifugoVectorEnv(1024, {"preset": "uecda"}, seed=0)
    obs, infos = env.reset()               # obs["observation"], obs["action_mask"] (int8)
    obs, reward, terminated, truncated, infos = env.step(actions)

Spaces are the PettingZoo env's (``Dict(observation=Box, action_mask=Box(0, 1, int8))`` and
``Discrete(num_actions)``). ``reward`` is the reward of the seat that just acted (nonzero only
when its move ended the game); ``infos["rewards"]`` holds every seat's, ``infos["final_places"]``
the places of the games that ended (``infos["_final_places"]`` marks them). Ended games are
dealt again in the same step (``autoreset_mode`` same-step); a finished game has no seat to act,
so there is no final observation. Nothing is ever truncated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space

from dennou.games.daifugo.rules import DaifugoRules
from dennou.rl.batch import DaifugoBatchEnv
from dennou.rl.pz import observation_space

try:
    from gymnasium.vector import AutoresetMode

    _SAME_STEP: Any = AutoresetMode.SAME_STEP
except ImportError:  # pragma: no cover - Gymnasium 1.0 names no modes
    _SAME_STEP = "SameStep"


class DaifugoVectorEnv(VectorEnv[Any, Any, Any]):
    """``num_envs`` Daifugo games as one Gymnasium vector env, every seat the same policy.

    Args:
        num_envs: How many games.
        rules: Rules options (``{"preset": "uecda"}``) or a :class:`DaifugoRules`.
        players: Seats per game (2-8).
        seed: Seed of the games' generator (``reset(seed=...)`` replaces it).

    Raises:
        ValueError: Bad arguments (see :class:`~dennou.rl.batch.DaifugoBatchEnv`).
    """

    metadata: dict[str, Any] = {"autoreset_mode": _SAME_STEP}  # noqa: RUF012 - Gymnasium's way

    def __init__(
        self,
        num_envs: int,
        rules: DaifugoRules | Mapping[str, Any] | None = None,
        players: int = 5,
        seed: int | None = 0,
    ) -> None:
        self.batch = DaifugoBatchEnv(num_envs, rules, players, seed)
        self.num_envs = self.batch.num_envs
        self.single_observation_space = observation_space(self.batch.encoding)
        self.single_action_space = spaces.Discrete(self.batch.num_actions, seed=seed)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.render_mode = None
        self._seat = self.batch.seat

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a fresh game in every sub-env (``seed``: an int for all of them)."""
        if seed is not None and not isinstance(seed, int | np.integer):
            raise ValueError("seed is one int for every game (or None)")
        obs, mask, seat = self.batch.reset(seed)
        self._seat = seat
        return self._obs(obs, mask), {"seat": seat}

    def step(self, actions: Any) -> tuple[dict[str, Any], Any, Any, Any, dict[str, Any]]:
        """Each game's seat to act takes its action number.

        Raises:
            ValueError: A number that is not legal in its game (the game is named; nothing
                changed).
        """
        acted = self._seat
        obs, mask, seat, rewards, done = self.batch.step(actions)
        self._seat = seat
        reward = rewards[np.arange(self.num_envs), acted]
        infos = {
            "seat": seat,
            "rewards": rewards,
            "final_places": self.batch.final_places.copy(),
            "_final_places": done,
        }
        return self._obs(obs, mask), reward, done, np.zeros_like(done), infos

    @staticmethod
    def _obs(obs: Any, mask: Any) -> dict[str, Any]:
        return {"observation": obs, "action_mask": mask.view(np.int8)}
