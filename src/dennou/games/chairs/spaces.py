"""Lazy action spaces: order lists (ordered selections of chairs), gifts and jitter draws."""

from __future__ import annotations

import math
from collections.abc import Sequence

from dennou.core.actions import Action, LazyActions
from dennou.games.chairs.actions import Gift, Jitter, Order

MAX_LEN = 2**62
"""Largest lazy space we list (``len`` must fit a machine integer)."""


def order_space(allowed: Sequence[int], max_choices: int) -> LazyActions[Action]:
    """Every order list of distinct chairs from ``allowed``, 0 to ``max_choices`` long.

    Indexed shortest first, then lexicographically by position in ``allowed``.
    """
    pool = tuple(sorted(allowed))
    a = len(pool)
    top = min(max_choices, a)
    sizes = [math.perm(a, k) for k in range(top + 1)]
    total = sum(sizes)
    members = frozenset(pool)

    def item(i: int) -> Action:
        k = 0
        while i >= sizes[k]:
            i -= sizes[k]
            k += 1
        rest = list(pool)
        out: list[int] = []
        for pos in range(k):
            base = math.perm(len(rest) - 1, k - pos - 1)
            j, i = divmod(i, base)
            out.append(rest.pop(j))
        return Order(tuple(out))

    def contains(action: object) -> bool:
        if type(action) is not Order:
            return False
        chairs = action.chairs
        return (
            len(chairs) <= top
            and len(set(chairs)) == len(chairs)
            and all(c in members for c in chairs)
        )

    return LazyActions(
        total,
        item,
        contains,
        {"form": {"type": "order", "chairs": f"<0-{top} distinct chairs of {list(pool)}>"}},
    )


def gift_space(seat: int, holding: Sequence[int]) -> LazyActions[Action]:
    """Every gift ``seat`` can make: to anyone else, any medals it holds, 1 or more of them."""
    n = len(holding)
    others = [p for p in range(n) if p != seat]
    pairs = [(name, count) for name in range(n) for count in range(1, holding[name] + 1)]

    def item(i: int) -> Action:
        to, rest = divmod(i, len(pairs))
        name, count = pairs[rest]
        return Gift(others[to], name, count)

    def contains(action: object) -> bool:
        if type(action) is not Gift:
            return False
        return (
            0 <= action.to < n
            and action.to != seat
            and 0 <= action.name < n
            and 1 <= action.count <= holding[action.name]
        )

    return LazyActions(
        len(others) * len(pairs),
        item,
        contains,
        {"form": {"type": "gift", "to": "<seat>", "name": "<seat>", "count": "<1..held>"}},
    )


def jitter_space(runners: int, top: int) -> Sequence[Action]:
    """Every jitter draw for ``runners`` runners (empty if too many to list)."""
    base = top + 1
    total = base**runners
    if total > MAX_LEN:
        return []

    def item(i: int) -> Action:
        digits = []
        for _ in range(runners):
            i, d = divmod(i, base)
            digits.append(d)
        return Jitter(tuple(digits))

    return LazyActions(total, item, lambda a: valid_jitter(a, runners, top))


def valid_jitter(action: object, runners: int, top: int) -> bool:
    """Whether ``action`` is a jitter draw for ``runners`` runners of 0..``top`` tenths each."""
    return (
        type(action) is Jitter
        and len(action.tenths) == runners
        and all(0 <= t <= top for t in action.tenths)
    )
