"""Any dennou Daifugo bot on a UECda server (protocol 20070), as ``dennou uecda-client`` runs it.

The server sends tables; the client keeps a **mirror** of the game as its seat knows it: its
hand, the top of the field and who played it, the flags (revolution, 11-back, suit lock), every
player's card count and class, and the cards seen played. Before each decision the mirror
becomes a Daifugo state under the ``uecda`` rules with the other hands filled by unseen cards of
the right counts (arbitrarily: the bot sees only its seat's view, which holds none of them), so
the engine lists the legal actions and builds the view exactly as on dennou's own host.
"""

from __future__ import annotations

import random
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dennou.core.actions import Action
from dennou.core.bot import Bot
from dennou.core.errors import DennouError
from dennou.core.game import Game
from dennou.core.rng import make_rng
from dennou.games import get
from dennou.games.daifugo import cards as C
from dennou.games.daifugo.actions import Give, Pass, Play
from dennou.games.daifugo.rules import DaifugoRules
from dennou.games.daifugo.state import DaifugoState, ExchangeStep, Played
from dennou.uecda import wire


@dataclass
class Summary:
    """What a client's run came to.

    Attributes:
        player: Its player number.
        games: Games played.
        points: UECda points (5 for 大富豪 ... 1 for 大貧民) summed over the games.
        rejected: Plays of cards the server rejected (counted as passes); a pass the server
            answers "rejected" is not counted.
        places: Its finishing place in each game (1 = first out).
    """

    player: int
    games: int = 0
    points: int = 0
    rejected: int = 0
    places: list[int] = field(default_factory=list)


class Connection:
    """A blocking socket that reads whole messages within a time limit.

    Args:
        host: The server.
        port: Its port.
        timeout: Seconds to wait for each message.
    """

    def __init__(self, host: str, port: int, timeout: float) -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.settimeout(timeout)

    def read(self, size: int) -> bytes:
        """Exactly ``size`` bytes.

        Raises:
            DennouError: The server closed the connection or went silent.
        """
        chunks: list[bytes] = []
        left = size
        while left:
            try:
                chunk = self.sock.recv(left)
            except TimeoutError:
                raise DennouError("the server sent nothing in time") from None
            if not chunk:
                raise DennouError("the server closed the connection")
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    def table(self) -> wire.Table:
        """The next table."""
        return wire.decode_table(self.read(wire.TABLE_BYTES))

    def int(self) -> int:
        """The next int."""
        return wire.decode_int(self.read(wire.INT_BYTES))

    def send(self, table: wire.Table) -> None:
        """Send a table."""
        self.sock.sendall(wire.encode_table(table))

    def close(self) -> None:
        """Close the socket."""
        self.sock.close()


class Mirror:
    """The game as one player of a UECda server knows it (see the module's docstring).

    Args:
        game: The Daifugo game.
        player: The player's number.
    """

    def __init__(self, game: Game[Any, Any], player: int) -> None:
        self.game = game
        self.rules: DaifugoRules = game.make_rules({"preset": "uecda", "games": 10_000})
        self.player = player
        self.players = tuple(f"player {p}" for p in range(wire.PLAYERS))
        self.game_no = 0
        self.new_game(wire.empty_table())

    def new_game(self, table: wire.Table) -> None:
        """A game starts with this hand table."""
        self.game_no += 1
        self.hand = C.card_set(self._codes(wire.cards_of_table(table)))
        self.counts = list(table[6][:5])
        self.classes = list(table[6][5:10])
        self.gift = table[5][1]
        """Cards to give back in this game's exchange (0: none)."""
        self.seen = 0
        """Cards seen played this game (a card set)."""
        self.top: Played | None = None
        self.revolution = self.back = False
        self.lock = 0
        self.out: list[int] = []
        """Players out this game, in order."""

    def turn(self, table: wire.Table) -> None:
        """Every turn's own table: the hand and the state as they are now."""
        self.hand = C.card_set(self._codes(wire.cards_of_table(_cards_only(table))))
        row5, row6 = table[5], table[6]
        self.counts = list(row6[:5])
        # the classes are the hand table's: during a game tndhms writes the players out over
        # them (wire.classes), which says nothing of the last game's classes
        self.back, self.revolution = bool(row5[5]), bool(row5[6])
        if row5[4]:
            self.top, self.lock = None, 0

    def field(self, table: wire.Table) -> None:
        """The field table after a play or a pass."""
        row5 = table[5]
        actor = row5[3]
        cards = wire.play_of_table(_cards_only(table))
        before = self.counts[actor] if 0 <= actor < wire.PLAYERS else 0
        self.counts = list(table[6][:5])
        if cards:
            readings = C.combo_from(cards, suit_jokers=self.rules.suit_lock, sequences=True)
            if readings:
                combo = readings[0]
                if self.top is None or self.top.combo != combo or before != self.counts[actor]:
                    self.top = Played(actor, combo)
                    self.seen |= combo.cards
        self.back, self.revolution = bool(row5[5]), bool(row5[6])
        self.lock = self.top.combo.suits if row5[7] and self.top is not None else 0
        for p in range(wire.PLAYERS):
            if self.counts[p] == 0 and p not in self.out:
                self.out.append(p)

    def state(self, phase: str, gift: int = 0) -> DaifugoState:
        """The mirror as a Daifugo state in ``phase``, the seat's own decision due.

        Args:
            phase: ``play``, or ``exchange`` (giving ``gift`` cards back).
            gift: Cards to give back in the exchange.
        """
        me = self.player
        unseen = [
            c for c in C.deck(self.rules.jokers) if not (self.hand | self.seen) & C.card_set([c])
        ]
        hands = []
        for p in range(wire.PLAYERS):
            if p == me:
                hands.append(self.hand)
            else:
                k = min(self.counts[p], len(unseen))
                hands.append(C.card_set(unseen[:k]))
                unseen = unseen[k:]
        titles = (
            tuple(wire.TITLES.get(c) for c in self.classes) if self.game_no > 1 else (None,) * 5
        )
        s = DaifugoState(
            rules=self.rules,
            players=self.players,
            phase=phase,  # type: ignore[arg-type]
            game_no=self.game_no,
            deals=self.game_no,
            order=tuple(range(wire.PLAYERS)),
            hands=tuple(hands),
            titles=titles,
            points=(0,) * wire.PLAYERS,
        )
        if phase == "exchange":
            receiver = next(
                (p for p in range(wire.PLAYERS) if self.classes[p] == 4 - self.classes[me]), me
            )
            s.steps = (ExchangeStep(me, receiver, gift, "gift"),)
            return s
        s.turn = me
        s.field = (self.top,) if self.top is not None else ()
        s.last = self.top.seat if self.top is not None else me
        s.discards = self.seen
        s.revolution, s.back, s.lock = self.revolution, self.back, self.lock
        s.finished = tuple(self.out)
        return s

    @staticmethod
    def _codes(texts: list[str]) -> list[int]:
        codes = C.parse_cards(texts)
        if codes is None:
            raise DennouError(f"the server sent cards that are not cards: {texts}")
        return list(codes)


def _cards_only(table: wire.Table) -> wire.Table:
    """Rows 0-4 of a table (the state rows zeroed): what :mod:`wire`'s card readers look at."""
    return [list(row) if r < 5 else [0] * wire.COLUMNS for r, row in enumerate(table)]


def play(
    bot: Bot | Callable[[Game[Any, Any]], Bot],
    host: str,
    port: int,
    *,
    name: str,
    seed: int | None = None,
    timeout: float = 600.0,
    progress: Callable[[str], None] | None = None,
) -> Summary:
    """Play ``bot`` on a UECda server until it says every game is over.

    Args:
        bot: A bot, or a factory building one for the game.
        host: The server.
        port: Its port.
        name: The name in the profile (ASCII, 14 characters kept).
        seed: Seed of the bot's choices (``None``: fresh).
        timeout: Seconds to wait for each message from the server.
        progress: Called with a line after each game.

    Raises:
        DennouError: The server broke the protocol, closed early or went silent.
        OSError: No connection.
    """
    game = get("daifugo")
    player_bot = bot if isinstance(bot, Bot) else bot(game)
    rng = make_rng(seed) if seed is not None else random.Random()
    conn = Connection(host, port, timeout)
    try:
        conn.send(wire.profile_table(name))
        player = conn.int()
        if not 0 <= player < wire.PLAYERS:
            raise DennouError(f"the server gave player number {player}")
        summary = Summary(player)
        mirror = Mirror(game, player)
        while True:
            mirror.new_game(conn.table())  # the hand table; the givers owe cards back
            player_bot.reset(seat=player, rules=mirror.rules, players=list(mirror.players))
            if mirror.gift:
                action = _decide(game, player_bot, mirror.state("exchange", mirror.gift), rng)
                cards = action.cards if isinstance(action, Give) else ()
                conn.send(wire.hand_table(cards))
            over = _play_game(conn, game, player_bot, mirror, summary, rng)
            summary.games += 1
            place = mirror.out.index(player) + 1 if player in mirror.out else wire.PLAYERS
            summary.places.append(place)
            summary.points += wire.PLAYERS + 1 - place
            if progress is not None:
                progress(f"game {summary.games}: place {place}, {summary.points} points in all")
            if over:
                return summary
    finally:
        conn.close()


def _play_game(
    conn: Connection,
    game: Game[Any, Any],
    bot: Bot,
    mirror: Mirror,
    summary: Summary,
    rng: random.Random,
) -> bool:
    """The turns of one game; whether every game is over."""
    while True:
        table = conn.table()
        mirror.turn(table)
        if table[5][2] == 1:
            action = _decide(game, bot, mirror.state("play"), rng)
            cards = list(action.cards) if isinstance(action, Play) else []
            conn.send(wire.play_table(cards, reverse=mirror.revolution != mirror.back))
            # the organisers' server answers "rejected" to every pass on a field with cards
            # (a pass is no play it could accept): only a play of cards refused is counted
            if conn.int() == wire.REJECTED and cards:
                summary.rejected += 1
        mirror.field(conn.table())
        what = conn.int()
        if what == wire.GAME_OVER:
            return False
        if what == wire.ALL_OVER:
            return True
        if what != wire.GO_ON:
            raise DennouError(f"the server sent {what} after a play (0, 1 or 2 expected)")


def _decide(game: Game[Any, Any], bot: Bot, state: DaifugoState, rng: random.Random) -> Action:
    me = state.turn if state.phase == "play" else state.steps[0].giver
    legal = game.legal_actions(state, me)
    if not legal:
        return Pass()
    action = bot.act(game.view(state, me), legal, rng)
    return action


__all__ = ["Connection", "Mirror", "Summary", "play"]
