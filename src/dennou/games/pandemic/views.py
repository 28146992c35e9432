"""Pandemic views (what each seat may know) and determinization (a state consistent with one).

During the game a player sees: the contacts made (all of them with ``public_contacts``, else only
its own), its own actions and check-room results, the round announcements, who has sealed an
action this tick, and the talk in ``public`` and in its own ``pair:`` channels. Never anyone's
status or vaccines, its own included, except through its checks. Spectators see the public part
(no talk of pairs); views carry the most recent lines a seat may read
(``dennou.core.talk.RECENT_TALK``). After the last tick everything is shown to everyone: statuses,
vaccines, who started infected, every action of every tick, every check, the recent talk of
every channel.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec

from dennou.core.actions import Action
from dennou.core.game import JSON, Seat, TalkLine
from dennou.core.jsondata import to_json
from dennou.core.talk import hears, recent
from dennou.core.views import Views
from dennou.games.pandemic.actions import CODEC, Check, Contact, Cure, Idle, Infect, Tiebreak
from dennou.games.pandemic.knowledge import filter_for
from dennou.games.pandemic.rules import PandemicRules
from dennou.games.pandemic.state import (
    Announcement,
    CheckResult,
    ContactMade,
    PandemicState,
)

DETERMINIZE_CAP = 300
"""Worlds the filter keeps for ``determinize`` before it resamples (speed over exactness)."""


class PandemicViews(Views[PandemicState]):
    """The Pandemic Game's views, determinization and terminal text (see the module docstring)."""

    def view(self, state: PandemicState, seat: Seat | None) -> JSON:
        """The view of ``seat`` (``None``: a spectator)."""
        return view(self.header(state, seat), state, seat)

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> PandemicState:
        """A state that gives ``view`` to ``seat``: see :func:`determinize`."""
        return determinize(view, seat, rng)

    def render(self, view: JSON) -> str:
        """The view as a few lines of text."""
        return render(view)

    def describe_legal(self, legal: Sequence[Action]) -> str:
        """``idle``, ``check``, ``cure``, ``contact <seat>``."""
        if legal and isinstance(legal[0], Infect | Tiebreak):
            return f"{len(legal)} outcomes of the host's draw, e.g. {legal[0]}"
        seats = [a.player for a in legal if isinstance(a, Contact)]
        out = [str(a) for a in legal if not isinstance(a, Contact)]
        if seats:
            out.append(f"contact <seat> (seats {', '.join(map(str, seats))})")
        return "  ".join(out)


def view(header: JSON, state: PandemicState, seat: Seat | None) -> JSON:
    """The view of ``seat`` (``None``: a spectator), after the common ``header``."""
    rules = state.rules
    shown = state.revealed
    out: JSON = {
        **header,
        "round": state.round,
        "tick": state.tick,
        "submitted": [a is not None for a in state.pending],
        "contacts": [
            {"round": c.round, "tick": c.tick, "players": [c.a, c.b]}
            for c in state.contacts
            if shown or rules.public_contacts or (seat is not None and seat in (c.a, c.b))
        ],
        "announcements": [
            {"round": a.round, "normal": a.normal, "infected": a.infected}
            for a in state.announcements
        ],
        "talk": to_json(recent([t for t in state.talk if shown or hears(t.channel, seat)])),
    }
    if seat is not None:
        mine = state.pending[seat]
        out["my_action"] = None if mine is None else CODEC.dump(mine)
        out["my_actions"] = [CODEC.dump(h[seat]) for h in state.history]
        out["checks"] = [
            {"round": c.round, "tick": c.tick, "infected": c.infected, "vaccines": c.vaccines}
            for c in state.checks
            if c.seat == seat
        ]
    if shown:
        out["infected"] = list(state.infected)
        out["vaccines"] = list(state.vaccines)
        out["initially_infected"] = list(state.initially_infected)
        out["used_pairs"] = [list(p) for p in sorted(state.used_pairs)]
        out["history"] = [[CODEC.dump(a) for a in h] for h in state.history]
        out["all_checks"] = [
            {
                "seat": c.seat,
                "round": c.round,
                "tick": c.tick,
                "infected": c.infected,
                "vaccines": c.vaccines,
            }
            for c in state.checks
        ]
        out["cures"] = [list(c) for c in state.cures]
        out["tied"] = list(state.tied)
        out["slots"] = state.slots
        out["qualified"] = None if state.qualified is None else list(state.qualified)
    return out


def determinize(view: JSON, seat: Seat | None, rng: random.Random) -> PandemicState:
    """A full state that gives ``view`` to ``seat``, hidden facts drawn from what is possible.

    During the game the hidden facts (who started infected, the other players' cures, hence
    everyone's status and vaccines) are drawn from :class:`~.knowledge.WorldFilter`: exact over
    the possible worlds while they are few, consistent with the seen contacts, the seat's own
    actions and checks and the announcements. Other players' sealed actions this tick are drawn
    as ``idle``; their past actions are the seen contacts, the drawn cures, and ``idle``.
    After the last tick nothing is hidden and the state is rebuilt exactly.
    """
    rules = msgspec.convert(view["rules"], PandemicRules)
    players = tuple(view["players"])
    n = len(players)
    contacts = tuple(
        ContactMade(c["round"], c["tick"], min(c["players"]), max(c["players"]))
        for c in view["contacts"]
    )
    announcements = tuple(
        Announcement(a["round"], a["normal"], a["infected"]) for a in view["announcements"]
    )
    talk = tuple(msgspec.convert(t, TalkLine) for t in view["talk"])
    common: dict[str, Any] = {
        "rules": rules,
        "players": players,
        "phase": view["phase"],
        "round": view["round"],
        "tick": view["tick"],
        "contacts": contacts,
        "announcements": announcements,
        "talk": talk,
    }
    if view["phase"] in ("tiebreak", "over"):
        return PandemicState(
            **common,
            infected=tuple(view["infected"]),
            vaccines=tuple(view["vaccines"]),
            initially_infected=tuple(view["initially_infected"]),
            used_pairs=frozenset((a, b) for a, b in view["used_pairs"]),
            pending=(None,) * n,
            history=tuple(tuple(_action(a) for a in h) for h in view["history"]),
            checks=tuple(
                CheckResult(c["seat"], c["round"], c["tick"], c["infected"], c["vaccines"])
                for c in view["all_checks"]
            ),
            cures=tuple((r, t, s) for r, t, s in view["cures"]),
            tied=tuple(view["tied"]),
            slots=view["slots"],
            qualified=None if view["qualified"] is None else tuple(view["qualified"]),
        )
    pending: list[Action | None] = [Idle() if done else None for done in view["submitted"]]
    if seat is not None and view["my_action"] is not None:
        pending[seat] = _action(view["my_action"])
    if view["phase"] == "setup":
        return PandemicState(
            **common, infected=(False,) * n, vaccines=(0,) * n, pending=tuple(pending)
        )
    world = filter_for(view, rules, cap=DETERMINIZE_CAP).sample(rng)
    ticks = rules.ticks
    resolved = (view["round"] - 1) * ticks + view["tick"] - 1
    history: list[list[Action]] = [[Idle()] * n for _ in range(resolved)]
    for c in contacts:
        k = (c.round - 1) * ticks + c.tick - 1
        history[k][c.a], history[k][c.b] = Contact(c.b), Contact(c.a)
    cures = []
    for k, s in world.cures:
        history[k][s] = Cure()  # the seat's own cures are overwritten by its own actions below
        cures.append((k // ticks + 1, k % ticks + 1, s))
    checks: tuple[CheckResult, ...] = ()
    if seat is not None:
        for k, a in enumerate(view["my_actions"]):
            history[k][seat] = _action(a)
        checks = tuple(
            CheckResult(seat, c["round"], c["tick"], c["infected"], c["vaccines"])
            for c in view["checks"]
        )
    used = frozenset(
        (a, b) for a in range(n) for b in range(a + 1, n) if world.used >> (a * n + b) & 1
    )
    return PandemicState(
        **common,
        infected=tuple(bool(world.infected >> s & 1) for s in range(n)),
        vaccines=world.vaccines,
        initially_infected=tuple(s for s in range(n) if world.start >> s & 1),
        used_pairs=used,
        pending=tuple(pending),
        history=tuple(tuple(h) for h in history),
        checks=checks,
        cures=tuple(sorted(cures, key=lambda c: (c[0], c[1], c[2]))),
    )


_SIMPLE: dict[str, Action] = {"idle": Idle(), "check": Check(), "cure": Cure()}


def _action(data: JSON) -> Action:
    # Views hold actions this engine wrote, so a fast path for the four player actions is safe.
    kind = data.get("type")
    if kind in _SIMPLE and len(data) == 1:
        return _SIMPLE[kind]
    if kind == "contact" and len(data) == 2 and type(data.get("player")) is int:
        return Contact(data["player"])
    return CODEC.parse(data)


def render(view: JSON) -> str:
    """A view as text for the terminal."""
    players = view["players"]
    rules = view["rules"]
    seat = view["seat"]
    lines: list[str] = []
    for c in view["contacts"][-8:]:
        a, b = c["players"]
        lines.append(f"  r{c['round']}t{c['tick']}: {players[a]} <-> {players[b]}")
    for a in view["announcements"]:
        lines.append(f"after round {a['round']}: {a['normal']} normal, {a['infected']} infected")
    for t in view["talk"][-6:]:
        where = "" if t["channel"] == "public" else f" [{t['channel']}]"
        lines.append(f"  {t['name']}{where}: {t['text']}")
    if seat is not None:
        for c in view["checks"][-3:]:
            state = "INFECTED" if c["infected"] else "normal"
            lines.append(
                f"your check r{c['round']}t{c['tick']}: {state}, {c['vaccines']} vaccine(s)"
            )
        if view["my_action"] is not None:
            lines.append(f"you sealed: {CODEC.parse(view['my_action'])}")
    if view["phase"] == "tick":
        lines.append(
            f"round {view['round']}/{rules['rounds']} tick {view['tick']}/{rules['ticks']}"
            f" — sealed: {sum(view['submitted'])}/{len(players)}"
        )
        lines.append("seats: " + ", ".join(f"{i}={p}" for i, p in enumerate(players)))
    if view["phase"] in ("tiebreak", "over"):
        for s, p in enumerate(players):
            status = "infected" if view["infected"][s] else "normal"
            mark = ""
            if view["qualified"] is not None and s in view["qualified"]:
                mark = "  QUALIFIED"
            lines.append(f"  {p}: {status}, {view['vaccines'][s]} vaccine(s){mark}")
        if view["phase"] == "tiebreak":
            lines.append(f"draw due: {view['slots']} of {view['tied']}")
    return "\n".join(lines)
