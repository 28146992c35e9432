"""Twenty (二十): two players count up from 1, one to three numbers a turn; who says 20 loses.

Rules: ``examples/twenty/README.md``. The engine is the rules only: its views and bots are
handed to it where the package assembles the game (``__init__.py``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from dennou.core.actions import Action
from dennou.core.errors import IllegalActionError
from dennou.core.game import CHANCE, Event, Game, GameSpec, Outcome, Seat, handles
from twenty.actions import CODEC, Coin, Say
from twenty.rules import TwentyRules
from twenty.state import TwentyState


class Twenty(Game[TwentyState, TwentyRules]):
    """The Twenty engine."""

    spec = GameSpec(
        name="twenty", title="Twenty (二十)", version=1, min_players=2, max_players=2, chance=True
    )
    rules_type = TwentyRules
    codec = CODEC

    def new(self, rules: TwentyRules, players: Sequence[str]) -> TwentyState:
        """Start a game: the host flips the coin first."""
        self.check_players(players)
        return TwentyState(rules=rules, players=(players[0], players[1]))

    def to_act(self, state: TwentyState) -> frozenset[Seat]:
        """Chance flips the coin; then the seat to count; nobody once over."""
        if state.phase == "coin":
            return frozenset({CHANCE})
        return frozenset({state.turn}) if state.phase == "play" else frozenset()

    def sample_chance(self, state: TwentyState, rng: random.Random) -> Action:
        """The coin flip."""
        return Coin(rng.randrange(2))

    def legal_actions(self, state: TwentyState, seat: Seat) -> Sequence[Action]:
        """The coin's two sides, or the counts a player may say."""
        if seat not in self.to_act(state):
            return []
        if seat == CHANCE:
            return [Coin(0), Coin(1)]
        return [Say(k) for k in range(1, state.rules.most + 1)]

    @handles("coin", Coin)
    def _coin(self, state: TwentyState, seat: Seat, action: Coin, ev: list[Event]) -> TwentyState:
        if action.first not in (0, 1):
            raise IllegalActionError(f"the coin names seat 0 or 1, not {action.first}")
        ev.append(
            Event("coin", f"{state.players[action.first]} counts first", {"first": action.first})
        )
        return replace(state, phase="play", turn=action.first)

    @handles("play", Say)
    def _say(self, state: TwentyState, seat: Seat, action: Say, ev: list[Event]) -> TwentyState:
        most = state.rules.most
        if not 1 <= action.count <= most:
            raise IllegalActionError(
                f"say 1 to {most} numbers, not {action.count}", section="A turn", seat=seat
            )
        total = state.total + action.count
        said = range(state.total + 1, total + 1)
        ev.append(
            Event(
                "say",
                f"{state.players[seat]}: {', '.join(map(str, said))}",
                {"seat": seat, "total": total},
            )
        )
        if total >= state.rules.target:
            ev.append(
                Event(
                    "game_over",
                    f"{state.players[seat]} said {state.rules.target} and loses",
                    {"loser": seat},
                )
            )
            return replace(state, phase="over", total=total, loser=seat)
        return replace(state, total=total, turn=1 - seat)

    def apply_default(self, state: TwentyState, seat: Seat) -> tuple[TwentyState, list[Event]]:
        """A seat that times out says one number (rules: Time)."""
        self.check_default(state, seat)
        events = [self.timeout_event(state, seat)]
        return self.dispatch(state, seat, Say(1), events), events

    def outcome(self, state: TwentyState) -> Outcome:
        """1 for the winner, 0 for the loser."""
        self.check_over(state)
        return Outcome.from_scores([0.0 if s == state.loser else 1.0 for s in (0, 1)])
