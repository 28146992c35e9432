"""Replays for the browser: a finished game's states, seen by one seat or by a spectator.

The browser cannot run the engines, so the server rebuilds the states of a record (a stored
finished table, or a record file the person dropped on the page) and sends the view and the
events of a window of steps, exactly as that seat would have seen them live.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any

from dennou.core import record as rec
from dennou.core.errors import ConfigError, DennouError
from dennou.core.game import Game
from dennou.core.jsondata import to_json
from dennou.core.registry import Registry

MAX_FRAMES = 100
"""Most frames in one answer."""

MAX_RECORD_BYTES = 8 * 1024 * 1024
"""Largest record file accepted for a dropped-file replay."""

_CACHE_SIZE = 16


class Replay:
    """Every state of one record, rebuilt once.

    Args:
        record: The record.
        game: Its engine.
    """

    def __init__(self, record: rec.Record, game: Game[Any, Any]) -> None:
        self.record = record
        self.game = game
        self.frames = list(rec.replay(record, game))

    def window(
        self, seat: int | None, start: int, count: int, reveal: bool = False
    ) -> dict[str, Any]:
        """Frames ``start..start+count-1`` as ``seat`` (``None``: a spectator) saw them.

        With ``reveal``, each frame also says what every seat saw that a spectator did not
        (``hidden``: per seat, the fields of its view that differ from the spectator's, its
        event log left out): hands revealed, for a game that is over.

        Raises:
            ConfigError: No such seat.
        """
        players = self.record.players
        if seat is not None and not 0 <= seat < len(players):
            raise ConfigError(f"no seat {seat}: the game has {len(players)} seats")
        start = max(0, min(start, len(self.frames) - 1))
        count = max(1, min(count, MAX_FRAMES))
        out = []
        for frame in self.frames[start : start + count]:
            step = frame.step
            out.append(
                {
                    "version": frame.index,
                    "step": None
                    if step is None
                    else {
                        "seat": step.seat,
                        "kind": _kind(step),
                        "reason": step.end if step.end is not None else step.default,
                    },
                    "events": [
                        {"kind": e.kind, "text": e.text, "data": to_json(e.data)}
                        for e in frame.events
                        if e.visible_to(seat)
                    ],
                    "view": to_json(self.game.view(frame.state, seat)),
                    "to_act": sorted(self.game.to_act(frame.state)),
                    "hidden": self._hidden(frame.state) if reveal else None,
                }
            )
        return {
            "game": self.record.game,
            "players": players,
            "rules": self.record.rules,
            "outcome": self.record.outcome,
            "steps": len(self.frames) - 1,
            "seat": seat,
            "frames": out,
        }

    def _hidden(self, state: Any) -> list[dict[str, Any]]:
        public = to_json(self.game.view(state, None))
        out = []
        for seat in range(len(self.record.players)):
            view = to_json(self.game.view(state, seat))
            out.append(
                {
                    k: v
                    for k, v in view.items()
                    if k not in _NOT_HIDDEN and (k not in public or public[k] != v)
                }
            )
        return out


_NOT_HIDDEN = frozenset({"seat", "log"})
"""View fields never listed as hidden: whose view it is, and the event log (long, and its
lines are the events the frames carry)."""


def _kind(step: rec.Step) -> str:
    if step.end is not None:
        return "end"
    if step.talk is not None:
        return "talk"
    if step.default is not None:
        return "default"
    return "chance" if step.seat == -1 else "action"


class ReplayCache:
    """The last few replays, by a key (a table id or a record file's hash); thread-safe.

    Args:
        games: The engines.
    """

    def __init__(self, games: Registry) -> None:
        self.games = games
        self._items: OrderedDict[str, Replay] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str, load: Any) -> Replay:
        """The replay for ``key``, built from ``load()`` (a Record) when not cached.

        Raises:
            DennouError: The record does not replay (unknown game, other engine version...).
        """
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        record: rec.Record = load()
        if record.game not in self.games:
            raise ConfigError(f"this server does not host {record.game!r}")
        replay = Replay(record, self.games[record.game])
        with self._lock:
            self._items[key] = replay
            while len(self._items) > _CACHE_SIZE:
                self._items.popitem(last=False)
        return replay

    def from_text(self, text: str) -> Replay:
        """The replay of a record file's text (its first record).

        Raises:
            DennouError: Not a record file, or it does not replay.
        """
        key = "file:" + hashlib.sha256(text.encode()).hexdigest()

        def load() -> rec.Record:
            try:
                records = rec.loads(text)
            except DennouError as exc:
                raise ConfigError(f"not a record file: {exc.message}") from None
            if not records:
                raise ConfigError("the file holds no record")
            return records[0]

        try:
            return self.get(key, load)
        except ConfigError:
            raise
        except (DennouError, ValueError, TypeError, KeyError, IndexError) as exc:
            # a file's steps that do not replay: say so as bad input, not as a host failure
            message = exc.message if isinstance(exc, DennouError) else repr(exc)
            raise ConfigError(f"the record does not replay: {message}") from None


__all__ = ["MAX_FRAMES", "MAX_RECORD_BYTES", "Replay", "ReplayCache"]
