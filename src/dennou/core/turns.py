"""What a decision's legal actions look like on the wire: listed, counted, described, sampled.

The host's ``turn`` message and the engine bridge's ``turn`` line (``docs/protocol.md``) carry
the same fields, made here: a program reads one format wherever it plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dennou.core.actions import Action, Concat, LazyActions
from dennou.core.game import Game

LIST_LEGAL_UP_TO = 300
"""Legal actions are listed in a ``turn`` up to this many; beyond, a sample of them."""

SAMPLE = 20
"""Legal actions sampled in a ``turn`` that does not list them all."""

LegalParts = tuple[
    list[dict[str, Any]] | None, int, dict[str, Any] | None, list[dict[str, Any]] | None
]
"""``(legal, legal_count, legal_description, legal_sample)`` of a turn."""


def legal_parts(
    game: Game[Any, Any], legal: Sequence[Action], version: int, seat: int
) -> LegalParts:
    """The legal actions of a turn: listed (at most :data:`LIST_LEGAL_UP_TO`) or sampled.

    Returns:
        The actions listed (or ``None``), their count, the game's description of them (or
        ``None``) and, when they are not listed, :data:`SAMPLE` of them.
    """
    description, also = describe_legal(game, legal)
    listed: list[dict[str, Any]] | None = None
    sample: list[dict[str, Any]] | None = None
    if len(legal) <= LIST_LEGAL_UP_TO:
        listed = [game.dump_action(a) for a in legal]
    else:
        # the few actions outside the described forms (a pass, a random guess) are always in
        # the sample: a client that reads only the sample must still see that it may pass
        # (they replace the first stretches' picks, keeping SAMPLE in all)
        drawn = [i for i in sample_indices(len(legal), version, seat) if i not in also]
        keep = max(0, SAMPLE - len(also))
        indices = sorted([*also, *drawn[len(drawn) - keep :]]) if keep else sorted(also)
        sample = [game.dump_action(legal[i]) for i in indices]
    return listed, len(legal), description, sample


def describe_legal(
    game: Game[Any, Any], legal: Sequence[Action]
) -> tuple[dict[str, Any] | None, list[int]]:
    """The ``legal_description`` of a legal-action space, and where its listed actions are.

    A lazy space describes itself. A concatenation (a pass and the doubt amounts; Star Hi-Lo's
    random guess, guesses and checks) is described by its first lazy part's description, with
    ``forms``: every lazy part's, when there are several, and ``also``: the actions of its listed
    parts. Returns the description (``None``: the game gives none) and the indices in ``legal``
    of the ``also`` actions.
    """
    if isinstance(legal, LazyActions):
        return legal.description or None, []
    if not isinstance(legal, Concat):
        return None, []
    forms: list[dict[str, Any]] = []
    also: list[dict[str, Any]] = []
    at: list[int] = []
    start = 0
    for part in legal.parts:
        if isinstance(part, LazyActions):
            if part.description:
                forms.append(part.description)
        elif len(part) <= SAMPLE:
            also.extend(game.dump_action(a) for a in part)
            at.extend(range(start, start + len(part)))
        start += len(part)
    if not forms:
        return None, []
    out = dict(forms[0])
    if len(forms) > 1:
        out["forms"] = forms
    if also:
        out["also"] = also
    return out, at


def sample_indices(count: int, version: int, seat: int) -> list[int]:
    """:data:`SAMPLE` distinct indices of ``range(count)`` in order, different at each turn.

    One index from each of :data:`SAMPLE` equal stretches of the range (so the sample spans
    the whole space), drawn by a 64-bit linear congruential generator seeded by the version
    and seat: a few microseconds, where a seeded :class:`random.Random` costs ten. Deterministic,
    so a turn sent again lists the same sample.
    """
    k = min(SAMPLE, count)
    state = (version * 1_000_003 + seat) * 0x9E3779B97F4A7C15 & _MASK64
    out = []
    for i in range(k):
        state = (state * 6364136223846793005 + 1442695040888963407) & _MASK64
        low, high = i * count // k, (i + 1) * count // k
        out.append(low + (state >> 33) % (high - low))
    return out


_MASK64 = (1 << 64) - 1
