"""Pandemic Game (感染ゲーム): avoid infection while collecting vaccines, in sealed ticks.

Rules: ``../shared/rules/pandemic.md`` (second part of seed ``004``, LIAR GAME round 4 qualifier).
12 players (4-24) wear watches holding a hidden status (normal/infected) and a vaccine count; the
host infects 2 at random. The game runs in rounds of ticks; in each tick every player seals one
action: ``contact p`` (touch watches with p, only if p asks for them too), ``check`` (learn one's
own status and vaccines), ``cure`` (infected with a vaccine: spend one, become normal) or
``idle``. A tick resolves cures, then contacts (the seed's table; a pair earns vaccines once),
then checks. After each round the host announces how many are normal and infected. At the end
the normal players with the most vaccines qualify (top 6; ties at the cut by a seeded draw).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from math import comb
from typing import Any

from dennou.core.actions import Action, LazyActions
from dennou.core.errors import ConfigError, GameOverError, IllegalActionError, NotYourTurnError
from dennou.core.game import CHANCE, JSON, Event, Game, GameSpec, Outcome, Seat, TalkLine
from dennou.core.jsondata import to_json
from dennou.games.pandemic.actions import (
    CODEC,
    Check,
    Contact,
    Cure,
    Idle,
    Infect,
    Tiebreak,
)
from dennou.games.pandemic.rules import PandemicRules
from dennou.games.pandemic.state import (
    Announcement,
    CheckResult,
    ContactMade,
    PandemicState,
    contact_result,
    pair,
    unrank_combination,
    uses_pair,
)

RULES_PAGE = "../shared/rules/pandemic.md"
MAX_TALK = 500

State = PandemicState


def pair_channel(a: int, b: int) -> str:
    """The private talk channel of two seats: ``pair:<low>-<high>``."""
    lo, hi = pair(a, b)
    return f"pair:{lo}-{hi}"


def channel_seats(channel: str) -> tuple[int, int] | None:
    """The two seats of a ``pair:<a>-<b>`` channel, or ``None`` if it is not one."""
    if not channel.startswith("pair:"):
        return None
    a, sep, b = channel[5:].partition("-")
    if not sep or not a.isdigit() or not b.isdigit():
        return None
    lo, hi = int(a), int(b)
    if lo >= hi or f"pair:{lo}-{hi}" != channel:
        return None
    return lo, hi


def qualification(
    infected: Sequence[bool], vaccines: Sequence[int], rules: PandemicRules
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Who qualifies (rules page: End).

    Returns:
        ``(sure, tied, slots)``: the players who qualify outright, and the players tied at the
        cut of whom ``slots`` qualify by the host's draw (``tied`` is empty when no draw is due).
    """
    eligible = [
        s for s in range(len(infected)) if not infected[s] and vaccines[s] >= rules.min_vaccines
    ]
    eligible.sort(key=lambda s: (-vaccines[s], s))
    q = rules.qualifiers
    if q is None or len(eligible) <= q:
        return tuple(sorted(eligible)), (), 0
    cut = vaccines[eligible[q - 1]]
    above = tuple(sorted(s for s in eligible if vaccines[s] > cut))
    tied = tuple(sorted(s for s in eligible if vaccines[s] == cut))
    slots = q - len(above)
    if len(tied) == slots:
        return tuple(sorted(above + tied)), (), 0
    return above, tied, slots


class Pandemic(Game[PandemicState, PandemicRules]):
    """The Pandemic Game engine."""

    spec = GameSpec(
        name="pandemic",
        title="Pandemic Game (感染ゲーム)",
        version=1,
        min_players=4,
        max_players=24,
        chance=True,
        hidden_information=True,
        simultaneous=True,
        talk=True,
    )
    rules_type = PandemicRules
    codec = CODEC

    # --- setup ------------------------------------------------------------------------------
    def default_players(self, rules: PandemicRules) -> int:
        """The seed's 12 players."""
        return 12

    def new(self, rules: PandemicRules, players: Sequence[str]) -> PandemicState:
        """Start a game: the host draws who is infected (a chance step)."""
        self.check_players(players)
        n = len(players)
        if rules.infected >= n:
            raise ConfigError(
                f"infected={rules.infected} needs more players than that, got {n} — rules: Setup"
            )
        return PandemicState(
            rules=rules,
            players=tuple(players),
            infected=(False,) * n,
            vaccines=(0,) * n,
            pending=(None,) * n,
        )

    def to_act(self, state: PandemicState) -> frozenset[Seat]:
        """Setup and tiebreak: chance; a tick: every seat that has not sealed its action yet."""
        if state.phase in ("setup", "tiebreak"):
            return frozenset({CHANCE})
        if state.phase == "tick":
            return frozenset(s for s, a in enumerate(state.pending) if a is None)
        return frozenset()

    def sample_chance(self, state: PandemicState, rng: random.Random) -> Action:
        """Draw the infected at the start, or the winners of the draw at the cut."""
        if state.phase == "setup":
            return Infect(tuple(sorted(rng.sample(range(state.n), state.rules.infected))))
        if state.phase == "tiebreak":
            return Tiebreak(tuple(sorted(rng.sample(state.tied, state.slots))))
        raise IllegalActionError("no chance action is due", phase=state.phase)

    # --- legal actions ----------------------------------------------------------------------
    def legal_actions(self, state: PandemicState, seat: Seat) -> Sequence[Action]:
        """Every action ``seat`` may take now (chance outcomes as lazy sequences)."""
        if seat not in self.to_act(state):
            return []
        if seat == CHANCE:
            if state.phase == "setup":
                return _subsets(tuple(range(state.n)), state.rules.infected, Infect)
            return _subsets(state.tied, state.slots, Tiebreak)
        return [
            Idle(),
            Check(),
            Cure(),
            *(Contact(p) for p in range(state.n) if p != seat),
        ]

    # --- transitions ------------------------------------------------------------------------
    def _check_turn(self, state: PandemicState, seat: Seat) -> None:
        if state.phase == "over":
            raise GameOverError("the game is over", seat=seat)
        acting = self.to_act(state)
        if seat not in acting:
            why = (
                "has already sealed its action this tick"
                if state.phase == "tick" and 0 <= seat < state.n
                else "may not act now"
            )
            raise NotYourTurnError(
                f"seat {seat} {why} ({state.phase}; to act: {sorted(acting)})",
                seat=seat,
                phase=state.phase,
            )

    def apply(
        self, state: PandemicState, seat: Seat, action: Action
    ) -> tuple[PandemicState, list[Event]]:
        """Apply an action after checking it against the rules."""
        self._check_turn(state, seat)
        if seat == CHANCE:
            if state.phase == "setup" and type(action) is Infect:
                return self._infect(state, action)
            if state.phase == "tiebreak" and type(action) is Tiebreak:
                return self._tiebreak(state, action)
            raise IllegalActionError(
                f"{type(action).__name__} is not the chance action due in the {state.phase} phase",
                phase=state.phase,
            )
        if type(action) not in (Contact, Check, Cure, Idle):
            raise IllegalActionError(
                f"{type(action).__name__} is the host's action; players play contact, check, "
                "cure or idle — rules: Time",
                seat=seat,
            )
        if isinstance(action, Contact) and not (
            0 <= action.player < state.n and action.player != seat
        ):
            raise IllegalActionError(
                f"contact names another player's seat 0-{state.n - 1} (not your own {seat}), "
                f"got {action.player} — rules: Time",
                seat=seat,
                rule="contact",
            )
        return self._submit(state, seat, action)

    def _infect(self, state: State, action: Infect) -> tuple[State, list[Event]]:
        k = state.rules.infected
        if not _is_subset(action.seats, tuple(range(state.n)), k):
            raise IllegalActionError(
                f"infect names {k} distinct seats 0-{state.n - 1} in increasing order, got "
                f"{list(action.seats)} — rules: Setup",
                rule="setup",
            )
        infected = tuple(s in action.seats for s in range(state.n))
        new = replace(
            state,
            phase="tick",
            round=1,
            tick=1,
            infected=infected,
            initially_infected=action.seats,
        )
        events = [
            Event(
                "start",
                f"the host has infected {k} of {state.n} players; round 1 begins",
                {"infected": k, "players": state.n},
            ),
            Event(
                "infect",
                "the host's draw: " + ", ".join(state.players[s] for s in action.seats),
                {"seats": list(action.seats)},
                frozenset(),
            ),
        ]
        return new, events

    def _submit(self, state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
        pending = list(state.pending)
        pending[seat] = action
        events = [
            Event(
                "sealed",
                f"{state.players[seat]} has sealed an action",
                {"seat": seat, "round": state.round, "tick": state.tick},
            ),
            Event(
                "my_action",
                f"you chose {action}",
                {"seat": seat, "action": CODEC.dump(action)},
                frozenset({seat}),
            ),
        ]
        new = replace(state, pending=tuple(pending))
        if any(a is None for a in pending):
            return new, events
        return self._resolve(new, events)

    def _resolve(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        """Resolve the tick: cures, then contacts, then checks (rules page: Contact outcomes)."""
        rules = state.rules
        orders = tuple(a if a is not None else Idle() for a in state.pending)
        infected = list(state.infected)
        vaccines = list(state.vaccines)
        r, t = state.round, state.tick
        cures = list(state.cures)
        for s, a in enumerate(orders):
            if isinstance(a, Cure) and infected[s] and vaccines[s] > 0:
                infected[s], vaccines[s] = False, vaccines[s] - 1
                cures.append((r, t, s))
        used = set(state.used_pairs)
        made: list[ContactMade] = []
        for s, a in enumerate(orders):
            if not isinstance(a, Contact) or a.player < s:
                continue
            other = orders[a.player]
            if isinstance(other, Contact) and other.player == s:
                p = (s, a.player)
                before = (infected[s], infected[a.player])
                (infected[s], vaccines[s]), (infected[p[1]], vaccines[p[1]]), _ = contact_result(
                    (infected[s], vaccines[s]),
                    (infected[p[1]], vaccines[p[1]]),
                    used=p in used,
                    transfer=rules.transfer,
                )
                if uses_pair(rules.pair_rule, *before):
                    used.add(p)
                made.append(ContactMade(r, t, s, p[1]))
        for c in made:
            events.append(
                Event(
                    "contact",
                    f"round {r} tick {t}: {state.players[c.a]} and {state.players[c.b]} touched",
                    {"round": r, "tick": t, "players": [c.a, c.b]},
                    None if rules.public_contacts else frozenset({c.a, c.b}),
                )
            )
        checks = list(state.checks)
        for s, a in enumerate(orders):
            if isinstance(a, Check):
                res = CheckResult(s, r, t, infected[s], vaccines[s])
                checks.append(res)
                events.append(
                    Event(
                        "check",
                        f"check room: you are {'INFECTED' if res.infected else 'normal'} with "
                        f"{res.vaccines} vaccine(s)",
                        {
                            "seat": s,
                            "round": r,
                            "tick": t,
                            "infected": res.infected,
                            "vaccines": res.vaccines,
                        },
                        frozenset({s}),
                    )
                )
        new = replace(
            state,
            infected=tuple(infected),
            vaccines=tuple(vaccines),
            used_pairs=frozenset(used),
            pending=(None,) * state.n,
            history=(*state.history, orders),
            contacts=state.contacts + tuple(made),
            checks=tuple(checks),
            cures=tuple(cures),
        )
        events.append(
            Event(
                "tick",
                f"round {r} tick {t} resolved",
                {
                    "round": r,
                    "tick": t,
                    "orders": [CODEC.dump(a) for a in orders],
                    "infected": list(new.infected),
                    "vaccines": list(new.vaccines),
                },
                frozenset(),
            )
        )
        if t < rules.ticks:
            return replace(new, tick=t + 1), events
        if rules.announce:
            k = sum(new.infected)
            new = replace(new, announcements=(*new.announcements, Announcement(r, new.n - k, k)))
            events.append(
                Event(
                    "announce",
                    f"after round {r}: {new.n - k} normal, {k} infected",
                    {"round": r, "normal": new.n - k, "infected": k},
                )
            )
        if r < rules.rounds:
            return replace(new, round=r + 1, tick=1), events
        return self._end(new, events)

    def _end(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        sure, tied, slots = qualification(state.infected, state.vaccines, state.rules)
        events.append(
            Event(
                "final",
                "the game is over; statuses: "
                + ", ".join(
                    f"{name} {'infected' if inf else 'normal'}/{v}"
                    for name, inf, v in zip(
                        state.players, state.infected, state.vaccines, strict=True
                    )
                ),
                {"infected": list(state.infected), "vaccines": list(state.vaccines)},
            )
        )
        if tied:
            events.append(
                Event(
                    "draw_due",
                    f"tie at the cut: {slots} of "
                    + ", ".join(state.players[s] for s in tied)
                    + " qualify by the host's draw",
                    {"tied": list(tied), "slots": slots, "qualified": list(sure)},
                )
            )
            return replace(state, phase="tiebreak", tied=tied, slots=slots, qualified=sure), events
        return self._finish(state, sure, events)

    def _tiebreak(self, state: State, action: Tiebreak) -> tuple[State, list[Event]]:
        if not _is_subset(action.seats, state.tied, state.slots):
            raise IllegalActionError(
                f"tiebreak names {state.slots} of the tied seats {list(state.tied)} in "
                f"increasing order, got {list(action.seats)} — rules: End",
                rule="tiebreak",
            )
        events = [
            Event(
                "tiebreak",
                "the draw: " + ", ".join(state.players[s] for s in action.seats),
                {"seats": list(action.seats), "tied": list(state.tied)},
            )
        ]
        assert state.qualified is not None
        return self._finish(state, tuple(sorted(state.qualified + action.seats)), events)

    def _finish(
        self, state: State, qualified: tuple[int, ...], events: list[Event]
    ) -> tuple[State, list[Event]]:
        events.append(
            Event(
                "qualified",
                "qualified: " + (", ".join(state.players[s] for s in qualified) or "nobody"),
                {"qualified": list(qualified)},
            )
        )
        return replace(state, phase="over", qualified=qualified), events

    # --- defaults ---------------------------------------------------------------------------
    def apply_default(self, state: PandemicState, seat: Seat) -> tuple[PandemicState, list[Event]]:
        """A seat that times out idles this tick (rules page: Time)."""
        self._check_turn(state, seat)
        if seat == CHANCE:
            raise IllegalActionError("chance has no default; draw with sample_chance")
        new, events = self._submit(state, seat, Idle())
        events.insert(
            0, Event("timeout", f"{state.players[seat]} timed out and idles", {"seat": seat})
        )
        return new, events

    # --- views and outcome --------------------------------------------------------------------
    def view(self, state: PandemicState, seat: Seat | None) -> JSON:
        """What ``seat`` knows: see ``views.view``."""
        from dennou.games.pandemic.views import view

        return view(self, state, seat)

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> PandemicState:
        """A state consistent with ``view``: see ``views.determinize``."""
        from dennou.games.pandemic.views import determinize

        return determinize(view, seat, rng)

    def outcome(self, state: PandemicState) -> Outcome:
        """1 for each qualifier, 0 for the others."""
        if state.phase != "over" or state.qualified is None:
            raise IllegalActionError("the game is not over")
        q = set(state.qualified)
        return Outcome.from_scores(
            [1.0 if s in q else 0.0 for s in range(state.n)],
            detail={
                "qualified": list(state.qualified),
                "infected": list(state.infected),
                "vaccines": list(state.vaccines),
                "initially_infected": list(state.initially_infected),
                "contacts": len(state.contacts),
            },
        )

    # --- talk ---------------------------------------------------------------------------------
    def talk_channels(self, state: PandemicState, speaker: Seat | None) -> frozenset[str]:
        """Until the last tick: ``public`` and each ``pair:<a>-<b>`` with the speaker in it.

        Spectators do not talk: they must not be able to pass what they see to players.
        """
        if speaker is None or state.phase not in ("setup", "tick"):
            return frozenset()
        if not 0 <= speaker < state.n:
            return frozenset()
        return frozenset(
            {"public", *(pair_channel(speaker, o) for o in range(state.n) if o != speaker)}
        )

    def talk(
        self,
        state: PandemicState,
        speaker: Seat | None,
        channel: str,
        text: str,
        *,
        name: str = "",
    ) -> tuple[PandemicState, list[Event]]:
        """Say a line in public or privately to one other player (it binds nobody)."""
        if channel not in self.talk_channels(state, speaker):
            raise IllegalActionError(
                f"channel {channel!r} is not open to {speaker} now (open: public, "
                "pair:<a>-<b> with yourself in it, until the last tick) — rules: Time",
                channel=channel,
            )
        if not text.strip() or len(text) > MAX_TALK:
            raise IllegalActionError(f"a line has 1-{MAX_TALK} characters", channel=channel)
        assert speaker is not None
        who = name or state.players[speaker]
        line = TalkLine(speaker, who, channel, text)
        seats = channel_seats(channel)
        event = Event(
            "talk",
            f"{who}{'' if seats is None else ' (private)'}: {text}",
            to_json(line),
            None if seats is None else frozenset(seats),
        )
        return replace(state, talk=(*state.talk, line)), [event]

    # --- presentation -------------------------------------------------------------------------
    def render(self, view: JSON) -> str:
        """The view as a few lines of text."""
        from dennou.games.pandemic.views import render

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

    def bots(self) -> Mapping[str, Callable[..., Any]]:
        """``random`` and ``belief``."""
        from dennou.games.pandemic.bots import BOTS

        return BOTS

    def conformance_rules(self) -> list[PandemicRules]:
        """The defaults, every option flipped, and short games."""
        return [
            PandemicRules(),
            PandemicRules(
                rounds=2,
                ticks=4,
                public_contacts=False,
                announce=False,
                transfer=True,
                pair_rule="first_contact",
            ),
            PandemicRules(rounds=2, ticks=5, qualifiers=None, min_vaccines=1, infected=1),
            PandemicRules(rounds=1, ticks=6, qualifiers=2, infected=3),
        ]

    def conformance_action(
        self, state: PandemicState, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """Mostly uniform, but often answer a partner so that contacts (and vaccines) happen."""
        if rng.random() < 0.5:
            partner = rng.randrange(state.n - 1)
            partner += partner >= seat
            # Seats are resolved in order: pair up with a seat that asked for us.
            for s, a in enumerate(state.pending):
                if isinstance(a, Contact) and a.player == seat:
                    partner = s
                    break
            return Contact(partner)
        return legal[rng.randrange(len(legal))]


def _is_subset(seats: tuple[int, ...], pool: tuple[int, ...], k: int) -> bool:
    return (
        len(seats) == k
        and all(isinstance(s, int) for s in seats)
        and list(seats) == sorted(set(seats))
        and set(seats) <= set(pool)
    )


def _subsets(
    pool: tuple[int, ...], k: int, make: Callable[[tuple[int, ...]], Action]
) -> LazyActions[Action]:
    n = len(pool)
    cls = type(make(tuple(pool[:k])))
    return LazyActions(
        comb(n, k),
        lambda i: make(tuple(pool[j] for j in unrank_combination(n, k, i))),
        lambda a: type(a) is cls and _is_subset(a.seats, pool, k),  # type: ignore[attr-defined]
        {"form": {**CODEC.dump(make(tuple(pool[:k]))), "seats": f"<{k} of {list(pool)}>"}},
    )


GAME = Pandemic()
"""The Pandemic Game, as listed in the registry."""
