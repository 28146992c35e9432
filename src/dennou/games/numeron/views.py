"""Numeron views (what each seat may know) and determinization (a state consistent with one).

A player sees its own number and its history of changes, every call and judgment, every item use
with what it announces, the results of attack items on its own number or by itself, and the room
chat. Spectators see the public part only. Once the game is over, everything is shown to all.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import msgspec

from dennou.core.actions import Action
from dennou.core.game import JSON, Event, Seat, TalkLine
from dennou.core.immutable import Log
from dennou.core.jsondata import to_json
from dennou.core.talk import recent
from dennou.core.views import Views
from dennou.games.numeron.actions import Call, HostNumber, SetNumber
from dennou.games.numeron.knowledge import Candidates, knowledge
from dennou.games.numeron.rules import NumeronRules
from dennou.games.numeron.state import NumeronState, place


class NumeronViews(Views[NumeronState]):
    """Numeron's views, determinization and terminal text (see the module docstring)."""

    def view(self, state: NumeronState, seat: Seat | None) -> JSON:
        """The view of ``seat`` (``None``: a spectator).

        The log's JSON is built incrementally (:class:`~dennou.core.views.EventLog`): a view
        costs about the same at turn 60 as at turn 5 (``bench/numeron.py`` measures it).
        """
        log = self.events.json(state.log, seat, everything=state.phase == "over")
        return view(self.header(state, seat), state, seat, log)

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> NumeronState:
        """A state that gives ``view`` to ``seat``: see :func:`determinize`."""
        return determinize(view, seat, rng)

    def render(self, view: JSON) -> str:
        """The view as a few lines of text."""
        return render(view)

    def describe_legal(self, legal: Sequence[Action]) -> str:
        """Numbers are too many to list: say how to type them; list the rest, numbered.

        A defence turn offers a few dozen item uses (every position and digit of ``target``,
        ``change``...): all are listed, so a number picks one.
        """
        if legal and isinstance(legal[0], Call | SetNumber | HostNumber):
            kind = str(legal[0]).split()[0]
            return f"type: {kind} <number>, e.g. {legal[len(legal) // 2]}"
        if len(legal) <= 200:
            return "  ".join(f"[{i}] {a}" for i, a in enumerate(legal))
        return super().describe_legal(legal)


def view(header: JSON, state: NumeronState, seat: Seat | None, log: list[JSON]) -> JSON:
    """The view of ``seat`` (``None``: a spectator), after the common ``header``.

    ``log`` is the JSON of the events ``seat`` may see (all of them once the game is over).
    """
    over = state.phase == "over"
    out: JSON = {
        **header,
        "set": [n is not None for n in state.numbers],
        "host_draw": sorted(state.host_draw),
        "first": state.first,
        "attacker": state.attacker,
        "turn": state.turn,
        "calls_left": state.calls_left,
        "lost_call": state.lost_call,
        "items": [list(state.items[0]), list(state.items[1])],
        "strikes": list(state.strikes),
        "last_turn": state.last_turn,
        "pending_winner": state.pending_winner,
        "winner": state.winner,
        "end": state.end,
        "log": log,
        "talk": to_json(recent(state.talk)),
    }
    if seat is not None:
        out["my_number"] = state.numbers[seat]
        out["my_numbers"] = list(state.histories[seat])
    if over:
        out["numbers"] = list(state.numbers)
        out["histories"] = [list(h) for h in state.histories]
    return out


def determinize(view: JSON, seat: Seat | None, rng: random.Random) -> NumeronState:
    """A full state that gives ``view`` to ``seat``, hidden numbers drawn from what is possible.

    Each hidden number is drawn uniformly from the numbers consistent with every event in the
    view (judgments, item results, reveals, defence announcements).
    """
    rules = msgspec.convert(view["rules"], NumeronRules)
    log = Log(msgspec.convert(e, Event) for e in view["log"])
    numbers: list[str | None] = [None, None]
    histories: list[tuple[str, ...]] = [(), ()]
    if "numbers" in view:
        numbers = list(view["numbers"])
        histories = [tuple(h) for h in view["histories"]]
    else:
        for owner in (0, 1):
            if owner == seat:
                numbers[owner] = view["my_number"]
                histories[owner] = tuple(view["my_numbers"])
            elif view["set"][owner]:
                cands: Candidates = knowledge(view["log"], rules.digits, owner)
                numbers[owner] = cands.sample(rng)
                histories[owner] = (numbers[owner],)  # type: ignore[assignment]
    state = NumeronState(
        rules=rules,
        players=(view["players"][0], view["players"][1]),
        phase=view["phase"],
        numbers=(numbers[0], numbers[1]),
        histories=(histories[0], histories[1]),
        host_draw=frozenset(view["host_draw"]),
        first=view["first"],
        attacker=view["attacker"],
        turn=view["turn"],
        items=(tuple(view["items"][0]), tuple(view["items"][1])),
        calls_left=view["calls_left"],
        lost_call=view["lost_call"],
        strikes=(view["strikes"][0], view["strikes"][1]),
        last_turn=view["last_turn"],
        pending_winner=view["pending_winner"],
        winner=view["winner"],
        end=view["end"],
        log=log,
        talk=Log(msgspec.convert(t, TalkLine) for t in view["talk"]),
    )
    return state


def render(view: JSON) -> str:
    """A view as text for the terminal: numbers, items, and each side's calls so far."""
    players = view["players"]
    digits = view["rules"]["digits"]
    seat = view["seat"]
    lines: list[str] = []
    calls: dict[int, list[str]] = {0: [], 1: []}
    for entry in view["log"]:
        data = entry.get("data", {})
        if entry["kind"] == "call":
            calls[data["seat"]].append(f"{data['number']} {data['eat']}-{data['bite']}")
        elif entry["kind"] in ("item_result", "revealed", "item"):
            calls[data.get("seat", data.get("owner", 0))].append(f"[{entry['text']}]")
    for s in (0, 1):
        who = "you" if s == seat else players[s]
        items = ", ".join(view["items"][s]) or "no items"
        lines.append(f"{who} ({players[s]}; {items}): " + ("  ".join(calls[s]) or "no calls yet"))
    if seat is not None and view.get("my_number"):
        history = view["my_numbers"]
        lines.append(
            f"your number: {view['my_number']}"
            + (f" (was {', '.join(history[:-1])})" if len(history) > 1 else "")
        )
    phase = view["phase"]
    if phase == "over":
        winner = view["winner"]
        result = "draw" if winner is None else f"{players[winner]} wins"
        lines.append(f"game over ({view['end']}): {result}; numbers {', '.join(view['numbers'])}")
    elif phase not in ("setup", "coin"):
        lines.append(
            f"turn {view['turn']}: {players[view['attacker']]} attacks; phase {phase}"
            + (f", {view['calls_left']} call(s) left" if phase == "call" else "")
        )
    else:
        example = "03185"[:digits]
        lines.append(f"phase {phase}: set a number of {digits} distinct digits (`set {example}`)")
    lines.append("positions: " + ", ".join(f"{i}={place(i, digits)}" for i in range(digits)))
    return "\n".join(lines)
