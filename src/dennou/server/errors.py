"""The protocol's error codes (``docs/protocol.md`` §4) and :class:`Refused`.

Every refusal the host sends is an ``error`` message (WebSocket) or an error body (HTTP) with one
of the codes below. Engine errors carry their code on their class (``IllegalActionError.code``);
what the host itself refuses is a :class:`Refused` with the code given where it is raised.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from dennou.core.errors import DennouError, ProtocolError

ErrorCode = Literal[
    "malformed_json",
    "not_an_object",
    "unknown_type",
    "bad_message",
    "too_large",
    "too_slow",
    "rate_limited",
    "hello_first",
    "unauthorized",
    "forbidden",
    "not_found",
    "conflict",
    "limit_reached",
    "config",
    "invalid_action",
    "illegal_action",
    "not_your_turn",
    "game_over",
    "stale_version",
    "no_talk",
    "store",
    "internal",
]
"""Every error code the host sends."""

CODES: dict[str, tuple[int, str]] = {
    "malformed_json": (400, "the frame or body is not JSON, or nests deeper than the limit"),
    "not_an_object": (400, "JSON, but not an object"),
    "unknown_type": (400, "no such message type (the message lists the types)"),
    "bad_message": (
        400,
        "a field is missing, unknown, of the wrong type or out of range (NaN and Infinity "
        "included); a bad name; talk too long or not text",
    ),
    "too_large": (413, "more bytes than the limit (16 KiB by default)"),
    "too_slow": (408, "an HTTP body did not arrive in time, or no hello in time (WebSocket)"),
    "rate_limited": (429, "too many messages, talk lines or requests for a while"),
    "hello_first": (400, "anything but hello before hello"),
    "unauthorized": (401, "unknown token, or a guest doing what needs an account"),
    "forbidden": (403, "not yours to do: another seat's table, a spectator acting"),
    "not_found": (404, "no such game, table or account"),
    "conflict": (409, "the seat is taken, the table has started, the name is taken..."),
    "limit_reached": (429, "a host limit: connections, accounts, open tables (docs/security.md)"),
    "config": (400, "impossible rules options, seats or table options"),
    "invalid_action": (400, "not an action of this game"),
    "illegal_action": (409, "well-formed, but against the rules now (context.rule names it)"),
    "not_your_turn": (409, "your seat is not to act now"),
    "game_over": (409, "the game has ended"),
    "stale_version": (409, "your act names a version that is not your pending decision's"),
    "no_talk": (409, "this game has no talk"),
    "store": (503, "the database failed; nothing was applied"),
    "internal": (500, "a bug in the host; nothing was applied"),
}
"""Each code's HTTP status and meaning (the table in ``docs/protocol.md`` §4)."""

assert set(CODES) == set(get_args(ErrorCode)), "CODES and ErrorCode must list the same codes"

STRIKES = frozenset(
    {
        "malformed_json",
        "not_an_object",
        "unknown_type",
        "bad_message",
        "too_large",
        "hello_first",
    }
)
"""Codes that count toward closing a connection that keeps breaking the protocol.

``rate_limited`` is not one: a burst is refused message by message, and the connection (with its
seats) stays; a client that never stops is closed only when it stops reading (the send buffer)."""


class Refused(ProtocolError):
    """A request the host refuses; ``code`` is one of :data:`CODES`.

    Args:
        code: The protocol's error code.
        message: What was wrong, and what would be right.
        **context: Structured details for the client.
    """

    def __init__(self, code: ErrorCode, message: str, **context: Any) -> None:
        super().__init__(message, **context)
        self.code = code


def error_code(exc: DennouError) -> str:
    """The protocol error code of an error (``internal`` for anything unknown)."""
    return exc.code if exc.code in CODES else "internal"


def http_status(code: str) -> int:
    """The HTTP status of an error code."""
    return CODES.get(code, (500, ""))[0]


def error_body(exc: DennouError) -> dict[str, Any]:
    """``{code, error, message, context}``: the body of an error, on the wire and over HTTP."""
    data = exc.to_json()
    data.pop("code", None)
    name = data.pop("error")
    message = data.pop("message")
    return {
        "code": error_code(exc),
        "error": "ProtocolError" if isinstance(exc, ProtocolError) else name,
        "message": message,
        "context": data,
    }


__all__ = ["CODES", "STRIKES", "ErrorCode", "Refused", "error_body", "error_code", "http_status"]
