"""Pandemic Game state: immutable; every transition builds a new one with ``replace``."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations
from math import comb
from typing import Literal

from dennou.core.actions import Action
from dennou.core.game import TalkLine
from dennou.core.immutable import Log
from dennou.games.pandemic.rules import PairRule, PandemicRules

Phase = Literal["setup", "tick", "tiebreak", "over"]
Pair = tuple[int, int]


@dataclass(frozen=True)
class ContactMade:
    """A contact: ``a`` and ``b`` (``a < b``) touched watches at ``round``/``tick``."""

    round: int
    tick: int
    a: int
    b: int


@dataclass(frozen=True)
class CheckResult:
    """What ``seat`` saw in the check room at ``round``/``tick``."""

    seat: int
    round: int
    tick: int
    infected: bool
    vaccines: int


@dataclass(frozen=True)
class Announcement:
    """The host's count after ``round``."""

    round: int
    normal: int
    infected: int


@dataclass(frozen=True)
class PandemicState:
    """Everything about a Pandemic Game; views decide who sees what.

    Attributes:
        rules: The rules options.
        players: Player names by seat.
        phase: ``setup`` (the host draws the infected), ``tick`` (sealed actions), ``tiebreak``
            (the host draws at the qualification cut), ``over``.
        round: The current round, 1-based (0 before the draw).
        tick: The current tick in the round, 1-based (0 before the draw).
        infected: Each seat's status (``True``: infected).
        vaccines: Each seat's vaccines.
        initially_infected: The seats the host infected at the start.
        used_pairs: Pairs whose one vaccine is used up (see ``PandemicRules.pair_rule``).
        pending: This tick's sealed actions so far (``None``: not yet submitted).
        history: Every resolved tick's actions, by seat.
        contacts: Every contact made, in order.
        checks: Every check-room visit, in order.
        cures: ``(round, tick, seat)`` of every cure that worked.
        announcements: The host's counts after each round (with ``announce``).
        tied: At the cut: the tied players, of whom ``slots`` qualify by the draw.
        slots: How many of ``tied`` qualify.
        qualified: The qualifiers, once decided (sorted seats).
        talk: Every line said, in order.
    """

    rules: PandemicRules
    players: tuple[str, ...]
    phase: Phase = "setup"
    round: int = 0
    tick: int = 0
    infected: tuple[bool, ...] = ()
    vaccines: tuple[int, ...] = ()
    initially_infected: tuple[int, ...] = ()
    used_pairs: frozenset[Pair] = frozenset()
    pending: tuple[Action | None, ...] = ()
    history: tuple[tuple[Action, ...], ...] = ()
    contacts: tuple[ContactMade, ...] = ()
    checks: tuple[CheckResult, ...] = ()
    cures: tuple[tuple[int, int, int], ...] = ()
    announcements: tuple[Announcement, ...] = ()
    tied: tuple[int, ...] = ()
    slots: int = 0
    qualified: tuple[int, ...] | None = None
    talk: Log[TalkLine] = field(default_factory=Log)

    def __deepcopy__(self, memo: dict[int, object]) -> PandemicState:
        # Every field is immutable (tuples, frozensets, frozen structs), so a new state object
        # with the same fields is a full deep copy; copy.deepcopy's traversal of the history
        # was most of the conformance harness's time.
        return replace(self)

    @property
    def n(self) -> int:
        """Number of players."""
        return len(self.players)

    @property
    def revealed(self) -> bool:
        """Whether the game's public record (everything) is shown: after the last tick."""
        return self.phase in ("tiebreak", "over")


def pair(a: int, b: int) -> Pair:
    """The pair of two seats in order."""
    return (a, b) if a < b else (b, a)


def contact_result(
    a: tuple[bool, int],
    b: tuple[bool, int],
    *,
    used: bool,
    transfer: bool,
) -> tuple[tuple[bool, int], tuple[bool, int], bool]:
    """The source's contact table for one contact of ``a`` and ``b``, each ``(infected, vaccines)``.

    Args:
        a: One player's status and vaccines before the contact.
        b: The other's.
        used: Whether this pair's one vaccine is already used up.
        transfer: The manga's reading: the vaccine lost to the infected player passes to them.

    Returns:
        Both players after the contact, and whether a pair vaccine was handed out now.
    """
    (ia, va), (ib, vb) = a, b
    if not ia and not ib:
        if used:
            return a, b, False
        return (False, va + 1), (False, vb + 1), True
    if ia and ib:
        return a, b, False
    if ia:  # keep the normal one first
        b2, a2, _ = contact_result(b, a, used=used, transfer=transfer)
        return a2, b2, False
    if va == 0:
        return (True, 0), b, False
    return (True, va - 1), (False, vb + (1 if transfer else 0)), False


def uses_pair(rule: PairRule, before_a: bool, before_b: bool) -> bool:
    """Whether a contact of two players with these statuses uses up the pair's vaccine."""
    return rule == "first_contact" or (not before_a and not before_b)


# --- combinations (chance outcomes) -----------------------------------------------------------
def unrank_combination(n: int, k: int, index: int) -> tuple[int, ...]:
    """The ``index``-th ``k``-subset of ``range(n)`` in lexicographic order."""
    out: list[int] = []
    x = 0
    for left in range(k, 0, -1):
        while True:
            count = comb(n - x - 1, left - 1)
            if index < count:
                break
            index -= count
            x += 1
        out.append(x)
        x += 1
    return tuple(out)


def small_combinations(items: tuple[int, ...], k: int) -> list[tuple[int, ...]]:
    """All ``k``-subsets of ``items`` (for tests and small draws)."""
    return list(combinations(items, k))
