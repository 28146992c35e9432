"""Text people type: account names and talk lines, normalised before anyone else sees them."""

from __future__ import annotations

import re
import unicodedata

from dennou.server.errors import Refused

NAME = re.compile(r"[A-Za-z0-9_.\-]{1,32}")
"""Account names: letters, digits, ``_ . -``; 1-32 characters (matched whole)."""

MAX_TALK = 500
"""Longest talk line, in characters (after cleaning)."""

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Bidirectional formatting characters: they can make a line read as something else."""

_SPACES = re.compile(r"\s+")


def account_name(raw: str) -> str:
    """An account name as stored: NFKC-normalised (full-width letters become ASCII) and checked.

    Names are compared exactly; the store refuses a name that differs from a taken one only in
    case (``ALICE`` after ``alice``).

    Raises:
        Refused: ``bad_message`` for anything but 1-32 of ``A-Z a-z 0-9 _ . -`` (a trailing
            newline included).
    """
    name = unicodedata.normalize("NFKC", raw)
    if not NAME.fullmatch(name):
        raise Refused("bad_message", "a name has 1-32 letters, digits, '_', '.' or '-'")
    return name


def clean_talk(text: str) -> str:
    """A talk line as it is stored and shown.

    NFC-normalised, on one line, without control characters or bidirectional overrides, spaces
    collapsed.

    Raises:
        Refused: ``bad_message`` for a line that is empty once cleaned or longer than
            :data:`MAX_TALK` characters.
    """
    text = unicodedata.normalize("NFC", text)
    kept = []
    for ch in text:
        if ch in _BIDI:
            continue
        category = unicodedata.category(ch)
        if category == "Cc" or category == "Cs":  # controls (NUL, newlines...), surrogates
            kept.append(" " if ch in "\n\r\t\v\f" else "")
            continue
        kept.append(ch)
    line = _SPACES.sub(" ", "".join(kept)).strip()
    if not line:
        raise Refused("bad_message", "a talk line needs some text")
    if len(line) > MAX_TALK:
        raise Refused("bad_message", f"a talk line has at most {MAX_TALK} characters")
    return line


__all__ = ["MAX_TALK", "NAME", "account_name", "clean_talk"]
