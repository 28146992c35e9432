"""Star Hi-Lo for learning agents: the view as a vector, X on a grid over what the seat knows.

X ranges over 0..3,276,732,767, so the numbering is an abstraction. Every X is a point of a
19-point grid over the targets the seat still thinks possible (its ``Belief``: the public
results and its own secret results): point 0 is just below the lowest possible target, points
1..17 are the possible targets at quantiles 0, 1/16, ..., 16/16 (point 9 is the median, the
halving guess), point 18 is just above the highest. Below/above make the sure-right guesses
(farming); the quantiles halve or check. Numbers (137):

- 0 ``random_guess``, 1 ``random_check``, 2 ``pick high``, 3 ``pick low``;
- 4 + 2g + h: ``guess`` at grid point g (h = 0 high, 1 low);
- 42 + 2g + h: ``secret_guess_3``; 80 + 2g + h: ``secret_guess_2``;
- 118 + g: ``check`` at grid point g.

Left out: any X that is not a grid point (an X outside the possible targets other than the two
next to them, or between quantiles). When points coincide (few targets left), only the first
number of an action is legal, so every legal number means a different action.
"""

from __future__ import annotations

import math

from dennou.core.actions import Action
from dennou.core.encoding import Encoding, Layout, NotEncodable, Obs, one_hot
from dennou.core.game import JSON, Game, Seat
from dennou.games.hilo.actions import (
    DIRECTIONS,
    Check,
    Guess,
    Pick,
    RandomCheck,
    RandomGuess,
    SecretGuess2,
    SecretGuess3,
)
from dennou.games.hilo.knowledge import Belief, belief_of, public_belief
from dennou.games.hilo.rules import HiloRules
from dennou.games.hilo.state import HiloState

PHASES = ("target", "turn", "draw", "pick", "over")
KINDS = ("guess", "random_guess", "check", "random_check", "secret_guess_3", "secret_guess_2")
GRID = 19
QUANTILES = GRID - 2
_NAMED: tuple[type[Guess] | type[SecretGuess3] | type[SecretGuess2], ...] = (
    Guess,
    SecretGuess3,
    SecretGuess2,
)


def grid(belief: Belief, max_number: int) -> list[int | None]:
    """The 19 X values of a belief (``None`` where a point falls outside 0..max_number)."""
    out: list[int | None] = [belief.lo - 1 if belief.lo > 0 else None]
    count = belief.count
    for k in range(QUANTILES):
        out.append(belief.candidate(round(k * (count - 1) / (QUANTILES - 1))) if count else None)
    out.append(belief.hi + 1 if belief.hi < max_number else None)
    return out


class HiloEncoding(Encoding[HiloState, HiloRules]):
    """Observation: points, accounts, stars, and how much the seat and everyone know."""

    abstraction = (
        "X only at 19 grid points over the targets the seat thinks possible (just below, 17 "
        "quantiles, just above)"
    )

    def __init__(self, game: Game[HiloState, HiloRules], rules: HiloRules, players: int):
        super().__init__(game, rules, players)
        n = players
        lay = Layout()
        self.f_me = lay.field("me", n, "one-hot: the observer's seat")
        self.f_phase = lay.field("phase", len(PHASES), f"one-hot: {', '.join(PHASES)}")
        self.f_turn = lay.field("turn", n, "one-hot: whose turn")
        self.f_open = lay.field("actions", len(KINDS), f"open to the player to act: {KINDS}")
        self.f_points = lay.field("points", n, "points / 30 (-1..3, saturates)", -1.0, 3.0)
        self.f_accounts = lay.field("accounts", n, "accounts / 100 (-3..3)", -3.0, 3.0)
        self.f_stars = lay.field("stars", n, "game stars / stars_to_win")
        self.f_time = lay.field("time", 3, "game / 20, round / 50, turns / 200 (saturate)")
        self.f_know = lay.field(
            "knowledge",
            4,
            "log(my candidates) / log(all), log(public candidates) / log(all), I know it, "
            "my candidates / public candidates",
        )
        self.f_x = lay.field("x", 2, "a drawn X is pending; share of my candidates below it")
        self.f_secret = lay.field("secrets", n, "secret guesses used this game / 5")
        self.b_random = lay.block("random", 4, "random_guess, random_check, pick high, pick low")
        self.b_named = lay.block(
            "named", 3 * GRID * 2, "guess, secret_guess_3, secret_guess_2 at 2 * point + dir"
        )
        self.b_check = lay.block("check", GRID, "check at grid point g")
        self._log_all = math.log(rules.max_number + 1)
        self._memo: tuple[HiloState | None, Seat, list[int | None]] = (None, -1, [])
        self._finish(lay)

    # --- observation --------------------------------------------------------------------
    def encode_view(self, view: JSON) -> Obs:
        """The observation of the view's seat."""
        out = self.new_obs()
        n, rules = self.players, self.rules
        seat = view["seat"]
        one_hot(out, self.f_me, seat, n)
        one_hot(out, self.f_phase, PHASES.index(view["phase"]), len(PHASES))
        one_hot(out, self.f_turn, view["turn"], n)
        if view["turn"] == seat:
            for kind in view["actions"]:
                if kind in KINDS:
                    out[self.f_open + KINDS.index(kind)] = 1.0
        for s in range(n):
            out[self.f_points + s] = view["points"][s] / 30
            out[self.f_accounts + s] = view["accounts"][s] / 100
            out[self.f_stars + s] = view["stars"][s] / rules.stars_to_win
        out[self.f_time : self.f_time + 3] = (
            view["game_no"] / 20,
            view["round"] / 50,
            view["turns"] / 200,
        )
        mine = belief_of(view["log"], rules.max_number, seat)
        public = public_belief(view["log"], rules.max_number)
        out[self.f_know : self.f_know + 4] = (
            math.log(max(1, mine.count)) / self._log_all,
            math.log(max(1, public.count)) / self._log_all,
            float(mine.count == 1),
            mine.count / max(1, public.count),
        )
        if view["x"] is not None:
            out[self.f_x] = 1.0
            out[self.f_x + 1] = mine.count_below(view["x"]) / max(1, mine.count)
        for entry in view["log"]:
            if entry["kind"] == "secret_guess":
                out[self.f_secret + entry["data"]["seat"]] += 0.2
        return self.clip(out)

    # --- actions ------------------------------------------------------------------------
    def _grid(self, state: HiloState, seat: Seat) -> list[int | None]:
        cached_state, cached_seat, points = self._memo
        if cached_state is state and cached_seat == seat:
            return points
        log = [{"kind": e.kind, "data": e.data} for e in state.log if e.visible_to(seat)]
        points = grid(belief_of(log, self.rules.max_number, seat), self.rules.max_number)
        self._memo = (state, seat, points)
        return points

    def index(self, state: HiloState, seat: Seat, action: Action) -> int:
        """The first number of ``action`` (X must be a grid point)."""
        if isinstance(action, RandomGuess):
            return 0
        if isinstance(action, RandomCheck):
            return 1
        if isinstance(action, Pick):
            return 2 + DIRECTIONS.index(action.direction)
        points = self._grid(state, seat)
        if isinstance(action, Check):
            if action.x in points:
                return self.b_check + points.index(action.x)
        elif isinstance(action, Guess | SecretGuess3 | SecretGuess2):
            kind = _NAMED.index(type(action))
            if action.x in points:
                g = points.index(action.x)
                return self.b_named + (kind * GRID + g) * 2 + DIRECTIONS.index(action.direction)
        raise NotEncodable(f"{action}: X is not on the seat's grid (see the abstraction)")

    def action(self, state: HiloState, seat: Seat, index: int) -> Action:
        """The action numbered ``index`` now."""
        if index == 0:
            return RandomGuess()
        if index == 1:
            return RandomCheck()
        if index in (2, 3):
            return Pick(DIRECTIONS[index - 2])
        block = self.block_of(index)
        points = self._grid(state, seat)
        if block.name == "check":
            x = points[index - self.b_check]
            if x is None:
                raise NotEncodable(f"grid point {index - self.b_check} is outside the range")
            return Check(x)
        i = index - self.b_named
        kind, rest = divmod(i, GRID * 2)
        g, h = divmod(rest, 2)
        x = points[g]
        if x is None:
            raise NotEncodable(f"grid point {g} is outside the range")
        return _NAMED[kind](x, DIRECTIONS[h])

    def legal_indices(self, state: HiloState, seat: Seat) -> list[int]:
        """The legal numbers, one per distinct action, from the kinds open to the seat.

        (The kinds are the view's ``actions``; X must be a grid point in range. Computed
        without building the actions: ``tests/rl`` checks it against the engine's legal set.)
        """
        if seat not in self.game.to_act(state):
            return []
        if state.phase == "pick":
            return [2, 3]
        if state.phase != "turn":
            return []
        kinds = set(self.rules.available(state.points[seat]))
        firsts: dict[int, int] = {}
        for g, x in enumerate(self._grid(state, seat)):
            if x is not None and x not in firsts:
                firsts[x] = g
        points = sorted(firsts.values())
        out = [0] if "random_guess" in kinds else []
        if "random_check" in kinds:
            out.append(1)
        for k, kind in enumerate(("guess", "secret_guess_3", "secret_guess_2")):
            if kind in kinds:
                base = self.b_named + k * GRID * 2
                out.extend(base + 2 * g + h for g in points for h in (0, 1))
        if "check" in kinds:
            out.extend(self.b_check + g for g in points)
        return out
