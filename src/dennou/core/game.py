"""The game contract every dennou game implements.

A game is a deterministic state machine (see ``docs/architecture.md``). The host asks
:meth:`Game.to_act` who must act; draws chance actions with :meth:`Game.sample_chance` when
:data:`CHANCE` must act; gives each seat its :meth:`Game.view` and :meth:`Game.legal_actions`;
and applies what comes back with :meth:`Game.apply`, which checks legality and never mutates
its input. Several seats in ``to_act`` is a sealed simultaneous step: each submits, the
submissions stay hidden in the state, and the step resolves when the last arrives.
"""

from __future__ import annotations

import json
import random
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final, Generic, TypeVar

import msgspec

from dennou.core.actions import Action, ActionCodec
from dennou.core.errors import ConfigError, IllegalActionError
from dennou.core.jsondata import to_json

Seat = int
"""A seat is an index into the players of a game: 0 .. n-1."""

CHANCE: Final[Seat] = -1
"""The pseudo-seat of the host's random draws (deals, coin flips, drawn numbers)."""

SPECTATOR: Final = None
"""Views for ``None`` are spectator views."""

JSON = dict[str, Any]

__all__ = [
    "CHANCE",
    "JSON",
    "SPECTATOR",
    "Event",
    "Game",
    "GameSpec",
    "Outcome",
    "Rules",
    "Seat",
    "TalkLine",
    "to_json",
]


class Rules(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Base of every game's rules config: a frozen struct whose defaults are the rules page.

    Fields may carry ``Annotated[..., msgspec.Meta(description=..., ge=..., le=...)]``: the
    description is what ``dennou games`` prints and the bounds are checked on construction.
    Cross-field checks go in ``__post_init__`` and raise ``ValueError``.
    """


R = TypeVar("R", bound=Rules)
S = TypeVar("S")


class Event(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """Something that happened, said to an audience.

    Attributes:
        kind: A short machine name (``call``, ``judge``, ``item``, ``deal``...).
        text: One English sentence for people (terminal, logs).
        data: JSON-able details.
        audience: The seats that may see it; ``None`` means everyone, spectators included.

    Events are not tracked by the cyclic garbage collector (``gc=False``): they never form
    reference cycles, and engines create millions of them in simulations.
    """

    kind: str
    text: str
    data: dict[str, Any] = {}
    audience: frozenset[int] | None = None

    def visible_to(self, seat: Seat | None) -> bool:
        """Whether ``seat`` (``None``: a spectator) may see this event."""
        return self.audience is None or (seat is not None and seat in self.audience)


class TalkLine(msgspec.Struct, frozen=True):
    """One line of talk in a channel.

    Attributes:
        speaker: The speaker's seat, or ``None`` for a spectator.
        name: The speaker's display name.
        channel: ``public``, ``team:<name>``, ``pair:<a>-<b>``, ``room``...
        text: What was said.
    """

    speaker: int | None
    name: str
    channel: str
    text: str


class Outcome(msgspec.Struct, frozen=True):
    """The result of a finished game.

    Attributes:
        scores: Per seat, the game's score (higher is better; a win is 1 in two-player games).
        ranks: Per seat, 1 for the best; equal results share a rank (1, 1, 3).
        teams: Team name -> team result, for team games.
        detail: Anything else the game reports (titles, money, reasons).
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    teams: dict[str, float] | None = None
    detail: dict[str, Any] = {}

    @classmethod
    def from_scores(cls, scores: Sequence[float], **kwargs: Any) -> Outcome:
        """Rank seats by score, highest first; equal scores share a rank."""
        ranks = tuple(1 + sum(1 for other in scores if other > s) for s in scores)
        return cls(tuple(float(s) for s in scores), ranks, **kwargs)

    def result(self, seat: Seat) -> str:
        """``win`` (sole first), ``draw`` (shared first) or ``loss``."""
        if self.ranks[seat] != 1:
            return "loss"
        return "draw" if self.ranks.count(1) > 1 else "win"


HOST_ACCOUNTS = "host_accounts"
"""``Outcome.detail[HOST_ACCOUNTS]``: per seat, ``{key: value}`` the host stores in that player's
persistent account for this game (set, not added, so that a replay never counts twice)."""


class GameSpec(msgspec.Struct, frozen=True):
    """What a game is, for the registry, the CLI and the host.

    Attributes:
        name: Registry name (``numeron``).
        title: Display title with the Japanese name (``Numeron (ヌメロン)``).
        version: Bump whenever behaviour changes: records name the version they were made by.
        min_players: Smallest number of players.
        max_players: Largest number of players.
        chance: Whether the host draws chance actions.
        hidden_information: Whether views differ from the full state.
        simultaneous: Whether some steps are sealed simultaneous steps.
        teams: Whether players form teams.
        talk: Whether the game has talk channels.
        decisions: Whether players decide anything (``False``: chance decides it all, as in
            10-card stud; players only watch).
    """

    name: str
    title: str
    version: int
    min_players: int
    max_players: int
    chance: bool = False
    hidden_information: bool = False
    simultaneous: bool = False
    teams: bool = False
    talk: bool = False
    decisions: bool = True


class Game(ABC, Generic[S, R]):
    """The contract. Subclasses set ``spec``, ``rules_type`` and ``codec`` and fill in the rest.

    States are the subclass's own (immutable or copied) objects; they must compare with ``==``
    (replay is checked that way) and survive ``copy.deepcopy``.
    """

    spec: ClassVar[GameSpec]
    rules_type: ClassVar[type[Rules]]
    codec: ClassVar[ActionCodec]

    # --- construction ---------------------------------------------------------------------
    @abstractmethod
    def new(self, rules: R, players: Sequence[str]) -> S:
        """Start a game.

        Raises:
            ConfigError: Wrong number of players, or rules this engine cannot play.
        """

    def make_rules(self, options: Mapping[str, Any] | None = None) -> R:
        """Build this game's rules from options (strings from a command line are converted).

        Raises:
            ConfigError: An unknown option or an impossible value.
        """
        return typing.cast(R, parse_rules(self.rules_type, options or {}))

    def default_players(self, rules: R) -> int:
        """How many players a game of these rules seats when nobody says (``dennou play``)."""
        return self.spec.min_players

    def check_players(self, players: Sequence[str]) -> None:
        """Raise :class:`ConfigError` unless the player count and names are acceptable."""
        lo, hi = self.spec.min_players, self.spec.max_players
        if not lo <= len(players) <= hi:
            span = str(lo) if lo == hi else f"{lo}-{hi}"
            raise ConfigError(f"{self.spec.name} takes {span} players, got {len(players)}")
        if len(set(players)) != len(players):
            raise ConfigError(f"player names must be distinct, got {list(players)}")

    # --- the state machine ----------------------------------------------------------------
    @abstractmethod
    def to_act(self, state: S) -> frozenset[Seat]:
        """The seats that must act now; ``{CHANCE}`` for a draw; empty when the game is over."""

    def sample_chance(self, state: S, rng: random.Random) -> Action:
        """Draw the chance action due now (only when ``CHANCE`` is in :meth:`to_act`)."""
        raise IllegalActionError(f"{self.spec.name} has no chance action due now")

    @abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> Sequence[Action]:
        """The actions ``seat`` may take now (a list, or a lazy sequence for big spaces)."""

    @abstractmethod
    def apply(self, state: S, seat: Seat, action: Action) -> tuple[S, list[Event]]:
        """Apply ``seat``'s action and return the new state and what happened.

        Never mutates ``state``.

        Raises:
            NotYourTurnError: ``seat`` is not to act.
            GameOverError: The game is over.
            IllegalActionError: The action breaks a rule (the message names it).
        """

    @abstractmethod
    def apply_default(self, state: S, seat: Seat) -> tuple[S, list[Event]]:
        """Apply the rules' default for ``seat`` (timeout, absence, a bot that failed).

        Deterministic, so that a record that says "default" replays exactly.
        """

    @abstractmethod
    def view(self, state: S, seat: Seat | None) -> JSON:
        """Exactly what ``seat`` (``None``: a spectator) may know now, as JSON-able data."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome:
        """The result of a finished game.

        Raises:
            IllegalActionError: The game is not over.
        """

    def is_over(self, state: S) -> bool:
        """Whether nobody (not even chance) has to act."""
        return not self.to_act(state)

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> S:
        """A full state consistent with ``view`` as ``seat`` sees it, hidden parts sampled.

        Games without hidden information may return the state rebuilt from the view.
        """
        raise NotImplementedError(f"{self.spec.name} does not implement determinize")

    def host_accounts_in(self, rules: JSON, accounts: Sequence[Mapping[str, Any] | None]) -> JSON:
        """Rules (as JSON) for a new game, given each seat's stored account (``None``: a bot).

        The host calls it when a table starts; the default ignores accounts. A game whose
        players carry something from game to game (Star Hi-Lo's 口座) puts it into the rules,
        so that the record holds it, and reports the new values in
        ``Outcome.detail[HOST_ACCOUNTS]``.
        """
        return rules

    # --- talk -----------------------------------------------------------------------------
    def talk_channels(self, state: S, speaker: Seat | None) -> frozenset[str]:
        """The channels ``speaker`` (``None``: a spectator) may speak in now."""
        return frozenset()

    def talk(
        self, state: S, speaker: Seat | None, channel: str, text: str, *, name: str = ""
    ) -> tuple[S, list[Event]]:
        """Say ``text`` in ``channel``; the new state keeps the line for those who may read it.

        Raises:
            IllegalActionError: The channel is closed to the speaker, or the line breaks a rule.
        """
        raise IllegalActionError(f"{self.spec.name} has no talk", channel=channel)

    # --- codec and presentation -----------------------------------------------------------
    def parse_action(self, data: Any) -> Action:
        """Parse an action from JSON (text or object) or its text form.

        Raises:
            InvalidActionError: Not an action of this game.
        """
        return self.codec.parse(data)

    def dump_action(self, action: Action) -> JSON:
        """The JSON object of an action."""
        return self.codec.dump(action)

    def render(self, view: JSON) -> str:
        """A view as text for a terminal (games override this with something readable)."""
        return json.dumps(view, ensure_ascii=False, indent=1)

    def describe_legal(self, legal: Sequence[Action]) -> str:
        """A short text of the legal actions for a person (big spaces are summarised)."""
        if len(legal) <= 40:
            return "  ".join(f"[{i}] {a}" for i, a in enumerate(legal))
        return f"{len(legal)} actions, e.g. {legal[0]} ... {legal[len(legal) - 1]}"

    # --- bots and tests -------------------------------------------------------------------
    def bots(self) -> Mapping[str, Callable[..., Any]]:
        """This game's own bots by name (each a callable taking keyword options)."""
        return {}

    def conformance_rules(self) -> list[R]:
        """Rules configs the conformance harness should exercise (default: the defaults)."""
        return [self.make_rules()]

    def conformance_action(
        self, state: S, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """The harness's choice among ``legal`` (default: uniform).

        Games whose uniform play takes very long to end may bias it (it may look at the state:
        it is a test driver, not a bot).
        """
        return legal[rng.randrange(len(legal))]


def parse_rules(rules_type: type[Rules], options: Mapping[str, Any]) -> Rules:
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
        data[name] = _coerce_option(hints[name], value)
    try:
        return msgspec.convert(data, rules_type, strict=False)
    except msgspec.ValidationError as exc:
        raise ConfigError(f"invalid rules: {exc}") from None


def _strip_annotated(tp: Any) -> Any:
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return tp


def _coerce_option(tp: Any, value: Any) -> Any:
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
    return value


def rules_options(rules_type: type[Rules]) -> list[tuple[str, str, Any, str]]:
    """List ``(name, type, default, description)`` for each option of a rules type.

    The type is written for people (:func:`type_text`).
    """
    hints = typing.get_type_hints(rules_type, include_extras=True)
    out = []
    for f in msgspec.structs.fields(rules_type):
        if f.default is not msgspec.NODEFAULT:
            default = f.default
        elif f.default_factory is not msgspec.NODEFAULT:
            default = f.default_factory()
        else:
            default = None
        hint = hints[f.name]
        out.append((f.name, type_text(hint), default, _description(hint)))
    return out


def _description(hint: Any) -> str:
    if typing.get_origin(hint) is typing.Annotated:
        for meta in typing.get_args(hint)[1:]:
            if isinstance(meta, msgspec.Meta) and meta.description:
                return meta.description
    return ""


_NAMES = {int: "int", float: "number", bool: "true/false", str: "text"}


def type_text(hint: Any) -> str:
    """A type as a person reads it: ``coin | seat0``, ``list of int``, ``int or none``."""
    tp = _strip_annotated(hint)
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Literal:
        return " | ".join(str(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        inner = [type_text(a) for a in args if a is not type(None)]
        text = " or ".join(inner)
        return f"{text} or none" if type(None) in args else text
    if origin in (tuple, list, set, frozenset):
        items = [a for a in args if a is not Ellipsis]
        if not items:
            return "list"
        if len(items) > 1 and Ellipsis not in args:
            texts = [type_text(a) for a in items]
            if len(set(texts)) == 1:
                return f"list of {len(texts)} {texts[0]}"
            return "list of " + ", ".join(texts)
        item = type_text(items[0])
        return f"list of ({item})" if " " in item else f"list of {item}"
    if isinstance(tp, type):
        return _NAMES.get(tp, tp.__name__)
    return str(tp).replace("typing.", "")


def range_text(hint: Any) -> str:
    """The range a type's constraints allow (``3 to 5``, ``> 0``, ``>= 1``), or ``""``."""
    limits: dict[str, Any] = {}
    for part in _annotations(hint):
        if isinstance(part, msgspec.Meta):
            for key in ("ge", "gt", "le", "lt", "min_length", "max_length"):
                if getattr(part, key) is not None:
                    limits[key] = getattr(part, key)
    low = ("ge", limits["ge"]) if "ge" in limits else ("gt", limits.get("gt"))
    high = ("le", limits["le"]) if "le" in limits else ("lt", limits.get("lt"))
    words = []
    if low[1] is not None and high[1] is not None and low[0] == "ge" and high[0] == "le":
        words.append(f"{low[1]:g} to {high[1]:g}")
    else:
        if low[1] is not None:
            words.append(f"{'>=' if low[0] == 'ge' else '>'} {low[1]:g}")
        if high[1] is not None:
            words.append(f"{'<=' if high[0] == 'le' else '<'} {high[1]:g}")
    if "min_length" in limits:
        words.append(f"at least {limits['min_length']} items")
    if "max_length" in limits:
        words.append(f"at most {limits['max_length']} items")
    return ", ".join(words)


def _annotations(hint: Any) -> list[Any]:
    """Every ``Annotated`` metadata on a type and on the members of its union."""
    out: list[Any] = []
    while typing.get_origin(hint) is typing.Annotated:
        out.extend(typing.get_args(hint)[1:])
        hint = typing.get_args(hint)[0]
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        for arg in typing.get_args(hint):
            out.extend(_annotations(arg))
    return out
