"""Numeron (ヌメロン): guess the opponent's number of distinct digits from EAT-BITE judgments.

Rules: ``docs/games/numeron.md`` (from source ``001``). Two players seal a 3-5 digit number of
distinct digits; a coin flip picks who calls first; each turn the defender may use a defence item
(SHUFFLE, CHANGE, MOVE), the attacker may use an attack item (DOUBLE, HIGH&LOW, TARGET, SLASH),
then calls; the host judges EAT (right digit, right place) and BITE (right digit, wrong place).
An all-EAT call wins (with ``equal_turns``, the second caller gets one last turn).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import permutations
from typing import Any

from dennou.core.actions import Action, LazyActions
from dennou.core.errors import IllegalActionError, InvalidActionError
from dennou.core.game import (
    CHANCE,
    JSON,
    DuplicateDeals,
    Event,
    Game,
    GameSpec,
    Learning,
    Outcome,
    Seat,
    TalkLine,
    handles,
)
from dennou.core.immutable import replace, replace_at
from dennou.core.talk import check_line, speaker_name, talk_event
from dennou.games.numeron.actions import (
    CODEC,
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
        host_clock=True,
        duplicate=DuplicateDeals(("coin",), "the coin flip that decides who calls first"),
        learning=Learning("dennou.games.numeron.encoding:NumeronEncoding", 2, {"digits": 3}),
        board="numeron",
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
            shuffles, changes, moves = _defences(number)
            if "shuffle" in items:
                out.extend(shuffles)
            if "change" in items:
                out.extend(changes)
            if "move" in items:
                out.extend(moves)
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
    def commit(self, old: State, new: State, events: list[Event]) -> State:
        """The log keeps every event of the game, each with its audience."""
        return replace(new, log=old.log + tuple(events))

    def _take(self, state: State, seat: Seat, item: Item) -> tuple[Item, ...]:
        """``seat``'s items without one ``item`` (rules: Items: each item is used once)."""
        items = state.items[seat]
        if item not in items:
            raise IllegalActionError(
                f"seat {seat} holds no {item.upper()} (items left: {list(items) or 'none'})",
                section="Items",
                seat=seat,
                phase=state.phase,
                rule="items",
            )
        i = items.index(item)
        return items[:i] + items[i + 1 :]

    def _valid_number(self, state: State, number: str, what: str) -> None:
        digits = state.rules.digits
        if not is_number(number, digits):
            raise IllegalActionError(
                f"{what} must be {digits} distinct digits 0-9 (a leading 0 is allowed), "
                f"got {number!r}",
                section="Setup, Judging",
                rule="number",
            )

    @handles("setup", SetNumber)
    def _set_number(self, state: State, seat: Seat, action: SetNumber, ev: list[Event]) -> State:
        self._valid_number(state, action.number, "a number")
        return self._store_number(state, seat, action.number, ev, by_host=False)

    @handles("setup", HostNumber)
    def _host_number(self, state: State, seat: Seat, action: HostNumber, ev: list[Event]) -> State:
        if action.seat not in state.host_draw:
            raise IllegalActionError(
                f"the host has no number to draw for seat {action.seat}", section="Time"
            )
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
            numbers=replace_at(state.numbers, seat, number),
            histories=replace_at(state.histories, seat, (number,)),
        )
        if None in state.numbers or state.host_draw:
            return state
        if state.rules.first == "coin":
            return replace(state, phase="coin")
        return self._begin_turn(replace(state, first=0), 0, ev)

    @handles("coin", Coin)
    def _coin(self, state: State, seat: Seat, action: Coin, ev: list[Event]) -> State:
        if action.first not in (0, 1):
            raise IllegalActionError(
                f"the coin names seat 0 or 1, not {action.first}", section="Setup"
            )
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
    @handles("defence", Decline)
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
        items: tuple[Item, ...],
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
            items=replace_at(state.items, seat, items),
            numbers=replace_at(state.numbers, seat, new),
            histories=replace_at(state.histories, seat, (*state.histories[seat], new)),
        )
        return self._to_attack(state)

    @handles("defence", Shuffle)
    def _shuffle(self, state: State, seat: Seat, action: Shuffle, ev: list[Event]) -> State:
        items = self._take(state, seat, "shuffle")
        old = state.numbers[seat]
        assert old is not None
        if sorted(action.number) != sorted(old) or len(action.number) != len(old):
            raise IllegalActionError(
                f"SHUFFLE reorders your own digits {sorted(old)}; {action.number!r} does not",
                section="Items, SHUFFLE",
                seat=seat,
                rule="shuffle",
            )
        text = f"{state.players[seat]} used SHUFFLE"
        return self._defend(state, seat, "shuffle", action.number, {}, text, ev, items)

    @handles("defence", Change)
    def _change(self, state: State, seat: Seat, action: Change, ev: list[Event]) -> State:
        items = self._take(state, seat, "change")
        old = state.numbers[seat]
        assert old is not None
        p, d = action.position, action.digit
        digits = state.rules.digits
        why = ""
        if not 0 <= p < digits:
            why = f"CHANGE position must be 0-{digits - 1}, got {p}"
        elif not 0 <= d <= 9:
            why = f"CHANGE digit must be 0-9, got {d}"
        elif str(d) in old:
            why = f"CHANGE must bring in a digit not in your number {old}, got {d}"
        elif digit_class(d) != digit_class(int(old[p])):
            why = (
                f"CHANGE keeps the class: the {place(p, digits)} digit is "
                f"{digit_class(int(old[p]))}, {d} is {digit_class(d)}"
            )
        if why:
            raise IllegalActionError(why, section="Items, CHANGE", seat=seat, rule="change")
        cls = digit_class(d)
        new = old[:p] + str(d) + old[p + 1 :]
        text = f"{state.players[seat]} used CHANGE: {place(p, digits)} place, {cls}"
        public = {"position": p, "class": cls}
        return self._defend(state, seat, "change", new, public, text, ev, items)

    @handles("defence", Move)
    def _move(self, state: State, seat: Seat, action: Move, ev: list[Event]) -> State:
        items = self._take(state, seat, "move")
        old = state.numbers[seat]
        assert old is not None
        i, j, k = action.source, action.target, action.amount
        digits = state.rules.digits
        new = None
        if not (0 <= i < digits and 0 <= j < digits) or i == j:
            why = f"MOVE needs two different positions 0-{digits - 1}, got {i} and {j}"
        elif k < 1:
            why = f"MOVE amount must be at least 1, got {k}"
        else:
            new = _moved(old, i, j, k)
            why = f"MOVE {k} from {old[i]} to {old[j]} in {old} leaves 0-9 or repeats a digit"
        if new is None:
            raise IllegalActionError(why, section="Items, MOVE", seat=seat, rule="move")
        text = (
            f"{state.players[seat]} used MOVE: from the {place(i, digits)} "
            f"to the {place(j, digits)} place"
        )
        public = {"source": i, "target": j}
        return self._defend(state, seat, "move", new, public, text, ev, items)

    # attack items
    def _use(self, state: State, seat: Seat, item: Item, public: JSON, ev: list[Event]) -> State:
        name = state.players[seat]
        label = {"high_low": "HIGH&LOW"}.get(item, item.upper())
        detail = f" {public['digit']}" if "digit" in public else ""
        ev.append(
            Event("item", f"{name} used {label}{detail}", {"seat": seat, "item": item, **public})
        )
        return replace(state, items=replace_at(state.items, seat, self._take(state, seat, item)))

    def _result(
        self, state: State, seat: Seat, item: Item, data: JSON, text: str, ev: list[Event]
    ) -> None:
        ev.append(
            Event("item_result", text, {"seat": seat, "item": item, **data}, frozenset({0, 1}))
        )

    @handles("attack_item", NoItem)
    def _no_item(self, state: State, seat: Seat, action: NoItem, ev: list[Event]) -> State:
        return replace(state, phase="call")

    @handles("attack_item", Double)
    def _double(self, state: State, seat: Seat, action: Double, ev: list[Event]) -> State:
        state = self._use(state, seat, "double", {}, ev)
        return replace(state, phase="reveal", calls_left=2)

    @handles("reveal", Reveal)
    def _reveal(self, state: State, seat: Seat, action: Reveal, ev: list[Event]) -> State:
        digits = state.rules.digits
        p = action.position
        if not 0 <= p < digits:
            raise IllegalActionError(
                f"reveal position must be 0-{digits - 1}, got {p}",
                section="Items, DOUBLE",
                seat=seat,
                rule="reveal",
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

    @handles("attack_item", HighLow)
    def _high_low(self, state: State, seat: Seat, action: HighLow, ev: list[Event]) -> State:
        state = self._use(state, seat, "high_low", {}, ev)
        secret = state.numbers[state.defender]
        assert secret is not None
        result = [digit_class(int(c)) for c in secret]
        self._result(
            state, seat, "high_low", {"result": result}, "HIGH&LOW: " + " ".join(result), ev
        )
        return replace(state, phase="call")

    @handles("attack_item", Target)
    def _target(self, state: State, seat: Seat, action: Target, ev: list[Event]) -> State:
        d = action.digit
        self._take(state, seat, "target")
        if not 0 <= d <= 9:
            raise IllegalActionError(
                f"TARGET names a digit 0-9, got {d}", section="Items, TARGET", seat=seat
            )
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

    @handles("attack_item", Slash)
    def _slash(self, state: State, seat: Seat, action: Slash, ev: list[Event]) -> State:
        state = self._use(state, seat, "slash", {}, ev)
        secret = state.numbers[state.defender]
        assert secret is not None
        value = int(max(secret)) - int(min(secret))
        self._result(state, seat, "slash", {"result": value}, f"SLASH number: {value}", ev)
        return replace(state, phase="call")

    # calls
    @handles("call", Call)
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
        strikes = replace_at(state.strikes, a, state.strikes[a] + 1 if state.lost_call else 0)
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
        self.check_default(state, seat)
        name = state.players[seat]
        phase = state.phase
        ev = [self.timeout_event(state, seat)]
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
            new = self.dispatch(state, seat, action, ev)
        return self.commit(state, new, ev), ev

    # --- outcome ------------------------------------------------------------------------------
    def outcome(self, state: NumeronState) -> Outcome:
        """1 for a win, 0 for a loss, 0.5 each for a draw."""
        self.check_over(state)
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
        check_line(text, channel)
        if speaker is None and not state.rules.spectator_digits and any(c.isdigit() for c in text):
            raise IllegalActionError(
                "spectators may not post digits",
                section="Spectators",
                rule="spectator_digits",
            )
        line = TalkLine(speaker, speaker_name(state.players, speaker, name), channel, text)
        return replace(state, talk=state.talk + (line,)), [talk_event(line)]  # noqa: RUF005 (a Log grows in place)

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
    form = _number_form(make(pool[0]), digits)
    return LazyActions(len(pool), lambda i: make(pool[i]), accepts, {"form": dict(form)})


@lru_cache(maxsize=256)
def _number_form(example: Action, digits: int) -> dict[str, Any]:
    """How to form a number action like ``example`` (built once; callers copy it)."""
    return {**CODEC.dump(example), "number": f"<{digits} distinct digits 0-9>"}


@lru_cache(maxsize=20_000)
def _defences(number: str) -> tuple[tuple[Shuffle, ...], tuple[Change, ...], tuple[Move, ...]]:
    """The SHUFFLE, CHANGE and MOVE a defender holding ``number`` may make (rules: Items).

    A pure function of the number (its length is the digits), remembered: a random or search
    player lists them at every defence, and there are at most 30,240 numbers.
    """
    digits = len(number)
    shuffles = tuple(Shuffle(n) for n in sorted(_permutations(number)))
    changes = tuple(
        Change(p, d)
        for p in range(digits)
        for d in range(10)
        if str(d) not in number and digit_class(d) == digit_class(int(number[p]))
    )
    moves = tuple(
        Move(i, j, k)
        for i in range(digits)
        for j in range(digits)
        if i != j
        for k in range(1, 10)
        if _moved(number, i, j, k) is not None
    )
    return shuffles, changes, moves


def _permutations(number: str) -> set[str]:
    return {"".join(p) for p in permutations(number)}


def _moved(number: str, i: int, j: int, k: int) -> str | None:
    a, b = int(number[i]) - k, int(number[j]) + k
    if a < 0 or b > 9:
        return None
    digits = list(number)
    digits[i], digits[j] = str(a), str(b)
    new = "".join(digits)
    return new if len(set(new)) == len(new) else None
