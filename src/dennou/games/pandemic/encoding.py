"""Pandemic Game for learning agents: the view as a vector, the four actions numbered.

The numbering is exact (nothing left out): ``idle``, ``check``, ``cure``, then ``contact p``
for every seat ``p`` (one's own seat is never legal).
"""

from __future__ import annotations

from dennou.core.actions import Action
from dennou.core.encoding import Encoding, Layout, NotEncodable, Obs, one_hot
from dennou.core.game import JSON, Game, Seat
from dennou.games.pandemic.actions import Check, Contact, Cure, Idle
from dennou.games.pandemic.rules import PandemicRules
from dennou.games.pandemic.state import PandemicState

PHASES = ("setup", "tick", "tiebreak", "over")
_SIMPLE: tuple[type[Action], ...] = (Idle, Check, Cure)
_KINDS = {"idle": 0, "check": 1, "cure": 2, "contact": 3}


class PandemicEncoding(Encoding[PandemicState, PandemicRules]):
    """Observation: what the seat knows (its checks, the contacts it saw, the announcements).

    Seats are absolute (``me`` says which one is the observer).
    """

    def __init__(
        self, game: Game[PandemicState, PandemicRules], rules: PandemicRules, players: int
    ):
        super().__init__(game, rules, players)
        n, r = players, rules.rounds
        self.total = rules.rounds * rules.ticks
        lay = Layout()
        self.f_me = lay.field("me", n, "one-hot: the observer's seat")
        self.f_phase = lay.field("phase", len(PHASES), f"one-hot: {', '.join(PHASES)}")
        self.f_time = lay.field("time", 3, "round / rounds, tick / ticks, ticks done / all ticks")
        self.f_sub = lay.field("submitted", n, "per seat: has sealed an action this tick")
        self.f_mine = lay.field("my_action", 4, "one-hot kind of my sealed action this tick")
        self.f_graph = lay.field(
            "contacts", n * n, "[a * n + b]: contacts seen between a and b / all ticks"
        )
        self.f_last = lay.field("last_tick", n * n, "[a * n + b]: a and b touched last tick")
        self.f_kinds = lay.field("my_counts", 4, "my idle, check, cure, contact actions / ticks")
        self.f_check = lay.field(
            "my_check",
            4,
            "my last check: checked at all, infected, vaccines / all ticks, ticks since / all",
        )
        self.f_ann = lay.field("announcements", 2 * r, "per round: normal / n, infected / n")
        self.f_asked = lay.field("asked", n, "seats I asked for a contact at least once / all")
        self.actions_start = lay.block("simple", 3, "0 idle, 1 check, 2 cure")
        self.contact_start = lay.block("contact", n, "3 + p: contact seat p")
        self._finish(lay)

    def encode_view(self, view: JSON) -> Obs:
        """The observation of the view's seat."""
        out = self.new_obs()
        n, total = self.players, max(1, self.total)
        ticks = self.rules.ticks
        seat = view["seat"]
        one_hot(out, self.f_me, seat, n)
        one_hot(out, self.f_phase, PHASES.index(view["phase"]), len(PHASES))
        rnd, tick = view["round"], view["tick"]
        done = max(0, (rnd - 1) * ticks + tick - 1)
        out[self.f_time : self.f_time + 3] = (rnd / self.rules.rounds, tick / ticks, done / total)
        for p, sub in enumerate(view["submitted"]):
            out[self.f_sub + p] = float(sub)
        mine = view.get("my_action")
        if mine is not None:
            out[self.f_mine + _KINDS[mine["type"]]] = 1.0
        for c in view["contacts"]:
            a, b = c["players"]
            out[self.f_graph + a * n + b] += 1.0 / total
            out[self.f_graph + b * n + a] += 1.0 / total
            if (c["round"] - 1) * ticks + c["tick"] == done:
                out[self.f_last + a * n + b] = out[self.f_last + b * n + a] = 1.0
        for act in view.get("my_actions", ()):
            out[self.f_kinds + _KINDS[act["type"]]] += 1.0 / total
            if act["type"] == "contact":
                out[self.f_asked + act["player"]] += 1.0 / total
        checks = view.get("checks") or []
        if checks:
            last = checks[-1]
            at = (last["round"] - 1) * ticks + last["tick"]
            out[self.f_check : self.f_check + 4] = (
                1.0,
                float(last["infected"]),
                last["vaccines"] / total,
                (done - at) / total,
            )
        for a in view["announcements"]:
            out[self.f_ann + 2 * (a["round"] - 1)] = a["normal"] / n
            out[self.f_ann + 2 * (a["round"] - 1) + 1] = a["infected"] / n
        return self.clip(out)

    def index(self, state: PandemicState, seat: Seat, action: Action) -> int:
        """``idle`` 0, ``check`` 1, ``cure`` 2, ``contact p`` 3 + p."""
        if isinstance(action, Contact):
            if not 0 <= action.player < self.players:
                raise NotEncodable(f"no seat {action.player}")
            return self.contact_start + action.player
        for i, cls in enumerate(_SIMPLE):
            if isinstance(action, cls):
                return i
        raise NotEncodable(f"{action} is not a player's action")

    def action(self, state: PandemicState, seat: Seat, index: int) -> Action:
        """The action numbered ``index``."""
        if 0 <= index < 3:
            return _SIMPLE[index]()
        if self.contact_start <= index < self.contact_start + self.players:
            return Contact(index - self.contact_start)
        raise NotEncodable(f"action number {index} is outside 0..{self.num_actions - 1}")

    def legal_indices(self, state: PandemicState, seat: Seat) -> list[int]:
        """Every action but contacting oneself, while the seat must act."""
        if seat not in self.game.to_act(state):
            return []
        return [0, 1, 2, *(self.contact_start + p for p in range(self.players) if p != seat)]
