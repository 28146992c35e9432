"""Options of rules and of bots: declared once with their types, defaults, ranges and meaning.

Rules options are the fields of a game's :class:`~dennou.core.game.Rules` struct; bot options
are the keyword parameters of a bot's constructor. Both are declared the same way, with
``Annotated[type, msgspec.Meta(ge=..., le=..., description=...)]``:

    class MonteCarloBot(Bot):
        def __init__(self, playouts: Annotated[int, Meta(ge=1, le=100_000)] = 2000) -> None: ...

and both are checked the same way: strings from a command line or a bot spec
(``montecarlo:playouts=500``) are converted to the declared type, and a value out of its range
is a :class:`~dennou.core.errors.ConfigError` that names the range. :func:`option_info` lists
the options (for ``dennou games`` and the host's game list). A bot option's description comes
from its ``Meta`` or, failing that, from the ``Args:`` section of the bot's docstring.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from dennou.core.errors import ConfigError


class OptionInfo(msgspec.Struct, frozen=True, omit_defaults=True):
    """One option of a rules type or a bot, as ``dennou games`` and the host show it.

    Attributes:
        name: The option's name.
        type: Its type for people (``int``, ``float``, ``bool``, ``text``, ``one of a|b``...).
        default: Its default value (JSON).
        description: What it means.
        minimum: Smallest allowed value (numbers), if bounded below.
        maximum: Largest allowed value (numbers), if bounded above.
        exclusive_minimum: Whether ``minimum`` itself is excluded.
        exclusive_maximum: Whether ``maximum`` itself is excluded.
    """

    name: str
    type: str
    default: Any = None
    description: str = ""
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: bool = False
    exclusive_maximum: bool = False

    @property
    def range(self) -> str:
        """The allowed range as text (``1..100000``, ``> 0 and <= 60``, ``>= 0``), or ``""``."""
        parts = []
        if self.minimum is not None:
            parts.append(("> " if self.exclusive_minimum else ">= ") + _number(self.minimum))
        if self.maximum is not None:
            parts.append(("< " if self.exclusive_maximum else "<= ") + _number(self.maximum))
        if len(parts) == 2 and not (self.exclusive_minimum or self.exclusive_maximum):
            return f"{_number(self.minimum or 0)}..{_number(self.maximum or 0)}"
        return " and ".join(parts)


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


# --- rules ------------------------------------------------------------------------------------
def parse_rules(rules_type: type[msgspec.Struct], options: Mapping[str, Any]) -> Any:
    """Build a rules struct from options, converting command-line strings.

    ``"a,b"`` becomes a sequence for sequence fields, ``"none"`` becomes ``None`` for optional
    fields, and ``"3"`` an int where an int is wanted.

    Raises:
        ConfigError: An unknown option or an impossible value, naming the valid options.
    """
    hints = typing.get_type_hints(rules_type, include_extras=True)
    fields = rules_type.__struct_fields__
    data: dict[str, Any] = {}
    for key, value in options.items():
        name = key.replace("-", "_")
        if name not in fields:
            raise ConfigError(
                f"unknown rules option {key!r} for {rules_type.__name__}; "
                f"options: {', '.join(fields)}"
            )
        data[name] = _coerce(hints[name], value)
    try:
        return msgspec.convert(data, rules_type, strict=False)
    except msgspec.ValidationError as exc:
        raise ConfigError(f"invalid rules: {_explain(exc, rules_type, data)}") from None


def _explain(exc: msgspec.ValidationError, owner: type[msgspec.Struct], data: Any) -> str:
    """A validation error in words: the option, what it wants (type and range) and what it got."""
    text = str(exc)
    found = re.search(r" - at `\$\.(\w+)", text)
    if found is None:
        return text
    name = found.group(1)
    info = next((o for o in option_info(owner) if o.name == name), None)
    if info is None:
        return text
    want = info.type + (f" in {info.range}" if info.range else "")
    return f"{name} wants {want}, got {data.get(name)!r} ({text.split(' - at ')[0]})"


def rules_options(rules_type: type[msgspec.Struct]) -> list[tuple[str, str, Any, str]]:
    """List ``(name, type, default, description)`` for each option of a rules type.

    (The older, shorter form of :func:`option_info`.)
    """
    return [(o.name, o.type, o.default, o.description) for o in option_info(rules_type)]


def check_ranges(rules: msgspec.Struct) -> None:
    """Check every field of ``rules`` against the bounds its type declares (``Meta(ge=...)``).

    msgspec checks the bounds when it builds a struct from data; this checks them when Python
    code builds one directly, so that no rules object exists with an option out of its range.

    Raises:
        ValueError: A field is out of its range (the message names it and the range).
    """
    for name, check in _range_checks(type(rules)):
        problem = check(getattr(rules, name))
        if problem:
            raise ValueError(f"{name} {problem}")


_Check = Callable[[Any], str]
_RANGE_CHECKS: dict[type[Any], list[tuple[str, _Check]]] = {}


def _range_checks(cls: type[msgspec.Struct]) -> list[tuple[str, _Check]]:
    if cls not in _RANGE_CHECKS:
        hints = typing.get_type_hints(cls, include_extras=True)
        checks = []
        for name in cls.__struct_fields__:
            check = _checker(hints[name])
            if check is not None:
                checks.append((name, check))
        _RANGE_CHECKS[cls] = checks
    return _RANGE_CHECKS[cls]


def _checker(hint: Any) -> _Check | None:
    """A function saying what is wrong with a value of ``hint`` ("" if nothing), or ``None``."""
    metas: list[msgspec.Meta] = []
    while typing.get_origin(hint) is typing.Annotated:
        metas.extend(m for m in typing.get_args(hint)[1:] if isinstance(m, msgspec.Meta))
        hint = typing.get_args(hint)[0]
    origin = typing.get_origin(hint)
    inner: list[_Check] = []
    if origin in (typing.Union, types.UnionType):
        inner = [c for a in typing.get_args(hint) if (c := _checker(a)) is not None]
    elif origin in (tuple, list):
        element = [a for a in typing.get_args(hint) if a is not Ellipsis]
        each = _checker(element[0]) if len(element) == 1 else None
        if each is not None:

            def items(value: Any, each: _Check = each) -> str:
                if not isinstance(value, tuple | list):
                    return ""
                return next((f"item {p}" for v in value if (p := each(v))), "")

            inner = [items]
    if not metas and not inner:
        return None

    def check(value: Any) -> str:
        if value is None:
            return ""
        for meta in metas:
            problem = _against(meta, value)
            if problem:
                return problem
        return next((p for c in inner if (p := c(value))), "")

    return check


def _against(meta: msgspec.Meta, value: Any) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        if meta.ge is not None and not value >= meta.ge:
            return f"must be >= {_number(meta.ge)}, got {value!r}"
        if meta.gt is not None and not value > meta.gt:
            return f"must be > {_number(meta.gt)}, got {value!r}"
        if meta.le is not None and not value <= meta.le:
            return f"must be <= {_number(meta.le)}, got {value!r}"
        if meta.lt is not None and not value < meta.lt:
            return f"must be < {_number(meta.lt)}, got {value!r}"
    if meta.max_length is not None and hasattr(value, "__len__") and len(value) > meta.max_length:
        return f"has at most {meta.max_length} items, got {len(value)}"
    return ""


# --- bots -------------------------------------------------------------------------------------
def check_arguments(function: Callable[..., Any], arguments: Mapping[str, Any]) -> str:
    """What is out of range among ``arguments`` of ``function`` ("" if nothing).

    The ranges are those the parameters' ``Annotated[..., Meta(ge=...)]`` hints declare.
    """
    for name, check in _argument_checks(function):
        if name in arguments:
            problem = check(arguments[name])
            if problem:
                return f"{name} {problem}"
    return ""


_ARGUMENT_CHECKS: dict[Any, list[tuple[str, _Check]]] = {}


def _argument_checks(function: Callable[..., Any]) -> list[tuple[str, _Check]]:
    if function not in _ARGUMENT_CHECKS:
        hints = typing.get_type_hints(function, include_extras=True)
        _ARGUMENT_CHECKS[function] = [
            (name, check)
            for name, hint in hints.items()
            if name != "return" and (check := _checker(hint)) is not None
        ]
    return _ARGUMENT_CHECKS[function]


def bot_options(
    factory: Callable[..., Any], options: Mapping[str, Any], *, name: str
) -> dict[str, Any]:
    """The keyword arguments for ``factory`` from ``options``, converted and range-checked.

    Args:
        factory: A bot class (or a function making a bot).
        options: Option name -> value (strings from a bot spec are converted).
        name: The bot's name, for messages.

    Raises:
        ConfigError: An unknown option, a value of the wrong type, or one out of its range.
    """
    params = _parameters(factory)
    out: dict[str, Any] = {}
    for key, raw in options.items():
        if key not in params:
            raise ConfigError(
                f"bot {name!r} has no option {key!r}; options: {list(params) or 'none'}"
            )
        hint = params[key][0]
        value = _coerce(hint, raw)
        try:
            out[key] = msgspec.convert(value, hint, strict=not isinstance(raw, str))
        except msgspec.ValidationError as exc:
            info = next(o for o in option_info(factory) if o.name == key)
            want = info.type + (f" in {info.range}" if info.range else "")
            raise ConfigError(
                f"{name}:{key} wants {want}, got {raw!r} ({exc})".replace(" - at `$`", "")
            ) from None
    return out


# --- both -------------------------------------------------------------------------------------
def option_info(owner: type[msgspec.Struct] | Callable[..., Any]) -> list[OptionInfo]:
    """The options of a rules type (its fields) or of a bot (its constructor's keyword options)."""
    if isinstance(owner, type) and issubclass(owner, msgspec.Struct):
        hints = typing.get_type_hints(owner, include_extras=True)
        out = []
        for f in msgspec.structs.fields(owner):
            if f.default is not msgspec.NODEFAULT:
                default = f.default
            elif f.default_factory is not msgspec.NODEFAULT:
                default = f.default_factory()
            else:
                default = None
            out.append(_info(f.name, hints[f.name], default, ""))
        return out
    docs = _arg_docs(owner)
    return [
        _info(name, hint, default, docs.get(name, ""))
        for name, (hint, default) in _parameters(owner).items()
    ]


def _info(name: str, hint: Any, default: Any, doc: str) -> OptionInfo:
    meta = _meta(hint)
    lo = hi = None
    exclusive_lo = exclusive_hi = False
    if meta is not None:
        if meta.ge is not None:
            lo = meta.ge
        elif meta.gt is not None:
            lo, exclusive_lo = meta.gt, True
        if meta.le is not None:
            hi = meta.le
        elif meta.lt is not None:
            hi, exclusive_hi = meta.lt, True
    description = (meta.description if meta is not None and meta.description else "") or doc
    if isinstance(default, tuple | frozenset | set):
        default = list(default)
    return OptionInfo(
        name=name,
        type=type_name(_strip_annotated(hint)),
        default=default,
        description=description,
        minimum=lo,
        maximum=hi,
        exclusive_minimum=exclusive_lo,
        exclusive_maximum=exclusive_hi,
    )


def _parameters(factory: Callable[..., Any]) -> dict[str, tuple[Any, Any]]:
    """Keyword options of a bot factory: name -> (type hint with extras, default)."""
    target = factory.__init__ if inspect.isclass(factory) else factory
    hints = typing.get_type_hints(target, include_extras=True)
    out: dict[str, tuple[Any, Any]] = {}
    for p in inspect.signature(factory).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.name == "self":
            continue
        default = None if p.default is p.empty else p.default
        out[p.name] = (hints.get(p.name, str), default)
    return out


_ARG = re.compile(r"^\s{4,}(\w+)(?: \([^)]*\))?:\s*(.*)$")


def _arg_docs(factory: Callable[..., Any]) -> dict[str, str]:
    """Each argument's description from the ``Args:`` section of a Google-style docstring."""
    doc = inspect.getdoc(factory) or ""
    out: dict[str, str] = {}
    current = None
    in_args = False
    for line in doc.splitlines():
        if line.strip() == "Args:":
            in_args = True
            continue
        if in_args:
            if line and not line.startswith(" "):
                break
            found = _ARG.match(line)
            if found and len(line) - len(line.lstrip()) == 4:
                current = found.group(1)
                out[current] = found.group(2).strip()
            elif current and line.strip():
                out[current] += " " + line.strip()
    return out


def _meta(hint: Any) -> msgspec.Meta | None:
    """The ``Meta`` of an option's hint, its bounds and description merged.

    Merged from every layer: ``Annotated[Annotated[int, Meta(ge=1)] | None, Meta(...)]`` gives
    the bounds of the optional number and the outer description.
    """
    found: dict[str, Any] = {}
    while True:
        while typing.get_origin(hint) is typing.Annotated:
            for extra in typing.get_args(hint)[1:]:
                if isinstance(extra, msgspec.Meta):
                    for key in ("ge", "gt", "le", "lt", "description"):
                        value = getattr(extra, key)
                        if value is not None and key not in found:
                            found[key] = value
            hint = typing.get_args(hint)[0]
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if typing.get_origin(hint) in (typing.Union, types.UnionType) and len(args) == 1:
            hint = args[0]
            continue
        break
    return msgspec.Meta(**found) if found else None


def _strip_annotated(tp: Any) -> Any:
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return tp


def _coerce(tp: Any, value: Any) -> Any:
    """A command-line string made ready for ``msgspec.convert(..., strict=False)``."""
    if not isinstance(value, str):
        return value
    tp = _strip_annotated(tp)
    args = typing.get_args(tp)
    optional = typing.get_origin(tp) in (typing.Union, types.UnionType) and type(None) in args
    if optional and value.strip().lower() in ("none", "null", ""):
        return None
    inner = [_strip_annotated(a) for a in args if a is not type(None)] if optional else [tp]
    if any(typing.get_origin(t) in (tuple, list) for t in inner):
        return [v.strip() for v in value.split(",") if v.strip()]
    if any(t is bool for t in inner) and value.strip().lower() in ("yes", "no", "on", "off"):
        return value.strip().lower() in ("yes", "on")
    return value.strip()


def type_name(tp: Any) -> str:
    """A type for people: ``int``, ``float``, ``bool``, ``text``, ``one of a|b``, ``list of int``.

    >>> type_name(tuple[int, ...] | None)
    'list of int or none'
    """
    tp = _strip_annotated(tp)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is str:
        return "text"
    if isinstance(tp, type):
        return tp.__name__
    if origin is typing.Literal:
        return "one of " + "|".join(str(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        inner = [type_name(a) for a in args if a is not type(None)]
        name = " or ".join(inner)
        return f"{name} or none" if type(None) in args else name
    if origin in (tuple, list):
        inner = [a for a in args if a is not Ellipsis]
        return "list of " + (type_name(inner[0]) if inner else "values")
    return str(tp).replace("typing.", "")
