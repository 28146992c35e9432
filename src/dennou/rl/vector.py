"""Daifugo self-play as a Gymnasium vector env over :class:`~dennou.rl.batch.DaifugoBatchEnv`.

Every seat of every game is played by the same policy: each sub-env is one game, and each step
is the decision of whichever seat is due to act in it (``infos["seat"]`` says which)::

    from dennou.rl.vector import DaifugoVectorEnv

    env = DaifugoVectorEnv(1024, {"preset": "uecda"}, seed=0)
    obs, infos = env.reset()               # obs["observation"], obs["action_mask"] (int8)
    obs, reward, terminated, truncated, infos = env.step(actions)

Spaces are the PettingZoo env's (``Dict(observation=Box, action_mask=Box(0, 1, int8))`` and
``Discrete(num_actions)``). ``infos["rewards"]`` holds every seat's reward of the games that
ended (the points of its title), ``infos["final_places"]`` their places
(``infos["_final_places"]`` marks them). As with Gymnasium's own vector envs, ``copy=True`` (the
default) returns new arrays each step; ``copy=False`` returns the batched env's buffers,
overwritten by the next step (faster: see :class:`~dennou.rl.batch.DaifugoBatchEnv`). Ended
games are dealt again in the same step (``autoreset_mode`` same-step); a finished game has no
seat to act, so there is no final observation. Nothing is ever truncated.

``reward`` is the acting seat's own: a seat's place is settled by the move that takes it out
(its last decision of the game), and that step pays it its title's points **above the last
place's** (``place_rewards[place] - place_rewards[-1]``); every other step pays 0. The seat left
last never decides again, and on this scale it is owed 0, so every seat's steps add up to its
points above the last place. (Paying the points themselves would give the last seat nothing, more
than the next-to-last's negative points; a shift common to all seats changes no seat's best
play.) In a 千日手 the places of the seats still holding cards are drawn: the seat whose move
ended the game is paid for its drawn place, the others only through ``infos["rewards"]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space

from dennou.games.daifugo import sim as S
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
        copy: New arrays each step (``False``: the batched env's buffers, overwritten by the
            next step).

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
        *,
        copy: bool = True,
    ) -> None:
        self.batch = DaifugoBatchEnv(num_envs, rules, players, seed, copy=copy)
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
        self._seat = seat.copy()  # the seats that act next (the batched env's may be reused)
        return self._obs(obs, mask), {"seat": seat}

    def step(self, actions: Any) -> tuple[dict[str, Any], Any, Any, Any, dict[str, Any]]:
        """Each game's seat to act takes its action number.

        Raises:
            ValueError: A number that is not legal in its game (the game is named; nothing
                changed).
        """
        acted = self._seat
        states = self.batch.batch.states
        finished = states[:, S.NFIN].copy()
        obs, mask, seat, rewards, done = self.batch.step(actions)
        self._seat = seat.copy()
        points = self.batch.place_rewards
        low = points[-1]
        reward = np.zeros(self.num_envs, np.float32)
        rows = np.flatnonzero(done)
        reward[rows] = rewards[rows, acted[rows]] - low
        # Rows still playing (not dealt again) where the move took its seat out.
        rows = np.flatnonzero(~done & (states[:, S.NFIN] > finished))
        if len(rows):
            n = self.batch.players
            place = states[rows, S.NFIN] - 1
            out = states[rows, S.HEAD + 2 * n + place] == acted[rows]
            reward[rows[out]] = points[place[out]] - low
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
