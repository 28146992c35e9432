"""The events of Daifugo's play phase and deal: one text and one data shape for every path.

The readable rules (:mod:`.engine`) and the kernel-held states (:mod:`.held`) both build their
events here, so an event reads the same whichever path made the transition. Events whose
fields repeat game after game (passes, flushes, leads, going out, plays) are shared immutable
objects, kept in bounded caches: an event is a frozen struct and its ``data`` is never changed
after it is made.
"""

from __future__ import annotations

from typing import Any

from dennou.core.game import JSON, Event
from dennou.games.daifugo import cards as C
from dennou.games.daifugo import fast as F
from dennou.games.daifugo.cards import Combo
from dennou.games.daifugo.rules import TITLE_KANJI, DaifugoRules

SUIT_SETS = {
    suits: "".join(C.SUIT_NAMES[s] for s in range(4) if suits >> s & 1) for suits in range(16)
}
"""The letters of each 4-bit suit set (``"sh"``), as the events and the messages spell it."""

_CACHE: dict[Any, Event] = {}


def _kept(key: Any, event: Event) -> Event:
    if len(_CACHE) > F.CACHE_MAX:
        _CACHE.clear()
    _CACHE[key] = event
    return event


def pass_event(name: str, seat: int, auto: bool) -> Event:
    """``seat`` passes; ``auto``: the host passed for it (no legal play)."""
    key = ("pass", name, seat, auto)
    got = _CACHE.get(key)
    if got is None:
        text = f"{name} passes (no legal play)" if auto else f"{name} passes"
        got = _kept(key, Event("pass", text, {"seat": seat, "auto": auto}))
    return got


def flush_event(why: str) -> Event:
    """The field flushes for ``why`` (``8-cut``, ``spade-3 return``, ``all passed``)."""
    key = ("flush", why)
    got = _CACHE.get(key)
    if got is None:
        got = _kept(key, Event("flush", f"the field flushes ({why})", {"reason": why}))
    return got


def lead_event(name: str, seat: int) -> Event:
    """``seat`` leads."""
    key = ("lead", name, seat)
    got = _CACHE.get(key)
    if got is None:
        got = _kept(key, Event("lead", f"{name} leads", {"seat": seat}))
    return got


def out_event(name: str, seat: int, place: int) -> Event:
    """``seat`` is out, ``place``-th."""
    key = ("out", name, seat, place)
    got = _CACHE.get(key)
    if got is None:
        got = _kept(key, Event("out", f"{name} is out (#{place})", {"seat": seat, "place": place}))
    return got


def fall_event(name: str, seat: int, hand: tuple[int, ...]) -> Event:
    """都落ち: ``seat`` (the last 大富豪) falls and its ``hand`` is discarded."""
    return Event(
        "fall",
        f"{name} was 大富豪 and is not first out: falls to 大貧民 "
        f"(都落ち); hand discarded: {C.cards_symbols(hand)}",
        {"seat": seat, "hand": C.cards_str(hand)},
    )


def play_event(
    rules: DaifugoRules,
    name: str,
    seat: int,
    combo: Combo,
    flags: int,
    lock: int,
) -> Event:
    """``seat`` plays ``combo``.

    Args:
        rules: The rules (which options the event speaks of).
        name: The player's name.
        seat: The player's seat.
        combo: The play.
        flags: What the play did and left, as bits: 1 revolts, 2 a spade-3 return, 4 locks the
            suits, 8 turns 11-back over, 16 the revolution after it, 32 11-back after it.
        lock: The suit lock after the play (a 4-bit suit set).
    """
    key = (name, seat, combo, flags, lock, rules.eight_cut, rules.suit_lock, rules.eleven_back)
    got = _CACHE.get(key)
    if got is not None:
        return got
    revolution, back = bool(flags & 16), bool(flags & 32)
    cut = rules.eight_cut and combo.count(C.EIGHT) > 0
    tags = []
    if flags & 1:
        tags.append("revolution" if revolution else "counter-revolution")
    if flags & 8:
        tags.append("11-back" if back else "11-back ends")
    if cut:
        tags.append("8-cut")
    if flags & 2:
        tags.append("spade-3 return")
    if flags & 4:
        tags.append(f"locks {SUIT_SETS[lock]}")
    text = f"{name} plays {F.symbols(combo)}"
    if tags:
        text += f" ({', '.join(tags)})"
    data: JSON = {
        "seat": seat,
        "cards": list(F.play_of(combo).cards),
        "revolution": revolution,
        "revolts": bool(flags & 1),
        "cut": cut,
        "returned": bool(flags & 2),
    }
    if combo.kind == C.SEQUENCE:
        data["kind"] = "sequence"
    if rules.suit_lock:
        data["lock"] = SUIT_SETS[lock]
    if rules.eleven_back:
        data["back"] = back
    return _kept(key, Event("play", text, data))


def deal_events(
    game_no: int,
    players: tuple[str, ...],
    order: tuple[int, ...],
    hands: list[tuple[int, ...]],
    diamond3: bool,
    ev: list[Event],
) -> None:
    """Append the deal's events: the deal (public) and each seat's hand (to that seat)."""
    leads = "" if diamond3 else f"; {players[order[0]]} leads"
    ev.append(
        Event(
            "deal",
            f"game {game_no}: cards dealt{leads}",
            {"game": game_no, "order": list(order), "counts": [len(h) for h in hands]},
        )
    )
    for seat, hand in enumerate(hands):
        ev.append(
            Event(
                "hand",
                "your hand: " + C.cards_symbols(hand),
                {"seat": seat, "cards": C.cards_str(hand)},
                frozenset((seat,)),
            )
        )


def end_events(
    players: tuple[str, ...],
    game_no: int,
    finish: list[int],
    titles: tuple[str | None, ...],
    pts: tuple[int, ...],
    cheaters: tuple[int, ...],
    last_hand: tuple[int, ...],
    set_points: tuple[int, ...] | None,
    ev: list[Event],
) -> None:
    """Append the events of game ``game_no``'s end, and of the set's (``set_points``)."""
    n = len(players)
    summary = ", ".join(
        f"{players[x]} {TITLE_KANJI[titles[x] or '']} {pts[x]:+d}" for x in range(n)
    )
    ev.append(
        Event(
            "game_end",
            f"game {game_no} over: {summary}"
            + (f"; last hand {C.cards_symbols(last_hand)}" if last_hand else ""),
            {
                "game": game_no,
                "finish": finish,
                "titles": list(titles),
                "points": list(pts),
                "cheaters": list(cheaters),
                "last_hand": C.cards_str(last_hand),
            },
        )
    )
    if set_points is not None:
        ev.append(
            Event(
                "set_end",
                "the set is over: "
                + ", ".join(f"{players[x]} {set_points[x]:+d}" for x in range(n)),
                {"points": list(set_points)},
            )
        )
