"""Talk helpers every game with talk channels shares: line limits, channel names, recent lines.

Channels are ``public`` (everyone at the table), ``pair:<a>-<b>`` (two seats, lower first),
``team:<name>`` and ``room`` (games decide who is in those). ``spectators`` (:data:`SPECTATORS`)
is the host's, not a game's: the spectators' own room, which no game state keeps (see
:func:`spectator_talk`). Talk is a state transition
(:meth:`dennou.core.game.Game.talk`): the state keeps every line for the record, and views carry
only the most recent :data:`RECENT_TALK` lines a seat may read, so that a chatty table cannot make
every view grow without bound (the record keeps the whole conversation).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from dennou.core.errors import IllegalActionError
from dennou.core.game import Event, Seat, TalkLine
from dennou.core.jsondata import to_json

MAX_TALK = 500
"""The longest line of talk, in characters: what a game accepts, and what the host lets through
(after cleaning, :func:`dennou.server.text.clean_talk`)."""

RECENT_TALK = 50
"""How many of the lines a seat may read its view carries (the most recent ones)."""

SPECTATORS = "spectators"
"""The spectators' room: only spectators speak there, and a host shows it to players only once
the game is over. No game names a channel so."""

T = TypeVar("T")


def pair_channel(a: Seat, b: Seat) -> str:
    """The private channel of seats ``a`` and ``b``: ``pair:<lower>-<higher>``."""
    lo, hi = (a, b) if a < b else (b, a)
    return f"pair:{lo}-{hi}"


def pair_seats(channel: str) -> tuple[int, int] | None:
    """The seats of a ``pair:<a>-<b>`` channel as :func:`pair_channel` spells it, else ``None``."""
    if not channel.startswith("pair:"):
        return None
    a, sep, b = channel[5:].partition("-")
    if not sep or not a.isdigit() or not b.isdigit():
        return None
    lo, hi = int(a), int(b)
    return (lo, hi) if pair_channel(lo, hi) == channel and lo != hi else None


def hears(channel: str, seat: Seat | None) -> bool:
    """Whether ``seat`` (``None``: a spectator) reads ``public`` and ``pair:`` lines of ``channel``.

    ``team:`` and ``room`` channels are the game's to decide: they answer ``False`` here.
    """
    if channel == "public":
        return True
    seats = pair_seats(channel)
    return seats is not None and seat in seats


def check_line(text: str, channel: str) -> None:
    """Refuse an empty line or one longer than :data:`MAX_TALK`.

    Raises:
        IllegalActionError: The line is empty or too long.
    """
    if not text.strip() or len(text) > MAX_TALK:
        raise IllegalActionError(
            f"a line of talk has 1-{MAX_TALK} characters, got {len(text)}",
            channel=channel,
            rule="talk",
        )


def talk_event(line: TalkLine, audience: frozenset[int] | None = None) -> Event:
    """The event of a line said, for ``audience`` (``None``: everyone).

    Its text is ``[channel] name: text``, with ``(spectator)`` after a spectator's name.
    """
    who = line.name if line.speaker is not None else f"{line.name} (spectator)"
    return Event("talk", f"[{line.channel}] {who}: {line.text}", to_json(line), audience)


def spectator_talk(line: TalkLine) -> Event:
    """The event of a spectators' room line (``line.channel`` is :data:`SPECTATORS`).

    Its audience is everyone, as in the record published after the game; while the game is on,
    the host keeps it from the seats (:func:`is_spectator_talk`).
    """
    return talk_event(line)


def is_spectator_talk(event: Event) -> bool:
    """Whether ``event`` is a line of the spectators' room."""
    return event.kind == "talk" and event.data.get("channel") == SPECTATORS


def speaker_name(players: Sequence[str], speaker: Seat | None, name: str) -> str:
    """The name a line is said under: the given name, else the seat's player, else ``spectator``."""
    if name:
        return name
    return players[speaker] if speaker is not None else "spectator"


def recent(lines: Sequence[T], limit: int = RECENT_TALK) -> list[T]:
    """The last ``limit`` of ``lines`` (all of them when there are fewer)."""
    return list(lines[-limit:]) if limit > 0 else []
