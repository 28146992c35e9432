"""Gymnasium single-agent environments: one seat learns, the others are bots.

``gymnasium.make("dennou/Smuggling-v0", opponents="equilibrium", seat=0, team_size=1)`` (after
``import dennou.rl``, or as ``gymnasium.make("dennou.rl:dennou/Smuggling-v0", ...)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from dennou.arena.bots import make_bot
from dennou.core.bot import Bot
from dennou.core.encoding import Encoding
from dennou.core.errors import ConfigError
from dennou.core.rng import make_rng
from dennou.games import REGISTRY
from dennou.rl.pz import RENDER_MODES, new_lines, observation_space, show
from dennou.rl.table import Illegal, Reward, Table, learning


def gym_id(name: str) -> str:
    """The Gymnasium id of game ``name``: ``dennou/<Name>-v0`` (``dennou/Numeron-v0``)."""
    return f"dennou/{name.capitalize()}-v0"


def register_all() -> None:
    """Register every game of the registry with Gymnasium (idempotent).

    Registering names no game module: a game is imported when its environment is first made
    (one without learning environments is refused then).
    """
    for name in REGISTRY:
        env_id = gym_id(name)
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="dennou.rl.gym:DennouGym",
                kwargs={"game": name},
                disable_env_checker=False,
            )


class DennouGym(gymnasium.Env[dict[str, np.ndarray], np.int64]):
    """One seat of a dennou game; the other seats are played by bots.

    Args:
        game: The game's name.
        opponents: Bot specs for the other seats, comma-separated in seat order (one spec is
            used for every other seat), or a list of :class:`~dennou.core.bot.Bot` objects.
            Built-in bots by name: ``random``, ``greedy``, ``montecarlo:ms=50``...
        seat: The learner's seat (``None``: a seat drawn at each reset, from the reset's seed).
        players: Number of seats (default: the game's default).
        reward: ``score``, ``rank`` or ``team`` (see :class:`~dennou.rl.table.Table`).
        illegal: ``default`` (apply the rules' default, ``info["illegal"]``) or ``raise``.
        max_cycles: Truncate once the learner has made this many decisions (default: the
            game's ``Learning.max_episode_steps``, set by games whose default rules may never
            end for a learner that plays at random).
        render_mode: ``ansi`` (``render()`` returns the learner's view in words), ``human``
            (each step prints it) or ``None``.
        talk: Put the talk lines the seat may read into ``info["talk"]``.
        seed: Seeds the first ``reset()`` without a seed (then every later unseeded one) and
            the action space's sampling, as the PettingZoo envs' ``seed`` does.
        **rules: The game's rules options.
    """

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        opponents: str | Sequence[Bot] = "random",
        seat: int | None = 0,
        players: int | None = None,
        reward: Reward = "score",
        illegal: Illegal = "default",
        max_cycles: int | None = None,
        render_mode: str | None = None,
        talk: bool = False,
        seed: int | None = None,
        **rules: Any,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None")
        self.table = Table(
            game, players=players, reward=reward, illegal=illegal, seed=seed, rules=rules
        )
        n = self.table.n
        if seat is not None and not 0 <= seat < n:
            raise ConfigError(f"seat must be 0..{n - 1}, got {seat}")
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        self.max_cycles = max_cycles if max_cycles is not None else learning(game).max_episode_steps
        self.render_mode = render_mode
        self.talk = talk
        if isinstance(opponents, str):
            specs = [s for s in opponents.split(",") if s.strip()] or ["random"]
            if len(specs) == 1:
                specs = specs * (n - 1)
            if len(specs) != n - 1:
                raise ConfigError(f"{game} with {n} seats needs {n - 1} opponents, got {specs}")
            bots = [make_bot(self.table.game, s) for s in specs]
        else:
            bots = list(opponents)
            if len(bots) != n - 1:
                raise ConfigError(f"{game} with {n} seats needs {n - 1} opponents")
        self._bots = bots
        self.bots: dict[int, Bot] = {}
        self._seat_bots()
        self.observation_space = observation_space(self.table.encoding)  # type: ignore[assignment]
        self.action_space = spaces.Discrete(self.table.encoding.num_actions, seed=seed)
        if seed is not None:
            self.np_random = np.random.default_rng(seed)
        self._heard: list[Any] = []
        self._rngs: dict[int, Any] = {}

    def _seat_bots(self) -> None:
        others = [s for s in range(self.table.n) if s != self.seat]
        self.bots = dict(zip(others, self._bots, strict=True))

    @property
    def encoding(self) -> Encoding[Any, Any]:
        """The game's encoding (layout, numbering, index <-> action)."""
        return self.table.encoding

    def _obs(self) -> dict[str, np.ndarray]:
        obs, mask = self.table.observe(self.seat)
        return {"observation": obs, "action_mask": mask}

    def _info(self, **extra: Any) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._obs()["action_mask"], **extra}
        if self.talk:
            lines = self.table.game.view(self.table.state, self.seat).get("talk") or []
            window = list(lines)
            info["talk"] = [dict(line) for line in new_lines(self._heard, window)]
            self._heard = window
        return info

    def _play_others(self) -> float:
        """Let the bots act until the learner must act or the game is done; its reward."""
        table, reward = self.table, 0.0
        while not table.done():
            self._tell_bots()
            acting = table.acting()
            if self.seat in acting:
                break
            seat = acting[0]
            bot = self.bots[seat]
            if table.waiting:
                table.play_action(seat, None)
            else:
                game, state = table.game, table.state
                legal = game.legal_actions(state, seat)
                action = bot.act(game.view(state, seat), legal, self._rngs[seat])
                if action in legal:
                    table.play_action(seat, action)
                else:  # a bot's illegal action gets the rules' default, as in the arena
                    table.decisions[seat] += 1
                    table.state, events = game.apply_default(state, seat)
                    table.record(events)
                    table._touch()
                    table._advance()
            reward += table.rewards()[self.seat]
        self._tell_bots()
        return reward

    def _tell_bots(self) -> None:
        events = self.table.take_events()
        if not events:
            return
        for seat, bot in self.bots.items():
            seen = [e for e in events if e.visible_to(seat)]
            if seen:
                bot.observe(seen)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a new game and play the bots up to the learner's first decision."""
        super().reset(seed=seed)
        table = self.table
        table.reset(seed)
        table.take_events()
        if self.fixed_seat is None:
            self.seat = make_rng(table.seed, "learner seat").randrange(table.n)
            self._seat_bots()
        self._heard = []
        names = list(table.players)
        for seat, bot in self.bots.items():
            bot.reset(seat=seat, rules=table.rules, players=names)
            self._rngs[seat] = make_rng(table.seed, "bot", seat)
        table.rewards()
        self._play_others()
        return self._obs(), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """The learner takes action number ``action``; the bots answer."""
        table = self.table
        if table.done():
            raise RuntimeError("the game is over: call reset()")
        ok = table.step(self.seat, int(action))
        reward = table.rewards()[self.seat]
        reward += self._play_others()
        if (
            self.max_cycles is not None
            and not table.done()
            and table.decisions[self.seat] >= self.max_cycles
        ):
            table.truncated = True
            table._touch()
        if self.render_mode == "human":
            self.render()
        return (
            self._obs(),
            reward,
            table.over(),
            table.truncated,
            self._info(illegal=not ok),
        )

    def action_masks(self) -> np.ndarray:
        """The legal action numbers as booleans (sb3-contrib's ``MaskablePPO`` asks for this)."""
        return self._obs()["action_mask"].astype(bool)

    def render(self) -> str | None:
        """The learner's view in words."""
        if self.render_mode is None:
            return None
        return show(self.table.render(self.seat), self.render_mode)
