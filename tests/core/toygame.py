"""A tiny hidden-information game for testing the core, and broken variants of it.

Chance draws a secret digit that seat 0 sees; seat 0 then says a hint (any digit), seat 1
guesses; right guess: seat 1 wins. Small, but it has chance, hidden information and talk.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from dennou.core.actions import Action, ActionCodec
from dennou.core.errors import GameOverError, IllegalActionError, NotYourTurnError
from dennou.core.game import CHANCE, JSON, Event, Game, GameSpec, Outcome, Rules, Seat, TalkLine


class ToyRules(Rules, frozen=True):
    top: Annotated[int, Meta(ge=1, le=9, description="largest secret digit")] = 3


class Secret(Action, frozen=True, tag="secret"):
    digit: int


class Hint(Action, frozen=True, tag="hint"):
    digit: int


class Guess(Action, frozen=True, tag="guess"):
    digit: int


@dataclass
class ToyState:
    rules: ToyRules
    secret: int | None = None
    hint: int | None = None
    guess: int | None = None
    talk: tuple[TalkLine, ...] = ()


class Toy(Game[ToyState, ToyRules]):
    spec = GameSpec(
        name="toy",
        title="Toy",
        version=1,
        min_players=2,
        max_players=2,
        chance=True,
        hidden_information=True,
        talk=True,
    )
    rules_type = ToyRules
    codec = ActionCodec(Secret, Hint, Guess)

    def new(self, rules: ToyRules, players: Sequence[str]) -> ToyState:
        self.check_players(players)
        return ToyState(rules)

    def to_act(self, state: ToyState) -> frozenset[Seat]:
        if state.secret is None:
            return frozenset({CHANCE})
        if state.hint is None:
            return frozenset({0})
        if state.guess is None:
            return frozenset({1})
        return frozenset()

    def sample_chance(self, state: ToyState, rng: random.Random) -> Action:
        return Secret(rng.randint(0, state.rules.top))

    def legal_actions(self, state: ToyState, seat: Seat) -> Sequence[Action]:
        if seat not in self.to_act(state):
            return []
        cls = {CHANCE: Secret, 0: Hint, 1: Guess}[seat]
        return [cls(d) for d in range(state.rules.top + 1)]

    def apply(self, state: ToyState, seat: Seat, action: Action) -> tuple[ToyState, list[Event]]:
        if not self.to_act(state):
            raise GameOverError("over")
        if seat not in self.to_act(state):
            raise NotYourTurnError("not your turn")
        if action not in self.legal_actions(state, seat):
            raise IllegalActionError(f"{action} is not legal")
        assert isinstance(action, Secret | Hint | Guess)
        if isinstance(action, Secret):
            return replace(state, secret=action.digit), [
                Event("secret", "drawn", {}, frozenset({0}))
            ]
        if isinstance(action, Hint):
            return replace(state, hint=action.digit), [Event("hint", f"hint {action.digit}")]
        return replace(state, guess=action.digit), [Event("guess", f"guess {action.digit}")]

    def apply_default(self, state: ToyState, seat: Seat) -> tuple[ToyState, list[Event]]:
        if not self.to_act(state):
            raise GameOverError("over")
        return self.apply(state, seat, self.legal_actions(state, seat)[0])

    def view(self, state: ToyState, seat: Seat | None) -> JSON:
        over = not self.to_act(state)
        return {
            "game": "toy",
            "rules": {"top": state.rules.top},
            "secret": state.secret if (seat == 0 or over) else None,
            "drawn": state.secret is not None,
            "hint": state.hint,
            "guess": state.guess,
            "talk": [[t.speaker, t.name, t.channel, t.text] for t in state.talk],
        }

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> ToyState:
        secret = view["secret"]
        if secret is None and view["drawn"]:
            secret = rng.randint(0, view["rules"]["top"])
        return ToyState(
            ToyRules(top=view["rules"]["top"]),
            secret,
            view["hint"],
            view["guess"],
            tuple(TalkLine(*t) for t in view["talk"]),
        )

    def outcome(self, state: ToyState) -> Outcome:
        win = state.guess == state.secret
        return Outcome.from_scores([0.0, 1.0] if win else [1.0, 0.0])

    def talk_channels(self, state: ToyState, speaker: Seat | None) -> frozenset[str]:
        return frozenset({"public"}) if self.to_act(state) else frozenset()

    def talk(
        self, state: ToyState, speaker: Seat | None, channel: str, text: str, *, name: str = ""
    ) -> tuple[ToyState, list[Event]]:
        if channel not in self.talk_channels(state, speaker):
            raise IllegalActionError("closed")
        line = TalkLine(speaker, name, channel, text)
        return replace(state, talk=(*state.talk, line)), [Event("talk", text)]


class LeakyToy(Toy):
    """Shows the secret to seat 1 too."""

    def view(self, state: ToyState, seat: Seat | None) -> JSON:
        out = super().view(state, seat)
        out["secret_digest"] = None if state.secret is None else state.secret % 2
        return out

    def determinize(self, view: JSON, seat: Seat | None, rng: random.Random) -> ToyState:
        state = super().determinize({**view}, seat, rng)
        return state


class MutatingToy(Toy):
    """apply changes its input."""

    def apply(self, state: ToyState, seat: Seat, action: Action) -> tuple[ToyState, list[Event]]:
        new, events = super().apply(state, seat, action)
        state.hint = new.hint
        return new, events


class LaxToy(Toy):
    """apply accepts guesses that legal_actions does not list."""

    def apply(self, state: ToyState, seat: Seat, action: Action) -> tuple[ToyState, list[Event]]:
        if (
            isinstance(action, Guess)
            and seat == 1
            and state.hint is not None
            and state.guess is None
        ):
            return replace(state, guess=action.digit), []
        return super().apply(state, seat, action)


class ForgetfulToy(Toy):
    """Not deterministic: every other game it starts with a line of talk already said."""

    starts = 0

    def new(self, rules: ToyRules, players: Sequence[str]) -> ToyState:
        ForgetfulToy.starts += 1
        state = super().new(rules, players)
        if ForgetfulToy.starts % 2 == 0:
            state = replace(state, talk=(TalkLine(None, "ghost", "public", "boo"),))
        return state


class JunkEatingToy(Toy):
    """Never rejects anything: treats junk as a pass."""

    def parse_action(self, data: Any) -> Action:
        try:
            return super().parse_action(data)
        except Exception:
            return Hint(0)


class NeverEndingToy(Toy):
    """Seat 1 can guess forever."""

    def to_act(self, state: ToyState) -> frozenset[Seat]:
        acting = super().to_act(state)
        return acting or frozenset({1})

    def apply(self, state: ToyState, seat: Seat, action: Action) -> tuple[ToyState, list[Event]]:
        if state.guess is not None and seat == 1 and action in self.legal_actions(state, 1):
            return replace(state, guess=None), []
        return super().apply(state, seat, action)


class SilentToy(Toy):
    """Claims that nobody decides anything, yet asks the seats to act."""

    spec = msgspec.structs.replace(Toy.spec, decisions=False)
