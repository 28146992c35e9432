"""Play one game between bots and return its record.

Bots get only views. Each decision is timed. A bot that raises, returns something that is not
a legal action, or (with a time limit) takes too long, is noted in the record and the game's
default for that situation is applied: a bad bot never crashes a match.
"""

from __future__ import annotations

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
    rules = rules if rules is not None else game.make_rules()
    names = list(players) if players else [f"{b.name}#{i}" for i, b in enumerate(bots)]
    state = game.new(rules, names)
    chance_rng = make_rng(seed, "chance")
    rngs = [make_rng(seed, "bot", i) for i in range(len(bots))]
    for i, bot in enumerate(bots):
        bot.reset(seat=i, rules=rules, players=names)
    record = Record(
        game=game.spec.name,
        version=game.spec.version,
        rules=rules_json(rules),
        players=names,
        seed=seed,
        meta={"bots": [b.name for b in bots], **(meta or {})},
    )

    def commit(step: Step, new_state: Any, events: list[Event]) -> None:
        nonlocal state
        state = new_state
        record.steps.append(step)
        for i, bot in enumerate(bots):
            seen = [e for e in events if e.visible_to(i)]
            if seen:
                bot.observe(seen)
        if on_step is not None:
            on_step(step, state)

    def speaker(seat: int) -> Callable[[str, str], str | None]:
        def say(channel: str, text: str) -> str | None:
            try:
                new, events = game.talk(state, seat, channel, text, name=names[seat])
            except GameError as exc:
                return exc.message
            commit(Step(seat, talk=TalkLine(seat, names[seat], channel, text)), new, events)
            return None

        return say

    for i, bot in enumerate(bots):
        bot.say = speaker(i)

    while True:
        acting = game.to_act(state)
        if not acting:
            break
        if len(record.steps) >= max_steps:
            raise GameError(f"{game.spec.name} did not end within {max_steps} steps")
        if CHANCE in acting:
            action = game.sample_chance(state, chance_rng)
            new, events = game.apply(state, CHANCE, action)
            commit(Step(CHANCE, action=game.dump_action(action)), new, events)
            continue
        # One seat per pass: a submission (or a default) may change who must act next.
        seat = min(acting)
        bot, rng = bots[seat], rngs[seat]
        channels = game.talk_channels(state, seat)
        started = time.perf_counter()  # a decision's time includes what the bot said first
        if channels and type(bot).chat is not Bot.chat:  # views cost; skip bots that never talk
            _chat(game, state, seat, bot, rng, channels, names[seat], commit)
        view = game.view(state, seat)
        legal = game.legal_actions(state, seat)
        try:
            action = bot.act(view, legal, rng)
        except Exception as exc:
            ms = (time.perf_counter() - started) * 1000
            _default(game, state, seat, "error", f"{type(exc).__name__}: {exc}", ms, commit)
            continue
        ms = (time.perf_counter() - started) * 1000
        if time_limit is not None and ms > time_limit * 1000:
            note = f"took {ms:.0f} ms > {time_limit * 1000:.0f} ms"
            _default(game, state, seat, "timeout", note, ms, commit)
            continue
        try:
            action = game.parse_action(action)
            new, events = game.apply(state, seat, action)
        except GameError as exc:
            _default(game, state, seat, "illegal", f"{action!s}: {exc}", ms, commit)
            continue
        commit(Step(seat, action=game.dump_action(action), ms=round(ms, 3)), new, events)
    for bot in bots:
        bot.say = None
    record.outcome = _outcome_json(game, state)
    return record


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
