"""A slow, readable reference for the rules of Plays, written from the rules page only.

``docs/games/daifugo.md`` (Plays, Sequences, Suit lock):

- a *group* is 1 to ``max_group`` cards whose natural cards all share one rank, jokers wild;
  when the suit lock is played each joker of a group stands for a missing suit of that rank
  (while one is missing); otherwise a square written for a joker must be a missing one of the
  rank and means nothing; a group of jokers only ranks above every natural group of its size,
  whatever squares are written for them;
- a *sequence* is 3 or more consecutive ranks of one suit, at least one natural card, a joker
  standing for any square of the run, also just below 3 (rank -1) or just above 2 (rank 13);
- a follow is of the same kind and size and stronger: a group of a higher rank (lower when the
  order is reversed), a sequence wholly above the top one (wholly below when reversed); nothing
  beats a group of jokers only except the single 3 of spades on a single joker, and nothing
  beats that 3; under a suit lock a follow has exactly the locked suits (groups of jokers only
  are exempt).

Plays are described as ``(kind, cards, squares)``: ``kind`` 0 group / 1 sequence, ``cards`` the
sorted codes (jokers as 52), ``squares`` the jokers' squares (``rank * 4 + suit``) where they
name one. This module enumerates by runs and joker positions, not as the engine does.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from dennou.games.daifugo import cards as C

Cards = tuple[int, ...]
"""Sorted card codes (jokers as 52)."""

Desc = tuple[int, Cards, Cards]
"""A play: ``(kind, cards, joker squares)``."""

GROUP, SEQUENCE = 0, 1


def describe(combo: C.Combo) -> Desc:
    """An engine combination in the reference's terms."""
    return combo.kind, C.cards_in(combo.cards), combo.squares


def suits_of(play: Desc) -> int:
    """The suits a play covers (naturals and the jokers' squares); 0 for jokers only."""
    _, cards, squares = play
    return sum({1 << (c & 3) for c in (*[c for c in cards if c != C.JOKER], *squares)})


def rank_of_group(cards: Cards) -> int | None:
    """A group's rank (13 for jokers only); ``None`` if its naturals differ in rank."""
    ranks = {c >> 2 for c in cards if c != C.JOKER}
    if len(ranks) > 1:
        return None
    return ranks.pop() if ranks else 13


def groups(hand: Cards, max_group: int, suit_jokers: bool) -> set[Desc]:
    """Every group in ``hand``: each rank's naturals with any jokers."""
    jokers = hand.count(C.JOKER)
    out: set[Desc] = set()
    for j in range(1, min(jokers, max_group) + 1):
        out.add((GROUP, (C.JOKER,) * j, ()))
    for rank in range(13):
        naturals = [c for c in hand if c != C.JOKER and c >> 2 == rank]
        for k in range(1, len(naturals) + 1):
            for chosen in combinations(naturals, k):
                for j in range(jokers + 1):
                    if k + j > max_group:
                        continue
                    cards = (*chosen, *(C.JOKER,) * j)
                    if not suit_jokers or not j:
                        out.add((GROUP, cards, ()))
                        continue
                    free = [rank * 4 + s for s in range(4) if rank * 4 + s not in chosen]
                    for named in combinations(free, min(j, len(free))):
                        out.add((GROUP, cards, named))
    return out


def sequences(hand: Cards) -> set[Desc]:
    """Every sequence in ``hand``: every run of a suit, jokers on the squares the hand does not
    hold (and on any others they replace), at least one natural card."""
    jokers = hand.count(C.JOKER)
    out: set[Desc] = set()
    for suit in range(4):
        for low in range(-1, 12):
            for high in range(low + 2, 14):
                run = [r * 4 + suit for r in range(low, high + 1)]
                held = [sq for sq in run if 0 <= sq >> 2 <= 12 and sq in hand]
                missing = [sq for sq in run if sq not in held]
                if len(missing) > jokers:
                    break
                for extra in range(jokers - len(missing) + 1):
                    for replaced in combinations(held, extra):
                        naturals = [sq for sq in held if sq not in replaced]
                        if naturals:
                            joker_squares = tuple(sorted((*missing, *replaced)))
                            cards = (*naturals, *(C.JOKER,) * len(joker_squares))
                            out.add((SEQUENCE, cards, joker_squares))
    return out


def all_plays(hand: Cards, *, max_group: int, suit_jokers: bool, seqs: bool) -> set[Desc]:
    """Every play in ``hand`` under these options."""
    out = groups(hand, max_group, suit_jokers)
    if seqs:
        out |= sequences(hand)
    return out


def _low_high(play: Desc) -> tuple[int, int]:
    kind, cards, squares = play
    if kind == GROUP:
        rank = rank_of_group(cards)
        assert rank is not None
        return rank, rank
    ranks = [c >> 2 for c in cards if c != C.JOKER] + [sq >> 2 for sq in squares]
    return min(ranks), max(ranks)


def beats(
    play: Desc,
    top: Desc,
    *,
    reverse: bool,
    returned: bool = False,
    lock: int = 0,
    spade3_return: bool = True,
) -> bool:
    """Whether ``play`` may be played on the field whose top is ``top``."""
    if returned or play[0] != top[0] or len(play[1]) != len(top[1]):
        return False
    if top[0] == GROUP and rank_of_group(top[1]) == 13:
        return spade3_return and play[1] == (C.SPADE3,)
    if play[0] == GROUP and rank_of_group(play[1]) == 13:
        return True
    if lock and suits_of(play) != lock:
        return False
    low, high = _low_high(play)
    top_low, top_high = _low_high(top)
    if play[0] == GROUP:
        return low < top_low if reverse else low > top_low
    return high < top_low if reverse else low > top_high


def legal(
    hand: Cards,
    top: Desc | None,
    *,
    max_group: int,
    suit_jokers: bool,
    seqs: bool,
    reverse: bool = False,
    returned: bool = False,
    lock: int = 0,
    spade3_return: bool = True,
) -> set[Desc]:
    """Every play of ``hand`` that may be played on ``top`` (``None``: an empty field)."""
    plays = all_plays(hand, max_group=max_group, suit_jokers=suit_jokers, seqs=seqs)
    if top is None:
        return plays
    return {
        p
        for p in plays
        if beats(p, top, reverse=reverse, returned=returned, lock=lock, spade3_return=spade3_return)
    }


def readings(texts: tuple[str, ...]) -> Iterator[Desc]:
    """Every play the wire form may mean: each unnamed joker on any square (or none)."""
    naturals: list[int] = []
    named: list[int] = []
    free = 0
    for text in texts:
        card = C.parse_card(text)
        if card is None:
            return
        if card != C.JOKER:
            naturals.append(card)
        elif "=" in text:
            square = text.partition("=")[2]
            rank = {"l": -1, "h": 13}.get(square[:-1].lower())
            if rank is None:
                rank = C.rank_of(C.parse_card(square) or 0)
            named.append(rank * 4 + "shdc".index(square[-1].lower()))
        else:
            free += 1
    if len(set(naturals)) < len(naturals):
        return
    cards = (*sorted(naturals), *(C.JOKER,) * (len(named) + free))
    if not naturals:  # jokers only: a group whatever squares are written
        yield GROUP, cards, ()
        return
    squares = range(-4, 56)
    for extra in combinations(squares, free):
        yield GROUP, cards, tuple(sorted((*named, *extra)))
        yield SEQUENCE, cards, tuple(sorted((*named, *extra)))
    yield GROUP, cards, tuple(sorted(named))  # a group whose jokers name nothing


def valid(play: Desc, *, max_group: int, suit_jokers: bool, seqs: bool) -> bool:
    """Whether a described play is a group or sequence of these rules (any hand)."""
    kind, cards, squares = play
    naturals = [c for c in cards if c != C.JOKER]
    jokers = len(cards) - len(naturals)
    if jokers > 2 or len(set(squares)) < len(squares) or set(squares) & set(naturals):
        return False
    if kind == GROUP:
        rank = rank_of_group(cards)
        if rank is None or len(cards) > max_group:
            return False
        if rank == 13:
            return not squares
        free = [rank * 4 + s for s in range(4) if rank * 4 + s not in naturals]
        if not suit_jokers:  # a written square must be a free one of the rank; it is dropped
            return set(squares) <= set(free)
        return set(squares) <= set(free) and len(squares) == min(jokers, len(free))
    if not seqs or not naturals or len(squares) != jokers or len(cards) < 3:
        return False
    every = sorted((*naturals, *squares))
    suit = every[0] & 3
    low = every[0] >> 2
    return all(
        sq & 3 == suit and sq >> 2 == low + i and -1 <= sq >> 2 <= 13 for i, sq in enumerate(every)
    )


def accepts(
    hand: Cards,
    texts: tuple[str, ...],
    top: Desc | None,
    *,
    max_group: int,
    suit_jokers: bool,
    seqs: bool,
    reverse: bool = False,
    returned: bool = False,
    lock: int = 0,
    spade3_return: bool = True,
) -> bool:
    """Whether a play's wire form may be played: some reading is a play, held, and beats."""
    for play in readings(texts):
        if not valid(play, max_group=max_group, suit_jokers=suit_jokers, seqs=seqs):
            continue
        cards = play[1]
        naturals = [c for c in cards if c != C.JOKER]
        if not set(naturals) <= set(hand) or cards.count(C.JOKER) > hand.count(C.JOKER):
            continue
        if top is None or beats(
            play, top, reverse=reverse, returned=returned, lock=lock, spade3_return=spade3_return
        ):
            return True
    return False
