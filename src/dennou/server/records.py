"""Records as each audience may read them: talk is filtered like views are.

A finished game's record is public, but not every talk line in it is: a ``pair:`` or ``team:``
line was said to some seats only, and stays theirs after the game. :func:`for_audience` replays
the record and blanks the text of every talk line the reader could not have heard (the step
stays, so the record still replays exactly: the same steps, states and events, with the private
words replaced by :data:`REDACTED`).
"""

from __future__ import annotations

from typing import Any

from dennou.core.game import Game, TalkLine
from dennou.core.record import Record, Step, apply_step, start

REDACTED = "[private]"
"""What a talk line the reader could not hear says in their copy of the record."""


def for_audience(record: Record, game: Game[Any, Any], seat: int | None) -> Record:
    """``record`` as ``seat`` (``None``: a spectator, anyone) may read it."""
    state = start(record, game)
    steps: list[Step] = []
    hidden = 0
    for step in record.steps:
        state, events = apply_step(game, state, step)
        talk = step.talk
        if talk is not None and events and not any(e.visible_to(seat) for e in events):
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


__all__ = ["REDACTED", "for_audience"]
