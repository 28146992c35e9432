"""Records: everything needed to rebuild a game exactly, as JSON lines; and replay.

A record is the game's name and engine version, the rules, the players, and every step in order:
actions (chance actions included), defaults the host applied (timeouts, absences, failed bots),
talk, and a host ending (a seat resigned, the game was aborted, or a win was claimed). A file
holds one or more records, each as lines ``{"type": "header", ...}``, then one
``{"type": "step", ...}`` per step, then ``{"type": "end", "outcome": ...}`` once finished.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import msgspec

from dennou.core.errors import ConfigError, DennouError
from dennou.core.game import Event, Game, TalkLine
from dennou.core.jsondata import to_json
from dennou.core.talk import SPECTATORS, spectator_talk

FORMAT = 1
"""Version of the record format itself (not of any game)."""


class Step(msgspec.Struct, frozen=True, omit_defaults=True):
    """One step of a game.

    Exactly one of ``action``, ``default``, ``talk`` and ``end`` is set.

    Attributes:
        seat: Who acted (``-1`` for chance); ``None`` for a spectator's talk.
        action: The action's JSON.
        default: Why the host applied the rules' default for ``seat`` (``timeout``, ``error``...).
        talk: The line said (for talk steps).
        end: The host ended the game here for ``seat``'s request: ``resign``, ``abort`` (before
            anything was dealt or moved) or ``claim`` (the win, after the others were absent); or,
            with no seat, ``cancel`` (its tournament was cancelled) or ``step_limit`` (the game
            reached the host's limit of steps): nobody wins. The state does
            not change; the record's outcome says who won (nobody, for ``abort``).
        ms: Time the decision took, in milliseconds, where measured.
        note: What the host noted (the illegal action a bot tried, an exception...).
    """

    seat: int | None
    action: dict[str, Any] | None = None
    default: str | None = None
    talk: TalkLine | None = None
    end: str | None = None
    ms: float | None = None
    note: str | None = None


class Record(msgspec.Struct, omit_defaults=True):
    """A whole game.

    Attributes:
        game: Registry name.
        version: The engine version (``GameSpec.version``) that made the record.
        rules: The rules options as JSON.
        players: Player names by seat.
        steps: Every step in order.
        seed: The host's seed, if the game was played from one (replay never needs it).
        outcome: The :class:`~dennou.core.game.Outcome` as JSON, once finished.
        meta: Free-form facts (bot names, table id, start time...).
    """

    game: str
    version: int
    rules: dict[str, Any]
    players: list[str]
    steps: list[Step] = msgspec.field(default_factory=list)
    seed: int | None = None
    outcome: dict[str, Any] | None = None
    meta: dict[str, Any] = msgspec.field(default_factory=dict)

    def header_line(self) -> str:
        """The JSON line that opens this record."""
        head = to_json(self)
        head.pop("steps", None)
        head.pop("outcome", None)
        return json.dumps({"type": "header", "format": FORMAT, **head}, ensure_ascii=False)

    def lines(self) -> Iterator[str]:
        """All JSON lines of this record (header, steps, end when finished)."""
        yield self.header_line()
        for step in self.steps:
            yield step_line(step)
        if self.outcome is not None:
            yield json.dumps({"type": "end", "outcome": self.outcome}, ensure_ascii=False)

    def dumps(self) -> str:
        """The record as JSON lines text."""
        return "".join(line + "\n" for line in self.lines())


def step_line(step: Step) -> str:
    """The JSON line of one step."""
    return json.dumps({"type": "step", **to_json(step)}, ensure_ascii=False)


def loads(text: str) -> list[Record]:
    """Parse JSON lines text holding one or more records.

    Raises:
        DennouError: The text is not a record file (the message names the line).
    """
    records: list[Record] = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
            kind = line.pop("type")
            if kind == "header":
                fmt = line.pop("format", FORMAT)
                if fmt != FORMAT:
                    raise DennouError(f"record format {fmt} is not supported (this is {FORMAT})")
                records.append(msgspec.convert(line, Record))
            elif kind == "step":
                records[-1].steps.append(msgspec.convert(line, Step))
            elif kind == "end":
                records[-1].outcome = line["outcome"]
            else:
                raise DennouError(f"unknown line type {kind!r}")
        except (ValueError, KeyError, IndexError, msgspec.ValidationError) as exc:
            raise DennouError(f"line {number}: not a record line ({exc})") from None
    return records


def read(path: str | Path) -> list[Record]:
    """Read every record in a JSON lines file."""
    return loads(Path(path).read_text(encoding="utf-8"))


def write(path: str | Path, records: Iterable[Record], *, append: bool = False) -> None:
    """Write records to a JSON lines file."""
    with Path(path).open("a" if append else "w", encoding="utf-8") as fh:
        for record in records:
            fh.write(record.dumps())


END_TEXT = {
    "resign": "resigns",
    "abort": "aborts the game before the first move",
    "claim": "claims the win: the others are gone",
    "cancel": "the game is cancelled: its tournament was cancelled",
    "step_limit": "the game is over: it reached the host's limit of steps (nobody wins)",
}
"""How a host ending (:attr:`Step.end`) reads in an event."""


class Frame(msgspec.Struct):
    """A state in a replay: after ``step`` (``None`` for the initial state) at ``index``."""

    index: int
    step: Step | None
    state: Any
    events: list[Event]


def apply_step(game: Game[Any, Any], state: Any, step: Step) -> tuple[Any, list[Event]]:
    """Apply one recorded step to ``state`` (actions, defaults, talk and host endings alike)."""
    if step.end is not None:
        who = "the host" if step.seat is None else f"seat {step.seat}"
        return state, [
            Event(step.end, f"{who}: {END_TEXT.get(step.end, step.end)}", {"seat": step.seat})
        ]
    if step.talk is not None:
        t = step.talk
        if t.channel == SPECTATORS:  # the host's room: no game state keeps it
            return state, [spectator_talk(t)]
        return game.talk(state, t.speaker, t.channel, t.text, name=t.name)
    assert step.seat is not None, "only talk steps have no seat"
    if step.default is not None:
        return game.apply_default(state, step.seat)
    if step.action is None:
        raise DennouError("a step needs an action, a default or a talk line")
    return game.apply(state, step.seat, game.parse_action(step.action))


def start(record: Record, game: Game[Any, Any]) -> Any:
    """The initial state of a record (checks the game and engine version).

    Raises:
        ConfigError: The record is of another game or was made by another engine version.
    """
    if record.game != game.spec.name:
        raise ConfigError(f"record is of {record.game!r}, not {game.spec.name!r}")
    if record.version != game.spec.version:
        raise ConfigError(
            f"record made by {record.game} v{record.version}; this engine is "
            f"v{game.spec.version} and may not replay it exactly"
        )
    return game.new(game.make_rules(record.rules), record.players)


def replay(record: Record, game: Game[Any, Any]) -> Iterator[Frame]:
    """Rebuild every state of a record, in order, starting with the initial state."""
    state = start(record, game)
    yield Frame(0, None, state, [])
    for i, step in enumerate(record.steps, 1):
        state, events = apply_step(game, state, step)
        yield Frame(i, step, state, events)


def final_state(record: Record, game: Game[Any, Any]) -> Any:
    """The state after the last step of a record."""
    state = None
    for frame in replay(record, game):
        state = frame.state
    return state
