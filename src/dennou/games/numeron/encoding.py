"""Numeron for learning agents: the view as a vector, every action numbered.

The numbering covers every legal action (nothing left out). Numbers (``set`` at setup, ``call``
in a call) share one block in the order of ``all_numbers`` (``012``, ``013``...). SHUFFLE is
numbered by the permutation of one's own digits' positions, so its meaning depends on one's
number (which the seat knows).

The observation carries the opponent's candidates: a 0/1 entry per number saying whether the
opponent's number may still be it, from the calls, judgments and item results the seat saw
(``dennou.games.numeron.knowledge``): what a strong player keeps in mind, computed from the view.
"""

from __future__ import annotations

import math
from itertools import permutations
from typing import Any

import numpy as np

from dennou.core.actions import Action
from dennou.core.encoding import Encoding, Layout, Mask, NotEncodable, Obs, one_hot
from dennou.core.game import JSON, Game, Seat
from dennou.games.numeron.actions import (
    Call,
    Change,
    Decline,
    Double,
    HighLow,
    Move,
    NoItem,
    Reveal,
    SetNumber,
    Shuffle,
    Slash,
    Target,
)
from dennou.games.numeron.knowledge import (
    EVERYTHING,
    Candidates,
    LogKnowledge,
    index_of,
    knowledge,
)
from dennou.games.numeron.rules import ALL_ITEMS, NumeronRules
from dennou.games.numeron.state import NumeronState, all_numbers

PHASES = ("setup", "coin", "defence", "attack_item", "reveal", "call", "over")
_SIMPLE: tuple[type[Action], ...] = (Decline, NoItem, Double, HighLow, Slash)


class NumeronEncoding(Encoding[NumeronState, NumeronRules]):
    """Observation: phase, roles, items, one's number, and the opponent's candidate numbers."""

    def __init__(self, game: Game[NumeronState, NumeronRules], rules: NumeronRules, players: int):
        super().__init__(game, rules, players)
        d = rules.digits
        self.pool = all_numbers(d)
        self.where = index_of(d)
        self.perms = list(permutations(range(d)))
        total = len(self.pool)
        lay = Layout()
        self.f_me = lay.field("me", 2, "one-hot: the observer's seat")
        self.f_phase = lay.field("phase", len(PHASES), f"one-hot: {', '.join(PHASES)}")
        self.f_roles = lay.field(
            "roles", 4, "I attack now, I called first, calls left / 2, last turn under way"
        )
        self.f_turn = lay.field("turn", 1, "turn / 50 (saturates)")
        self.f_items = lay.field(
            "items", 2 * len(ALL_ITEMS), f"my then the opponent's items left / 3: {ALL_ITEMS}"
        )
        self.f_strikes = lay.field("strikes", 2, "my, the opponent's lost-call strikes / 3")
        self.f_mine = lay.field("my_number", d * 10, "[position * 10 + digit]: my number")
        self.f_known = lay.field(
            "knowledge", 2, "log(candidates) / log(all): of the opponent's number, of mine"
        )
        self.f_cands = lay.field(
            "candidates", total, "per number (all_numbers order): the opponent may hold it"
        )
        self.b_number = lay.block("number", total, "set (setup) or call (call) all_numbers[i]")
        self.b_simple = lay.block("simple", 5, "decline, no_item, double, high_low, slash")
        self.b_target = lay.block("target", 10, "target digit t")
        self.b_reveal = lay.block("reveal", d, "reveal position p")
        self.b_shuffle = lay.block(
            "shuffle", len(self.perms), "shuffle: new[i] = mine[perm[i]], permutations in order"
        )
        self.b_change = lay.block("change", d * 10, "change position * 10 + digit")
        self.b_move = lay.block("move", d * d * 9, "move (source * d + target) * 9 + amount - 1")
        self._log_total = math.log(total)
        self._memo: tuple[list[tuple[list[Any], Candidates]], ...] = ([], [])
        self._log_knowledge = LogKnowledge(d)
        self._finish(lay)

    # --- observation --------------------------------------------------------------------
    def observe(self, state: NumeronState, seat: Seat) -> Obs:
        """The observation, read from the state as the view shows it (no JSON copies).

        The fields are the view's: the knowledge is from the events the seat may see (all once
        over), the number is the seat's own. ``tests/rl`` checks it equals :meth:`encode_view`
        of the view. The knowledge is kept as the log grows (:class:`LogKnowledge`), so a step
        costs the same late in a long game as early.
        """
        known = self._log_knowledge.of(state.log)[EVERYTHING if state.phase == "over" else seat]
        return self._encode(
            seat,
            state.phase,
            state.attacker,
            state.turn,
            state.first,
            state.calls_left,
            state.last_turn,
            state.items,
            state.strikes,
            state.numbers[seat],
            known[1 - seat],
            known[seat],
        )

    def encode_view(self, view: JSON) -> Obs:
        """The observation of the view's seat."""
        seat = view["seat"]
        return self._encode(
            seat,
            view["phase"],
            view["attacker"],
            view["turn"],
            view["first"],
            view["calls_left"],
            view["last_turn"],
            view["items"],
            view["strikes"],
            view.get("my_number"),
            self._knowledge(view["log"], 1 - seat),
            self._knowledge(view["log"], seat),
        )

    def _encode(
        self,
        seat: Seat,
        phase: str,
        attacker: int,
        turn: int,
        first: int | None,
        calls_left: int,
        last_turn: bool,
        items: Any,
        strikes: Any,
        mine: str | None,
        theirs: Candidates,
        known: Candidates,
    ) -> Obs:
        out = self.new_obs()
        opp = 1 - seat
        one_hot(out, self.f_me, seat, 2)
        one_hot(out, self.f_phase, PHASES.index(phase), len(PHASES))
        out[self.f_roles : self.f_roles + 4] = (
            float(attacker == seat and turn > 0),
            float(first == seat),
            calls_left / 2,
            float(last_turn),
        )
        out[self.f_turn] = turn / 50
        for k, owner in enumerate((seat, opp)):
            for item in items[owner]:
                out[self.f_items + k * len(ALL_ITEMS) + ALL_ITEMS.index(item)] += 1 / 3
        out[self.f_strikes : self.f_strikes + 2] = (strikes[seat] / 3, strikes[opp] / 3)
        if mine is not None:
            for p, c in enumerate(mine):
                out[self.f_mine + p * 10 + int(c)] = 1.0
        out[self.f_known] = math.log(max(1, theirs.count)) / self._log_total
        out[self.f_known + 1] = math.log(max(1, known.count)) / self._log_total
        out[self.f_cands : self.f_cands + len(self.pool)] = theirs.mask
        return self.clip(out)

    def _knowledge(self, log: list[Any], owner: int) -> Candidates:
        """``knowledge(log, digits, owner)``, resumed from a log this one extends.

        ``log`` holds event dicts (a view's) or events (the state's). An agent's successive
        observations extend one log, so each costs only its new events. The last few logs are
        kept per owner (seats' logs differ: private results).
        """
        best, done = None, 0
        for old, cands in self._memo[owner]:
            k = len(old)
            if done < k <= len(log) and log[k - 1] == old[-1] and log[:k] == old:
                best, done = cands, k
        if best is not None and done == len(log):
            return best
        tail = [e if isinstance(e, dict) else {"kind": e.kind, "data": e.data} for e in log[done:]]
        result = knowledge(tail, self.rules.digits, owner, start=best)
        memo = self._memo[owner]
        memo.append((list(log), result))
        if len(memo) > 8:
            memo.pop(0)
        return result

    # --- actions ------------------------------------------------------------------------
    def _mine(self, state: NumeronState, seat: Seat) -> str:
        number = state.numbers[seat]
        if number is None:
            raise NotEncodable("no number set yet")
        return number

    def index(self, state: NumeronState, seat: Seat, action: Action) -> int:
        """The number of ``action`` (see the module doc)."""
        d = self.rules.digits
        if isinstance(action, SetNumber | Call):
            if action.number not in self.where:
                raise NotEncodable(f"{action.number!r} is not a number of {d} digits")
            return self.b_number + self.where[action.number]
        for i, cls in enumerate(_SIMPLE):
            if type(action) is cls:
                return self.b_simple + i
        if isinstance(action, Target) and 0 <= action.digit <= 9:
            return self.b_target + action.digit
        if isinstance(action, Reveal) and 0 <= action.position < d:
            return self.b_reveal + action.position
        if isinstance(action, Shuffle):
            mine = self._mine(state, seat)
            for i, perm in enumerate(self.perms):
                if "".join(mine[j] for j in perm) == action.number:
                    return self.b_shuffle + i
            raise NotEncodable(f"{action.number} is not an order of {mine}")
        if isinstance(action, Change) and 0 <= action.position < d and 0 <= action.digit <= 9:
            return self.b_change + action.position * 10 + action.digit
        if (
            isinstance(action, Move)
            and 0 <= action.source < d
            and 0 <= action.target < d
            and 1 <= action.amount <= 9
        ):
            return self.b_move + (action.source * d + action.target) * 9 + action.amount - 1
        raise NotEncodable(f"{action} is not a player's action of this config")

    def action(self, state: NumeronState, seat: Seat, index: int) -> Action:
        """The action numbered ``index`` now."""
        d = self.rules.digits
        block = self.block_of(index)
        i = index - block.start
        if block.name == "number":
            number = self.pool[i]
            return SetNumber(number) if state.phase == "setup" else Call(number)
        if block.name == "simple":
            return _SIMPLE[i]()
        if block.name == "target":
            return Target(i)
        if block.name == "reveal":
            return Reveal(i)
        if block.name == "shuffle":
            mine = self._mine(state, seat)
            return Shuffle("".join(mine[j] for j in self.perms[i]))
        if block.name == "change":
            return Change(i // 10, i % 10)
        pair, amount = divmod(i, 9)
        return Move(pair // d, pair % d, amount + 1)

    def action_mask(self, state: NumeronState, seat: Seat) -> Mask:
        """1 for every legal number (a whole block at setup and in a call: no list built)."""
        if state.phase in ("setup", "call") and seat in self.game.to_act(state):
            mask = np.zeros(self.num_actions, np.int8)
            mask[self.b_number : self.b_number + len(self.pool)] = 1
            return mask
        return super().action_mask(state, seat)

    def legal_indices(self, state: NumeronState, seat: Seat) -> list[int]:
        """The legal numbers (numbers are a whole block; the rest are listed)."""
        if seat not in self.game.to_act(state):
            return []
        if state.phase in ("setup", "call"):
            return list(range(self.b_number, self.b_number + len(self.pool)))
        return sorted({self.index(state, seat, a) for a in self.game.legal_actions(state, seat)})
