"""Daifugo cards, groups and the "can follow" rule, as pure functions.

Cards are integers: a natural card is ``rank * 4 + suit`` with ``rank`` 0..12 for
3 4 5 6 7 8 9 10 J Q K A 2 (weakest first) and ``suit`` 0..3 for spades, hearts, diamonds,
clubs; every joker is :data:`JOKER` (52). The two jokers are interchangeable, so a hand is a
sorted tuple of these integers in which 52 may appear twice.

On the wire a card is a short string: ``"3s"``, ``"10h"``, ``"Qd"``, ``"2c"`` and ``"JK"`` for a
joker. Input also accepts ``"T"`` for 10, any case, and ``"JOKER"``.

Rules: ``../shared/rules/daifugo.md`` (Cards; Plays).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

JOKER = 52
"""The code of a joker (both jokers)."""

JOKER_RANK = 13
"""The rank given to a group made only of jokers (it is compared apart from naturals)."""

SPADE3 = 0
"""The 3 of spades (rank 0, suit 0)."""

EIGHT = 5
"""The rank index of the 8s."""

RANK_NAMES = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
SUIT_NAMES = ("s", "h", "d", "c")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")

DECK: tuple[int, ...] = (*range(52), JOKER, JOKER)
"""The 54 cards, in code order."""

_RANK_INPUT = {name.lower(): i for i, name in enumerate(RANK_NAMES)} | {"t": 7}
_SUIT_INPUT = {name: i for i, name in enumerate(SUIT_NAMES)} | {
    sym: i for i, sym in enumerate(SUIT_SYMBOLS)
}


def rank_of(card: int) -> int:
    """The rank index of a natural card (0 = 3 ... 12 = 2); :data:`JOKER_RANK` for a joker."""
    return JOKER_RANK if card == JOKER else card >> 2


def card_str(card: int) -> str:
    """The wire form of a card: ``"3s"``, ``"10h"``, ``"JK"``."""
    if card == JOKER:
        return "JK"
    return RANK_NAMES[card >> 2] + SUIT_NAMES[card & 3]


def card_symbol(card: int) -> str:
    """The terminal form of a card: ``♠3``, ``♥10``, ``JOKER``."""
    if card == JOKER:
        return "JOKER"
    return SUIT_SYMBOLS[card & 3] + RANK_NAMES[card >> 2]


def parse_card(text: object) -> int | None:
    """The code of a card string, or ``None`` if ``text`` is not a card."""
    if not isinstance(text, str):
        return None
    code = _FAST.get(text)
    if code is not None:
        return code
    return _parse_slow(text)


def _parse_slow(text: str) -> int | None:
    t = text.strip().lower()
    if t in ("jk", "joker", "jo"):
        return JOKER
    if len(t) < 2:
        return None
    rank = _RANK_INPUT.get(t[:-1])
    suit = _SUIT_INPUT.get(t[-1])
    if rank is None or suit is None:
        return None
    return rank * 4 + suit


_FAST: dict[str, int] = {}
for _c in DECK:
    _FAST[card_str(_c)] = _c
    _FAST[card_str(_c).lower()] = _c
    _FAST[card_str(_c).replace("10", "T")] = _c


def parse_cards(texts: Iterable[object]) -> tuple[int, ...] | None:
    """The sorted codes of card strings, or ``None`` if any is not a card."""
    fast = _FAST
    out = []
    for t in texts:
        c = fast.get(t) if isinstance(t, str) else None
        if c is None:
            c = parse_card(t)
            if c is None:
                return None
        out.append(c)
    out.sort()
    return tuple(out)


CARD_CODES: dict[str, int] = _FAST
"""Every wire spelling of every card (``10h``, ``Th``, ``th``...) to its code, for hot paths."""

_STR: tuple[str, ...] = tuple(card_str(c) for c in range(53))
_SYMBOL: tuple[str, ...] = tuple(card_symbol(c) for c in range(53))


def cards_str(cards: Iterable[int]) -> list[str]:
    """Wire forms of cards, in the given order."""
    return [_STR[c] for c in cards]


def cards_symbols(cards: Iterable[int]) -> str:
    """Terminal forms of cards joined by spaces (``♠3 ♥8 JOKER``)."""
    return " ".join([_SYMBOL[c] for c in cards])


def contains(hand: Sequence[int], cards: Sequence[int]) -> bool:
    """Whether the multiset ``cards`` is inside the multiset ``hand`` (both sorted)."""
    i = 0
    n = len(hand)
    for c in cards:
        while i < n and hand[i] < c:
            i += 1
        if i >= n or hand[i] != c:
            return False
        i += 1
    return True


def remove(hand: Sequence[int], cards: Sequence[int]) -> tuple[int, ...]:
    """``hand`` without the multiset ``cards`` (which it must contain)."""
    out = list(hand)
    for c in cards:
        out.remove(c)
    return tuple(out)


def group_rank(cards: Sequence[int], max_size: int = 6) -> int | None:
    """The rank of a legal group, :data:`JOKER_RANK` for jokers only, ``None`` if not a group.

    A group is 1 to ``max_size`` cards whose natural cards all share one rank; jokers take that
    rank (rules: Plays).
    """
    if not 1 <= len(cards) <= max_size:
        return None
    rank = JOKER_RANK
    for c in cards:
        if c == JOKER:
            continue
        r = c >> 2
        if rank == JOKER_RANK:
            rank = r
        elif r != rank:
            return None
    return rank


def beats(
    cards: Sequence[int],
    rank: int,
    top: Sequence[int],
    top_rank: int,
    *,
    revolution: bool,
    returned: bool,
    spade3_return: bool = True,
) -> bool:
    """Whether the group ``cards`` (of rank ``rank``) may be played on the field top ``top``.

    The rule (rules: Plays): the same number of cards and strictly stronger. Natural ranks
    compare by 3 < 4 < ... < A < 2, reversed under revolution. A joker-only group beats every
    natural group of its size and nothing beats it, except that the single 3 of spades beats a
    single joker (spade-3 return) and then nothing beats that 3 (``returned``).
    """
    if len(cards) != len(top) or returned:
        return False
    if top_rank == JOKER_RANK:
        return spade3_return and len(top) == 1 and cards[0] == SPADE3
    if rank == JOKER_RANK:
        return True
    return rank < top_rank if revolution else rank > top_rank


def can_follow(
    cards: Sequence[str],
    top: Sequence[str] | None,
    *,
    revolution: bool = False,
    returned: bool = False,
    spade3_return: bool = True,
) -> bool:
    """Whether ``cards`` may be played on the field whose top play is ``top``.

    This is the check the seed's host offered its clients ("can I play this on that"), as a
    pure function on wire strings so that a client can run it locally (rules: Plays):

    - ``cards`` must be 1-6 cards whose natural cards share one rank (jokers are wild);
    - on an empty field (``top`` is ``None`` or empty) any such group may be played;
    - otherwise it needs as many cards as ``top`` and must be strictly stronger: natural ranks
      3 < 4 < ... < K < A < 2, reversed when ``revolution`` is on; a group of jokers only beats
      any natural group of its size and is beaten by nothing, except that the single ``3s``
      beats a single ``JK`` (spade-3 return, if ``spade3_return``); after that return
      (``returned``: the view's ``layout.returned``) nothing beats the ``3s``.

    It does not check that the cards are in the player's hand.
    """
    mine = parse_cards(cards)
    if mine is None:
        return False
    rank = group_rank(mine)
    if rank is None:
        return False
    if not top:
        return True
    theirs = parse_cards(top)
    if theirs is None:
        return False
    top_rank = group_rank(theirs)
    if top_rank is None:
        return False
    return beats(
        mine,
        rank,
        theirs,
        top_rank,
        revolution=revolution,
        returned=returned,
        spade3_return=spade3_return,
    )


_COMBOS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {
    (n, k): tuple(combinations(range(n), k)) for n in range(5) for k in range(5)
}


def groups(hand: Sequence[int], max_size: int = 6) -> list[tuple[int, ...]]:
    """Every distinct group playable from the sorted ``hand``, weakest rank first.

    Jokers are interchangeable, so a group names how many jokers it uses, not which. This is the
    engine's hot path on a lead; ``tests/games/daifugo/test_daifugo_sim.py`` checks it against a
    plain enumeration.
    """
    jokers = 0
    end = len(hand)
    while end and hand[end - 1] == JOKER:
        jokers += 1
        end -= 1
    out: list[tuple[int, ...]] = []
    append = out.append
    i = 0
    while i < end:
        r = hand[i] >> 2
        j = i + 1
        while j < end and hand[j] >> 2 == r:
            j += 1
        nn = j - i
        if nn == 1 and not jokers:
            append((hand[i],))
            i = j
            continue
        naturals = tuple(hand[i:j])
        for size in range(1, min(max_size, nn + jokers) + 1):
            for jk in range(max(0, size - nn), min(jokers, size - 1) + 1):
                tail = (JOKER,) * jk
                for idx in _COMBOS[nn, size - jk]:
                    append(tuple([naturals[x] for x in idx]) + tail)
        i = j
    for jk in range(1, min(jokers, max_size) + 1):
        append((JOKER,) * jk)
    return out


def follow_groups(
    hand: Sequence[int],
    size: int,
    top_rank: int,
    *,
    revolution: bool,
    returned: bool,
    spade3_return: bool = True,
    max_group: int = 6,
) -> list[tuple[int, ...]]:
    """The groups of ``hand`` that beat a field top of ``size`` cards and rank ``top_rank``.

    The same as filtering :func:`groups` with :func:`beats` (the tests check it), but it only
    looks at ranks and sizes that can win, since this is the engine's hot path.
    """
    if returned or size > max_group:
        return []
    if top_rank == JOKER_RANK:
        if spade3_return and size == 1 and hand and hand[0] == SPADE3:
            return [(SPADE3,)]
        return []
    jokers = 0
    by_rank: dict[int, list[int]] = {}
    for c in hand:
        if c == JOKER:
            jokers += 1
        else:
            by_rank.setdefault(c >> 2, []).append(c)
    out: list[tuple[int, ...]] = []
    for r, naturals in by_rank.items():
        if (r >= top_rank) if revolution else (r <= top_rank):
            continue
        nn = len(naturals)
        if nn + jokers < size:
            continue
        for j in range(max(0, size - nn), min(jokers, size - 1) + 1):
            if j == 0 and nn == size:
                out.append(tuple(naturals))
                continue
            for combo in combinations(naturals, size - j):
                out.append((*combo, *([JOKER] * j)))
    if jokers >= size:
        out.append((JOKER,) * size)
    return out


def can_beat(
    hand: Sequence[int],
    size: int,
    top_rank: int,
    *,
    revolution: bool,
    returned: bool,
    spade3_return: bool = True,
    max_group: int = 6,
) -> bool:
    """Whether :func:`follow_groups` would list anything (without building the groups)."""
    if returned or size > max_group:
        return False
    if top_rank == JOKER_RANK:
        return spade3_return and size == 1 and bool(hand) and hand[0] == SPADE3
    jokers = 0
    counts = [0] * 13
    for c in hand:
        if c == JOKER:
            jokers += 1
        else:
            counts[c >> 2] += 1
    if jokers >= size:
        return True
    ranks = range(top_rank) if revolution else range(top_rank + 1, 13)
    need = size - jokers
    return any(counts[r] and counts[r] >= need for r in ranks)


def strongest(hand: Sequence[int], count: int) -> tuple[int, ...]:
    """The host's tribute for a timeout: the ``count`` strongest cards (jokers first).

    Ties of rank are broken toward the higher suit code, so the choice is deterministic.
    """
    return tuple(sorted(sorted(hand)[len(hand) - count :]))


def weakest(hand: Sequence[int], count: int) -> tuple[int, ...]:
    """The host's gift for a timeout: the ``count`` weakest cards (lowest codes)."""
    return tuple(sorted(hand)[:count])


def is_honest_tribute(hand: Sequence[int], given: Sequence[int]) -> bool:
    """Whether ``given`` (held in ``hand``) are strongest cards: no kept card outranks one given.

    Strength is the normal order with jokers strongest; ties of rank are free (rules: Exchange).
    """
    kept = remove(hand, given)
    if not given or not kept:
        return True
    return max(rank_of(c) for c in kept) <= min(rank_of(c) for c in given)


def honest_tributes(hand: Sequence[int], count: int) -> list[tuple[int, ...]]:
    """Every honest tribute of ``count`` cards from ``hand`` (distinct multisets, sorted)."""
    ordered = sorted(hand)
    if count <= 0:
        return [()]
    if count > len(ordered):
        return []
    cut = rank_of(ordered[len(ordered) - count])
    must = [c for c in ordered if rank_of(c) > cut]
    ties = [c for c in ordered if rank_of(c) == cut]
    need = count - len(must)
    return sorted({tuple(sorted((*must, *combo))) for combo in combinations(ties, need)})


def all_subsets(hand: Sequence[int], count: int) -> list[tuple[int, ...]]:
    """Every distinct multiset of ``count`` cards from ``hand`` (sorted tuples, sorted)."""
    return sorted(set(combinations(sorted(hand), count)))
