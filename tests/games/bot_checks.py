"""The bot contract, checked on whole games: legal actions only, the same game for the same
seed, and the same action in two states that differ only in what the bot's seat may not see.

Used by every game's bot tests. The hidden-state check wraps each bot: at
its decisions it builds a second state from the view (``Game.determinize``, which the
conformance harness checks gives the same view and varies the hidden part), lets two copies of
the bot decide, one on each state's view and legal actions, with copies of the same random
stream, and requires the same action.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from dennou.arena.bots import make_bot
from dennou.arena.play import play
from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.game import JSON, Event, Game, Rules, Seat


@dataclass
class Tally:
    """What a check covered (so that it cannot pass vacuously)."""

    decisions: int = 0
    twin_checks: int = 0
    hidden_differs: int = 0
    seen: dict[str, int] = field(default_factory=dict)


class Twin(Bot):
    """Wraps a bot; every ``every``-th decision is also taken in a determinized twin state."""

    def __init__(
        self, inner: Bot, game: Game[Any, Any], holder: dict[str, Any], tally: Tally, every: int
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.game = game
        self.holder = holder
        self.tally = tally
        self.every = every
        self.count = 0

    def reset(self, *, seat: Seat, rules: Any, players: Sequence[str]) -> None:
        self.seat = seat
        self.inner.reset(seat=seat, rules=rules, players=players)

    def observe(self, events: Sequence[Event]) -> None:
        self.inner.observe(events)

    def chat(
        self, view: JSON, channels: frozenset[str], rng: random.Random
    ) -> Sequence[tuple[str, str]]:
        self.inner.say = self.say
        return self.inner.chat(view, channels, rng)

    def act(self, view: JSON, legal: Sequence[Action], rng: random.Random) -> Action:
        self.inner.say = None  # the twins must not talk into the real game
        self.count += 1
        self.tally.decisions += 1
        if self.count % self.every == 0:
            self._twin(view, rng)
        self.inner.say = self.say
        action = self.inner.act(view, legal, rng)
        self.tally.seen[type(action).__name__] = self.tally.seen.get(type(action).__name__, 0) + 1
        return action

    def _twin(self, view: JSON, rng: random.Random) -> None:
        game, seat = self.game, self.seat
        real = self.holder["state"]
        other = game.determinize(view, seat, random.Random(self.count))
        assert game.view(other, seat) == view, "determinize must keep the seat's view"
        if _hidden(game, real) != _hidden(game, other):
            self.tally.hidden_differs += 1
        actions = []
        for state in (real, other):
            bot = copy.deepcopy(self.inner)
            actions.append(
                bot.act(game.view(state, seat), game.legal_actions(state, seat), copy.copy(rng))
            )
        assert actions[0] == actions[1], f"{self.name} acted on hidden state: {actions}"
        self.tally.twin_checks += 1


def _hidden(game: Game[Any, Any], state: Any) -> Any:
    """Everything about the state (views of all seats and spectators are not enough)."""
    return repr(state)


def check_bots(
    game: Game[Any, Any],
    rules: Rules | None,
    specs: Sequence[str],
    seeds: Sequence[int],
    *,
    every: int = 3,
) -> Tally:
    """Play one game per seed with ``specs``; check the contract (see the module docstring).

    Returns the tally; raises ``AssertionError`` at the first breach.
    """
    tally = Tally()
    for seed in seeds:
        holder: dict[str, Any] = {}
        bots: list[Bot] = [Twin(make_bot(game, spec), game, holder, tally, every) for spec in specs]
        names = [f"p{i}" for i in range(len(specs))]
        holder["state"] = game.new(rules if rules is not None else game.make_rules(), names)

        def keep(step: Any, state: Any, holder: dict[str, Any] = holder) -> None:
            holder["state"] = state

        first = play(game, rules, bots, seed, players=names, on_step=keep)
        assert first.outcome is not None
        defaults = [s for s in first.steps if s.default is not None]
        assert not defaults, f"a bot needed a default (illegal or failed): {defaults[:3]}"
        again = play(game, rules, [make_bot(game, spec) for spec in specs], seed, players=names)
        assert _moves(again) == _moves(first), "the same seed must give the same game"
    return tally


def _moves(record: Any) -> list[Any]:
    return [(s.seat, s.action, s.talk) for s in record.steps]
