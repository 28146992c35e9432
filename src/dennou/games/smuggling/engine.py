"""Smuggling Game (密輸ゲーム, LIAR GAME round 3): two teams smuggle and inspect in turn.

Rules: ``docs/games/smuggling.md`` (the first part of source ``004``). Two teams, North and South,
each player with a home account (300M yen, in the opposing country) and a third-country account
(100M); 400M is a loan repaid at the end. 50 small games; odd ones North smuggles, even ones South.
In each, both teams pick a representative (sealed nominations, or a rotation); the smuggler seals
0..min(100M, home) yen in a trunk; smuggler and inspector talk in a private inspection room; the
inspector passes or doubts X (X <= twice their third-country balance); the trunk is settled in one
of four cases (pass, doubt on an empty trunk, caught, through) with X/2 compensation rounded down
to 10,000 yen. At the end the team whose third-country accounts hold more wins; then home leftovers
go to the other team as prizes, everyone repays 400M, and shortfalls are debts.

The inspection room is a sealed simultaneous step: the smuggler ends their part with ``ready``,
the inspector with the verdict (``pass`` / ``doubt X``); each may say up to ``room_messages`` lines
in the ``room`` channel before acting; the room settles when both have acted.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from dennou.core.actions import Action, Concat, LazyActions
from dennou.core.errors import ConfigError, IllegalActionError
from dennou.core.game import Event, Game, GameSpec, Learning, Outcome, Seat, handles
from dennou.core.immutable import replace, replace_at
from dennou.core.jsondata import to_json
from dennou.core.talk import check_line, speaker_name
from dennou.games.smuggling.actions import CODEC, Doubt, Nominate, Pass, Ready, Trunk, parse
from dennou.games.smuggling.rules import TEAMS, SmugglingRules
from dennou.games.smuggling.settle import settle
from dennou.games.smuggling.state import Ending, Result, SmugglingState, TalkEntry, Totals, Votes

State = SmugglingState


def yen(amount: int) -> str:
    """``30,000,000``: an amount for people."""
    return f"{amount:,}"


def trunk_limit(state: SmugglingState) -> int:
    """Most the current smuggler may put in the trunk: min(trunk_max, home balance)."""
    assert state.smuggler is not None
    return min(state.rules.trunk_max, state.home[state.smuggler])


def doubt_limit(state: SmugglingState) -> int:
    """Largest doubt the current inspector may call: ``doubt_factor`` x third balance, in units."""
    assert state.inspector is not None
    unit = state.rules.unit
    return state.rules.doubt_factor * state.third[state.inspector] // unit * unit


def pick(tally: Mapping[int, int], represented: Sequence[int], members: Sequence[int]) -> int:
    """The representative a tally elects (rules: A small game, step 1).

    Most nominations; ties go to the nominee who has represented least, then the lowest seat.
    With no votes at all (not possible in play) every member ties at zero.
    """
    return min(members, key=lambda s: (-tally.get(s, 0), represented[s], s))


def _amounts(
    limit: int, unit: int, make: Callable[[int], Action], start: int, accepts: Callable[[Any], bool]
) -> LazyActions[Action]:
    count = limit // unit - start + 1
    return LazyActions(
        max(count, 0),
        lambda i: make((start + i) * unit),
        accepts,
        {"form": to_json(make(start * unit)), "min": start * unit, "max": limit, "step": unit},
    )


def _is_amount(value: object, unit: int, lo: int, hi: int) -> bool:
    return type(value) is int and lo <= value <= hi and value % unit == 0


class Smuggling(Game[SmugglingState, SmugglingRules]):
    """The Smuggling Game engine."""

    spec = GameSpec(
        name="smuggling",
        title="Smuggling Game (密輸ゲーム, LIAR GAME)",
        version=1,
        min_players=2,
        max_players=24,
        hidden_information=True,
        simultaneous=True,
        teams=True,
        talk=True,
        host_clock=True,
        learning=Learning("dennou.games.smuggling.encoding:SmugglingEncoding", 4),
        board="smuggling",
    )
    rules_type = SmugglingRules
    codec = CODEC

    # --- setup ------------------------------------------------------------------------------
    def default_players(self, rules: SmugglingRules) -> int:
        """Two full teams (9 v 9 by default)."""
        return 2 * rules.team_size

    def team_seats(self, rules: SmugglingRules, players: int) -> tuple[tuple[int, ...], ...]:
        """North is seats ``0..n-1``, South ``n..2n-1``."""
        n = players // 2
        return (tuple(range(n)), tuple(range(n, 2 * n)))

    def new(self, rules: SmugglingRules, players: Sequence[str]) -> SmugglingState:
        """Start a game; the first small game opens with nominations (or the rotation's pick).

        The team size follows the player count (seats ``0..n-1`` North, ``n..2n-1`` South), so
        ``rules.team_size`` is replaced by ``len(players) // 2`` when they differ.

        Raises:
            ConfigError: An odd or out-of-range number of players, or repeated names.
        """
        self.check_players(players)
        if len(players) % 2:
            raise ConfigError(
                f"smuggling needs two equal teams: an even player count, got {len(players)}"
            )
        if len(players) != rules.players:
            rules = replace_rules(rules, team_size=len(players) // 2)
        m = len(players)
        state = SmugglingState(
            rules=rules,
            players=tuple(players),
            home=(rules.home_start,) * m,
            third=(rules.third_start,) * m,
            represented=(0,) * m,
            nominations=(None,) * m,
            room_lines=(0,) * m,
        )
        return self._open_small_game(state, [])

    def _open_small_game(self, state: State, ev: list[Event]) -> State:
        if state.rules.selection == "nominate":
            ev.append(
                Event(
                    "small_game",
                    f"small game {state.game}: {state.smuggling_team} smuggles, "
                    f"{state.inspecting_team} inspects; nominate your representative",
                    {"game": state.game, "smuggling": state.smuggling_team},
                )
            )
            return replace(state, phase="nominate", nominations=(None,) * (2 * state.n))
        k = (state.game - 1) // 2  # how many times each team has had this role before
        smuggler = state.members(state.smuggling_team)[k % state.n]
        inspector = state.members(state.inspecting_team)[k % state.n]
        return self._representatives(state, smuggler, inspector, None, ev)

    def _representatives(
        self, state: State, smuggler: int, inspector: int, votes: Votes | None, ev: list[Event]
    ) -> State:
        represented = list(state.represented)
        represented[smuggler] += 1
        represented[inspector] += 1
        p = state.players
        ev.append(
            Event(
                "representatives",
                f"small game {state.game}: smuggler {p[smuggler]} ({state.smuggling_team}), "
                f"inspector {p[inspector]} ({state.inspecting_team})",
                {
                    "game": state.game,
                    "smuggler": smuggler,
                    "inspector": inspector,
                    "votes": None if votes is None else to_json(votes),
                },
            )
        )
        return replace(
            state,
            phase="trunk",
            smuggler=smuggler,
            inspector=inspector,
            represented=tuple(represented),
            nominations=(None,) * (2 * state.n),
            votes=votes,
            room_lines=(0,) * (2 * state.n),
        )

    # --- who acts, and what they may do -----------------------------------------------------
    def to_act(self, state: SmugglingState) -> frozenset[Seat]:
        """Nominations: every seat not yet in; trunk: the smuggler; room: who has not acted."""
        if state.phase == "nominate":
            return frozenset([s for s, n in enumerate(state.nominations) if n is None])
        if state.phase == "trunk":
            assert state.smuggler is not None
            return frozenset({state.smuggler})
        if state.phase == "room":
            assert state.smuggler is not None and state.inspector is not None
            out = set()
            if not state.ready:
                out.add(state.smuggler)
            if state.verdict is None:
                out.add(state.inspector)
            return frozenset(out)
        return frozenset()

    def legal_actions(self, state: SmugglingState, seat: Seat) -> Sequence[Action]:
        """Teammates to nominate; trunk amounts; ``ready``; ``pass`` and doubt amounts."""
        if seat not in self.to_act(state):
            return []
        unit = state.rules.unit
        if state.phase == "nominate":
            return [Nominate(s) for s in state.members(state.team_of(seat))]
        if state.phase == "trunk":
            hi = trunk_limit(state)
            return _amounts(
                hi, unit, Trunk, 0, lambda a: type(a) is Trunk and _is_amount(a.amount, unit, 0, hi)
            )
        if seat == state.smuggler and not state.ready:
            return [Ready()]
        hi = doubt_limit(state)
        doubts = _amounts(
            hi, unit, Doubt, 1, lambda a: type(a) is Doubt and _is_amount(a.amount, unit, 1, hi)
        )
        return Concat[Action]([Pass()], doubts)

    # --- transitions ------------------------------------------------------------------------
    def moment(self, state: State) -> str:
        """``small game <n>, <phase>``: where the game is, for messages."""
        return f"small game {state.game}, {state.phase}"

    @handles("nominate", Nominate)
    def _nominate(self, state: State, seat: Seat, action: Nominate, ev: list[Event]) -> State:
        team = state.team_of(seat)
        if type(action.seat) is not int or action.seat not in state.members(team):
            raise IllegalActionError(
                f"seat {seat} nominates a member of their own team ({team}: seats "
                f"{list(state.members(team))}), not {action.seat}",
                section="A small game, step 1",
                seat=seat,
                rule="nomination",
            )
        return self._store_nomination(state, seat, action.seat, ev)

    def _store_nomination(self, state: State, seat: Seat, nominee: int, ev: list[Event]) -> State:
        p = state.players
        ev.append(
            Event(
                "nominated",
                f"you nominated {p[nominee]}",
                {"seat": seat, "nominee": nominee},
                frozenset({seat}),
            )
        )
        ev.append(Event("nomination_in", f"{p[seat]} has nominated", {"seat": seat}))
        nominations = list(state.nominations)
        nominations[seat] = nominee
        state = replace(state, nominations=tuple(nominations))
        if any(n is None for n in nominations):
            return state
        chosen: dict[str, int] = {}
        tallies: dict[str, tuple[tuple[int, int], ...]] = {}
        records = []
        for team in TEAMS:
            members = list(state.members(team))
            tally: dict[int, int] = {}
            for member in members:
                nominee_ = nominations[member]
                assert nominee_ is not None
                tally[nominee_] = tally.get(nominee_, 0) + 1
            chosen[team] = pick(tally, state.represented, members)
            tallies[team] = tuple(sorted(tally.items()))
            ballots = tuple(nominations[m] or 0 for m in members)
            records.append((state.game, team, ballots))
        state = replace(state, team_nominations=state.team_nominations + tuple(records))
        votes = Votes(north=tallies[TEAMS[0]], south=tallies[TEAMS[1]])
        return self._representatives(
            state, chosen[state.smuggling_team], chosen[state.inspecting_team], votes, ev
        )

    @handles("trunk", Trunk)
    def _trunk(self, state: State, seat: Seat, action: Trunk, ev: list[Event]) -> State:
        hi, unit = trunk_limit(state), state.rules.unit
        if not _is_amount(action.amount, unit, 0, hi):
            raise IllegalActionError(
                f"the trunk holds 0 to {yen(hi)} yen (min of the {yen(state.rules.trunk_max)} "
                f"trunk limit and your home balance) in units of {yen(unit)}, not "
                f"{action.amount}",
                section="A small game, step 2",
                seat=seat,
                rule="trunk",
            )
        return self._pack(state, seat, action.amount, ev)

    def _pack(self, state: State, seat: Seat, amount: int, ev: list[Event]) -> State:
        ev.append(
            Event(
                "trunk",
                f"you sealed {yen(amount)} yen in the trunk",
                {"amount": amount},
                frozenset({seat}),
            )
        )
        p = state.players
        assert state.inspector is not None
        ev.append(
            Event(
                "room",
                f"{p[seat]} carries the trunk into the inspection room with {p[state.inspector]}",
                {"game": state.game, "smuggler": seat, "inspector": state.inspector},
            )
        )
        return replace(state, phase="room", trunk=amount)

    def _role(self, state: State, seat: Seat, action: Action, smuggler: bool) -> None:
        """In the room the smuggler only says ``ready``, the inspector only gives the verdict."""
        if (seat == state.smuggler) != smuggler:
            may = "only say ready" if seat == state.smuggler else "only pass or doubt <amount>"
            raise IllegalActionError(
                f"{action} is not yours to play: in the inspection room seat {seat} may {may}",
                section="A small game, step 3",
                seat=seat,
                phase=state.phase,
            )

    @handles("room", Pass)
    def _pass(self, state: State, seat: Seat, action: Pass, ev: list[Event]) -> State:
        self._role(state, seat, action, smuggler=False)
        return self._verdict(state, seat, 0, ev)

    @handles("room", Doubt)
    def _doubt(self, state: State, seat: Seat, action: Doubt, ev: list[Event]) -> State:
        self._role(state, seat, action, smuggler=False)
        hi, unit = doubt_limit(state), state.rules.unit
        if not _is_amount(action.amount, unit, 1, hi):
            assert state.inspector is not None
            raise IllegalActionError(
                f"a doubt is 1 unit ({yen(unit)}) to {yen(hi)} yen: at most "
                f"{state.rules.doubt_factor} x your third-country balance "
                f"{yen(state.third[state.inspector])}, in whole units; not {action.amount}",
                section="A small game, step 4",
                seat=seat,
                rule="doubt_limit",
            )
        return self._verdict(state, seat, action.amount, ev)

    @handles("room", Ready)
    def _ready_action(self, state: State, seat: Seat, action: Ready, ev: list[Event]) -> State:
        self._role(state, seat, action, smuggler=True)
        return self._ready(state, seat, ev)

    def _ready(self, state: State, seat: Seat, ev: list[Event]) -> State:
        ev.append(Event("ready", f"{state.players[seat]} has finished talking", {"seat": seat}))
        return self._maybe_settle(replace(state, ready=True), ev)

    def _verdict(self, state: State, seat: Seat, doubt: int, ev: list[Event]) -> State:
        said = "pass" if doubt == 0 else f"doubt {yen(doubt)}"
        ev.append(Event("verdict_sealed", f"you said: {said}", {"doubt": doubt}, frozenset({seat})))
        ev.append(
            Event("verdict_in", f"{state.players[seat]} has given the verdict", {"seat": seat})
        )
        return self._maybe_settle(replace(state, verdict=doubt), ev)

    def _maybe_settle(self, state: State, ev: list[Event]) -> State:
        if not state.ready or state.verdict is None:
            return state
        s, x, unit = state.trunk, state.verdict, state.rules.unit
        smuggler, inspector = state.smuggler, state.inspector
        assert s is not None and smuggler is not None and inspector is not None
        st = settle(s, x, unit)
        home, third = list(state.home), list(state.third)
        home[smuggler] -= s
        third[smuggler] += st.to_smuggler
        third[inspector] += st.to_inspector
        result = Result(
            game=state.game,
            smuggling=state.smuggling_team,
            smuggler=smuggler,
            inspector=inspector,
            votes=state.votes,
            amount=s,
            verdict="pass" if x == 0 else "doubt",
            doubt=x,
            case=st.case,
            compensation=st.compensation,
            to_smuggler=st.to_smuggler,
            to_inspector=st.to_inspector,
        )
        p = state.players
        said = "pass" if x == 0 else f"doubt {yen(x)}"
        text = {
            "pass": f"passed: {yen(s)} yen reach {p[smuggler]}'s third-country account",
            "empty": f"the trunk was empty: {p[inspector]} pays {yen(st.compensation)} "
            f"compensation to {p[smuggler]}",
            "caught": f"caught: {yen(s)} yen go to {p[inspector]}",
            "through": f"{yen(s)} > {yen(x)}: the trunk goes through to {p[smuggler]}, and "
            f"{p[inspector]} pays {yen(st.compensation)} compensation",
        }[st.case]
        ev.append(
            Event(
                "result",
                f"small game {state.game}: {p[inspector]} said {said}; the trunk held {yen(s)}; "
                + text,
                to_json(result),
            )
        )
        state = replace(
            state,
            home=tuple(home),
            third=tuple(third),
            results=(*state.results, result),
            smuggler=None,
            inspector=None,
            trunk=None,
            ready=False,
            verdict=None,
            votes=None,
        )
        if state.game >= state.rules.small_games:
            return self._end(state, ev)
        return self._open_small_game(replace(state, game=state.game + 1), ev)

    def _end(self, state: State, ev: list[Event]) -> State:
        unit, n = state.rules.unit, state.n
        north, south = (sum(state.third[s] for s in state.members(t)) for t in TEAMS)
        winner = None if north == south else TEAMS[0] if north > south else TEAMS[1]
        totals = Totals(north=north, south=south)
        prizes = [0] * (2 * n)
        for donor, left in enumerate(state.home):
            others = list(state.members(TEAMS[1] if donor < n else TEAMS[0]))
            each, rest = divmod(left // unit, n)
            for i, seat in enumerate(others):  # seats ascend: the remainder to the lowest
                prizes[seat] += (each + (1 if i < rest else 0)) * unit
        final = tuple(state.third[s] + prizes[s] - state.rules.loan for s in range(2 * n))
        ending = Ending(totals=totals, winner=winner, prizes=tuple(prizes), final=final)
        won = "a draw" if winner is None else f"{winner} wins"
        ev.append(
            Event(
                "end",
                f"game over: North {yen(north)}, South {yen(south)} — {won}",
                to_json(ending),
            )
        )
        return replace(state, phase="over", ending=ending)

    def apply_default(
        self, state: SmugglingState, seat: Seat
    ) -> tuple[SmugglingState, list[Event]]:
        """The rules' default for an absent or timed-out seat.

        Nomination: the teammate who has represented least (then the lowest seat); trunk: empty
        (0); room: the smuggler is ready, the inspector passes.
        """
        self.check_default(state, seat)
        ev = [self.timeout_event(state, seat)]
        if state.phase == "nominate":
            members = list(state.members(state.team_of(seat)))
            nominee = pick({}, state.represented, members)
            new = self._store_nomination(state, seat, nominee, ev)
        elif state.phase == "trunk":
            new = self._pack(state, seat, 0, ev)
        elif seat == state.smuggler and not state.ready:
            new = self._ready(state, seat, ev)
        else:
            new = self._verdict(state, seat, 0, ev)
        return new, ev

    # --- outcome ------------------------------------------------------------------------------
    def outcome(self, state: SmugglingState) -> Outcome:
        """Scores: each player's final money in yen (negative: debt); teams: 1 win, 0.5, 0."""
        self.check_over(state)
        end = state.ending
        assert end is not None
        teams = {t: 0.5 if end.winner is None else float(end.winner == t) for t in TEAMS}
        return Outcome.from_scores(
            [float(x) for x in end.final],
            teams=teams,
            detail={
                "winner": end.winner,
                "totals": to_json(end.totals),
                "third": list(state.third),
                "home_left": list(state.home),
                "prizes": list(end.prizes),
                "final": list(end.final),
                "debts": [-x if x < 0 else 0 for x in end.final],
                "team_of": [state.team_of(s) for s in range(2 * state.n)],
            },
        )

    # --- talk ---------------------------------------------------------------------------------
    def talk_channels(self, state: SmugglingState, speaker: Seat | None) -> frozenset[str]:
        """The channels ``speaker`` may use now.

        ``room`` for a representative who has not acted yet and is under the line limit;
        ``team:<team>`` and ``public`` for players (per the rules options); none for spectators.
        """
        if state.phase == "over" or speaker is None or not 0 <= speaker < 2 * state.n:
            return frozenset()
        out = set()
        if state.rules.team_talk:
            out.add(f"team:{state.team_of(speaker)}")
        if state.rules.public_talk:
            out.add("public")
        still_in = (speaker == state.smuggler and not state.ready) or (
            speaker == state.inspector and state.verdict is None
        )
        if (
            state.phase == "room"
            and still_in
            and state.room_said(speaker) < state.rules.room_messages
        ):
            out.add("room")
        return frozenset(out)

    def talk(
        self,
        state: SmugglingState,
        speaker: Seat | None,
        channel: str,
        text: str,
        *,
        name: str = "",
    ) -> tuple[SmugglingState, list[Event]]:
        """Say a line; the room takes ``room_messages`` lines from each representative.

        Raises:
            IllegalActionError: The channel is closed to the speaker (the room after acting or
                past the line limit), or the line is empty or too long.
        """
        if channel not in self.talk_channels(state, speaker):
            extra = ""
            if channel == "room" and speaker in (state.smuggler, state.inspector):
                extra = (
                    f" (the room allows {state.rules.room_messages} lines each, and closes to a "
                    "representative once they have acted) — rules: A small game, step 3"
                )
            raise IllegalActionError(
                f"channel {channel!r} is not open to {speaker} now{extra}", channel=channel
            )
        check_line(text, channel)
        assert speaker is not None
        audience: tuple[int, ...] | None
        if channel == "room":
            assert state.smuggler is not None and state.inspector is not None
            audience = (state.smuggler, state.inspector)
        elif channel == "public":
            audience = None
        else:
            audience = tuple(state.members(state.team_of(speaker)))
        who = speaker_name(state.players, speaker, name)
        entry = TalkEntry(state.game, speaker, who, channel, text, audience)
        data = to_json(entry)
        event = Event(
            "talk",
            f"[{channel}] {who}: {text}",
            data,
            None if audience is None else frozenset(audience),
        )
        new = replace(state, talk=state.talk + (entry,))  # noqa: RUF005 (a Log grows in place)
        if channel == "room":
            new = replace(
                new, room_lines=replace_at(state.room_lines, speaker, state.room_said(speaker) + 1)
            )
        return new, [event]

    # --- codec ------------------------------------------------------------------------------
    def parse_action(self, data: Any) -> Action:
        """JSON, or the text form with friendly amounts (``doubt 5000万``, ``trunk 30M``)."""
        return parse(data)

    # --- tests ------------------------------------------------------------------------------
    def conformance_rules(self) -> list[SmugglingRules]:
        """Small teams and few small games (fast), both selections, tight money, one 9 v 9."""
        return [
            SmugglingRules(team_size=2, small_games=4),
            SmugglingRules(team_size=3, small_games=3, selection="rotation", room_messages=2),
            SmugglingRules(
                team_size=1,
                small_games=6,
                home_start=30 * 10_000,
                third_start=5 * 10_000,
                trunk_max=20 * 10_000,
            ),
            SmugglingRules(team_size=2, small_games=3, room_messages=0, team_talk=False),
            SmugglingRules(small_games=2),
        ]

    def conformance_action(
        self, state: SmugglingState, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """Uniform, but the inspector passes or doubts near the trunk often (every case occurs)."""
        if state.phase == "room" and seat == state.inspector and state.trunk is not None:
            roll = rng.random()
            near = [state.trunk, state.trunk - state.rules.unit, state.trunk + state.rules.unit]
            if roll < 0.2:
                return Pass()
            if roll < 0.6:
                candidate = Doubt(rng.choice(near))
                if candidate in legal:
                    return candidate
        if state.phase == "trunk" and rng.random() < 0.2:
            return Trunk(0)
        return legal[rng.randrange(len(legal))]


def replace_rules(rules: SmugglingRules, **changes: Any) -> SmugglingRules:
    """A copy of ``rules`` with ``changes`` (validated like any rules)."""
    data = {**to_json(rules), **changes}
    try:
        return msgspec.convert(data, SmugglingRules)
    except msgspec.ValidationError as exc:
        raise ConfigError(f"invalid rules: {exc}") from None
