"""Daifugo views (what each seat may know), determinization, and terminal rendering.

A player sees its own hand; every player's card count, title, points and status; the field (top
play = ``layout``, the ``lead`` since the last flush, every play since it); every discarded card;
the revolution; whose turn it is; and the cards of the exchanges it took part in (others see only
that an exchange happened). Spectators see the same without any hand. Rules:
``docs/games/daifugo.md`` (What each player sees).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import msgspec

from dennou.core.actions import Action, LazyActions
from dennou.core.game import JSON, Event, Seat
from dennou.core.jsondata import to_json
from dennou.core.views import Views
from dennou.games.daifugo import cards as C
from dennou.games.daifugo.actions import Give, Play
from dennou.games.daifugo.engine import DaifugoEngine
from dennou.games.daifugo.rules import TITLE_KANJI, DaifugoRules
from dennou.games.daifugo.state import (
    DaifugoState,
    ExchangeStep,
    FollowUp,
    GameResult,
    Played,
)


def _play_json(p: Played) -> JSON:
    kind = "sequence" if p.combo.kind == C.SEQUENCE else "group"
    return {"seat": p.seat, "cards": list(p.combo.strs()), "kind": kind, "returned": p.returned}


def _suits(suits: int) -> list[str]:
    return [C.SUIT_NAMES[s] for s in range(4) if suits >> s & 1]


def _status(state: DaifugoState, seat: int, due: frozenset[int]) -> str:
    if seat in state.cheaters:
        return "cheated"
    if state.phase in ("play", "exchange") and not state.hands[seat]:
        return "out"
    if seat in due:
        return "turn"
    if seat in state.passed:
        return "passed"
    return "waiting"


def view(game: DaifugoEngine, state: DaifugoState, seat: Seat | None) -> JSON:
    """The view of ``seat`` (``None``: a spectator)."""
    due = game.to_act(state)
    n = len(state.players)
    plays = state.field
    out: JSON = {
        "game": "daifugo",
        "rules": to_json(state.rules),
        "players": list(state.players),
        "seat": seat,
        "phase": state.phase,
        "game_no": state.game_no,
        "deals": state.deals,
        "void_games": state.void_games,
        "to_act": sorted(due),
        "turn": state.turn if state.phase == "play" else None,
        "order": list(state.order),
        "revolution": state.revolution,
        "back": state.back,
        "reverse": state.reverse,
        "lock": _suits(state.lock),
        "counts": [C.size(h) for h in state.hands],
        "titles": list(state.titles),
        "points": list(state.points),
        "status": [_status(state, s, due) for s in range(n)],
        "finished": list(state.finished),
        "cheaters": list(state.cheaters),
        "layout": _play_json(plays[-1]) if plays else None,
        "lead": _play_json(plays[0]) if plays else None,
        "field": [_play_json(p) for p in plays],
        "passed": sorted(state.passed),
        "last": state.last if state.last >= 0 else None,
        "passes": state.pass_run,
        "follow_up": _follow_up_json(state),
        "fallen": state.fallen if state.fallen >= 0 else None,
        "discards": _card_strs(state.discards),
        "exchange": [_step_json(st, seat) for st in state.steps],
        "results": [_result_json(r) for r in state.results],
        "log": _log(state, seat),
    }
    if seat is not None:
        out["hand"] = _card_strs(state.hands[seat])
        out["me"] = {
            "seat": seat,
            "title": state.titles[seat],
            "points": state.points[seat],
            "count": C.size(state.hands[seat]),
            "status": out["status"][seat],
        }
    return out


TABLE_KEYS = (
    "phase",
    "turn",
    "revolution",
    "back",
    "lock",
    "counts",
    "titles",
    "layout",
    "exchange",
    "hand",
    "finished",
)
"""The keys of :func:`table_view`: what a seat's UECda tables are made of."""


def table_view(state: DaifugoState, seat: Seat) -> JSON:
    """The part of ``seat``'s :func:`view` under :data:`TABLE_KEYS`, at a fraction of its cost.

    A protocol adapter builds a seat's tables after every step (the UECda port does for five
    seats); the whole view's log and history are not needed for that.
    """
    plays = state.field
    return {
        "phase": state.phase,
        "turn": state.turn if state.phase == "play" else None,
        "revolution": state.revolution,
        "back": state.back,
        "lock": _suits(state.lock),
        "counts": [C.size(h) for h in state.hands],
        "titles": list(state.titles),
        "layout": _play_json(plays[-1]) if plays else None,
        "exchange": [_step_json(st, seat) for st in state.steps],
        "hand": _card_strs(state.hands[seat]),
        "finished": list(state.finished),
    }


def _follow_up_json(state: DaifugoState) -> JSON | None:
    due = state.follow_up
    if due is None:
        return None
    return {"seat": state.turn, "kind": due.kind, "count": due.count, "to": due.to}


LOG_TAIL = 24
"""Views carry this many of the latest events of the current game the seat may see."""


def _log(state: DaifugoState, seat: Seat | None) -> list[JSON]:
    out: list[JSON] = []
    known = _EVENT_JSONS
    for e in state.log_reversed():
        audience = e.audience  # e.visible_to(seat), inline: a view reads LOG_TAIL events
        if audience is None or (seat is not None and seat in audience):
            got = known.get(id(e))
            if got is None or got[0] is not e:
                if len(known) > 20_000:
                    known.clear()
                got = known[id(e)] = (e, _event_json(e))
            out.append(got[1])
            if len(out) == LOG_TAIL:
                break
    out.reverse()
    return out


_EVENT_JSONS: dict[int, tuple[Event, JSON]] = {}
"""Each event's JSON by the event's identity (kept with the event, so that the identity of an
event since collected is never taken for another's). Views share these entries, as the views of
games that carry their whole log do (:class:`~dennou.core.views.EventLog`): a view is data to
read or to encode, not to change."""


def _event_json(e: Event) -> JSON:
    data = dict(e.data)
    for k, v in data.items():
        if isinstance(v, list):
            data[k] = list(v)  # the JSON owns its lists: nothing reaches the state's events
    d: JSON = {"kind": e.kind, "text": e.text, "data": data}
    if e.audience is not None:
        d["audience"] = sorted(e.audience)
    return d


_CARD_STRS: dict[int, tuple[str, ...]] = {}


def _card_strs(cards: int) -> list[str]:
    """``cards_str(cards_in(cards))``, remembered by card set (views repeat hands and discards)."""
    got = _CARD_STRS.get(cards)
    if got is None:
        if len(_CARD_STRS) > 50_000:
            _CARD_STRS.clear()
        got = _CARD_STRS[cards] = tuple(C.cards_str(C.cards_in(cards)))
    return list(got)


def _step_json(st: ExchangeStep, seat: Seat | None) -> JSON:
    shown = st.done and not st.cheated and seat in (st.giver, st.receiver)
    return {
        "giver": st.giver,
        "receiver": st.receiver,
        "count": st.count,
        "kind": st.kind,
        "done": st.done,
        "cheated": st.cheated,
        "cards": C.cards_str(st.cards) if shown else None,
    }


def _result_json(r: GameResult) -> JSON:
    return {
        "game": r.number,
        "finish": list(r.finish),
        "cheaters": list(r.cheaters),
        "titles": list(r.titles),
        "points": list(r.points),
        "last_hand": C.cards_str(r.last_hand),
    }


def _cards(texts: Sequence[str]) -> tuple[int, ...]:
    got = C.parse_cards(texts)
    assert got is not None, texts
    return got


def _played(d: JSON, rules: DaifugoRules) -> Played:
    readings = C.combo_from(d["cards"], suit_jokers=rules.suit_lock, sequences=rules.sequences)
    kind = C.SEQUENCE if d["kind"] == "sequence" else C.GROUP
    combo = next(c for c in readings or () if c.kind == kind)
    return Played(d["seat"], combo, d["returned"])


def known_holdings(view: JSON) -> dict[int, list[int]]:
    """Cards ``view``'s seat knows another seat holds: what it gave that has not been seen since.

    Exchanges only ever return cards to the giver, so a card given and neither back in the hand
    nor on the field nor discarded is still with its receiver, unless 7 pass is played: the
    receiver may have passed it on, unseen by its giver, so then nothing is known.
    """
    seat = view["seat"]
    if seat is None or view["rules"]["seven_pass"]:
        return {}
    unseen = Counter(_deck(view))
    for c in _seen(view):
        unseen[c] -= 1
    out: dict[int, list[int]] = {}
    for st in view["exchange"]:
        if st["giver"] != seat or not st["done"] or st["cheated"] or st["cards"] is None:
            continue
        if st["receiver"] in view["cheaters"]:
            continue
        for c in _cards(st["cards"]):
            if unseen[c] > 0:
                unseen[c] -= 1
                out.setdefault(st["receiver"], []).append(c)
    return out


def _deck(view: JSON) -> tuple[int, ...]:
    return C.deck(view["rules"]["jokers"])


def _seen(view: JSON) -> list[int]:
    seen = list(_cards(view["discards"]))
    for p in view["field"]:
        seen.extend(_cards(p["cards"]))
    if view["seat"] is not None:
        seen.extend(_cards(view["hand"]))
    return seen


def tribute_caps(view: JSON) -> dict[int, int]:
    """Rank caps the seat knows: a tribute it received shows the giver keeps nothing stronger.

    None under 7 pass: the giver may have been passed stronger cards since.
    """
    seat = view["seat"]
    caps: dict[int, int] = {}
    if view["rules"]["seven_pass"]:
        return caps
    for st in view["exchange"]:
        if (
            st["receiver"] == seat
            and st["kind"] == "tribute"
            and st["done"]
            and not st["cheated"]
            and st["cards"]
        ):
            cap = min(C.rank_of(c) for c in _cards(st["cards"]))
            caps[st["giver"]] = min(cap, caps.get(st["giver"], C.JOKER_RANK))
    return caps


def sample_hands(view: JSON, rng: random.Random) -> list[tuple[int, ...]]:
    """Hidden hands drawn consistently with ``view``: counts, every card seen, exchange facts."""
    seat = view["seat"]
    counts: list[int] = view["counts"]
    n = len(counts)
    pool = Counter(_deck(view))
    for c in _seen(view):
        pool[c] -= 1
    known = known_holdings(view)
    hands: list[list[int]] = [[] for _ in range(n)]
    for owner, cs in known.items():
        hands[owner].extend(cs)
        for c in cs:
            pool[c] -= 1
    if seat is not None:
        hands[seat] = list(_cards(view["hand"]))
    rest = [c for c, k in pool.items() for _ in range(k)]
    rng.shuffle(rest)
    caps = tribute_caps(view)
    for owner, cap in caps.items():
        need = counts[owner] - len(hands[owner])
        ok = [c for c in rest if C.rank_of(c) <= cap]
        if need <= 0 or len(ok) < need:
            continue
        take = ok[:need]
        hands[owner].extend(take)
        for c in take:
            rest.remove(c)
    for s in range(n):
        if s == seat:
            continue
        need = counts[s] - len(hands[s])
        if need > 0:
            hands[s].extend(rest[:need])
            rest = rest[need:]
    return [tuple(sorted(h)) for h in hands]


def determinize(view: JSON, seat: Seat | None, rng: random.Random) -> DaifugoState:
    """A full state that gives ``view`` to ``seat``, with the hidden hands sampled.

    Hidden hands are drawn from the unseen cards with the right counts; cards the seat gave in
    an exchange stay with their receiver, and a tribute received caps the giver's ranks.
    """
    rules = msgspec.convert(view["rules"], DaifugoRules)
    hands = sample_hands(view, rng)
    steps = tuple(
        ExchangeStep(
            st["giver"],
            st["receiver"],
            st["count"],
            st["kind"],
            _cards(st["cards"]) if st["cards"] is not None else (),
            st["cheated"],
            st["done"],
        )
        for st in view["exchange"]
    )
    results = tuple(
        GameResult(
            r["game"],
            tuple(r["finish"]),
            tuple(r["cheaters"]),
            tuple(r["titles"]),
            tuple(r["points"]),
            _cards(r["last_hand"]),
        )
        for r in view["results"]
    )
    return DaifugoState(
        rules=rules,
        players=tuple(view["players"]),
        phase=view["phase"],
        game_no=view["game_no"],
        deals=view["deals"],
        order=tuple(view["order"]),
        hands=tuple(C.card_set(h) for h in hands),
        titles=tuple(view["titles"]),
        points=tuple(view["points"]),
        steps=steps,
        cheaters=tuple(view["cheaters"]),
        turn=view["turn"] if view["turn"] is not None else -1,
        field=tuple(_played(p, rules) for p in view["field"]),
        discards=C.card_set(_cards(view["discards"])),
        passed=frozenset(view["passed"]),
        last=view["last"] if view["last"] is not None else -1,
        revolution=view["revolution"],
        back=view["back"],
        lock=C.suit_set(view["lock"]),
        pass_run=view["passes"],
        follow_up=_follow_up_of(view["follow_up"]),
        finished=tuple(view["finished"]),
        fallen=view["fallen"] if view["fallen"] is not None else -1,
        results=results,
        void_games=view["void_games"],
        log_chain=((), tuple(msgspec.convert(e, Event) for e in view["log"])),
    )


def _follow_up_of(d: JSON | None) -> FollowUp | None:
    return None if d is None else FollowUp(d["kind"], d["count"], d["to"])


# --- terminal -------------------------------------------------------------------------------
def _sym(texts: Sequence[str]) -> str:
    """Cards as symbols; a joker with its square as ``JOKER(♠6)``."""
    out = []
    for text in texts:
        card = C.parse_card(text)
        _, named, square = text.partition("=")
        if card == C.JOKER and named:
            out.append(f"JOKER({C.SUIT_SYMBOLS['shdc'.index(square[-1].lower())]}{square[:-1]})")
        else:
            out.append(C.cards_symbols([card]) if card is not None else text)
    return " ".join(out) or "-"


def render(view: JSON) -> str:
    """A view as text for the terminal (cards as ``♠3 ♥8 JOKER``)."""
    players = view["players"]
    rules = view["rules"]
    lines: list[str] = [f"  {e['text']}" for e in view["log"][-10:]]
    head = f"大富豪 game {view['game_no']}/{rules['games']} — {view['phase']}"
    if view["revolution"]:
        head += " — 革命 REVOLUTION"
    if view["back"]:
        head += " — 11-back"
    if view["reverse"]:
        head += " (order reversed)"
    if view["lock"]:
        head += " — 縛り locked: " + "".join(C.SUIT_SYMBOLS["shdc".index(x)] for x in view["lock"])
    lines.append(head)
    for s in range(len(players)):  # seat order, as every other list of players
        title = view["titles"][s]
        mark = ">" if s in view["to_act"] else " "
        lines.append(
            f" {mark} {players[s]:<12} {TITLE_KANJI.get(title or '', '-'):<4} "
            f"{view['points'][s]:+4d} pts  {view['counts'][s]:2d} cards  {view['status'][s]}"
        )
    layout = view["layout"]
    if layout:
        extra = " (spade-3 return: nothing beats it)" if layout["returned"] else ""
        lines.append(f"field: {_sym(layout['cards'])} by {players[layout['seat']]}{extra}")
        if len(view["field"]) > 1:
            lines.append(
                "  since the flush: " + " / ".join(_sym(p["cards"]) for p in view["field"])
            )
    elif view["phase"] == "play":
        lines.append("field: empty (lead anything)")
    if view["discards"]:
        lines.append(f"discards ({len(view['discards'])}): {_sym(view['discards'])}")
    for st in view["exchange"]:
        if not st["done"]:
            lines.append(
                f"exchange: {players[st['giver']]} gives {st['count']} to "
                f"{players[st['receiver']]} ({'strongest' if st['kind'] == 'tribute' else 'any'})"
            )
            break
    due = view["follow_up"]
    if due is not None:
        what = f"give {due['count']} card(s) to {players[due['to']]} (7 pass)"
        if due["kind"] == "discard":
            what = f"discard {due['count']} card(s) (10 discard)"
        lines.append(f"{players[due['seat']]} must {what}")
    if view["seat"] is not None:
        lines.append(f"your hand: {_sym(view['hand'])}")
    if view["phase"] == "over":
        pts = zip(players, view["points"], strict=True)
        lines.append("final points: " + ", ".join(f"{p} {v:+d}" for p, v in pts))
    return "\n".join(lines)


def _describe(action: Action) -> str:
    if isinstance(action, Play | Give):
        return f"{action} ({_sym(action.cards)})"
    return str(action)


def describe_legal(legal: Sequence[Action]) -> str:
    """The legal actions, numbered, with cards as symbols."""
    note = ""
    if isinstance(legal, LazyActions) and legal.description.get("kind"):
        d = legal.description
        note = (
            f"\n(type give <{d['count']} cards>; "
            + ("the strongest cards: " if d["kind"] == "tribute" else "any cards: ")
            + "a broken exchange counts as cheating)"
        )
    items = [f"[{i}] {_describe(a)}" for i, a in enumerate(legal) if i < 60]
    more = f"  ... {len(legal) - 60} more" if len(legal) > 60 else ""
    return "  ".join(items) + more + note


class DaifugoViews(Views[DaifugoState]):
    """Daifugo seen by one seat or the spectators (the module's functions, for the game)."""

    def view(self, state: DaifugoState, seat: Seat | None) -> JSON:
        """What ``seat`` knows: see :func:`view`."""
        assert isinstance(self.game, DaifugoEngine)
        return view(self.game, state, seat)

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> DaifugoState:
        """A state consistent with ``view``: see :func:`determinize`."""
        return determinize(view, seat, rng)

    def render(self, view: JSON) -> str:
        """The view as text: field, hands as ``♠3 ♥8 JOKER``, players and points."""
        return render(view)

    def describe_legal(self, legal: Sequence[Action]) -> str:
        """The legal plays with cards as symbols, numbered."""
        return describe_legal(legal)
