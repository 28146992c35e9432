"""Replays for the browser: a finished game's states, seen by one seat or by a spectator.

The browser cannot run the engines, so the server rebuilds the states of a record (a stored
finished table, or a record file the person dropped on the page) and sends the view and the
events of a window of steps, exactly as that seat would have seen them live.

A replay keeps the state after every :data:`CHECKPOINT_EVERY`-th step, not every state: a window
is rebuilt from the checkpoint before it (at most that many steps more). States share their
logs (talk and events are kept in :class:`~dennou.core.immutable.Log`), so what a replay holds
grows with the record, not with its square; :class:`ReplayCache` counts it in bytes.
"""

from __future__ import annotations

import gc
import hashlib
import sys
import threading
import types
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from dennou.core import record as rec
from dennou.core.errors import ConfigError, DennouError
from dennou.core.game import Game
from dennou.core.jsondata import to_json
from dennou.core.registry import Registry
from dennou.server.limits import Limits

CHECKPOINT_EVERY = 32
"""Steps between the states a replay keeps."""


class Replay:
    """Every state of one record, rebuilt once.

    Args:
        record: The record.
        game: Its engine.
    """

    def __init__(self, record: rec.Record, game: Game[Any, Any]) -> None:
        self.record = record
        self.game = game
        self.steps = len(record.steps)
        state = rec.start(record, game)
        self._checkpoints: list[Any] = [state]
        for i, step in enumerate(record.steps, 1):
            state, _ = rec.apply_step(game, state, step)
            if i % CHECKPOINT_EVERY == 0:
                self._checkpoints.append(state)
        self.nbytes = footprint(record, self._checkpoints)
        """About how many bytes this replay holds (shared objects counted once)."""

    def frames(self, start: int, count: int) -> list[rec.Frame]:
        """Frames ``start..start+count-1`` (clipped to the record), rebuilt from a checkpoint."""
        start = max(0, min(start, self.steps))
        stop = min(start + max(1, count), self.steps + 1)
        # from the checkpoint before ``start``: the frame at ``start`` needs its step's events
        index = 0 if start == 0 else (start - 1) // CHECKPOINT_EVERY * CHECKPOINT_EVERY
        state = self._checkpoints[index // CHECKPOINT_EVERY]
        out = [rec.Frame(0, None, state, [])] if start == 0 else []
        steps = self.record.steps
        while index + 1 < stop:
            step = steps[index]
            state, events = rec.apply_step(self.game, state, step)
            index += 1
            if index >= start:
                out.append(rec.Frame(index, step, state, events))
        return out

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
        count = max(1, count)
        out = []
        for frame in self.frames(start, count):
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
            "steps": self.steps,
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


def footprint(*roots: Any) -> int:
    """Bytes of the objects reachable from ``roots``, each counted once (code and types not)."""
    seen: set[int] = set()
    stack = list(roots)
    total = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, _NOT_COUNTED):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


_NOT_COUNTED = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
)
"""Shared by the whole program, not held by one replay."""


_NOT_HIDDEN = frozenset({"seat", "log"})
"""View fields never listed as hidden: whose view it is, and the event log (long, and its
lines are the events the frames carry)."""


class TooLong(DennouError):
    """A record file with more steps than the host replays."""


def _kind(step: rec.Step) -> str:
    if step.end is not None:
        return "end"
    if step.talk is not None:
        return "talk"
    if step.default is not None:
        return "default"
    return "chance" if step.seat == -1 else "action"


class ReplayCache:
    """The replays used last, by a key (a table id or a record file's hash); thread-safe.

    Bounded in bytes (:attr:`Replay.nbytes`): the least recently used go first, and a replay
    bigger than the whole bound is answered but not kept. Concurrent requests for one key build
    it once.

    Args:
        games: The engines.
        max_bytes: What the kept replays may hold in all.
        max_steps: Most steps in a record file (:meth:`from_text`).
    """

    def __init__(
        self,
        games: Registry,
        max_bytes: int | None = None,
        max_steps: int | None = None,
    ) -> None:
        self.games = games
        self.max_bytes = Limits().replay_cache_bytes if max_bytes is None else max_bytes
        self.max_steps = max_steps
        self.nbytes = 0
        """Bytes the kept replays hold."""
        self._items: OrderedDict[str, Replay] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[str, threading.Lock] = {}

    def _cached(self, key: str) -> Replay | None:
        with self._lock:
            replay = self._items.get(key)
            if replay is not None:
                self._items.move_to_end(key)
            return replay

    def get(self, key: str, load: Callable[[], rec.Record]) -> Replay:
        """The replay for ``key``, built from ``load()`` (a Record) when not cached.

        Raises:
            DennouError: The record does not replay (unknown game, other engine version...).
        """
        replay = self._cached(key)
        if replay is not None:
            return replay
        with self._lock:
            gate = self._building.setdefault(key, threading.Lock())
        with gate:
            try:
                replay = self._cached(key)
                if replay is None:
                    replay = self._build(load())
                    self._keep(key, replay)
            finally:
                with self._lock:
                    if self._building.get(key) is gate:
                        del self._building[key]
        return replay

    def _build(self, record: rec.Record) -> Replay:
        if record.game not in self.games:
            raise ConfigError(f"this server does not host {record.game!r}")
        return Replay(record, self.games[record.game])

    def _keep(self, key: str, replay: Replay) -> None:
        if replay.nbytes > self.max_bytes:
            return
        with self._lock:
            self._items[key] = replay
            self.nbytes += replay.nbytes
            while self.nbytes > self.max_bytes:
                _, dropped = self._items.popitem(last=False)
                self.nbytes -= dropped.nbytes

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
            steps = len(records[0].steps)
            if self.max_steps is not None and steps > self.max_steps:
                raise TooLong(
                    f"the record has {steps} steps; a file replayed here has at most "
                    f"{self.max_steps}"
                )
            return records[0]

        try:
            return self.get(key, load)
        except (ConfigError, TooLong):
            raise
        except (DennouError, ValueError, TypeError, KeyError, IndexError) as exc:
            # a file's steps that do not replay: say so as bad input, not as a host failure
            message = exc.message if isinstance(exc, DennouError) else repr(exc)
            raise ConfigError(f"the record does not replay: {message}") from None


__all__ = [
    "CHECKPOINT_EVERY",
    "Replay",
    "ReplayCache",
    "TooLong",
    "footprint",
]
