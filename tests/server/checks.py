"""Checks shared by the wire tests: what a client saw against a replay of the stored record."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from dennou.client import GameResult
from dennou.core import record as rec
from dennou.core.game import Game
from dennou.core.jsondata import to_json
from dennou.games import REGISTRY


def check_seen_against_replay(record: rec.Record, result: GameResult) -> None:
    """Every event the client saw is the replay's, filtered for its seat, at the same version;
    no version is missing or seen twice."""
    game = REGISTRY[record.game]
    frames = list(rec.replay(record, game))
    seen: list[int] = []
    for msg in result.messages:
        if msg["type"] != "event":
            continue
        version = msg["version"]
        seen.append(version)
        expected = [
            {"kind": e.kind, "text": e.text, "data": to_json(e.data)}
            for e in frames[version].events
            if e.visible_to(result.seat)
        ]
        got = [
            {"kind": e["kind"], "text": e["text"], "data": e.get("data", {})} for e in msg["events"]
        ]
        assert got == expected, f"version {version}"
    assert seen == list(range(seen[0], len(record.steps) + 1)), "versions skipped or repeated"


def check_view(game: Game[Any, Any], view: dict[str, Any], seat: int | None, seed: int) -> None:
    """The leak property on a view that came over the wire: a determinization sampled from the
    view alone shows exactly the same view (so the view holds nothing the seat may not know)."""
    view = json.loads(json.dumps(view))
    state = game.determinize(view, seat, random.Random(seed))
    assert json.loads(json.dumps(game.view(state, seat))) == view


def check_turn(game: Game[Any, Any], turn: dict[str, Any], seed: int) -> None:
    """A turn's view passes :func:`check_view` and its legal actions follow from the view."""
    seat = turn["seat"]
    check_view(game, turn["view"], seat, seed)
    state = game.determinize(turn["view"], seat, random.Random(seed))
    legal = game.legal_actions(state, seat)
    assert turn["legal_count"] == len(legal)
    # docs/protocol.md §3: at most 300 legal actions are always listed (Daifugo's exchange too)
    assert (turn["legal"] is not None) == (len(legal) <= 300), turn["legal_count"]
    assert (turn["legal_sample"] is None) == (turn["legal"] is not None)
    if turn["legal"] is not None:
        assert turn["legal"] == [game.dump_action(a) for a in legal]
    else:
        for action in turn["legal_sample"]:
            assert game.parse_action(action) in legal


def quick_rules(game_name: str) -> dict[str, Any]:
    """The game's first conformance config: rules chosen so that a whole game is short."""
    return to_json(REGISTRY[game_name].conformance_rules()[0])  # type: ignore[no-any-return]


ID_KEYS = frozenset({"id", "table"})
ID_MIN = 8
"""Strings of at least ``ID_MIN`` characters under ``ID_KEYS`` are random ids (a table's is
``t`` and 12 hex digits)."""


def texts_sent(value: object) -> list[str]:
    """Every string a client was sent, but not the legal-move samples, numbers or ids.

    A digit run can turn up by chance in a timestamp (a deadline of 1795498798.3 holds "987"),
    among the sampled legal calls or in a random id (table ``t1236e2e9cac6`` holds "123"),
    none of which tells anything: ids are taken out of every string they appear in.
    """
    pairs = list(_strings(value))
    # a short one (a client's own request id) could take digits out of every string
    ids = {text for key, text in pairs if key in ID_KEYS and len(text) >= ID_MIN}
    out = []
    for _, text in pairs:
        if text in ids:
            continue
        for found in ids:
            text = text.replace(found, "")
        out.append(text)
    return out


def _strings(value: object, key: str = "") -> Iterator[tuple[str, str]]:
    """``(key, string)`` for every string in ``value`` (under its nearest key), legal samples
    left out."""
    if key in ("legal", "legal_sample"):
        return
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, str(k))
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
