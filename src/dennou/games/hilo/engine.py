"""Star Hi-Lo (スター・ハイアンドロー): bracket a hidden number with high/low guesses, then check.

Rules: ``docs/games/hilo.md`` (from source ``000``). A series of games for 2-8 players. Each game
the host draws a target in 0..3,276,732,767; players start at 5 points and, in seat order from
the game's first seat, take one action a turn: a public guess (2.1: X and High/Low, +2/-1, X ==
target is wrong), a random guess (2.2: the host draws X, the player says High/Low, +1/0, X ==
target is right), a check (2.3: points >= 10; a hit is a star and ends the game, a miss -5), a
random check (2.4: points <= -20; the host's X, a hit is 3 stars), or a secret guess (2.5/2.6:
cost 3/2, only the actor learns the result). A turn costs 1 point above 10 points; points never
fall below -30; a full round with everyone negative ends the game with no star. Points are
archived into accounts; the next game starts at the next seat. The series ends after the game
in which someone reaches 3 game stars (or after ``max_games``), ranked by ``standings``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from dennou.core.actions import Action, Concat, LazyActions
from dennou.core.errors import ConfigError, IllegalActionError
from dennou.core.game import (
    CHANCE,
    HOST_ACCOUNTS,
    JSON,
    Event,
    Game,
    GameSpec,
    Learning,
    Outcome,
    Seat,
    handles,
)
from dennou.core.immutable import replace, replace_at
from dennou.core.jsondata import to_json
from dennou.games.hilo.actions import (
    ACTION_IDS,
    CODEC,
    DIRECTIONS,
    Check,
    Direction,
    Draw,
    Guess,
    Pick,
    RandomCheck,
    RandomGuess,
    SecretGuess2,
    SecretGuess3,
    Target,
    turn_action,
)
from dennou.games.hilo.knowledge import is_right, public_belief
from dennou.games.hilo.rules import HiloRules
from dennou.games.hilo.state import End, GameSummary, HiloState, Pending

State = HiloState


class Hilo(Game[HiloState, HiloRules]):
    """The Star Hi-Lo engine: one state machine per series."""

    spec = GameSpec(
        name="hilo",
        title="Star Hi-Lo (スター・ハイアンドロー)",
        version=1,
        min_players=2,
        max_players=8,
        chance=True,
        hidden_information=True,
        learning=Learning("dennou.games.hilo.encoding:HiloEncoding", 4, max_episode_steps=2_000),
        board="hilo",
    )
    rules_type = HiloRules
    codec = CODEC
    unit = "series"

    # --- setup --------------------------------------------------------------------------------
    def new(self, rules: HiloRules, players: Sequence[str]) -> HiloState:
        """Start a series: the host draws the first game's target; seat 0 plays first."""
        self.check_players(players)
        n = len(players)
        accounts = rules.start_accounts if rules.start_accounts is not None else (0,) * n
        if len(accounts) != n:
            raise ConfigError(
                f"start_accounts has {len(accounts)} entries for {n} players",
                section="Objects",
            )
        return HiloState(
            rules=rules,
            players=tuple(players),
            phase="target",
            points=(rules.start_points,) * n,
            accounts=tuple(accounts),
            stars=(0,) * n,
        )

    def to_act(self, state: HiloState) -> frozenset[Seat]:
        """Chance draws targets and random X; otherwise the seat whose turn it is."""
        if state.phase == "over":
            return frozenset()
        if state.phase in ("target", "draw"):
            return frozenset({CHANCE})
        return frozenset({state.turn})

    def sample_chance(self, state: HiloState, rng: random.Random) -> Action:
        """A target, or the X of a random guess or check, uniform in ``0..max_number``."""
        x = rng.randint(0, state.rules.max_number)
        if state.phase == "target":
            return Target(x)
        if state.phase == "draw":
            return Draw(x)
        raise IllegalActionError("no chance action is due", phase=state.phase)

    # --- legal actions ------------------------------------------------------------------------
    def legal_actions(self, state: HiloState, seat: Seat) -> Sequence[Action]:
        """Every action ``seat`` may take now; numbered actions are lazy (X has 3.3e9 values)."""
        if seat not in self.to_act(state):
            return []
        top = state.rules.max_number
        if seat == CHANCE:
            make: Callable[[int], Action] = Target if state.phase == "target" else Draw
            return _numbered(top, make)
        if state.phase == "pick":
            return [Pick(d) for d in DIRECTIONS]
        kinds = state.rules.available(state.points[seat])
        fixed: list[Action] = [RandomGuess()]
        if "random_check" in kinds:
            fixed.append(RandomCheck())
        parts: list[Sequence[Action]] = [fixed, _guesses(top, Guess)]
        if "check" in kinds:
            parts.append(_numbered(top, Check))
        if "secret_guess_3" in kinds:
            parts.append(_guesses(top, SecretGuess3))
        if "secret_guess_2" in kinds:
            parts.append(_guesses(top, SecretGuess2))
        return Concat(*parts)

    # --- transitions --------------------------------------------------------------------------
    def commit(self, old: State, new: State, events: list[Event]) -> State:
        """Log a step's events: the log holds the current game only.

        A new game's log starts at its target draw; between games it holds just how the last
        game ended (its secret results are dropped with it: the record keeps everything).
        """
        if old.phase == "target":
            log = tuple(events)
        elif new.phase == "target":
            log = tuple(e for e in events if e.kind == "game_over")
        else:
            log = old.log + tuple(events)
        return replace(new, log=log)

    # validation
    def _x(self, state: State, x: object, what: str) -> int:
        top = state.rules.max_number
        if not isinstance(x, int) or isinstance(x, bool) or not 0 <= x <= top:
            raise IllegalActionError(
                f"{what} must be a whole number in 0..{top:,}, got {x!r}",
                section="Objects",
                rule="range",
            )
        return x

    def _direction(self, direction: object) -> str:
        if direction not in DIRECTIONS:
            raise IllegalActionError(
                f"direction must be 'high' or 'low', got {direction!r}",
                section="A turn",
                rule="direction",
            )
        assert isinstance(direction, str)
        return direction

    def _require(self, state: State, seat: Seat, kind: str) -> None:
        points = state.points[seat]
        if kind in state.rules.available(points):
            return
        r = state.rules
        need = {
            "check": f"points >= {r.check_min}",
            "random_check": f"points <= {r.random_check_max}",
            "secret_guess_3": f"points >= its cost {r.secret_guess_3_cost}",
            "secret_guess_2": f"points >= its cost {r.secret_guess_2_cost}",
        }[kind]
        raise IllegalActionError(
            f"{kind} ({ACTION_IDS[kind]}) needs {need}; {state.players[seat]} has {points}",
            section=ACTION_IDS[kind],
            seat=seat,
            rule=ACTION_IDS[kind],
        )

    # chance
    @handles("target", Target)
    def _target(self, state: State, seat: Seat, action: Target, ev: list[Event]) -> State:
        x = self._x(state, action.x, "the target")
        first = state.first
        ev.append(
            Event(
                "game_start",
                f"game {state.game_no}: the host drew a target; {state.players[first]} plays first",
                {"game": state.game_no, "first": first},
            )
        )
        state = replace(state, target=x, phase="turn", turns=0)
        return self._begin_turn(state, first, ev)

    @handles("draw", Draw)
    def _draw(self, state: State, seat: Seat, action: Draw, ev: list[Event]) -> State:
        x = self._x(state, action.x, "X")
        actor = state.turn
        name = state.players[actor]
        if state.pending == "random_guess":
            ev.append(
                Event(
                    "draw",
                    f"the host drew X = {x:,} for {name}'s random guess",
                    {"seat": actor, "action": "2.2", "x": x},
                )
            )
            return replace(state, phase="pick", x=x)
        assert state.pending == "random_check" and state.target is not None
        r = state.rules
        hit = x == state.target
        delta = 0 if hit else r.random_check_miss
        points = r.add_points(state.points[actor], delta)
        ev.append(
            Event(
                "random_check",
                f"{name}'s random check at {x:,}: " + ("HIT" if hit else "miss"),
                {
                    "seat": actor,
                    "action": "2.4",
                    "x": x,
                    "hit": hit,
                    "delta": points - state.points[actor],
                    "points": points,
                },
            )
        )
        state = replace(state, points=replace_at(state.points, actor, points), pending=None)
        if hit:
            return self._end_game(state, "random_check", actor, r.random_check_stars, ev)
        return self._end_turn(state, ev)

    # player actions
    @handles("turn", Guess)
    def _guess(self, state: State, seat: Seat, action: Guess, ev: list[Event]) -> State:
        x = self._x(state, action.x, "X")
        direction = self._direction(action.direction)
        assert state.target is not None
        r = state.rules
        right = is_right("guess", x, direction, state.target)
        return self._scored(
            state, seat, "guess", x, direction, right, r.guess_right if right else r.guess_wrong, ev
        )

    @handles("turn", RandomGuess, RandomCheck)
    def _random_request(
        self, state: State, seat: Seat, action: RandomGuess | RandomCheck, ev: list[Event]
    ) -> State:
        kind: Pending = "random_guess" if isinstance(action, RandomGuess) else "random_check"
        if kind == "random_check":
            self._require(state, seat, kind)
        ev.append(
            Event(
                "random_request",
                f"{state.players[seat]} asks for a {kind.replace('_', ' ')} ({ACTION_IDS[kind]})",
                {"seat": seat, "action": ACTION_IDS[kind]},
            )
        )
        return replace(state, phase="draw", pending=kind)

    @handles("pick", Pick)
    def _pick(self, state: State, seat: Seat, action: Pick, ev: list[Event]) -> State:
        direction = self._direction(action.direction)
        x = state.x
        assert x is not None and state.target is not None
        r = state.rules
        right = is_right("random_guess", x, direction, state.target)
        delta = r.random_guess_right if right else r.random_guess_wrong
        state = replace(state, phase="turn", pending=None, x=None)
        return self._scored(state, seat, "random_guess", x, direction, right, delta, ev)

    @handles("turn", Check)
    def _check(self, state: State, seat: Seat, action: Check, ev: list[Event]) -> State:
        x = self._x(state, action.x, "X")
        self._require(state, seat, "check")
        assert state.target is not None
        r = state.rules
        hit = x == state.target
        points = r.add_points(state.points[seat], 0 if hit else r.check_miss)
        ev.append(
            Event(
                "check",
                f"{state.players[seat]} checks {x:,}: "
                + ("HIT" if hit else f"miss ({points - state.points[seat]:+d})"),
                {
                    "seat": seat,
                    "action": "2.3",
                    "x": x,
                    "hit": hit,
                    "delta": points - state.points[seat],
                    "points": points,
                },
            )
        )
        state = replace(state, points=replace_at(state.points, seat, points))
        if hit:
            return self._end_game(state, "check", seat, r.check_stars, ev)
        return self._end_turn(state, ev)

    @handles("turn", SecretGuess3, SecretGuess2)
    def _secret(
        self, state: State, seat: Seat, action: SecretGuess3 | SecretGuess2, ev: list[Event]
    ) -> State:
        x = self._x(state, action.x, "X")
        direction = self._direction(action.direction)
        kind = "secret_guess_3" if isinstance(action, SecretGuess3) else "secret_guess_2"
        self._require(state, seat, kind)
        assert state.target is not None
        r = state.rules
        cost = r.secret_guess_3_cost if kind == "secret_guess_3" else r.secret_guess_2_cost
        points = r.add_points(state.points[seat], -cost)
        right = is_right("guess", x, direction, state.target)
        name = state.players[seat]
        aid = ACTION_IDS[kind]
        ev.append(
            Event(
                "secret_guess",
                f"{name} used a secret guess ({aid}, -{cost})",
                {
                    "seat": seat,
                    "action": aid,
                    "delta": points - state.points[seat],
                    "points": points,
                },
            )
        )
        ev.append(
            Event(
                "secret_result",
                f"your secret guess: {direction} of {x:,} is " + ("right" if right else "wrong"),
                {"seat": seat, "action": aid, "x": x, "direction": direction, "right": right},
                frozenset({seat}),
            )
        )
        return self._end_turn(replace(state, points=replace_at(state.points, seat, points)), ev)

    def _scored(
        self,
        state: State,
        seat: Seat,
        kind: str,
        x: int,
        direction: str,
        right: bool,
        delta: int,
        ev: list[Event],
    ) -> State:
        points = state.rules.add_points(state.points[seat], delta)
        real = points - state.points[seat]
        ev.append(
            Event(
                kind,
                f"{state.players[seat]} says {direction} of {x:,}: "
                + ("right" if right else "wrong")
                + f" ({real:+d})",
                {
                    "seat": seat,
                    "action": ACTION_IDS[kind],
                    "x": x,
                    "direction": direction,
                    "right": right,
                    "delta": real,
                    "points": points,
                },
            )
        )
        return self._end_turn(replace(state, points=replace_at(state.points, seat, points)), ev)

    # turns, games, the series
    def _begin_turn(self, state: State, seat: Seat, ev: list[Event]) -> State:
        r = state.rules
        points = state.points[seat]
        if points > r.fee_above and r.fee:
            paid = r.add_points(points, -r.fee)
            ev.append(
                Event(
                    "fee",
                    f"{state.players[seat]} pays the turn fee ({paid - points:+d}, above "
                    f"{r.fee_above} points)",
                    {"seat": seat, "delta": paid - points, "points": paid},
                )
            )
            state = replace(state, points=replace_at(state.points, seat, paid))
        return replace(state, turn=seat, phase="turn")

    def _end_turn(self, state: State, ev: list[Event]) -> State:
        state = replace(state, turns=state.turns + 1, phase="turn", pending=None, x=None)
        if state.turns % state.n == 0:
            if all(p < 0 for p in state.points):
                ev.append(
                    Event(
                        "everyone_loses",
                        f"round {state.turns // state.n} ends with everyone negative: "
                        "everyone loses this game",
                        {"round": state.turns // state.n},
                    )
                )
                return self._end_game(state, "everyone_loses", None, 0, ev)
            limit = state.rules.max_rounds
            if limit is not None and state.turns // state.n >= limit:
                ev.append(
                    Event(
                        "max_rounds",
                        f"{limit} rounds played: the game ends with no star",
                        {"round": limit},
                    )
                )
                return self._end_game(state, "max_rounds", None, 0, ev)
        return self._begin_turn(state, (state.turn + 1) % state.n, ev)

    def _end_game(
        self, state: State, end: End, winner: Seat | None, stars: int, ev: list[Event]
    ) -> State:
        assert state.target is not None
        r = state.rules
        new_stars = (
            state.stars
            if winner is None
            else replace_at(state.stars, winner, state.stars[winner] + stars)
        )
        accounts = tuple(a + p for a, p in zip(state.accounts, state.points, strict=True))
        summary = GameSummary(
            game=state.game_no,
            first=state.first,
            target=state.target,
            end=end,
            winner=winner,
            stars=stars if winner is not None else 0,
            points=state.points,
            turns=state.turns,
        )
        who = "no one" if winner is None else state.players[winner]
        ev.append(
            Event(
                "game_over",
                f"game {state.game_no} over ({end}): target {state.target:,}; stars to {who}; "
                "points archived",
                {**to_json(summary), "accounts": list(accounts), "stars_now": list(new_stars)},
            )
        )
        state = replace(
            state,
            stars=new_stars,
            accounts=accounts,
            history=(*state.history, summary),
            phase="turn",
            pending=None,
            x=None,
        )
        over = max(new_stars) >= r.stars_to_win or (
            r.max_games is not None and state.game_no >= r.max_games
        )
        if over:
            rows = state.standings()
            ev.append(
                Event(
                    "series_over",
                    "series over: " + ", ".join(f"{s.rank}. {s.name}" for s in rows),
                    {"standings": [to_json(s.__dict__) for s in rows]},
                )
            )
            return replace(state, phase="over")
        # The next game: a new target, everyone back at the start, the next seat first.
        return replace(
            state,
            phase="target",
            game_no=state.game_no + 1,
            first=(state.first + 1) % state.n,
            turn=(state.first + 1) % state.n,
            turns=0,
            target=None,
            points=(r.start_points,) * state.n,
        )

    # --- defaults -----------------------------------------------------------------------------
    def apply_default(self, state: HiloState, seat: Seat) -> tuple[HiloState, list[Event]]:
        """Timeout default: a random guess (2.2; always allowed, never costs points).

        At the pick, the side of the drawn X holding more of the publicly possible targets
        (High on a tie): a pure function of the public log, so a replay is exact.
        """
        self.check_default(state, seat)
        ev = [self.timeout_event(state, seat)]
        if state.phase == "pick":
            assert state.x is not None
            belief = public_belief((to_json(e) for e in state.log), state.rules.max_number)
            high = belief.count_above(state.x - 1)
            low = belief.count_below(state.x + 1)
            new = self._pick(state, seat, Pick("high" if high >= low else "low"), ev)
        else:
            new = self._random_request(state, seat, RandomGuess(), ev)
        return self.commit(state, new, ev), ev

    # --- outcome ------------------------------------------------------------------------------
    def outcome(self, state: HiloState) -> Outcome:
        """Ranks from the final standings (rules 5.1); score ``(n - rank) / (n - 1)``.

        A sole winner scores 1, the last 0; shared ranks share the score. ``detail`` holds the
        standings, the game stars, the accounts and every game's summary.
        """
        self.check_over(state)
        rows = state.standings()
        rank = {s.name: s.rank for s in rows}
        ranks = [rank[name] for name in state.players]
        n = state.n
        return Outcome(
            scores=tuple((n - r) / (n - 1) for r in ranks),
            ranks=tuple(ranks),
            detail={
                "standings": [to_json(s.__dict__) for s in rows],
                "stars": list(state.stars),
                "accounts": list(state.accounts),
                "games": [to_json(g) for g in state.history],
                HOST_ACCOUNTS: [{"account": a} for a in state.accounts],
            },
        )

    def host_accounts_in(self, rules: JSON, accounts: Sequence[Mapping[str, Any] | None]) -> JSON:
        """Series accounts (口座) persist across series: each player's starts where it ended."""
        start = [int((acc or {}).get("account", 0)) for acc in accounts]
        return {**rules, "start_accounts": start}

    # --- tests ------------------------------------------------------------------------------
    def conformance_rules(self) -> list[HiloRules]:
        """Defaults (two games of at most 40 rounds), a tiny range, odd costs, negative starts."""
        return [
            HiloRules(max_games=2, max_rounds=40),
            HiloRules(max_number=15, stars_to_win=2),
            HiloRules(max_number=3, random_check_max=4, start_points=-1, max_games=3),
            HiloRules(start_points=-1, max_games=2, max_rounds=4),
            HiloRules(
                max_number=1000, fee=3, fee_above=6, check_min=6, secret_guess_3_cost=1, max_games=2
            ),
        ]

    def conformance_action(
        self, state: HiloState, seat: Seat, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """Uniform over action kinds, with right guesses and hits often enough that games end.

        Uniform over ``legal`` would almost always be a named guess or a secret guess (they are
        billions of actions); this driver looks at the target (it is a test driver, not a bot).
        """
        if state.phase == "pick":
            return legal[rng.randrange(len(legal))]
        target = state.target
        assert target is not None
        kinds = state.rules.available(state.points[seat])
        top = state.rules.max_number
        if "check" in kinds and rng.random() < 0.5:
            return Check(target)
        if rng.random() < 0.4:
            if target < top:
                return Guess(rng.randint(target, top), "low")
            return Guess(rng.randint(0, target - 1), "high")
        return turn_action(rng.choice(kinds), rng.randint(0, top), rng.choice(DIRECTIONS))


def _numbered(top: int, make: Callable[[int], Action]) -> LazyActions[Action]:
    contains, form, text = _numbered_space(top, make)
    return LazyActions(top + 1, make, contains, {"form": dict(form), "text": text})


def _guesses(top: int, make: Callable[[int, Direction], Action]) -> LazyActions[Action]:
    item, contains, form, text = _guess_space(top, make)
    return LazyActions(2 * (top + 1), item, contains, {"form": dict(form), "text": text})


# What a space of numbered actions is made of depends only on its top and its action class:
# built once (each call still gets its own description to hand out).
@lru_cache(maxsize=256)
def _numbered_space(
    top: int, make: Callable[[int], Action]
) -> tuple[Callable[[object], bool], dict[str, Any], str]:
    example = make(0)
    tag = str(example).split()[0]
    cls = type(example)
    return (
        lambda a: type(a) is cls and _in_range(getattr(a, "x", None), top),
        {**CODEC.dump(example), "x": f"<0..{top}>"},
        f"{tag} <x 0..{top}>",
    )


@lru_cache(maxsize=256)
def _guess_space(
    top: int, make: Callable[[int, Direction], Action]
) -> tuple[Callable[[int], Action], Callable[[object], bool], dict[str, Any], str]:
    example = make(0, "high")
    tag = str(example).split()[0]
    cls = type(example)
    return (
        lambda i: make(i // 2, DIRECTIONS[i % 2]),
        lambda a: (
            type(a) is cls
            and _in_range(getattr(a, "x", None), top)
            and getattr(a, "direction", None) in DIRECTIONS
        ),
        {**CODEC.dump(example), "x": f"<0..{top}>", "direction": "high|low"},
        f"{tag} <x 0..{top}> high|low",
    )


def _in_range(x: object, top: int) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= top
