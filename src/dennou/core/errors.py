"""The error tree shared by every part of dennou.

Every error a user can cause is a :class:`DennouError`; messages name the seat, the phase and
the rule where they apply, so that a client (or a person at the terminal) can fix its input.
"""

from __future__ import annotations

from typing import Any


class DennouError(Exception):
    """Base of every error dennou raises on purpose.

    Each class names the wire protocol's error code for itself (``code``; see
    ``docs/protocol.md`` §4), so the host never has to guess a code from a class name.

    Args:
        message: A sentence saying what went wrong and, where it helps, what would be right.
        **context: Structured context (``seat``, ``phase``, ``rule``...) kept for clients.
    """

    code: str = "internal"
    """The protocol's error code for this kind of error."""

    def __init__(self, message: str, **context: Any) -> None:
        super().__init__(message)
        self.message = message
        self.context: dict[str, Any] = {k: v for k, v in context.items() if v is not None}

    def to_json(self) -> dict[str, Any]:
        """Return the error as a JSON-able dict (``error`` class name, ``message``, context)."""
        return {"error": type(self).__name__, "message": self.message, **self.context}


class GameError(DennouError):
    """An error about a game: its input, its rules or its config."""

    code = "illegal_action"


class InvalidActionError(GameError):
    """Malformed: the input cannot be parsed as an action of this game."""

    code = "invalid_action"


class IllegalActionError(GameError):
    """Well-formed, but not legal in this state (the message names the rule)."""

    code = "illegal_action"


class NotYourTurnError(IllegalActionError):
    """The seat is not among the seats that must act now."""

    code = "not_your_turn"


class GameOverError(IllegalActionError):
    """The game has ended; nothing more can be applied."""

    code = "game_over"


class ConfigError(GameError):
    """Impossible rules options, unknown options, or a wrong number of players."""

    code = "config"


class ProtocolError(DennouError):
    """A client broke the wire protocol."""

    code = "bad_message"


class StoreError(DennouError):
    """Persistence failed."""

    code = "store"
