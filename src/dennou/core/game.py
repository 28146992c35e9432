"""The game contract every dennou game implements.

A game is a deterministic state machine (see ``docs/architecture.md``). The host asks
:meth:`Game.to_act` who must act; draws chance actions with :meth:`Game.sample_chance` when
:data:`CHANCE` must act; gives each seat its :meth:`Game.view` and :meth:`Game.legal_actions`;
and applies what comes back with :meth:`Game.apply`, which checks legality and never mutates
its input. Several seats in ``to_act`` is a sealed simultaneous step: each submits, the
submissions stay hidden in the state, and the step resolves when the last arrives.
"""

from __future__ import annotations

import random
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final, Generic, TypeVar, cast

import msgspec

from dennou.core.actions import Action, ActionCodec, Concat, LazyActions, tag_of
from dennou.core.errors import ConfigError, GameOverError, IllegalActionError, NotYourTurnError
from dennou.core.events import JSON, Event, Seat
from dennou.core.jsondata import to_json
from dennou.core.lazy import Bots
from dennou.core.options import check_ranges, parse_rules, rules_options
from dennou.core.views import Views

CHANCE: Final[Seat] = -1
"""The pseudo-seat of the host's random draws (deals, coin flips, drawn numbers)."""

SPECTATOR: Final = None
"""Views for ``None`` are spectator views."""


__all__ = [
    "CHANCE",
    "HOST_CLOCK",
    "JSON",
    "SPECTATOR",
    "DuplicateDeals",
    "Event",
    "Game",
    "GameSpec",
    "Learning",
    "Outcome",
    "Rules",
    "Seat",
    "TalkLine",
    "Views",
    "handles",
    "parse_rules",
    "rules_options",
    "to_json",
]


class Rules(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Base of every game's rules config: a frozen struct whose defaults are the rules page.

    Every field carries ``Annotated[..., msgspec.Meta(description=..., ge=..., le=...)]``: the
    description is what ``dennou games`` prints, and the bounds (every number has both, so that
    no option can make a game unbounded) are checked whenever rules are built, from data or in
    Python. Cross-field checks go in :meth:`check` and raise ``ValueError``.
    """

    def __post_init__(self) -> None:
        check_ranges(self)
        self.check()

    def check(self) -> None:
        """Cross-field checks (raise ``ValueError``); the default has none."""


R = TypeVar("R", bound=Rules)
S = TypeVar("S")


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


HOST_CLOCK = "time_limit"
"""The rules option that holds the host's clock in a game that declares ``host_clock``."""


class DuplicateDeals(msgspec.Struct, frozen=True):
    """How a game supports duplicate deals (a tournament replays them with the seats rotated).

    A game supports them when its deals come from the chance stream before play can change it.

    Attributes:
        deals: The chance actions (by tag) that are the deals: identical in every rotation.
        note: What is shared, for the docs and messages.
        check: Refuses rules under which the deals would not be shared (a reason, or ``None``).
    """

    deals: tuple[str, ...]
    note: str
    check: Callable[[dict[str, Any]], str | None] | None = None


class Learning(msgspec.Struct, frozen=True):
    """How the learning environments (``dennou.rl``) play a game.

    Its Gymnasium id follows from the game's name: ``dennou/<Name>-v0``.

    Attributes:
        encoding: Where the game's :class:`~dennou.core.encoding.Encoding` lives
            (``package.module:Class``), imported when an environment is first made.
        players: The seats of the reference set-up (the tables in ``docs/rl.md``).
        rules: The rules options of the reference set-up.
        max_episode_steps: The learner's decisions after which a Gymnasium episode is truncated
            when the default rules set no end (``None``: never).
    """

    encoding: str
    players: int
    rules: dict[str, Any] = {}
    max_episode_steps: int | None = None


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
        heavy_views: Whether building a view may take long however cheap the last ones were
            (10-card stud's live odds, computed for each new position): a host never builds
            its views on the event loop.
        host_clock: Whether the rules carry the host's clock as the :data:`HOST_CLOCK` option
            (seconds per decision): a host writes the table's clock there, so that the record
            says which clock was played.
        duplicate: How the game supports duplicate deals (``None``: it does not).
        learning: How the learning environments play it (``None``: it has none).
        board: The web page's board module for the game (``boards/<board>.js``): the generic
            board draws any game from its views.
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
    heavy_views: bool = False
    host_clock: bool = False
    duplicate: DuplicateDeals | None = None
    learning: Learning | None = None
    board: str = "generic"


Handler = Callable[[Any, Any, Seat, Any, list[Event]], Any]
"""A transition: ``(game, state, seat, action, events) -> new state`` (appending to ``events``)."""

F = TypeVar("F", bound=Callable[..., Any])


def handles(phase: str, *actions: type[Action]) -> Callable[[F], F]:
    """Mark an engine method as the transition for ``actions`` in ``phase``.

    The method is called as ``method(state, seat, action, events)`` and returns the new state;
    :meth:`Game.dispatch` finds it in a map built once per engine class::

        @handles("call", Call)
        def _call(self, state, seat, action, ev): ...
    """

    def mark(method: F) -> F:
        keys = [*getattr(method, "__handles__", ()), *((phase, a) for a in actions)]
        method.__handles__ = keys  # type: ignore[attr-defined]
        return method

    return mark


def _kinds(legal: Sequence[Action]) -> str:
    """The kinds of action (tags) in a legal-action space, without listing a lazy one."""
    tags: set[str] = set()
    parts = legal.parts if isinstance(legal, Concat) else (legal,)
    for part in parts:
        sample = part[:1] if isinstance(part, LazyActions) else part
        tags.update(tag_of(type(a)) for a in sample)
    return ", ".join(sorted(tags))


class CommonState(typing.Protocol):
    """What every game's state has, and what the kit in :class:`Game` reads."""

    @property
    def rules(self) -> Any:
        """The rules options."""

    @property
    def players(self) -> Sequence[str]:
        """Player names by seat."""

    @property
    def phase(self) -> str:
        """What is due now (``over`` at the end)."""


class Game(ABC, Generic[S, R]):
    """The contract. Subclasses set ``spec``, ``rules_type`` and ``codec`` and fill in the rest.

    A game package's engine subclasses it with the rules (``new``, ``to_act``, ``legal_actions``,
    the transitions, ``outcome``...); its presentation is a :class:`~dennou.core.views.Views`
    subclass and its bots a mapping, both handed to the engine where the package assembles the
    game (``GAME = Numeron(views=NumeronViews, bots=BOTS)``), so the engine never imports them.

    States are the subclass's own (immutable or copied) objects; they must compare with ``==``
    (replay is checked that way) and survive ``copy.deepcopy``. The kit methods (``check_turn``,
    ``dispatch``, ``timeout_event``...) read the ``rules``, ``players`` and ``phase`` every game's
    state has.

    Args:
        views: The game's :class:`~dennou.core.views.Views` class (built with this engine).
        bots: The game's own bots by name (each a bot class or a callable taking options).
    """

    spec: ClassVar[GameSpec]
    rules_type: ClassVar[type[Rules]]
    codec: ClassVar[ActionCodec]
    unit: ClassVar[str] = "game"
    """What one state plays, for messages: a ``game``, a ``set``, a ``series``, a ``session``."""

    _transitions: ClassVar[dict[tuple[str, type[Action]], Handler]] = {}
    _expected: ClassVar[dict[str, str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The (phase, action type) -> transition map, built once per class (not per apply).
        transitions: dict[tuple[str, type[Action]], Handler] = {}
        for klass in reversed(cls.__mro__):
            for method in vars(klass).values():
                for key in getattr(method, "__handles__", ()):
                    transitions[key] = method
        cls._transitions = transitions
        phases: dict[str, set[str]] = {}
        for phase, action in transitions:
            phases.setdefault(phase, set()).add(tag_of(action))
        cls._expected = {phase: ", ".join(sorted(tags)) for phase, tags in phases.items()}

    def __init__(
        self,
        *,
        views: Callable[[Game[S, R]], Views[S]] | None = None,
        bots: Mapping[str, Callable[..., Any] | str] | None = None,
    ) -> None:
        self.views: Views[S] = (views or Views)(self)
        self._bots = bots if isinstance(bots, Bots) else Bots(bots)

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

    def team_seats(self, rules: R, players: int) -> tuple[tuple[Seat, ...], ...] | None:
        """The seats of each team at a table of ``players`` (``None``: no teams).

        Matches keep a team's seats together and rotate whole teams.
        """
        return None

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

    def apply(self, state: S, seat: Seat, action: Action) -> tuple[S, list[Event]]:
        """Apply ``seat``'s action and return the new state and what happened.

        Never mutates ``state``. The default checks the turn (:meth:`check_turn`), runs the
        transition marked with :func:`handles` for the phase and the action (:meth:`dispatch`)
        and lets the engine keep the events (:meth:`commit`).

        Raises:
            NotYourTurnError: ``seat`` is not to act.
            GameOverError: The game is over.
            IllegalActionError: The action breaks a rule (the message names it).
        """
        self.check_turn(state, seat)
        events: list[Event] = []
        new = self.dispatch(state, seat, action, events)
        return self.commit(state, new, events), events

    @abstractmethod
    def apply_default(self, state: S, seat: Seat) -> tuple[S, list[Event]]:
        """Apply the rules' default for ``seat`` (timeout, absence, a bot that failed).

        Deterministic, so that a record that says "default" replays exactly.
        """

    @abstractmethod
    def outcome(self, state: S) -> Outcome:
        """The result of a finished game.

        Raises:
            IllegalActionError: The game is not over.
        """

    def is_over(self, state: S) -> bool:
        """Whether nobody (not even chance) has to act."""
        return not self.to_act(state)

    def host_accounts_in(self, rules: JSON, accounts: Sequence[Mapping[str, Any] | None]) -> JSON:
        """Rules (as JSON) for a new game, given each seat's stored account (``None``: a bot).

        The host calls it when a table starts; the default ignores accounts. A game whose
        players carry something from game to game (Star Hi-Lo's 口座) puts it into the rules,
        so that the record holds it, and reports the new values in
        ``Outcome.detail[HOST_ACCOUNTS]``.
        """
        return rules

    # --- the kit: what every engine's transitions share ---------------------------------------
    def check_turn(self, state: S, seat: Seat) -> None:
        """Raise unless ``seat`` must act now.

        Raises:
            GameOverError: Nobody acts any more.
            NotYourTurnError: ``seat`` is not among the seats to act (the message lists them).
        """
        due = self.to_act(state)
        if seat in due:
            return
        phase = cast(CommonState, state).phase
        if not due:
            raise GameOverError(f"the {self.unit} is over", seat=seat)
        raise NotYourTurnError(
            f"seat {seat} may not act now ({self.moment(state)}; to act: {sorted(due)})",
            seat=seat,
            phase=phase,
        )

    def check_default(self, state: S, seat: Seat) -> None:
        """:meth:`check_turn`, and refuse a default for chance (it draws instead).

        Raises:
            GameOverError: Nobody acts any more.
            NotYourTurnError: ``seat`` is not among the seats to act.
            IllegalActionError: ``seat`` is chance.
        """
        self.check_turn(state, seat)
        if seat == CHANCE:
            raise IllegalActionError("chance has no default; draw with sample_chance")

    def check_over(self, state: S) -> None:
        """Raise unless the game is over (for :meth:`outcome`).

        Raises:
            IllegalActionError: Someone still has to act.
        """
        if self.to_act(state):
            raise IllegalActionError(f"the {self.unit} is not over")

    def moment(self, state: S) -> str:
        """Where the game is, for messages (default: the phase)."""
        return cast(CommonState, state).phase

    def dispatch(self, state: S, seat: Seat, action: Action, events: list[Event]) -> S:
        """Run the transition marked with :func:`handles` for the phase and the action's type.

        Raises:
            IllegalActionError: No transition takes this action in this phase.
        """
        phase: str = state.phase  # type: ignore[attr-defined]  # CommonState (no cast: hot path)
        handler = self._transitions.get((phase, type(action)))
        if handler is None:
            tag = tag_of(type(action)) if isinstance(action, Action) else type(action).__name__
            kinds = _kinds(self.legal_actions(state, seat)) or self._expected.get(phase)
            raise IllegalActionError(
                f"{tag} is not allowed in the {phase} phase; expected {kinds or 'nothing'}",
                seat=seat,
                phase=phase,
            )
        new: S = handler(self, state, seat, action, events)
        return new

    def commit(self, old: S, new: S, events: list[Event]) -> S:
        """The state after a step, given the step's events (default: ``new`` as it is).

        Engines whose states keep a log of events append them here.
        """
        return new

    def timeout_event(self, state: S, seat: Seat) -> Event:
        """The event that opens a default: ``<name> timed out (<phase>)``."""
        common = cast(CommonState, state)
        return Event(
            "timeout",
            f"{common.players[seat]} timed out ({common.phase})",
            {"seat": seat, "phase": common.phase},
        )

    # --- presentation (the game's Views) --------------------------------------------------
    def view(self, state: S, seat: Seat | None) -> JSON:
        """Exactly what ``seat`` (``None``: a spectator) may know now, as JSON-able data."""
        return self.views.view(state, seat)

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> S:
        """A full state consistent with ``view`` as ``seat`` sees it, hidden parts sampled.

        Games without hidden information may return the state rebuilt from the view.
        """
        return self.views.determinize(view, seat, rng)

    def render(self, view: JSON) -> str:
        """A view as text for a terminal."""
        return self.views.render(view)

    def describe_legal(self, legal: Sequence[Action]) -> str:
        """A short text of the legal actions for a person (big spaces are summarised)."""
        return self.views.describe_legal(legal)

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

    # --- codec ----------------------------------------------------------------------------
    def parse_action(self, data: Any) -> Action:
        """Parse an action from JSON (text or object) or its text form.

        Raises:
            InvalidActionError: Not an action of this game.
        """
        return self.codec.parse(data)

    def dump_action(self, action: Action) -> JSON:
        """The JSON object of an action."""
        return self.codec.dump(action)

    # --- bots and tests -------------------------------------------------------------------
    def bots(self) -> Bots:
        """This game's own bots by name (each a callable taking keyword options).

        A bot given by its place (``"package.module:Class"``) is imported when it is first
        looked up, never when the names are listed.
        """
        return self._bots

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
