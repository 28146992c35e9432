"""Star Hi-Lo actions (JSON tag = the text form's first word: ``guess 1638366383 high``)."""

from __future__ import annotations

from typing import Literal

from dennou.core.actions import Action, ActionCodec

Direction = Literal["high", "low"]
"""``high``: the player says target > X (2.2: >=); ``low``: target < X (2.2: <=)."""

DIRECTIONS: tuple[Direction, Direction] = ("high", "low")


class Guess(Action, frozen=True, tag="guess"):
    """2.1: name X and High/Low; public (``guess 1638366383 high``)."""

    x: int
    direction: Direction


class RandomGuess(Action, frozen=True, tag="random_guess"):
    """2.2, first step: ask the host to draw X; then ``pick high`` or ``pick low``."""


class Pick(Action, frozen=True, tag="pick"):
    """2.2, second step: High or Low against the X the host drew (``pick low``)."""

    direction: Direction


class Check(Action, frozen=True, tag="check"):
    """2.3: name the target (needs points >= 10); a hit wins a star and ends the game."""

    x: int


class RandomCheck(Action, frozen=True, tag="random_check"):
    """2.4: the host draws X and checks it (needs points <= -20); a hit wins 3 stars."""


class SecretGuess3(Action, frozen=True, tag="secret_guess_3"):
    """2.5: a guess only the actor learns the result of; costs 3 points."""

    x: int
    direction: Direction


class SecretGuess2(Action, frozen=True, tag="secret_guess_2"):
    """2.6: a guess only the actor learns the result of; costs 2 points."""

    x: int
    direction: Direction


class Target(Action, frozen=True, tag="target"):
    """Chance: the host draws a game's target (recorded; never shown before the game ends)."""

    x: int


class Draw(Action, frozen=True, tag="draw"):
    """Chance: the host draws X for a random guess (2.2) or a random check (2.4)."""

    x: int


SecretGuess = SecretGuess3 | SecretGuess2
PlayerAction = Guess | RandomGuess | Pick | Check | RandomCheck | SecretGuess3 | SecretGuess2

ACTION_IDS: dict[str, str] = {
    "guess": "2.1",
    "random_guess": "2.2",
    "check": "2.3",
    "random_check": "2.4",
    "secret_guess_3": "2.5",
    "secret_guess_2": "2.6",
}
"""The rules page's section for each action kind."""


def turn_action(kind: str, x: int, direction: Direction) -> Action:
    """The action of ``kind`` (``guess``, ``check``...), taking ``x`` and ``direction`` if used."""
    if kind == "guess":
        return Guess(x, direction)
    if kind == "check":
        return Check(x)
    if kind == "secret_guess_3":
        return SecretGuess3(x, direction)
    if kind == "secret_guess_2":
        return SecretGuess2(x, direction)
    if kind == "random_guess":
        return RandomGuess()
    if kind == "random_check":
        return RandomCheck()
    raise ValueError(f"no action kind {kind!r}")


CODEC = ActionCodec(
    Guess, RandomGuess, Pick, Check, RandomCheck, SecretGuess3, SecretGuess2, Target, Draw
)
