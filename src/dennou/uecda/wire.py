"""Protocol 20070 on the wire: tables, ints, exact reads, and what the tables say in dennou terms.

Every message is one big-endian 32-bit int or one **table**, ``int32[8][15]`` row-major (480
bytes, each value big-endian). Rows 0-3 are the suits ♠ ♥ ♦ ♣, columns 1-13 the ranks
3 4 5 6 7 8 9 10 J Q K A 2; columns 0 and 14 are the squares a joker may take below 3 and above
2 in a sequence. In a hand 1 = holds the card and ``[4][1] = 2`` = holds the joker; in a play
1 = a natural card and 2 = the joker standing for that square. Rows 5 and 6 carry the state
(docs/games/daifugo.md, "UECda": every cell). Cards here are Daifugo's wire strings (``"5s"``,
``"JK=6s"``, ``"JK"``; :mod:`dennou.games.daifugo.cards`); views are Daifugo views.

Everything here is pure (no sockets) except :func:`read_exact`, which bounds a read by size and
time.
"""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from dennou.games.daifugo import cards as C
from dennou.uecda import DEFAULT_PORT as DEFAULT_PORT
from dennou.uecda import PROTOCOL as PROTOCOL

ROWS, COLUMNS = 8, 15
TABLE_BYTES = ROWS * COLUMNS * 4
"""Bytes of one table (480)."""
INT_BYTES = 4

ACCEPTED, REJECTED = 9, 8
"""The answer to a play: accepted, or rejected (it counts as a pass)."""

GO_ON, GAME_OVER, ALL_OVER = 0, 1, 2
"""After every play: the game goes on, this game is over, every game is over."""

NOBODY = 6
"""``[5][3]`` (the player to move) of the hand table at a game's start, as tndhms sends it."""

NAME_LENGTH = 14
"""Characters of a name the server keeps (row 1, columns 0-13)."""

PLAYERS = 5

CLASSES: dict[str, int] = {"daifugo": 0, "fugo": 1, "heimin": 2, "hinmin": 3, "daihinmin": 4}
"""UECda's class numbers (row 6, columns 5-9) by Daifugo title."""
TITLES = {number: title for title, number in CLASSES.items()}

Table = list[list[int]]
"""A table: 8 rows of 15 ints."""

_FORMAT = struct.Struct(">120i")
_INT = struct.Struct(">i")


class BadTable(ValueError):
    """A table that is not a well-formed hand, play or profile (the message says why)."""


# --- messages ---------------------------------------------------------------------------------
def empty_table() -> Table:
    """A table of zeros."""
    return [[0] * COLUMNS for _ in range(ROWS)]


def encode_table(table: Table) -> bytes:
    """The 480 bytes of a table (negative values are sent as 0, as tndhms does)."""
    return _FORMAT.pack(*(v if v > 0 else 0 for row in table for v in row))


def decode_table(data: bytes) -> Table:
    """A table from its 480 bytes (values read as signed 32-bit ints)."""
    if len(data) != TABLE_BYTES:
        raise BadTable(f"a table is {TABLE_BYTES} bytes, got {len(data)}")
    flat = _FORMAT.unpack(data)
    return [list(flat[r * COLUMNS : (r + 1) * COLUMNS]) for r in range(ROWS)]


def encode_int(value: int) -> bytes:
    """The 4 bytes of one int."""
    return _INT.pack(value if value > 0 else 0)


def decode_int(data: bytes) -> int:
    """One int from its 4 bytes."""
    if len(data) != INT_BYTES:
        raise BadTable(f"an int is {INT_BYTES} bytes, got {len(data)}")
    return int(_INT.unpack(data)[0])


async def read_exact(reader: asyncio.StreamReader, size: int, timeout: float | None) -> bytes:
    """Exactly ``size`` bytes, within ``timeout`` seconds (``None``: no time limit).

    Raises:
        TimeoutError: They did not all arrive in time.
        asyncio.IncompleteReadError: The peer closed first.
    """
    return await asyncio.wait_for(reader.readexactly(size), timeout)


# --- the profile ------------------------------------------------------------------------------
def profile_table(name: str, protocol: int = PROTOCOL) -> Table:
    """The table a client opens with: the protocol in ``[0][0]``, its name in row 1."""
    table = empty_table()
    table[0][0] = protocol
    for i, ch in enumerate(name.encode("ascii", "replace")[:NAME_LENGTH]):
        table[1][i] = ch
    return table


def read_profile(table: Table) -> tuple[int, str]:
    """The protocol and the name of a profile table.

    The name is row 1 up to the first 0 (at most 14 characters); characters other than
    letters, digits, ``_ . -`` become ``_``, so that a name is safe to show and store.
    """
    chars = []
    for value in table[1][:NAME_LENGTH]:
        if value == 0:
            break
        ch = chr(value & 0xFF)
        chars.append(ch if ch.isascii() and (ch.isalnum() or ch in "_.-") else "_")
    return table[0][0], "".join(chars)


# --- cards ------------------------------------------------------------------------------------
def _cell(square: int) -> tuple[int, int]:
    """The (row, column) of a card or a joker's square (ranks -1..13 → columns 0..14)."""
    return square & 3, (square >> 2) + 1


def _square(row: int, column: int) -> int:
    return (column - 1) * 4 + row


def hand_table(cards: Iterable[str]) -> Table:
    """A hand as a table: naturals 1, a joker ``[4][1] = 2``."""
    table = empty_table()
    for text in cards:
        code = C.parse_card(text)
        if code is None:
            raise BadTable(f"not a card: {text!r}")
        if code == C.JOKER:
            table[4][1] = 2
        else:
            row, column = _cell(code)
            table[row][column] = 1
    return table


def _check_cells(table: Table) -> None:
    """The checks every card table passes (rows 0-4): tndhms's ``count_card_num``."""
    if len(table) != ROWS or any(len(row) != COLUMNS for row in table):
        raise BadTable("a table is 8 rows of 15 values")
    jokers = 0
    for r in range(5):
        for c, value in enumerate(table[r]):
            if value == 0:
                continue
            if value == 1:
                if r == 4 or c in (0, COLUMNS - 1):
                    raise BadTable(f"a natural card at [{r}][{c}], where no card is")
            elif value == 2:
                jokers += 1
            else:
                raise BadTable(f"[{r}][{c}] = {value}: a card cell is 0, 1 or 2")
    if jokers > 1:
        raise BadTable(f"{jokers} jokers: the deck has one")


def cards_of_table(table: Table) -> list[str]:
    """The cards a table holds (a hand, or the cards given in the exchange); a 2 is the joker.

    Raises:
        BadTable: A value other than 0, 1, 2; a natural card outside the card squares; two
            jokers.
    """
    _check_cells(table)
    out = []
    joker = False
    for r in range(5):
        for c, value in enumerate(table[r]):
            if value == 1:
                out.append(C.card_str(_square(r, c)))
            elif value == 2:
                joker = True
    return [*out, "JK"] if joker else out


def play_table(cards: Sequence[str], *, reverse: bool = False) -> Table:
    """A play (Daifugo wire strings, a joker with its square) as a table; ``[]`` is a pass.

    A lone joker goes to ``[0][14]`` (``[0][0]`` while the order is reversed), where clients
    look for the strongest (weakest) card; the joker of a group of five (four naturals and the
    joker) goes to row 4 in their column, as tndhms reads it.

    Raises:
        BadTable: Not cards.
    """
    table = empty_table()
    parsed = C.parse_play(cards)
    if parsed is None:
        raise BadTable(f"not a play: {list(cards)}")
    naturals, named, free = parsed
    for code in naturals:
        row, column = _cell(code)
        table[row][column] = 1
    for square in named:
        row, column = _cell(square)
        table[row][column] = 2
    if free:
        if not naturals:
            table[0][0 if reverse else COLUMNS - 1] = 2
        else:
            table[4][(naturals[0] >> 2) + 1] = 2
    return table


def play_of_table(table: Table) -> list[str]:
    """The play a client submitted, as Daifugo wire strings (``[]``: a pass).

    A joker in rows 0-3 stands for its square (``JK=6s``, ``JK=Ls`` below 3, ``JK=Hs`` above
    2); alone, it is a lone joker (``JK``). In row 4 it is accepted alone or as the fifth card
    of a group of four (tndhms refuses it elsewhere). Whether the cards are held and make a
    legal play is the engine's to say.

    Raises:
        BadTable: What tndhms rejects before looking at the play: a value other than 0, 1, 2,
            a natural card outside the card squares, two jokers, a joker in row 4 with anything
            but a group of four.
    """
    _check_cells(table)
    naturals: list[int] = []
    joker: tuple[int, int] | None = None
    for r in range(5):
        for c, value in enumerate(table[r]):
            if value == 1:
                naturals.append(_square(r, c))
            elif value == 2:
                joker = (r, c)
    out = [C.card_str(code) for code in naturals]
    if joker is None:
        return out
    r, c = joker
    if not naturals:
        return ["JK"]
    if r == 4:
        columns = {code >> 2 for code in naturals}
        if len(naturals) != 4 or columns != {c - 1}:
            raise BadTable(f"a joker at [4][{c}] goes only with the four cards of its column")
        return [*out, "JK"]
    return [*out, "JK=" + C.square_str(_square(r, c))]


# --- the state rows ---------------------------------------------------------------------------
def classes(view: Mapping[str, Any], out: int | None = None) -> list[int]:
    """Row 6, columns 5-9: each player's class, as tndhms fills them (all 0 in the first game).

    tndhms keeps one list, class → player, from the last game's classes, and writes each
    player out this game over it as they go out (the first out over 大富豪's entry, and so on):
    the row is made from that list, so that during a game a player out takes the class of its
    place so far, and the player whose entry was written over is left with no class of its own
    (tndhms leaves that cell as the last table a client sent had it: 0 from clients that send
    only cards; 0 here). ``out``: a player who just went out and is not yet in
    ``view["finished"]``.
    """
    titles = view["titles"]
    if any(t is None for t in titles):
        return [0] * PLAYERS
    by_class = [0] * PLAYERS
    for player, title in enumerate(titles):
        by_class[CLASSES[title]] = player
    finished = list(view.get("finished") or ())
    if out is not None and out not in finished:
        finished.append(out)
    for place, player in enumerate(finished[:PLAYERS]):
        by_class[place] = player
    row = [0] * PLAYERS
    for cls, player in enumerate(by_class):
        row[player] = cls
    return row


def lock_flag(view: Mapping[str, Any]) -> int:
    """``[5][7]``: the suit lock, off while a lone joker tops the field (tndhms lifts it)."""
    layout = view["layout"]
    if layout is not None and all(C.parse_card(t) == C.JOKER for t in layout["cards"]):
        return 0
    return int(bool(view["lock"]))


def set_state(
    table: Table,
    *,
    turn: int,
    empty_field: bool,
    back: bool,
    revolution: bool,
    lock: int,
    counts: Sequence[int],
    classes: Sequence[int],
    me_on_turn: bool = False,
    exchange: tuple[int, int] = (0, 0),
) -> Table:
    """Fill rows 5 and 6 of ``table`` (returned).

    Row 5: ``[0]`` the exchange flag, ``[1]`` cards to give back, ``[2]`` your turn, ``[3]``
    the player to move, ``[4]`` the field is empty, ``[5]`` 11-back, ``[6]`` revolution, ``[7]``
    suit lock. Row 6: ``[0-4]`` cards held, ``[5-9]`` classes, ``[10-14]`` seat order (seat →
    player: dennou's seats are the player numbers, so ``0 1 2 3 4``).
    """
    row5 = table[5]
    row5[0], row5[1] = exchange
    row5[2] = int(me_on_turn)
    row5[3] = turn
    row5[4] = int(empty_field)
    row5[5] = int(back)
    row5[6] = int(revolution)
    row5[7] = lock
    row6 = table[6]
    for p in range(PLAYERS):
        row6[p] = counts[p]
        row6[5 + p] = classes[p]
        row6[10 + p] = p
    return table


def turn_table(view: Mapping[str, Any], seat: int) -> Table:
    """What every player receives at the start of each turn: its hand and the state."""
    turn = view["turn"]
    return set_state(
        hand_table(view["hand"]),
        turn=turn,
        empty_field=view["layout"] is None,
        back=view["back"],
        revolution=view["revolution"],
        lock=lock_flag(view),
        counts=view["counts"],
        classes=classes(view),
        me_on_turn=turn == seat,
    )


def gift_due(view: Mapping[str, Any], seat: int) -> int:
    """How many cards ``seat`` gives back in this game's exchange (0: none)."""
    for step in view["exchange"]:
        if step["giver"] == seat and step["kind"] == "gift" and not step["done"]:
            return int(step["count"])
    return 0


def deal_table(
    view: Mapping[str, Any], seat: int, hand: Sequence[str], counts: Sequence[int]
) -> Table:
    """The hand table at a game's start: ``[5][0] = 1``; ``[5][1]`` the cards to give back.

    ``hand`` is what tndhms sends: 大富豪 and 富豪 with the tribute already added, 大貧民 and 貧民
    their hands as dealt (before their tribute left); ``counts`` are the counts as dealt.
    """
    return set_state(
        hand_table(hand),
        turn=NOBODY,
        empty_field=False,
        back=False,
        revolution=False,
        lock=0,
        counts=counts,
        classes=classes(view),
        exchange=(1, gift_due(view, seat)),
    )


def field_table(
    cards: Sequence[str],
    *,
    actor: int,
    empty_field: bool,
    back: bool,
    revolution: bool,
    lock: int,
    counts: Sequence[int],
    classes: Sequence[int],
    reverse: bool,
) -> Table:
    """What everyone receives after each play: the field's top and the state.

    The top is the play just accepted, or after a pass the top before it; the state is as the
    play left it, before any flush.
    """
    return set_state(
        play_table(cards, reverse=reverse),
        turn=actor,
        empty_field=empty_field,
        back=back,
        revolution=revolution,
        lock=lock,
        counts=counts,
        classes=classes,
    )


__all__ = [
    "ACCEPTED",
    "ALL_OVER",
    "CLASSES",
    "DEFAULT_PORT",
    "GAME_OVER",
    "GO_ON",
    "INT_BYTES",
    "NOBODY",
    "PROTOCOL",
    "REJECTED",
    "TABLE_BYTES",
    "BadTable",
    "Table",
    "cards_of_table",
    "classes",
    "deal_table",
    "decode_int",
    "decode_table",
    "empty_table",
    "encode_int",
    "encode_table",
    "field_table",
    "gift_due",
    "hand_table",
    "lock_flag",
    "play_of_table",
    "play_table",
    "profile_table",
    "read_exact",
    "read_profile",
    "set_state",
    "turn_table",
]
