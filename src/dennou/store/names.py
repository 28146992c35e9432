"""How the store tells account names apart: case-folded keys and confusable skeletons.

The host's rules for names (:mod:`dennou.server.text`) build on these; the store keeps both in
its unique columns.
"""

from __future__ import annotations

import functools
import unicodedata

__all__ = ["name_key", "name_skeletons"]


def name_key(name: str) -> str:
    """The case-folded name: no two accounts share one (``ALICE`` and ``alice`` are one)."""
    return name.casefold()


def name_skeletons(name: str) -> tuple[str, str]:
    """The confusable skeletons of a name: names that look alike share one of them.

    Unicode TR39's skeleton (NFD, each character replaced by the prototype of its confusable
    class, NFD again) of the case-folded name (TR39's form for names compared without regard
    to case: ``ALICE`` and ``аlice`` meet) and of the name as written (names are shown as
    written: ``Il`` and ``ll`` meet). The classes come from the Unicode confusables data that
    ``confusable-homoglyphs`` ships.
    """
    name = unicodedata.normalize("NFKC", name)
    return _skeleton(name.casefold()), _skeleton(name)


def _skeleton(text: str) -> str:
    table = _prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype: one fixed member of its confusable class.

    The data lists, per character, the characters it is confusable with. Characters linked by
    one-character entries form a class whose prototype is its lowest code point; a character
    whose only entries are sequences (``m`` and ``rn``) maps to the first sequence.
    """
    from confusable_homoglyphs.confusables import confusables_data

    parent: dict[str, str] = {}

    def find(ch: str) -> str:
        root = ch
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(ch, ch) != root:  # path compression
            parent[ch], ch = root, parent[ch]
        return root

    sequences: dict[str, str] = {}
    for ch, likes in confusables_data.items():
        if len(ch) != 1:
            continue
        singles = [like["c"] for like in likes if len(like["c"]) == 1]
        for other in singles:
            a, b = find(ch), find(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
        if not singles and likes:
            sequences[ch] = likes[0]["c"]
    table = {ch: find(ch) for ch in parent}
    for ch, seq in sequences.items():
        table[ch] = "".join(table.get(c, c) for c in seq)
    return {ch: proto for ch, proto in table.items() if proto != ch}
