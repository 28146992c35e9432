"""The error tree shared by every part of dennou, and the one format of its messages.

Every error a user can cause is a :class:`DennouError`. Its ``message`` is one sentence saying
what went wrong and, where it helps, what would be right; an error about a rule ends with the
rule it applies, ``" — rules: <section>"``, where the section is the one of the game's page
``docs/games/<game>.md`` (the game is always known where the error is shown). Structured context
(``seat``, ``phase``, ``rule``: a short machine name of the rule, ``section``) is kept for
clients, and every class has the ``code`` the wire protocol sends (``docs/protocol.md``).

    >>> IllegalActionError("a call is 3 distinct digits", section="Setup", rule="number").message
    'a call is 3 distinct digits — rules: Setup'
"""

from __future__ import annotations

from typing import Any


class DennouError(Exception):
    """Base of every error dennou raises on purpose.

    Each class names the wire protocol's error code for itself (``code``; see
    ``docs/protocol.md`` §4), so the host never has to guess a code from a class name.

    Args:
        message: A sentence saying what went wrong and, where it helps, what would be right.
        section: The section of the game's rules page the error applies (appended to the
            message as ``" — rules: <section>"`` and kept in the context).
        **context: Structured context (``seat``, ``phase``, ``rule``...) kept for clients.
    """

    code: str = "internal"
    """The error's code on the wire (``docs/protocol.md``, Errors); set per class."""

    def __init__(self, message: str, *, section: str | None = None, **context: Any) -> None:
        if section:
            message = f"{message} — rules: {section}"
            context["section"] = section
        super().__init__(message)
        self.message = message
        self.context: dict[str, Any] = {k: v for k, v in context.items() if v is not None}

    def to_json(self) -> dict[str, Any]:
        """The error as a JSON-able dict: ``code``, ``error`` (class name), ``message``, context."""
        return {
            "code": self.code,
            "error": type(self).__name__,
            "message": self.message,
            **self.context,
        }


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
