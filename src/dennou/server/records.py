"""Records as each audience may read them: talk is filtered like views are.

A finished game's record is public, but not every talk line in it is: a ``pair:`` or ``team:``
line was said to some seats only, and stays theirs after the game. :func:`for_audience` replays
the record and blanks the text of every talk line the reader could not have heard (the step
stays, so the record still replays exactly: the same steps, states and events, with the private
words replaced by :data:`REDACTED`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from dennou.core.game import Event, Game, TalkLine
from dennou.core.record import Record, Step, apply_step, start

REDACTED = "[private]"
"""What a talk line the reader could not hear says in their copy of the record."""

Audience = int | None | Literal["all"]
"""Whose copy of a record: a seat's, spectators' (``None``: anyone), or ``"all"`` (an
operator's: nothing is blanked)."""


def audience_of(
    seats: Sequence[Mapping[str, Any]], account: str | None, operator: bool
) -> Audience:
    """Whose copy of a table's record ``account`` reads: the seat it played, else spectators'.

    Args:
        seats: The table's seats (``{"kind", "name"}`` each, as stored).
        account: The reader (``None``: anonymous).
        operator: Whether the reader is the host's operator (who reads everything).
    """
    if operator:
        return "all"
    if account is None:
        return None
    return next(
        (i for i, s in enumerate(seats) if s.get("kind") == "player" and s.get("name") == account),
        None,
    )


def audience_label(audience: Audience) -> str:
    """``all``, ``seat N`` or ``spectators``."""
    if audience == "all":
        return "all"
    return "spectators" if audience is None else f"seat {audience}"


def readable(record: Record, game: Game[Any, Any], audience: Audience) -> Record:
    """``record`` as ``audience`` may read it (see :func:`for_audience`)."""
    return record if audience == "all" else for_audience(record, game, audience)


def for_audience(record: Record, game: Game[Any, Any], seat: int | None) -> Record:
    """``record`` as ``seat`` (``None``: a spectator, anyone) may read it."""
    state = start(record, game)
    steps: list[Step] = []
    hidden = 0
    for step in record.steps:
        state, events = apply_step(game, state, step)
        talk = step.talk
        if talk is not None and events and not _heard(events, seat):
            hidden += 1
            step = Step(
                step.seat,
                talk=TalkLine(talk.speaker, talk.name, talk.channel, REDACTED),
                ms=step.ms,
                note=step.note,
            )
        steps.append(step)
    meta = {**record.meta, "audience": "spectators" if seat is None else f"seat {seat}"}
    if hidden:
        meta["redacted_talk"] = hidden
    return Record(
        game=record.game,
        version=record.version,
        rules=record.rules,
        players=record.players,
        steps=steps,
        seed=record.seed,
        outcome=record.outcome,
        meta=meta,
    )


def heard_line(
    record: Record, game: Game[Any, Any], version: int, seat: int | None
) -> TalkLine | None:
    """The talk line at ``version`` (1: the first step) if ``seat`` could read it, else ``None``.

    ``None`` also when the step is not a talk line or the record is shorter.
    """
    if not 0 < version <= len(record.steps):
        return None
    state = start(record, game)
    for step in record.steps[: version - 1]:
        state, _ = apply_step(game, state, step)
    step = record.steps[version - 1]
    _, events = apply_step(game, state, step)
    return step.talk if step.talk is not None and _heard(events, seat) else None


def _heard(events: Sequence[Event], seat: int | None) -> bool:
    """Whether ``seat`` could read a talk step that made ``events`` (its channel's audience)."""
    return any(e.visible_to(seat) for e in events)


__all__ = [
    "REDACTED",
    "Audience",
    "audience_label",
    "audience_of",
    "for_audience",
    "heard_line",
    "readable",
]
