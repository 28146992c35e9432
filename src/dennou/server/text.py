"""Text people type: account names and talk lines, normalised before anyone else sees them."""

from __future__ import annotations

import functools
import re
import unicodedata

from dennou.core.talk import MAX_TALK
from dennou.server.errors import Refused
from dennou.store.names import name_key, name_skeletons

MAX_NAME = 32
"""Longest account name, in characters (after normalisation)."""

MAX_NAME_BYTES = 96
"""Longest account name, in UTF-8 bytes (32 kana or kanji fit)."""

MAX_SKELETON = 256
"""Longest confusable skeleton of a name (the store's column); a skeleton is longer than its
name where characters decompose or look like sequences (``m`` and ``rn``)."""

NAME_PUNCTUATION = frozenset("_.-")
"""The only characters of a name that are not letters, marks or digits."""

RESERVED_NAMES = frozenset(
    {
        "admin", "administrator", "anonymous", "bot", "dennou", "guest", "host", "me",
        "null", "none", "open", "operator", "root", "spectator", "system", "uecda",
    }
)  # fmt: skip
"""Names nobody may register (compared by their confusable skeleton): seat and role words.

Names with a ``:`` (``uecda:<name>``, ``bot:<spec>``) are impossible: ``:`` is not allowed."""

_JAPANESE = frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"})
_CHINESE = frozenset({"LATIN", "HAN", "BOPOMOFO"})
_KOREAN = frozenset({"LATIN", "HAN", "HANGUL"})
_NEUTRAL = frozenset({"COMMON", "INHERITED"})

_MAX_MARKS = 3
"""Combining marks in a row after one letter (enough for any script; stops stacked marks)."""

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Bidirectional formatting characters: they can make a line read as something else."""

_SPACES = re.compile(r"\s+")


def account_name(raw: str) -> str:
    """An account name as stored: NFKC-normalised and checked.

    A name is letters and digits of any script (combining marks included) and ``_ . -``,
    1-:data:`MAX_NAME` characters and at most :data:`MAX_NAME_BYTES` UTF-8 bytes; its letters
    come from one script, or from a script mix that one writing system uses (Japanese: Latin,
    Han, hiragana, katakana; Chinese: Latin, Han, bopomofo; Korean: Latin, Han, hangul), as
    Unicode TR39's "highly restrictive" level asks. Names are compared exactly; the store
    refuses a name whose :func:`name_key` or either of its :func:`name_skeletons` is a taken
    name's (``ALICE`` after ``alice``, Cyrillic ``аре`` after Latin ``ape``, ``Il`` after
    ``ll``).

    Raises:
        Refused: ``bad_message`` for anything else (a control, space, bidirectional or other
            format character, a trailing newline included; mixed scripts; a reserved name).
    """
    from confusable_homoglyphs import categories

    name = unicodedata.normalize("NFKC", raw)
    if not 1 <= len(name) <= MAX_NAME or len(name.encode()) > MAX_NAME_BYTES:
        raise Refused(
            "bad_message",
            f"a name has 1-{MAX_NAME} characters and at most {MAX_NAME_BYTES} bytes (UTF-8)",
        )
    scripts = set()
    marks = 0
    for i, ch in enumerate(name):
        kind = unicodedata.category(ch)
        if kind[0] == "M" and kind != "Me":
            marks += 1
            if marks > _MAX_MARKS or i == 0:
                raise Refused("bad_message", "a combining mark belongs after a letter")
            continue
        marks = 0
        if kind[0] != "L" and kind != "Nd" and ch not in NAME_PUNCTUATION:
            raise Refused(
                "bad_message", "a name has letters, digits (any script), '_', '.' or '-' only"
            )
        scripts.add(categories.alias(ch))
    scripts -= _NEUTRAL
    if len(scripts) > 1 and not any(scripts <= mix for mix in (_JAPANESE, _CHINESE, _KOREAN)):
        raise Refused(
            "bad_message",
            f"a name's letters come from one script (this one mixes {', '.join(sorted(scripts))})",
        )
    if len(name.casefold()) > 2 * MAX_NAME:
        raise Refused("bad_message", "a name this long cannot be compared without regard to case")
    skeletons = name_skeletons(name)
    if max(len(skeleton) for skeleton in skeletons) > MAX_SKELETON:
        raise Refused("bad_message", "a name this long cannot be compared by look")
    if not _reserved_skeletons().isdisjoint(skeletons):
        raise Refused("bad_message", f"the name {name!r} is reserved")
    return name


@functools.cache
def _reserved_skeletons() -> frozenset[str]:
    return frozenset(skeleton for n in RESERVED_NAMES for skeleton in name_skeletons(n))


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


__all__ = [
    "MAX_NAME",
    "MAX_NAME_BYTES",
    "MAX_SKELETON",
    "MAX_TALK",
    "RESERVED_NAMES",
    "account_name",
    "clean_talk",
    "name_key",
    "name_skeletons",
]
