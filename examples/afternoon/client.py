"""A complete dennou client in one file (Python 3.11+, `pip install websockets`).

Usage: python client.py ws://127.0.0.1:8000/ws TOKEN numeron '{"digits": 3}' [bot:random ...]
Plays one game against built-in bots and prints the outcome as one JSON line.
"""

import asyncio
import itertools
import json
import sys

import websockets

IDS = itertools.count(1)  # every request gets its own id; replies carry it back


def choose(turn):
    """Pick an action: the first listed one, or for Numeron a number that fits the judgments."""
    if turn["legal"] is not None:  # at most 300 legal actions: all listed (Daifugo's give too)
        return turn["legal"][0]
    view = turn["view"]
    if view["game"] == "numeron" and view["phase"] == "call":
        mine = view["seat"]
        calls = [e["data"] for e in view["log"] if e["kind"] == "call"]
        calls = [c for c in calls if c["seat"] == mine]

        def judge(n, called):
            eat = sum(a == b for a, b in zip(n, called, strict=True))
            return eat, sum(x in called for x in n) - eat

        def fits(n):
            return all(judge(n, c["number"]) == (c["eat"], c["bite"]) for c in calls)

        for digits in itertools.permutations("0123456789", view["rules"]["digits"]):
            if fits("".join(digits)):
                return {"type": "call", "number": "".join(digits)}
    return turn["legal_sample"][0]  # too many to list: 20 samples, all legal


async def play(url, token, game, rules, seats):
    """Create a table with `seats` (the first is ours), play it to the end, return the result."""
    table, version = None, 0
    while True:  # one pass per connection: a lost connection comes back here
        try:
            async with websockets.connect(url) as ws:

                async def send(message, ws=ws):
                    await ws.send(json.dumps({**message, "id": next(IDS)}))

                await send({"type": "hello", "protocol": 1, "token": token})
                if table is None:
                    seating = ["me", *seats]
                    await send(
                        {"type": "create_table", "game": game, "rules": rules, "seats": seating}
                    )
                else:  # back after a drop: the same seat, everything after `version`
                    await send({"type": "join", "table": table, "version": version})
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg.get("version", -1) <= version and msg["type"] == "event":
                        continue  # already seen (a resend after resume): drop it
                    version = max(version, msg.get("version", version))
                    if msg["type"] == "table" and table is None:
                        table = msg["table"]["id"]
                    elif msg["type"] == "turn":
                        action = choose(msg)
                        version_asked = msg["version"]
                        await send(
                            {
                                "type": "act",
                                "table": table,
                                "action": action,
                                "version": version_asked,
                            }
                        )
                    elif msg["type"] == "error":
                        print("refused:", msg["code"], msg["message"], file=sys.stderr)
                        if msg["code"] == "stale_version":  # our turn moved on: ask where we are
                            await send({"type": "resume", "table": table, "version": version})
                    elif msg["type"] == "end":
                        return {"table": table, "status": msg["status"], "outcome": msg["outcome"]}
        except (OSError, websockets.ConnectionClosed):
            await asyncio.sleep(0.5)  # the server went away: try again


if __name__ == "__main__":
    url, token, game, rules, *seats = sys.argv[1:]
    result = asyncio.run(play(url, token, game, json.loads(rules), seats or ["bot:random"]))
    print(json.dumps(result))
