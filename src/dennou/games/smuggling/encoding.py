"""Smuggling Game for learning agents: the view as a vector, amounts on a grid.

Trunk amounts (10,001 by default) and doubts (up to 20,001) are too many to number one by one,
so amounts are on grids of the public limits:

- ``nominate p``: one number per seat (only one's own team is legal);
- ``trunk``: k/20 of the smuggler's limit min(trunk_max, home balance), k = 0..20, rounded
  down to the unit;
- ``ready``, ``pass``;
- ``doubt``: k/20 of the same smuggler's limit, k = 1..20 (at least one unit), and the
  inspector's own limit (doubt_factor x third-country balance); a doubt above the limit is
  illegal.

Left out: amounts between grid points (e.g. a trunk of 37% of the limit). Where grid points
coincide (small balances), only the first number of an action is legal. Room talk is not an
action: it is kept out of the observation; the environments' ``talk`` option shows it as text.
"""

from __future__ import annotations

from dennou.core.actions import Action
from dennou.core.encoding import Encoding, Layout, NotEncodable, Obs, one_hot
from dennou.core.game import JSON, Game, Seat
from dennou.games.smuggling.actions import Doubt, Nominate, Pass, Ready, Trunk
from dennou.games.smuggling.engine import doubt_limit, trunk_limit
from dennou.games.smuggling.rules import SmugglingRules
from dennou.games.smuggling.state import SmugglingState

PHASES = ("nominate", "trunk", "room", "over")
CASES = ("pass", "empty", "caught", "through")
STEPS = 20
RECENT = 4


class SmugglingEncoding(Encoding[SmugglingState, SmugglingRules]):
    """Observation: roles, balances, this small game's sealed facts one knows, recent results."""

    abstraction = (
        "trunk amounts at k/20 of the smuggler's limit; doubts at k/20 of it (k >= 1) and at "
        "the inspector's own limit"
    )

    def __init__(
        self, game: Game[SmugglingState, SmugglingRules], rules: SmugglingRules, players: int
    ):
        super().__init__(game, rules, players)
        n = players
        lay = Layout()
        self.f_me = lay.field("me", n, "one-hot: the observer's seat")
        self.f_phase = lay.field("phase", len(PHASES), f"one-hot: {', '.join(PHASES)}")
        self.f_game = lay.field(
            "game", 3, "small game / small_games, my team smuggles now, I am North"
        )
        self.f_roles = lay.field("roles", 2 * n, "one-hot smuggler seat, then inspector seat")
        self.f_money = lay.field(
            "money", 2 * n, "per seat: home / home_start, third / third_start (0..4)", 0.0, 4.0
        )
        self.f_rep = lay.field("represented", n, "per seat: times a representative / games")
        self.f_nom = lay.field("nominated", 2 * n, "who has nominated; my nomination one-hot")
        self.f_room = lay.field(
            "room",
            5,
            "trunk packed, my trunk / trunk_max, smuggler ready, verdict given, "
            "my verdict / (2 * trunk_max)",
        )
        self.f_totals = lay.field(
            "totals",
            2,
            "third-country totals / (n * third_start): my team, the other (0..4)",
            0.0,
            4.0,
        )
        self.f_recent = lay.field(
            "recent",
            RECENT * 8,
            f"the last {RECENT} small games, newest first: my team smuggled, amount / trunk_max, "
            f"doubt / trunk_max (0..2), then one-hot case {CASES}",
            0.0,
            2.0,
        )
        self.b_nominate = lay.block("nominate", n, "nominate seat p")
        self.b_trunk = lay.block("trunk", STEPS + 1, "trunk k/20 of the smuggler's limit")
        self.b_ready = lay.block("ready", 1, "ready (the smuggler ends its room talk)")
        self.b_pass = lay.block("pass", 1, "pass (the inspector's verdict)")
        self.b_doubt = lay.block(
            "doubt", STEPS + 1, "doubt (k+1)/20 of the smuggler's limit; the last: my limit"
        )
        self.reward_scale = 1e-8
        self._finish(lay)

    # --- observation --------------------------------------------------------------------
    def encode_view(self, view: JSON) -> Obs:
        """The observation of the view's seat."""
        out = self.new_obs()
        n, rules = self.players, self.rules
        seat = view["seat"]
        half = n // 2
        mine = "north" if seat < half else "south"
        one_hot(out, self.f_me, seat, n)
        one_hot(out, self.f_phase, PHASES.index(view["phase"]), len(PHASES))
        out[self.f_game : self.f_game + 3] = (
            view["small_game"] / rules.small_games,
            float(view["smuggling_team"] == mine),
            float(mine == "north"),
        )
        one_hot(out, self.f_roles, view["smuggler"], n)
        one_hot(out, self.f_roles + n, view["inspector"], n)
        for s in range(n):
            out[self.f_money + 2 * s] = view["home"][s] / rules.home_start
            out[self.f_money + 2 * s + 1] = view["third"][s] / rules.third_start
            out[self.f_rep + s] = view["represented"][s] / rules.small_games
            out[self.f_nom + s] = float(view["nominated"][s])
        one_hot(out, self.f_nom + n, view.get("my_nomination"), n)
        trunk = view.get("trunk")
        verdict = view.get("my_verdict")
        out[self.f_room : self.f_room + 5] = (
            float(view["trunk_packed"]),
            0.0 if trunk is None else trunk / rules.trunk_max,
            float(view["ready"]),
            float(view["verdict_given"]),
            0.0 if verdict is None else verdict / (2 * rules.trunk_max),
        )
        totals = {"north": 0, "south": 0}
        for s in range(n):
            totals["north" if s < half else "south"] += view["third"][s]
        scale = max(1, half * rules.third_start)
        other = "south" if mine == "north" else "north"
        out[self.f_totals] = totals[mine] / scale
        out[self.f_totals + 1] = totals[other] / scale
        for k, result in enumerate(reversed(view["results"][-RECENT:])):
            base = self.f_recent + 8 * k
            out[base] = float(result["smuggling"] == mine)
            out[base + 1] = result["amount"] / rules.trunk_max
            out[base + 2] = (result["doubt"] or 0) / rules.trunk_max
            out[base + 3 + CASES.index(result["case"])] = 1.0
        return self.clip(out)

    # --- actions ------------------------------------------------------------------------
    def _grid(self, state: SmugglingState) -> tuple[list[int], list[int]]:
        unit = self.rules.unit
        if state.smuggler is None or state.inspector is None:
            return [], []
        cap = trunk_limit(state)
        trunks = [cap * k // STEPS // unit * unit for k in range(STEPS + 1)]
        doubts = [max(unit, cap * k // STEPS // unit * unit) for k in range(1, STEPS + 1)]
        doubts.append(max(unit, doubt_limit(state)))
        return trunks, doubts

    def index(self, state: SmugglingState, seat: Seat, action: Action) -> int:
        """The first number of ``action`` (amounts must be grid points)."""
        if isinstance(action, Nominate) and 0 <= action.seat < self.players:
            return self.b_nominate + action.seat
        if isinstance(action, Ready):
            return self.b_ready
        if isinstance(action, Pass):
            return self.b_pass
        trunks, doubts = self._grid(state)
        if isinstance(action, Trunk) and action.amount in trunks:
            return self.b_trunk + trunks.index(action.amount)
        if isinstance(action, Doubt) and action.amount in doubts:
            return self.b_doubt + doubts.index(action.amount)
        raise NotEncodable(f"{action}: not on the amount grid (see the abstraction)")

    def action(self, state: SmugglingState, seat: Seat, index: int) -> Action:
        """The action numbered ``index`` now."""
        block = self.block_of(index)
        i = index - block.start
        if block.name == "nominate":
            return Nominate(i)
        if block.name == "ready":
            return Ready()
        if block.name == "pass":
            return Pass()
        trunks, doubts = self._grid(state)
        if not trunks:
            raise NotEncodable("no representatives yet: no amounts")
        return Trunk(trunks[i]) if block.name == "trunk" else Doubt(doubts[i])

    def legal_indices(self, state: SmugglingState, seat: Seat) -> list[int]:
        """The legal numbers, one per distinct action."""
        legal = self.game.legal_actions(state, seat)
        if not legal:
            return []
        if state.phase == "nominate":
            return [self.b_nominate + a.seat for a in legal if isinstance(a, Nominate)]
        return self.first_legal(state, seat, range(self.b_trunk, self.num_actions), legal)
