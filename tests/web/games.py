"""Whole games played over the protocol, to give the pages something to show."""

from __future__ import annotations

from itertools import permutations

from dennou.server.testing import WS


def rated_numeron_game(ws: WS) -> str:
    """A whole rated 3-digit Numeron game of ``ws``'s account against the random bot.

    The connection is closed at the end; returns the table's id.
    """
    made = ws.request(
        {
            "type": "create_table",
            "game": "numeron",
            "rules": {"digits": 3},
            "seats": ["me", "bot:random"],
            "options": {"rated": True},  # a game that counts (a practice table would not)
        }
    )
    table = str(made["table"]["id"])  # type: ignore[index]
    guesses = iter("".join(p) for p in permutations("0123456789", 3))
    while True:
        msg = ws.recv(30)
        if msg["type"] == "end":
            break
        if msg["type"] == "turn":
            phase = msg["view"]["phase"]  # type: ignore[index]
            number = "012" if phase == "setup" else next(guesses)
            kind = "set" if phase == "setup" else "call"
            ws.send(
                {
                    "type": "act",
                    "table": table,
                    "version": msg["version"],
                    "action": {"type": kind, "number": number},
                }
            )
    ws.close()
    return table
