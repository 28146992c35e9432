r"""Fixed-shape encodings of a game for learning agents: observation arrays and action numbers.

A game's ``encoding.py`` (``dennou.games.<name>.encoding``) defines an :class:`Encoding` for one
rules config and player count: a flat ``float32`` observation of exactly what a seat may see
(its layout is a list of named :class:`Field`\\ s with bounds), and a fixed numbering of the
game's actions (a list of named :class:`Block`\\ s). Where a game's raw action set is huge or
open, the numbering is an abstraction and the encoding says what it leaves out.

The observation must be a function of the seat's view: the default :meth:`Encoding.observe`
encodes ``game.view(state, seat)``; an encoding that reads the state directly for speed must
read only what the view shows (``tests/rl`` checks it with pairs of states that differ only in
what the seat may not see, built with the game's ``determinize``).

``dennou.rl`` turns encodings into PettingZoo, Gymnasium and OpenSpiel environments; this module
is here (not in ``dennou.rl``) so that games need not import anything but ``core``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, Generic, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from dennou.core.actions import Action
from dennou.core.game import JSON, Game, Rules, Seat

__all__ = ["Block", "Encoding", "Field", "Layout", "NotEncodable"]

S = TypeVar("S")
R = TypeVar("R", bound=Rules)

Obs = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


class NotEncodable(ValueError):
    """An action the numbering does not cover (outside an abstraction)."""


class Field(NamedTuple):
    """A named part of the observation vector.

    Attributes:
        name: Short name (``hand``, ``phase``).
        start: First index in the vector.
        size: Number of entries.
        low: Smallest value an entry takes.
        high: Largest value an entry takes.
        doc: What the entries mean.
    """

    name: str
    start: int
    size: int
    low: float
    high: float
    doc: str


class Block(NamedTuple):
    """A named range of action numbers.

    Attributes:
        name: The action kind (``call``, ``contact``).
        start: Its first number.
        size: How many numbers.
        doc: How a number in the block maps to the action.
    """

    name: str
    start: int
    size: int
    doc: str


class Layout:
    """Builds a list of fields or blocks one after another."""

    def __init__(self) -> None:
        self.fields: list[Field] = []
        self.blocks: list[Block] = []
        self.size = 0
        self.actions = 0

    def field(self, name: str, size: int, doc: str, low: float = 0.0, high: float = 1.0) -> int:
        """Add an observation field; return its start index."""
        start = self.size
        self.fields.append(Field(name, start, size, low, high, doc))
        self.size += size
        return start

    def block(self, name: str, size: int, doc: str) -> int:
        """Add an action block; return its first number."""
        start = self.actions
        self.blocks.append(Block(name, start, size, doc))
        self.actions += size
        return start


class Encoding(ABC, Generic[S, R]):
    """The observation layout and action numbering of one game, rules config and player count.

    Subclasses build a :class:`Layout` in ``__init__`` (call ``self._finish(layout)``) and fill
    in :meth:`encode_view`, :meth:`index` and :meth:`action`.

    Args:
        game: The game.
        rules: Its rules.
        players: The number of seats.
    """

    abstraction: str = ""
    """What the numbering leaves out of the game's raw action set ("" for none)."""

    reward_scale: float = 1.0
    """Outcome scores are multiplied by this for rewards (money in 100M yen, say)."""

    def __init__(self, game: Game[S, R], rules: R, players: int) -> None:
        self.game = game
        self.rules = rules
        self.players = players
        self.fields: tuple[Field, ...] = ()
        self.blocks: tuple[Block, ...] = ()
        self.size = 0
        self.num_actions = 0
        self.low: Obs = np.zeros(0, np.float32)
        self.high: Obs = np.zeros(0, np.float32)

    def _finish(self, layout: Layout) -> None:
        self.fields = tuple(layout.fields)
        self.blocks = tuple(layout.blocks)
        self.size = layout.size
        self.num_actions = layout.actions
        self.low = np.zeros(self.size, np.float32)
        self.high = np.ones(self.size, np.float32)
        for f in self.fields:
            self.low[f.start : f.start + f.size] = f.low
            self.high[f.start : f.start + f.size] = f.high

    # --- observations -------------------------------------------------------------------
    def observe(self, state: S, seat: Seat) -> Obs:
        """The observation of ``seat`` (values clipped to the fields' bounds)."""
        return self.encode_view(self.game.view(state, seat))

    def new_obs(self) -> Obs:
        """A zeroed observation vector."""
        return np.zeros(self.size, np.float32)

    def clip(self, out: Obs) -> Obs:
        """Clip ``out`` to the fields' bounds in place (scaled counts beyond a cap saturate)."""
        np.clip(out, self.low, self.high, out=out)
        return out

    @abstractmethod
    def encode_view(self, view: JSON) -> Obs:
        """The observation of the seat whose view this is."""

    # --- actions ------------------------------------------------------------------------
    def legal_indices(self, state: S, seat: Seat) -> list[int]:
        """The numbers of ``seat``'s legal actions, ascending (empty when it need not act).

        The default encodes every legal action (exact numberings); abstractions override it.
        """
        legal = self.game.legal_actions(state, seat)
        return sorted({self.index(state, seat, a) for a in legal})

    def first_legal(
        self, state: S, seat: Seat, numbers: Iterable[int], legal: Sequence[Action]
    ) -> list[int]:
        """The numbers among ``numbers`` whose action is in ``legal``, the first of each action.

        For abstractions where several numbers may name one action now (grid points that
        coincide): every legal number then means a different action.
        """
        out: list[int] = []
        seen: set[Action] = set()
        for i in numbers:
            try:
                action = self.action(state, seat, i)
            except NotEncodable:
                continue
            if action not in seen and action in legal:
                seen.add(action)
                out.append(i)
        return out

    def action_mask(self, state: S, seat: Seat) -> Mask:
        """1 for every legal action number, 0 elsewhere."""
        mask = np.zeros(self.num_actions, np.int8)
        mask[self.legal_indices(state, seat)] = 1
        return mask

    @abstractmethod
    def index(self, state: S, seat: Seat, action: Action) -> int:
        """The number of ``action`` for ``seat`` now.

        Raises:
            NotEncodable: The numbering does not cover it (see :attr:`abstraction`).
        """

    @abstractmethod
    def action(self, state: S, seat: Seat, index: int) -> Action:
        """The action numbered ``index`` for ``seat`` now (it may be illegal now).

        Raises:
            NotEncodable: ``index`` means nothing now (out of range or impossible here).
        """

    def block_of(self, index: int) -> Block:
        """The block ``index`` falls in."""
        for b in self.blocks:
            if b.start <= index < b.start + b.size:
                return b
        raise NotEncodable(f"action number {index} is outside 0..{self.num_actions - 1}")

    # --- rewards ------------------------------------------------------------------------
    def running_scores(self, state: S) -> Sequence[float] | None:
        """Scores earned so far during the game (Daifugo's points per game of a set).

        ``None`` (the default): rewards come only from the outcome at the end.
        """
        return None

    # --- documentation -------------------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        """The layout and numbering as JSON-able data (for docs and tools)."""
        return {
            "observation": [f._asdict() for f in self.fields],
            "actions": [b._asdict() for b in self.blocks],
            "size": self.size,
            "num_actions": self.num_actions,
            "abstraction": self.abstraction,
        }


def one_hot(out: Obs, start: int, index: int | None, size: int) -> None:
    """Set ``out[start + index]`` to 1 when ``0 <= index < size`` (``None``: nothing)."""
    if index is not None and 0 <= index < size:
        out[start + index] = 1.0
