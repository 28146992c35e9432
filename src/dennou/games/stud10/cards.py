"""Cards of a 52-card deck: text form (``As``, ``Td``, ``2c``) and integer codes 0..51.

A card's code is ``rank * 4 + suit`` with ranks ``2..A`` as 0..12 and suits ``c d h s`` as 0..3
(the encoding ``phevaluator`` also uses), so ``2c`` is 0, ``2d`` 1, ``3c`` 4 and ``As`` 51. Suits
never rank in poker; their order here only fixes the codes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

RANKS = "23456789TJQKA"
"""Rank characters from the deuce (0) to the ace (12)."""

SUITS = "cdhs"
"""Suit characters: clubs, diamonds, hearts, spades (0..3)."""

DECK: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
"""Every card's text, indexed by code."""

CODE: dict[str, int] = {text: i for i, text in enumerate(DECK)}
"""Canonical text (``As``) -> code; actions and views use exactly these texts."""

_CODE: dict[str, int] = {}
for _i, _c in enumerate(DECK):
    _CODE[_c] = _i
    _CODE[_c.lower()] = _i
    _CODE[_c[0] + _c[1].upper()] = _i
    _CODE[_c.upper()] = _i
for _r, _alt in (("T", "10"),):
    for _s in SUITS:
        _CODE[_alt + _s] = _CODE[_r + _s]
        _CODE[_alt + _s.upper()] = _CODE[_r + _s]


def card_code(text: str) -> int:
    """The code (0..51) of a card written ``As``, ``td``, ``10h``...

    Raises:
        ValueError: Not a card.
    """
    code = _CODE.get(text.strip()) if isinstance(text, str) else None
    if code is None:
        raise ValueError(f"not a card: {text!r} (write rank 2-9 T J Q K A then suit c d h s)")
    return code


def card_text(code: int) -> str:
    """The text (``As``) of a card code.

    Raises:
        ValueError: Not a code in 0..51.
    """
    if not 0 <= code < 52:
        raise ValueError(f"not a card code: {code}")
    return DECK[code]


def parse_cards(cards: str | Iterable[str | int]) -> list[int]:
    """Codes of cards given as ``"As Kd"``, ``["As", "Kd"]`` or codes; duplicates refused.

    Raises:
        ValueError: A card is malformed or repeated.
    """
    items: Iterable[str | int] = cards.split() if isinstance(cards, str) else cards
    out: list[int] = []
    for c in items:
        if isinstance(c, int) and not isinstance(c, bool):
            card_text(c)
            out.append(c)
        else:
            out.append(card_code(str(c)))
    if len(set(out)) != len(out):
        dup = sorted({DECK[c] for c in out if out.count(c) > 1})
        raise ValueError(f"a card appears twice: {', '.join(dup)}")
    return out


def texts(codes: Sequence[int]) -> list[str]:
    """Texts of card codes."""
    return [DECK[c] for c in codes]
