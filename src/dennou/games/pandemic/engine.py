"""Pandemic Game (感染ゲーム): avoid infection while collecting vaccines, in sealed ticks.

Rules: ``docs/games/pandemic.md`` (the second part of source ``004``, LIAR GAME round 4).
12 players (4-24) wear watches holding a hidden status (normal/infected) and a vaccine count; the
host infects 2 at random. The game runs in rounds of ticks; in each tick every player seals one
action: ``contact p`` (touch watches with p, only if p asks for them too), ``check`` (learn one's
own status and vaccines), ``cure`` (infected with a vaccine: spend one, become normal) or
``idle``. A tick resolves cures, then contacts (the source's table; a pair earns vaccines once),
then checks. After each round the host announces how many are normal and infected. At the end
the normal players with the most vaccines qualify (top 6; ties at the cut by the host's draw).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from math import comb

from dennou.core.actions import Action, LazyActions
from dennou.core.errors import ConfigError, IllegalActionError
from dennou.core.game import (
    CHANCE,
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
from dennou.core.immutable import replace
from dennou.core.talk import check_line, pair_channel, pair_seats, speaker_name, talk_event
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
    unrank_combination,
    uses_pair,
)

State = PandemicState


def qualification(
    infected: Sequence[bool], vaccines: Sequence[int], rules: PandemicRules
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Who qualifies (rules: End).

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
        host_clock=True,
        duplicate=DuplicateDeals(("infect",), "the infected draw at the start"),
        learning=Learning("dennou.games.pandemic.encoding:PandemicEncoding", 12),
        board="pandemic",
    )
    rules_type = PandemicRules
    codec = CODEC

    # --- setup ------------------------------------------------------------------------------
    def default_players(self, rules: PandemicRules) -> int:
        """The source's 12 players."""
        return 12

    def new(self, rules: PandemicRules, players: Sequence[str]) -> PandemicState:
        """Start a game: the host draws who is infected (a chance step)."""
        self.check_players(players)
        n = len(players)
        if rules.infected >= n:
            raise ConfigError(
                f"infected={rules.infected} needs more players than that, got {n}",
                section="Setup",
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
            return frozenset([s for s, a in enumerate(state.pending) if a is None])
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
        return list(_tick_actions(state.n, seat))

    # --- transitions ------------------------------------------------------------------------
    @handles("setup", Infect)
    def _infect(self, state: State, seat: Seat, action: Infect, events: list[Event]) -> State:
        k = state.rules.infected
        if not _is_subset(action.seats, tuple(range(state.n)), k):
            raise IllegalActionError(
                f"infect names {k} distinct seats 0-{state.n - 1} in increasing order, got "
                f"{list(action.seats)}",
                section="Setup",
                rule="setup",
            )
        infected = tuple(s in action.seats for s in range(state.n))
        events.append(
            Event(
                "start",
                f"the host has infected {k} of {state.n} players; round 1 begins",
                {"infected": k, "players": state.n},
            )
        )
        events.append(
            Event(
                "infect",
                "the host's draw: " + ", ".join(state.players[s] for s in action.seats),
                {"seats": list(action.seats)},
                frozenset(),
            )
        )
        return replace(
            state,
            phase="tick",
            round=1,
            tick=1,
            infected=infected,
            initially_infected=action.seats,
        )

    @handles("tick", Contact)
    def _contact(self, state: State, seat: Seat, action: Contact, events: list[Event]) -> State:
        if not (0 <= action.player < state.n and action.player != seat):
            raise IllegalActionError(
                f"contact names another player's seat 0-{state.n - 1} (not your own {seat}), "
                f"got {action.player}",
                section="Time",
                seat=seat,
                rule="contact",
            )
        return self._submit(state, seat, action, events)

    @handles("tick", Check, Cure, Idle)
    def _order(self, state: State, seat: Seat, action: Action, events: list[Event]) -> State:
        return self._submit(state, seat, action, events)

    def _submit(self, state: State, seat: Seat, action: Action, events: list[Event]) -> State:
        pending = list(state.pending)
        pending[seat] = action
        events.append(
            Event(
                "sealed",
                f"{state.players[seat]} has sealed an action",
                {"seat": seat, "round": state.round, "tick": state.tick},
            )
        )
        events.append(
            Event(
                "my_action",
                f"you chose {action}",
                {"seat": seat, "action": CODEC.dump(action)},
                frozenset({seat}),
            )
        )
        new = replace(state, pending=tuple(pending))
        if any(a is None for a in pending):
            return new
        return self._resolve(new, events)

    def _resolve(self, state: State, events: list[Event]) -> State:
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
            return replace(new, tick=t + 1)
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
            return replace(new, round=r + 1, tick=1)
        return self._end(new, events)

    def _end(self, state: State, events: list[Event]) -> State:
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
            return replace(state, phase="tiebreak", tied=tied, slots=slots, qualified=sure)
        return self._finish(state, sure, events)

    @handles("tiebreak", Tiebreak)
    def _tiebreak(self, state: State, seat: Seat, action: Tiebreak, events: list[Event]) -> State:
        if not _is_subset(action.seats, state.tied, state.slots):
            raise IllegalActionError(
                f"tiebreak names {state.slots} of the tied seats {list(state.tied)} in "
                f"increasing order, got {list(action.seats)}",
                section="End",
                rule="tiebreak",
            )
        events.append(
            Event(
                "tiebreak",
                "the draw: " + ", ".join(state.players[s] for s in action.seats),
                {"seats": list(action.seats), "tied": list(state.tied)},
            )
        )
        assert state.qualified is not None
        return self._finish(state, tuple(sorted(state.qualified + action.seats)), events)

    def _finish(self, state: State, qualified: tuple[int, ...], events: list[Event]) -> State:
        events.append(
            Event(
                "qualified",
                "qualified: " + (", ".join(state.players[s] for s in qualified) or "nobody"),
                {"qualified": list(qualified)},
            )
        )
        return replace(state, phase="over", qualified=qualified)

    # --- defaults ---------------------------------------------------------------------------
    def apply_default(self, state: PandemicState, seat: Seat) -> tuple[PandemicState, list[Event]]:
        """A seat that times out idles this tick (rules page: Time)."""
        self.check_default(state, seat)
        events = [self.timeout_event(state, seat)]
        return self._submit(state, seat, Idle(), events), events

    # --- outcome ------------------------------------------------------------------------------
    def outcome(self, state: PandemicState) -> Outcome:
        """1 for each qualifier, 0 for the others."""
        self.check_over(state)
        assert state.qualified is not None
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
                "pair:<a>-<b> with yourself in it, until the last tick)",
                section="Time",
                channel=channel,
            )
        check_line(text, channel)
        line = TalkLine(speaker, speaker_name(state.players, speaker, name), channel, text)
        seats = pair_seats(channel)
        event = talk_event(line, None if seats is None else frozenset(seats))
        return replace(state, talk=state.talk + (line,)), [event]  # noqa: RUF005 (a Log grows in place)

    # --- tests ------------------------------------------------------------------------------
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


@lru_cache(maxsize=1024)
def _tick_actions(n: int, seat: int) -> tuple[Action, ...]:
    """A seat's choices at a tick (rules: A tick), built once per table size and seat."""
    return (Idle(), Check(), Cure(), *(Contact(p) for p in range(n) if p != seat))
