"""Helpers for immutable states: every transition builds new tuples and states, never changes one.

:func:`replace` is ``dataclasses.replace`` for the frozen dataclasses games keep their state in,
about three times faster (engines call it several times per step): it copies the instance's
fields and sets the changed ones, where ``dataclasses.replace`` calls ``__init__`` again. Type
checkers see ``dataclasses.replace`` itself, so every call is checked the same way.
"""

from __future__ import annotations

import dataclasses
import itertools
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, overload

T = TypeVar("T")

__all__ = ["Log", "replace", "replace_at"]


@overload
def replace_at(values: tuple[T, T], index: int, value: T) -> tuple[T, T]: ...


@overload
def replace_at(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]: ...


def replace_at(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``values`` with ``values[index]`` replaced by ``value`` (a new tuple).

    >>> replace_at((1, 2, 3), 1, 9)
    (1, 9, 3)
    """
    return (*values[:index], value, *values[index + 1 :])


_FIELDS: dict[type[Any], frozenset[str] | None] = {}


def _copyable_fields(cls: type[Any]) -> frozenset[str] | None:
    """The fields of a dataclass whose instances may be copied field by field (else ``None``)."""
    if cls not in _FIELDS:
        plain = (
            dataclasses.is_dataclass(cls)
            and not hasattr(cls, "__post_init__")
            and not hasattr(cls, "__slots__")
            and all(f.init for f in dataclasses.fields(cls))
        )
        _FIELDS[cls] = frozenset(f.name for f in dataclasses.fields(cls)) if plain else None
    return _FIELDS[cls]


if TYPE_CHECKING:
    from dataclasses import replace as replace
else:

    def replace(obj, /, **changes):
        """A copy of a frozen dataclass with ``changes`` (as ``dataclasses.replace``).

        Raises:
            TypeError: A name that is not a field of ``obj``.
        """
        cls = type(obj)
        fields = _FIELDS.get(cls) or _copyable_fields(cls)
        if fields is None:
            return dataclasses.replace(obj, **changes)
        if not fields.issuperset(changes):
            unknown = sorted(set(changes) - fields)
            raise TypeError(f"{cls.__name__} has no field(s) {unknown}")
        new = object.__new__(cls)
        state = new.__dict__
        state.update(obj.__dict__)
        state.update(changes)
        return new


_APPEND = threading.Lock()


class Log(Sequence[T]):
    """An immutable sequence that grows by ``log + items`` in O(len(items)), not O(len(log)).

    A state's event log is the previous state's log plus the step's events; as a tuple, every
    step would copy the whole log (a long game's steps then cost in proportion to its length).
    A ``Log`` shares one list with the logs it grew from: appending to the longest log of a line
    of play extends that list in place; appending to an older one (a search branching from a
    past state) copies its items first. A ``Log`` never changes once made; it compares, hashes,
    pickles and copies like the tuple of its items.

    >>> a = Log([1, 2]); b = a + (3,); c = a + (4,)
    >>> list(a), list(b), list(c), b == (1, 2, 3)
    ([1, 2], [1, 2, 3], [1, 2, 4], True)
    """

    __slots__ = ("_items", "_n")

    _items: list[T]
    _n: int

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._items = list(items)
        self._n = len(self._items)

    @classmethod
    def _of(cls, items: list[T], n: int) -> Log[T]:
        log: Log[T] = object.__new__(cls)
        log._items, log._n = items, n
        return log

    def __add__(self, more: Iterable[T]) -> Log[T]:
        more = tuple(more)
        if not more:
            return self
        with _APPEND:
            if len(self._items) == self._n:  # the longest log of its line: extend in place
                self._items.extend(more)
                return Log._of(self._items, self._n + len(more))
        items = self._items[: self._n]
        items.extend(more)
        return Log._of(items, len(items))

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._n)
            return tuple(self._items[start:stop:step])
        if index < 0:
            index += self._n
        if not 0 <= index < self._n:
            raise IndexError("Log index out of range")
        return self._items[index]

    def __iter__(self) -> Iterator[T]:
        return itertools.islice(self._items, self._n)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Log):
            return self._n == other._n and (
                self._items is other._items or self._items[: self._n] == other._items[: other._n]
            )
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Log, (tuple(self),))

    def __repr__(self) -> str:
        return f"Log({list(self)!r})"
