"""Musical Chairs for learning agents: the view as a vector, orders and gifts abstracted.

Order lists (ordered selections of up to 5 of 25 chairs) and gifts (any count of any name's
medals) are too many to number one by one. The numbering (P people, C chairs):

- 0 ``ready``;
- 1 + (to * P + name) * 2 + k: ``gift`` to seat ``to`` medals bearing ``name``: one medal
  (k = 0) or every such medal one holds (k = 1);
- ``order``: the empty order (stay at the totem), then one number per chair c: the list that
  starts at c and goes on to the nearest allowed chair from the last one, up to
  ``max_choices`` chairs;
- ``no_block``, ``block_chair c`` (C), ``block_player p`` (P);
- ``vote p`` (P), ``abstain``;
- ``remove c`` (C).

Left out: orders other than "first choice, then nearest from there", and gifts of 2 or more
(but not all) medals of one name at once (a few gifts of one make them, up to
``gifts_per_phase``). Where two numbers give the same action (one medal held: one = all), only
the first is legal. Talk is kept out of the observation (the ``talk`` option shows it as text).
"""

from __future__ import annotations

import math

from dennou.core.actions import Action
from dennou.core.encoding import Encoding, Layout, NotEncodable, Obs, one_hot
from dennou.core.game import JSON, Game, Seat
from dennou.games.chairs.actions import (
    Abstain,
    BlockChair,
    BlockPlayer,
    Gift,
    NoBlock,
    Order,
    Ready,
    Remove,
    Vote,
)
from dennou.games.chairs.rules import ChairsRules
from dennou.games.chairs.state import ChairsState

PHASES = ("map", "free", "go", "race", "vote", "tiebreak", "remove", "over")


def chain(first: int, allowed: list[int], positions: list[list[int]], length: int) -> list[int]:
    """``first``, then the nearest allowed chair from the last one, ``length`` chairs at most."""
    out = [first]
    left = [c for c in allowed if c != first]
    while left and len(out) < length:
        x, y = positions[out[-1] - 1]
        nxt = min(left, key=lambda c: (math.dist((x, y), positions[c - 1]), c))
        out.append(nxt)
        left.remove(nxt)
    return out


class ChairsEncoding(Encoding[ChairsState, ChairsRules]):
    """Observation: the island, who is still playing, sealed flags, medals, the last period."""

    abstraction = (
        "orders are 'first chair, then nearest from there'; gifts are one medal or all medals "
        "of a name"
    )

    def __init__(self, game: Game[ChairsState, ChairsRules], rules: ChairsRules, players: int):
        super().__init__(game, rules, players)
        p = players
        c = self.chairs = rules.n_chairs(p)
        self.medals = rules.medals if rules.medals is not None else p - 1
        lay = Layout()
        self.f_me = lay.field("me", p, "one-hot: the observer's seat")
        self.f_phase = lay.field("phase", len(PHASES), f"one-hot: {', '.join(PHASES)}")
        self.f_period = lay.field("period", 1, "period / periods")
        self.f_people = lay.field(
            "people",
            7 * p,
            "per seat (7 each): playing, ready, order sealed, block sealed, voted, "
            "votes last period / people, blockers on it last period / people",
        )
        self.f_chairs = lay.field(
            "chairs",
            6 * c,
            "per chair (6 each): in play, x / radius, y / radius, distance / radius, "
            "someone sat on it last period, I sat on it last period",
            -1.0,
            1.0,
        )
        self.f_medals = lay.field("medals", p, "my medals per name / medals")
        self.f_mine = lay.field(
            "mine", 4, "gifts made / gifts_per_phase, my order, block, vote sealed"
        )
        self.f_parent = lay.field("parent", p, "one-hot: last period's parent")
        self.b_ready = lay.block("ready", 1, "ready")
        self.b_gift = lay.block("gift", p * p * 2, "gift (to * P + name) * 2 + (0: one, 1: all)")
        self.b_order = lay.block("order", c + 1, "order: 0 empty, c: chair c then nearest")
        self.b_noblock = lay.block("no_block", 1, "no_block")
        self.b_bchair = lay.block("block_chair", c, "block_chair c + 1")
        self.b_bplayer = lay.block("block_player", p, "block_player p")
        self.b_vote = lay.block("vote", p, "vote p")
        self.b_abstain = lay.block("abstain", 1, "abstain")
        self.b_remove = lay.block("remove", c, "remove c + 1")
        self.reward_scale = 1e-8
        self._finish(lay)

    # --- observation --------------------------------------------------------------------
    def encode_view(self, view: JSON) -> Obs:
        """The observation of the view's seat."""
        out = self.new_obs()
        p, c, rules = self.players, self.chairs, self.rules
        seat = view["seat"]
        one_hot(out, self.f_me, seat, p)
        one_hot(out, self.f_phase, PHASES.index(view["phase"]), len(PHASES))
        out[self.f_period] = view["period"] / max(1, view["periods"])
        last = view["history"][-1] if view["history"] else None
        for s in range(p):
            base = self.f_people + 7 * s
            out[base] = float(view["playing"][s])
            out[base + 1] = float(view["ready"][s])
            out[base + 2] = float(view["sealed_order"][s])
            out[base + 3] = float(view["sealed_block"][s])
            out[base + 4] = float(view["voted"][s])
            if last is not None and last.get("votes"):
                out[base + 5] = last["votes"][s] / p
        if last is not None:
            for block in last["blocks"]:
                if "player" in block:
                    out[self.f_people + 7 * block["player"] + 6] += 1 / p
            one_hot(out, self.f_parent, last.get("parent"), p)
        radius = rules.island_radius
        in_play = set(view["in_play"])
        taken = {x for x in view["last_chair"] if x is not None}
        mine = view["last_chair"][seat]
        for k, (x, y) in enumerate(view["positions"][:c]):
            base = self.f_chairs + 6 * k
            out[base] = float(k + 1 in in_play)
            out[base + 1] = x / radius
            out[base + 2] = y / radius
            out[base + 3] = math.hypot(x, y) / radius
            out[base + 4] = float(k + 1 in taken)
            out[base + 5] = float(k + 1 == mine)
        for name, count in enumerate(view.get("medals") or ()):
            out[self.f_medals + name] = count / max(1, self.medals)
        out[self.f_mine : self.f_mine + 4] = (
            view.get("gifts_made", 0) / max(1, rules.gifts_per_phase),
            float(view.get("my_order") is not None),
            float(view.get("my_block") is not None),
            float(view.get("my_vote") is not None),
        )
        return self.clip(out)

    # --- actions ------------------------------------------------------------------------
    def _order(self, state: ChairsState, seat: Seat, first: int) -> Order:
        allowed = state.allowed_chairs(seat)
        if first not in allowed:
            raise NotEncodable(f"chair {first} is not allowed for seat {seat} now")
        positions = [list(xy) for xy in state.positions]
        return Order(tuple(chain(first, allowed, positions, self.rules.max_choices)))

    def index(self, state: ChairsState, seat: Seat, action: Action) -> int:
        """The first number of ``action`` (it must be inside the abstraction)."""
        p, c = self.players, self.chairs
        if isinstance(action, Ready):
            return self.b_ready
        if isinstance(action, Gift) and 0 <= action.to < p and 0 <= action.name < p:
            base = self.b_gift + (action.to * p + action.name) * 2
            if action.count == 1:
                return base
            if action.count == state.holdings[seat][action.name]:
                return base + 1
        elif isinstance(action, Order):
            if not action.chairs:
                return self.b_order
            if 1 <= action.chairs[0] <= c:
                try:
                    if self._order(state, seat, action.chairs[0]) == action:
                        return self.b_order + action.chairs[0]
                except NotEncodable:
                    pass
        elif isinstance(action, NoBlock):
            return self.b_noblock
        elif isinstance(action, BlockChair) and 1 <= action.chair <= c:
            return self.b_bchair + action.chair - 1
        elif isinstance(action, BlockPlayer) and 0 <= action.player < p:
            return self.b_bplayer + action.player
        elif isinstance(action, Vote) and 0 <= action.candidate < p:
            return self.b_vote + action.candidate
        elif isinstance(action, Abstain):
            return self.b_abstain
        elif isinstance(action, Remove) and 1 <= action.chair <= c:
            return self.b_remove + action.chair - 1
        raise NotEncodable(f"{action}: outside the numbering (see the abstraction)")

    def action(self, state: ChairsState, seat: Seat, index: int) -> Action:
        """The action numbered ``index`` now."""
        p = self.players
        block = self.block_of(index)
        i = index - block.start
        name = block.name
        if name == "ready":
            return Ready()
        if name == "gift":
            pair, k = divmod(i, 2)
            to, medal = divmod(pair, p)
            count = 1 if k == 0 else state.holdings[seat][medal]
            return Gift(to, medal, max(1, count))
        if name == "order":
            return Order(()) if i == 0 else self._order(state, seat, i)
        if name == "no_block":
            return NoBlock()
        if name == "block_chair":
            return BlockChair(i + 1)
        if name == "block_player":
            return BlockPlayer(i)
        if name == "vote":
            return Vote(i)
        if name == "abstain":
            return Abstain()
        return Remove(i + 1)

    def _free_indices(self, state: ChairsState, seat: Seat) -> list[int]:
        """``ready``, and the gifts the engine's gift space allows, without building them.

        A gift of one medal (or of all, when that is more than one) of any name one holds, to
        anyone else, while gifts are left this phase.
        """
        out = [self.b_ready]
        if state.gifts_made[seat] >= self.rules.gifts_per_phase:
            return out
        p = self.players
        held = state.holdings[seat]
        for to in range(p):
            if to == seat:
                continue
            for name in range(p):
                if held[name] >= 1:
                    base = self.b_gift + (to * p + name) * 2
                    out.append(base)
                    if held[name] >= 2:
                        out.append(base + 1)
        return out

    def legal_indices(self, state: ChairsState, seat: Seat) -> list[int]:
        """The legal numbers, one per distinct action."""
        legal = self.game.legal_actions(state, seat)
        if not legal:
            return []
        phase = state.phase
        if phase == "free":
            return self._free_indices(state, seat)
        if phase == "go":
            span = range(self.b_order, self.b_vote)
        elif phase == "vote":
            span = range(self.b_vote, self.b_remove)
        else:
            span = range(self.b_remove, self.num_actions)
        return self.first_legal(state, seat, span, legal)
