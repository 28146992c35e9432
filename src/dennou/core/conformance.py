"""The conformance harness: the contract checks every registered game must pass.

:func:`check_game` plays seeded random games to the end and checks, as it goes:

- while the game is not over, some seat (or chance) must act and every acting seat has legal
  actions; chance actions drawn by the host are among the chance outcomes, when listed;
- ``apply`` accepts exactly the legal actions: every chosen action applies, and junk (malformed
  input, actions of other states, mutated actions) is rejected with ``InvalidActionError`` or
  ``IllegalActionError`` while the state stays as it was; seats not to act get
  ``NotYourTurnError``; a finished game gives ``GameOverError``;
- ``apply`` never mutates its input (compared by pickle, before and after);
- actions round-trip through JSON (object and text) and the text form;
- views are JSON and round-trip; the leak property: for every seat and for spectators,
  ``view(determinize(view(s, p), p, rng), p) == view(s, p)``, and the seat's legal actions are the
  same in the determinized state (so they follow from the view alone); in games with hidden
  information, determinization actually varies the hidden part;
- talk in open channels is applied and talk in closed channels refused;
- records round-trip through JSON lines and ``replay`` rebuilds every state exactly;
- the outcome has a score and a rank per seat, ranks in competition order (1, 1, 3).
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from dennou.core.actions import Action
from dennou.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
)
from dennou.core.game import CHANCE, Event, Game, Outcome, Rules, Seat, TalkLine
from dennou.core.jsondata import to_json
from dennou.core.record import Record, Step, loads, replay

JUNK: tuple[Any, ...] = (
    None,
    42,
    "",
    "{",
    "[]",
    "{}",
    '{"type": "no-such-action"}',
    {"type": 123},
    {"foo": 1},
    ["call", "123"],
    "definitely not an action",
    b"\xff\xfe",
    {"type": None},
)


@dataclass
class Report:
    """What a harness run covered (tests assert on it so that a run cannot pass vacuously)."""

    games: int = 0
    steps: int = 0
    leak_checks: int = 0
    determinized_differs: int = 0
    junk_rejected: int = 0
    mutations_checked: int = 0
    defaults_applied: int = 0
    talk_lines: int = 0
    end_lengths: list[int] = field(default_factory=list)


class ConformanceError(AssertionError):
    """A game broke the contract (the message says where: rules, game number, step)."""


def check_game(
    game: Game[Any, Any],
    *,
    rules: Sequence[Rules] | None = None,
    games: int = 20,
    seed: int = 0,
    player_counts: Sequence[int] | None = None,
    leak_every: int = 1,
    leak_draws: int = 2,
    deep_every: int = 1,
    default_rate: float = 0.05,
    talk_rate: float = 0.05,
    max_steps: int = 200_000,
) -> Report:
    """Run the harness on ``game``; raises :class:`ConformanceError` at the first breach.

    Args:
        game: The game.
        rules: Rules configs to cycle through (default: ``game.conformance_rules()``).
        games: Number of games to play in all.
        seed: Master seed.
        player_counts: Player counts to cycle through (default: the spec's min and max).
        leak_every: Check the leak property every this many steps (1: every step).
        leak_draws: Determinizations per seat per check.
        deep_every: Check non-mutation and replay of states every this many steps.
        default_rate: Chance per decision of applying the default instead of an action.
        talk_rate: Chance per decision of saying a line in an open channel.
        max_steps: A game longer than this fails the harness.
    """
    configs = list(rules) if rules is not None else game.conformance_rules()
    spec = game.spec
    counts = list(player_counts or sorted({spec.min_players, spec.max_players}))
    report = Report()
    for g in range(games):
        config = configs[g % len(configs)]
        n = counts[(g // len(configs)) % len(counts)]
        where = f"{spec.name} game {g} ({n} players, rules {to_json(config)})"
        try:
            _check_one(
                game,
                config,
                n,
                seed * 1_000_003 + g,
                report,
                where,
                leak_every=leak_every,
                leak_draws=leak_draws,
                deep_every=deep_every,
                default_rate=default_rate,
                talk_rate=talk_rate,
                max_steps=max_steps,
            )
        except ConformanceError:
            raise
        except Exception as exc:
            raise ConformanceError(f"{where}: {type(exc).__name__}: {exc}") from exc
        report.games += 1
    # Too few checks (a short smoke run) prove nothing either way.
    if spec.hidden_information and report.leak_checks >= 50 and not report.determinized_differs:
        raise ConformanceError(
            f"{spec.name}: determinize never changed a hidden part in {report.leak_checks} checks"
        )
    return report


def _snapshot(state: Any) -> bytes:
    """The state's pickle: equal bytes before and after means nothing was mutated.

    Pickling (not ``copy.deepcopy``, which a state may shortcut for speed) walks the whole
    object graph, so a mutation anywhere shows, and it is much cheaper than a deep copy.
    """
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def _fail(where: str, message: str) -> ConformanceError:
    return ConformanceError(f"{where}: {message}")


def _check_one(
    game: Game[Any, Any],
    config: Rules,
    n: int,
    seed: int,
    report: Report,
    where0: str,
    *,
    leak_every: int,
    leak_draws: int,
    deep_every: int,
    default_rate: float,
    talk_rate: float,
    max_steps: int,
) -> None:
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(n)]
    state = game.new(config, players)
    record = Record(game.spec.name, game.spec.version, to_json(config), players)
    states = [state]
    seen_actions: list[Action] = []
    seats: list[Seat | None] = [*range(n), None]
    step_no = 0
    while True:
        where = f"{where0} step {step_no}"
        acting = game.to_act(state)
        if not acting:
            break
        if step_no >= max_steps:
            raise _fail(where, f"no end after {max_steps} steps")
        if step_no % leak_every == 0:
            _check_views(game, state, seats, acting, rng, leak_draws, report, where)
        deep = step_no % deep_every == 0
        snapshot = _snapshot(state) if deep else None
        if CHANCE in acting:
            if len(acting) != 1:
                raise _fail(where, f"chance must act alone, to_act={sorted(acting)}")
            action = game.sample_chance(state, rng)
            outcomes = game.legal_actions(state, CHANCE)
            if len(outcomes) and action not in outcomes:
                raise _fail(where, f"chance drew {action}, not among its legal outcomes")
            new, events = game.apply(state, CHANCE, action)
            step = Step(CHANCE, action=game.dump_action(action))
        else:
            if not game.spec.decisions:
                raise _fail(where, f"the spec says no decisions, but {sorted(acting)} must act")
            seat = rng.choice(sorted(acting))
            _check_not_your_turn(game, state, acting, n, seen_actions, where)
            talked = _maybe_talk(game, state, seat, rng, talk_rate, where)
            if talked is not None:
                new, events, step = talked
                report.talk_lines += 1
            elif rng.random() < default_rate:
                new, events = game.apply_default(state, seat)
                step = Step(seat, default="timeout")
                report.defaults_applied += 1
            else:
                legal = game.legal_actions(state, seat)
                if not len(legal):
                    raise _fail(where, f"seat {seat} must act but has no legal action")
                report.junk_rejected += _check_junk(game, state, seat, legal, seen_actions, where)
                report.mutations_checked += _check_mutations(game, state, seat, legal, rng, where)
                action = game.conformance_action(state, seat, legal, rng)
                if action not in legal:
                    raise _fail(where, f"conformance_action chose {action}, not legal")
                _check_roundtrip(game, action, where)
                new, events = game.apply(state, seat, action)
                seen_actions.append(action)
                if len(seen_actions) > 50:
                    del seen_actions[: len(seen_actions) - 50]
                step = Step(seat, action=game.dump_action(action))
        if snapshot is not None and _snapshot(state) != snapshot:
            raise _fail(where, "apply mutated its input state")
        _check_events(events, n, where)
        state = new
        record.steps.append(step)
        states.append(state)
        step_no += 1
        report.steps += 1
    report.end_lengths.append(step_no)
    where = f"{where0} at the end"
    _check_views(game, state, seats, frozenset(), rng, leak_draws, report, where)
    _check_outcome(game.outcome(state), n, where)
    for seat in range(n):
        try:
            game.apply_default(state, seat)
        except GameOverError:
            continue
        raise _fail(where, "apply_default after the end must raise GameOverError")
    record.outcome = to_json(game.outcome(state))
    _check_record(game, record, states, deep_every, where)


def _check_views(
    game: Game[Any, Any],
    state: Any,
    seats: Sequence[Seat | None],
    acting: frozenset[Seat],
    rng: random.Random,
    draws: int,
    report: Report,
    where: str,
) -> None:
    hidden = game.spec.hidden_information
    for seat in seats:
        view = game.view(state, seat)
        text = json.dumps(view, ensure_ascii=False, sort_keys=True)
        if json.loads(text) != view:
            raise _fail(where, f"view of {seat} does not round-trip through JSON")
        if not hidden and seat is not None:
            continue
        for _ in range(draws):
            det = game.determinize(json.loads(text), seat, rng)
            again = game.view(det, seat)
            if again != view:
                raise _fail(
                    where, f"leak: view of {seat} differs after determinize: " + _diff(view, again)
                )
            if game.to_act(det) != game.to_act(state):
                raise _fail(where, f"to_act differs after determinize for {seat}")
            if seat is not None and seat in acting:
                a, b = game.legal_actions(state, seat), game.legal_actions(det, seat)
                if len(a) != len(b) or (len(a) <= 300 and set(a) != set(b)):
                    raise _fail(where, f"legal actions of {seat} differ after determinize")
            if det != state:
                report.determinized_differs += 1
            report.leak_checks += 1


def _diff(a: Any, b: Any, path: str = "$") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                return _diff(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _diff(x, y, f"{path}[{i}]")
    return f"{path}: {str(a)[:200]} != {str(b)[:200]}"


def _check_not_your_turn(
    game: Game[Any, Any],
    state: Any,
    acting: frozenset[Seat],
    n: int,
    seen: list[Action],
    where: str,
) -> None:
    idle = [s for s in range(n) if s not in acting]
    if not idle or not seen:
        return
    snapshot = _snapshot(state)
    try:
        game.apply(state, idle[0], seen[-1])
    except NotYourTurnError:
        pass
    else:
        raise _fail(where, f"seat {idle[0]} is not to act, but apply accepted {seen[-1]}")
    if _snapshot(state) != snapshot:
        raise _fail(where, "a rejected action changed the state")


def _reject(game: Game[Any, Any], state: Any, seat: Seat, data: Any, where: str) -> bool:
    """Try junk; True if it was rejected properly (state unchanged)."""
    snapshot = _snapshot(state)
    try:
        action = game.parse_action(data)
        game.apply(state, seat, action)
    except (InvalidActionError, IllegalActionError):
        if _snapshot(state) != snapshot:
            raise _fail(where, f"rejected junk {data!r} changed the state") from None
        return True
    return False


def _check_junk(
    game: Game[Any, Any],
    state: Any,
    seat: Seat,
    legal: Sequence[Action],
    seen: list[Action],
    where: str,
) -> int:
    rejected = 0
    for data in JUNK:
        if not _reject(game, state, seat, data, where):
            raise _fail(where, f"junk {data!r} was accepted")
        rejected += 1
    for action in seen[-5:]:
        if action in legal:
            continue
        if not _reject(game, state, seat, action, where):
            raise _fail(where, f"{action} is not legal here but apply accepted it")
        rejected += 1
    return rejected


def _mutate(value: Any, rng: random.Random) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rng.choice([value + 1, value - 1, -1, 0, 10**9, rng.randrange(-5, 60)])
    if isinstance(value, str):
        choices = ["", value[::-1], value + value[:1], value[1:], "x" + value[1:], "💥"]
        return rng.choice(choices)
    if isinstance(value, list):
        if value and rng.random() < 0.5:
            i = rng.randrange(len(value))
            return [*value[:i], _mutate(value[i], rng), *value[i + 1 :]]
        return rng.choice([value[1:], value + value[:1], []])
    return value


def _check_mutations(
    game: Game[Any, Any],
    state: Any,
    seat: Seat,
    legal: Sequence[Action],
    rng: random.Random,
    where: str,
    tries: int = 2,
) -> int:
    checked = 0
    for _ in range(tries):
        data = game.dump_action(legal[rng.randrange(len(legal))])
        keys = [k for k in data if k != "type"]
        if not keys:
            continue
        key = rng.choice(keys)
        data = {**data, key: _mutate(data[key], rng)}
        try:
            action = game.parse_action(data)
        except InvalidActionError:
            checked += 1
            continue
        snapshot = _snapshot(state)
        try:
            game.apply(state, seat, action)
            accepted = True
        except IllegalActionError:
            accepted = False
        if _snapshot(state) != snapshot:
            raise _fail(where, f"apply of {action} changed its input")
        if accepted != (action in legal):
            raise _fail(
                where,
                f"{action}: apply {'accepted' if accepted else 'rejected'} it but it is "
                f"{'' if action in legal else 'not '}in legal_actions",
            )
        checked += 1
    return checked


def _check_roundtrip(game: Game[Any, Any], action: Action, where: str) -> None:
    data = game.dump_action(action)
    for form in (data, json.dumps(data), str(action)):
        back = game.parse_action(form)
        if back != action:
            raise _fail(where, f"{action!r} does not round-trip via {form!r}: {back!r}")


def _maybe_talk(
    game: Game[Any, Any], state: Any, seat: Seat, rng: random.Random, rate: float, where: str
) -> tuple[Any, list[Event], Step] | None:
    channels = game.talk_channels(state, seat)
    if not channels or rng.random() >= rate:
        return None
    try:
        game.talk(state, seat, "no-such-channel", "hello")
    except IllegalActionError:
        pass
    else:
        raise _fail(where, "talk in a closed channel was accepted")
    channel = rng.choice(sorted(channels))
    text = rng.choice(["hello", "こんにちは", "I trust you", "really?"])
    new, events = game.talk(state, seat, channel, text, name=f"p{seat}")
    return new, events, Step(seat, talk=TalkLine(seat, f"p{seat}", channel, text))


def _check_events(events: list[Event], n: int, where: str) -> None:
    for e in events:
        if not isinstance(e, Event):
            raise _fail(where, f"apply returned a non-event {e!r}")
        if e.audience is not None and not all(0 <= s < n for s in e.audience):
            raise _fail(where, f"event {e.kind} has an audience outside the seats")
        json.dumps(to_json(e))


def _check_outcome(outcome: Outcome, n: int, where: str) -> None:
    if len(outcome.scores) != n or len(outcome.ranks) != n:
        raise _fail(where, f"outcome needs {n} scores and ranks: {outcome}")
    for r in outcome.ranks:
        better = sum(1 for x in outcome.ranks if x < r)
        if r != better + 1:
            raise _fail(where, f"ranks are not in competition order: {outcome.ranks}")
    json.dumps(to_json(outcome))


def _check_record(
    game: Game[Any, Any], record: Record, states: list[Any], every: int, where: str
) -> None:
    text = record.dumps()
    (back,) = loads(text)
    if back != record:
        raise _fail(where, "record does not round-trip through JSON lines")
    frames = list(replay(back, game))
    if len(frames) != len(states):
        raise _fail(where, f"replay gave {len(frames)} states, play gave {len(states)}")
    for i, frame in enumerate(frames):
        if (i % every == 0 or i == len(states) - 1) and frame.state != states[i]:
            raise _fail(where, f"replay differs from play at step {i}")
