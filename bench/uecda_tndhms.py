"""Record what the organisers' UECda server (tndhms) sends, and compare ``dennou uecda-serve``.

    python bench/uecda_tndhms.py record            # build tndhms, play the sets, write fixtures
    python bench/uecda_tndhms.py compare           # replay them on dennou uecda-serve
    python bench/uecda_tndhms.py record --seed 1234 --fixture /tmp/x.txt.gz --tndhms PATH

``record`` builds tndhms from the public FujiGokoroUECda repository (``--repo``: a clone or the
mirror's git directory) under ``/tmp`` (nothing of it enters this repository), with one change:
its random seed, otherwise ``time(NULL)``, is read from ``TNDHMS_SEED``, so that a set is
replayable. It then picks the first seed from ``--seed`` on whose first game tndhms keeps the
seats in player order and deals from player 0 (dennou's seats never change and its first game
deals from player 0; tndhms draws a new seat order every 3 games, so a set is at most 3 games),
and plays one set of ``--games`` games with five scripted clients. Each client decides with
dennou's mirror of the game and a seeded choice (mostly a legal play, sometimes a pass or an
illegal single, an invalid or valid exchange table): a pure function of the messages it got, so
that a server sending the same messages gets the same answers. Every message each client got
and sent is written to a fixture with the hands as dealt: by default each of
``tests/uecda/tndhms_fixture.py``'s ``FIXTURES`` from its own seed.

``compare`` runs ``dennou uecda-serve --deals`` on those hands, connects five clients that send
what the recorded clients sent, and reports the first message of each player that differs
(``tests/uecda/test_tndhms.py`` does the same in CI, without tndhms).

Fixture format (gzipped text), one line each: ``# comment``; ``deal G h0 | h1 | h2 | h3 | h4``
(the hands of game G as dealt, cards as Daifugo's wire strings); ``P recv T rows`` (a table:
its 8 rows separated by ``/``, each row's values by ``,``, trailing zeros dropped), ``P recv I
n`` (an int), ``P send T rows`` (a table the client sent).
"""

from __future__ import annotations

import argparse
import gzip
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from dennou.games import get  # noqa: E402
from dennou.games.daifugo import cards as C  # noqa: E402
from dennou.games.daifugo.actions import Give, Play  # noqa: E402
from dennou.uecda import client as U  # noqa: E402
from dennou.uecda import wire  # noqa: E402

sys.path.insert(0, str(ROOT))
from tests.uecda.tndhms_fixture import (  # noqa: E402
    FIXTURES,
    INT,
    TABLE,
    Message,
    read_fixture,
    run_replay,
)

MIRROR = Path("/work/.mirror/YuriCat+FujiGokoroUECda/repo")


# --- the fixture's text ----------------------------------------------------------------------
def table_text(table: list[list[int]]) -> str:
    """A table as ``r0/r1/.../r7`` (each row's values by ``,``, trailing zeros dropped)."""
    rows = []
    for row in table:
        values = list(row)
        while values and values[-1] == 0:
            values.pop()
        rows.append(",".join(map(str, values)))
    return "/".join(rows)


def write_fixture(
    path: Path, seed: int, deals: list[list[list[str]]], logs: list[list[Message]]
) -> None:
    lines = [
        f"# tndhms (FujiGokoroUECda src/server, v0.29), seed {seed}: {len(deals)} games,",
        "# every message 5 scripted clients got and sent (bench/uecda_tndhms.py record)",
    ]
    for g, hands in enumerate(deals, 1):
        lines.append(f"deal {g} " + " | ".join(" ".join(h) for h in hands))
    for p, log in enumerate(logs):
        for way, kind, value in log:
            text = table_text(value) if kind == "T" else str(value)
            lines.append(f"{p} {way} {kind} {text}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0))


# --- tndhms -----------------------------------------------------------------------------------
def build_tndhms(repo: Path, where: Path) -> Path:
    """tndhms built from ``repo`` in ``where`` (seed from ``TNDHMS_SEED``); its path."""
    exe = where / "out" / "server"
    if exe.exists():
        return exe
    if not where.exists():
        subprocess.run(["git", "clone", "-q", str(repo), str(where)], check=True)
    server = where / "src" / "server" / "server.cc"
    text = server.read_text()
    seeded = (
        'tn_rand_init(getenv("TNDHMS_SEED") ? strtoul(getenv("TNDHMS_SEED"), NULL, 10) : '
        "(unsigned long)time(NULL),RAND_TYPE);"
    )
    if "TNDHMS_SEED" not in text:
        old = "tn_rand_init((unsigned long)time(NULL),RAND_TYPE);"
        assert old in text, "tndhms's seeding line moved: patch it by hand"
        server.write_text(text.replace(old, seeded))
    flags = "OPT=-O1 -DNDEBUG -DMINIMUM"
    subprocess.run(["make", "-j2", "out/server", flags], cwd=where, check=True)
    return exe


class MT19937:
    """tndhms's generator (mt19937ar.c: ``init_genrand``, ``genrand_real1``)."""

    def __init__(self, seed: int) -> None:
        self.mt = [seed & 0xFFFFFFFF]
        for i in range(1, 624):
            prev = self.mt[-1]
            self.mt.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
        self.i = 624

    def real1(self) -> float:
        if self.i >= 624:
            mt = self.mt
            for k in range(624):
                y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7FFFFFFF)
                mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.i = 0
        y = self.mt[self.i]
        self.i += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y * (1.0 / 4294967295.0)


def first_deal(seed: int) -> list[list[tuple[int, int]]]:
    """tndhms's game-1 hands under ``seed`` (as (row, column) cells), seats kept 0-4.

    ``shuffle_card``: 53 draws, the ``k``-th card not yet dealt (in cell order) to the next
    player from the first one dealt to (player 0 for the seeds :func:`fits_dennou` picks).
    """
    rng = MT19937(seed)
    for _ in range(6):
        rng.real1()
    left = list(range(53))
    hands: list[list[tuple[int, int]]] = [[] for _ in range(5)]
    for i in range(53):
        j = left.pop(int(rng.real1() * (53 - i)))
        hands[i % 5].append((4, 1) if j == 52 else (j // 13, j % 13 + 1))
    return hands


def has_revolution(seed: int) -> bool:
    """Whether a game-1 hand holds four of a rank (the joker counting as one)."""
    for hand in first_deal(seed):
        joker = (4, 1) in hand
        for column in range(1, 14):
            if sum(1 for r, c in hand if c == column) + joker >= 4:
                return True
    return False


def fits_dennou(seed: int) -> bool:
    """Whether tndhms's first game under ``seed`` keeps the seats 0-4 and deals from player 0.

    Game 1 draws the seat order (5 draws, sorted) and then the first player dealt to.
    """
    rng = MT19937(seed)
    draws = [rng.real1() for _ in range(5)]
    return draws == sorted(draws) and int(rng.real1() * 5) == 0


# --- the scripted clients ---------------------------------------------------------------------
class Recorder:
    """A socket that logs every message it reads and sends."""

    def __init__(self, port: int, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        self.log: list[Message] = []

    def _read(self, size: int) -> bytes:
        out = b""
        while len(out) < size:
            chunk = self.sock.recv(size - len(out))
            if not chunk:
                raise EOFError("closed")
            out += chunk
        return out

    def table(self) -> list[list[int]]:
        flat = TABLE.unpack(self._read(480))
        table = [list(flat[r * 15 : (r + 1) * 15]) for r in range(8)]
        self.log.append(("recv", "T", table))
        return table

    def int(self) -> int:
        value = int(INT.unpack(self._read(4))[0])
        self.log.append(("recv", "I", value))
        return value

    def send(self, table: list[list[int]]) -> None:
        self.log.append(("send", "T", [list(r) for r in table]))
        self.sock.sendall(TABLE.pack(*(v for row in table for v in row)))


def scripted_client(rec: Recorder, name: str, seed: int) -> None:
    """Play a set: a pure function of the messages received and ``seed``."""
    game = get("daifugo")
    rng = random.Random(seed)
    rec.send(wire.profile_table(name))
    player = rec.int()
    mirror = U.Mirror(game, player)
    while True:
        mirror.new_game(rec.table())
        if mirror.gift:
            roll = rng.random()
            if roll < 0.15:
                rec.send(wire.empty_table())  # invalid: the server gives the strongest
            else:
                legal = game.legal_actions(mirror.state("exchange", mirror.gift), player)
                action = legal[rng.randrange(len(legal))] if legal else None
                cards = list(action.cards) if isinstance(action, Give) else []
                rec.send(wire.hand_table(cards))
        while True:
            table = rec.table()
            mirror.turn(table)
            if table[5][2] == 1:
                rec.send(_choose(game, mirror, player, table, rng))
                rec.int()
            mirror.field(rec.table())
            end = rec.int()
            if end == wire.ALL_OVER:
                return
            if end == wire.GAME_OVER:
                break


def _choose(game: Any, mirror: U.Mirror, player: int, table: Any, rng: random.Random) -> Any:
    roll = rng.random()
    reverse = mirror.revolution != mirror.back
    if roll < 0.08:  # a single card held, legal or not
        held = C.cards_str(C.cards_in(mirror.hand))
        return wire.play_table([rng.choice(held)] if held else [], reverse=reverse)
    if roll < 0.16:
        return wire.empty_table()  # a pass
    legal = game.legal_actions(mirror.state("play"), player)
    plays = [a for a in legal if isinstance(a, Play)]
    if not plays:
        return wire.empty_table()
    big = [a for a in plays if len(a.cards) >= 4]
    if big and roll < 0.9:  # revolutions whenever they can
        action = big[rng.randrange(len(big))]
    elif roll < 0.4:  # the most cards: long sequences
        action = max(plays, key=lambda a: len(a.cards))
    else:
        action = plays[rng.randrange(len(plays))]
    return wire.play_table(list(action.cards), reverse=reverse)


def record(args: argparse.Namespace) -> None:
    exe = Path(args.tndhms) if args.tndhms else build_tndhms(Path(args.repo), Path(args.build))
    seed = args.seed
    while not (fits_dennou(seed) and has_revolution(seed)):
        seed += 1
    print(f"seed {seed}: game 1 keeps seats 0-4, deals from player 0, a hand of four", flush=True)
    port = args.port
    with tempfile.TemporaryDirectory() as run:
        env = {**os.environ, "TNDHMS_SEED": str(seed)}
        cmd = [str(exe), "-p", str(port), "-g", str(args.games), "-l", f"{run}/log.dat"]
        with open(f"{run}/out.txt", "w") as out:
            server = subprocess.Popen(cmd, cwd=run, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            recorders: list[Recorder] = []
            threads = []
            errors: list[BaseException] = []
            for p in range(5):
                rec = Recorder(port)
                recorders.append(rec)

                def go(rec: Recorder = rec, p: int = p) -> None:
                    try:
                        scripted_client(rec, f"script{p}", seed * 10 + p)
                    except BaseException as exc:  # reported below
                        errors.append(exc)

                t = threading.Thread(target=go)
                t.start()
                threads.append(t)
                while len(rec.log) < 2 and t.is_alive():  # connected in player order
                    time.sleep(0.01)
            for t in threads:
                t.join(120)
            if errors:
                raise errors[0]
            server.wait(30)
        finally:
            if server.poll() is None:
                server.kill()
    logs = [r.log for r in recorders]
    deals = dealt_hands(logs)
    write_fixture(Path(args.fixture), seed, deals, logs)
    print(f"wrote {args.fixture}: {sum(len(x) for x in logs)} messages, {len(deals)} games")


def _cards(table: list[list[int]]) -> set[str]:
    rows = [list(r) if i < 5 else [0] * 15 for i, r in enumerate(table)]
    return set(wire.cards_of_table(rows))


def _strongest_cells(table: list[list[int]], count: int) -> set[str]:
    cells = [(4, 1)] if table[4][1] == 2 else []
    cells += [(r, c) for c in range(14, -1, -1) for r in range(4) if table[r][c] == 1]
    chosen = [[0] * 15 for _ in range(8)]
    for r, c in cells[:count]:
        chosen[r][c] = table[r][c]
    return _cards(chosen)


def dealt_hands(logs: list[list[Message]]) -> list[list[list[str]]]:
    """Each game's hands as dealt, from what the players were sent.

    The hand tables of 大貧民 and 貧民 are their hands as dealt; 大富豪's and 富豪's carry the
    tribute: the giver's strongest cards as tndhms takes them (``trans_strong_card``: the joker,
    then from column 14 down, rows ♠ ♥ ♦ ♣ in each column).
    """
    per_player: list[list[tuple[list[list[int]], list[list[int]]]]] = []
    for log in logs:
        games = []
        tables = [v for way, kind, v in log if way == "recv" and kind == "T"]
        for i, t in enumerate(tables):
            if t[5][0] == 1:  # a hand table at a game's start; the next table is the first turn
                games.append((t, tables[i + 1]))
        per_player.append(games)
    deals = []
    for g in range(len(per_player[0])):
        hands = [_cards(per_player[p][g][0]) for p in range(5)]
        classes = per_player[0][g][0][6][5:10]
        if g > 0:
            by_class = {c: p for p, c in enumerate(classes)}
            for high, low, count in ((0, 4, 2), (1, 3, 1)):
                giver_table = per_player[by_class[low]][g][0]
                tribute = _strongest_cells(giver_table, count)
                assert tribute <= hands[by_class[high]], (g, tribute)
                hands[by_class[high]] -= tribute
        order = {C.parse_card(c): c for h in hands for c in h}
        deals.append([sorted(h, key=lambda c: C.parse_card(c) or 0) for h in hands])
        assert len(order) == 53, deals[-1]
    return deals


# --- dennou uecda-serve on the same deals -----------------------------------------------------
def compare(args: argparse.Namespace) -> None:
    deals, logs = read_fixture(Path(args.fixture))
    with tempfile.TemporaryDirectory() as data:
        deals_file = Path(data) / "deals.json"
        import json

        deals_file.write_text(json.dumps({"deals": deals}))
        cmd = [sys.executable, "-m", "dennou", "uecda-serve", "--port", "0"]
        cmd += ["--games", str(len(deals)), "--data-dir", data, "--deals", str(deals_file)]
        server = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert server.stdout is not None
            found = re.search(r":(\d+):", server.stdout.readline())
            assert found, "uecda-serve did not start"
            results = run_replay(int(found.group(1)), logs)
        finally:
            server.kill()
            server.communicate(timeout=10)
    for p, diffs in enumerate(results):
        print(f"player {p}: " + ("identical" if not diffs else ""))
        for d in diffs:
            print("   ", d)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["record", "compare"])
    parser.add_argument("--fixture", default="", help="one fixture (default: FIXTURES)")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1, help="search tndhms seeds from here")
    parser.add_argument("--port", type=int, default=42585)
    parser.add_argument("--tndhms", default="", help="a built tndhms (default: build it)")
    parser.add_argument("--repo", default=str(MIRROR), help="FujiGokoroUECda's git repository")
    parser.add_argument("--build", default="/tmp/fgk", help="where to clone and build tndhms")
    args = parser.parse_args()
    if args.games > 3:
        parser.error("tndhms draws new seats every 3 games: at most 3 (dennou's never change)")
    runs = [(Path(args.fixture), args.seed)] if args.fixture else list(FIXTURES.items())
    for path, seed in runs:
        args.fixture, args.seed = str(path), seed
        record(args) if args.what == "record" else compare(args)


if __name__ == "__main__":
    main()
