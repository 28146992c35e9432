"""10-card stud for learning agents: the table as a vector; the one action is ``wait``.

Players make no decisions in 10-card stud (every step is the host's deal or reveal). The
environments give every seat a one-action decision (``wait``, number 0) before each draw, so an
agent can watch a hand unfold, e.g. to learn the value of a position (the win probability the
views' ``odds`` compute exactly or by Monte Carlo).

The observation is read from the state, restricted exactly as the view is: face-up cards, how
many hole cards each seat still has, stacks, pot, who reveals next. Hole cards are unknown to
everyone, their owner included; dead cards are never seen.
"""

from __future__ import annotations

from dennou.core.actions import Action
from dennou.core.encoding import Encoding, Layout, NotEncodable, Obs, one_hot
from dennou.core.game import JSON, Game, Seat
from dennou.games.stud10.rules import Stud10Rules
from dennou.games.stud10.state import Stud10State, strength

PHASES = ("deal", "reveal", "over")


class Stud10Encoding(Encoding[Stud10State, Stud10Rules]):
    """Observation: per seat its face-up cards, hole cards left and hand category; money."""

    passive = True
    """Seats never decide: the environments offer ``wait`` before every draw."""

    abstraction = "players make no decisions: the one action is wait (number 0)"

    def __init__(self, game: Game[Stud10State, Stud10Rules], rules: Stud10Rules, players: int):
        super().__init__(game, rules, players)
        n = players
        lay = Layout()
        self.f_me = lay.field("me", n, "one-hot: the observer's seat")
        self.f_phase = lay.field("phase", len(PHASES), f"one-hot: {', '.join(PHASES)}")
        self.f_hand = lay.field("hand", 1, "hands dealt / hands (or / 100 when unlimited)")
        self.f_pot = lay.field("pot", 1, "pot / all chips")
        self.f_seats = lay.field(
            "seats",
            n * 65,
            "per seat (65 each): 52 face-up cards (code rank * 4 + suit), hole cards left / 5, "
            "dealt in, stack / all chips, revealing next, 9 one-hot hand categories",
        )
        lay.block("wait", 1, "wait (the only action: players never decide)")
        self.money = max(1, rules.stack * n)
        self.reward_scale = 1.0 / max(1, rules.ante * n)
        self._finish(lay)

    def observe(self, state: Stud10State, seat: Seat) -> Obs:
        """The observation, read from the state's public part (everything a view shows)."""
        out = self.new_obs()
        n = self.players
        one_hot(out, self.f_me, seat, n)
        one_hot(out, self.f_phase, PHASES.index(state.phase), len(PHASES))
        hands = self.rules.hands or 100
        out[self.f_hand] = state.hand / hands
        out[self.f_pot] = state.pot / self.money
        revealing = set(state.revealing())
        for s in range(n):
            base = self.f_seats + s * 65
            out[base + 55] = state.stacks[s] / self.money if state.stacks else 0.0
            if s not in state.in_hand:
                continue
            for c in state.up[s]:
                out[base + c] = 1.0
            out[base + 52] = len(state.hole[s]) / 5
            out[base + 53] = 1.0
            out[base + 54] = float(s in revealing)
            out[base + 56 + (strength(state.up[s]) >> 20)] = 1.0
        return self.clip(out)

    def encode_view(self, view: JSON) -> Obs:
        """Not used: :meth:`observe` reads the public part of the state directly."""
        raise NotImplementedError("Stud10Encoding observes the state's public part")

    def index(self, state: Stud10State, seat: Seat, action: Action) -> int:
        """Seats have no actions of their own."""
        raise NotEncodable("players make no decisions in 10-card stud")

    def action(self, state: Stud10State, seat: Seat, index: int) -> Action:
        """Seats have no actions of their own (``wait`` is the environment's)."""
        raise NotEncodable("players make no decisions in 10-card stud")

    def legal_indices(self, state: Stud10State, seat: Seat) -> list[int]:
        """Nothing: the environments offer ``wait`` themselves."""
        return []
