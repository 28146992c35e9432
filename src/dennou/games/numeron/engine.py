"""Numeron (ヌメロン): guess the opponent's number of distinct digits from EAT-BITE judgments.

Rules: ``../shared/rules/numeron.md`` (seed ``001``). Two players seal a 3-5 digit number of
distinct digits; a coin flip picks who calls first; each turn the defender may use a defence item
(SHUFFLE, CHANGE, MOVE), the attacker may use an attack item (DOUBLE, HIGH&LOW, TARGET, SLASH),
then calls; the host judges EAT (right digit, right place) and BITE (right digit, wrong place).
An all-EAT call wins (with ``equal_turns``, the second caller gets one last turn).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from dennou.core.actions import Action, LazyActions
from dennou.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
)
from dennou.core.game import CHANCE, JSON, Event, Game, GameSpec, Outcome, Seat, TalkLine
from dennou.core.jsondata import to_json
from dennou.games.numeron.actions import (
    CODEC,
    ITEM_ACTIONS,
    Call,
    Change,
    Coin,
    Decline,
    Double,
    HighLow,
    HostNumber,
    Move,
    NoItem,
    Reveal,
    SetNumber,
    Shuffle,
    Slash,
    Target,
)
from dennou.games.numeron.rules import ATTACK_ITEMS, DEFENCE_ITEMS, Item, NumeronRules
from dennou.games.numeron.state import (
    NumeronState,
    all_numbers,
    digit_class,
    is_number,
    place,
)

RULES_PAGE = "../shared/rules/numeron.md"
MAX_TALK = 500

State = NumeronState


def judge(secret: str, call: str) -> tuple[int, int]:
    """Judge ``call`` against ``secret``: (EAT, BITE).

    EAT counts right digits in the right place, BITE right digits in the wrong place.

    Raises:
        InvalidActionError: The two are not numbers of distinct digits of the same length.
    """
    if len(secret) != len(call) or not (
        is_number(secret, len(secret)) and is_number(call, len(call))
    ):
        raise InvalidActionError(
            f"judge needs two numbers of distinct digits of one length, got {secret!r}, {call!r}"
        )
    eat = sum(a == b for a, b in zip(secret, call, strict=True))
    return eat, len(set(secret) & set(call)) - eat


def _without(items: tuple[Item, ...], item: Item) -> tuple[Item, ...]:
    i = items.index(item)
    return items[:i] + items[i + 1 :]


def _set(pair: tuple[Any, Any], seat: int, value: Any) -> Any:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


class Numeron(Game[NumeronState, NumeronRules]):
    """The Numeron engine."""

    spec = GameSpec(
        name="numeron",
        title="Numeron (ヌメロン)",
        version=1,
        min_players=2,
        max_players=2,
        chance=True,
        hidden_information=True,
        simultaneous=True,
        talk=True,
    )
    rules_type = NumeronRules
    codec = CODEC

    # --- setup ------------------------------------------------------------------------------
    def new(self, rules: NumeronRules, players: Sequence[str]) -> NumeronState:
        """Start a game: both players must set their numbers."""
        self.check_players(players)
        items = rules.item_set()
        return NumeronState(rules=rules, players=(players[0], players[1]), items=(items, items))

    def to_act(self, state: NumeronState) -> frozenset[Seat]:
        """Setup: both (sealed); coin: chance; defence and reveal: defender; else attacker."""
        phase = state.phase
        if phase == "over":
            return frozenset()
        if phase == "setup":
            if state.host_draw:
                return frozenset({CHANCE})
            return frozenset(i for i in (0, 1) if state.numbers[i] is None)
        if phase == "coin":
            return frozenset({CHANCE})
        if phase in ("defence", "reveal"):
            return frozenset({state.defender})
        return frozenset({state.attacker})

    def sample_chance(self, state: NumeronState, rng: random.Random) -> Action:
        """The coin flip, or a number for a seat that timed out at setup."""
        if state.phase == "setup" and state.host_draw:
            pool = all_numbers(state.rules.digits)
            return HostNumber(min(state.host_draw), pool[rng.randrange(len(pool))])
        if state.phase == "coin":
            return Coin(rng.randrange(2))
        raise IllegalActionError("no chance action is due", phase=state.phase)

    # --- legal actions ----------------------------------------------------------------------
    def legal_actions(self, state: NumeronState, seat: Seat) -> Sequence[Action]:
        """Every action ``seat`` may take now (numbers as lazy sequences)."""
        if seat not in self.to_act(state):
            return []
        digits = state.rules.digits
        phase = state.phase
        if seat == CHANCE:
            if phase == "coin":
                return [Coin(0), Coin(1)]
            owner = min(state.host_draw)
            return _numbers(
                digits,
                lambda n: HostNumber(owner, n),
                lambda a: (
                    isinstance(a, HostNumber) and a.seat == owner and is_number(a.number, digits)
                ),
            )
        if phase == "setup":
            return _numbers(
                digits, SetNumber, lambda a: type(a) is SetNumber and is_number(a.number, digits)
            )
        if phase == "call":
            return _numbers(digits, Call, lambda a: type(a) is Call and is_number(a.number, digits))
        if phase == "reveal":
            return [Reveal(p) for p in range(digits)]
        items = state.items[seat]
        out: list[Action] = []
        if phase == "defence":
            out.append(Decline())
            number = state.numbers[seat]
            assert number is not None
            if "shuffle" in items:
                out.extend(Shuffle(n) for n in sorted(_permutations(number)))
            if "change" in items:
                out.extend(
                    Change(p, d)
                    for p in range(digits)
                    for d in range(10)
                    if str(d) not in number and digit_class(d) == digit_class(int(number[p]))
                )
            if "move" in items:
                out.extend(
                    Move(i, j, k)
                    for i in range(digits)
                    for j in range(digits)
                    if i != j
                    for k in range(1, 10)
                    if _moved(number, i, j, k) is not None
                )
            return out
        out.append(NoItem())
        if "double" in items:
            out.append(Double())
        if "high_low" in items:
            out.append(HighLow())
        if "target" in items:
            out.extend(Target(d) for d in range(10))
        if "slash" in items:
            out.append(Slash())
        return out

    # --- transitions ------------------------------------------------------------------------
    def _check_turn(self, state: NumeronState, seat: Seat) -> None:
        if state.phase == "over":
            raise GameOverError("the game is over", seat=seat)
        if seat not in self.to_act(state):
            due = sorted(self.to_act(state))
            raise NotYourTurnError(
                f"seat {seat} may not act now ({state.phase}; to act: {due})",
                seat=seat,
                phase=state.phase,
            )

    def apply(
        self, state: NumeronState, seat: Seat, action: Action
    ) -> tuple[NumeronState, list[Event]]:
        """Apply an action after checking it against the rules."""
        self._check_turn(state, seat)
        handler = self._handlers().get((state.phase, type(action)))
        if handler is None:
            raise IllegalActionError(
                f"{type(action).__name__} is not allowed in the {state.phase} phase; "
                f"expected one of {sorted({str(a).split()[0] for a in _kinds(self, state, seat)})}",
                seat=seat,
                phase=state.phase,
            )
        if seat != CHANCE and type(action) in ITEM_ACTIONS:
            item = ITEM_ACTIONS[type(action)]
            if item not in state.items[seat]:
                raise IllegalActionError(
                    f"seat {seat} holds no {item.upper()} (items left: "
                    f"{list(state.items[seat]) or 'none'}) — rules: Items",
                    seat=seat,
                    phase=state.phase,
                    rule="items",
                )
        events: list[Event] = []
        new = handler(state, seat, action, events)
        return replace(new, log=state.log + tuple(events)), events

    def _handlers(
        self,
    ) -> Mapping[tuple[str, type[Action]], Callable[[State, Seat, Any, list[Event]], State]]:
        return {
            ("setup", SetNumber): self._set_number,
            ("setup", HostNumber): self._host_number,
            ("coin", Coin): self._coin,
            ("defence", Decline): self._decline,
            ("defence", Shuffle): self._shuffle,
            ("defence", Change): self._change,
            ("defence", Move): self._move,
            ("attack_item", NoItem): self._no_item,
            ("attack_item", Double): self._double,
            ("attack_item", HighLow): self._high_low,
            ("attack_item", Target): self._target,
            ("attack_item", Slash): self._slash,
            ("reveal", Reveal): self._reveal,
            ("call", Call): self._call,
        }

    def _valid_number(self, state: State, number: str, what: str) -> None:
        digits = state.rules.digits
        if not is_number(number, digits):
            raise IllegalActionError(
                f"{what} must be {digits} distinct digits 0-9 (a leading 0 is allowed), "
                f"got {number!r} — rules: Setup/Judging",
                rule="number",
            )

    def _set_number(self, state: State, seat: Seat, action: SetNumber, ev: list[Event]) -> State:
        self._valid_number(state, action.number, "a number")
        return self._store_number(state, seat, action.number, ev, by_host=False)

    def _host_number(self, state: State, seat: Seat, action: HostNumber, ev: list[Event]) -> State:
        if action.seat not in state.host_draw:
            raise IllegalActionError(f"the host has no number to draw for seat {action.seat}")
        self._valid_number(state, action.number, "a number")
        state = replace(state, host_draw=state.host_draw - {action.seat})
        return self._store_number(state, action.seat, action.number, ev, by_host=True)

    def _store_number(
        self, state: State, seat: Seat, number: str, ev: list[Event], *, by_host: bool
    ) -> State:
        name = state.players[seat]
        who = "the host set a number for " + name if by_host else name + " set a number"
        ev.append(Event("set", who, {"seat": seat, "by_host": by_host}))
        ev.append(
            Event(
                "number",
                f"your number is {number}",
                {"seat": seat, "number": number},
                frozenset({seat}),
            )
        )
        state = replace(
            state,
            numbers=_set(state.numbers, seat, number),
            histories=_set(state.histories, seat, (number,)),
        )
        if None in state.numbers or state.host_draw:
            return state
        if state.rules.first == "coin":
            return replace(state, phase="coin")
        return self._begin_turn(replace(state, first=0), 0, ev)

    def _coin(self, state: State, seat: Seat, action: Coin, ev: list[Event]) -> State:
        if action.first not in (0, 1):
            raise IllegalActionError(f"the coin names seat 0 or 1, not {action.first}")
        ev.append(
            Event(
                "coin",
                f"coin flip: {state.players[action.first]} calls first",
                {"first": action.first},
            )
        )
        return self._begin_turn(replace(state, first=action.first), action.first, ev)

    def _begin_turn(self, state: State, attacker: int, ev: list[Event]) -> State:
        defender = 1 - attacker
        state = replace(
            state, attacker=attacker, turn=state.turn + 1, calls_left=1, lost_call=False
        )
        ev.append(
            Event(
                "turn",
                f"turn {state.turn}: {state.players[attacker]} attacks"
                + (" (last turn)" if state.last_turn else ""),
                {"turn": state.turn, "attacker": attacker, "last_turn": state.last_turn},
            )
        )
        if any(i in DEFENCE_ITEMS for i in state.items[defender]):
            return replace(state, phase="defence")
        return self._to_attack(state)

    def _to_attack(self, state: State) -> State:
        if any(i in ATTACK_ITEMS for i in state.items[state.attacker]):
            return replace(state, phase="attack_item")
        return replace(state, phase="call")

    # defence window
    def _decline(self, state: State, seat: Seat, action: Decline, ev: list[Event]) -> State:
        ev.append(Event("decline", f"{state.players[seat]} uses no defence item", {"seat": seat}))
        return self._to_attack(state)

    def _defend(
        self,
        state: State,
        seat: Seat,
        item: Item,
        new: str,
        public: JSON,
        text: str,
        ev: list[Event],
    ) -> State:
        ev.append(Event("item", text, {"seat": seat, "item": item, **public}))
        ev.append(
            Event(
                "number",
                f"your number is now {new}",
                {"seat": seat, "number": new},
                frozenset({seat}),
            )
        )
        state = replace(
            state,
            items=_set(state.items, seat, _without(state.items[seat], item)),
            numbers=_set(state.numbers, seat, new),
            histories=_set(state.histories, seat, (*state.histories[seat], new)),
        )
        return self._to_attack(state)

    def _shuffle(self, state: State, seat: Seat, action: Shuffle, ev: list[Event]) -> State:
        old = state.numbers[seat]
        assert old is not None
        if sorted(action.number) != sorted(old) or len(action.number) != len(old):
            raise IllegalActionError(
                f"SHUFFLE reorders your own digits {sorted(old)}; {action.number!r} does not "
                "— rules: Items, SHUFFLE",
                seat=seat,
                rule="shuffle",
            )
        name = state.players[seat]
        return self._defend(state, seat, "shuffle", action.number, {}, f"{name} used SHUFFLE", ev)

    def _change(self, state: State, seat: Seat, action: Change, ev: list[Event]) -> State:
        old = state.numbers[seat]
        assert old is not None
        p, d = action.position, action.digit
        digits = state.rules.digits
        rule = " — rules: Items, CHANGE"
        if not 0 <= p < digits:
            raise IllegalActionError(f"CHANGE position must be 0-{digits - 1}, got {p}" + rule)
        if not 0 <= d <= 9:
            raise IllegalActionError(f"CHANGE digit must be 0-9, got {d}" + rule)
        if str(d) in old:
            raise IllegalActionError(
                f"CHANGE must bring in a digit not in your number {old}, got {d}" + rule
            )
        cls = digit_class(int(old[p]))
        if digit_class(d) != cls:
            raise IllegalActionError(
                f"CHANGE keeps the class: the {place(p, digits)} digit is {cls}, {d} is "
                f"{digit_class(d)}" + rule
            )
        new = old[:p] + str(d) + old[p + 1 :]
        text = f"{state.players[seat]} used CHANGE: {place(p, digits)} place, {cls}"
        return self._defend(state, seat, "change", new, {"position": p, "class": cls}, text, ev)

    def _move(self, state: State, seat: Seat, action: Move, ev: list[Event]) -> State:
        old = state.numbers[seat]
        assert old is not None
        i, j, k = action.source, action.target, action.amount
        digits = state.rules.digits
        rule = " — rules: Items, MOVE"
        if not (0 <= i < digits and 0 <= j < digits) or i == j:
            raise IllegalActionError(
                f"MOVE needs two different positions 0-{digits - 1}, got {i} and {j}" + rule
            )
        if k < 1:
            raise IllegalActionError(f"MOVE amount must be at least 1, got {k}" + rule)
        new = _moved(old, i, j, k)
        if new is None:
            raise IllegalActionError(
                f"MOVE {k} from {old[i]} to {old[j]} in {old} leaves 0-9 or repeats a digit" + rule
            )
        text = (
            f"{state.players[seat]} used MOVE: from the {place(i, digits)} "
            f"to the {place(j, digits)} place"
        )
        return self._defend(state, seat, "move", new, {"source": i, "target": j}, text, ev)

    # attack items
    def _use(self, state: State, seat: Seat, item: Item, public: JSON, ev: list[Event]) -> State:
        name = state.players[seat]
        label = {"high_low": "HIGH&LOW"}.get(item, item.upper())
        detail = f" {public['digit']}" if "digit" in public else ""
        ev.append(
            Event("item", f"{name} used {label}{detail}", {"seat": seat, "item": item, **public})
        )
        return replace(state, items=_set(state.items, seat, _without(state.items[seat], item)))

    def _result(
        self, state: State, seat: Seat, item: Item, data: JSON, text: str, ev: list[Event]
    ) -> None:
        ev.append(
            Event("item_result", text, {"seat": seat, "item": item, **data}, frozenset({0, 1}))
        )

    def _no_item(self, state: State, seat: Seat, action: NoItem, ev: list[Event]) -> State:
        return replace(state, phase="call")

    def _double(self, state: State, seat: Seat, action: Double, ev: list[Event]) -> State:
        state = self._use(state, seat, "double", {}, ev)
        return replace(state, phase="reveal", calls_left=2)

    def _reveal(self, state: State, seat: Seat, action: Reveal, ev: list[Event]) -> State:
        digits = state.rules.digits
        p = action.position
        if not 0 <= p < digits:
            raise IllegalActionError(
                f"reveal position must be 0-{digits - 1}, got {p} — rules: Items, DOUBLE"
            )
        owner = state.attacker
        number = state.numbers[owner]
        assert number is not None
        where = place(p, digits)
        ev.append(
            Event(
                "reveal",
                f"{state.players[seat]} asks to see the {where} digit of {state.players[owner]}",
                {"seat": seat, "owner": owner, "position": p},
            )
        )
        ev.append(
            Event(
                "revealed",
                f"{state.players[owner]}'s {where} digit is {number[p]}",
                {"owner": owner, "position": p, "digit": int(number[p])},
                frozenset({0, 1}),
            )
        )
        return replace(state, phase="call")

    def _high_low(self, state: State, seat: Seat, action: HighLow, ev: list[Event]) -> State:
        state = self._use(state, seat, "high_low", {}, ev)
        secret = state.numbers[state.defender]
        assert secret is not None
        result = [digit_class(int(c)) for c in secret]
        self._result(
            state, seat, "high_low", {"result": result}, "HIGH&LOW: " + " ".join(result), ev
        )
        return replace(state, phase="call")

    def _target(self, state: State, seat: Seat, action: Target, ev: list[Event]) -> State:
        d = action.digit
        if not 0 <= d <= 9:
            raise IllegalActionError(f"TARGET names a digit 0-9, got {d} — rules: Items, TARGET")
        state = self._use(state, seat, "target", {"digit": d}, ev)
        secret = state.numbers[state.defender]
        assert secret is not None
        pos = secret.index(str(d)) if str(d) in secret else None
        text = (
            f"TARGET: {d} is not in the number"
            if pos is None
            else f"TARGET: {d} is in the {place(pos, state.rules.digits)} place"
        )
        self._result(state, seat, "target", {"digit": d, "position": pos}, text, ev)
        return replace(state, phase="call")

    def _slash(self, state: State, seat: Seat, action: Slash, ev: list[Event]) -> State:
        state = self._use(state, seat, "slash", {}, ev)
        secret = state.numbers[state.defender]
        assert secret is not None
        value = int(max(secret)) - int(min(secret))
        self._result(state, seat, "slash", {"result": value}, f"SLASH number: {value}", ev)
        return replace(state, phase="call")

    # calls
    def _call(self, state: State, seat: Seat, action: Call, ev: list[Event]) -> State:
        self._valid_number(state, action.number, "a call")
        secret = state.numbers[state.defender]
        assert secret is not None
        eat, bite = judge(secret, action.number)
        ev.append(
            Event(
                "call",
                f"{state.players[seat]} calls {action.number}: {eat}-{bite}",
                {"seat": seat, "number": action.number, "eat": eat, "bite": bite},
            )
        )
        if eat == state.rules.digits:
            return self._hit(state, seat, ev)
        return self._after_call(replace(state, calls_left=state.calls_left - 1), ev)

    def _after_call(self, state: State, ev: list[Event]) -> State:
        if state.calls_left > 0:
            return state
        a = state.attacker
        strikes = _set(state.strikes, a, state.strikes[a] + 1 if state.lost_call else 0)
        state = replace(state, strikes=strikes)
        limit = state.rules.forfeit_after
        if limit and strikes[a] >= limit:
            ev.append(
                Event(
                    "forfeit",
                    f"{state.players[a]} lost a call {limit} turns in a row and forfeits",
                    {"seat": a},
                )
            )
            return self._finish(state, 1 - a, "forfeit", ev)
        if state.last_turn:
            assert state.pending_winner is not None
            return self._finish(state, state.pending_winner, "numeron", ev)
        return self._begin_turn(state, 1 - a, ev)

    def _hit(self, state: State, seat: Seat, ev: list[Event]) -> State:
        name = state.players[seat]
        if state.last_turn:
            ev.append(Event("numeron", f"Numeron! {name} also hits: a draw", {"seat": seat}))
            return self._finish(state, None, "draw", ev)
        if state.rules.equal_turns and seat == state.first:
            ev.append(
                Event(
                    "numeron",
                    f"Numeron! {name} hits; {state.players[1 - seat]} gets one last turn",
                    {"seat": seat},
                )
            )
            state = replace(state, pending_winner=seat, last_turn=True)
            return self._begin_turn(state, 1 - seat, ev)
        ev.append(Event("numeron", f"Numeron! {name} wins", {"seat": seat}))
        return self._finish(state, seat, "numeron", ev)

    def _finish(self, state: State, winner: int | None, end: str, ev: list[Event]) -> State:
        ev.append(
            Event(
                "game_over",
                "game over: "
                + ("draw" if winner is None else f"{state.players[winner]} wins")
                + f"; numbers {state.numbers[0]} and {state.numbers[1]}",
                {"winner": winner, "end": end, "numbers": list(state.numbers)},
            )
        )
        return replace(state, phase="over", winner=winner, end=end, calls_left=0)

    # --- defaults ---------------------------------------------------------------------------
    def apply_default(self, state: NumeronState, seat: Seat) -> tuple[NumeronState, list[Event]]:
        """The rules' timeout defaults (rules: Time).

        Setup: the host draws a number for the seat; defence window: decline; attack item:
        none; DOUBLE's reveal: the leftmost digit; a call: lost (a strike toward a forfeit).
        """
        self._check_turn(state, seat)
        if seat == CHANCE:
            raise IllegalActionError("chance has no default; draw with sample_chance")
        name = state.players[seat]
        phase = state.phase
        ev = [Event("timeout", f"{name} timed out ({phase})", {"seat": seat, "phase": phase})]
        if phase == "setup":
            new = replace(state, host_draw=state.host_draw | {seat})
        elif phase == "call":
            ev.append(Event("lost_call", f"{name} loses the call", {"seat": seat}))
            new = self._after_call(
                replace(state, calls_left=state.calls_left - 1, lost_call=True), ev
            )
        else:
            action: Action = {"defence": Decline(), "attack_item": NoItem(), "reveal": Reveal(0)}[
                phase
            ]
            new = self._handlers()[(phase, type(action))](state, seat, action, ev)
        return replace(new, log=state.log + tuple(ev)), ev

    # --- views and outcome --------------------------------------------------------------------
    def view(self, state: NumeronState, seat: Seat | None) -> JSON:
        """What ``seat`` knows: see ``views.view``."""
        from dennou.games.numeron.views import view

        return view(self, state, seat)

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> NumeronState:
        """A state consistent with ``view``: see ``views.determinize``."""
        from dennou.games.numeron.views import determinize

        return determinize(view, seat, rng)

    def outcome(self, state: NumeronState) -> Outcome:
        """1 for a win, 0 for a loss, 0.5 each for a draw."""
        if state.phase != "over":
            raise IllegalActionError("the game is not over")
        if state.winner is None:
            scores = [0.5, 0.5]
        else:
            scores = [1.0 if s == state.winner else 0.0 for s in (0, 1)]
        return Outcome.from_scores(
            scores, detail={"end": state.end, "numbers": list(state.numbers), "turns": state.turn}
        )

    # --- talk ---------------------------------------------------------------------------------
    def talk_channels(self, state: NumeronState, speaker: Seat | None) -> frozenset[str]:
        """The room chat (``public``) is open to players and spectators until the end."""
        return frozenset() if state.phase == "over" else frozenset({"public"})

    def talk(
        self, state: NumeronState, speaker: Seat | None, channel: str, text: str, *, name: str = ""
    ) -> tuple[NumeronState, list[Event]]:
        """Say a line in the room chat; spectators may not post digits (rules: Spectators)."""
        if channel not in self.talk_channels(state, speaker):
            raise IllegalActionError(f"channel {channel!r} is not open now", channel=channel)
        if speaker is not None and speaker not in (0, 1):
            raise IllegalActionError(f"no seat {speaker} in Numeron")
        if not text.strip() or len(text) > MAX_TALK:
            raise IllegalActionError(f"a line has 1-{MAX_TALK} characters", channel=channel)
        if speaker is None and not state.rules.spectator_digits and any(c.isdigit() for c in text):
            raise IllegalActionError(
                "spectators may not post digits (the seed's chat rule) — rules: Spectators",
                rule="spectator_digits",
            )
        who = name or (state.players[speaker] if speaker is not None else "spectator")
        line = TalkLine(speaker, who, channel, text)
        mark = "/" if speaker is None else ""
        event = Event("talk", f"{mark}{who}: {text}", to_json(line))
        return replace(state, talk=(*state.talk, line)), [event]

    # --- presentation -------------------------------------------------------------------------
    def render(self, view: JSON) -> str:
        """The view as a few lines of text."""
        from dennou.games.numeron.views import render

        return render(view)

    def describe_legal(self, legal: Sequence[Action]) -> str:
        """Numbers are too many to list: say how to type them."""
        if legal and isinstance(legal[0], Call | SetNumber | HostNumber):
            kind = str(legal[0]).split()[0]
            return f"type: {kind} <number>, e.g. {legal[len(legal) // 2]}"
        return super().describe_legal(legal)

    def bots(self) -> Mapping[str, Callable[..., Any]]:
        """``random`` and ``solver``."""
        from dennou.games.numeron.bots import BOTS

        return BOTS

    def conformance_action(
        self, state: NumeronState, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """Uniform, except that a call hits one time in eight so that games end."""
        secret = state.numbers[state.defender]
        if state.phase == "call" and secret is not None and rng.random() < 0.125:
            return Call(secret)
        return legal[rng.randrange(len(legal))]

    def conformance_rules(self) -> list[NumeronRules]:
        """3, 4 and 5 digits, with and without items, with and without ``equal_turns``."""
        return [
            NumeronRules(digits=3),
            NumeronRules(digits=3, equal_turns=True, first="seat0"),
            NumeronRules(digits=4),
            NumeronRules(digits=4, items=()),
            NumeronRules(digits=5, equal_turns=True),
            NumeronRules(digits=5, items=("double", "double", "shuffle", "move", "target")),
        ]


def _numbers(
    digits: int, make: Callable[[str], Action], accepts: Callable[[object], bool]
) -> LazyActions[Action]:
    pool = all_numbers(digits)
    example = make(pool[0])
    return LazyActions(
        len(pool),
        lambda i: make(pool[i]),
        accepts,
        {"form": {**CODEC.dump(example), "number": f"<{digits} distinct digits 0-9>"}},
    )


def _permutations(number: str) -> set[str]:
    from itertools import permutations

    return {"".join(p) for p in permutations(number)}


def _moved(number: str, i: int, j: int, k: int) -> str | None:
    a, b = int(number[i]) - k, int(number[j]) + k
    if a < 0 or b > 9:
        return None
    digits = list(number)
    digits[i], digits[j] = str(a), str(b)
    new = "".join(digits)
    return new if len(set(new)) == len(new) else None


def _kinds(game: Numeron, state: NumeronState, seat: Seat) -> list[Action]:
    legal = game.legal_actions(state, seat)
    return list(legal) if len(legal) < 100 else [legal[0]]


GAME = Numeron()
"""The Numeron game, as listed in the registry."""
