"""Whole games played over the protocol, to give the pages something to show."""

from __future__ import annotations

from dennou.games.numeron.knowledge import knowledge
from dennou.server.testing import WS


def rated_numeron_game(ws: WS, *, resign: bool = False) -> str:
    """A whole rated 3-digit Numeron game of ``ws``'s account (seat 0) against the random bot.

    Each call is the first number still possible after the judgments so far, so the account
    wins in a handful of calls (a call per number in turn took hundreds of round trips). With
    ``resign`` the account resigns at its first call instead: a rated loss. The connection is
    closed at the end; returns the table's id.
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
    while True:
        msg = ws.recv(30)
        if msg["type"] == "end":
            break
        if msg["type"] == "turn":
            view = msg["view"]
            phase = view["phase"]  # type: ignore[index]
            if phase != "setup" and resign:
                ws.send({"type": "resign", "table": table})
                continue
            if phase == "setup":
                kind, number = "set", "012"
            else:
                kind, number = "call", knowledge(view["log"], 3, 1).numbers()[0]  # type: ignore[index]
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
