"""A game's presentation: the views each seat may see, determinization, and text for people.

Every game package has a ``views.py`` with one :class:`Views` subclass. The package's
``__init__.py`` hands the class to the engine (``GAME = Numeron(views=NumeronViews, bots=BOTS)``),
which builds it with itself, so views may ask the engine (who acts now) while the engine never
imports its views. :meth:`Views.header` is the part every view starts with.
"""

from __future__ import annotations

import itertools
import json
import random
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Generic, Protocol, TypeVar, cast

from dennou.core.actions import Action
from dennou.core.events import JSON, Event, Seat
from dennou.core.jsondata import encode, to_json

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)


class Named(Protocol):
    """A game's description, as far as views read it: its name."""

    @property
    def name(self) -> str:
        """The game's registry name."""
        ...


class Engine(Protocol[S_contra]):
    """What views ask of the engine they present (a :class:`~dennou.core.game.Game`).

    Views depend on this much of the engine only, so the engine may build its views while the
    views module stays below the game contract.
    """

    @property
    def spec(self) -> Named:
        """The game's description."""
        ...

    def to_act(self, state: S_contra) -> frozenset[Seat]:
        """The seats that must act now."""
        ...


class CommonState(Protocol):
    """What :meth:`Views.header` reads from a state: the rules, the players and the phase."""

    @property
    def rules(self) -> Any:
        """The rules options."""

    @property
    def players(self) -> Sequence[str]:
        """Player names by seat."""

    @property
    def phase(self) -> str:
        """What is due now (``over`` at the end)."""


class Views(Generic[S]):
    """The presentation of one game (subclass it in the game's ``views.py``).

    Args:
        game: The engine these views present (views ask it who acts; it never imports them).
    """

    def __init__(self, game: Engine[S]) -> None:
        self.game = game
        self.events = EventLog()
        """The JSON of event logs, built incrementally (for views that carry their log)."""

    def view(self, state: S, seat: Seat | None) -> JSON:
        """Exactly what ``seat`` (``None``: a spectator) may know now, as JSON-able data."""
        raise NotImplementedError(f"{self.game.spec.name} has no views")

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> S:
        """A full state consistent with ``view`` as ``seat`` sees it, hidden parts sampled."""
        raise NotImplementedError(f"{self.game.spec.name} does not implement determinize")

    def render(self, view: JSON) -> str:
        """A view as text for a terminal (games override this with something readable)."""
        return json.dumps(view, ensure_ascii=False, indent=1)

    def describe_legal(self, legal: Sequence[Action]) -> str:
        """A short text of the legal actions for a person (big spaces are summarised)."""
        if len(legal) <= 40:
            return "  ".join(f"[{i}] {a}" for i, a in enumerate(legal))
        return f"{len(legal)} actions, e.g. {legal[0]} ... {legal[len(legal) - 1]}"

    def header(self, state: S, seat: Seat | None) -> JSON:
        """What every view starts with: game, rules, players, seat, phase and who acts now.

        A client needs nothing else to make sense of a view (``docs/architecture.md``).
        """
        common = cast(CommonState, state)
        return {
            "game": self.game.spec.name,
            "rules": to_json(common.rules),
            "players": list(common.players),
            "seat": seat,
            "phase": common.phase,
            "to_act": sorted(self.game.to_act(state)),
        }


_EVERY = "every"
"""The audience key of a log's every event (a game's end shows them all)."""


class LogJSON(list["JSON"]):
    """A view's event log: a plain list of the events' JSON that can also give it encoded.

    The host sends views as JSON, and a view carrying a long log would encode every event of it
    for every message; the log's JSON encoding is kept beside it, appended as the log grows, so
    :meth:`encoded` costs a copy of bytes. Anything else reads it as the list it is; it pickles
    as a plain list (a bot process needs no cache).
    """

    __slots__ = ("_source",)

    def __init__(self, items: list[JSON], source: tuple[EventLog, _Chain | None, Any, int]) -> None:
        # the first ``count`` of ``items`` (a line's shared list), copied once
        count = source[3]
        super().__init__(items if count == len(items) else itertools.islice(items, count))
        self._source = source

    def __reduce__(self) -> tuple[type[list[JSON]], tuple[list[JSON]]]:
        return list, (list(self),)

    def encoded(self) -> bytes | None:
        """This log's JSON bytes, or ``None`` if the list was changed since the view was built.

        Byte for byte what encoding the list gives (each event's JSON encoded once per line of
        play and audience, then copied).
        """
        events, chain, who, count = self._source
        if len(self) != count:
            return None
        if chain is None or not count:
            return b"[]"
        if self[-1] is not chain.shown(who)[count - 1]:
            return None
        with events._lock:
            return chain.encoded(who, count)


class _Chain:
    """The JSON of one line of play's events, append-only, and what each audience sees of it.

    Attributes:
        events: The events, in order (the log of the longest state seen on this line).
        every: Their JSON.
        seen: Per audience, the JSON of the events it may see, and for each prefix of
            ``events`` how many of those there are (``counts[i]``: among the first ``i``).
    """

    __slots__ = ("blobs", "events", "every", "seen")

    def __init__(self, events: list[Event], every: list[JSON]) -> None:
        self.events = events
        self.every = every
        self.seen: dict[Seat | None, tuple[list[JSON], list[int]]] = {}
        self.blobs: dict[Any, tuple[bytearray, list[int]]] = {}
        """Per audience (:data:`_EVERY`: every event), the JSON encoding of the events it sees,
        comma-separated, and where each event's encoding ends (built when first asked for)."""

    def extend(self, events: Sequence[Event], every: Sequence[JSON]) -> None:
        self.events.extend(events)
        self.every.extend(every)
        for who, (seen, counts) in self.seen.items():
            for e, j in zip(events, every, strict=True):
                if e.visible_to(who):
                    seen.append(j)
                counts.append(len(seen))

    def fork(self, length: int) -> _Chain:
        chain = _Chain(self.events[:length], self.every[:length])
        for who, (seen, counts) in self.seen.items():
            chain.seen[who] = (seen[: counts[length]], counts[: length + 1])
        return chain

    def shown(self, who: Any) -> list[JSON]:
        """The JSON of the events ``who`` sees (:data:`_EVERY`: all of them)."""
        return self.every if who == _EVERY else self.seen[who][0]

    def encoded(self, who: Any, count: int) -> bytes:
        """The JSON array of the first ``count`` events ``who`` sees, as bytes."""
        blob, ends = self.blobs.setdefault(who, (bytearray(), [0]))
        shown = self.shown(who)
        for i in range(len(ends) - 1, count):
            if i:
                blob += b","
            blob += encode(shown[i])
            ends.append(len(blob))
        return b"[" + blob[: ends[count]] + b"]"

    def visible(self, who: Seat | None, length: int) -> tuple[list[JSON], int]:
        """What ``who`` sees on this line: its events' JSON, and the count among the first n.

        ``n`` is ``length``. The list is the line's own, still growing: read it, don't keep it.
        """
        if who not in self.seen:
            seen: list[JSON] = []
            counts = [0]
            for e, j in zip(self.events, self.every, strict=True):
                if e.visible_to(who):
                    seen.append(j)
                counts.append(len(seen))
            self.seen[who] = (seen, counts)
        seen, counts = self.seen[who]
        return seen, counts[length]


class EventLog:
    """The JSON of append-only event logs, per audience, built incrementally.

    Games whose views carry their whole event log (Numeron, 10-card stud, Star Hi-Lo) would
    otherwise convert the whole log for every view, so that a game's views cost grows with the
    square of its length. Logs only grow by appending new events (``commit`` adds a step's
    events to the previous log), so the JSON of a log is the JSON of an earlier log (found by
    the identity of its last event, which only logs descending from that step contain) plus the
    new events. Each line of play keeps one append-only list (a new line forks a copy where it
    leaves another); a bounded number of logs is remembered, anything else is built anew.

    The event entries are shared between views: a view is data to read (or to encode), not to
    change.

    Args:
        size: How many logs to remember (a few per table or search in flight).
    """

    REACH = 64
    """How far back from a log's end to look for a remembered log."""

    def __init__(self, size: int = 256) -> None:
        self._size = size
        # id(last event) -> (that event, the log's length, its line of play)
        self._logs: OrderedDict[int, tuple[Event, int, _Chain]] = OrderedDict()
        self._lock = threading.Lock()

    def __getstate__(self) -> dict[str, Any]:
        # A game is pickled to the host's bot and engine worker processes; its cache of logs
        # (and the lock guarding it) stays behind: the copy starts empty.
        return {"size": self._size}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["size"])  # type: ignore[misc]

    def json(
        self, log: Sequence[Event], seat: Seat | None, *, everything: bool = False
    ) -> list[JSON]:
        """The JSON of the events of ``log`` that ``seat`` may see (all, with ``everything``)."""
        n = len(log)
        if not n:
            return LogJSON([], (self, None, seat, 0))
        with self._lock:
            chain = self._chain(log)
            if everything:
                return LogJSON(chain.every, (self, chain, _EVERY, n))
            shown, count = chain.visible(seat, n)
            return LogJSON(shown, (self, chain, seat, count))

    def _known(self, log: Sequence[Event], i: int) -> _Chain | None:
        found = self._logs.get(id(log[i]))
        if found is not None and found[0] is log[i] and found[1] == i + 1:
            return found[2]
        return None

    def _chain(self, log: Sequence[Event]) -> _Chain:
        n = len(log)
        chain = self._known(log, n - 1)
        if chain is None:
            start = 0
            for i in range(n - 2, max(-1, n - 2 - self.REACH), -1):
                base = self._known(log, i)
                if base is not None:
                    start = i + 1
                    chain = base if len(base.events) == start else base.fork(start)
                    break
            new = log[start:]
            if chain is None:
                chain = _Chain(list(new), to_json(list(new)))
            else:
                chain.extend(new, to_json(list(new)))
        self._logs[id(log[n - 1])] = (log[n - 1], n, chain)
        self._logs.move_to_end(id(log[n - 1]))
        while len(self._logs) > self._size:
            self._logs.popitem(last=False)
        return chain
