"""A UECda client written from the protocol description alone (rules/uecda.md), not from our code.

It speaks raw bytes with :mod:`struct`, keeps its hand from the tables it is sent, and plays a
single card it holds (or passes) at random: the server judges whether the play is legal, so a
run of these clients also drives the server's rejections (8, counted as a pass). ``mode``
makes it misbehave: ``garbage`` sends random values in some of its tables (and cards it does
not hold in others), ``silent`` stops answering, ``die`` closes its socket in the middle of a
game.
"""

from __future__ import annotations

import random
import socket
import struct
from dataclasses import dataclass, field

TABLE = struct.Struct(">120i")
INT = struct.Struct(">i")


@dataclass
class Log:
    """What one client saw."""

    player: int = -1
    games: int = 0
    answers: dict[int, int] = field(default_factory=dict)
    """Count of each answer to a play (9 accepted, 8 rejected)."""
    ends: list[int] = field(default_factory=list)
    """The ints after each play (0 go on, 1 game over, 2 all over)."""
    hands: list[int] = field(default_factory=list)
    """Cards in each hand table at a game's start."""
    error: str = ""


def _read(sock: socket.socket, size: int) -> bytes:
    out = b""
    while len(out) < size:
        chunk = sock.recv(size - len(out))
        if not chunk:
            raise EOFError("closed")
        out += chunk
    return out


def _table(sock: socket.socket) -> list[list[int]]:
    flat = TABLE.unpack(_read(sock, 480))
    return [list(flat[r * 15 : (r + 1) * 15]) for r in range(8)]


def _send(sock: socket.socket, table: list[list[int]]) -> None:
    sock.sendall(TABLE.pack(*(v for row in table for v in row)))


def _zeros() -> list[list[int]]:
    return [[0] * 15 for _ in range(8)]


def _held(table: list[list[int]]) -> list[tuple[int, int]]:
    return [(r, c) for r in range(4) for c in range(1, 14) if table[r][c] == 1]


def run(port: int, name: str, seed: int, mode: str = "", timeout: float = 60.0) -> Log:
    """Connect, play until the server says all is over (or misbehave as ``mode`` says)."""
    rng = random.Random(seed)
    log = Log()
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        profile = _zeros()
        profile[0][0] = 20070
        for i, ch in enumerate(name.encode()[:14]):
            profile[1][i] = ch
        _send(sock, profile)
        log.player = INT.unpack(_read(sock, 4))[0]
        plays = 0
        while True:
            hand = _table(sock)  # a game starts
            log.hands.append(len(_held(hand)) + (1 if hand[4][1] == 2 else 0))
            if hand[5][1] > 0:  # 大富豪/富豪: give back the weakest cards held
                back = _zeros()
                for r, c in sorted(_held(hand), key=lambda rc: rc[1])[: hand[5][1]]:
                    back[r][c] = 1
                if mode == "garbage" and rng.random() < 0.5:
                    back = [[rng.randrange(-(2**31), 2**31) for _ in range(15)] for _ in range(8)]
                _send(sock, back)
            while True:
                mine = _table(sock)
                if mine[5][2] == 1:
                    plays += 1
                    if mode == "die" and plays == 3:
                        return log
                    if mode == "silent" and plays >= 2:
                        _read(sock, 10**6)  # never answers; waits to be dropped
                    out = _zeros()
                    held = _held(mine)
                    if mode == "garbage" and rng.random() < 0.3:
                        out = [
                            [rng.randrange(-(2**31), 2**31) for _ in range(15)] for _ in range(8)
                        ]
                    elif held and rng.random() < 0.8:
                        r, c = rng.choice(held)
                        out[r][c] = 1
                    _send(sock, out)
                    answer = INT.unpack(_read(sock, 4))[0]
                    log.answers[answer] = log.answers.get(answer, 0) + 1
                _table(sock)  # the field
                end = INT.unpack(_read(sock, 4))[0]
                log.ends.append(end)
                if end == 1:
                    log.games += 1
                    break
                if end == 2:
                    log.games += 1
                    return log
    except (EOFError, OSError) as exc:
        log.error = repr(exc)
        return log
    finally:
        sock.close()
