"""Musical Chairs (イス取りゲーム, LIAR GAME round 4 final): chairs, medals, gaya and a parent.

Rules: ``docs/games/chairs.md`` (the last part of source ``004``). 24 people: 12 players and 12
gaya (eliminated qualifiers who stay on as voters and helpers). 25 numbered chairs stand on a
round island drawn by the host (a chance action), with a totem pole at its centre. Each
person holds 23 medals bearing their own name; at the end only medals bearing the winner's name
pay (100M each). A period is: a free phase (talk and medal gifts; it ends when everyone has said
``ready``); the go (each player seals an ordered list of chairs, never last period's chair; anyone
may block a chair or a player); the race (distance / speed, a seeded jitter, a fixed delay per
blocker, a runner who finds a chair taken or blocked runs on from there; not seated within the
time limit: eliminated, becomes gaya); an anonymous vote of everyone for a parent (親; the host
draws among ties); the parent removes one chair. The game ends when one player is left (they
win), or when the periods run out (several left: nobody wins, every medal is worthless).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import msgspec

from dennou.core.actions import Action, Concat
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
from dennou.core.immutable import replace, replace_at
from dennou.core.jsondata import to_json
from dennou.core.talk import check_line, pair_channel, pair_seats, speaker_name, talk_event
from dennou.games.chairs.actions import (
    CODEC,
    Abstain,
    BlockChair,
    BlockPlayer,
    Gift,
    Jitter,
    Map,
    NoBlock,
    Order,
    Ready,
    Remove,
    Tiebreak,
    Vote,
)
from dennou.games.chairs.race import TOTEM, distance, generate_map, resolve_race
from dennou.games.chairs.rules import ChairsRules
from dennou.games.chairs.spaces import gift_space, jitter_space, order_space, valid_jitter
from dennou.games.chairs.state import BlockNote, ChairsState, GiftNote, PeriodLog

State = ChairsState


def nearest_order(state: ChairsState, seat: int) -> Order:
    """The default order list: the allowed chairs nearest the totem, nearest first."""
    allowed = state.allowed_chairs(seat)
    allowed.sort(key=lambda c: (distance(TOTEM, state.positions[c - 1]), c))
    return Order(tuple(allowed[: state.rules.max_choices]))


def block_space(state: ChairsState, seat: Seat) -> list[Action]:
    """Every block ``seat`` may seal now: none, any chair in play, any other player."""
    return [
        NoBlock(),
        *(BlockChair(c) for c in sorted(state.in_play)),
        *(BlockPlayer(p) for p in state.remaining() if p != seat),
    ]


class Chairs(Game[ChairsState, ChairsRules]):
    """The Musical Chairs engine."""

    spec = GameSpec(
        name="chairs",
        title="Musical Chairs (イス取りゲーム)",
        version=1,
        min_players=2,
        max_players=24,
        chance=True,
        hidden_information=True,
        simultaneous=True,
        talk=True,
        duplicate=DuplicateDeals(("map",), "the island"),
        learning=Learning("dennou.games.chairs.encoding:ChairsEncoding", 24),
        board="chairs",
    )
    rules_type = ChairsRules
    codec = CODEC

    def default_players(self, rules: ChairsRules) -> int:
        """The rules page's 24 people (12 players and 12 gaya)."""
        return 24

    # --- setup ------------------------------------------------------------------------------
    def new(self, rules: ChairsRules, players: Sequence[str]) -> ChairsState:
        """Seat everyone: seats ``0..k-1`` are the players, the rest gaya; the map is drawn next.

        Raises:
            ConfigError: Wrong count of people, or counts the table cannot hold.
        """
        self.check_players(players)
        n = len(players)
        k = rules.n_players(n)
        if not 2 <= k <= n:
            raise ConfigError(
                f"{k} starting players need 2..{n} of the {n} people", section="People"
            )
        chairs = rules.n_chairs(n)
        if rules.n_periods(n) > chairs - 1:
            raise ConfigError(
                f"at most chairs - 1 = {chairs - 1} periods (each removes a chair), "
                f"got {rules.periods}",
                section="A period",
            )
        medals = rules.n_medals(n)
        return ChairsState(
            rules=rules,
            players=tuple(players),
            phase="map",
            period=0,
            positions=(),
            in_play=frozenset(),
            playing=tuple(s < k for s in range(n)),
            last_chair=(None,) * n,
            holdings=tuple(tuple(medals if q == p else 0 for q in range(n)) for p in range(n)),
            gifts=(),
            gifts_made=(0,) * n,
            ready=frozenset(),
            orders=(None,) * n,
            blocks=(None,) * n,
            votes=(None,) * n,
            history=(),
        )

    def to_act(self, state: ChairsState) -> frozenset[Seat]:
        """Chance for the map, jitter and tie draws; everyone not ready / not submitted else."""
        phase = state.phase
        if phase == "over":
            return frozenset()
        if phase in ("map", "race", "tiebreak"):
            return frozenset({CHANCE})
        # list comprehensions, not generators: frozenset() of a list is the cheaper build, and
        # every step asks this several times
        n = range(state.n)
        if phase == "free":
            ready = state.ready
            return frozenset([s for s in n if s not in ready])
        if phase == "go":
            blocks, playing, orders = state.blocks, state.playing, state.orders
            return frozenset(
                [s for s in n if blocks[s] is None or (playing[s] and orders[s] is None)]
            )
        if phase == "vote":
            votes = state.votes
            return frozenset([s for s in n if votes[s] is None])
        parent = state.history[-1].parent
        assert parent is not None
        return frozenset({parent})

    def sample_chance(self, state: ChairsState, rng: random.Random) -> Action:
        """Draw the island, the runners' jitter, or the parent among tied players."""
        n_chairs = state.rules.n_chairs(state.n)
        if state.phase == "map":
            points = generate_map(rng, n_chairs, state.rules.island_radius)
            return Map(tuple(v for p in points for v in p))
        if state.phase == "race":
            top = state.rules.jitter
            return Jitter(tuple(rng.randint(0, top) for _ in state.remaining()))
        if state.phase == "tiebreak":
            return Tiebreak(rng.choice(state.history[-1].tied))
        raise IllegalActionError("no chance action is due", phase=state.phase)

    # --- legal actions ----------------------------------------------------------------------
    def legal_actions(self, state: ChairsState, seat: Seat) -> Sequence[Action]:
        """Every action ``seat`` may take now (orders and gifts as lazy sequences).

        The island (``map``) has too many outcomes to list: its legal outcomes are empty and
        ``apply`` checks a drawn map on its own.
        """
        if seat not in self.to_act(state):
            return []
        phase = state.phase
        if seat == CHANCE:
            if phase == "race":
                return jitter_space(len(state.remaining()), state.rules.jitter)
            if phase == "tiebreak":
                return [Tiebreak(p) for p in state.history[-1].tied]
            return []
        if phase == "free":
            if state.gifts_made[seat] >= state.rules.gifts_per_phase:
                return [Ready()]
            return Concat[Action]([Ready()], gift_space(seat, state.holdings[seat]))
        if phase == "go":
            parts: list[Sequence[Action]] = []
            if state.blocks[seat] is None:
                parts.append(block_space(state, seat))
            if state.playing[seat] and state.orders[seat] is None:
                parts.append(order_space(state.allowed_chairs(seat), state.rules.max_choices))
            return Concat[Action](*parts)
        if phase == "vote":
            return [Abstain(), *(Vote(p) for p in state.remaining())]
        return [Remove(c) for c in sorted(state.in_play)]

    # --- transitions ------------------------------------------------------------------------
    # the island
    @handles("map", Map)
    def _map(self, state: State, seat: Seat, action: Map, ev: list[Event]) -> State:
        chairs = state.rules.n_chairs(state.n)
        radius = state.rules.island_radius
        coords = action.coords
        if len(coords) != 2 * chairs:
            raise IllegalActionError(
                f"the map places {chairs} chairs: {2 * chairs} numbers x1 y1 x2 y2 ..., got "
                f"{len(coords)}",
                section="People, chairs, medals",
            )
        points = tuple((coords[i], coords[i + 1]) for i in range(0, len(coords), 2))
        for k, (x, y) in enumerate(points, 1):
            if x * x + y * y > radius * radius or (x, y) == TOTEM:
                raise IllegalActionError(
                    f"chair {k} at ({x}, {y}) is not on the island (radius {radius}, the totem at "
                    "(0, 0) excluded)"
                )
        if len(set(points)) != len(points):
            raise IllegalActionError("two chairs cannot stand on the same spot")
        ev.append(
            Event(
                "map",
                f"{chairs} chairs are scattered over the island",
                {"positions": [list(p) for p in points]},
            )
        )
        state = replace(state, positions=points, in_play=frozenset(range(1, chairs + 1)))
        return self._begin_period(state, 1, ev)

    def _begin_period(self, state: State, period: int, ev: list[Event]) -> State:
        ev.append(
            Event(
                "period",
                f"period {period}: {len(state.remaining())} players, {len(state.in_play)} chairs"
                " — free phase",
                {"period": period, "players": state.remaining(), "chairs": sorted(state.in_play)},
            )
        )
        n = state.n
        return replace(
            state,
            phase="free",
            period=period,
            ready=frozenset(),
            gifts_made=(0,) * n,
            orders=(None,) * n,
            blocks=(None,) * n,
            votes=(None,) * n,
        )

    # free phase
    @handles("free", Ready)
    def _ready(self, state: State, seat: Seat, action: Ready, ev: list[Event]) -> State:
        ev.append(Event("ready", f"{state.players[seat]} is ready", {"seat": seat}))
        state = replace(state, ready=state.ready | {seat})
        if len(state.ready) < state.n:
            return state
        ev.append(Event("go", f"period {state.period}: go — seal your orders and blocks", {}))
        return replace(state, phase="go")

    @handles("free", Gift)
    def _gift(self, state: State, seat: Seat, action: Gift, ev: list[Event]) -> State:
        rules = state.rules
        if state.gifts_made[seat] >= rules.gifts_per_phase:
            raise IllegalActionError(
                f"at most {rules.gifts_per_phase} gifts per free phase (option gifts_per_phase)",
                seat=seat,
                rule="gifts_per_phase",
            )
        n = state.n
        if not 0 <= action.to < n or action.to == seat:
            raise IllegalActionError(
                f"a gift goes to another person (seat 0-{n - 1}, not {seat}), got {action.to}",
                seat=seat,
                rule="medals",
            )
        if not 0 <= action.name < n:
            raise IllegalActionError(f"medals bear a seat's name 0-{n - 1}, got {action.name}")
        held = state.holdings[seat][action.name]
        if not 1 <= action.count <= held:
            raise IllegalActionError(
                f"you hold {held} medals bearing {state.players[action.name]}'s name; a gift is "
                f"1..{held}, got {action.count}",
                section="People, chairs, medals",
                seat=seat,
                rule="medals",
            )
        giver, to, name, count = seat, action.to, action.name, action.count
        rows = [list(r) for r in state.holdings]
        rows[giver][name] -= count
        rows[to][name] += count
        note = GiftNote(state.period, giver, to, name, count)
        audience = None if rules.public_gifts else frozenset({giver, to})
        ev.append(
            Event(
                "gift",
                f"{state.players[giver]} gave {state.players[to]} {count} medal(s) bearing "
                f"{state.players[name]}'s name",
                to_json(note),
                audience,
            )
        )
        return replace(
            state,
            holdings=tuple(tuple(r) for r in rows),
            gifts=(*state.gifts, note),
            gifts_made=replace_at(state.gifts_made, seat, state.gifts_made[seat] + 1),
        )

    # the go
    @handles("go", Order)
    def _order(self, state: State, seat: Seat, action: Order, ev: list[Event]) -> State:
        if not state.playing[seat]:
            raise IllegalActionError("gaya do not run: only players submit orders", seat=seat)
        if state.orders[seat] is not None:
            raise IllegalActionError("you have already sealed your order this period", seat=seat)
        allowed = state.allowed_chairs(seat)
        chairs = action.chairs
        top = state.rules.max_choices
        if len(chairs) > top:
            raise IllegalActionError(
                f"an order lists at most {top} chairs (option max_choices), got {len(chairs)}",
                seat=seat,
                rule="max_choices",
            )
        if len(set(chairs)) != len(chairs):
            raise IllegalActionError(f"an order lists each chair once, got {list(chairs)}")
        last = state.last_chair[seat]
        for c in chairs:
            if c == last:
                raise IllegalActionError(
                    f"you sat on chair {c} last period and may not sit on it twice in a row",
                    section="Go",
                    seat=seat,
                    rule="same_chair",
                )
            if c not in allowed:
                raise IllegalActionError(
                    f"chair {c} is not in play; chairs in play: {sorted(state.in_play)}",
                    seat=seat,
                    rule="in_play",
                )
        ev.append(Event("sealed", f"{state.players[seat]} sealed an order", {"seat": seat}))
        ev.append(
            Event(
                "order",
                f"your order: {' '.join(map(str, chairs)) or '(none)'}",
                {"seat": seat, "chairs": list(chairs)},
                frozenset({seat}),
            )
        )
        return self._after_go(replace(state, orders=replace_at(state.orders, seat, action)), ev)

    @handles("go", BlockChair, BlockPlayer, NoBlock)
    def _block(self, state: State, seat: Seat, action: Action, ev: list[Event]) -> State:
        if state.blocks[seat] is not None:
            raise IllegalActionError("you have already sealed your block this period", seat=seat)
        if isinstance(action, BlockChair) and action.chair not in state.in_play:
            raise IllegalActionError(
                f"chair {action.chair} is not in play; chairs in play: {sorted(state.in_play)}",
                seat=seat,
                rule="in_play",
            )
        if isinstance(action, BlockPlayer):
            p = action.player
            if p == seat or not (0 <= p < state.n and state.playing[p]):
                raise IllegalActionError(
                    f"a block names another player still in the game ({state.remaining()}, "
                    f"not yourself), got {p}",
                    section="Go",
                    seat=seat,
                    rule="block",
                )
        ev.append(Event("sealed", f"{state.players[seat]} sealed a block", {"seat": seat}))
        ev.append(
            Event(
                "block",
                f"your block: {action}",
                {"seat": seat, **CODEC.dump(action)},
                frozenset({seat}),
            )
        )
        return self._after_go(replace(state, blocks=replace_at(state.blocks, seat, action)), ev)

    def _after_go(self, state: State, ev: list[Event]) -> State:
        if self.to_act(state):
            return state
        ev.append(Event("race", f"period {state.period}: the race starts", {}))
        return replace(state, phase="race")

    @handles("race", Jitter)
    def _race(self, state: State, seat: Seat, action: Jitter, ev: list[Event]) -> State:
        rules = state.rules
        runners = state.remaining()
        if not valid_jitter(action, len(runners), rules.jitter):
            raise IllegalActionError(
                f"the jitter gives each of {len(runners)} runners 0..{rules.jitter} tenths of a "
                f"second, got {list(action.tenths)}"
            )
        notes: list[BlockNote] = []
        blockers = [0] * state.n
        stood: set[int] = set()
        for by, block in enumerate(state.blocks):
            if isinstance(block, BlockChair):
                stood.add(block.chair)
                notes.append(BlockNote(by, chair=block.chair))
            elif isinstance(block, BlockPlayer):
                blockers[block.player] += 1
                notes.append(BlockNote(by, player=block.player))
        entries = []
        for s, tenths in zip(runners, action.tenths, strict=True):
            order = state.orders[s]
            assert order is not None
            entries.append((s, tenths / 10 + rules.block_delay * blockers[s], order.chairs))
        positions = {c: state.positions[c - 1] for c in state.in_play}
        runs = resolve_race(
            positions,
            frozenset(stood),
            entries,
            speed=rules.speed,
            time_limit=rules.time_limit,
        )
        runs = [msgspec.structs.replace(r, blockers=blockers[r.seat]) for r in runs]
        playing = list(state.playing)
        last: list[int | None] = [None] * state.n
        out: list[int] = []
        for run in runs:
            name = state.players[run.seat]
            if run.chair is None:
                playing[run.seat] = False
                out.append(run.seat)
                ev.append(
                    Event(
                        "eliminated",
                        f"{name} did not sit within {rules.time_limit:g} s and becomes gaya",
                        {"seat": run.seat},
                    )
                )
            else:
                last[run.seat] = run.chair
                ev.append(
                    Event(
                        "seated",
                        f"{name} sat on chair {run.chair} at {run.time:.1f} s",
                        {"seat": run.seat, "chair": run.chair, "time": run.time},
                    )
                )
        log = PeriodLog(
            period=state.period,
            chairs=tuple(sorted(state.in_play)),
            blocks=tuple(notes),
            race=tuple(runs),
            eliminated=tuple(out),
        )
        ev.append(Event("race_result", f"period {state.period}: race over", to_json(log)))
        state = replace(
            state,
            playing=tuple(playing),
            last_chair=tuple(last),
            history=(*state.history, log),
            orders=(None,) * state.n,
            blocks=(None,) * state.n,
        )
        left = state.remaining()
        if len(left) <= 1:
            return self._finish(state, "last_player" if left else "no_players", ev)
        ev.append(Event("vote", f"period {state.period}: vote for a parent", {}))
        return replace(state, phase="vote")

    # the vote
    @handles("vote", Vote, Abstain)
    def _vote(self, state: State, seat: Seat, action: Action, ev: list[Event]) -> State:
        if isinstance(action, Vote):
            c = action.candidate
            if not (0 <= c < state.n and state.playing[c]):
                raise IllegalActionError(
                    f"only players can be parent: vote for one of {state.remaining()}, got {c}",
                    section="Vote",
                    seat=seat,
                    rule="vote",
                )
        ev.append(Event("voted", f"{state.players[seat]} voted", {"seat": seat}))
        state = replace(state, votes=replace_at(state.votes, seat, action))
        if any(v is None for v in state.votes):
            return state
        totals = [0] * state.n
        abstained = 0
        for v in state.votes:
            if isinstance(v, Vote):
                totals[v.candidate] += 1
            else:
                abstained += 1
        top = max(totals[p] for p in state.remaining())
        tied = tuple(p for p in state.remaining() if totals[p] == top)
        log = msgspec.structs.replace(
            state.history[-1], votes=tuple(totals), abstained=abstained, tied=tied
        )
        shown = ", ".join(f"{state.players[p]} {totals[p]}" for p in state.remaining())
        ev.append(
            Event(
                "votes",
                f"votes: {shown}; abstained {abstained}",
                {"votes": totals, "abstained": abstained, "tied": list(tied)},
            )
        )
        state = replace(state, votes=(None,) * state.n, history=(*state.history[:-1], log))
        if len(tied) > 1:
            return replace(state, phase="tiebreak")
        return self._set_parent(state, tied[0], ev)

    @handles("tiebreak", Tiebreak)
    def _tiebreak(self, state: State, seat: Seat, action: Tiebreak, ev: list[Event]) -> State:
        tied = state.history[-1].tied
        if action.parent not in tied:
            raise IllegalActionError(f"the draw is among the tied players {list(tied)}")
        return self._set_parent(state, action.parent, ev)

    def _set_parent(self, state: State, parent: int, ev: list[Event]) -> State:
        log = msgspec.structs.replace(state.history[-1], parent=parent)
        ev.append(Event("parent", f"{state.players[parent]} is the parent", {"parent": parent}))
        return replace(state, phase="remove", history=(*state.history[:-1], log))

    # removal
    @handles("remove", Remove)
    def _remove(self, state: State, seat: Seat, action: Remove, ev: list[Event]) -> State:
        if action.chair not in state.in_play:
            raise IllegalActionError(
                f"chair {action.chair} is not in play; chairs in play: {sorted(state.in_play)}",
                section="Removal",
                seat=seat,
                rule="removal",
            )
        log = msgspec.structs.replace(state.history[-1], removed=action.chair)
        ev.append(
            Event(
                "removed",
                f"{state.players[seat]} removes chair {action.chair}",
                {"chair": action.chair, "parent": seat},
            )
        )
        state = replace(
            state, in_play=state.in_play - {action.chair}, history=(*state.history[:-1], log)
        )
        if not state.in_play:
            return self._finish(state, "no_chairs", ev)
        if state.period >= state.rules.n_periods(state.n):
            return self._finish(state, "periods", ev)
        return self._begin_period(state, state.period + 1, ev)

    def _finish(self, state: State, end: str, ev: list[Event]) -> State:
        left = state.remaining()
        winner = left[0] if len(left) == 1 else None
        text = (
            f"{state.players[winner]} wins"
            if winner is not None
            else f"nobody wins ({len(left)} players left)"
        )
        ev.append(
            Event(
                "game_over",
                f"game over after period {state.period}: {text}",
                {"winner": winner, "end": end, "players_left": left},
            )
        )
        return replace(
            state,
            phase="over",
            winner=winner,
            end=end,
            ready=frozenset(),
            orders=(None,) * state.n,
            blocks=(None,) * state.n,
            votes=(None,) * state.n,
        )

    # --- defaults ---------------------------------------------------------------------------
    def apply_default(self, state: ChairsState, seat: Seat) -> tuple[ChairsState, list[Event]]:
        """The defaults for an absent person.

        Free phase: ready. Go: a missing order becomes the nearest allowed chairs, nearest
        first (the host walks you to the nearest chairs), a missing block becomes no block.
        Vote: abstain (the source: absent at the vote = 棄権). Removal: the lowest chair number.
        """
        self.check_default(state, seat)
        ev = [self.timeout_event(state, seat)]
        phase = state.phase
        if phase == "free":
            return self._ready(state, seat, Ready(), ev), ev
        if phase == "go":
            if state.blocks[seat] is None:
                state = self._block(state, seat, NoBlock(), ev)
            if state.phase == "go" and state.playing[seat] and state.orders[seat] is None:
                state = self._order(state, seat, nearest_order(state, seat), ev)
            return state, ev
        if phase == "vote":
            return self._vote(state, seat, Abstain(), ev), ev
        return self._remove(state, seat, Remove(min(state.in_play)), ev), ev

    # --- outcome ------------------------------------------------------------------------------
    def outcome(self, state: ChairsState) -> Outcome:
        """Each person's payout: medals bearing the winner's name x ``medal_value`` (rules: end)."""
        self.check_over(state)
        w = state.winner
        value = state.rules.medal_value
        scores = [0.0 if w is None else float(state.holdings[p][w] * value) for p in range(state.n)]
        return Outcome.from_scores(
            scores,
            detail={
                "winner": w,
                "end": state.end,
                "periods": state.period,
                "players_left": state.remaining(),
                "winner_medals": None if w is None else [r[w] for r in state.holdings],
            },
        )

    # --- talk ---------------------------------------------------------------------------------
    def talk_channels(self, state: ChairsState, speaker: Seat | None) -> frozenset[str]:
        """In the free phase every person may talk in ``public`` and ``pair:a-b`` with anyone."""
        if state.phase != "free" or speaker is None or not 0 <= speaker < state.n:
            return frozenset()
        out = {"public"}
        if state.rules.private_talk:
            out.update(pair_channel(speaker, p) for p in range(state.n) if p != speaker)
        return frozenset(out)

    def talk(
        self, state: ChairsState, speaker: Seat | None, channel: str, text: str, *, name: str = ""
    ) -> tuple[ChairsState, list[Event]]:
        """Say a line; a ``pair:a-b`` line is heard by ``a`` and ``b`` only (rules: free phase)."""
        if channel not in self.talk_channels(state, speaker):
            raise IllegalActionError(
                f"channel {channel!r} is not open now (talk is for the free phase)",
                channel=channel,
            )
        check_line(text, channel)
        line = TalkLine(speaker, speaker_name(state.players, speaker, name), channel, text)
        seats = pair_seats(channel)
        event = talk_event(line, None if seats is None else frozenset(seats))
        return replace(state, talk=state.talk + (line,)), [event]  # noqa: RUF005 (a Log grows in place)

    # --- tests ------------------------------------------------------------------------------
    def conformance_rules(self) -> list[ChairsRules]:
        """Small tables (few chairs, short lists) and the option switches."""
        return [
            ChairsRules(chairs=5, medals=2, max_choices=2),
            ChairsRules(
                starting_players=2, chairs=4, medals=3, public_gifts=True, jitter=0, max_choices=3
            ),
            ChairsRules(chairs=6, periods=3, private_talk=False, time_limit=150.0, max_choices=2),
        ]

    def conformance_action(
        self, state: ChairsState, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """Uniform, but the free phase ends half the time (gifts are many, ``ready`` one)."""
        if state.phase == "free" and rng.random() < 0.5:
            return Ready()
        return legal[rng.randrange(len(legal))]
