"""Rock-paper-scissors with talk: two players throw sealed hands, round after round.

A test-only game: it shows that a game outside ``dennou.games`` is hosted, played in the
browser, learned and raced in tournaments with nothing but its own files and one registry line.
Paper beats rock, scissors beat paper, rock beats scissors; a round of equal hands is nobody's.
After ``throws`` rounds whoever won more rounds wins. Players talk in ``public`` while it runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from dennou.core.actions import Action
from dennou.core.errors import IllegalActionError
from dennou.core.game import Event, Game, GameSpec, Learning, Outcome, Seat, TalkLine, handles
from dennou.core.talk import check_line, speaker_name, talk_event
from tests.rps.actions import CODEC, HANDS, Throw
from tests.rps.rules import RpsRules
from tests.rps.state import RpsState


def beats(a: str, b: str) -> bool:
    """Whether hand ``a`` beats hand ``b``."""
    return HANDS.index(a) == (HANDS.index(b) + 1) % 3


class Rps(Game[RpsState, RpsRules]):
    """The rock-paper-scissors engine."""

    spec = GameSpec(
        name="rps",
        title="Rock-Paper-Scissors (じゃんけん)",
        version=1,
        min_players=2,
        max_players=2,
        hidden_information=True,
        simultaneous=True,
        talk=True,
        learning=Learning("tests.rps.encoding:RpsEncoding", 2),
    )
    rules_type = RpsRules
    codec = CODEC

    def new(self, rules: RpsRules, players: Sequence[str]) -> RpsState:
        """Start a game: both seats throw."""
        self.check_players(players)
        return RpsState(rules=rules, players=(players[0], players[1]))

    def to_act(self, state: RpsState) -> frozenset[Seat]:
        """The seats that have not thrown this round; nobody once over."""
        if state.phase == "over":
            return frozenset()
        return frozenset(s for s in (0, 1) if state.sealed[s] is None)

    def legal_actions(self, state: RpsState, seat: Seat) -> Sequence[Action]:
        """The three hands, for a seat that has not thrown this round."""
        return [Throw(h) for h in HANDS] if seat in self.to_act(state) else []

    @handles("throw", Throw)
    def _throw(self, state: RpsState, seat: Seat, action: Throw, ev: list[Event]) -> RpsState:
        if action.hand not in HANDS:
            raise IllegalActionError(f"throw rock, paper or scissors, not {action.hand!r}")
        sealed = list(state.sealed)
        sealed[seat] = action.hand
        name = state.players[seat]
        ev.append(Event("sealed", f"{name} threw", {"seat": seat}))
        ev.append(
            Event("own", f"you threw {action.hand}", {"hand": action.hand}, frozenset({seat}))
        )
        a, b = sealed
        if a is None or b is None:
            return replace(state, sealed=(a, b))
        winner = 0 if beats(a, b) else 1 if beats(b, a) else None
        wins = tuple(w + (s == winner) for s, w in enumerate(state.wins))
        who = "nobody" if winner is None else state.players[winner]
        ev.append(
            Event("round", f"{a} against {b}: {who} wins", {"hands": [a, b], "winner": winner})
        )
        history = (*state.history, (a, b))
        over = len(history) >= state.rules.throws
        return replace(
            state,
            sealed=(None, None),
            history=history,
            wins=(wins[0], wins[1]),
            phase="over" if over else "throw",
        )

    def apply_default(self, state: RpsState, seat: Seat) -> tuple[RpsState, list[Event]]:
        """A seat that times out throws rock."""
        self.check_default(state, seat)
        events = [self.timeout_event(state, seat)]
        return self.dispatch(state, seat, Throw("rock"), events), events

    def outcome(self, state: RpsState) -> Outcome:
        """Rounds won are the scores."""
        self.check_over(state)
        return Outcome.from_scores([float(w) for w in state.wins])

    def talk_channels(self, state: RpsState, speaker: Seat | None) -> frozenset[str]:
        """Players talk in ``public`` while the game runs."""
        return (
            frozenset({"public"}) if speaker is not None and state.phase != "over" else frozenset()
        )

    def talk(
        self, state: RpsState, speaker: Seat | None, channel: str, text: str, *, name: str = ""
    ) -> tuple[RpsState, list[Event]]:
        """Say a line in ``public``."""
        if channel not in self.talk_channels(state, speaker):
            raise IllegalActionError(f"channel {channel!r} is not open now", channel=channel)
        check_line(text, channel)
        line = TalkLine(speaker, speaker_name(state.players, speaker, name), channel, text)
        return replace(state, talk=(*state.talk, line)), [talk_event(line)]
