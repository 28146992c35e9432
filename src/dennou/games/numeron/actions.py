"""Numeron actions (JSON tag = text form's first word)."""

from __future__ import annotations

from dennou.core.actions import Action, ActionCodec


class SetNumber(Action, frozen=True, tag="set"):
    """Setup: seal one's secret number (``set 031``)."""

    number: str


class Coin(Action, frozen=True, tag="coin"):
    """Chance: the host's coin flip says who calls first."""

    first: int


class HostNumber(Action, frozen=True, tag="host_number"):
    """Chance: the host sets a number for a seat that timed out at setup."""

    seat: int
    number: str


class Decline(Action, frozen=True, tag="decline"):
    """Defence window: use no defence item."""


class Shuffle(Action, frozen=True, tag="shuffle"):
    """SHUFFLE: reorder one's digits (``shuffle 094``); the same order is a feint."""

    number: str


class Change(Action, frozen=True, tag="change"):
    """CHANGE: replace the digit at ``position`` (0 = leftmost) by ``digit`` of the same class."""

    position: int
    digit: int


class Move(Action, frozen=True, tag="move"):
    """MOVE: take ``amount`` from the digit at ``source`` and add it to the one at ``target``."""

    source: int
    target: int
    amount: int


class NoItem(Action, frozen=True, tag="no_item"):
    """Attack: use no attack item this turn."""


class Double(Action, frozen=True, tag="double"):
    """DOUBLE: two calls this turn; the defender picks one of the attacker's digits to see."""


class HighLow(Action, frozen=True, tag="high_low"):
    """HIGH&LOW: learn HIGH (5-9) or LOW (0-4) for every position of the defender's number."""


class Target(Action, frozen=True, tag="target"):
    """TARGET: ask whether ``digit`` is in the defender's number, and where."""

    digit: int


class Slash(Action, frozen=True, tag="slash"):
    """SLASH: learn the defender's largest digit minus its smallest."""


class Reveal(Action, frozen=True, tag="reveal"):
    """After the attacker's DOUBLE: the defender picks which of the attacker's digits it sees."""

    position: int


class Call(Action, frozen=True, tag="call"):
    """Call a number (``call 0318``); the host judges EAT and BITE."""

    number: str


ITEM_ACTIONS: dict[type[Action], str] = {
    Double: "double",
    HighLow: "high_low",
    Target: "target",
    Slash: "slash",
    Shuffle: "shuffle",
    Change: "change",
    Move: "move",
}

CODEC = ActionCodec(
    SetNumber,
    Coin,
    HostNumber,
    Decline,
    Shuffle,
    Change,
    Move,
    NoItem,
    Double,
    HighLow,
    Target,
    Slash,
    Reveal,
    Call,
)
