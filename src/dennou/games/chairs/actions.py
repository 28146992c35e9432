"""Musical Chairs actions (JSON tag = the text form's first word).

People act in four sealed or open steps each period: the free phase (``gift``, ``ready``), the go
(``order`` for players; ``block_chair``, ``block_player`` or ``no_block`` for everyone), the vote
(``vote``, ``abstain``) and the parent's ``remove``. The host draws ``map``, ``jitter`` and
``tiebreak``.
"""

from __future__ import annotations

from dennou.core.actions import Action, ActionCodec


class Ready(Action, frozen=True, tag="ready"):
    """Free phase: end one's free phase (no more gifts this period)."""


class Gift(Action, frozen=True, tag="gift"):
    """Free phase: give ``count`` medals bearing seat ``name``'s name to seat ``to``.

    ``gift 5 0 3``: three medals bearing seat 0's name to seat 5.
    """

    to: int
    name: int
    count: int


class Order(Action, frozen=True, tag="order"):
    """Go: a player's sealed list of chairs to run for, first choice first (``order 7 3 12``).

    Empty: stay at the totem (and fail to sit).
    """

    chairs: tuple[int, ...] = ()


class BlockChair(Action, frozen=True, tag="block_chair"):
    """Go: stand on chair ``chair`` so that nobody can take it this period."""

    chair: int


class BlockPlayer(Action, frozen=True, tag="block_player"):
    """Go: get in player ``player``'s way (they lose ``block_delay`` seconds per blocker)."""

    player: int


class NoBlock(Action, frozen=True, tag="no_block"):
    """Go: block nothing this period."""


class Vote(Action, frozen=True, tag="vote"):
    """Vote: an anonymous vote for player ``candidate`` as parent (親)."""

    candidate: int


class Abstain(Action, frozen=True, tag="abstain"):
    """Vote: cast no vote (棄権)."""


class Remove(Action, frozen=True, tag="remove"):
    """The parent removes chair ``chair`` from the game."""

    chair: int


class Map(Action, frozen=True, tag="map"):
    """Chance: the island's chairs, ``x1 y1 x2 y2 ...`` in metres from the totem (chair 1 first)."""

    coords: tuple[int, ...]


class Jitter(Action, frozen=True, tag="jitter"):
    """Chance: each runner's start delay in tenths of a second, players in seat order."""

    tenths: tuple[int, ...]


class Tiebreak(Action, frozen=True, tag="tiebreak"):
    """Chance: the host's draw among the players tied for most votes."""

    parent: int


CODEC = ActionCodec(
    Ready,
    Gift,
    Order,
    BlockChair,
    BlockPlayer,
    NoBlock,
    Vote,
    Abstain,
    Remove,
    Map,
    Jitter,
    Tiebreak,
)
"""Every action of the game."""
