"""A slow, readable reference for the rules of Plays, written from the rules page only.

``docs/games/daifugo.md`` (Plays): a group is 1 to ``max_group`` cards whose natural cards all
share one rank, jokers wild; a group of jokers only ranks above every natural group of its size;
a follow has the same number of cards and is strictly stronger (reversed under revolution);
nothing beats a joker-only group except the single 3 of spades on a single joker, and nothing
beats that 3. This module enumerates every sub-multiset of a hand and applies those sentences
directly, with no table and no shortcut; the engine and the fast layer are compared with it.
"""

from __future__ import annotations

from itertools import combinations

from dennou.games.daifugo import cards as C

Play = tuple[int, ...]
"""A play as sorted card codes (jokers as 52)."""


def group_rank(play: Play) -> int | None:
    """The rank of a group (13 for jokers only), ``None`` if the naturals differ in rank."""
    ranks = {c >> 2 for c in play if c != C.JOKER}
    if len(ranks) > 1:
        return None
    return ranks.pop() if ranks else 13


def all_groups(hand: Play, max_group: int) -> set[Play]:
    """Every group of 1..max_group cards in ``hand``, by trying every sub-multiset (small hands)."""
    out: set[Play] = set()
    for size in range(1, max_group + 1):
        for play in combinations(hand, size):
            if group_rank(play) is not None:
                out.add(play)
    return out


def groups_by_rank(hand: Play, max_group: int) -> set[Play]:
    """Every group of ``hand``: for each rank, its naturals with any number of jokers."""
    jokers = [c for c in hand if c == C.JOKER]
    out: set[Play] = set()
    for rank in range(13):
        naturals = [c for c in hand if c != C.JOKER and c >> 2 == rank]
        for k in range(1, len(naturals) + 1):
            for chosen in combinations(naturals, k):
                for j in range(len(jokers) + 1):
                    if k + j <= max_group:
                        out.add((*chosen, *jokers[:j]))
    for j in range(1, min(len(jokers), max_group) + 1):
        out.add(tuple(jokers[:j]))
    return out


def beats(play: Play, top: Play, *, revolution: bool, returned: bool, spade3_return: bool) -> bool:
    """Whether the group ``play`` may be played on the group ``top``."""
    if returned or len(play) != len(top):
        return False
    mine, theirs = group_rank(play), group_rank(top)
    assert mine is not None and theirs is not None
    if theirs == 13:
        return spade3_return and play == (C.SPADE3,)
    if mine == 13:
        return True
    return mine < theirs if revolution else mine > theirs


def legal(
    hand: Play,
    top: Play | None,
    *,
    max_group: int,
    revolution: bool = False,
    returned: bool = False,
    spade3_return: bool = True,
) -> set[Play]:
    """Every group of ``hand`` that may be played on ``top`` (``None``: an empty field)."""
    return {
        p
        for p in groups_by_rank(hand, max_group)
        if top is None
        or beats(p, top, revolution=revolution, returned=returned, spade3_return=spade3_return)
    }
