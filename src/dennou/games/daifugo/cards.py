"""Daifugo cards, card sets and combinations, as pure functions (rules: ``docs/games/daifugo.md``).

**Cards** are integers: a natural card is ``rank * 4 + suit`` with ``rank`` 0..12 for
3 4 5 6 7 8 9 10 J Q K A 2 (weakest first) and ``suit`` 0..3 for spades, hearts, diamonds,
clubs; every joker is :data:`JOKER` (52). On the wire a card is a short string: ``"3s"``,
``"10h"``, ``"Qd"``, ``"2c"`` and ``"JK"`` for a joker (input also accepts ``"T"`` for 10, any
case, ``"JOKER"`` and ``"JO"``).

**Card sets** (hands, discards, the cards of a play) are int masks: bit ``c`` is the natural card
``c``, and the jokers are counted in bits 52 and 53 (one joker: bit 52; two: both). This is also
the simulator's encoding, and it makes "does the hand hold these cards" one ``&``.

**Squares**: in a play a joker stands for a square ``rank * 4 + suit`` (the card it replaces);
sequences may also use the squares just below 3 (rank -1, written ``L``) and just above 2
(rank 13, written ``H``), as UECda's table does. A joker's square is written ``JK=7h``.

**Combinations** (:class:`Combo`): a *group* is cards of one rank (jokers wild); a *sequence*
(階段) is consecutive ranks of one suit. How they are made, beaten and what they do is below;
the engine calls these functions, the fast layer (:mod:`.fast`) lists them from tables, and the
tests compare both with a brute-force reference.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from typing import NamedTuple

JOKER = 52
"""The code of a joker (both jokers)."""

JOKER_RANK = 13
"""The rank of a group made only of jokers (it is compared apart from naturals)."""

SPADE3 = 0
"""The 3 of spades (rank 0, suit 0)."""

DIAMOND3 = 2
"""The 3 of diamonds (rank 0, suit 2): its holder leads with ``first_lead="diamond3"``."""

FIVE, SEVEN, EIGHT, TEN, JACK = 2, 4, 5, 7, 8
"""Rank indexes of the cards with effects (5 skip, 7 pass, 8-cut, 10 discard, 11-back)."""

RANK_NAMES = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
SUIT_NAMES = ("s", "h", "d", "c")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")

NATURALS = (1 << 52) - 1
"""The mask of the 52 natural cards."""

JOKER_BITS = (0, 1 << 52, 3 << 52)
"""``JOKER_BITS[n]``: the bits of a card set holding ``n`` jokers."""


def deck(jokers: int = 2) -> tuple[int, ...]:
    """The cards of a deck with ``jokers`` jokers, in code order."""
    return (*range(52), *(JOKER,) * jokers)


DECK: tuple[int, ...] = deck(2)
"""The 54 cards of the source's deck (two jokers), in code order."""

GROUP, SEQUENCE = 0, 1
"""The kinds of combination."""


# --- cards ---------------------------------------------------------------------------------
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


_RANK_INPUT = {name.lower(): i for i, name in enumerate(RANK_NAMES)} | {"t": 7}
_SQUARE_RANK_INPUT = _RANK_INPUT | {"l": -1, "h": 13}
_SUIT_INPUT = {name: i for i, name in enumerate(SUIT_NAMES)} | {
    sym: i for i, sym in enumerate(SUIT_SYMBOLS)
}
_JOKER_WORDS = ("jk", "joker", "jo")


def _parse_square(text: str, ranks: dict[str, int]) -> int | None:
    t = text.strip().lower()
    if len(t) < 2:
        return None
    rank = ranks.get(t[:-1])
    suit = _SUIT_INPUT.get(t[-1])
    if rank is None or suit is None:
        return None
    return rank * 4 + suit


def _parse_token(text: str) -> tuple[int, int | None] | None:
    """``(card, square)`` of one wire token: ``("7h")`` -> (29, None), ``"JK=7h"`` -> (52, 29)."""
    code = _FAST.get(text)
    if code is not None:
        return code, None
    t = text.strip().lower()
    if t in _JOKER_WORDS:
        return JOKER, None
    word, sep, square = t.partition("=")
    if sep and word in _JOKER_WORDS:
        sq = _parse_square(square, _SQUARE_RANK_INPUT)
        return None if sq is None else (JOKER, sq)
    card = _parse_square(t, _RANK_INPUT)
    return None if card is None else (card, None)


def parse_card(text: object) -> int | None:
    """The code of a card string (``"JK=7h"`` is a joker), or ``None`` if it is not a card."""
    if not isinstance(text, str):
        return None
    got = _parse_token(text)
    return None if got is None else got[0]


_FAST: dict[str, int] = {}
for _c in DECK:
    _FAST[card_str(_c)] = _c
    _FAST[card_str(_c).lower()] = _c
    _FAST[card_str(_c).replace("10", "T")] = _c


def parse_cards(texts: Iterable[object]) -> tuple[int, ...] | None:
    """The sorted codes of card strings, or ``None`` if any is not a card."""
    out = []
    for t in texts:
        c = _FAST.get(t) if isinstance(t, str) else None
        if c is None:
            c = parse_card(t)
            if c is None:
                return None
        out.append(c)
    out.sort()
    return tuple(out)


CARD_CODES: dict[str, int] = _FAST
"""Every plain wire spelling of every card (``10h``, ``Th``, ``th``...) to its code."""

_STR: tuple[str, ...] = tuple(card_str(c) for c in range(53))
_SYMBOL: tuple[str, ...] = tuple(card_symbol(c) for c in range(53))


def cards_str(cards: Iterable[int]) -> list[str]:
    """Wire forms of cards, in the given order."""
    return [_STR[c] for c in cards]


def cards_symbols(cards: Iterable[int]) -> str:
    """Terminal forms of cards joined by spaces (``♠3 ♥8 JOKER``)."""
    return " ".join([_SYMBOL[c] for c in cards])


def square_str(square: int) -> str:
    """The wire form of a joker's square: ``"7h"``, and ``"Ls"``/``"Hs"`` beyond 3 and 2."""
    rank = square >> 2
    name = "L" if rank < 0 else "H" if rank > 12 else RANK_NAMES[rank]
    return name + SUIT_NAMES[square & 3]


# --- card sets -----------------------------------------------------------------------------
def card_set(cards: Iterable[int]) -> int:
    """The mask of cards given as codes (jokers as code 52, repeated)."""
    mask = 0
    jokers = 0
    for c in cards:
        if c == JOKER:
            jokers += 1
        else:
            mask |= 1 << c
    return mask | JOKER_BITS[jokers]


def cards_in(mask: int) -> tuple[int, ...]:
    """The codes of a card set, weakest first (jokers last, as 52)."""
    out = []
    naturals = mask & NATURALS
    while naturals:
        low = naturals & -naturals
        out.append(low.bit_length() - 1)
        naturals ^= low
    return (*out, *(JOKER,) * jokers_in(mask))


def jokers_in(mask: int) -> int:
    """How many jokers a card set holds."""
    return (mask >> 52).bit_count()


def size(mask: int) -> int:
    """How many cards a card set holds."""
    return mask.bit_count()


def holds(hand: int, cards: int) -> bool:
    """Whether the card set ``hand`` holds every card of ``cards``."""
    return not cards & ~hand


def remove(hand: int, cards: int) -> int:
    """``hand`` without ``cards`` (which it must hold)."""
    if cards >> 52:
        return hand & ~cards & NATURALS | JOKER_BITS[jokers_in(hand) - jokers_in(cards)]
    return hand & ~cards


def add(hand: int, cards: int) -> int:
    """The union of two card sets (jokers add up)."""
    if cards >> 52:
        return (hand | cards) & NATURALS | JOKER_BITS[jokers_in(hand) + jokers_in(cards)]
    return hand | cards


def suit_set(names: Iterable[str]) -> int:
    """The 4-bit suit set of suit letters (``["s", "h"]`` -> ``0b0011``)."""
    return sum(1 << _SUIT_INPUT[name] for name in set(names))


def rank_cards(mask: int, rank: int) -> int:
    """The natural cards of ``rank`` in a card set, as a 4-bit suit set."""
    return (mask >> (4 * rank)) & 15


# --- combinations ---------------------------------------------------------------------------
class Combo(NamedTuple):
    """A combination of cards played together: a group or a sequence.

    Attributes:
        kind: :data:`GROUP` (one rank) or :data:`SEQUENCE` (consecutive ranks of one suit).
        rank: A group's rank (:data:`JOKER_RANK` for jokers only); a sequence's lowest rank
            (-1 when a joker stands below 3).
        size: How many cards.
        cards: The cards as a card set (what leaves the hand).
        suits: The suits it covers (4 bits; a joker counts for the suit of its square); 0 for
            jokers only. The suit lock compares these.
        squares: The squares its jokers stand for, sorted (``()`` where they need none: in
            groups unless the suit lock is played, and in joker-only groups).
    """

    kind: int
    rank: int
    size: int
    cards: int
    suits: int
    squares: tuple[int, ...] = ()

    @property
    def high(self) -> int:
        """The highest rank covered (a group's rank)."""
        return self.rank + self.size - 1 if self.kind == SEQUENCE else self.rank

    @property
    def jokers_only(self) -> bool:
        """Whether it is a group made only of jokers."""
        return self.rank == JOKER_RANK

    def count(self, rank: int) -> int:
        """How many of its cards are of ``rank`` (jokers standing in count)."""
        if self.kind == SEQUENCE:
            return 1 if self.rank <= rank <= self.rank + self.size - 1 else 0
        return self.size if self.rank == rank else 0

    def strs(self) -> tuple[str, ...]:
        """The wire form: the cards in square order, a joker as ``JK=<square>`` or ``JK``."""
        placed = [(c, _STR[c]) for c in cards_in(self.cards & NATURALS)]
        placed += [(sq, "JK=" + square_str(sq)) for sq in self.squares]
        placed.sort()
        free = jokers_in(self.cards) - len(self.squares)
        return (*(text for _, text in placed), *("JK",) * free)

    def symbols(self) -> str:
        """The terminal form (``♠5 JOKER ♠7``)."""
        return cards_symbols(cards_in(self.cards))


def _suit_set(cards: Iterable[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << (c & 3)
    return out


def group_of(naturals: Sequence[int], jokers: int, squares: Sequence[int] = ()) -> Combo | None:
    """The group made of ``naturals`` (one rank) and ``jokers`` (``squares``: those named).

    ``None`` unless the naturals share one rank and every named square is a free square of that
    rank. With no naturals it is a group of jokers only (names are dropped). A deck has at most
    two jokers.
    """
    if jokers > 2:
        return None
    cards = card_set(naturals) | JOKER_BITS[jokers]
    if not naturals:
        if not jokers:
            return None
        return Combo(GROUP, JOKER_RANK, jokers, cards, 0)
    rank = naturals[0] >> 2
    if any(c >> 2 != rank for c in naturals):
        return None
    taken = {c for c in naturals}
    for sq in squares:
        if sq >> 2 != rank or sq in taken:
            return None
        taken.add(sq)
    size = len(naturals) + jokers
    return Combo(GROUP, rank, size, cards, _suit_set(taken), tuple(sorted(squares)))


def sequence_of(naturals: Sequence[int], squares: Sequence[int]) -> Combo | None:
    """The sequence of ``naturals`` and jokers on ``squares`` (one per joker), or ``None``.

    A sequence is consecutive ranks of one suit, each square once, at least one natural; the
    jokers may stand anywhere in it, also just below 3 or just above 2 (ranks -1 and 13).
    """
    if not naturals or len(squares) > 2:
        return None
    every = sorted((*naturals, *squares))
    suit = every[0] & 3
    low = every[0] >> 2
    for i, sq in enumerate(every):
        if sq & 3 != suit or sq >> 2 != low + i or not -1 <= sq >> 2 <= 13:
            return None
    return Combo(
        SEQUENCE,
        low,
        len(every),
        card_set(naturals) | JOKER_BITS[len(squares)],
        1 << suit,
        tuple(sorted(squares)),
    )


def interpretations(
    naturals: Sequence[int],
    named: Sequence[int],
    free: int,
    *,
    suit_jokers: bool,
    sequences: bool,
) -> list[Combo]:
    """Every combination the cards of a play may mean, in order of preference.

    ``naturals`` are the natural cards, ``named`` the squares of the jokers written with one
    (``JK=7h``) and ``free`` the number of jokers written without (``JK``). Groups come first,
    then sequences (3+ cards). In a group a joker needs a square only when ``suit_jokers`` (the
    suit lock is played): a free joker then takes a missing suit of the rank (♠ ♥ ♦ ♣ order),
    and otherwise names are dropped, so that one group has one form. In a sequence free jokers
    fill the gaps, then squares above it, then below it. The engine plays the first reading
    that is legal (rules: Plays).
    """
    out: list[Combo] = []
    jokers = len(named) + free
    ranks = {c >> 2 for c in naturals} | {sq >> 2 for sq in named}
    if not naturals:
        group = group_of((), jokers)
        if group is not None:
            out.append(group)
    elif len(ranks) == 1 and group_of(naturals, jokers, named) is not None:
        if suit_jokers:
            rank = naturals[0] >> 2
            taken = {*naturals, *named}
            missing = [rank * 4 + s for s in range(4) if rank * 4 + s not in taken]
            for extra in combinations(missing, min(free, len(missing))):
                group = group_of(naturals, jokers, (*named, *extra))
                assert group is not None
                out.append(group)
        else:
            group = group_of(naturals, jokers)
            assert group is not None
            out.append(group)
    if sequences and naturals and len(naturals) + jokers >= 3:
        out.extend(_sequence_readings(naturals, named, free))
    return out


def _sequence_readings(naturals: Sequence[int], named: Sequence[int], free: int) -> list[Combo]:
    fixed = sorted((*naturals, *named))
    low, high = fixed[0] >> 2, fixed[-1] >> 2
    suit = fixed[0] & 3
    gaps = [r * 4 + suit for r in range(low, high + 1) if r * 4 + suit not in fixed]
    extra = free - len(gaps)
    out = []
    for above in range(extra, -1, -1):
        ends = [(high + i) * 4 + suit for i in range(1, above + 1)]
        ends += [(low - i) * 4 + suit for i in range(1, extra - above + 1)]
        seq = sequence_of(naturals, (*named, *gaps, *ends))
        if seq is not None:
            out.append(seq)
    return out


def parse_play(texts: Iterable[object]) -> tuple[tuple[int, ...], tuple[int, ...], int] | None:
    """The cards of a play as ``(naturals, named squares, free jokers)``, or ``None``.

    ``["5s", "JK=6s", "7s"]`` -> ``((12, 20), (16,), 0)``; a natural card twice is refused.
    """
    naturals: list[int] = []
    named: list[int] = []
    free = 0
    for t in texts:
        got = _parse_token(t) if isinstance(t, str) else None
        if got is None:
            return None
        card, square = got
        if card != JOKER:
            naturals.append(card)
        elif square is None:
            free += 1
        else:
            named.append(square)
    naturals.sort()
    if len(set(naturals)) != len(naturals) or len(set(named)) != len(named):
        return None
    return tuple(naturals), tuple(sorted(named)), free


def combo_from(
    texts: Iterable[object], *, suit_jokers: bool = False, sequences: bool = False
) -> list[Combo] | None:
    """The readings of a play's wire form (:func:`interpretations`), ``None`` if not cards."""
    parsed = parse_play(texts)
    if parsed is None:
        return None
    naturals, named, free = parsed
    return interpretations(naturals, named, free, suit_jokers=suit_jokers, sequences=sequences)


# --- the rules of Plays -------------------------------------------------------------------
def beats(
    combo: Combo,
    top: Combo,
    *,
    reverse: bool,
    returned: bool = False,
    lock: int = 0,
    spade3_return: bool = True,
) -> bool:
    """Whether ``combo`` may be played on the field whose top is ``top`` (rules: Plays).

    The same kind and number of cards, and stronger: groups by rank 3 < 4 < ... < A < 2
    (reversed when ``reverse``: a revolution or 11-back); a sequence must lie wholly above the
    top sequence (wholly below when reversed). A group of jokers only beats every natural group
    of its size and nothing beats it, except that the single 3 of spades beats a single joker
    (spade-3 return); after that return (``returned``) nothing beats the 3. Under a suit lock
    (``lock``: a suit set) a play needs exactly those suits; joker-only groups are exempt.
    """
    if returned or combo.kind != top.kind or combo.size != top.size:
        return False
    if top.rank == JOKER_RANK:
        return spade3_return and combo.size == 1 and combo.cards == 1 << SPADE3
    if combo.rank == JOKER_RANK:
        return True
    if lock and combo.suits != lock:
        return False
    if combo.kind == GROUP:
        return combo.rank < top.rank if reverse else combo.rank > top.rank
    return combo.high < top.rank if reverse else combo.rank > top.high


def is_spade3_return(combo: Combo, top: Combo | None) -> bool:
    """Whether ``combo`` is the single 3 of spades answering a single joker (スペ3返し)."""
    return (
        top is not None
        and top.rank == JOKER_RANK
        and top.size == 1
        and combo.size == 1
        and combo.cards == 1 << SPADE3
    )


def locks(combo: Combo, top: Combo | None) -> bool:
    """Whether ``combo`` played on ``top`` locks the suits (縛り): the same suit set again."""
    return top is not None and combo.suits != 0 and combo.suits == top.suits


# --- listing the combinations of a hand -------------------------------------------------------
_COMBOS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {
    (n, k): tuple(combinations(range(n), k)) for n in range(5) for k in range(5)
}


def groups(hand: int, max_size: int = 6, *, suit_jokers: bool = False) -> list[Combo]:
    """Every distinct group in the card set ``hand``, in the engine's order.

    Rank by rank, weakest first: by size, then by number of jokers, then the naturals in suit
    order; the groups of jokers only come last. Jokers are interchangeable, so a group names how
    many jokers it uses, not which. With ``suit_jokers`` (the suit lock is played) each joker
    also names a missing suit of the rank while one is left, every choice a group of its own
    (♠ ♥ ♦ ♣ order); a joker may stand for a card the hand keeps.
    """
    jokers = jokers_in(hand)
    out: list[Combo] = []
    for rank in range(13):
        naturals = [rank * 4 + s for s in range(4) if hand >> (rank * 4 + s) & 1]
        nn = len(naturals)
        if not nn:
            continue
        for size in range(1, min(max_size, nn + jokers) + 1):
            for jk in range(max(0, size - nn), min(jokers, size - 1) + 1):
                for idx in _COMBOS[nn, size - jk]:
                    chosen = [naturals[x] for x in idx]
                    if not suit_jokers or not jk:
                        out.append(_group(chosen, jk, ()))
                        continue
                    missing = [rank * 4 + s for s in range(4) if rank * 4 + s not in chosen]
                    for squares in combinations(missing, min(jk, len(missing))):
                        out.append(_group(chosen, jk, squares))
    for jk in range(1, min(jokers, max_size) + 1):
        out.append(Combo(GROUP, JOKER_RANK, jk, JOKER_BITS[jk], 0))
    return out


def _group(naturals: Sequence[int], jokers: int, squares: Sequence[int]) -> Combo:
    group = group_of(naturals, jokers, squares)
    assert group is not None
    return group


def suit_sequences(ranks: int, suit: int, jokers: int) -> list[Combo]:
    """Every sequence of one suit: ``ranks`` is the 13-bit set of that suit's ranks held.

    By lowest rank (from -1: a joker just below 3), then by size (3 and up, to rank 13: a joker
    just above 2), then by how many held cards a joker replaces (none first), then which. A
    joker may stand for a card the hand keeps, so those are sequences of their own.
    """
    out: list[Combo] = []
    for low in range(-1, 12):
        for high in range(low + 2, 14):
            run = range(low, high + 1)
            held = [r * 4 + suit for r in run if 0 <= r <= 12 and ranks >> r & 1]
            gaps = [r * 4 + suit for r in run if r * 4 + suit not in held]
            if len(gaps) > jokers:
                break  # a longer run only has more gaps
            for extra in range(min(jokers - len(gaps), len(held) - 1) + 1):
                for replaced in combinations(held, extra):
                    naturals = [c for c in held if c not in replaced]
                    seq = sequence_of(naturals, (*gaps, *replaced))
                    assert seq is not None
                    out.append(seq)
    return out


def sequences(hand: int) -> list[Combo]:
    """Every sequence in the card set ``hand``, suit by suit (♠ ♥ ♦ ♣).

    Each suit's as :func:`suit_sequences` lists them.
    """
    jokers = jokers_in(hand)
    out: list[Combo] = []
    for suit in range(4):
        ranks = sum(1 << r for r in range(13) if hand >> (r * 4 + suit) & 1)
        out += suit_sequences(ranks, suit, jokers)
    return out


def combos(
    hand: int, max_group: int = 6, *, suit_jokers: bool = False, seqs: bool = False
) -> list[Combo]:
    """Every combination in ``hand``: :func:`groups`, then (with ``seqs``) :func:`sequences`."""
    out = groups(hand, max_group, suit_jokers=suit_jokers)
    if seqs:
        out += sequences(hand)
    return out


def can_follow(
    cards: Sequence[str],
    top: Sequence[str] | None,
    *,
    revolution: bool = False,
    returned: bool = False,
    spade3_return: bool = True,
    locked: bool = False,
    sequences: bool = False,
) -> bool:
    """Whether ``cards`` may be played on the field whose top play is ``top``.

    This is the check the source's host offered its clients ("can I play this on that"), as a
    pure function on wire strings so that a client can run it locally (rules: Plays):

    - ``cards`` must be a group (1-6 cards whose natural cards share one rank; jokers are wild)
      or, with ``sequences``, a sequence (3+ consecutive ranks of one suit; ``JK=6s`` names a
      joker's square);
    - on an empty field (``top`` is ``None`` or empty) any such play may be played;
    - otherwise it needs the same kind and as many cards as ``top`` and must be stronger:
      natural ranks 3 < 4 < ... < K < A < 2, reversed when ``revolution`` (pass
      ``revolution != back`` under 11-back); a sequence must lie wholly above the top one; a
      group of jokers only beats any natural group of its size and is beaten by nothing, except
      that the single ``3s`` beats a single ``JK`` (spade-3 return, if ``spade3_return``); after
      that return (``returned``: the view's ``layout.returned``) nothing beats the ``3s``; when
      ``locked`` (the view's ``lock``), the play must have the top's suits.

    It does not check that the cards are in the player's hand.
    """
    mine = combo_from(cards, suit_jokers=locked, sequences=sequences)
    if not mine or any(c.kind == GROUP and c.size > 6 for c in mine):
        return False
    if not top:
        return True
    theirs = combo_from(top, suit_jokers=locked, sequences=sequences)
    if not theirs:
        return False
    t = theirs[0]
    lock = t.suits if locked else 0
    return any(
        beats(
            c,
            t,
            reverse=revolution,
            returned=returned,
            lock=lock,
            spade3_return=spade3_return,
        )
        for c in mine
    )


# --- the exchange ---------------------------------------------------------------------------
def strongest(hand: Sequence[int], count: int) -> tuple[int, ...]:
    """The ``count`` strongest cards (jokers first), the host's choice for a tribute.

    Ties of rank are broken toward the higher suit code, so the choice is deterministic.
    """
    return tuple(sorted(sorted(hand)[len(hand) - count :]))


def strongest_spades_first(hand: Sequence[int], count: int) -> tuple[int, ...]:
    """The ``count`` strongest cards as the UECda server picks them for the host.

    Its tribute and its replacement of a broken return: jokers first, then from the highest
    rank down, and within a rank ♠ ♥ ♦ ♣ (rules: Exchange, UECda).
    """
    ordered = sorted(hand, key=lambda c: (c != JOKER, -rank_of(c), c & 3))
    return tuple(sorted(ordered[:count]))


def weakest(hand: Sequence[int], count: int) -> tuple[int, ...]:
    """The ``count`` weakest cards (lowest codes), the host's choice for a gift."""
    return tuple(sorted(hand)[:count])


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


def without(hand: Sequence[int], cards: Sequence[int]) -> tuple[int, ...]:
    """The multiset ``hand`` without the multiset ``cards`` (which it must contain)."""
    out = list(hand)
    for c in cards:
        out.remove(c)
    return tuple(out)


def is_honest_tribute(hand: Sequence[int], given: Sequence[int]) -> bool:
    """Whether ``given`` (held in ``hand``) are strongest cards: no kept card outranks one given.

    Strength is the normal order with jokers strongest; ties of rank are free (rules: Exchange).
    """
    kept = without(hand, given)
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


def subsets(hand: Sequence[int], count: int) -> Iterator[tuple[int, ...]]:
    """The distinct multisets of ``count`` cards from ``hand``, lazily, in sorted order."""
    seen: set[tuple[int, ...]] = set()
    for combo in combinations(sorted(hand), count):
        if combo not in seen:
            seen.add(combo)
            yield combo
