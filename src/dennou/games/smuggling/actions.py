"""Smuggling Game actions (JSON tag = the text form's first word).

Amounts are integers in yen. People may type them with a suffix: ``3000万``, ``1.5億``, ``30M``,
``30m`` or with separators (``30,000,000``), in full-width characters too, and the action words
in Japanese: ``ダウト 5000万``, ``パス``, ``指名 3``, ``トランク 3000万``, ``準備完了``.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal, InvalidOperation
from typing import Any

from dennou.core.actions import Action, ActionCodec
from dennou.core.errors import InvalidActionError


class Nominate(Action, frozen=True, tag="nominate"):
    """Nominate a teammate (by seat) as the team's representative (``nominate 3``)."""

    seat: int


class Trunk(Action, frozen=True, tag="trunk"):
    """The smuggler seals ``amount`` yen in the trunk (``trunk 30000000``)."""

    amount: int


class Ready(Action, frozen=True, tag="ready"):
    """The smuggler has said all they will say in the inspection room."""


class Pass(Action, frozen=True, tag="pass"):
    """The inspector lets the trunk through."""


class Doubt(Action, frozen=True, tag="doubt"):
    """The inspector doubts: 'the trunk holds at most ``amount`` yen' (``doubt 50000000``)."""

    amount: int


ALIASES = {
    "ダウト": "doubt",
    "パス": "pass",
    "指名": "nominate",
    "トランク": "trunk",
    "準備完了": "ready",
}
"""Japanese action words people may type (``ダウト 5000万``, ``パス``, ``指名 3``)."""

CODEC = ActionCodec(Nominate, Trunk, Ready, Pass, Doubt)
"""Parses and dumps Smuggling Game actions."""

_SUFFIX = {
    "": 1,
    "円": 1,
    "万": 10_000,
    "万円": 10_000,
    "億": 100_000_000,
    "億円": 100_000_000,
    "k": 1_000,
    "m": 1_000_000,
}
_AMOUNT = re.compile(r"^([0-9][0-9_,]*(?:\.[0-9]+)?)\s*(円|万円|万|億円|億|k|m)?$", re.IGNORECASE)


def parse_amount(text: str) -> int:
    """Read an amount of yen: ``30000000``, ``30,000,000``, ``3000万``, ``0.3億``, ``30M``.

    Raises:
        InvalidActionError: Not an amount, or not a whole number of yen.
    """
    match = _AMOUNT.match(text.strip())
    if match is None:
        raise InvalidActionError(f"{text!r} is not an amount (e.g. 30000000, 3000万, 30M)")
    number, suffix = match.group(1).replace(",", "").replace("_", ""), (match.group(2) or "")
    try:
        value = Decimal(number) * _SUFFIX[suffix.lower()]
    except InvalidOperation:
        raise InvalidActionError(f"{text!r} is not an amount") from None
    if value != value.to_integral_value():
        raise InvalidActionError(f"{text!r} is not a whole number of yen")
    return int(value)


def parse(data: Any) -> Action:
    """Parse an action; the text form also takes amounts with suffixes (``doubt 5000万``).

    Raises:
        InvalidActionError: Not an action of this game.
    """
    if isinstance(data, str) and not data.strip().startswith("{"):
        data = unicodedata.normalize("NFKC", data)  # full-width ｄｏｕｂｔ　５０００万 too
        words = data.split()
        if words and words[0] in ALIASES:
            words[0] = ALIASES[words[0]]
            data = " ".join(words)
        if len(words) == 2 and words[0].lower() in ("trunk", "doubt") and _AMOUNT.match(words[1]):
            return CODEC.parse_text(f"{words[0]} {parse_amount(words[1])}")
    return CODEC.parse(data)
