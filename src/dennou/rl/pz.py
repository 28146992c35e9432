"""PettingZoo environments: AEC for every game, Parallel for the sealed simultaneous ones."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from dennou.core.encoding import Encoding
from dennou.core.game import Seat
from dennou.rl.table import Illegal, Reward, Table

RENDER_MODES = ["ansi", "human"]
"""``ansi``: ``render()`` returns the acting seat's view in words; ``human``: steps print it."""


def show(text: str | None, mode: str | None) -> str | None:
    """What ``render()`` does in ``mode``: return the text (``ansi``) or print it (``human``)."""
    if mode == "human":
        print(text)
        return None
    return text


def new_lines(seen: list[Any], window: list[Any]) -> list[Any]:
    """The lines of a view's talk ``window`` after those already ``seen``.

    Views carry only the most recent talk lines (``core.talk.RECENT_TALK``), so the new lines
    are what follows the longest overlap of the window's start with the end of what was seen.
    """
    for k in range(min(len(seen), len(window)), 0, -1):
        if window[:k] == seen[-k:]:
            return window[k:]
    return window


def observation_space(enc: Encoding[Any, Any]) -> spaces.Dict:
    """``Dict(observation=Box, action_mask=Box(0, 1, int8))`` for an encoding."""
    return spaces.Dict(
        {
            "observation": spaces.Box(enc.low, enc.high, (enc.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (enc.num_actions,), np.int8),
        }
    )


class _Common:
    """What the AEC and Parallel envs share: the table, the spaces, talk as text."""

    table: Table
    talk: bool
    metadata: dict[str, Any]

    def _setup(
        self,
        name: str,
        render_mode: str | None,
        talk: bool,
        seed: int | None,
        **table: Any,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None")
        self.table = Table(name, seed=seed, **table)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"dennou_{name}_v0"}
        self.possible_agents = list(self.table.players)
        self._obs_space = observation_space(self.table.encoding)
        self._act_space = spaces.Discrete(self.table.encoding.num_actions, seed=seed)
        self.talk = talk
        self._heard: list[list[Any]] = []
        self.agents: list[str] = []

    @functools.cache  # noqa: B019 - one space object per agent, as PettingZoo asks
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same ``Dict`` space for every agent."""
        return self._obs_space

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(num_actions)`` for every agent."""
        return self._act_space

    @property
    def encoding(self) -> Encoding[Any, Any]:
        """The game's encoding (layout, numbering, index <-> action)."""
        return self.table.encoding

    def close(self) -> None:
        """Nothing to release."""

    def state(self) -> np.ndarray:
        """Not offered: a global state would show hidden information."""
        raise NotImplementedError("dennou envs give per-seat observations only")

    def _reset_talk(self) -> None:
        self._heard = [[] for _ in range(self.table.n)]

    def _new_lines(self, seat: Seat) -> list[dict[str, Any]]:
        view = self.table.game.view(self.table.state, seat)
        window = list(view.get("talk") or [])
        new = new_lines(self._heard[seat], window)
        self._heard[seat] = window
        return [dict(line) for line in new]

    def say(self, agent: str, channel: str, text: str) -> None:
        """Say ``text`` in ``channel`` as ``agent`` (channels: ``infos[agent]["channels"]``).

        Raises:
            IllegalActionError: The channel is closed to the agent now, or the line breaks a
                rule (a limit on lines, digits in spectators' lines...).
        """
        table = self.table
        seat = table.players.index(agent)
        table.state, events = table.game.talk(table.state, seat, channel, text, name=agent)
        table.record(events)
        table._touch()

    def _talk_info(self, seat: Seat) -> dict[str, Any]:
        table = self.table
        channels = sorted(table.game.talk_channels(table.state, seat))
        return {"talk": self._new_lines(seat), "channels": channels}


class DennouAEC(_Common, AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """A dennou game as a PettingZoo AEC environment (agents ``seat_0``, ``seat_1``...).

    Build it with :func:`dennou.rl.env`. Observations are ``{"observation": float32 vector,
    "action_mask": int8 vector}``; actions are numbers (``docs/rl.md`` lists each game's
    numbering). Sealed simultaneous steps are taken one seat after another; a seat never sees
    the others' sealed choices. Chance is drawn inside with the env's seed.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo and Gymnasium declare it so
        "render_modes": RENDER_MODES,
        "name": "dennou",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        name: str,
        *,
        players: int | None = None,
        render_mode: str | None = None,
        reward: Reward = "score",
        illegal: Illegal = "default",
        max_cycles: int | None = None,
        talk: bool = False,
        seed: int | None = None,
        rules: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self._setup(
            name,
            render_mode,
            talk,
            seed,
            players=players,
            reward=reward,
            illegal=illegal,
            max_cycles=max_cycles,
            rules=rules,
        )

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (``seed`` fixes the deal and every later unseeded reset)."""
        self.table.reset(seed)
        self._reset_talk()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_step()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation and action mask."""
        obs, mask = self.table.observe(self.table.players.index(agent))
        return {"observation": obs, "action_mask": mask}

    def _after_step(self) -> None:
        table = self.table
        for agent, r in zip(table.players, table.rewards(), strict=True):
            if agent in self.rewards:
                self.rewards[agent] = r
        self._accumulate_rewards()
        if table.done():
            for agent in self.agents:
                self.terminations[agent] = table.over()
                self.truncations[agent] = table.truncated
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = table.players[table.acting()[0]]
        if self.talk:
            for agent in self.agents:
                seat = table.players.index(agent)
                self.infos[agent] = {**self.infos[agent], **self._talk_info(seat)}

    def step(self, action: int | None) -> None:
        """The selected agent takes action number ``action`` (``None`` once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents that are done")
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        ok = self.table.step(self.table.players.index(agent), int(action))
        self.infos[agent] = {**self.infos[agent], "illegal": not ok}
        self._after_step()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The selected agent's view in words (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None:
            return None
        seat = self.table.players.index(self.agent_selection) if self.agents else None
        return show(self.table.render(seat), self.render_mode)


class DennouParallel(_Common, ParallelEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """A dennou game as a PettingZoo Parallel environment.

    At each step every agent that must act now (all of them in a sealed simultaneous step)
    sends an action number; the others' actions are ignored (their action mask is all zeros).
    Actions are applied in seat order; a seat's sealed choice is hidden from the others.
    """

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "name": "dennou"}  # noqa: RUF012

    def __init__(
        self,
        name: str,
        *,
        players: int | None = None,
        render_mode: str | None = None,
        reward: Reward = "score",
        illegal: Illegal = "default",
        max_cycles: int | None = None,
        talk: bool = False,
        seed: int | None = None,
        rules: Mapping[str, Any] | None = None,
    ) -> None:
        # max_cycles counts Parallel steps here (PettingZoo's meaning for Parallel envs)
        self._setup(
            name,
            render_mode,
            talk,
            seed,
            players=players,
            reward=reward,
            illegal=illegal,
            rules=rules,
        )
        self.max_cycles = max_cycles
        self.steps = 0

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        out: dict[str, dict[str, np.ndarray]] = {}
        for agent in self.agents:
            obs, mask = self.table.observe(self.table.players.index(agent))
            out[agent] = {"observation": obs, "action_mask": mask}
        return out

    def _infos(self) -> dict[str, dict[str, Any]]:
        if not self.talk:
            return {a: {} for a in self.agents}
        return {a: self._talk_info(self.table.players.index(a)) for a in self.agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """Start a new game."""
        self.table.reset(seed)
        self._reset_talk()
        self.agents = list(self.possible_agents)
        self.steps = 0
        return self._observations(), self._infos()

    def step(self, actions: dict[str, int]) -> tuple[Any, Any, Any, Any, Any]:
        """Each agent that must act now takes its action (the others' are ignored)."""
        table = self.table
        illegal: dict[str, bool] = {}
        for seat in table.acting():
            agent = table.players[seat]
            if seat not in table.acting():  # an earlier seat's action settled the step
                continue
            if agent not in actions:
                raise ValueError(f"{agent} must act now and sent no action")
            illegal[agent] = not table.step(seat, int(actions[agent]))
        self.steps += 1
        if self.max_cycles is not None and self.steps >= self.max_cycles and not table.over():
            table.truncated = True
            table._touch()
        rewards = dict(zip(table.players, table.rewards(), strict=True))
        over, cut = table.over(), table.truncated
        observations = self._observations()
        infos = self._infos()
        for agent, bad in illegal.items():
            infos[agent]["illegal"] = bad
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, cut and not over)
        rewards = {a: rewards[a] for a in self.agents}
        if over or cut:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """The view of the first agent that must act, in words."""
        if self.render_mode is None:
            return None
        acting = self.table.acting()
        return show(self.table.render(acting[0] if acting else None), self.render_mode)
