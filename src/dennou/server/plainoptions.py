"""Plain option values without Pydantic: ``dennou serve``'s command line read as Typer reads it.

Typer checks every option's value with a Pydantic ``TypeAdapter``, and importing Pydantic takes
longer than the rest of reading the command line. :func:`plain_values` gives a command's options
a reader that takes the values whose meaning is plain (a default of the option's own type, a
whole number, a decimal, text, a list of texts, within the option's range) as Typer would, and
hands every other value to Typer's own reader: anything doubtful gets Typer's own answer and
error message. It relies on Typer's parameter objects; where they are not what it expects, the
command keeps Typer's reader.
"""

from __future__ import annotations

import re
import types
import typing
from typing import Any

_WHOLE = re.compile(r"-?[0-9]+")
_DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?")
_NOT_PLAIN = object()


def _plain(annotation: Any, info: Any, value: Any) -> Any:
    """``value`` read as ``annotation``, or :data:`_NOT_PLAIN` when it is not plainly one."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) != 1:
            return _NOT_PLAIN
        annotation = args[0]
        origin = typing.get_origin(annotation)
    if origin is list:
        (item,) = typing.get_args(annotation)
        if item is str and isinstance(value, (list, tuple)) and all(type(v) is str for v in value):
            return list(value)
        return _NOT_PLAIN
    if annotation is str:
        return value if type(value) is str else _NOT_PLAIN
    if annotation is int:
        if type(value) is str and _WHOLE.fullmatch(value):
            number: Any = int(value)
        elif type(value) is int:
            number = value
        else:
            return _NOT_PLAIN
    elif annotation is float:
        if type(value) is str and _DECIMAL.fullmatch(value):
            number = float(value)
        elif type(value) is float:
            number = value
        else:
            return _NOT_PLAIN
    else:
        return _NOT_PLAIN
    low, high = getattr(info, "min", None), getattr(info, "max", None)
    if (low is not None and number < low) or (high is not None and number > high):
        return _NOT_PLAIN  # Typer clamps or refuses it, in its own words
    return number


class _PlainReader:
    """Typer's runtime reader of one parameter, plain values read without it."""

    def __init__(self, typers: Any) -> None:
        self.typers = typers

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        multi = param.multiple or param.nargs == -1
        if value is None:  # as Typer's reader answers it
            return () if multi else None
        if not (multi and isinstance(value, str)):
            descriptor = param.type_descriptor
            if descriptor.file_annotation is None:
                plain = _plain(descriptor.annotation, descriptor.parameter_info, value)
                if plain is not _NOT_PLAIN:
                    return plain
        return self.typers(param).coerce(value, param=param, ctx=ctx)


def plain_values(command: Any) -> None:
    """Give ``command``'s options (a Typer-made click command) the plain reader."""
    try:
        from typer._coercion import build_runtime_param
    except ImportError:  # another Typer: keep its own reader
        return

    def typers(param: Any) -> Any:
        real = getattr(param, "_dennou_typer_reader", None)
        if real is None:
            real = param._dennou_typer_reader = build_runtime_param(param.type_descriptor)
        return real

    def patch(param: Any) -> None:
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is None or not hasattr(param, "get_runtime_param"):
            return
        if not hasattr(descriptor, "file_annotation") or not hasattr(descriptor, "annotation"):
            return
        reader = _PlainReader(typers)
        param.get_runtime_param = lambda: reader

    for param in getattr(command, "params", []):
        patch(param)
    help_option = getattr(command, "get_help_option", None)
    if help_option is not None:  # made for each context: ``--help`` is read too

        def get_help_option(ctx: Any) -> Any:
            option = help_option(ctx)
            if option is not None:
                patch(option)
            return option

        command.get_help_option = get_help_option


__all__ = ["plain_values"]
