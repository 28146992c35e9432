"""Star Hi-Lo views (what each seat may know) and determinization (a state consistent with one).

Everyone sees every player's points, account and game stars, the finished games (targets
revealed), the current game's public log (2.1-2.4 with X, direction and result; 2.5/2.6 only as
"seat s used a secret guess") and a pending random X. A player also sees the results of its own
secret guesses. The current target is shown to all only once the series is over; each finished
game's target is in ``games``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec

from dennou.core.actions import Action, Concat, LazyActions
from dennou.core.game import JSON, Event, Seat
from dennou.core.jsondata import to_json
from dennou.core.views import Views
from dennou.games.hilo.actions import DIRECTIONS
from dennou.games.hilo.knowledge import belief_of, is_right
from dennou.games.hilo.rules import HiloRules
from dennou.games.hilo.state import GameSummary, HiloState


class HiloViews(Views[HiloState]):
    """Star Hi-Lo's views, determinization and terminal text (see the module docstring)."""

    def view(self, state: HiloState, seat: Seat | None) -> JSON:
        """The view of ``seat`` (``None``: a spectator)."""
        return view(self.header(state, seat), state, seat)

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> HiloState:
        """A state that gives ``view`` to ``seat``: see :func:`determinize`."""
        return determinize(view, seat, rng)

    def render(self, view: JSON) -> str:
        """The view as a few lines of text."""
        return render(view)

    def describe_legal(self, legal: Sequence[Action]) -> str:
        """The action kinds and how to type them (X has billions of values)."""
        parts = legal.parts if isinstance(legal, Concat) else (legal,)
        out: list[str] = []
        for part in parts:
            if isinstance(part, LazyActions):
                out.append(str(part.description.get("text", part[0])))
            else:
                out.extend(str(a) for a in part)
        return "  |  ".join(out)


def view(header: JSON, state: HiloState, seat: Seat | None) -> JSON:
    """The view of ``seat`` (``None``: a spectator), after the common ``header``."""
    over = state.phase == "over"
    acting = state.phase in ("turn", "pick", "draw")
    log: list[JSON] = to_json([e for e in state.log if e.visible_to(seat)])
    out: JSON = {
        **header,
        "game_no": state.game_no,
        "first": state.first,
        "turn": state.turn if acting else None,
        "round": state.round,
        "turns": state.turns,
        "points": list(state.points),
        "accounts": list(state.accounts),
        "stars": list(state.stars),
        "pending": state.pending,
        "x": state.x,
        "actions": _actions(state),
        "log": log,
        "games": to_json(state.history),
        "standings": [dict(s.__dict__) for s in state.standings()],
        "target": state.target if over else None,
    }
    if seat is not None:
        out["my_secrets"] = [
            {k: e["data"][k] for k in ("action", "x", "direction", "right")}
            for e in log
            if e["kind"] == "secret_result" and e["data"]["seat"] == seat
        ]
    return out


def _actions(state: HiloState) -> list[str]:
    """The action kinds open to the player to act (public: they follow from the points)."""
    if state.phase == "turn":
        return state.rules.available(state.points[state.turn])
    return ["pick"] if state.phase == "pick" else []


def determinize(view: JSON, seat: Seat | None, rng: random.Random) -> HiloState:
    """A full state that gives ``view`` to ``seat``.

    The target is drawn uniformly from the targets consistent with the public log and the seat's
    own secret results; other players' secret guesses get an X and a direction drawn uniformly
    and the result that the drawn target gives them.
    """
    rules = msgspec.convert(view["rules"], HiloRules)
    target: int | None = view["target"]
    if target is None and view["phase"] in ("turn", "draw", "pick"):
        target = belief_of(view["log"], rules.max_number, seat).sample(rng)
    log: list[Event] = []
    for entry in view["log"]:
        event = msgspec.convert(entry, Event)
        log.append(event)
        owner = entry["data"].get("seat")
        if entry["kind"] == "secret_guess" and owner != seat:
            assert target is not None
            log.append(_fake_secret(entry["data"], target, rules, rng))
    return HiloState(
        rules=rules,
        players=tuple(view["players"]),
        phase=view["phase"],
        points=tuple(view["points"]),
        accounts=tuple(view["accounts"]),
        stars=tuple(view["stars"]),
        game_no=view["game_no"],
        first=view["first"],
        turn=view["turn"] if view["turn"] is not None else (view["first"]),
        turns=view["turns"],
        target=target,
        pending=view["pending"],
        x=view["x"],
        log=tuple(log),
        history=tuple(msgspec.convert(g, GameSummary) for g in view["games"]),
    )


def _fake_secret(data: dict[str, Any], target: int, rules: HiloRules, rng: random.Random) -> Event:
    x = rng.randint(0, rules.max_number)
    direction = rng.choice(DIRECTIONS)
    right = is_right("guess", x, direction, target)
    owner = data["seat"]
    return Event(
        "secret_result",
        f"your secret guess: {direction} of {x:,} is " + ("right" if right else "wrong"),
        {"seat": owner, "action": data["action"], "x": x, "direction": direction, "right": right},
        frozenset({owner}),
    )


def render(view: JSON) -> str:
    """A view as text for the terminal."""
    players = view["players"]
    seat = view["seat"]
    top = view["rules"]["max_number"]
    lines: list[str] = []
    for entry in view["log"][-12:]:
        lines.append("  " + entry["text"])
    lines.append(
        f"game {view['game_no']} (first: {players[view['first']]}), round {view['round']}"
        + (f" — {players[view['turn']]} to act" if view["turn"] is not None else "")
    )
    width = max(len(p) for p in players)
    for s, name in enumerate(players):
        mark = "*" if s == seat else " "
        lines.append(
            f" {mark}{name:<{width}}  points {view['points'][s]:>4}  account "
            f"{view['accounts'][s]:>5}  stars {view['stars'][s]}"
        )
    if view["x"] is not None:
        lines.append(f"the host drew X = {view['x']:,}: pick high (target >= X) or low (<= X)")
    if view["phase"] != "over":
        belief = belief_of(view["log"], top, seat)
        lines.append(
            f"targets still possible{' to you' if seat is not None else ''}: "
            f"{belief.lo:,}..{belief.hi:,} ({belief.count:,})"
        )
    if seat is not None and view["my_secrets"]:
        lines.append(
            "your secret results: "
            + "; ".join(
                f"{s['direction']} of {s['x']:,} {'right' if s['right'] else 'wrong'}"
                for s in view["my_secrets"][-5:]
            )
        )
    if view["phase"] == "turn" and view["turn"] == seat:
        lines.append("you may: " + ", ".join(view["actions"]))
    if view["phase"] == "over":
        lines.append(
            "standings: "
            + ", ".join(
                f"{s['rank']}. {s['name']} ({s['stars_total']:g}★ {s['points_left']} pts)"
                for s in view["standings"]
            )
        )
    return "\n".join(lines)
