"""Actions: immutable tagged structs, their JSON and text codec, and lazy legal-action spaces.

Every game's actions are :class:`Action` subclasses: frozen ``msgspec`` structs whose JSON form is
an object tagged by ``"type"`` (``{"type": "call", "number": "0318"}``) and whose text form is the
tag followed by the fields (``call 0318``). Structs rather than plain dataclasses because msgspec
validates a whole tagged union in one step and writes its JSON Schema for the protocol docs.
"""

from __future__ import annotations

import functools
import json
import re
import types
import typing
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar, overload

import msgspec

from dennou.core.errors import InvalidActionError
from dennou.core.jsondata import to_json


class Action(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    """Base of every action of every game.

    Subclasses declare ``tag="name"`` and their fields; instances are hashable and immutable.
    """

    def __str__(self) -> str:
        """Return the short text form: the tag, then each field (sequences spread out)."""
        parts: list[str] = [tag_of(type(self))]
        for name in self.__struct_fields__:
            value = getattr(self, name)
            if isinstance(value, tuple | list):
                parts.extend(_text(v) for v in value)
            elif value is not None:
                parts.append(_text(value))
        return " ".join(parts)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def tag_of(cls: type[Action]) -> str:
    """Return the ``"type"`` tag of an action class."""
    tag = cls.__struct_config__.tag
    assert isinstance(tag, str), f"{cls.__name__} must declare tag='...'"
    return tag


A = TypeVar("A", bound=Action)


class ActionCodec:
    """Parses and dumps the actions of one game.

    Args:
        *classes: Every action class of the game.
        check: Checks what the types cannot say of an action parsed from JSON or text (a
            card that does not exist), raising :class:`InvalidActionError`. The engine's own
            actions skip it: it only guards what comes in from outside.
    """

    def __init__(
        self, *classes: type[Action], check: Callable[[Action], None] | None = None
    ) -> None:
        self.classes: tuple[type[Action], ...] = classes
        self.by_tag: dict[str, type[Action]] = {tag_of(c): c for c in classes}
        self.union: Any = typing.Union[classes]  # noqa: UP007 - built at run time from a tuple
        self.check = check

    def parse(self, data: Any) -> Action:
        """Parse an action from JSON text, a decoded JSON object, or the text form.

        Raises:
            InvalidActionError: The input is not an action of this game.
        """
        if isinstance(data, Action):
            if type(data) not in self.classes:
                raise InvalidActionError(f"{type(data).__name__} is not an action of this game")
            return data
        action = self._parse(data)
        if self.check is not None:
            self.check(action)
        return action

    def _parse(self, data: Any) -> Action:
        if isinstance(data, bytes):
            data = data.decode("utf-8", "replace")
        if isinstance(data, str):
            stripped = data.strip()
            if stripped.startswith("{"):
                try:
                    data = json.loads(stripped)
                except json.JSONDecodeError as exc:
                    raise InvalidActionError(f"malformed JSON: {exc}") from None
            else:
                return self.parse_text(stripped)
        if not isinstance(data, dict):
            raise InvalidActionError(
                f"an action is a JSON object with a 'type', got {type(data).__name__}"
            )
        kind = data.get("type")
        if kind not in self.by_tag:
            raise InvalidActionError(
                f"unknown action type {kind!r}; expected one of {sorted(self.by_tag)}"
            )
        try:
            # its own class, not the union: msgspec resolves a union's types at every call
            return msgspec.convert(data, self.by_tag[kind])
        except msgspec.ValidationError as exc:
            raise InvalidActionError(f"invalid {kind!r} action: {exc}") from None

    def parse_text(self, text: str) -> Action:
        """Parse the text form ``tag field field ...``; a sequence field takes the rest.

        Raises:
            InvalidActionError: The text is not an action of this game.
        """
        words = text.split()
        if not words:
            raise InvalidActionError("empty action")
        cls = self.by_tag.get(words[0].lower())
        if cls is None:
            raise InvalidActionError(
                f"unknown action {words[0]!r}; expected one of {sorted(self.by_tag)}"
            )
        hints = _hints(cls)
        fields = cls.__struct_fields__
        args: dict[str, Any] = {"type": words[0].lower()}
        rest = words[1:]
        for i, name in enumerate(fields):
            if _is_sequence(hints[name]):
                args[name] = rest[i:]
                for word in rest[i:]:
                    _check_int_word(hints[name], word, words[0], name)
                break
            if i < len(rest):
                args[name] = rest[i]
                _check_int_word(hints[name], rest[i], words[0], name)
        else:
            if len(rest) > len(fields):
                raise InvalidActionError(
                    f"too many words for {words[0]!r}: expected {' '.join(fields) or 'none'}"
                )
        try:
            return msgspec.convert(args, cls, strict=False)
        except msgspec.ValidationError as exc:
            usage = " ".join([words[0], *(f"<{f}>" for f in fields)])
            raise InvalidActionError(f"invalid {words[0]!r} ({exc}); usage: {usage}") from None

    def dump(self, action: Action) -> dict[str, Any]:
        """Return the JSON object of an action."""
        out = to_json(action)
        assert isinstance(out, dict)
        return out

    def schema(self) -> dict[str, Any]:
        """Return the JSON Schema of this game's actions."""
        return msgspec.json.schema(self.union)


@functools.cache
def _hints(cls: type[Action]) -> dict[str, Any]:
    """An action class's field types (the text form reads them for every action)."""
    return typing.get_type_hints(cls)


_INT_WORD = re.compile(r"[+-]?[0-9]+")


def _check_int_word(tp: Any, word: str, tag: str, field: str) -> None:
    """Refuse ``1e3``, ``12.0`` and the like where a whole number is wanted."""
    if _base(tp) is int and not _INT_WORD.fullmatch(word):
        raise InvalidActionError(f"{tag}: {field} must be a whole number, got {word!r}")


def _base(tp: Any) -> Any:
    """``int`` for ``int``, ``int | None``, ``tuple[int, ...]``; the type itself otherwise."""
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    args = [a for a in typing.get_args(tp) if a is not type(None) and a is not Ellipsis]
    if typing.get_origin(tp) in (typing.Union, types.UnionType, tuple, list) and len(args) == 1:
        return _base(args[0])
    return tp


def _is_sequence(tp: Any) -> bool:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return any(_is_sequence(a) for a in typing.get_args(tp))
    return origin in (tuple, list)


class LazyActions(Sequence[A], Generic[A]):
    """A legal-action space too big to list: indexed on demand, with a fast membership test.

    Args:
        length: Number of actions.
        item: Returns the action at an index in ``range(length)``.
        contains: Whether an action belongs to the space (without enumerating it).
        describe: A JSON-able description of how to form the actions (for clients).
    """

    def __init__(
        self,
        length: int,
        item: Callable[[int], A],
        contains: Callable[[Any], bool],
        describe: dict[str, Any] | None = None,
    ) -> None:
        self._length = length
        self._item = item
        self._contains = contains
        self.description: dict[str, Any] = describe or {}

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> A: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[A]: ...

    def __getitem__(self, index: int | slice) -> A | Sequence[A]:
        if isinstance(index, slice):
            return [self._item(i) for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        return self._item(index)

    def __contains__(self, action: object) -> bool:
        return self._contains(action)

    def __iter__(self) -> Iterator[A]:
        return (self._item(i) for i in range(self._length))


class Concat(Sequence[A], Generic[A]):
    """Several action spaces (lists or lazy) seen as one sequence."""

    def __init__(self, *parts: Sequence[A]) -> None:
        self.parts: tuple[Sequence[A], ...] = tuple(p for p in parts if len(p))
        self._length = sum(len(p) for p in self.parts)

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> A: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[A]: ...

    def __getitem__(self, index: int | slice) -> A | Sequence[A]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        for part in self.parts:
            if index < len(part):
                return part[index]
            index -= len(part)
        raise IndexError(index)  # pragma: no cover - lengths are consistent

    def __contains__(self, action: object) -> bool:
        return any(action in p for p in self.parts)

    def __iter__(self) -> Iterator[A]:
        for part in self.parts:
            yield from part
