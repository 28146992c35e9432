"""One game played for learning agents: state, chance, rewards, observations.

Every environment in ``dennou.rl`` (PettingZoo AEC and Parallel, Gymnasium, OpenSpiel's
helpers) drives a :class:`Table`, so they all agree on seeds, rewards, truncation and what an
illegal action number does.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np

from dennou.core.encoding import Encoding, Mask, NotEncodable, Obs
from dennou.core.errors import ConfigError, GameError
from dennou.core.game import CHANCE, Event, Game, Learning, Outcome, Seat
from dennou.core.rng import make_rng
from dennou.games import REGISTRY, get


def learning(name: str) -> Learning:
    """How the learning environments play game ``name`` (``GameSpec.learning``).

    Raises:
        ConfigError: No such game, or a game without learning environments.
    """
    spec = get(name).spec
    if spec.learning is None:
        having = ", ".join(games())
        raise ConfigError(f"{name} has no learning environment yet; games: {having}")
    return spec.learning


def games() -> list[str]:
    """The names of every game with learning environments, in registry order."""
    return [name for name in REGISTRY if REGISTRY[name].spec.learning is not None]


Reward = Literal["score", "rank", "team"]
Illegal = Literal["default", "raise"]

WAIT = 0
"""The one action number of a game whose seats never decide (10-card stud): ``wait``."""


def encoding_for(name: str, rules: Any = None, players: int | None = None) -> Encoding[Any, Any]:
    """The encoding of game ``name`` for ``rules`` (a rules struct or options) and ``players``.

    Raises:
        ConfigError: No such game, or bad rules.
    """
    game = get(name)
    if rules is None or isinstance(rules, Mapping):
        rules = game.make_rules(rules or {})
    module, _, attribute = learning(name).encoding.partition(":")
    cls = getattr(importlib.import_module(module), attribute)
    n = players if players is not None else game.default_players(rules)
    enc = cls(game, rules, n)
    assert isinstance(enc, Encoding)
    return enc


class IllegalActionNumber(GameError):
    """An action number that is not legal now, with ``illegal="raise"``."""


class Table:
    """A game for learning agents: one state, its chance stream, and each seat's rewards.

    Args:
        name: The game (``dennou games`` lists them).
        players: Number of seats (default: the game's default for these rules).
        reward: ``score``: the outcome's score times the encoding's scale (and Daifugo's points
            as each game of the set ends); ``rank``: (n − rank) / (n − 1), 1 for the sole
            winner and 0 for the last; ``team``: the team's result (team games).
        illegal: What an action number that is not legal now does: ``default`` applies the
            rules' default for the seat (as the host does for a bot's illegal action) and sets
            ``illegal`` in the step's info; ``raise`` raises :class:`IllegalActionNumber`.
        max_cycles: Truncate the game when a seat that has already made this many decisions is
            due to make another (``None``: never).
        seed: Seeds the first unseeded reset (``None``: fresh entropy); a reset's own seed
            wins.
        rules: The game's rules options (``games=1``, ``digits=4``...).
    """

    def __init__(
        self,
        name: str,
        *,
        players: int | None = None,
        reward: Reward = "score",
        illegal: Illegal = "default",
        max_cycles: int | None = None,
        seed: int | None = None,
        rules: Mapping[str, Any] | None = None,
    ) -> None:
        learning(name)
        if reward not in ("score", "rank", "team"):
            raise ConfigError(f"reward must be score, rank or team, got {reward!r}")
        if illegal not in ("default", "raise"):
            raise ConfigError(f"illegal must be default or raise, got {illegal!r}")
        self.name = name
        self.game: Game[Any, Any] = get(name)
        self.rules = self.game.make_rules(dict(rules or {}))
        self.n = players if players is not None else self.game.default_players(self.rules)
        self.players = [f"seat_{i}" for i in range(self.n)]
        self.encoding = encoding_for(name, self.rules, self.n)
        self.passive = getattr(self.encoding, "passive", False)
        if reward == "team" and not self.game.spec.teams:
            raise ConfigError(f"{name} has no teams: reward must be score or rank")
        self.reward: Reward = reward
        self.illegal: Illegal = illegal
        self.max_cycles = max_cycles
        self._seeds = random.Random(seed)
        self.seed = 0
        self.state: Any = None
        self.version = 0
        self._cache: dict[tuple[int, int], tuple[Obs, Mask]] = {}
        self.reset(None)
        self._seeds = random.Random(seed)  # the first reset() replays the same game

    # --- life cycle ---------------------------------------------------------------------
    def reset(self, seed: int | None) -> None:
        """Start a new game; ``seed`` fixes it and the seeds of later unseeded resets."""
        if seed is not None:
            self._seeds = random.Random(seed)
            self.seed = seed
        else:
            self.seed = self._seeds.getrandbits(63)
        self.chance = make_rng(self.seed, "chance")
        self.state = self.game.new(self.rules, self.players)
        self.paid = [0.0] * self.n
        self.decisions = [0] * self.n
        self.truncated = False
        self._events: list[Sequence[Event]] = []
        self.waiting: list[Seat] = []
        self._touch()
        self._advance()

    def _touch(self) -> None:
        self.version += 1
        self._cache.clear()

    def _advance(self) -> None:
        """Draw chance until a seat must decide or the game is over."""
        game = self.game
        while not self.waiting:
            acting = game.to_act(self.state)
            if CHANCE not in acting:
                break
            if self.passive:  # seats watch every draw: each gets a one-action decision first
                self.waiting = list(range(self.n))
                break
            self._apply(CHANCE, game.sample_chance(self.state, self.chance))
        self._check_cycles()

    def _apply(self, seat: Seat, action: Any) -> None:
        self.state, events = self.game.apply(self.state, seat, action)
        self.record(events)
        self._touch()

    def _check_cycles(self) -> None:
        acting = self.acting()
        if self.max_cycles is not None and acting and self.decisions[acting[0]] >= self.max_cycles:
            self.truncated = True
            self._touch()

    # --- queries ------------------------------------------------------------------------
    def over(self) -> bool:
        """Whether the game has ended (not truncated)."""
        return not self.waiting and not self.game.to_act(self.state)

    def done(self) -> bool:
        """Whether the game ended or was truncated."""
        return self.truncated or self.over()

    def acting(self) -> list[Seat]:
        """The seats that must decide now, lowest first (empty when done)."""
        if self.truncated:
            return []
        if self.waiting:
            return list(self.waiting)
        return sorted(s for s in self.game.to_act(self.state) if s != CHANCE)

    def observe(self, seat: Seat) -> tuple[Obs, Mask]:
        """``seat``'s observation and action mask (all zeros when it need not act)."""
        key = (self.version, seat)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        enc = self.encoding
        obs = enc.observe(self.state, seat)
        if seat in self.acting():
            if self.waiting:
                mask = np.zeros(enc.num_actions, np.int8)
                mask[WAIT] = 1
            else:
                mask = enc.action_mask(self.state, seat)
        else:
            mask = np.zeros(enc.num_actions, np.int8)
        self._cache[key] = (obs, mask)
        return obs, mask

    def legal(self, seat: Seat) -> list[int]:
        """The legal action numbers of ``seat`` now."""
        if seat not in self.acting():
            return []
        if self.waiting:
            return [WAIT]
        return self.encoding.legal_indices(self.state, seat)

    # --- steps --------------------------------------------------------------------------
    def step(self, seat: Seat, index: int) -> bool:
        """``seat`` takes action number ``index``; return whether it was legal.

        Raises:
            IllegalActionNumber: With ``illegal="raise"``, for an illegal number.
        """
        if seat not in self.acting():
            raise IllegalActionNumber(f"{self.players[seat]} need not act now", seat=seat)
        self.decisions[seat] += 1
        if self.waiting:
            ok = int(index) == WAIT
            if not ok and self.illegal == "raise":
                raise IllegalActionNumber(f"only wait ({WAIT}) is legal now, got {index}")
            self.waiting.remove(seat)
            if not self.waiting:
                self._apply(CHANCE, self.game.sample_chance(self.state, self.chance))
            else:
                self._touch()
            self._advance()
            return ok
        action: Any = None
        try:
            action = self.encoding.action(self.state, seat, int(index))
            self._apply(seat, action)
            ok = True
        except (NotEncodable, GameError) as exc:
            if self.illegal == "raise":
                raise IllegalActionNumber(
                    f"action number {index} ({action}) is not legal for {self.players[seat]} "
                    f"now: {exc}",
                    seat=seat,
                ) from None
            self.state, events = self.game.apply_default(self.state, seat)
            self.record(events)
            self._touch()
            ok = False
        self._advance()
        return ok

    def play_action(self, seat: Seat, action: Any) -> None:
        """Apply an engine action for ``seat`` (a bot's choice), then draw chance."""
        self.decisions[seat] += 1
        if self.waiting:
            self.waiting.remove(seat)
            if not self.waiting:
                self._apply(CHANCE, self.game.sample_chance(self.state, self.chance))
        else:
            self._apply(seat, action)
        self._advance()

    def record(self, events: Sequence[Event]) -> None:
        """Keep a step's events for :meth:`take_events`, unread.

        A game may build its events only when they are read (Daifugo's fast path replays the
        readable rules for them): environments without bots never read them.
        """
        self._events.append(events)

    def take_events(self) -> list[Event]:
        """The events since the last call (for bots' ``observe``)."""
        batches, self._events = self._events, []
        return [e for batch in batches for e in batch]

    # --- rewards ------------------------------------------------------------------------
    def rewards(self) -> list[float]:
        """Each seat's reward since the last call (they add up to the final reward)."""
        target = self._earned()
        delta = [t - p for t, p in zip(target, self.paid, strict=True)]
        self.paid = target
        return delta

    def _earned(self) -> list[float]:
        if self.over():
            return self.final_rewards(self.game.outcome(self.state))
        if self.reward == "score":
            running = self.encoding.running_scores(self.state)
            if running is not None:
                scale = self.encoding.reward_scale
                return [float(s) * scale for s in running]
        return list(self.paid)

    def final_rewards(self, outcome: Outcome) -> list[float]:
        """Each seat's total reward for a finished game."""
        if self.reward == "score":
            scale = self.encoding.reward_scale
            return [float(s) * scale for s in outcome.scores]
        if self.reward == "rank":
            n = self.n
            return [(n - r) / (n - 1) for r in outcome.ranks]
        teams = outcome.teams or {}
        team_of: Sequence[str] = outcome.detail.get("team_of", [])
        return [float(teams.get(team_of[i], 0.0)) if team_of else 0.0 for i in range(self.n)]

    # --- text ---------------------------------------------------------------------------
    def render(self, seat: Seat | None) -> str:
        """The seat's view in words (the terminal's rendering)."""
        return self.game.render(self.game.view(self.state, seat))

    def describe_action(self, seat: Seat, index: int) -> str:
        """The action number ``index`` for ``seat`` now, as text."""
        if self.waiting:
            return "wait"
        try:
            return str(self.encoding.action(self.state, seat, index))
        except NotEncodable as exc:
            return f"<{exc}>"
