"""Rock-paper-scissors for learning agents: the score, the last round, who has thrown."""

from __future__ import annotations

from dennou.core.actions import Action
from dennou.core.encoding import Encoding, Layout, NotEncodable, Obs, one_hot
from dennou.core.game import JSON, Game, Seat
from tests.rps.actions import HANDS, Throw
from tests.rps.rules import RpsRules
from tests.rps.state import RpsState


class RpsEncoding(Encoding[RpsState, RpsRules]):
    """Observation: seat, rounds played and won, the last round's hands; actions: the hands."""

    def __init__(self, game: Game[RpsState, RpsRules], rules: RpsRules, players: int):
        super().__init__(game, rules, players)
        lay = Layout()
        self.f_me = lay.field("me", 2, "one-hot: the observer's seat")
        self.f_played = lay.field("played", 1, "rounds played / throws")
        self.f_wins = lay.field("wins", 2, "rounds won per seat / throws")
        self.f_last = lay.field("last", 6, "one-hot per seat: the last round's hands")
        self.f_thrown = lay.field("thrown", 2, "each seat has thrown this round")
        self.b_hand = lay.block("throw", 3, "throw rock, paper, scissors")
        self._finish(lay)

    def encode_view(self, view: JSON) -> Obs:
        """The observation of the view's seat."""
        out = self.new_obs()
        n = self.rules.throws
        one_hot(out, self.f_me, view["seat"], 2)
        out[self.f_played] = len(view["history"]) / n
        for s in (0, 1):
            out[self.f_wins + s] = view["wins"][s] / n
            out[self.f_thrown + s] = float(view["thrown"][s])
            if view["history"]:
                one_hot(out, self.f_last + 3 * s, HANDS.index(view["history"][-1][s]), 3)
        return self.clip(out)

    def index(self, state: RpsState, seat: Seat, action: Action) -> int:
        """A throw's number."""
        if not isinstance(action, Throw):
            raise NotEncodable(str(action))
        return self.b_hand + HANDS.index(action.hand)

    def action(self, state: RpsState, seat: Seat, index: int) -> Action:
        """The throw of a number."""
        return Throw(HANDS[index - self.b_hand])
