"""Play one game between bots and return its record.

Bots get only views. Each decision is timed. A bot that raises, returns something that is not
a legal action, or (with a time limit) takes too long, is noted in the record and the game's
default for that situation is applied: a bad bot never crashes a match.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from typing import Any

from dennou.core.bot import Bot
from dennou.core.errors import GameError
from dennou.core.game import CHANCE, Event, Game, Rules, TalkLine, to_json
from dennou.core.record import Record, Step
from dennou.core.rng import make_rng


def play(
    game: Game[Any, Any],
    rules: Rules | None,
    bots: Sequence[Bot],
    seed: int,
    *,
    players: Sequence[str] | None = None,
    time_limit: float | None = None,
    max_steps: int = 1_000_000,
    on_step: Callable[[Step, Any], None] | None = None,
    meta: dict[str, Any] | None = None,
) -> Record:
    """Play a whole game.

    Args:
        game: The game.
        rules: Its rules (``None``: the defaults).
        bots: One bot per seat.
        seed: Seeds chance and every bot's random stream.
        players: Player names (default: ``"<bot name>#<seat>"``).
        time_limit: Seconds per decision; a slower decision is treated as a timeout.
        max_steps: Stop with an error past this many steps (a game that never ends is a bug).
        on_step: Called after every step with the step and the new state.
        meta: Extra facts for the record's ``meta``.

    Returns:
        The record, with the outcome and per-step decision times.
    """
    run = GameRun(game, rules, bots, seed, players=players, time_limit=time_limit, meta=meta)
    return run.play(max_steps=max_steps, on_step=on_step)


class GameRun:
    """One game between bots, its record filled in step by step.

    :func:`play` is the usual way in. Keep the object when the game may stop early (a person who
    quits, Ctrl-C): :attr:`record` then holds every step taken so far, without an outcome.

    Args:
        game: The game.
        rules: Its rules (``None``: the defaults).
        bots: One bot per seat.
        seed: Seeds chance and every bot's random stream.
        players: Player names (default: ``"<bot name>#<seat>"``).
        time_limit: Seconds per decision; a slower decision is treated as a timeout.
        meta: Extra facts for the record's ``meta``.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        rules: Rules | None,
        bots: Sequence[Bot],
        seed: int,
        *,
        players: Sequence[str] | None = None,
        time_limit: float | None = None,
        meta: dict[str, Any] | None = None,
    ) -> None:
        self.game = game
        self.rules = rules if rules is not None else game.make_rules()
        self.bots = list(bots)
        self.seed = seed
        self.time_limit = time_limit
        self.names = list(players) if players else [f"{b.name}#{i}" for i, b in enumerate(bots)]
        self.state: Any = game.new(self.rules, self.names)
        self.record = Record(
            game=game.spec.name,
            version=game.spec.version,
            rules=rules_json(self.rules),
            players=self.names,
            seed=seed,
            meta={"bots": [b.name for b in bots], **(meta or {})},
        )
        self._on_step: Callable[[Step, Any], None] | None = None

    def play(
        self, *, max_steps: int = 1_000_000, on_step: Callable[[Step, Any], None] | None = None
    ) -> Record:
        """Play to the end and return the record (see :func:`play` for the arguments)."""
        game, bots, names, record = self.game, self.bots, self.names, self.record
        self._on_step = on_step
        chance_rng = make_rng(self.seed, "chance")
        rngs = [make_rng(self.seed, "bot", i) for i in range(len(bots))]
        for i, bot in enumerate(bots):
            bot.reset(seat=i, rules=self.rules, players=names)
            bot.say = self._speaker(i)
        finished = False
        try:
            while True:
                state = self.state
                acting = game.to_act(state)
                if not acting:
                    break
                if len(record.steps) >= max_steps:
                    raise GameError(f"{game.spec.name} did not end within {max_steps} steps")
                if CHANCE in acting:
                    action = game.sample_chance(state, chance_rng)
                    new, events = game.apply(state, CHANCE, action)
                    self._commit(Step(CHANCE, action=game.dump_action(action)), new, events)
                    continue
                # One seat per pass: a submission (or a default) may change who must act next.
                self._decide(min(acting), rngs)
            record.outcome = _outcome_json(game, self.state)
            finished = True
        finally:
            for bot in bots:
                bot.say = None
                bot.deadline = None
                _end(bot, record.outcome if finished else None)
        return record

    def _decide(self, seat: int, rngs: Sequence[Any]) -> None:
        game, state = self.game, self.state
        bot, rng = self.bots[seat], rngs[seat]
        channels = game.talk_channels(state, seat)
        started = time.perf_counter()  # a decision's time includes what the bot said first
        if channels and type(bot).chat is not Bot.chat:  # views cost; skip bots that never talk
            _chat(game, state, seat, bot, rng, channels, self.names[seat], self._commit)
            state = self.state
        view = game.view(state, seat)
        legal = game.legal_actions(state, seat)
        limit = self.time_limit
        if limit is not None:
            # the clock counts from the decision's start, what the bot said first included
            bot.deadline = time.monotonic() + limit - (time.perf_counter() - started)
        try:
            action = bot.act(view, legal, rng)
        except Exception as exc:
            ms = (time.perf_counter() - started) * 1000
            note = f"{type(exc).__name__}: {exc}"
            # a bot that gave up because its clock ran out timed out, like a slow answer
            late = limit is not None and ms > limit * 1000
            _default(game, self.state, seat, "timeout" if late else "error", note, ms, self._commit)
            return
        finally:
            bot.deadline = None
        ms = (time.perf_counter() - started) * 1000
        if self.time_limit is not None and ms > self.time_limit * 1000:
            note = f"took {ms:.0f} ms > {self.time_limit * 1000:.0f} ms"
            _default(game, self.state, seat, "timeout", note, ms, self._commit)
            return
        try:
            action = game.parse_action(action)
            new, events = game.apply(self.state, seat, action)
        except GameError as exc:
            _default(game, self.state, seat, "illegal", f"{action!s}: {exc}", ms, self._commit)
            return
        self._commit(Step(seat, action=game.dump_action(action), ms=round(ms, 3)), new, events)

    def _commit(self, step: Step, new_state: Any, events: list[Event]) -> None:
        self.state = new_state
        self.record.steps.append(step)
        for i, bot in enumerate(self.bots):
            seen = [e for e in events if e.visible_to(i)]
            if seen:
                bot.observe(seen)
        if self._on_step is not None:
            self._on_step(step, new_state)

    def _speaker(self, seat: int) -> Callable[[str, str], str | None]:
        def say(channel: str, text: str) -> str | None:
            name = self.names[seat]
            try:
                new, events = self.game.talk(self.state, seat, channel, text, name=name)
            except GameError as exc:
                return exc.message
            self._commit(Step(seat, talk=TalkLine(seat, name, channel, text)), new, events)
            return None

        return say


def _chat(
    game: Game[Any, Any],
    state: Any,
    seat: int,
    bot: Bot,
    rng: Any,
    channels: frozenset[str],
    name: str,
    commit: Callable[[Step, Any, list[Event]], None],
) -> None:
    try:
        lines = list(bot.chat(game.view(state, seat), channels, rng))
    except Exception:
        return
    for channel, text in lines:
        try:
            new, events = game.talk(state, seat, channel, text, name=name)
        except GameError:
            continue
        commit(Step(seat, talk=TalkLine(seat, name, channel, text)), new, events)
        state = new


def _end(bot: Bot, outcome: dict[str, Any] | None) -> None:
    # a bot that fails to tidy up must not lose the record of a finished game
    with contextlib.suppress(Exception):
        bot.end(outcome)


def _default(
    game: Game[Any, Any],
    state: Any,
    seat: int,
    reason: str,
    note: str,
    ms: float,
    commit: Callable[[Step, Any, list[Event]], None],
) -> None:
    new, events = game.apply_default(state, seat)
    commit(Step(seat, default=reason, ms=round(ms, 3), note=note[:500]), new, events)


def rules_json(rules: Rules) -> dict[str, Any]:
    """The JSON object of a rules struct."""
    out = to_json(rules)
    assert isinstance(out, dict)
    return out


def _outcome_json(game: Game[Any, Any], state: Any) -> dict[str, Any]:
    out = to_json(game.outcome(state))
    assert isinstance(out, dict)
    return out
